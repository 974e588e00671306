package layout

import (
	"strings"
	"testing"
)

// Line numbers in the margin (testdata/line_numbers.tex, typeset by
// pdfTeX at test time) are one margin note; the text they number and its
// display keep none of them, and no block is a number alone. A table's
// row numbers at the column's edge stay in the table.
func TestLineNumbers(t *testing.T) {
	pages := texDocument(t, "line_numbers.tex")
	var notes []string
	var body strings.Builder
	for _, p := range pages {
		for _, b := range p.Blocks {
			text := b.Text()
			if b.Kind == MarginNote {
				notes = append(notes, strings.Join(strings.Fields(text), " "))
				continue
			}
			if b.Kind.Furniture() {
				continue
			}
			if strings.Trim(text, "0123456789 ") == "" {
				t.Errorf("%s block of a number alone: %q", b.Kind, text)
			}
			body.WriteString(text + "\n")
		}
	}
	if len(notes) != 1 || notes[0] != "1 2 3 4 5 6 7 8" {
		t.Errorf("margin notes %q, want the line numbers 1 … 8", notes)
	}
	for _, w := range []string{"under review so", "that the referees", "after the display", "1 Alpha particles", "6 Zeta functions"} {
		if !strings.Contains(strings.Join(strings.Fields(body.String()), " "), w) {
			t.Errorf("body text lacks %q:\n%s", w, body.String())
		}
	}
}
