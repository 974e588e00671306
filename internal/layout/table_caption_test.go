package layout

import (
	"slices"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/pdf"
)

// Tables that only their captions vouch for (real corpus pages): a box of
// guidelines between two rules captioned "Table 10" (one column of
// paragraphs, its "Example N" labels inside), a small booktabs table
// whose rules had joined a plot's above it across two figure captions,
// and a table of isolates whose rows are single lines of cells.
func TestCaptionedTables(t *testing.T) {
	corpustest.Slow(t, "lays out three corpus PDFs")
	captioned := func(pages []*Page, page int, label string) *Float {
		t.Helper()
		for _, f := range tablesOf(pages, page) {
			if f.Caption != nil && strings.HasPrefix(f.Caption.Label, label) {
				return f
			}
		}
		t.Fatalf("p%d: no table linked to %q", page, label)
		return nil
	}
	eacl := corpusDocument(t, "pm_2023.eacl-main.121.pdf")
	f := captioned(eacl, 17, "Table 10")
	if len(f.Cells) < 10 || len(f.Cells[0]) != 1 {
		t.Fatalf("Table 10: %d rows of %d cells, want ≥ 10 rows of one", len(f.Cells), len(f.Cells[0]))
	}
	var rows []string
	for _, r := range f.Cells {
		rows = append(rows, r[0])
	}
	for _, want := range []string{"Example 1", "Supports = Yes", "1. Yes: if all the facts in the highlighted summary span are supported by the source document"} {
		if !slices.Contains(rows, want) {
			t.Errorf("Table 10: no row %q in %q", want, rows)
		}
	}
	if !strings.HasPrefix(rows[0], "In this task, you will be shown a long document") || !strings.HasSuffix(rows[0], "will need to choose one of two options:") {
		t.Errorf("Table 10: first row %q is not the first paragraph", rows[0])
	}
	want3 := [][]string{{"Dataset", "COARSE", "FINE"}, {"SQuALITY", "18.5", "6.8"}, {"PubMed", "11.8", "7.3"}, {"PubMed + ngram block", "11.7", "9.3"}, {"Average", "14.0", "7.8"}}
	if f := captioned(eacl, 5, "Table 3"); !slices.EqualFunc(f.Cells, want3, slices.Equal[[]string]) {
		t.Errorf("Table 3 cells\n%q\nwant\n%q", f.Cells, want3)
	}
	fungi := captioned(corpusDocument(t, "ol_repeating_references_on_pg9_pg10.pdf"), 2, "Table 1")
	if len(fungi.Cells) < 15 || !slices.Equal(fungi.Cells[0], []string{"No.a", "Isolate", "Pathotype", "Source"}) {
		t.Errorf("Table 1 of the isolates: %d rows, head %q", len(fungi.Cells), fungi.Cells[0])
	}
	if !slices.ContainsFunc(fungi.Cells, func(r []string) bool {
		return slices.Equal(r, []string{"12", "ATCC38962", "Rough lemon", "United States"})
	}) {
		t.Errorf("Table 1 of the isolates: row 12 missing from %q", fungi.Cells)
	}
}

// A band between two rules of a captioned table holds a table's text even
// when the head line above it pokes into it: tall delimiters in the head
// (erf(x) set with \Bigl( … \Bigr), asmejour's Table 4) reach below the
// rule under the head, and that line, read as running text for its width,
// is not running text across the band (it lies mostly outside it). Lines
// built by hand: the geometry of asmejour-template.pdf page 5.
func TestTableBandHeadPokingIn(t *testing.T) {
	head := &Line{Text: "x erf(x) erfc(x) x erf(x) erfc(x)", Box: pdf.Rect{X0: 127.9, Y0: 727.4, X1: 487.4, Y1: 745.4}, Size: 9}
	band := pdf.Rect{X0: 108.5, Y0: 597.2, X1: 503.4, Y1: 730.2}
	lines := []*Line{head}
	for i := range 4 {
		y := 716.0 - 11*float64(i)
		lines = append(lines, &Line{Text: "0.00 0.00000 1.00000 1.10 0.88021 0.11980", Box: pdf.Rect{X0: 122, Y0: y, X1: 490, Y1: y + 8}, Size: 9})
	}
	ro := roles{running: map[*Line]bool{head: true}, caption: map[*Line]bool{}}
	if !tableBand(band, lines, ro) {
		t.Error("the body's band is not a table's: the head line poking into it was taken for running text across it")
	}
	// Running text across the band, from one of its sides past the
	// rules' ends, still stops the run.
	across := &Line{Text: "running text", Box: pdf.Rect{X0: 0, Y0: 650, X1: 700, Y1: 659}, Size: 9}
	ro.running[across] = true
	if tableBand(band, append(lines, across), ro) {
		t.Error("running text across the rules' ends did not stop the band")
	}
}

// Tables only their captions vouch for (testdata/captioned_tables.tex,
// typeset by pdfTeX at test time): a table with a rule under its head
// alone, whose head row reads like prose, and notes under it; a table of
// words without rules; a ruled table of one-word cells whose rows read
// like prose. Each is its caption's table with the cells of the source,
// and the notes and the paragraphs stay out of them.
func TestCaptionedTablesWithoutRules(t *testing.T) {
	pages := texDocument(t, "captioned_tables.tex")
	if len(pages) != 1 {
		t.Fatalf("%d pages, want 1", len(pages))
	}
	header, data := make([]string, 8), make([]string, 8)
	for i := range 8 {
		header[i], data[i] = "Header Unit", "Data"
	}
	for _, c := range []struct {
		caption string
		cells   [][]string
	}{
		{"Table 1.", [][]string{
			{"First head∗", "Second head", "Third head", "Fourth head"},
			{"center", "doctor", "0.2", "10.55"},
			{"tab", "dentist", "0.15", "33.12"},
			{"worse", "man†", "10.58", "45.10"},
			{"better", "home", "43.9", "12.34"},
		}},
		{"Table 2:", [][]string{
			{`\arccos`, "arccos", `\deg`, "deg", `\lg`, "lg"},
			{`\arcsin`, "arcsin", `\det`, "det", `\lim`, "lim"},
			{`\arctan`, "arctan", `\dim`, "dim", `\liminf`, "lim inf"},
			{`\cos`, "cos", `\exp`, "exp", `\limsup`, "lim sup"},
			{`\cosh`, "cosh", `\gcd`, "gcd", `\ln`, "ln"},
		}},
		{"Table 3.", [][]string{header, data, data, data}},
	} {
		f, ok := captionFloat(pages[0], c.caption)
		if !ok {
			t.Errorf("no caption %q", c.caption)
			continue
		}
		if f == nil || f.Kind != Table {
			t.Errorf("caption %q: float %+v, want a table", c.caption, f)
			continue
		}
		if !slices.EqualFunc(f.Cells, c.cells, slices.Equal) {
			t.Errorf("caption %q: cells\n%q\nwant\n%q", c.caption, f.Cells, c.cells)
		}
	}
	paras := 0
	for _, b := range pages[0].Blocks {
		if b.Kind == Paragraph {
			paras++
		}
	}
	if paras != 6 { // four paragraphs of running text and the two notes
		t.Errorf("%d paragraphs, want 6", paras)
	}
}
