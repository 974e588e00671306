package layout

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/pdf"
	"github.com/crossmem/crossmem/internal/pdf/pdftest"
)

// Numbered section titles set at the body size in caps and small caps
// (cmcsc10), as the AMS styles set them, open sections in a PDF with no
// outline: a PDF made at test time by pdfTeX from
// testdata/smallcaps_sections.tex.
func TestSmallCapsSections(t *testing.T) {
	pages := texDocument(t, "smallcaps_sections.tex")
	var heads, paras []string
	for _, p := range pages {
		for _, b := range p.Blocks {
			switch b.Kind {
			case Heading:
				heads = append(heads, b.Text())
			case Paragraph:
				paras = append(paras, b.Text())
			}
		}
	}
	// The title, alone at the top of a one-page document in display type,
	// is no running head either.
	want := []string{"Numbered sections in small capitals", "1. Introduction", "2. Main results", "A.1. Proofs of the lemmas"}
	if !slices.Equal(heads, want) {
		t.Errorf("headings %q, want %q", heads, want)
	}
	if len(paras) != 5 { // the author line and four paragraphs
		t.Errorf("%d paragraphs, want 5: %q", len(paras), paras)
	}
}

// A document whose outline lists its sections but not their numbered
// subsections (a bookmark depth of 1): the outline governs, and the
// subsections whose numbers extend its sections' ("1.1" in "1
// Introduction") open sections below them. A PDF made at test time by
// pdfTeX from testdata/shallow_outline.tex.
func TestShallowOutlineSubsections(t *testing.T) {
	pages, st := readTeX(t, "shallow_outline.tex")
	if len(st.Outline) != 2 {
		t.Fatalf("outline %+v, want the two sections", st.Outline)
	}
	type sec struct {
		title string
		level int
	}
	var got []sec
	for _, p := range Document(pages, st) {
		for _, b := range p.Blocks {
			if b.Section != nil {
				got = append(got, sec{b.Section.Title, b.Section.Level})
			}
		}
	}
	want := []sec{{"1 Introduction", 1}, {"1.1 Background", 2}, {"1.2 Scope", 2}, {"2 Methods", 1}, {"2.1 Data", 2}}
	if !slices.Equal(got, want) {
		t.Errorf("sections %v, want %v", got, want)
	}
}

// List markers and a section number set apart from their text by a tab
// (a gap wider than the splitting threshold for columns) stay on their
// line: "a) table-id: …" is one list item, "5.1.2 Mapping …" one
// heading. A PDF made at test time by pdfTeX from
// testdata/tabbed_markers.tex.
func TestTabbedMarkers(t *testing.T) {
	pages := texDocument(t, "tabbed_markers.tex")
	var got []string
	for _, p := range pages {
		for _, b := range p.Blocks {
			if !b.Kind.Furniture() {
				got = append(got, string(b.Kind)+": "+strings.Join(strings.Fields(b.Text()), " "))
			}
		}
	}
	want := []string{
		"paragraph: Each section is identified by the combination of the following elements, which the decoder reads from its header before anything else of the section:",
		"list_item: a) table-id: the table to which the section belongs, as listed in the table of values.",
		"list_item: b) section-number: the number of the section within its table, counted from zero.",
		"list_item: – The sections of a table are sent in the order of their numbers where possible.",
		"list_item: – Some sections may be sent more often than others for random access.",
		"heading: 5.1.2 Mapping of sections into transport stream packets",
		"paragraph: Sections are mapped directly into packets, and a section may start at the beginning of the payload of a packet, which the decoder finds by the pointer field.",
	}
	if !slices.Equal(got, want) {
		t.Errorf("blocks\n%q\nwant\n%q", got, want)
	}
}

