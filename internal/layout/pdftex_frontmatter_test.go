package layout

import (
	"strings"
	"testing"
)

// checkBlocks compares kindTexts(pages) with want, each an entry "kind:
// start of the text".
func checkBlocks(t *testing.T, pages []*Page, want []string) {
	t.Helper()
	got := kindTexts(pages)
	ok := len(got) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = strings.HasPrefix(got[i], want[i])
	}
	if !ok {
		t.Errorf("blocks\n%q\nwant blocks starting\n%q", got, want)
	}
}

// The authors' line set larger than the body under a larger title is the
// start of the front matter, not a second title: names and affiliations
// are one block. A line far below them (a correspondence line at the
// foot of the title page) is not. A PDF made at test time by pdfTeX from
// testdata/title_page_large_authors.tex.
func TestFrontMatterLargeAuthors(t *testing.T) {
	checkBlocks(t, texDocument(t, "title_page_large_authors.tex"), []string{
		"heading: Reading the Title Pages of Papers",
		"paragraph: Ada Lovelace and Charles Babbage Department of Analytical Engines, University of London 12 Gower Street, London WC1E 6BT, United Kingdom",
		"paragraph: Correspondence: ada@example.org",
		"heading: Abstract",
		"paragraph: A title page sets",
		"heading: 1 Introduction",
		"paragraph: The body of the paper",
		"paragraph: A second paragraph",
	})
}

// A title set bold at the body size, centred over the text, opens the front
// matter as a larger title does: the authors and the affiliations, each set
// in its own size, are one block; the abstract under them, two lines of
// running text, stays a paragraph of its own. A PDF made at test time by
// pdfTeX from testdata/title_page_body_size.tex.
func TestFrontMatterBodySizeTitle(t *testing.T) {
	checkBlocks(t, texDocument(t, "title_page_body_size.tex"), []string{
		"heading: A Template with Its Title Set at the Body Size",
		"paragraph: Ada Lovelace,1 Charles Babbage,2 Mary Somerville3 1Analytical Engines Ltd, 12 Gower Street, London 2University of London 3Royal Astronomical Society, Burlington House, Piccadilly",
		"paragraph: This paper explains",
		"heading: 1 Introduction",
		"paragraph: The body of the paper",
		"paragraph: A second paragraph",
	})
}
