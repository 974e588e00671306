package layout

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/pdf"
	"github.com/crossmem/crossmem/internal/pdf/pdftest"
)

// layoutPDF reads a PDF made at test time and lays it out as a document.
func layoutPDF(t *testing.T, data []byte) []*Page {
	t.Helper()
	pages, st, err := openEngine(t).Read(t.Context(), data, nil)
	if err != nil {
		t.Fatal(err)
	}
	return Document(pages, st)
}

// summary lists each block as "kind level text" (level 0: no section).
func summary(pages []*Page) []string {
	var out []string
	for _, p := range pages {
		for _, b := range p.Blocks {
			level := 0
			if b.Section != nil {
				level = b.Section.Level
			}
			out = append(out, fmt.Sprintf("%s %d %s", b.Kind, level, strings.Join(strings.Fields(b.Text()), " ")))
		}
	}
	return out
}

var taggedProse = []string{
	"We describe a way of reading the structure of a document from the tags that",
	"its producer wrote, and compare it with what the typography of the page says",
	"about the same document, for a collection of papers from several publishers.",
}

// paper is a two-page paper whose section headings are set like body text
// (same size, regular weight, unnumbered): only the tags tell them apart.
func paper(tags [6]string) [][]pdftest.Block {
	return [][]pdftest.Block{{
		{Tag: tags[0], Size: 16, Bold: true, Lines: []string{"Reading Tagged Documents"}},
		{Tag: tags[1], Lines: taggedProse},
		{Tag: tags[2], Lines: []string{"Introduction"}},
		{Tag: tags[1], Lines: taggedProse},
		{Tag: tags[3], Lines: []string{"Scope of the study"}},
		{Tag: tags[1], Lines: taggedProse},
		{Tag: tags[4], Lines: []string{"the first item of a list of things to say about it"}},
		{Tag: tags[4], Lines: []string{"the second item of the same list of things to say"}},
	}, {
		{Tag: tags[2], Lines: []string{"Method"}},
		{Tag: tags[1], Lines: taggedProse},
		{Tag: tags[5], Size: 8, Lines: []string{"A note set at the foot of the page about the method used"}, Y: 90},
	}}
}

func TestTaggedHeadings(t *testing.T) {
	doc := pdftest.Structured{Tagged: true, RoleMap: map[string]string{"Subhead": "H3"},
		Pages: paper([6]string{"H1", "P", "H2", "Subhead", "LI", "Note"})}
	// Running heads that differ from page to page (no repetition to see),
	// marked as artifacts.
	doc.Pages[0] = append([]pdftest.Block{{Tag: "Artifact", Size: 8, Y: 760, Lines: []string{"Workshop on Documents, draft of May"}}}, doc.Pages[0]...)
	doc.Pages[1] = append([]pdftest.Block{{Tag: "Artifact", Size: 8, Y: 760, Lines: []string{"Second page of the draft"}}}, doc.Pages[1]...)
	got := summary(layoutPDF(t, doc.PDF()))
	want := map[string]string{
		"Reading Tagged Documents": "heading 0", // the title: a heading, no section
		"Introduction":             "heading 1",
		"Scope of the study":       "heading 2", // via the role map
		"Method":                   "heading 1",
		"the first item of a list of things to say about it":       "list_item 0",
		"A note set at the foot of the page about the method used": "footnote 0",
		"Workshop on Documents, draft of May":                      "page_header 0",
		"Second page of the draft":                                 "page_header 0",
	}
	seen := 0
	for _, s := range got {
		for text, w := range want {
			if strings.HasSuffix(s, " "+text) {
				seen++
				if !strings.HasPrefix(s, w+" ") {
					t.Errorf("%q: got %q, want %s", text, s, w)
				}
			}
		}
		if strings.HasPrefix(s, "heading") && strings.Contains(s, "We describe") {
			t.Errorf("running text as a heading: %q", s)
		}
	}
	if seen != len(want) {
		t.Errorf("found %d of %d blocks in\n%s", seen, len(want), strings.Join(got, "\n"))
	}
}

// A badly tagged file (every block a P, or every block a heading) is laid
// out as if it had no tags.
func TestBadTagsChangeNothing(t *testing.T) {
	for _, tags := range [][6]string{
		{"P", "P", "P", "P", "P", "P"},
		{"H1", "H1", "H1", "H1", "H1", "H1"},
		{"", "P", "", "", "", ""}, // partly tagged
	} {
		pages := paper(tags)
		// Typographic headings the tree does not tag as such.
		pages[1] = append([]pdftest.Block{{Tag: tags[2], Size: 12, Bold: true, Lines: []string{"2 Results"}}}, pages[1]...)
		plain := summary(layoutPDF(t, pdftest.Structured{Pages: pages}.PDF()))
		tagged := summary(layoutPDF(t, pdftest.Structured{Tagged: true, Pages: pages}.PDF()))
		if strings.Join(plain, "\n") != strings.Join(tagged, "\n") {
			t.Errorf("tags %v changed the layout:\nuntagged:\n%s\ntagged:\n%s", tags, strings.Join(plain, "\n"), strings.Join(tagged, "\n"))
		}
	}
}

