package layout

import (
	"strings"
	"testing"
)

// kindTexts returns "kind: text" (white space collapsed) of the blocks
// that are not furniture, in reading order.
func kindTexts(pages []*Page) []string {
	var got []string
	for _, p := range pages {
		for _, b := range p.Blocks {
			if !b.Kind.Furniture() {
				got = append(got, string(b.Kind)+": "+strings.Join(strings.Fields(b.Text()), " "))
			}
		}
	}
	return got
}

// A double-spaced manuscript (12-point type on a 24-point baseline,
// paragraphs marked by a half-inch indent only, ragged right) keeps its
// paragraphs whole: the line pitch is measured against the document's own
// leading, not the type size. A PDF made at test time by pdfTeX from
// testdata/double_spaced.tex.
func TestDoubleSpacedParagraphs(t *testing.T) {
	pages := texDocument(t, "double_spaced.tex")
	got := kindTexts(pages)
	want := []string{
		"heading: Reading Habits of Graduate Students",
		"paragraph: Graduate students read",
		"paragraph: The diaries show",
		"heading: Materials",
		"paragraph: Each diary was",
		"paragraph: Students returned",
	}
	ok := len(got) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = strings.HasPrefix(got[i], want[i])
	}
	if !ok {
		t.Fatalf("blocks\n%q\nwant blocks starting\n%q", got, want)
	}
	if last := got[len(got)-1]; !strings.HasSuffix(last, "with the third author.") {
		t.Errorf("last paragraph %q does not end the document's text", last)
	}
}

// Line numbers in the left margin (a manuscript under review) are one
// margin note (linenumbers.go) and leave the paragraphs beside them whole,
// each ending where its sentence does; a table's row numbers that stand
// out left of the text, beside short cells, stay in the table's text, and
// a listing's line numbers stay with its code. A PDF made at test time by
// pdfTeX from testdata/line_numbers_prose.tex.
func TestLineNumbersBesideProse(t *testing.T) {
	pages := texDocument(t, "line_numbers_prose.tex")
	if len(pages) != 3 {
		t.Fatalf("%d pages, want 3", len(pages))
	}
	var margin, paras []string
	for _, b := range pages[0].Blocks {
		text := strings.Join(strings.Fields(b.Text()), " ")
		switch b.Kind {
		case MarginNote:
			margin = append(margin, text)
		case Paragraph:
			paras = append(paras, text)
		}
	}
	if want := "1 2 3 4 5 6 7 8 9 10 11 12"; len(margin) != 1 || margin[0] != want {
		t.Errorf("margin notes %q, want one: %q", margin, want)
	}
	starts := []string{"Reviewers of a manuscript", "Such numbers are not", "A third paragraph"}
	ok := len(paras) == len(starts)
	for i := 0; ok && i < len(starts); i++ {
		ok = strings.HasPrefix(paras[i], starts[i]) && strings.HasSuffix(paras[i], ".")
	}
	if !ok {
		t.Errorf("paragraphs %q, want three starting %q", paras, starts)
	}
	for i, want := range []string{"Zeta", "print(spread(xs))"} {
		var body []string
		for _, b := range pages[i+1].Blocks {
			if b.Kind == MarginNote {
				t.Errorf("page %d: margin note %q, want its numbers in the body", i+2, b.Text())
			}
			if !b.Kind.Furniture() {
				body = append(body, b.Text())
			}
		}
		if all := strings.Join(body, "\n"); !strings.Contains(all, "1") || !strings.Contains(all, want) || !strings.Contains(all, "6") {
			t.Errorf("page %d body %q lost its numbers or %q", i+2, all, want)
		}
	}
}

// The first part of a word hyphenated at the end of a loose justified line
// ("Re-", set about two ems after the word before it) stays on its line:
// the entry is one paragraph whose first line ends "Video. Re-". A PDF
// made at test time by pdfTeX from testdata/loose_hyphen.tex.
func TestLooseLineHyphenatedWord(t *testing.T) {
	pages := texDocument(t, "loose_hyphen.tex")
	var entry *Block
	for _, b := range pages[0].Blocks {
		if strings.HasPrefix(b.Text(), "[27]") {
			entry = b
		}
	}
	if entry == nil {
		t.Fatalf("no block starts with the entry; blocks %q", kindTexts(pages))
	}
	if first := entry.Lines[0].Text; !strings.HasSuffix(first, "Video. Re-") {
		t.Errorf("first line of the entry %q, want it to end with %q; blocks %q", first, "Video. Re-", kindTexts(pages))
	}
	if !strings.Contains(entry.Text(), "Re-\ntrieved") {
		t.Errorf("entry %q does not hold the hyphenated word across its lines", entry.Text())
	}
}

// A paragraph set around a figure (its first lines at half the measure,
// the rest at the full measure) is one paragraph: the narrow part's last
// line is full and its sentence goes on in the wide part. A PDF made at
// test time by pdfTeX from testdata/wrapped_paragraph.tex.
func TestWrappedParagraph(t *testing.T) {
	checkBlocks(t, texDocument(t, "wrapped_paragraph.tex"), []string{
		"heading: 1 Figures beside the text",
		"paragraph: The paragraph before the figure",
		"paragraph: It should be noted that the environment that sets a figure beside the text is not a floating environment;",
		"paragraph: The paragraph after it",
	})
}

// A line that ends with a word hyphenated across the line break ("(Au-")
// and a line that goes on at the margin with its rest ("thor 2013)") are
// one paragraph, though the lines before are indented and the margin line
// reads as a hanging indent. A PDF made at test time by pdfTeX from
// testdata/hyphen_outdent.tex.
func TestHyphenBeforeOutdentedLine(t *testing.T) {
	pages := texDocument(t, "hyphen_outdent.tex")
	for _, s := range kindTexts(pages) {
		if strings.HasPrefix(s, "paragraph: thor 2013)") {
			t.Errorf("the rest of the hyphenated word is a paragraph of its own; blocks %q", kindTexts(pages))
		}
		if strings.Contains(s, "(Au-") && !strings.HasSuffix(s, "(Au- thor 2013)") {
			t.Errorf("block %q does not end with the rest of the hyphenated word", s)
		}
	}
}

// A nomenclature (symbols flush left, each definition at a tab stop on
// the symbol's baseline) reads entry by entry: each symbol is on one line
// with its definition, not in a column of symbols apart from a column of
// definitions. A PDF made at test time by pdfTeX from
// testdata/nomenclature.tex.
func TestNomenclatureEntries(t *testing.T) {
	pages := texDocument(t, "nomenclature.tex")
	lines := map[string]bool{}
	for _, b := range pages[0].Blocks {
		for _, l := range b.Lines {
			lines[strings.Join(strings.Fields(l.Text), " ")] = true
		}
	}
	for _, want := range []string{"F Force, N", "f Residual value vector", "J Jacobian matrix", "m Mass, kg", "x Variable value vector", "i Variable number"} {
		if !lines[want] {
			t.Errorf("no line %q; blocks %q", want, kindTexts(pages))
		}
	}
}
