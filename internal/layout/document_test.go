package layout

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/pdf"
)

// A page printed turned (a landscape table, its caption, running head and
// page number all set up the page): the furniture zones turn with the
// text, so the table's last column, at the top of the page as it lies,
// is no running head, and its caption and first column, near the page's
// side, are no margin notes.
func TestTurnedPageFurniture(t *testing.T) {
	path := filepath.Join(corpustest.Dir(t, "pdf"), "dp_case_01.pdf")
	pages := Document(readPages(t, path), pdf.Structure{})
	kinds := map[string]Kind{}
	for _, b := range pages[0].Blocks {
		kinds[strings.Join(strings.Fields(b.Text()), " ")] = b.Kind
	}
	// The table's cells are body text too, since the table is found
	// whole (its caption vouches for it: table_caption.go).
	cells := map[string]bool{}
	for _, f := range pages[0].Floats {
		for _, r := range f.Cells {
			for _, c := range r {
				cells[c] = true
			}
		}
	}
	for _, text := range []string{"1", "2", "6", "K2", "J3", "Table 1. Summary of the Principal Features of the Seismostratigraphic Units in the Peniche Basin"} {
		k, ok := kinds[text]
		if !ok && cells[text] {
			continue
		}
		if !ok {
			t.Errorf("no block %q", text)
			continue
		}
		if k.Furniture() {
			t.Errorf("%q is %s, want body text", text, k)
		}
	}
	if k := kinds["36"]; k != PageFooter {
		t.Errorf("page number 36 is %q, want %s", k, PageFooter)
	}
}
