package layout

import (
	"strings"
	"testing"
)

// Figures as journal classes set them (testdata/journal_figures.tex,
// typeset by pdfTeX at test time): an empty frame of four rules, a grey
// placeholder with display type on it and two rows of panels with their
// sub-captions between the rows are figures linked to their captions, the
// panels one figure, and so is a panel under half an inch; a grey panel
// with a chapter's number and no caption is none, nor is a highlight
// behind a caption's words.
func TestJournalFigures(t *testing.T) {
	pages := texDocument(t, "journal_figures.tex")
	if len(pages) != 2 {
		t.Fatalf("%d pages, want 2", len(pages))
	}
	p := pages[0]
	for _, c := range []struct {
		caption    string
		minW, minH float64 // the figure's size at least, points
	}{
		{"Figure 1.", 195, 85},
		{"Figure 2:", 195, 105},
		{"Figure 3.", 190, 140}, // both rows of panels
	} {
		f, ok := captionFloat(p, c.caption)
		if !ok {
			t.Errorf("no caption %q", c.caption)
			continue
		}
		if f == nil || f.Kind != Figure {
			t.Errorf("caption %q: float %+v, want a figure", c.caption, f)
			continue
		}
		if f.Box.Width() < c.minW || f.Box.Height() < c.minH {
			t.Errorf("caption %q: figure %v, want at least %v × %v", c.caption, f.Box, c.minW, c.minH)
		}
	}
	figures := 0
	for _, f := range p.Floats {
		if f.Kind == Figure {
			figures++
		}
	}
	if figures != 3 {
		t.Errorf("%d figures on page 1, want 3", figures)
	}
	for _, b := range p.Blocks {
		if text := b.Text(); strings.HasPrefix(text, "(a)") || strings.HasPrefix(text, "(c)") {
			if b.Kind != FigureText {
				t.Errorf("sub-caption %q is %s, want the figure's text", text, b.Kind)
			}
		}
	}
	// Page 2: the chapter's panel is no figure; the small panel is Figure 4.
	f4, ok := captionFloat(pages[1], "Figure 4.")
	if !ok || f4 == nil || f4.Kind != Figure || f4.Box.Width() < 38 || f4.Box.Height() < 28 {
		t.Errorf("caption Figure 4: float %+v, want the 40 × 30 panel", f4)
	}
	f5, _ := captionFloat(pages[1], "Figure 5.")
	for _, f := range pages[1].Floats {
		if f.Kind == Figure && f != f4 && f != f5 {
			t.Errorf("page 2: figure %v, want none but Figures 4 and 5 (a chapter's panel and a caption's highlight are none)", f.Box)
		}
	}
}
