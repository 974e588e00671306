package layout

import (
	"slices"
	"strings"
	"testing"
)

// Equation numbers set on the left of their displays (testdata/leqno.tex,
// typeset by pdfTeX at test time) label them as numbers on the right do:
// no number stands alone.
func TestLeftEquationNumbers(t *testing.T) {
	pages := texDocument(t, "leqno.tex")
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

// The limits of a display's big operators, which pdfium reads as lines of
// their own under it (testdata/eq_limits.tex, typeset by pdfTeX at test
// time), are part of the one equation chunk.
func TestEquationLimits(t *testing.T) {
	pages := texDocument(t, "eq_limits.tex")
	var eqs []string
	for _, p := range pages {
		for _, b := range p.Blocks {
			if b.Kind == Equation {
				eqs = append(eqs, b.Text())
			}
		}
	}
	if len(eqs) != 1 {
		t.Fatalf("%d equation blocks %q, want 1", len(eqs), eqs)
	}
	for _, w := range []string{"K", "I⊆", "i∈I", "j∈I"} {
		if !strings.Contains(eqs[0], w) {
			t.Errorf("equation %q lacks %q", eqs[0], w)
		}
	}
}
