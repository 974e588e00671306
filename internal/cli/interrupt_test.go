package cli_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crossmem/crossmem/internal/cli"
	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/index"
)

// TestInterruptedSaysSo checks that a run stopped by Ctrl-C (its context
// canceled) exits 130 saying "interrupted" and how to finish, never
// "error: context canceled", in text and in --json.
func TestInterruptedSaysSo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := map[string]string{
		"CROSSMEM_HOME":   filepath.Join(dir, "home"),
		"CROSSMEM_CONFIG": filepath.Join(dir, "config.toml"),
		"CROSSMEM_CACHE":  filepath.Join(dir, "cache"),
	}
	if err := os.Mkdir(env["CROSSMEM_HOME"], 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"search", "attention"}, {"search", "attention", "--json"}} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var out, errOut bytes.Buffer
		code := cli.Main(ctx, args, cli.IO{In: strings.NewReader(""), Out: &out, Err: &errOut,
			Getenv: func(k string) string { return env[k] }}, cli.Servers{})
		stderr := errOut.String()
		t.Logf("%v: exit %d\n%s", args, code, stderr)
		if code != cli.ExitInterrupted {
			t.Errorf("%v: exit %d, want %d", args, code, cli.ExitInterrupted)
		}
		if !strings.HasPrefix(stderr, "crossmem: interrupted\ncrossmem: hint: run the same command again to finish\n") {
			t.Errorf("%v: stderr does not say interrupted and what to do:\n%s", args, stderr)
		}
		if strings.Contains(stderr, "context canceled") {
			t.Errorf("%v: stderr shows Go's context error:\n%s", args, stderr)
		}
		if args[len(args)-1] == "--json" && !strings.Contains(stderr, `{"error":"interrupted","hint":"run the same command again to finish"}`) {
			t.Errorf("%v: no JSON error line:\n%s", args, stderr)
		}
	}
}

// TestMissingHomeIsNotAnEmptyLibrary checks that the verbs that read the
// library report a library folder that does not exist (a mistyped
// CROSSMEM_HOME) with exit 1 and the setting to check, and create
// nothing, instead of answering as an empty library (verify's "0 drifts"
// would pass a CI gate); capture and import create it.
func TestMissingHomeIsNotAnEmptyLibrary(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	home := filepath.Join(dir, "no-such-library")
	env := map[string]string{
		"CROSSMEM_HOME":   home,
		"CROSSMEM_CONFIG": filepath.Join(dir, "config.toml"),
		"CROSSMEM_CACHE":  filepath.Join(dir, "cache"),
	}
	draft := filepath.Join(dir, "draft.md")
	if err := os.WriteFile(draft, []byte("As \"quoted here in the draft\" [@smith2020].\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := cli.Main(t.Context(), args, cli.IO{In: strings.NewReader("[]"), Out: &out, Err: &errOut,
			Getenv: func(k string) string { return env[k] }}, cli.Servers{})
		return code, out.String(), errOut.String()
	}
	for _, args := range [][]string{{"list"}, {"search", "attention"}, {"verify"}, {"read", "smith2020", "--page", "1"},
		{"cite", "smith2020"}, {"check", draft}, {"index"}, {"compile", "--all"}, {"list", "--json"}} {
		code, out, stderr := run(args...)
		if code != cli.ExitError || !strings.Contains(stderr, "crossmem: error: the library folder "+home+" does not exist\n") ||
			!strings.Contains(stderr, "crossmem: hint: check CROSSMEM_HOME") {
			t.Errorf("%v: exit %d, want 1 saying the library folder does not exist\nstdout:\n%s\nstderr:\n%s", args, code, out, stderr)
		}
		if _, err := os.Stat(home); err == nil {
			t.Fatalf("%v created the library folder", args)
		}
	}
	if code, _, stderr := run("import", "-"); code != 0 {
		t.Fatalf("import - : exit %d\n%s", code, stderr)
	}
	if code, out, stderr := run("list"); code != 0 || !strings.Contains(out, "No papers match.") {
		t.Errorf("list of the library import created: exit %d\n%s%s", code, out, stderr)
	}
}

