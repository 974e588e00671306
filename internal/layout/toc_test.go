package layout

import (
	"slices"
	"strings"
	"testing"
)

// Tables of contents made at test time by pdfTeX from testdata/toc.tex:
// one with dot leaders (roman and arabic pages, a part's heading without a
// page, an entry wrapped onto two lines), a list of figures, and one
// without leaders; a table of counts (numbers not in page order) is no
// table of contents, and the body's headings stay sections while the
// entries repeating them do not.
func TestTablesOfContents(t *testing.T) {
	pages := texDocument(t, "toc.tex")
	// Leaders are compared trimmed: how many dots a line holds is the
	// leader's fill, not the entry.
	trimmed := func(f *Float) [][]string {
		var out [][]string
		for _, r := range f.Cells {
			var row []string
			for _, c := range r {
				row = append(row, strings.TrimRight(c, ". "))
			}
			out = append(out, row)
		}
		return out
	}
	want := [][][]string{
		{
			{"Preface", "vii"}, {"Acknowledgements", "ix"}, {"1 Introduction", "1"},
			{"1.1 Motivation", "2"}, {"1.2 Contributions", "4"}, {"Part I Methods", ""},
			{"2 Collecting the corpus", "7"},
			{"2.1 A section whose title is long enough that it has to be set on two lines", "9"},
			{"3 Results", "15"}, {"References", "21"},
		},
		{
			{"Figure 1.1 The pipeline from a PDF to its notes", "3"},
			{"Figure 2.1 Results on the corpus", "10"}, {"Figure 2.2 Errors by kind", "12"},
		},
	}
	tables := tablesOf(pages, 1)
	if len(tables) != len(want) {
		t.Fatalf("page 1: %d tables, want %d", len(tables), len(want))
	}
	for i, f := range tables {
		if got := trimmed(f); !slices.EqualFunc(got, want[i], slices.Equal[[]string]) {
			t.Errorf("page 1, table %d: cells\n%q\nwant\n%q", i+1, got, want[i])
		}
	}
	// The leaders are the text layer's: the entry cell holds them.
	if c := tables[0].Cells[0][0]; !strings.HasPrefix(c, "Preface .") {
		t.Errorf("entry cell %q lost its leaders", c)
	}
	wantPlain := [][]string{{"1. Introduction", "2"}, {"2. The model", "4"}, {"3. Observations", "8"}, {"4. Conclusions", "11"}, {"References", "14"}}
	tables = tablesOf(pages, 2)
	if len(tables) != 1 {
		t.Fatalf("page 2: %d tables, want 1 (the table of contents; the counts are in no page order)", len(tables))
	}
	if got := tables[0].Cells; !slices.EqualFunc(got, wantPlain, slices.Equal[[]string]) {
		t.Errorf("page 2: cells\n%q\nwant\n%q", got, wantPlain)
	}
	// No entry is a heading, a caption or opens a section (the titles
	// above the tables do); the body's headings do.
	var sections []string
	for _, p := range pages {
		for _, b := range p.Blocks {
			first := strings.TrimSpace(b.Lines[0].Text)
			if b.Section != nil {
				sections = append(sections, first)
			}
			title := first == "Contents" || first == "List of Figures" || first == "Short contents"
			if p.Number < 3 && !title && (b.Section != nil || b.Kind == Heading || isCaption(b.Kind)) {
				t.Errorf("page %d: %s block %q (section %v)", p.Number, b.Kind, first, b.Section != nil)
			}
		}
	}
	for _, s := range []string{"1. Introduction", "2. The model"} {
		if !slices.Contains(sections, s) {
			t.Errorf("sections %q: %q missing", sections, s)
		}
	}
}
