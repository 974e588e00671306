// Package reliability is crossmem's reliability campaign (issue 11), kept
// so that it runs again: hostile MCP messages, hostile metadata through
// export and import, PDF bombs and huge queries, concurrent index
// rebuilds and first opens, and kill -9 during writing commands. Each
// campaign drives the built binary (cmd/crossmem) as a user or an agent
// would, in a library of its own, and returns its figures.
//
// reliability_test.go runs every campaign at CI size and fails on any
// death, mismatch, failure, corruption or leftover; bench/reliability runs
// them at full size and prints the figures of bench/README.md, with the
// time and peak memory of the bombs.
package reliability

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// offline is a local address nothing listens on: the metadata sources and
// the LLM are unreachable, whatever network the machine has.
const offline = "http://127.0.0.1:1"

// Build builds cmd/crossmem of the module at root into dir and returns the
// binary's path.
func Build(root, dir string) (string, error) {
	out := filepath.Join(dir, "crossmem")
	cmd := exec.Command("go", "build", "-o", out, "./cmd/crossmem")
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/crossmem: %v\n%s", err, b)
	}
	return out, nil
}

// Lib is a library home run by one binary.
type Lib struct {
	Bin   string
	Home  string
	Cache string // CROSSMEM_CACHE, shared between libraries (pdfium's compiled code)
}

// NewLib returns a library in home (created).
func NewLib(bin, home, cache string) (Lib, error) {
	return Lib{Bin: bin, Home: home, Cache: cache}, os.MkdirAll(home, 0o755)
}

// Env is the environment of crossmem on l: this process's without
// crossmem's variables, plus the library's and the offline sources.
func (l Lib) Env() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CROSSMEM_") && !strings.HasPrefix(kv, "OLLAMA_") {
			env = append(env, kv)
		}
	}
	return append(env,
		"CROSSMEM_HOME="+l.Home, "CROSSMEM_CONFIG="+filepath.Join(l.Home, "config.toml"), "CROSSMEM_CACHE="+l.Cache,
		"CROSSMEM_ARXIV_API="+offline+"/api/query", "CROSSMEM_ARXIV_PDF="+offline+"/pdf",
		"CROSSMEM_CROSSREF_API="+offline, "CROSSMEM_OPENALEX_API="+offline, "CROSSMEM_DATACITE_API="+offline,
		"CROSSMEM_UNPAYWALL_API="+offline, "OLLAMA_HOST="+offline)
}

// Command returns crossmem args on l, not started.
func (l Lib) Command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, l.Bin, args...)
	cmd.Env = l.Env()
	cmd.Dir = l.Home
	return cmd
}

// Result is one finished command.
type Result struct {
	Stdout, Stderr string
	Code           int
	Wall           time.Duration
	MaxRSS         int64 // bytes, the process's peak resident set
}

// Run runs crossmem args on l and waits for it. err is set only when the
// process could not run (not for a non-zero exit).
func (l Lib) Run(ctx context.Context, args ...string) (Result, error) {
	cmd := l.Command(ctx, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := Result{Stdout: out.String(), Stderr: errb.String(), Wall: time.Since(start)}
	if cmd.ProcessState != nil {
		r.Code = cmd.ProcessState.ExitCode()
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.MaxRSS = ru.Maxrss * 1024
		}
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		err = nil
	}
	return r, err
}

// MustRun runs crossmem args and returns an error unless it exits 0.
func (l Lib) MustRun(ctx context.Context, args ...string) (Result, error) {
	r, err := l.Run(ctx, args...)
	if err == nil && r.Code != 0 {
		err = fmt.Errorf("crossmem %s: exit %d\n%s", strings.Join(args, " "), r.Code, r.Stderr)
	}
	return r, err
}

// WriteFile writes data to name in the library's home.
func (l Lib) WriteFile(name string, data []byte) (string, error) {
	p := filepath.Join(l.Home, name)
	return p, os.WriteFile(p, data, 0o644)
}

// Sidecars reads every sidecar of the library: cite key → metadata record
// (as JSON objects, so that fields compare whatever their Go types).
func (l Lib) Sidecars() (map[string]map[string]any, error) {
	ms, err := filepath.Glob(filepath.Join(l.Home, "raw", "*.meta.json"))
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]any{}
	for _, m := range ms {
		data, err := os.ReadFile(m)
		if err != nil {
			return nil, err
		}
		var sc struct {
			CiteKey  string         `json:"cite_key"`
			Metadata map[string]any `json:"metadata"`
		}
		if err := json.Unmarshal(data, &sc); err != nil {
			return nil, fmt.Errorf("%s: %w", m, err)
		}
		out[sc.CiteKey] = sc.Metadata
	}
	return out, nil
}

// Leftovers lists what an interrupted command may leave in the library
// and must not be there after the next command: temporary files of atomic
// writes, an import journal, a rebuild's temporary index, raw PDFs without
// a sidecar.
func (l Lib) Leftovers() []string {
	var out []string
	filepath.WalkDir(l.Home, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(l.Home, p)
		n := d.Name()
		switch {
		case strings.Contains(n, ".tmp-"), n == ".journal.json", strings.Contains(n, ".rebuild-"):
			out = append(out, rel)
		case strings.HasPrefix(rel, "raw"+string(filepath.Separator)) && strings.HasSuffix(n, ".pdf"):
			if _, err := os.Stat(strings.TrimSuffix(p, ".pdf") + ".meta.json"); err != nil {
				out = append(out, rel)
			}
		}
		return nil
	})
	return out
}

// CopyDir copies the regular files under src to dst (created).
func CopyDir(dst, src string, skip func(rel string) bool) error {
	return filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if skip != nil && skip(rel) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(filepath.Join(dst, rel))
		if err != nil {
			return err
		}
		_, err = io.Copy(out, in)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		return err
	})
}

func maxRSS(ps *os.ProcessState) int64 {
	if ps == nil {
		return 0
	}
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss * 1024
	}
	return 0
}
