package cli_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/crossmem/crossmem/internal/cli"
	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/metadata/metadatatest"
	"github.com/crossmem/crossmem/internal/pdf"
)

// envExitFile names the file the crossmem command writes its exit code to,
// for the exitcode script command (testscript itself only knows zero and
// non-zero).
const envExitFile = "CROSSMEM_TEST_EXIT_FILE"

// wazeroDir is the compilation cache for pdfium shared by every script
// and test (corpustest.WazeroCache, shared with the other packages), so
// pdfium is compiled once per machine rather than once per crossmem
// invocation (~3 s each).
var wazeroDir string

// testingM wraps *testing.M to set up wazeroDir before the tests (and only
// there: not when the binary runs as the crossmem command).
type testingM struct{ m *testing.M }

func (w testingM) Run() int {
	wazeroDir = corpustest.WazeroCache()
	if err := os.MkdirAll(wazeroDir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return w.m.Run()
}

func TestMain(m *testing.M) {
	testscript.Main(testingM{m}, map[string]func(){
		"crossmem": crossmemMain,
	})
}

// crossmemMain is the crossmem command as scripts run it: cli.Main in the
// test binary.
func crossmemMain() {
	code := cli.Main(context.Background(), os.Args[1:], cli.System(), cli.Servers{})
	if f := os.Getenv(envExitFile); f != "" {
		os.WriteFile(f, []byte(strconv.Itoa(code)), 0o644)
	}
	os.Exit(code)
}

var warmOnce sync.Once

// warmPDFium fills wazeroDir by starting pdfium once.
func warmPDFium(t *testing.T) {
	t.Helper()
	warmOnce.Do(func() {
		e, err := pdf.Open(t.Context(), pdf.Options{CacheDir: wazeroDir})
		if err != nil {
			t.Fatalf("start pdfium: %v", err)
		}
		e.Close()
	})
}

// scriptPDFs are the corpus PDFs every script finds in $WORK.
var scriptPDFs = map[string]string{
	"paper.pdf":  "pm_2304.02623v1.pdf",      // 4 pages, title/author/date in its metadata
	"nometa.pdf": "gr_dehypenisation1.pdf",   // 1 page, no usable metadata
	"scan.pdf":   "dl_ocr_test.pdf",          // 1 image-only page, no text layer
	"s2orc.pdf":  "pm_2020.acl-main.447.pdf", // 15 pages, printed page numbers 4969-4983, line-end hyphens
}

// unusedAddr returns a local address nothing listens on.
func unusedAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	addr := l.Addr().String()
	return addr, l.Close()
}

func TestScripts(t *testing.T) {
	t.Parallel()
	pdfDir := corpustest.Dir(t, "pdf")
	warmPDFium(t)
	api := apiEnv(t)
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			for dst, src := range scriptPDFs {
				data, err := os.ReadFile(filepath.Join(pdfDir, src))
				if err != nil {
					return err
				}
				if err := os.WriteFile(filepath.Join(env.WorkDir, dst), data, 0o644); err != nil {
					return err
				}
			}
			cache := filepath.Join(env.WorkDir, "cache")
			if err := os.MkdirAll(cache, 0o755); err != nil {
				return err
			}
			if err := os.Symlink(wazeroDir, filepath.Join(cache, "wazero")); err != nil {
				return err
			}
			// Nothing answers at dead: Ollama is "not running".
			dead, err := unusedAddr()
			if err != nil {
				return err
			}
			env.Setenv("CROSSMEM_HOME", filepath.Join(env.WorkDir, "home"))
			env.Setenv("CROSSMEM_CONFIG", filepath.Join(env.WorkDir, "config.toml"))
			env.Setenv("CROSSMEM_CACHE", cache)
			env.Setenv("OLLAMA_HOST", "http://"+dead)
			// The metadata sources are the recordings (metadatatest).
			for k, v := range api {
				env.Setenv(k, v)
			}
			env.Setenv(envExitFile, filepath.Join(env.WorkDir, ".exitcode"))
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode":       cmdExitcode,
			"sha256":         cmdSHA256,
			"lsdir":          cmdLsdir,
			"cpglob":         cmdCpglob,
			"jsonfields":     cmdJSONFields,
			"mutate-note":    cmdMutateNote,
			"edit-note":      cmdEditNote,
			"chunk-id":       cmdChunkID,
			"clear-warnings": cmdClearWarnings,
		},
	})
}

