// Package ollamatest runs a real Ollama server for tests, with tiny models
// it generates at test time. Test code only.
//
// The server is the binary named by CROSSMEM_TEST_OLLAMA (built from
// source by scripts/build-ollama.sh; .ci/run sets the variable). Without
// it, Start skips the test with a message saying how to run it. Each
// Start launches `ollama serve` on a free loopback port with its own
// model folder and home in the test's temporary directory, so tests never
// touch a user's Ollama or its models, and stops it when the test ends.
//
// No pretrained weights can be downloaded here, so the models are
// generated: a llama-architecture chat model with a byte-fallback
// vocabulary and random weights (the server's tokenizer, sampler and
// JSON-schema grammar are real; what it says is noise), and a
// BERT-architecture embedding model whose vectors are, in effect, bags of
// letter n-grams. They are loaded with `ollama create` from a Modelfile,
// as a user would load a GGUF file. The quality of a real model's
// paraphrases is not, and cannot be, tested with them.
package ollamatest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// EnvBinary names the environment variable holding the path of the ollama
// binary; tests that need a real server skip when it is unset.
const EnvBinary = "CROSSMEM_TEST_OLLAMA"

// Server is a running `ollama serve`.
type Server struct {
	// URL is the server's base URL, http://127.0.0.1:<port>.
	URL string
	// Addr is host:port, the form OLLAMA_HOST takes.
	Addr string
	bin  string
	dir  string
	env  []string
	cmd  *exec.Cmd
	log  *bytes.Buffer
}

// Options configures Start.
type Options struct {
	// NumParallel is OLLAMA_NUM_PARALLEL: how many requests one loaded
	// model serves at once (0: Ollama's default, 1).
	NumParallel int
}

// Binary returns the ollama binary's path from EnvBinary, skipping the
// test when it is unset and failing it when the file is not there.
func Binary(t testing.TB) string {
	t.Helper()
	bin := os.Getenv(EnvBinary)
	if bin == "" {
		t.Skipf("no Ollama server to test against: set %s to an ollama binary (scripts/build-ollama.sh builds one; .ci/run does)", EnvBinary)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s=%s: %v", EnvBinary, bin, err)
	}
	return bin
}

// Start launches a server in the test's temporary directory (see Launch).
// It skips the test when EnvBinary is unset; the server stops when the
// test ends, and its log is printed if the test failed.
func Start(t testing.TB, o Options) *Server {
	t.Helper()
	s, err := Launch(Binary(t), t.TempDir(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.Close()
		if t.Failed() {
			t.Logf("ollama serve log (last 4 KB):\n%s", tail(s.Log(), 4096))
		}
	})
	return s
}

// Launch starts `ollama serve` from bin on a free loopback port, with its
// models and home in dir, and waits until it answers (at most 60 s). Close
// stops it.
func Launch(bin, dir string, o Options) (*Server, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	s := &Server{Addr: "127.0.0.1:" + strconv.Itoa(port), bin: bin, dir: dir, log: &bytes.Buffer{}}
	s.URL = "http://" + s.Addr
	s.env = append(os.Environ(),
		"OLLAMA_HOST="+s.Addr,
		"OLLAMA_MODELS="+filepath.Join(dir, "models"),
		"HOME="+dir, // the server writes its key pair under ~/.ollama
		"OLLAMA_NOPRUNE=1",
		"OLLAMA_KEEP_ALIVE=10m",
	)
	if o.NumParallel > 0 {
		s.env = append(s.env, "OLLAMA_NUM_PARALLEL="+strconv.Itoa(o.NumParallel))
	}
	s.cmd = exec.Command(bin, "serve")
	s.cmd.Env = s.env
	s.cmd.Stdout, s.cmd.Stderr = s.log, s.log
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its runners stop with it
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s serve: %w", bin, err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(s.URL + "/api/version")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s, nil
			}
		}
		if time.Now().After(deadline) {
			s.Close()
			return nil, fmt.Errorf("ollama serve did not answer at %s within 60 s:\n%s", s.URL, tail(s.Log(), 2048))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Log returns what the server printed so far (call it after Close for
// the whole of it).
func (s *Server) Log() string { return s.log.String() }

// Close stops the server and the model runners it started.
func (s *Server) Close() {
	if s.cmd.Process == nil || s.cmd.ProcessState != nil {
		return
	}
	syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
}

// ChatModel generates a tiny llama chat model from seed and creates it on
// the server as name, failing the test on error (see CreateChatModel).
func (s *Server) ChatModel(t testing.TB, name string, seed uint64) {
	t.Helper()
	if err := s.CreateChatModel(name, seed); err != nil {
		t.Fatal(err)
	}
}

// EmbedModel generates the tiny BERT embedding model from seed and
// creates it on the server as name, failing the test on error.
func (s *Server) EmbedModel(t testing.TB, name string, seed uint64) {
	t.Helper()
	if err := s.CreateEmbedModel(name, seed); err != nil {
		t.Fatal(err)
	}
}

// Digest returns the model's digest as GET /api/tags reports it, failing
// the test on error.
func (s *Server) Digest(t testing.TB, name string) string {
	t.Helper()
	d, err := s.ModelDigest(name)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// CreateChatModel generates a tiny llama chat model from seed and creates
// it on the server as name. Different seeds give models with different
// digests; the same seed the same one. Its Modelfile sets one thread (two
// threads on a busy two-core machine are slower than one for a model this
// small). Asked at temperature 0, a random model tends to repeat one token
// until Ollama stops the answer: ask it at a temperature above zero.
func (s *Server) CreateChatModel(name string, seed uint64) error {
	gguf := filepath.Join(s.dir, fmt.Sprintf("llama-%d.gguf", seed))
	if err := writeTinyLlama(gguf, seed); err != nil {
		return err
	}
	return s.create(name, "FROM "+gguf+"\n"+
		`TEMPLATE """{{- range .Messages }}<|{{ .Role }}|>`+"\n"+`{{ .Content }}`+"\n"+`{{ end }}<|assistant|>`+"\n"+`"""`+"\n"+
		"PARAMETER num_thread 1\n")
}

// CreateEmbedModel generates the tiny BERT embedding model from seed and
// creates it on the server as name.
func (s *Server) CreateEmbedModel(name string, seed uint64) error {
	gguf := filepath.Join(s.dir, fmt.Sprintf("bert-%d.gguf", seed))
	if err := writeTinyBERT(gguf, seed); err != nil {
		return err
	}
	return s.create(name, "FROM "+gguf+"\nPARAMETER num_thread 1\n")
}

// create runs `ollama create name -f Modelfile` against the server.
func (s *Server) create(name, modelfile string) error {
	mf := filepath.Join(s.dir, "Modelfile-"+strings.NewReplacer(":", "_", "/", "_").Replace(name))
	if err := os.WriteFile(mf, []byte(modelfile), 0o644); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.bin, "create", name, "-f", mf)
	cmd.Env = s.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("ollama create %s: %v\n%s", name, err, tail(string(out), 2048))
	}
	return nil
}

// ModelDigest returns the model's digest as GET /api/tags reports it.
func (s *Server) ModelDigest(name string) (string, error) {
	resp, err := http.Get(s.URL + "/api/tags")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var tags struct {
		Models []struct{ Name, Digest string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&tags); err != nil {
		return "", err
	}
	for _, m := range tags.Models {
		if m.Name == name || m.Name == name+":latest" {
			return m.Digest, nil
		}
	}
	return "", fmt.Errorf("model %s not on the server", name)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
