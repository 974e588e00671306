package pdf

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/crossmem/crossmem/internal/pdf/pdftest"
)

// A stroked path's box is what it paints (strokeBox): a thick straight
// line is the rectangle it covers, its caps counted as they are drawn;
// a longer path is its points widened by half the line width. The PDF is
// made at test time by pdfTeX from testdata/thick_strokes.tex.
func TestThickStrokeBoxes(t *testing.T) {
	pdfPath := pdftest.PDFTeX(t, filepath.Join("testdata", "thick_strokes.tex"))
	doc, err := testEngine(t).OpenFile(pdfPath)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	p, err := doc.Page(1)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []Rect{
		{58, 150, 142, 240},  // 84 wide, butt caps: a grey box 84 × 90
		{300, 340, 500, 460}, // 120 wide, across
		{90, 590, 210, 610},  // projecting square caps reach half the width beyond the ends
		{295, 595, 405, 705}, // a bent line: its points and half the width
	} {
		found := false
		for _, g := range p.Graphics {
			b := g.Box
			if g.Kind == GraphicPath && math.Abs(b.X0-want.X0) < 0.5 && math.Abs(b.Y0-want.Y0) < 0.5 && math.Abs(b.X1-want.X1) < 0.5 && math.Abs(b.Y1-want.Y1) < 0.5 {
				found = true
			}
		}
		if !found {
			t.Errorf("no path with box %v among %+v", want, p.Graphics)
		}
	}
}