// apiEnv starts metadatatest's replay of the recorded metadata APIs, with
// a corpus PDF (gr_dehypenisation1.pdf) as arXiv's PDF of 2104.12255v1 and
// the recorded 2104.12255v1 as the answer for the versionless id too, and
// returns the environment that points crossmem at it.
func apiEnv(t *testing.T) map[string]string {
	t.Helper()
	s := metadatatest.NewServer(t)
	s.Answer(metadata.SourceArxiv, "/api/query?id_list=2104.12255", http.StatusOK, corpustest.File(t, "api", "arxiv/2104.12255v1.xml"))
	s.Serve("/pdf/2104.12255v1", http.StatusOK, "application/pdf", corpustest.PDF(t, "gr_dehypenisation1.pdf"))
	env := s.Env()
	env["CROSSMEM_ARXIV_PDF"] = s.URL() + "/pdf"
	return env
}

// exitcode N: the last crossmem command exited with status N.
func cmdExitcode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: exitcode N")
	}
	f := ts.Getenv(envExitFile)
	data, err := os.ReadFile(f)
	if err != nil {
		ts.Fatalf("no exit code recorded (did crossmem run?): %v", err)
	}
	os.Remove(f)
	if got := string(data); got != args[0] {
		ts.Fatalf("crossmem exited with status %s; want %s", got, args[0])
	}
}

// sha256 FILE: print the file's SHA-256.
func cmdSHA256(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: sha256 FILE")
	}
	sum := sha256.Sum256([]byte(ts.ReadFile(args[0])))
	fmt.Fprintln(ts.Stdout(), hex.EncodeToString(sum[:]))
}

// lsdir DIR: print the names in DIR, sorted, one per line.
func cmdLsdir(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: lsdir DIR")
	}
	entries, err := os.ReadDir(ts.MkAbs(args[0]))
	ts.Check(err)
	out := ts.Stdout() // even when empty, so stdout is not the previous command's
	for _, e := range entries {
		fmt.Fprintln(out, e.Name())
	}
}

// globOne returns the one file matching pattern.
func globOne(ts *testscript.TestScript, pattern string) string {
	m, err := filepath.Glob(ts.MkAbs(pattern))
	ts.Check(err)
	if len(m) != 1 {
		ts.Fatalf("%s matches %d files %v; want exactly one", pattern, len(m), m)
	}
	return m[0]
}

// cpglob PATTERN DST: copy the one file matching PATTERN to DST (for note
// files, whose names start with the capture time).
func cmdCpglob(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: cpglob PATTERN DST")
	}
	data, err := os.ReadFile(globOne(ts, args[0]))
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), data, 0o644))
}

// jsonfields FILE PATH[=VALUE]...: FILE (or stdout) holds exactly one JSON
// document with a value at each dotted PATH (array elements by index),
// equal to VALUE when given (compared as fmt.Sprint of the decoded value).
// With !, the check must fail.
func cmdJSONFields(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 {
		ts.Fatalf("usage: jsonfields FILE [PATH[=VALUE]...]")
	}
	err := checkJSON(ts.ReadFile(args[0]), args[1:])
	switch {
	case err != nil && !neg:
		ts.Fatalf("%s: %v", args[0], err)
	case err == nil && neg:
		ts.Fatalf("%s: unexpectedly has %v", args[0], args[1:])
	}
}

func checkJSON(text string, paths []string) error {
	var doc any
	dec := json.NewDecoder(strings.NewReader(text))
	if err := dec.Decode(&doc); err != nil {
		return fmt.Errorf("not JSON: %v", err)
	}
	if _, err := dec.Token(); err == nil {
		return errors.New("more than one JSON document")
	}
	for _, a := range paths {
		path, want, hasWant := strings.Cut(a, "=")
		v := doc
		for _, seg := range strings.Split(path, ".") {
			switch x := v.(type) {
			case map[string]any:
				var ok bool
				if v, ok = x[seg]; !ok {
					return fmt.Errorf("no field %q (in %s)", seg, path)
				}
			case []any:
				i, err := strconv.Atoi(seg)
				if err != nil || i < 0 || i >= len(x) {
					return fmt.Errorf("no element %q in an array of %d (in %s)", seg, len(x), path)
				}
				v = x[i]
			default:
				return fmt.Errorf("%s: %q is inside a %T", path, seg, v)
			}
		}
		if hasWant && fmt.Sprint(v) != want {
			return fmt.Errorf("%s = %v; want %s", path, v, want)
		}
	}
	return nil
}