// Headings set one right under the other (a section and its first
// subsections, no space between them, one block of lines) each take the
// outline entry that names them. A PDF made at test time by pdfTeX from
// testdata/stacked_headings.tex.
func TestStackedHeadings(t *testing.T) {
	pages, st := readTeX(t, "stacked_headings.tex")
	if len(st.Outline) != 3 {
		t.Fatalf("outline %+v, want three entries", st.Outline)
	}
	var heads []string
	for _, p := range Document(pages, st) {
		for _, b := range p.Blocks {
			if b.Kind == Heading && b.Section != nil {
				heads = append(heads, b.Section.Title+" = "+b.Text())
			}
		}
	}
	want := []string{"5 Service tables = 5 Service tables", "5.1 Table mechanism = 5.1 Table mechanism", "5.1.1 Use of table sections = 5.1.1 Use of table sections"}
	if !slices.Equal(heads, want) {
		t.Errorf("headings %q, want %q", heads, want)
	}
}

// A bibliography set with a hanging indent comes out one Reference block
// per entry: an entry broken after a sentence is not cut where its short
// line meets the indented one, and the part of an entry a page break
// carries over continues it; a line starting "379." is no label in a
// list labelled [n]; a footnote under the list is a footnote. A section titled "References to figures …"
// is prose, not the bibliography. A PDF made at test time by pdfTeX from
// testdata/hanging_bibliography.tex.
func TestHangingBibliography(t *testing.T) {
	pages := texDocument(t, "hanging_bibliography.tex")
	var refs, notes []string
	var cont []bool
	prose := 0
	for _, p := range pages {
		for _, b := range p.Blocks {
			switch b.Kind {
			case Footnote:
				notes = append(notes, b.Text())
			case Reference:
				refs = append(refs, strings.Join(strings.Fields(b.Text()), " "))
				cont = append(cont, b.Continues)
			case Paragraph:
				if strings.HasPrefix(b.Text(), "A section about references") {
					prose++
				}
			}
		}
	}
	if prose != 1 {
		t.Errorf("the prose of the section about references is %d paragraphs, want 1", prose)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "out of print") {
		t.Errorf("footnotes %q, want the one under the bibliography", notes)
	}
	want := []string{"[1] Rafal", "[2] David", "[3] Sam", "[4] Patricia", "50, 1", "[5] Sten", "[6] Ivan"}
	if len(refs) != len(want) {
		t.Fatalf("%d reference blocks, want %d:\n%s", len(refs), len(want), strings.Join(refs, "\n"))
	}
	for i, w := range want {
		if !strings.HasPrefix(refs[i], w) {
			t.Errorf("reference %d is %q, want it to start %q", i, refs[i], w)
		}
		if cont[i] != (i == 4) {
			t.Errorf("reference %d (%q): continues = %v, want %v", i, w, cont[i], i == 4)
		}
	}
	if !strings.HasSuffix(refs[1], "Stockholm, Sweden.") || !strings.HasSuffix(refs[2], "Citation Field Extraction.") || !strings.HasSuffix(refs[6], "[astro-ph/0603494].") {
		t.Errorf("entries 2, 3 and 6 not whole: %q, %q, %q", refs[1], refs[2], refs[6])
	}
}

// Subsection heads that run into their paragraphs ("1.1. Background. The
// background is …"), named by the outline, are heading blocks of their
// own, cut from their line after the closing period, and the text after
// them a paragraph; a theorem's and a proof's run-in heads, which the
// outline does not name, stay in their paragraphs and open no section. A
// PDF made at test time by pdfTeX from testdata/runin_outline.tex.
func TestRunInHeadings(t *testing.T) {
	pages, st := readTeX(t, "runin_outline.tex")
	if len(st.Outline) != 4 {
		t.Fatalf("outline %+v, want four entries", st.Outline)
	}
	var got, sections []string
	for _, p := range Document(pages, st) {
		for _, b := range p.Blocks {
			if b.Kind.Furniture() {
				continue // the title, alone on top of a one-page document, and the page number
			}
			text := strings.Join(strings.Fields(b.Text()), " ")
			if len(text) > 40 {
				text = text[:40]
			}
			got = append(got, string(b.Kind)+": "+text)
			if b.Section != nil {
				sections = append(sections, b.Section.Title+" "+itoa(b.Section.Level))
			}
		}
	}
	want := []string{
		"heading: 1. Introduction",
		"paragraph: The introduction opens the paper with a ",
		"heading: 1.1. Background.",
		"paragraph: The background is a subsection whose hea",
		"heading: 1.2 Scope of the work.",
		"paragraph: The scope is a second subsection, its he",
		"paragraph: Theorem 1.3. Every theorem stated here h",
		"paragraph: Proof. The proof follows its theorem wit",
		"heading: 2. Methods",
		"paragraph: The methods section follows with a parag",
	}
	if !slices.Equal(got, want) {
		t.Errorf("blocks\n%q\nwant\n%q", got, want)
	}
	wantSections := []string{"1. Introduction 1", "1.1. Background. 2", "1.2 Scope of the work. 2", "2. Methods 1"}
	if !slices.Equal(sections, wantSections) {
		t.Errorf("sections %q, want %q", sections, wantSections)
	}
}

