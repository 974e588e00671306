package chunk

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/layout"
	"github.com/crossmem/crossmem/internal/pdf"
	"github.com/crossmem/crossmem/internal/pdf/pdftest"
)

// TestMappedFontPDF reads PDFs made at test time whose font's ToUnicode
// map gives most letters dingbats: one paragraph set in it on an
// otherwise normal page (that block is unquotable, the rest of the page
// is quoted, single dingbats set as symbols too), and a page set in it
// (the page is unquotable).
func TestMappedFontPDF(t *testing.T) {
	if testing.Short() {
		t.Skip("starts pdfium")
	}
	e, err := pdf.Open(t.Context(), pdf.Options{CacheDir: filepath.Join(os.TempDir(), "crossmem-test-wazero"), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	body := []string{
		"We describe a way of reading the structure of a document from the tags that",
		"its producer wrote, and compare it with what the typography of the page says",
		"about the same document, for a collection of papers from several publishers.",
	}
	mapped := []string{"Penalized least squares are used here to fit the model", "to the data of the whole study."}
	doc := pdftest.Structured{Pages: [][]pdftest.Block{
		{{Lines: body}, {Mapped: true, Lines: mapped}, {Lines: body}, {Mapped: true, Lines: []string{"a   e   i   o"}}},
		{{Mapped: true, Lines: mapped}, {Mapped: true, Lines: mapped}, {Lines: []string{"Page 2."}}},
	}}
	pages, st, err := e.Read(t.Context(), doc.PDF(), nil)
	if err != nil {
		t.Fatal(err)
	}
	res := Build(layout.Document(pages, st))
	var onPage1 []Unquotable
	pageWide := false
	for _, u := range res.Unquotable {
		switch {
		case u.Page == 1:
			onPage1 = append(onPage1, u)
		case u.Page == 2 && u.BBox == nil && u.Reason == ReasonSymbolFont:
			pageWide = true
		}
	}
	if len(onPage1) != 1 || onPage1[0].BBox == nil || onPage1[0].Reason != ReasonSymbolFont {
		t.Errorf("page 1: unquotable %+v, want the mapped paragraph's block", onPage1)
	} else if b := onPage1[0].BBox; b[1] > 700 || b[3] < 600 {
		t.Errorf("page 1: unquotable block at %v, not the mapped paragraph's place", *b)
	}
	if !pageWide {
		t.Errorf("page 2, set in the mapped font, is not unquotable: %+v", res.Unquotable)
	}
	// Dingbats set one by one, as symbols, stay quotable.
	symbols := strings.Join([]string{string(pdftest.DingbatOf('a')), string(pdftest.DingbatOf('e')), string(pdftest.DingbatOf('i')), string(pdftest.DingbatOf('o'))}, " ")
	sawSymbols := false
	var page1 []string
	for _, c := range res.Chunks {
		if c.Page == 2 {
			t.Errorf("chunk from the unquotable page 2: %q", c.Text)
		}
		if strings.ContainsFunc(c.Text, isSymbolMapped) && c.Text != symbols {
			t.Errorf("mapped text quoted: %q", c.Text)
		}
		if c.Text == symbols {
			sawSymbols = true
		}
		if c.Page == 1 {
			page1 = append(page1, c.Text)
		}
	}
	if !sawSymbols {
		t.Errorf("the line of single dingbats %q is not a chunk", symbols)
	}
	if n := strings.Count(strings.Join(page1, "\n"), "We describe a way"); n != 2 {
		t.Errorf("page 1 quotes the sound paragraph %d times, want 2: %q", n, page1)
	}
}