// The structure tree is read with its role map, and characters outside
// any element (artifacts) belong to none.
func TestReadTags(t *testing.T) {
	doc := pdftest.Structured{Tagged: true, RoleMap: map[string]string{"Heading1": "H1"}, Pages: [][]pdftest.Block{{
		{Tag: "Artifact", Size: 8, Lines: []string{"Running head"}},
		{Tag: "Heading1", Size: 14, Bold: true, Lines: []string{"1 Introduction"}},
		{Tag: "P", Lines: []string{"Some text of the first paragraph."}},
	}}}
	pages, _, err := openEngine(t).Read(t.Context(), doc.PDF(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tags := pages[0].Tags
	if tags == nil {
		t.Fatal("no tags read")
	}
	byText := map[string]string{}
	var cur strings.Builder
	last := int32(-2)
	flush := func() {
		if cur.Len() > 0 {
			typ := "-"
			if last >= 0 {
				typ = tags.Elements[last].Type
			}
			byText[strings.TrimSpace(cur.String())] = typ
		}
		cur.Reset()
	}
	for i, c := range pages[0].Chars {
		if c.Generated || c.Rune == ' ' {
			cur.WriteRune(' ')
			continue
		}
		if tags.Of[i] != last {
			flush()
			last = tags.Of[i]
		}
		cur.WriteRune(c.Rune)
	}
	flush()
	want := map[string]string{"Running head": "-", "1 Introduction": "H1", "Some text of the first paragraph.": "P"}
	for text, typ := range want {
		if byText[text] != typ {
			t.Errorf("%q: element %q, want %q (all: %v)", text, byText[text], typ, byText)
		}
	}
	// An untagged file has no tags.
	plain, _, err := openEngine(t).Read(t.Context(), pdftest.Structured{Pages: doc.Pages}.PDF(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if plain[0].Tags != nil {
		t.Errorf("untagged page has tags: %+v", plain[0].Tags)
	}
}

// A structure tree whose element lists its own ancestor as a kid (a
// cycle) is read within the limits, and the page's text is still read.
func TestCyclicTags(t *testing.T) {
	doc := pdftest.Structured{Tagged: true, Pages: [][]pdftest.Block{{
		{Tag: "H1", Size: 14, Bold: true, Lines: []string{"1 Introduction"}},
		{Tag: "P", Lines: taggedProse},
	}}}.PDF()
	// The P element (the last object) gets the Document element as a kid.
	i := bytes.LastIndex(doc, []byte("/K 1 >>"))
	if i < 0 {
		t.Fatal("no P element in the test PDF")
	}
	doc = append(append(append([]byte{}, doc[:i]...), []byte("/K [1 4 0 R] >>")...), doc[i+len("/K 1 >>"):]...)
	pages, _, err := openEngine(t).Read(t.Context(), doc, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tags := pages[0].Tags; tags != nil && len(tags.Elements) >= 20000 {
		t.Errorf("%d elements read: the cycle used up the element limit", len(tags.Elements))
	}
	if len(pages[0].Chars) < 100 {
		t.Errorf("text layer lost: %d characters", len(pages[0].Chars))
	}
	var heads int
	for _, p := range Document(pages, pdf.Structure{}) {
		for _, b := range p.Blocks {
			if b.Kind == Heading {
				heads++
			}
		}
	}
	if heads != 1 {
		t.Errorf("%d headings, want 1", heads)
	}
}

// The corpus's one tagged PDF tags every block a P (its title and its
// "References:" heading too): its layout is the one without the tree.
func TestBadlyTaggedCorpusFile(t *testing.T) {
	path := filepath.Join(corpustest.Dir(t, "pdf"), "gr_submission_161.pdf")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pages, st, err := openEngine(t).Read(t.Context(), data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if pages[0].Tags == nil || len(pages[0].Tags.Elements) < 10 {
		t.Fatalf("structure tree not read: %+v", pages[0].Tags)
	}
	with := summary(Document(pages, st))
	for _, p := range pages {
		p.Tags = nil
	}
	without := summary(Document(pages, st))
	if diff := cmp.Diff(without, with); diff != "" {
		t.Errorf("the tree changed the layout (-without +with):\n%s", diff)
	}
}