// An outline entry with no heading on the page ("Appendices") opens its
// section where its destination points without taking the block there
// from the next entry, whose heading ("Appendix A: Proofs of the lemmas
// [3]", the citation after the title no run-in text) is that block; a
// sentence on the next page that starts with the entry's title is not
// its heading. A PDF made at test time by pdfTeX from
// testdata/appendix_outline.tex.
func TestOutlineEntryWithoutHeading(t *testing.T) {
	pages, st := readTeX(t, "appendix_outline.tex")
	if len(st.Outline) != 4 {
		t.Fatalf("outline %+v, want four entries", st.Outline)
	}
	var heads, sections []string
	for _, p := range Document(pages, st) {
		for _, b := range p.Blocks {
			if b.Kind == Heading {
				heads = append(heads, strings.Join(strings.Fields(b.Text()), " "))
			}
			if b.Section != nil {
				sections = append(sections, b.Section.Title)
			}
		}
	}
	wantHeads := []string{"1 Introduction", "Appendix A: Proofs of the lemmas [3]", "B Tables"}
	if !slices.Equal(heads, wantHeads) {
		t.Errorf("headings %q, want %q", heads, wantHeads)
	}
	wantSections := []string{"1 Introduction", "Appendix A: Proofs of the lemmas [3]", "B Tables"}
	if !slices.Equal(sections, wantSections) {
		t.Errorf("sections %q, want %q", sections, wantSections)
	}
}

// A draft's line numbers, set in the margin and lining up down the page,
// are margin notes (linenumbers.go), and the last of them, on the page's
// bottom row, is no page number: the section heading beside it at the
// foot of the page stays a heading and is no running footer (aastex's
// "4. DISPLAYING MATHEMATICS" had been). A PDF made at test time by pdfTeX
// from testdata/line_numbers_foot.tex.
func TestLineNumbersAreNoPageNumbers(t *testing.T) {
	pages := texDocument(t, "line_numbers_foot.tex")
	var heads, margin []string
	for _, p := range pages {
		for _, b := range p.Blocks {
			text := strings.Join(strings.Fields(b.Text()), " ")
			switch b.Kind {
			case Heading:
				heads = append(heads, text)
			case MarginNote:
				margin = append(margin, text)
			case PageHeader, PageFooter:
				t.Errorf("page %d: %s %q, want no furniture but the line numbers in the margin", p.Number, b.Kind, text)
			}
		}
	}
	if want := []string{"1. Introduction", "2. Methods"}; !slices.Equal(heads, want) {
		t.Errorf("headings %q, want %q", heads, want)
	}
	if n := len(strings.Fields(strings.Join(margin, " "))); n != 14 {
		t.Errorf("margin notes %q, want the 14 line numbers", margin)
	}
}

