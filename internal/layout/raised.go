package layout

import (
	"sort"
	"strings"

	"github.com/crossmem/crossmem/internal/pdf"
)

// Run is a piece of a line's text: a word, or the part of a word set as a
// superscript (Raised) or the part beside it.
type Run struct {
	Text string
	// Box covers the run's glyph boxes: PDF points, origin bottom-left of
	// the CropBox.
	Box pdf.Rect
	// Raised is true for characters set smaller than the line's text and
	// lifted off its baseline: footnote and affiliation marks written
	// against a name or a title ("Migchielsen" + "a,1,∗", "Linebreak" +
	// "a)").
	Raised bool
	// Space is true when a space comes before the run.
	Space bool
}

// Runs splits the line at its spaces, as Words does, and each word where
// it goes into or out of superscript. A character is raised when its glyph
// box is at most 85 % of the line's median box height and its bottom lies
// above the line's median box bottom by more than 15 % of that height
// (loose boxes span the font's ascent to descent, so they measure the size
// the glyph is set in and where its baseline is, whatever the glyph).
func (l *Line) Runs() []Run {
	var hs, bottoms []float64
	for _, c := range l.chars {
		if !isSpace(c.Rune) && c.Box.Height() > 0 {
			hs = append(hs, c.Box.Height())
			bottoms = append(bottoms, c.Box.Y0)
		}
	}
	if len(hs) == 0 {
		return nil
	}
	h, bottom := medianOf(hs), medianOf(bottoms)
	var out []Run
	var b strings.Builder
	var cur Run
	space := false
	flush := func() {
		if b.Len() > 0 {
			cur.Text = b.String()
			out = append(out, cur)
			space = false
		}
		b.Reset()
		cur = Run{}
	}
	for _, c := range l.chars {
		if isSpace(c.Rune) {
			flush()
			space = true
			continue
		}
		raised := c.Box.Height() > 0 && c.Box.Height() <= 0.85*h && c.Box.Y0 > bottom+0.15*h
		if b.Len() > 0 && raised != cur.Raised {
			flush()
		}
		if b.Len() == 0 {
			cur = Run{Box: c.Box, Raised: raised, Space: space}
		} else {
			cur.Box = cur.Box.Union(c.Box)
		}
		b.WriteString(c.text())
	}
	flush()
	return out
}

// medianOf returns the median of v (the upper one of an even count); v is
// reordered.
func medianOf(v []float64) float64 {
	sort.Float64s(v)
	return v[len(v)/2]
}
