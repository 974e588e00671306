package reliability

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// -long runs every campaign at the size of bench/README.md's figures
// (go run ./bench/reliability prints them); the default is CI-sized.
var long = flag.Bool("long", false, "run the campaigns at full size")

var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// testLib builds the binary once and returns a fresh library seeded with
// SeedKey.
func testLib(t *testing.T) Lib {
	t.Helper()
	if testing.Short() {
		t.Skip("the reliability campaigns build and run the binary")
	}
	built.once.Do(func() {
		_, file, _, _ := runtime.Caller(0)
		dir, err := os.MkdirTemp("", "crossmem-reliability-")
		if err != nil {
			built.err = err
			return
		}
		built.dir = dir
		root := filepath.Join(filepath.Dir(file), "..", "..")
		// go test caches results by the files a test opens; the binary is
		// built by a subprocess, so its sources are opened here to make a
		// change to any of them invalidate the cached result.
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".go") || filepath.Base(p) == "go.mod" || filepath.Base(p) == "go.sum") {
				if f, err := os.Open(p); err == nil {
					f.Close()
				}
			}
			if err == nil && d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git" || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		})
		built.bin, built.err = Build(root, dir)
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	l, err := NewLib(built.bin, filepath.Join(t.TempDir(), "home"), filepath.Join(os.TempDir(), "crossmem-test-cache"))
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Seed(context.Background()); err != nil {
		t.Fatal(err)
	}
	return l
}

func size(ci, full int) int {
	if *long {
		return full
	}
	return ci
}

// TestMCPMalformed: ≥ 1,000 malformed MCP messages, 0 server deaths, the
// valid call after each answered, each answered with the error it
// deserves.
func TestMCPMalformed(t *testing.T) {
	l := testLib(t)
	f, err := MCPMalformed(context.Background(), l, size(1000, 10000), 11)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", f)
	if f.Messages < 1000 || f.Deaths != 0 || f.Unanswered != 0 || f.Wrong != 0 {
		t.Errorf("%d messages: %d deaths, %d unanswered valid calls, %d wrong answers:\n%v", f.Messages, f.Deaths, f.Unanswered, f.Wrong, f.Failures)
	}
}

// TestRoundTrip: hostile strings through CSL-JSON import, BibTeX,
// BibLaTeX and CSL-JSON export and import again: identical fields.
func TestRoundTrip(t *testing.T) {
	l := testLib(t)
	f, err := RoundTrip(context.Background(), l, Hostile)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", f)
	if f.Mismatches != 0 || f.Compared != len(Hostile)*3 {
		t.Errorf("%d of %d comparisons differ:\n%v", f.Mismatches, f.Compared, f.Failures)
	}
}

// TestPDFBombs: the flate bomb is refused with an error naming the
// limit; the busy page is left out of its note and reported with the
// limit, the compile succeeding (time and memory are bench/reliability's).
func TestPDFBombs(t *testing.T) {
	l := testLib(t)
	inflated := int64(size(128<<20, FlateBombBytes))
	bombs, err := PDFBombs(context.Background(), l, inflated, TextOpsPage)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bombs {
		t.Logf("%s: %s: %v, %d MB: %s", b.Name, b.Command, b.Wall, b.MaxRSS>>20, b.Error)
		if !b.Refused {
			t.Errorf("%s: not refused with a limit error: %s", b.Name, b.Error)
		}
	}
	qs, err := QueryBombs(context.Background(), l, []int{10 << 20, 1 << 20, 5 << 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range qs {
		t.Logf("%s: %v: %s", b.Name, b.Wall, b.Error)
		if !b.Refused {
			t.Errorf("%s: not refused with a limit error: %s", b.Name, b.Error)
		}
	}
}

// TestConcurrentRebuild: rounds of index --rebuild, compile, search and
// verify at once: 0 failures, 0 malformed indexes.
func TestConcurrentRebuild(t *testing.T) {
	l := testLib(t)
	keys, err := l.AddPapers(context.Background(), 3)
	if err != nil {
		t.Fatal(err)
	}
	f := ConcurrentRebuild(context.Background(), l, keys, size(3, 20))
	t.Logf("%+v", f)
	if f.Failures != 0 || f.Malformed != 0 {
		t.Errorf("%d failures, %d malformed: %v", f.Failures, f.Malformed, f.Problems)
	}
}

// TestConcurrentFirstOpens: 40 processes opening a library without
// index.db at once: 0 failures.
func TestConcurrentFirstOpens(t *testing.T) {
	l := testLib(t)
	if _, err := l.AddPapers(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	f, err := ConcurrentFirstOpens(context.Background(), l, 40)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", f)
	if f.Failures != 0 {
		t.Errorf("%d of %d failed: %v", f.Failures, f.Processes, f.Problems)
	}
}

// TestKill: kill -9 during capture, compile, import and index --rebuild:
// 0 corrupt, 0 partial imports, 0 leftovers after the next command.
func TestKill(t *testing.T) {
	l := testLib(t)
	keys, err := l.AddPapers(context.Background(), 2)
	if err != nil {
		t.Fatal(err)
	}
	f, err := KillTrials(context.Background(), l, keys, size(16, 240), size(100, 500), 7)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", f)
	if f.Corrupt != 0 || f.Partial != 0 || f.Leftovers != 0 {
		t.Errorf("%d trials: %d corrupt, %d partial imports, %d with leftovers: %v", f.Trials, f.Corrupt, f.Partial, f.Leftovers, f.Problems)
	}
}

// TestDamagedPDFWarns: a PDF whose cross-reference table points at the
// wrong places (bytes inserted after the header), which pdfium repairs,
// compiles with a warning that text may be missing.
func TestDamagedPDFWarns(t *testing.T) {
	l := testLib(t)
	data := PaperPDF("Damaged", 30)
	shifted := append([]byte("%PDF-1.7\n% inserted bytes shift every object\n"), data[9:]...)
	p, err := l.WriteFile("damaged.pdf", shifted)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := l.MustRun(ctx, "capture", p, "--cite-key", "damaged2024"); err != nil {
		t.Fatal(err)
	}
	r, err := l.MustRun(ctx, "compile", "damaged2024", "--no-llm")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Stderr, "crossmem: warning: the PDF of damaged2024 is damaged") || !strings.Contains(r.Stderr, "crossmem: hint: download the PDF again") {
		t.Errorf("no damage warning:\n%s", r.Stderr)
	}
	// A sound PDF compiles without it.
	if p, err = l.WriteFile("sound.pdf", data); err != nil {
		t.Fatal(err)
	}
	l.MustRun(ctx, "capture", p, "--cite-key", "sound2024")
	if r, err = l.MustRun(ctx, "compile", "sound2024", "--no-llm"); err != nil || strings.Contains(r.Stderr, "damaged") {
		t.Errorf("sound PDF: %v %s", err, r.Stderr)
	}
}
