package chunk

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/crossmem/crossmem/internal/layout"
	"github.com/crossmem/crossmem/internal/pdf"
	"github.com/crossmem/crossmem/internal/pdf/pdftest"
)

// TestTaggedFormula reads a tagged PDF made at test time whose formula
// element carries /ActualText: the equation chunk quotes the text layer
// and records the producer's text as alt_text, apart from it.
func TestTaggedFormula(t *testing.T) {
	if testing.Short() {
		t.Skip("starts pdfium")
	}
	e, err := pdf.Open(t.Context(), pdf.Options{CacheDir: filepath.Join(os.TempDir(), "crossmem-test-wazero"), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	doc := pdftest.Structured{Tagged: true, Pages: [][]pdftest.Block{{
		{Tag: "H1", Size: 14, Bold: true, Lines: []string{"1 Energy"}},
		{Tag: "P", Lines: []string{"The energy of a body at rest is given by its mass and the speed of light,", "as the equation below says for every body of any kind and size."}},
		{Tag: "Formula", Lines: []string{"E = m c2"}, ActualText: "E = m c^{2}", X: 250},
		{Tag: "P", Lines: []string{"The equation holds in every frame of reference in which the body is at rest."}},
	}}}
	pages, st, err := e.Read(t.Context(), doc.PDF(), nil)
	if err != nil {
		t.Fatal(err)
	}
	res := Build(layout.Document(pages, st))
	found := false
	// The H1 at the top of this one-page document is a heading, not a
	// running head: no repetition can show a running head here, and it is
	// set in display type.
	if len(res.Chunks) == 0 || res.Chunks[0].Type != TypeHeading || res.Chunks[0].Text != "1 Energy" {
		t.Errorf("first chunk %+v, want the heading \"1 Energy\"", res.Chunks[:min(1, len(res.Chunks))])
	}
	for _, c := range res.Chunks {
		if c.AltText != "" && c.Type != TypeEquation {
			t.Errorf("%s chunk %q has alt_text %q", c.Type, c.Text, c.AltText)
		}
		if c.Type != TypeEquation {
			continue
		}
		found = true
		if c.Text != "E = m c2" || c.TextSHA256 != Hash("E = m c2") {
			t.Errorf("equation text %q, want the text layer's %q", c.Text, "E = m c2")
		}
		if c.AltText != "E = m c^{2}" {
			t.Errorf("alt_text %q, want the formula's /ActualText", c.AltText)
		}
	}
	if !found {
		t.Errorf("no equation chunk in %+v", res.Chunks)
	}
}
