package compile

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/note"
	"github.com/crossmem/crossmem/internal/pdf"
	"github.com/crossmem/crossmem/internal/pdf/pdftest"
)

// overLimitPDF writes a three-page PDF whose second page holds more than
// pdf.MaxPageChars characters (620 lines of 170 characters at 1 pt, one
// text object each: within the object limit, over the character limit),
// between two ordinary pages of prose.
func overLimitPDF() []byte {
	dense := make([]string, 620)
	for i := range dense {
		dense[i] = strings.Repeat("x", 170)
	}
	prose := func(first string) []pdftest.Block {
		return []pdftest.Block{{Size: 10, Lines: append([]string{first}, pdftest.Prose(12)...)}}
	}
	return pdftest.Structured{Pages: [][]pdftest.Block{
		prose("The first page is read as usual."),
		{{Size: 1, Lines: dense}},
		prose("The third page is read as usual."),
	}}.PDF()
}

// TestPageOverLimitIsUnquotable: a page over pdf.MaxPageChars no longer
// fails its PDF: the other pages are compiled and the page is listed in
// the note's unquotable_pages with the limit it is over.
func TestPageOverLimitIsUnquotable(t *testing.T) {
	data := overLimitPDF()
	lib, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p, err := lib.NewPaper("dense2024page", 1700000000)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	rec := record()
	rec.Normalize()
	p.Sidecar = library.Sidecar{CiteKey: p.CiteKey, Title: rec.Title, PDFSHA256: hex.EncodeToString(sum[:]), CapturedAt: "1700000000", Metadata: rec}
	if err := library.WriteFileAtomic(p.PDFPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := lib.WriteSidecar(p); err != nil {
		t.Fatal(err)
	}
	res, err := Run(t.Context(), lib, p.CiteKey, Options{Engine: newEngine(t)})
	if err != nil {
		t.Fatalf("a PDF with one page over the character limit failed to compile: %v", err)
	}
	pages := map[int]bool{}
	for _, c := range res.Note.Chunks {
		pages[c.Page] = true
	}
	if !pages[1] || pages[2] || !pages[3] {
		t.Errorf("chunks on pages %v, want pages 1 and 3 only", pages)
	}
	want := chunk.ReasonOverLimit(&pdf.LimitError{Unit: "characters", Limit: pdf.MaxPageChars})
	if len(res.Unquotable) != 1 || res.Unquotable[0].Page != 2 || res.Unquotable[0].Reason != want || res.Unquotable[0].BBox != nil {
		t.Fatalf("Unquotable = %+v, want page 2: %q", res.Unquotable, want)
	}
	if !strings.Contains(want, "100000 characters") || !strings.Contains(want, "docs/limits.md") {
		t.Errorf("reason %q does not name the limit and where it is documented", want)
	}
	raw, err := os.ReadFile(res.Path)
	if err != nil {
		t.Fatal(err)
	}
	n, err := note.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	if got := n.Front.UnquotablePages; len(got) != 1 || got[0].Page != 2 || got[0].Reason != want {
		t.Errorf("note's unquotable_pages = %+v, want page 2: %q", got, want)
	}
	if n.Front.Pages != 3 {
		t.Errorf("note says %d pages, want 3", n.Front.Pages)
	}
}

// TestPageOverObjectLimit: a page over pdf.MaxPageObjects is the same: it
// is listed, the file is not refused.
func TestPageOverObjectLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a page of 260,000 objects")
	}
	res, err := Extract(t.Context(), newEngine(t), pdftest.TextOps(pdf.MaxPageObjects+10_000), nil)
	if err != nil {
		t.Fatalf("a page over the object limit failed its PDF: %v", err)
	}
	want := chunk.ReasonOverLimit(&pdf.LimitError{Unit: "objects", Limit: pdf.MaxPageObjects})
	if len(res.Chunks) != 0 || len(res.Unquotable) != 1 || res.Unquotable[0].Page != 1 || res.Unquotable[0].Reason != want {
		t.Errorf("chunks %d, unquotable %+v; want none and page 1: %q", len(res.Chunks), res.Unquotable, want)
	}
}
