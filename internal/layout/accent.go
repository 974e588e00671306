package layout

import (
	"math"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/crossmem/crossmem/internal/pdf"
)

// char is a text-layer character with the text it contributes: its rune,
// or the rune composed with diacritics attached to it (see attachAccents).
type char struct {
	pdf.Char
	s string // text to emit; "" means string(Rune)
	// afterDrop marks the first inked character after a diacritic glyph
	// that was attached elsewhere or dropped.
	afterDrop bool
	// interleaved marks characters of a line merged from passes drawn
	// one over the other (see interleave).
	interleaved bool
	// afterUnmapped marks a character drawn right after a glyph without a
	// Unicode value (an unmapped bullet, say) on its line.
	afterUnmapped bool
}

func (c char) text() string {
	if c.s != "" {
		return c.s
	}
	return string(c.Rune)
}

// spacingAccents maps spacing diacritics, which TeX and other producers
// draw as separate glyphs over or under a letter, to the combining mark
// they stand for. below marks sit under the letter.
var spacingAccents = map[rune]struct {
	mark  rune
	below bool
}{
	0x00A8: {0x0308, false}, // ¨ diaeresis
	0x00B4: {0x0301, false}, // ´ acute
	0x0060: {0x0300, false}, // ` grave
	0x005E: {0x0302, false}, // ^ circumflex
	0x02C6: {0x0302, false}, // ˆ modifier circumflex
	0x007E: {0x0303, false}, // ~ tilde
	0x02DC: {0x0303, false}, // ˜ small tilde
	0x00AF: {0x0304, false}, // ¯ macron
	0x02C9: {0x0304, false}, // ˉ modifier macron
	0x02D8: {0x0306, false}, // ˘ breve
	0x02D9: {0x0307, false}, // ˙ dot above
	0x02DA: {0x030A, false}, // ˚ ring above
	0x02DD: {0x030B, false}, // ˝ double acute
	0x02C7: {0x030C, false}, // ˇ caron
	0x00B8: {0x0327, true},  // ¸ cedilla
	0x02DB: {0x0328, true},  // ˛ ogonek
}

func accentOf(r rune) (mark rune, below, ok bool) {
	if a, ok := spacingAccents[r]; ok {
		return a.mark, a.below, true
	}
	if r >= 0x0300 && r <= 0x036F {
		// A combining mark drawn as its own glyph.
		return r, r >= 0x0316 && r <= 0x0333, true
	}
	return 0, false, false
}

// attachAccents finds diacritic glyphs drawn over (or under) a letter and
// attaches them to that letter: the letter's text becomes the letter
// followed by the combining mark, composed to NFC ("a" + "¨" -> "ä"). The
// diacritic glyph itself is removed. A diacritic that does not sit on a
// letter (a caret in code, a tilde in a URL) is left alone.
func attachAccents(cs []pdf.Char) []char {
	out := make([]char, len(cs))
	for i, c := range cs {
		out[i] = char{Char: c}
	}
	drop := make([]bool, len(out))
	for i, c := range out {
		mark, below, ok := accentOf(c.Rune)
		ink := c.Ink
		if ink.Width() <= 0 {
			ink = c.Box
		}
		if !ok || ink.Width() <= 0 {
			continue
		}
		best, bestScore := -1, 0.0
		consider := func(j int) {
			if j < 0 || j >= len(out) || j == i || drop[j] {
				return
			}
			l := out[j]
			if !isLetter(l.Rune) || l.Box.Width() <= 0 || l.Box.Height() <= 0 {
				return
			}
			ov := math.Min(ink.X1, l.Box.X1) - math.Max(ink.X0, l.Box.X0)
			if ov < 0.3*math.Min(ink.Width(), l.Box.Width()) {
				return
			}
			// l.Box is the loose box: descent to ascent.
			h := l.Box.Height()
			if below {
				if ink.Y1 > l.Box.Y0+0.35*h || l.Box.Y0-ink.Y1 > 0.6*h {
					return
				}
			} else {
				if ink.Y0 < l.Box.Y0+0.45*h || ink.Y0-l.Box.Y1 > 0.6*h {
					return
				}
			}
			score := ov / math.Max(ink.Width(), 0.1)
			if j == i-1 || j == i+1 {
				score += 1
			}
			if score > bestScore {
				best, bestScore = j, score
			}
		}
		consider(i - 1)
		consider(i + 1)
		if best < 0 {
			for j := range out {
				consider(j)
			}
		}
		if best < 0 {
			continue
		}
		l := &out[best]
		l.s = norm.NFC.String(l.text() + string(mark))
		drop[i] = true
	}
	kept := out[:0]
	pending := false
	for i, c := range out {
		if drop[i] {
			pending = true
			continue
		}
		if pending && !isSpace(c.Rune) {
			c.afterDrop = true
			pending = false
		}
		kept = append(kept, c)
	}
	return kept
}

func isLetter(r rune) bool { return unicode.IsLetter(r) }
