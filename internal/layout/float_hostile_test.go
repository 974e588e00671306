package layout

import (
	"testing"
	"time"

	"github.com/crossmem/crossmem/internal/pdf"
)

// A scanned page's figure caption with a line of very small type right
// under it (a hostile or garbled OCR layer): gathering the caption's
// lines ends. It looped for ever while a line already inside the
// caption's box counted as growing it.
func TestScannedFigureCaptionEnds(t *testing.T) {
	cap1 := &Line{Text: "Figure 1. A plot", Box: pdf.Rect{X0: 100, Y0: 400, X1: 300, Y1: 410}, Size: 10}
	tiny := &Line{Text: "x", Box: pdf.Rect{X0: 120, Y0: 399.5, X1: 280, Y1: 400.2}, Size: 0.6}
	lines := []*Line{cap1, tiny}
	ro := roles{running: map[*Line]bool{}, caption: map[*Line]bool{cap1: true, tiny: true}, para: map[*Line]bool{}, narrow: map[*Line]bool{}}
	done := make(chan struct{})
	go func() {
		scannedFigures(lines, nil, ro, Stats{BodySize: 10})
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("scannedFigures did not return in 5 s")
	}
}

// A caption whose kind has no side its floats are set on (a Listing or
// an Algorithm caption) names no float across a page break, and not the
// first unlinked float of its own page either.
func TestAcrossBreakNeedsASide(t *testing.T) {
	caption := &Block{Kind: Caption, Lines: []*Line{{Text: "Listing 1: The parser", Box: pdf.Rect{X0: 72, Y0: 100, X1: 300, Y1: 110}, Size: 10}}, Box: pdf.Rect{X0: 72, Y0: 100, X1: 300, Y1: 110}}
	para := &Block{Kind: Paragraph, Lines: []*Line{{Text: "Some running text of the page.", Box: pdf.Rect{X0: 72, Y0: 300, X1: 500, Y1: 500}, Size: 10}}, Box: pdf.Rect{X0: 72, Y0: 300, X1: 500, Y1: 500}}
	fig := &Float{Kind: Figure, Box: pdf.Rect{X0: 72, Y0: 600, X1: 500, Y1: 740}}
	pages := []*Page{{Number: 1, Width: 612, Height: 792, Blocks: []*Block{para, caption}, Floats: []*Float{fig}}}
	acrossBreak(pages, &captionAt{b: caption, page: 0}, 0) // no side voted for Caption
	if caption.Float != nil || fig.Caption != nil {
		t.Errorf("the Listing caption was linked to an unrelated figure")
	}
}
