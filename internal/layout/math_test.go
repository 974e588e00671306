package layout

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/pdf"
)

// The document steps (furniture, sections, kinds, floats, equation
// numbers) regroup and retype lines but never lose one: on every corpus
// PDF the lines of Document's blocks are the lines of Analyze's blocks.
// An equation number joined to a display line split out of a paragraph
// once deleted the display line instead of the number.
func TestDocumentKeepsEveryLine(t *testing.T) {
	corpustest.Slow(t, "lays out every corpus PDF twice")
	files, _ := filepath.Glob(filepath.Join(corpustest.Dir(t, "pdf"), "*.pdf"))
	if len(files) < 30 {
		t.Fatalf("expected the 36 corpus PDFs, found %d", len(files))
	}
	for _, f := range files {
		pages := readPages(t, f)
		st := DocumentStats(pages)
		var want []string
		for _, p := range pages {
			for _, b := range Analyze(p, st).Blocks {
				for _, l := range b.Lines {
					want = append(want, l.Text)
				}
			}
		}
		var got []string
		for _, p := range Document(pages, pdf.Structure{}) {
			for _, b := range p.Blocks {
				for _, l := range b.Lines {
					got = append(got, l.Text)
				}
			}
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			var lost []string
			for _, w := range want {
				if i, ok := slices.BinarySearch(got, w); ok {
					got = slices.Delete(got, i, i+1)
				} else {
					lost = append(lost, w)
				}
			}
			t.Errorf("%s: lines lost: %q; lines new: %q", filepath.Base(f), head(lost), head(got))
		}
	}
}

func head(s []string) string {
	if len(s) > 5 {
		s = s[:5]
	}
	return strings.Join(s, " | ")
}
