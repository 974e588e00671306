package layout

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/crossmem/crossmem/internal/pdf"
	"github.com/crossmem/crossmem/internal/pdf/pdftest"
)

// Equation numbers set on the left of their displays (testdata/leqno.tex,
// typeset by pdfTeX at test time) label them as numbers on the right do:
// no number stands alone.
func TestLeftEquationNumbers(t *testing.T) {
	pdfPath := pdftest.PDFTeX(t, filepath.Join("testdata", "leqno.tex"))
	pages := Document(readPages(t, pdfPath), pdf.Structure{})
	var labels []string
	for _, p := range pages {
		for _, b := range p.Blocks {
			if EquationNumber(b.Text()) {
				t.Errorf("%s block of an equation number alone: %q", b.Kind, b.Text())
			}
			if b.Kind == Equation {
				labels = append(labels, b.Label)
			}
		}
	}
	if want := []string{"(1)", "(2)"}; !slices.Equal(labels, want) {
		t.Errorf("equation labels %q, want %q", labels, want)
	}
}