// cancelAfter is compile --all -q's standard output for
// TestCompileAllInterruptedSaysWhatIsIndexed: at the first cite key (a
// note written) it waits until the search index holds a note, at the
// second it cancels the run, as Ctrl-C would.
type cancelAfter struct {
	t      *testing.T
	db     string // the index file
	cancel context.CancelFunc
	lines  int
	buf    bytes.Buffer
}

func (w *cancelAfter) Write(p []byte) (int, error) {
	w.buf.Write(p)
	for n := strings.Count(w.buf.String(), "\n"); w.lines < n; {
		w.lines++
		switch w.lines {
		case 1:
			deadline := time.Now().Add(30 * time.Second)
			for indexedNotes(w.t, w.db) == 0 {
				if time.Now().After(deadline) {
					w.t.Error("the first note is not in the search index after 30 s")
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
		case 2:
			w.cancel()
		}
	}
	return len(p), nil
}

// indexedNotes returns the number of notes in the search index file db
// (0 when it cannot be read yet).
func indexedNotes(t *testing.T, db string) int {
	t.Helper()
	conn, err := sql.Open("sqlite", "file:"+db+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		return 0
	}
	defer conn.Close()
	var n int
	if conn.QueryRow(`SELECT count(*) FROM notes`).Scan(&n) != nil {
		return 0
	}
	return n
}

// TestCompileAllInterruptedSaysWhatIsIndexed checks what compile --all
// says of the search index when Ctrl-C stops it after the index took a
// transaction of notes (index.UpdateStream commits about every second)
// but not the open one: how many of the notes written are in the index
// and which are not, and that `crossmem index` adds them — never "the
// search index was not updated" about an index that was.
func TestCompileAllInterruptedSaysWhatIsIndexed(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles three corpus PDFs")
	}
	t.Parallel()
	p, dir := emptyInProcess(t)
	env := p.env
	run := func(ctx context.Context, out io.Writer, args ...string) (int, string) {
		var errOut bytes.Buffer
		code := cli.Main(ctx, args, cli.IO{In: strings.NewReader(""), Out: out, Err: &errOut,
			Getenv: func(k string) string { return env[k] }}, cli.Servers{})
		return code, errOut.String()
	}
	keys := []string{"first2020", "second2020", "third2020"}
	for i, src := range []string{"gr_dehypenisation1.pdf", "pm_2304.02623v1.pdf", "pm_2020.acl-main.447.pdf"} {
		pdfPath := filepath.Join(dir, src)
		if err := os.WriteFile(pdfPath, corpustest.PDF(t, src), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, stderr := run(t.Context(), io.Discard, "capture", pdfPath, "--cite-key", keys[i], "-q"); code != 0 {
			t.Fatalf("capture %s: exit %d\n%s", src, code, stderr)
		}
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	out := &cancelAfter{t: t, db: filepath.Join(env["CROSSMEM_HOME"], index.FileName), cancel: cancel}
	code, stderr := run(ctx, out, "compile", "--all", "-q")
	t.Logf("compile --all, interrupted: exit %d\nstdout:\n%s\nstderr:\n%s", code, out.buf.String(), stderr)
	if code != cli.ExitInterrupted {
		t.Errorf("exit %d, want %d", code, cli.ExitInterrupted)
	}
	written := strings.Fields(out.buf.String())
	in := indexedNotes(t, out.db)
	if in < 1 || in >= len(written) {
		t.Fatalf("%d notes written, %d in the index: the run was not stopped between two index transactions", len(written), in)
	}
	want := fmt.Sprintf("crossmem: warning: the search index has %d of the %d notes written (interrupted); not in it: %s\ncrossmem: hint: run crossmem index to add ",
		in, len(written), strings.Join(written[in:], ", "))
	if !strings.Contains(stderr, want) {
		t.Errorf("stderr does not say which notes are in the search index, want:\n%s", want)
	}
	if strings.Contains(stderr, "not updated") {
		t.Errorf("stderr says the index was not updated; it holds %d notes", in)
	}
	if code, stderr := run(t.Context(), io.Discard, "index"); code != 0 {
		t.Fatalf("index: exit %d\n%s", code, stderr)
	}
	if n := indexedNotes(t, out.db); n != len(written) {
		t.Errorf("after crossmem index, %d notes in the index, want %d", n, len(written))
	}
}
