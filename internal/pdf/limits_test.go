package pdf

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/pdf/pdftest"
)

// TestStreamLimit: a stream inflating past MaxStreamBytes is refused
// before pdfium sees it; one just under opens.
func TestStreamLimit(t *testing.T) {
	e := testEngine(t)
	_, err := e.Pages(t.Context(), pdftest.FlateBomb(MaxStreamBytes+1<<20), nil)
	var le *LimitError
	if !errors.As(err, &le) || !errors.Is(err, ErrTooLarge) || le.What != "stream 4 0 obj" || le.Unit != "bytes inflated" {
		t.Fatalf("flate bomb: want a LimitError for stream 4 0 obj, got %v", err)
	}
	if !strings.Contains(err.Error(), "64 MiB") {
		t.Errorf("message does not name the limit: %v", err)
	}
	if testing.Short() {
		return
	}
	pages, err := e.Pages(t.Context(), pdftest.FlateBomb(MaxStreamBytes-1<<20), nil)
	if err != nil || len(pages) != 1 || !strings.Contains(pageText(pages[0]), "very long content stream") {
		t.Fatalf("a stream under the limit: %v", err)
	}
}

func pageText(p *Page) string {
	var b strings.Builder
	for _, c := range p.Chars {
		b.WriteRune(c.Rune)
	}
	return b.String()
}

// TestPageObjectLimit: a page of more than MaxPageObjects text operations
// is not read: it comes back empty with Refused naming the page and the
// limit, and is no error.
func TestPageObjectLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a page of 260,000 objects")
	}
	pages, err := testEngine(t).Pages(t.Context(), pdftest.TextOps(MaxPageObjects+10_000), nil)
	if err != nil {
		t.Fatalf("a page over the object limit failed its PDF: %v", err)
	}
	le := pages[0].Refused
	if le == nil || le.What != "page 1" || le.Unit != "objects" || len(pages[0].Chars) != 0 || pages[0].Width != 612 {
		t.Fatalf("want page 1 refused for its objects, empty, 612 pt wide; got %+v, %d chars, width %g", le, len(pages[0].Chars), pages[0].Width)
	}
}

// TestOpCounter: the operator count of content streams, the limit's
// measure, on a stream with every kind of operand.
func TestOpCounter(t *testing.T) {
	c := &opCounter{}
	c.Write([]byte("BT /F1 12 Tf 72 720 Td (a (nested) Tj \\) string) Tj [(x) -250 (y)] TJ <48656c6c6f> Tj % comment Tj\n' ET\nq 1 0 0 1 0 0 cm /Im1 Do Q T* f*"))
	// BT Tf Td Tj TJ Tj ' ET q cm Do Q T* f*
	if c.n != 14 {
		t.Errorf("%d operators, want 14", c.n)
	}
	var b strings.Builder
	for range MaxStreamOps/2 + 1 {
		b.WriteString("0 0 m S\n")
	}
	err := checkStreams(pdftest.Doc([]byte(b.String()), true))
	var le *LimitError
	if !errors.As(err, &le) || le.Unit != "operators" {
		t.Fatalf("a content stream of %d operators: want a LimitError, got %v", MaxStreamOps+2, err)
	}
}

// TestCorpusWithinLimits: no corpus PDF is near a limit.
func TestCorpusWithinLimits(t *testing.T) {
	dir := corpustest.Dir(t, "pdf")
	files, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := checkStreams(data); err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
		}
		if d := Damage(data); d != "" {
			t.Errorf("%s: Damage = %q, want a sound file", filepath.Base(f), d)
		}
	}
}

// TestDamage: truncated files, and files whose startxref or table points
// at the wrong place, are damaged; a written one is not.
func TestDamage(t *testing.T) {
	good := pdftest.Doc(pdftest.Text("Hello world."), true)
	if d := Damage(good); d != "" {
		t.Fatalf("a sound file: %q", d)
	}
	shifted := append([]byte("%PDF-1.7\n% junk to shift every object\n"), good[9:]...)
	for name, data := range map[string][]byte{
		"truncated at 90%": pdftest.Truncate(good, 0.9),
		"truncated at 50%": pdftest.Truncate(good, 0.5),
		"no %%EOF":         good[:len(good)-6],
		"shifted objects":  shifted,
	} {
		if d := Damage(data); d == "" {
			t.Errorf("%s: not reported as damaged", name)
		}
	}
	// pdfium opens what Damage reports: the warning is not an error.
	pages, err := testEngine(t).Pages(t.Context(), shifted, nil)
	if err != nil || len(pages) != 1 || !strings.Contains(pageText(pages[0]), "Hello world.") {
		t.Errorf("pdfium could not repair the shifted file: %v", err)
	}
}