// mutate-note PATTERN: change one word in the first "> " line of at least
// three words in the one note matching PATTERN, as a careless edit would,
// and set $MUTATED_CHUNK to the id of the chunk it belongs to.
func cmdMutateNote(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mutate-note PATTERN")
	}
	path := globOne(ts, args[0])
	data, err := os.ReadFile(path)
	ts.Check(err)
	lines := strings.Split(string(data), "\n")
	chunk := ""
	for i, l := range lines {
		if id, ok := strings.CutPrefix(l, "<!-- chunk id="); ok {
			chunk, _, _ = strings.Cut(id, " ")
			chunk = strings.TrimSuffix(chunk, "-->")
			continue
		}
		text, ok := strings.CutPrefix(l, "> ")
		if !ok || chunk == "" {
			continue
		}
		words := strings.Split(text, " ")
		if len(words) < 3 {
			continue
		}
		old := words[1]
		words[1] = "crossmemmutated"
		if old == words[1] {
			words[1] = "othermutation"
		}
		lines[i] = "> " + strings.Join(words, " ")
		ts.Check(os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644))
		ts.Setenv("MUTATED_CHUNK", chunk)
		fmt.Fprintf(ts.Stdout(), "mutated chunk %s: %q -> %q\n", chunk, old, words[1])
		return
	}
	ts.Fatalf("%s has no chunk line of three or more words", path)
}

// edit-note PATTERN OLD NEW: replace the one occurrence of OLD with NEW in
// the one file matching PATTERN, as an agent editing a note would. With !,
// OLD must not be there exactly once (nothing is changed).
func cmdEditNote(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: edit-note PATTERN OLD NEW")
	}
	path := globOne(ts, args[0])
	data, err := os.ReadFile(path)
	ts.Check(err)
	switch n := strings.Count(string(data), args[1]); {
	case n != 1 && !neg:
		ts.Fatalf("%s has %q %d times; want once", path, args[1], n)
	case n != 1:
		return
	case neg:
		ts.Fatalf("%s has %q once", path, args[1])
	}
	ts.Check(os.WriteFile(path, []byte(strings.Replace(string(data), args[1], args[2], 1)), 0o644))
}

// chunk-id PATTERN TEXT: set $CHUNK to the id of the chunk of the one note
// matching PATTERN whose "> " lines contain TEXT (chunk ids follow the
// layout; scripts name chunks by their words). With !, no line holds it.
func cmdChunkID(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: chunk-id PATTERN TEXT")
	}
	data, err := os.ReadFile(globOne(ts, args[0]))
	ts.Check(err)
	chunk := ""
	for _, l := range strings.Split(string(data), "\n") {
		if id, ok := strings.CutPrefix(l, "<!-- chunk id="); ok {
			chunk, _, _ = strings.Cut(id, " ")
			chunk = strings.TrimSuffix(chunk, "-->")
			continue
		}
		if text, ok := strings.CutPrefix(l, "> "); ok && chunk != "" && strings.Contains(text, args[1]) {
			if neg {
				ts.Fatalf("chunk %s holds %q", chunk, args[1])
			}
			ts.Setenv("CHUNK", chunk)
			fmt.Fprintf(ts.Stdout(), "chunk %s\n", chunk)
			return
		}
	}
	if !neg {
		ts.Fatalf("no chunk line holds %q", args[1])
	}
}

// clear-warnings KEY: remove the metadata warnings from KEY's sidecar, as
// if its sources had agreed (the recordings make single-source records,
// which carry a "not cross-checked" warning).
func cmdClearWarnings(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: clear-warnings KEY")
	}
	lib, err := library.Open(ts.Getenv("CROSSMEM_HOME"))
	ts.Check(err)
	p, err := lib.Find(args[0])
	ts.Check(err)
	if len(p.Metadata.Warnings) == 0 {
		ts.Fatalf("%s has no metadata warnings to clear", args[0])
	}
	p.Warnings, p.Metadata.Warnings = nil, nil
	ts.Check(lib.WriteSidecar(p))
}

// The helper commands are tested too: a script passing because a helper
// checks nothing would prove nothing.
func TestHelperCommands(t *testing.T) {
	t.Parallel()
	const note = "---\ncite_key: x\n---\n\n<!-- chunk id=p1s0c1 type=heading -->\n> Intro\n\n<!-- chunk id=p1s0c2 type=paragraph -->\n> two words\n> the third line here\n"
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "helpers"),
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			return os.WriteFile(filepath.Join(env.WorkDir, "1_x.md"), []byte(note), 0o644)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"jsonfields":  cmdJSONFields,
			"mutate-note": cmdMutateNote,
			"edit-note":   cmdEditNote,
			"chunk-id":    cmdChunkID,
			"cpglob":      cmdCpglob,
			"sha256":      cmdSHA256,
			"lsdir":       cmdLsdir,
		},
	})
}
