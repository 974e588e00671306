package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/cli"
	"github.com/crossmem/crossmem/internal/corpustest"
)

// inProcess runs cli.Main in this process with the given environment and
// terminal flags, returning the exit code, stdout and stderr.
type inProcess struct {
	env map[string]string
}

func (p inProcess) run(t *testing.T, tty bool, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := cli.Main(t.Context(), args, cli.IO{
		In:        strings.NewReader(""),
		Out:       &out,
		Err:       &errOut,
		StdoutTTY: tty,
		StderrTTY: tty,
		Getenv:    func(k string) string { return p.env[k] },
	}, cli.Servers{})
	return code, out.String(), errOut.String()
}

// emptyInProcess makes an empty library in a folder of t: its home,
// config and cache (sharing the warm wazero cache), every network service
// pointed at a port nothing listens on. dir is that folder.
func emptyInProcess(t *testing.T) (inProcess, string) {
	t.Helper()
	warmPDFium(t)
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache")
	if err := os.MkdirAll(cache, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(wazeroDir, filepath.Join(cache, "wazero")); err != nil {
		t.Fatal(err)
	}
	addr, err := unusedAddr()
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + addr
	p := inProcess{env: map[string]string{
		"CROSSMEM_HOME":         filepath.Join(dir, "home"),
		"CROSSMEM_CONFIG":       filepath.Join(dir, "config.toml"),
		"CROSSMEM_CACHE":        cache,
		"OLLAMA_HOST":           dead,
		"CROSSMEM_ARXIV_API":    dead + "/api/query",
		"CROSSMEM_ARXIV_PDF":    dead + "/pdf",
		"CROSSMEM_CROSSREF_API": dead,
		"CROSSMEM_OPENALEX_API": dead, "CROSSMEM_DATACITE_API": dead, "CROSSMEM_UNPAYWALL_API": dead,
	}}
	return p, dir
}

// newInProcess makes a library with the corpus paper captured and compiled.
func newInProcess(t *testing.T) inProcess {
	t.Helper()
	data := corpustest.PDF(t, scriptPDFs["paper.pdf"])
	p, dir := emptyInProcess(t)
	pdfPath := filepath.Join(dir, "paper.pdf")
	if err := os.WriteFile(pdfPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	p.env["PAPER"] = pdfPath
	if code, out, errOut := p.run(t, false, "capture", pdfPath); code != 0 {
		t.Fatalf("capture: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := p.run(t, false, "compile", "--no-llm", "shen2023summarization"); code != 0 {
		t.Fatalf("compile: exit %d\n%s%s", code, out, errOut)
	}
	return p
}

// oneJSON decodes s, which must hold exactly one JSON object.
func oneJSON(t *testing.T, what, s string) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s: output is not a JSON object: %v\n%s", what, err, s)
	}
	if _, err := dec.Token(); err == nil {
		t.Fatalf("%s: more than one JSON document:\n%s", what, s)
	}
	return v
}

// TestJSONOutputIgnoresTerminal checks that every --json output is one
// valid JSON document whether or not stdout and stderr are terminals, and
// the same document in both cases.
func TestJSONOutputIgnoresTerminal(t *testing.T) {
	t.Parallel()
	p := newInProcess(t)
	for _, tc := range []struct {
		name string
		args []string
		code int
		keys []string
	}{
		{"capture", []string{"capture", "--json", p.env["PAPER"]}, 0, []string{"cite_key", "existing", "pdf", "sidecar", "metadata", "consulted"}},
		{"compile", []string{"compile", "--json", "--no-llm", "shen2023summarization"}, 0, []string{"cite_key", "note", "chunks", "pages", "unquotable_pages", "llm"}},
		{"compile with notice", []string{"compile", "--json", "shen2023summarization"}, 0, []string{"cite_key", "note", "chunks", "llm"}},
		{"verify", []string{"verify", "--json"}, 0, []string{"notes", "chunks", "drifts", "errors"}},
		{"search", []string{"search", "--json", "expository", "writing"}, 0, []string{"query", "results"}},
		{"search nothing", []string{"search", "--json", "zzyzx"}, 0, []string{"query", "results"}},
		{"cite", []string{"cite", "--json", "--format", "apa", "shen2023summarization"}, 0, []string{"cite_key", "format", "citation"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var outs [2]string
			for i, tty := range []bool{false, true} {
				code, out, errOut := p.run(t, tty, tc.args...)
				if code != tc.code {
					t.Fatalf("tty=%v: exit %d; want %d\nstdout:\n%s\nstderr:\n%s", tty, code, tc.code, out, errOut)
				}
				v := oneJSON(t, tc.name, out)
				for _, k := range tc.keys {
					if _, ok := v[k]; !ok {
						t.Errorf("tty=%v: no %q in %s", tty, k, out)
					}
				}
				// No progress bars or [compile] lines on either stream.
				if strings.Contains(errOut, "[compile]") || strings.Contains(errOut, "\r") {
					t.Errorf("tty=%v: progress output on stderr with --json: %q", tty, errOut)
				}
				outs[i] = out
			}
			if outs[0] != outs[1] {
				t.Errorf("--json output depends on the terminal:\nnot a TTY:\n%s\nTTY:\n%s", outs[0], outs[1])
			}
		})
	}

	t.Run("error", func(t *testing.T) {
		for _, tty := range []bool{false, true} {
			code, out, errOut := p.run(t, tty, "cite", "--json", "shen2023summ")
			if code != 1 || out != "" {
				t.Errorf("tty=%v: exit %d stdout %q", tty, code, out)
			}
			lines := strings.Split(strings.TrimRight(errOut, "\n"), "\n")
			v := oneJSON(t, "error", lines[len(lines)-1])
			if msg, _ := v["error"].(string); !strings.HasPrefix(msg, "cite_key 'shen2023summ' not found. Did you mean:") {
				t.Errorf("tty=%v: error object %v", tty, v)
			}
		}
	})

	t.Run("drift", func(t *testing.T) {
		notes, _ := filepath.Glob(filepath.Join(p.env["CROSSMEM_HOME"], "wiki", "*_shen2023summarization.md"))
		if len(notes) != 1 {
			t.Fatalf("notes: %v", notes)
		}
		data, _ := os.ReadFile(notes[0])
		edited := strings.Replace(string(data), "\n> ", "\n> EDITED ", 1)
		if err := os.WriteFile(notes[0], []byte(edited), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, tty := range []bool{false, true} {
			code, out, _ := p.run(t, tty, "verify", "--json")
			if code != 1 {
				t.Errorf("tty=%v: exit %d; want 1", tty, code)
			}
			v := oneJSON(t, "verify", out)
			if d, _ := v["drifts"].([]any); len(d) != 1 {
				t.Errorf("tty=%v: drifts = %v", tty, v["drifts"])
			}
		}
	})
}

// TestProgressOnlyOnTerminal checks that compile draws progress on stderr
// only when stderr is a terminal, and never on stdout.
func TestProgressOnlyOnTerminal(t *testing.T) {
	corpustest.Slow(t, "compiles a paper four times")
	t.Parallel()
	p := newInProcess(t)
	_, outPlain, errPlain := p.run(t, false, "compile", "--no-llm", "shen2023summarization")
	_, outTTY, errTTY := p.run(t, true, "compile", "--no-llm", "shen2023summarization")
	if errPlain != "" {
		t.Errorf("stderr without a terminal: %q", errPlain)
	}
	if !strings.Contains(errTTY, "[compile] page") {
		t.Errorf("no progress on a terminal's stderr: %q", errTTY)
	}
	if outPlain != outTTY {
		t.Errorf("stdout depends on the terminal:\n%s\nvs\n%s", outPlain, outTTY)
	}
	_, outQuiet, errQuiet := p.run(t, true, "compile", "--quiet", "--no-llm", "shen2023summarization")
	if errQuiet != "" {
		t.Errorf("stderr with --quiet on a terminal: %q", errQuiet)
	}
	// -q prints only the cite key, as capture -q and compile -q of several
	// papers do: no "[compile] loading raw PDF …" log lines.
	if outQuiet != "shen2023summarization\n" {
		t.Errorf("stdout with --quiet: %q, want only the cite key", outQuiet)
	}
	// verify -q: the totals, not a "[verify] Checking" line per paper.
	_, outVerify, _ := p.run(t, false, "verify", "-q")
	if strings.Contains(outVerify, "[verify] Checking") || !strings.Contains(outVerify, "0 drift(s) detected") {
		t.Errorf("verify -q: %q", outVerify)
	}
}