// Subsections numbered in bold before a title in italic or in the text
// face, at the body size (SPIE's journals), are headings in a PDF with no
// outline, and the paragraph set right under one with no space between is
// a paragraph of its own; a list numbered in bold and a sentence that opens
// with a bold number are not headings (nor is the title, alone at the top
// of a one-page document: documentTitle). A PDF made at test time by
// pdfTeX from testdata/bold_number_sections.tex.
func TestBoldNumberSections(t *testing.T) {
	pages := texDocument(t, "bold_number_sections.tex")
	var heads []string
	var sections []string
	for _, p := range pages {
		for _, b := range p.Blocks {
			text := strings.Join(strings.Fields(b.Text()), " ")
			if b.Kind == Heading {
				heads = append(heads, text)
			}
			if b.Section != nil {
				sections = append(sections, b.Section.Title)
			}
			if strings.HasPrefix(text, "1.1 Displayed equations") && text != "1.1 Displayed equations" {
				t.Errorf("the heading runs into its paragraph: %q", text)
			}
		}
	}
	want := []string{"1 Introduction", "1.1 Displayed equations", "1.1.1 Dummy subsubsection"}
	if !slices.Equal(heads, want) {
		t.Errorf("headings %q, want %q", heads, want)
	}
	if !slices.Equal(sections, want) {
		t.Errorf("sections %q, want %q", sections, want)
	}
}

// A run-in head set off from its text by a wide space (1.5 to 1.7 em, bold
// or bold italic) stays on its line, the line in its paragraph; a table's
// bold labels 2 em before their cells are cut from them, every row's cell
// starting at the same place. A PDF made at test time by pdfTeX from
// testdata/runin_gaps.tex.
func TestRunInGaps(t *testing.T) {
	pages := texDocument(t, "runin_gaps.tex")
	var lines []string
	for _, p := range pages {
		for _, b := range p.Blocks {
			for _, l := range b.Lines {
				lines = append(lines, l.Text)
			}
		}
	}
	for head, text := range map[string]string{"Reliability.": "Morbi luctus", "Inter-rater reliability.": "Suspendisse vitae", "Acknowledgments": "The work"} {
		i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, head) })
		if i < 0 || !strings.Contains(lines[i], text) {
			t.Errorf("the line of head %q does not go on with %q: lines %q", head, text, lines)
		}
	}
	for _, label := range []string{"Alpha:", "Beta:", "Gamma:"} {
		if !slices.Contains(lines, label) {
			t.Errorf("table label %q is not cut from its cell: lines %q", label, lines)
		}
	}
}

// Outline entries are matched to the headings that carry their titles,
// not to ones that merely resemble them: a section whose destination lies
// right above its subsection takes its own heading ("Section title …"),
// not the subsection's ("Subsection title …", a tenth of the letters
// apart), and a heading broken over two lines takes both, though its
// first line alone resembles the title, also when the second line differs
// from the title's end (math the bookmark drops): both lines are closer.
// A PDF made at test time by pdfTeX from testdata/outline_titles.tex.
func TestOutlineTitles(t *testing.T) {
	pages, st := readTeX(t, "outline_titles.tex")
	if len(st.Outline) != 5 {
		t.Fatalf("outline %+v, want five entries", st.Outline)
	}
	type sec struct {
		title string
		level int
	}
	var got []sec
	var heads, paras []string
	for _, p := range Document(pages, st) {
		for _, b := range p.Blocks {
			text := strings.Join(strings.Fields(b.Text()), " ")
			if b.Section != nil {
				got = append(got, sec{b.Section.Title, b.Section.Level})
			}
			switch b.Kind {
			case Heading:
				heads = append(heads, text)
			case Paragraph:
				paras = append(paras, text)
			}
		}
	}
	want := []sec{{"1 Introduction", 1}, {"Section title of the first appendix", 1}, {"Subsection title of the first appendix", 2},
		{"This is an example for the second level head - subsection head", 1},
		{"An example of a long heading on the mixing times of the chains that ends with the β-sampler", 1}}
	if !slices.Equal(got, want) {
		t.Errorf("sections %v, want %v", got, want)
	}
	wantHeads := []string{"1 Introduction", "Section title of the first appendix", "Subsection title of the first appendix",
		"This is an example for the second level head - subsection head",
		"An example of a long heading on the mixing times of the chains that ends with the β-sampler"}
	if !slices.Equal(heads, wantHeads) {
		t.Errorf("headings %q, want %q", heads, wantHeads)
	}
	if slices.Contains(paras, "head") || slices.Contains(paras, "β-sampler") {
		t.Errorf("the heading's last word is a paragraph of its own: %q", paras)
	}
}

