package layout

import (
	"strings"

	"github.com/crossmem/crossmem/internal/pdf"
)

// Word is one word of a line and where it is drawn.
type Word struct {
	Text string
	// Box covers the word's glyph boxes: PDF points, origin bottom-left of
	// the CropBox, in the frame the line reads in (the page's own for a
	// line that is not Rotated).
	Box pdf.Rect
}

// Words splits the line at its space characters (the PDF's own and those
// pdfium inferred) and gives each piece its box, so that callers can
// measure the gaps between words (several names on one line, set apart by
// space alone). The words' texts are the characters as drawn; joined with
// spaces they may differ from Text where the text policy adds or removes a
// space (footnote markers, letter-spaced words).
func (l *Line) Words() []Word {
	var out []Word
	var b strings.Builder
	var box pdf.Rect
	flush := func() {
		if b.Len() > 0 {
			out = append(out, Word{Text: b.String(), Box: box})
		}
		b.Reset()
		box = pdf.Rect{}
	}
	for _, c := range l.chars {
		if isSpace(c.Rune) {
			flush()
			continue
		}
		if b.Len() == 0 {
			box = c.Box
		} else {
			box = box.Union(c.Box)
		}
		b.WriteString(c.text())
	}
	flush()
	return out
}