// Numbered subsection heads that run into their paragraphs ("9.1.
// Multiple integral signs. Several …": the title in italic after a roman
// number, as the AMS classes set it, or number and title in bold, as
// ASME's) open sections in a PDF with no outline, the head a heading block
// cut from its line after the closing period; a theorem head numbered
// first whose statement is in italic, and a sentence that opens with a
// number, stay paragraphs. A PDF made at test time by pdfTeX from
// testdata/numbered_runin.tex.
func TestNumberedRunInSubsections(t *testing.T) {
	pages := texDocument(t, "numbered_runin.tex")
	type sec struct {
		title string
		level int
	}
	var heads []sec
	var paras []string
	for _, p := range pages {
		for _, b := range p.Blocks {
			text := strings.Join(strings.Fields(b.Text()), " ")
			switch {
			case b.Kind == Heading && b.Section != nil:
				heads = append(heads, sec{text, b.Section.Level})
			case b.Kind == Paragraph:
				paras = append(paras, text)
			}
		}
	}
	want := []sec{{"9. Compound symbols", 1}, {"9.1. Multiple integral signs.", 2}, {"9.2 Over and under arrows.", 2}, {"9.5. “Poor man’s bold”.", 2}}
	if !slices.Equal(heads, want) {
		t.Errorf("headings %v, want %v", heads, want)
	}
	for _, start := range []string{"Several integral signs", "Extra arrows", "9.3. Lemma. Every statement", "9.4. Numbers like"} {
		if !slices.ContainsFunc(paras, func(s string) bool { return strings.HasPrefix(s, start) }) {
			t.Errorf("no paragraph starts %q: %q", start, paras)
		}
	}
}

// Headings in a PDF with no outline: a section's heading and its first
// subsection's, set one right under the other in one bold type, are two
// headings ("2 Methods", "2.1 Data"), not one title broken over two lines;
// a centred heading followed by a flush-left subheading (APA) stays a
// heading, the subheading below it though left of its start. A PDF made
// at test time by pdfTeX from testdata/stacked_numbered.tex.
func TestStackedNumberedHeadings(t *testing.T) {
	pages := texDocument(t, "stacked_numbered.tex")
	var heads []string
	for _, p := range pages {
		for _, b := range p.Blocks {
			if b.Kind == Heading && b.Section != nil {
				heads = append(heads, strings.Join(strings.Fields(b.Text()), " "))
			}
		}
	}
	want := []string{"1 Introduction", "2 Methods", "2.1 Data", "Discussion", "Limitations"}
	if !slices.Equal(heads, want) {
		t.Errorf("headings %q, want %q", heads, want)
	}
}

// readTeX makes testdata/name with pdfTeX and reads its pages and its
// document structure (outline, page labels), failing t when it cannot.
func readTeX(t *testing.T, name string) ([]*pdf.Page, pdf.Structure) {
	t.Helper()
	data, err := os.ReadFile(pdftest.PDFTeX(t, filepath.Join("testdata", name)))
	if err != nil {
		t.Fatal(err)
	}
	pages, st, err := openEngine(t).Read(t.Context(), data, nil)
	if err != nil {
		t.Fatal(err)
	}
	return pages, st
}

// texDocument makes testdata/name with pdfTeX and lays its pages out as a
// document without its outline (pdf.Structure{}): what typography alone
// gives.
func texDocument(t *testing.T, name string) []*Page {
	t.Helper()
	return Document(readPages(t, pdftest.PDFTeX(t, filepath.Join("testdata", name))), pdf.Structure{})
}
