package layout

import (
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/crossmem/crossmem/internal/pdf"
)

// Line is one visual line of text: characters that share a baseline and
// follow each other left to right (or, for Vertical lines, bottom to top).
type Line struct {
	// Text is the line's characters in content-stream order (a line drawn
	// in interleaved passes in x order) under the text policy (see the
	// package comment): never empty.
	Text string
	// Box covers the line's glyph boxes: PDF points, origin bottom-left of
	// the CropBox.
	Box pdf.Rect
	// Size is the median effective font size of the line's words, points.
	Size float64
	// Bold is true when most letters are set in a bold font; Italic when
	// most are set in an italic or oblique one.
	Bold, Italic bool
	// SmallCaps is true when most letters are set in a caps-and-small-caps
	// font, known by its name (CMCSC, ECCC, SFCC, LMRomanCaps, "SmallCaps",
	// "-SC") or the font descriptor's SmallCap flag.
	SmallCaps bool
	// Vertical is true for characters stacked up or down the page whose
	// baseline pdfium reports as horizontal (rare). Text with a rotated
	// baseline, such as the arXiv identifier in the left margin, is laid
	// out in its own rotated frame instead (see orientations) and is not
	// Vertical.
	Vertical bool
	// Base is the baseline estimate: the median bottom of the line's
	// letters, in points.
	Base float64
	// Hyphenated is true when the line ends with a hyphen pdfium identified
	// as a line-end hyphen.
	Hyphenated bool
	// Ink counts the line's characters other than white space; Math those
	// that are mathematics: math symbols (Unicode Sm), Greek letters,
	// mathematical alphanumerics, and letters set in a math font (TeX's
	// math italic, symbol fonts). Mono is true when at least 80 % of them
	// are set in a monospaced font.
	Ink, Math int
	Mono      bool
	// monoInk counts the characters of Ink set in a monospaced font.
	monoInk int
	// AfterGlyph is true when the line starts right after a glyph that has
	// no Unicode value, such as a bullet drawn from a symbol font without a
	// ToUnicode entry: a list item whose marker cannot be quoted.
	AfterGlyph bool
	// RunIn is true when the line's first letter is bold and its last
	// letter or digit is not: a run-in heading ("Datasets. We use…") or a
	// bold label, which open a paragraph rather than stand alone. A bold
	// number before a title in another face ("3.1 Abstract") is not one.
	RunIn bool
	// BoldNumber is true when the line opens with a number set in bold
	// and its first letter is not bold: a section number in bold before
	// a title in the text face or italic ("3.2 Displayed equations", as
	// SPIE's and other journals' styles set subsections).
	BoldNumber bool
	// Bullet is true when the line starts with a lone glyph set well
	// smaller than the text after it — not a digit or a footnote mark —
	// such as a bullet drawn from a symbol font that maps it to a letter
	// ("r" for ❒): a list item's marker when several lines share it (see
	// splitList).
	Bullet bool

	chars []char
	seq   int // position in content-stream order
	// weightBold is true when most bold letters are bold by their font's
	// weight alone (weightBoldFont), not its name.
	weightBold bool
	quarter    int // the frame the line was laid out in (see orientations)

	// stats caches statsOf for the Text it was computed from.
	stats struct {
		text string
		s    lineStats
		ok   bool
	}
}

// buildLines groups a page's characters into lines. It follows pdfium's own
// line breaks (generated "\r\n"), then splits lines at column-sized gaps and
// at vertical jumps, and finally merges fragments pdfium broke off the same
// visual line (superscripts, font changes).
func buildLines(chars []pdf.Char, bold []fontFlags) []*Line {
	var raw [][]char
	accented := attachAccents(chars)
	// The lines are consecutive runs of one array (each capped at its end).
	cur := make([]char, 0, len(accented))
	flush := func() {
		if len(cur) > 0 {
			raw = append(raw, cur[:len(cur):len(cur)])
			cur = cur[len(cur):]
		}
	}
	dropped := false
	var unmapped pdf.Rect // the last glyph without a Unicode value, until the next character
	for _, c := range accented {
		if dropped && !isSpace(c.Rune) {
			c.afterDrop = true
			dropped = false
		}
		if unmapped != (pdf.Rect{}) && !isSpace(c.Rune) && c.Rune != 0 {
			s := charSize(c)
			ov := math.Min(unmapped.Y1, c.Box.Y1) - math.Max(unmapped.Y0, c.Box.Y0)
			if c.Box.X0 >= unmapped.X1-0.1*s && c.Box.X0-unmapped.X1 < 3*s && ov > 0 {
				c.afterUnmapped = true
			}
			unmapped = pdf.Rect{}
		}
		if c.Generated && (c.Rune == '\r' || c.Rune == '\n') {
			flush()
			continue
		}
		if c.Rune == 0 || (c.Rune < 0x20 && c.Rune != '\t' && !c.Hyphen) || c.Rune == 0x7f {
			// No Unicode value: nothing to quote. Keep its box out of the line.
			if c.Box.Width() > 0 {
				unmapped = c.Box
			}
			continue
		}
		if len(cur) > 0 && !isSpace(c.Rune) {
			if prev, ok := lastInk(cur); ok && jump(prev, c) {
				if _, _, accent := accentOf(c.Rune); accent {
					// A diacritic that attachAccents could not place on a
					// letter and that lies outside the line: drop it rather
					// than break the line around it.
					dropped = true
					continue
				}
				flush()
			}
		}
		cur = append(cur, c)
		if c.Hyphen {
			// pdfium drops the line break after a line-end hyphen.
			flush()
		}
	}
	flush()

	split := make([][][]char, len(raw))
	for i, rc := range raw {
		split[i] = splitGaps(rc)
	}
	joinRunInGaps(split, bold)
	var lines []*Line
	for _, parts := range split {
		for _, part := range parts {
			if l := newLine(part, bold); l != nil {
				lines = append(lines, l)
			}
		}
	}
	lines = mergeFragments(lines, bold)
	lines = attachScripts(lines, bold)
	lines = joinTermRows(lines, bold)
	for i, l := range lines {
		l.seq = i
	}
	return lines
}

func isSpace(r rune) bool { return unicode.IsSpace(r) || r == 0xA0 }

func lastInk(cs []char) (char, bool) {
	for i := len(cs) - 1; i >= 0; i-- {
		if !isSpace(cs[i].Rune) {
			return cs[i], true
		}
	}
	return char{}, false
}

func charSize(c char) float64 {
	if c.Size > 0 {
		return c.Size
	}
	return math.Max(c.Box.Height(), 4)
}

// jump reports whether c cannot continue the line whose last inked
// character is prev: it sits on another line (no vertical overlap) or it
// goes back left by more than a character.
func jump(prev, c char) bool {
	if c.Box.Width() == 0 && c.Box.Height() == 0 {
		return false
	}
	s := math.Max(charSize(prev), charSize(c))
	// Vertical text: characters stacked along y with overlapping x ranges.
	xov := math.Min(prev.Box.X1, c.Box.X1) - math.Max(prev.Box.X0, c.Box.X0)
	minW := math.Min(prev.Box.Width(), c.Box.Width())
	if minW > 0 && xov > 0.6*minW {
		up := c.Box.Y0 - prev.Box.Y1
		down := prev.Box.Y0 - c.Box.Y1
		if (up > -0.3*s && up < 0.8*s) || (down > -0.3*s && down < 0.8*s) {
			return false
		}
	}
	ov := math.Min(prev.Box.Y1, c.Box.Y1) - math.Max(prev.Box.Y0, c.Box.Y0)
	if ov < -0.1*s {
		// no vertical overlap: allow small baseline shifts (super/subscripts)
		// only when the character continues to the right without a big gap.
		if c.Box.X0 < prev.Box.X0 || c.Box.X0-prev.Box.X1 > s {
			return true
		}
		dy := math.Abs((prev.Box.Y0+prev.Box.Y1)/2 - (c.Box.Y0+c.Box.Y1)/2)
		if dy > 0.9*s {
			return true
		}
	}
	if c.Box.X1 < prev.Box.X0-0.5*s {
		return true
	}
	return false
}

// splitGaps splits a pdfium line at gaps much wider than its word gaps:
// column gutters and table cell boundaries.
func splitGaps(cs []char) [][]char {
	type gap struct {
		at int
		w  float64
	}
	var gaps []gap
	var wordGaps []float64
	prev := -1
	for i, c := range cs {
		if isSpace(c.Rune) || (c.Box.Width() == 0 && c.Box.Height() == 0) {
			continue
		}
		if prev >= 0 {
			g := c.Box.X0 - cs[prev].Box.X1
			spaced := false
			for j := prev + 1; j < i; j++ {
				if isSpace(cs[j].Rune) {
					spaced = true
				}
			}
			if spaced {
				gaps = append(gaps, gap{i, g})
				wordGaps = append(wordGaps, g)
			} else if g > 0 {
				gaps = append(gaps, gap{i, g})
			}
		}
		prev = i
	}
	if len(gaps) == 0 {
		return [][]char{cs}
	}
	size := medianSize(cs)
	typical := 0.3 * size
	if len(wordGaps) >= 3 {
		typical = math.Max(median(wordGaps), 0.15*size)
	}
	threshold := math.Max(3*typical, 1.2*size)
	var out [][]char
	start := 0
	for _, g := range gaps {
		if g.w > threshold && !hyphenTail(cs[g.at:], g.w, size) {
			// Split before the whitespace that precedes g.at.
			cut := g.at
			for cut > start && isSpace(cs[cut-1].Rune) {
				cut--
			}
			if cut > start {
				out = append(out, cs[start:cut])
			}
			start = cut
		}
	}
	out = append(out, cs[start:])
	return out
}

// hyphenTail reports whether tail, the rest of a line after a gap of w
// points, is the first part of a word hyphenated at the line's end ("Re-"
// of "Re-trieved") set after a wide space of a loose justified line (a
// line that an unbreakable address leaves with few spaces to stretch):
// one word of two or more letters ending in a hyphen, after a gap of at
// most three ems. A column gutter or a table's cell boundary is not
// followed by half a word alone.
func hyphenTail(tail []char, w, size float64) bool {
	if w > 3*size {
		return false
	}
	letters := 0
	last := rune(0)
	for _, c := range tail {
		if isSpace(c.Rune) {
			return false
		}
		if unicode.IsLetter(c.Rune) {
			letters++
		}
		last = c.Rune
	}
	return letters >= 2 && (last == '-' || last == '\u00ad')
}

// lineSize is a line's font size: the median size of its lower-case
// letters when it has at least three, so that words in small capitals
// (upper-case letters set smaller) do not make a line of body text look
// small; else the median size of all its characters.
func lineSize(cs []char) float64 {
	var s []float64
	for _, c := range cs {
		if c.Size > 0 && unicode.IsLower(c.Rune) {
			s = append(s, c.Size)
		}
	}
	if len(s) >= 3 {
		return median(s)
	}
	return medianSize(cs)
}

func medianSize(cs []char) float64 {
	var s []float64
	for _, c := range cs {
		if !isSpace(c.Rune) && c.Size > 0 {
			s = append(s, c.Size)
		}
	}
	if len(s) == 0 {
		for _, c := range cs {
			if !isSpace(c.Rune) {
				s = append(s, c.Box.Height()*1.4)
			}
		}
	}
	if len(s) == 0 {
		return 10
	}
	return median(s)
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// newLine builds a Line from characters, or returns nil when they hold no
// text.
func newLine(cs []char, bold []fontFlags) *Line {
	// Trim whitespace at both ends.
	for len(cs) > 0 && isSpace(cs[0].Rune) {
		cs = cs[1:]
	}
	for len(cs) > 0 && isSpace(cs[len(cs)-1].Rune) {
		cs = cs[:len(cs)-1]
	}
	if len(cs) == 0 {
		return nil
	}
	l := &Line{chars: cs}
	l.compute(bold)
	return l
}

// compute derives Text, Box, Size, Bold, Base, Vertical and Hyphenated from
// l.chars.
func (l *Line) compute(fonts []fontFlags) {
	var b strings.Builder
	space := false
	var box pdf.Rect
	var bottoms []float64
	bold, letters, mono, inked, italic, smallCaps, weightBold := 0, 0, 0, 0, 0, 0, 0
	firstBold, lastBold := false, false
	// firstBold is the weight of the line's first letter: a bold section
	// number before a title set in another face ("3.1 Abstract", SPIE's
	// bold number and oblique title) is no run-in label, whose words are
	// bold.
	sawLetter := false
	leadBoldDigit := false // the first inked character is a bold digit
	l.Math = 0
	marker := footnoteMarker(l.chars)
	wordGap := inferredSpaces(l.chars)
	letterSpaced := letterSpacing(l.chars)
	var prevInk *char
	onlyGenerated := true
	for i := range l.chars {
		c := &l.chars[i]
		if isSpace(c.Rune) {
			if !space {
				onlyGenerated = true
			}
			space = true
			onlyGenerated = onlyGenerated && c.Generated
			continue
		}
		if space && b.Len() > 0 && onlyGenerated && c.afterDrop && prevInk != nil && touching(*prevInk, *c) {
			// pdfium inferred a space where the glyphs touch (typically
			// around a misplaced diacritic): not a word boundary.
			space = false
		}
		if space && onlyGenerated && letterSpaced[i] {
			space = false // a gap inside a letter-spaced word
		}
		if space && b.Len() > 0 || i == marker || wordGap[i] || prevInk != nil && shiftedDigits(*prevInk, *c) {
			b.WriteByte(' ')
		}
		space = false
		prevInk = c
		b.WriteString(c.text())
		if c.Box.Width() > 0 || c.Box.Height() > 0 {
			box = box.Union(c.Box)
		}
		var ff fontFlags
		if c.Font >= 0 && c.Font < len(fonts) {
			ff = fonts[c.Font]
		}
		if inked == 0 {
			leadBoldDigit = unicode.IsDigit(c.Rune) && ff&boldFont != 0
		}
		inked++
		if ff&monoFont != 0 {
			mono++
		}
		if isMathRune(c.Rune) || ff&mathFont != 0 && unicode.IsLetter(c.Rune) {
			l.Math++
		}
		if unicode.IsLetter(c.Rune) || unicode.IsDigit(c.Rune) {
			letters++
			if ff&boldFont != 0 {
				bold++
			}
			if ff&weightBoldFont != 0 {
				weightBold++
			}
			if ff&italicFont != 0 {
				italic++
			}
			if ff&smallCapsFont != 0 {
				smallCaps++
			}
			if unicode.IsLetter(c.Rune) {
				if !sawLetter {
					firstBold = ff&boldFont != 0
				}
				sawLetter = true
			}
			lastBold = ff&boldFont != 0
			bottoms = append(bottoms, c.Box.Y0)
		}
	}
	l.Text = b.String()
	l.Box = box
	l.Size = lineSize(l.chars)
	l.Bold = letters > 0 && bold*2 > letters
	l.weightBold = bold > 0 && weightBold*2 > bold
	l.Italic = letters > 0 && italic*2 > letters
	l.SmallCaps = letters > 0 && smallCaps*2 > letters
	l.Ink = inked
	l.RunIn = firstBold && !lastBold
	l.BoldNumber = leadBoldDigit && sawLetter && !firstBold
	for _, c := range l.chars {
		if !isSpace(c.Rune) {
			l.AfterGlyph = c.afterUnmapped
			break
		}
	}
	l.Mono = inked > 0 && mono*10 >= inked*8
	l.monoInk = mono
	l.Bullet = smallLeadGlyph(l.chars, l.Size)
	if len(bottoms) > 0 {
		l.Base = median(bottoms)
	} else {
		l.Base = box.Y0
	}
	last := l.chars[len(l.chars)-1]
	l.Hyphenated = last.Hyphen
	l.Vertical = inked >= 3 && box.Height() > 2.5*box.Width() && box.Height() > 2*l.Size
	if l.Vertical {
		l.Base = box.X1
	}
}

// Word gaps without a space character: a gap between two loose glyph
// boxes (so beyond the glyphs' advance widths) wider than minWordGap times
// the font size, between letters or digits, is a word boundary that the
// PDF draws by positioning alone and pdfium did not turn into a space.
// Measured on the corpus, such gaps are under 0.03 of the size inside 99 %
// of words and above 0.16 at 99 % of the word boundaries pdfium found.
// The gap must also be several times the line's typical gap between
// letters, which keeps OCR text layers with loose glyph placement intact.
const minWordGap = 0.12

// inferredSpaces marks the characters of a line that follow such a gap.
func inferredSpaces(cs []char) map[int]bool {
	type pair struct {
		at  int
		gap float64
	}
	var pairs []pair
	var gaps []float64
	prev := -1
	spaced := false
	for i, c := range cs {
		if isSpace(c.Rune) {
			spaced = true
			continue
		}
		if prev >= 0 && !spaced {
			a := cs[prev]
			if alnum(a.Rune) && alnum(c.Rune) {
				s := math.Min(a.Size, c.Size)
				ov := math.Min(a.Box.Y1, c.Box.Y1) - math.Max(a.Box.Y0, c.Box.Y0)
				if s > 0 && math.Max(a.Size, c.Size) < 1.2*s && ov > 0.5*s {
					g := (c.Box.X0 - a.Box.X1) / s
					pairs = append(pairs, pair{i, g})
					gaps = append(gaps, g)
				}
			}
		}
		prev, spaced = i, false
	}
	var out map[int]bool
	if len(pairs) == 0 {
		return out
	}
	typical := median(gaps)
	for _, p := range pairs {
		// Digits drawn apart are never one number (text policy rule 5):
		// between two digits any gap past minWordGap is a word boundary,
		// however loosely the rest of the line is set.
		digits := unicode.IsDigit(cs[p.at].Rune) && p.at > 0 && unicode.IsDigit(prevInk(cs, p.at).Rune)
		if p.gap > minWordGap && (p.gap > 4*typical || cs[p.at].interleaved || digits) {
			if out == nil {
				out = map[int]bool{}
			}
			out[p.at] = true
		}
	}
	return out
}

// letterSpacing finds the spaces pdfium inferred inside letter-spaced
// words ("I N S T R U C T I O N", "JU M P ON TR U E"); tokens with a digit
// or a symbol are never joined. The line's inferred
// spaces must fall into two clearly separated widths — narrow ones, each
// next to a one-letter token, and word gaps at least 1.8 times wider — or,
// on a line of one-letter tokens only, be uniform. It marks the character
// after each narrow gap. Lines with real space characters are left alone.
func letterSpacing(cs []char) map[int]bool {
	type gap struct {
		at     int // index of the character after the gap
		width  float64
		single bool // a one-character token on either side
	}
	var gaps []gap
	prev, start := -1, 0 // last inked char; start of its token
	onlyGenerated := true
	spaceSeen := false
	allSingle := true
	for i, c := range cs {
		if isSpace(c.Rune) {
			if !spaceSeen {
				onlyGenerated = true
			}
			spaceSeen = true
			onlyGenerated = onlyGenerated && c.Generated
			continue
		}
		if spaceSeen && prev >= 0 {
			if !onlyGenerated {
				return nil // the line has real spaces: trust them
			}
			end := i
			for end < len(cs) && !isSpace(cs[end].Rune) {
				end++
			}
			leftLen, rightLen := prev-start+1, end-i
			allSingle = allSingle && leftLen == 1 && rightLen == 1
			gaps = append(gaps, gap{i, c.Box.X0 - cs[prev].Box.X1, leftLen == 1 || rightLen == 1})
			start = i
		}
		spaceSeen = false
		prev = i
	}
	if len(gaps) < 3 {
		return nil
	}
	widths := make([]float64, len(gaps))
	for i, g := range gaps {
		widths[i] = g.width
	}
	sort.Float64s(widths)
	// The widest jump between consecutive sorted widths splits narrow from
	// wide gaps.
	cut, ratio := -1, 0.0
	for i := 1; i < len(widths); i++ {
		if widths[i-1] > 0 && widths[i]/widths[i-1] > ratio {
			cut, ratio = i, widths[i]/widths[i-1]
		}
	}
	limit := 0.0
	switch {
	case ratio >= 1.8 && cut >= 2:
		limit = widths[cut-1]
	case allSingle && len(gaps) >= 4 && widths[len(widths)-1] <= 1.5*widths[0]:
		limit = widths[len(widths)-1]
	default:
		return nil
	}
	// Join tokens across narrow gaps; a group is a letter-spaced word when
	// its tokens are letters or pairs of letters, at least half of them
	// single ("JU M P"), not words ("c is a character").
	out := map[int]bool{}
	var group []int // gap indexes of the current group
	flush := func(lens []int) {
		singles := 0
		for _, n := range lens {
			if n > 2 {
				return
			}
			if n == 1 {
				singles++
			}
		}
		if singles*2 >= len(lens) {
			for _, gi := range group {
				out[gaps[gi].at] = true
			}
		}
	}
	var lens []int
	tokenLen := func(from int) int { // length of the token starting at cs[from]; 3 (never joined) unless all letters
		n := 0
		for j := from; j < len(cs) && !isSpace(cs[j].Rune); j++ {
			if !unicode.IsLetter(cs[j].Rune) {
				// Digits and symbols drawn apart stay apart: "9 7 6 5",
				// axis ticks "0 2 4 6 8" are not a spaced-out word.
				return 3
			}
			n++
		}
		return n
	}
	firstToken := 0
	for firstToken < len(cs) && isSpace(cs[firstToken].Rune) {
		firstToken++
	}
	lens = []int{tokenLen(firstToken)}
	for gi, g := range gaps {
		if g.width <= limit {
			group = append(group, gi)
			lens = append(lens, tokenLen(g.at))
			continue
		}
		if len(group) > 0 {
			flush(lens)
		}
		group = group[:0]
		lens = []int{tokenLen(g.at)}
	}
	if len(group) > 0 {
		flush(lens)
	}
	return out
}

// prevInk returns the last character before index i that is not white
// space.
func prevInk(cs []char, i int) char {
	for j := i - 1; j >= 0; j-- {
		if !isSpace(cs[j].Rune) {
			return cs[j]
		}
	}
	return char{}
}

func alnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// touching reports whether b follows a on the same line with no visible
// gap between the glyphs.
func touching(a, b char) bool {
	s := math.Max(charSize(a), charSize(b))
	gap := b.Box.X0 - a.Box.X1
	ov := math.Min(a.Box.Y1, b.Box.Y1) - math.Max(a.Box.Y0, b.Box.Y0)
	return gap > -0.05*s && gap < 0.06*s && ov > 0
}

// footnoteMarker returns the index of the first letter after a footnote
// marker that opens the line (raised digits or *, †, ‡ set smaller than the
// text that follows, with no space between), or -1. The whitespace policy
// puts one space there so that "⁸The" reads "8 The".
func footnoteMarker(cs []char) int {
	n := 0
	for n < len(cs) && strings.ContainsRune("0123456789*†‡§¶", cs[n].Rune) {
		n++
	}
	if n == 0 || n > 3 || n >= len(cs) || !unicode.IsLetter(cs[n].Rune) {
		return -1
	}
	m, t := cs[0], cs[n]
	raised := m.Box.Y0 > t.Box.Y0+0.25*t.Box.Height()
	smaller := m.Size > 0 && t.Size > 0 && m.Size < 0.85*t.Size
	if raised && smaller {
		return n
	}
	return -1
}

// mergeFragments joins consecutive lines that pdfium broke apart although
// they share a visual line: the second starts where the first ends, on an
// overlapping band of height (superscripts, subscripts, inline math).
func mergeFragments(lines []*Line, bold []fontFlags) []*Line {
	var out []*Line
	for _, l := range lines {
		if n := len(out); n > 0 && !l.Vertical && !out[n-1].Vertical && !out[n-1].Hyphenated {
			p := out[n-1]
			s := math.Max(p.Size, l.Size)
			ov := math.Min(p.Box.Y1, l.Box.Y1) - math.Max(p.Box.Y0, l.Box.Y0)
			minH := math.Min(p.Box.Height(), l.Box.Height())
			gap := l.Box.X0 - p.Box.X1
			sameBand := ov > 0.5*minH || math.Abs(p.Base-l.Base) < 0.25*s
			// A fragment on the same baseline may start a little inside
			// the previous one: a subscript set under a superscript (C∗ with
			// "max" below the star).
			tucked := math.Abs(p.Base-l.Base) < 0.1*s && gap > -0.8*s && l.Box.X0 > p.Box.X0+0.5*p.Box.Width()
			if sameBand && (gap > -0.2*s || tucked) && gap < 1.0*s {
				var sep []char
				if gap > 0.12*s {
					sep = append(sep, char{Char: pdf.Char{Rune: ' ', Generated: true, Font: -1}})
				}
				merged := append(append(append([]char{}, p.chars...), sep...), l.chars...)
				q := &Line{chars: merged}
				q.compute(bold)
				// Keep the dominant line's size and baseline.
				if p.Box.Width() >= l.Box.Width() {
					q.Size, q.Base = p.Size, p.Base
				} else {
					q.Size, q.Base = l.Size, l.Base
				}
				out[n-1] = q
				continue
			}
			// The same visual line drawn in several passes whose glyphs
			// interleave (a line printed in two colours, say): merge the
			// passes, which may be a few lines apart in the stream, in x
			// order and infer the spaces from the gaps.
			var passes []int
			for k := n - 1; k >= 0 && k >= n-8; k-- {
				o := out[k]
				if o.Vertical || o.Hyphenated || math.Abs(o.Base-l.Base) > 0.2*s || math.Abs(o.Size-l.Size) > 0.12*s {
					continue
				}
				xov := math.Min(o.Box.X1, l.Box.X1) - math.Max(o.Box.X0, l.Box.X0)
				if xov > 0.5*math.Min(o.Box.Width(), l.Box.Width()) && !overlapping(o.chars, l.chars) {
					passes = append(passes, k)
				}
			}
			if len(passes) > 0 {
				// Fragments of the same line that touch the merged passes
				// (the "P" of "Proc1:" drawn P, 1, r, o, c, :) join them.
				lo, hi := l.Box.X0, l.Box.X1
				for _, k := range passes {
					lo, hi = math.Min(lo, out[k].Box.X0), math.Max(hi, out[k].Box.X1)
				}
				for k := n - 1; k >= 0 && k >= n-8; k-- {
					o := out[k]
					if slices.Contains(passes, k) || o.Vertical || math.Abs(o.Base-l.Base) > 0.2*s || math.Abs(o.Size-l.Size) > 0.12*s {
						continue
					}
					if (o.Box.X1 < lo+0.1*s && lo-o.Box.X1 < 0.3*s) || (o.Box.X0 > hi-0.1*s && o.Box.X0-hi < 0.3*s) {
						passes = append(passes, k)
					}
				}
				slices.Sort(passes)
				slices.Reverse(passes)
				all := l.chars
				for _, k := range passes {
					all = append(append([]char{}, out[k].chars...), all...)
				}
				q := &Line{chars: interleave(all)}
				q.compute(bold)
				first := passes[len(passes)-1]
				out[first] = q
				for _, k := range passes[:len(passes)-1] {
					out = append(out[:k], out[k+1:]...)
				}
				continue
			}
		}
		out = append(out, l)
	}
	return out
}

// attachScripts joins to their line the fragments that pdfium broke off
// it and that mergeFragments could not join because they are not next to
// it in the content stream: a subscript set under a superscript (𝛽 with
// "SLE" above and "1" below), a script after it, or a piece of the same
// line drawn later. A fragment joins a line when
//
//   - it is a script — set at most 1/1.15 of the line's size, four
//     characters at most or no prose word (mathish) —, its middle lies within
//     the line's box (grown by 0.15 of the line's size up and down), and
//     it lies within the line or at most 0.6 of the line's size before its
//     start or after its end; or
//   - it is the line's size, on its baseline, and goes on from the line's
//     end (starting at most 1.5 of its size before it, in its right half, or
//     0.6 after it, or further back over a row of dots drawn under it).
//
// Its characters go in after the line's characters that it overlaps or
// follows, after the whole run of scripts there, with a space on either
// side; every character keeps its text, so the text policy's verbatim rule
// holds. Lines are joined until no more are.
func attachScripts(lines []*Line, fonts []fontFlags) []*Line {
	for changed := true; changed; {
		changed = false
		for i := 0; i < len(lines) && !changed; i++ {
			l := lines[i]
			if l.Vertical {
				continue
			}
			isProse := prose(l)
			isLabel := sectionLabel.MatchString(l.Text)
			// A dotted number ("5.1.2", "A.1") is no line number in the
			// margin: it may take running text as its title.
			multiPart := isLabel && strings.Contains(strings.TrimSuffix(l.Text, "."), ".")
			// A list marker set apart from its item by a tab ("a)    text",
			// "-    text") at the start of its line.
			isMarker := !isLabel && listMarker.MatchString(l.Text) && !textBefore(lines, l)
			best, bestDist := -1, math.Inf(1)
			for j, m := range lines {
				if j == i || m.Vertical || m.Size <= 0 {
					continue
				}
				s := m.Size
				// A section number set apart from its title ("I.    INTRODUCTION")
				// goes before it.
				if isLabel && m.Box.X0 > l.Box.X1 && m.Box.X0-l.Box.X1 < 5*s &&
					math.Abs(l.Base-m.Base) < 0.2*s && math.Abs(l.Size-m.Size) < 0.15*s && (multiPart || !prose(m)) {
					if d := m.Box.X0 - l.Box.X1; d < bestDist {
						best, bestDist = j, d
					}
					continue
				}
				if isMarker && m.Box.X0 > l.Box.X1 && m.Box.X0-l.Box.X1 < 5*s &&
					math.Abs(l.Base-m.Base) < 0.3*s && math.Abs(l.Size-m.Size) < 0.3*s {
					if d := m.Box.X0 - l.Box.X1; d < bestDist {
						best, bestDist = j, d
					}
					continue
				}
				if l.Box.X1 < m.Box.X0-0.6*s || l.Box.X0 > m.Box.X1+0.6*s {
					continue
				}
				script := l.Size*1.15 <= m.Size
				if script && (isProse || l.Ink > 4 && !mathish(l)) {
					continue // a line of smaller text, not a script
				}
				cy := (l.Box.Y0 + l.Box.Y1) / 2
				if script && (cy < m.Box.Y0-0.15*s || cy > m.Box.Y1+0.15*s) {
					continue
				}
				dotted := dotsFrom(m, l.Box.X0)
				if !script && (math.Abs(l.Size-m.Size) > 0.12*s || math.Abs(l.Base-m.Base) > 0.15*s && !(dotted && math.Abs(l.Base-m.Base) < 0.3*s) ||
					!dotted && (l.Box.X0 < m.Box.X1-1.5*s || l.Box.X0 < m.Box.X0+0.5*m.Box.Width()) || l.Box.X1 <= m.Box.X1) {
					continue
				}
				d := math.Max(0, math.Max(l.Box.X0-m.Box.X1, m.Box.X0-l.Box.X1))
				if d < bestDist {
					best, bestDist = j, d
				}
			}
			if best < 0 {
				continue
			}
			m := lines[best]
			q := &Line{chars: insertScript(m.chars, l.chars), seq: min(m.seq, l.seq)}
			q.compute(fonts)
			q.Size, q.Base = m.Size, m.Base
			if l.Size >= m.Size*0.9 && l.Ink > m.Ink {
				q.Size, q.Base = l.Size, l.Base // the longer piece of a line of one size
			}
			lines[best] = q
			lines = append(lines[:i], lines[i+1:]...)
			changed = true
		}
	}
	return lines
}

// listMarker is a list item's marker alone: an enumerator ("a)", "(b)",
// "iv)", "2)") or a bullet or dash.
var listMarker = regexp.MustCompile(`^(\(?[a-z]\)|\(?[ivx]{1,4}\)|\(?[0-9]{1,2}\)|[-–—•◦▪‣∙])$`)

// textBefore reports whether another line ends on l's baseline less than
// three of its sizes before l starts: l is then not at the start of its
// line (a dash ending a column's line, before the gutter).
func textBefore(lines []*Line, l *Line) bool {
	s := l.Size
	for _, m := range lines {
		if m != l && m.Box.X1 <= l.Box.X0+0.1*s && l.Box.X0-m.Box.X1 < 3*s && math.Abs(m.Base-l.Base) < 0.3*s {
			return true
		}
	}
	return false
}

// sectionLabel is a section number alone: "3", "3.2", "IV.", "V.I.II", "B.".
var sectionLabel = regexp.MustCompile(`^([0-9]{1,2}(\.[0-9]{1,2})*\.?|[IVXL]{1,5}(\.[IVXL]{1,5})*\.?|[A-Z]\.)$`)

// dotsFrom reports whether every character of m that ends right of x is a
// dot: a dotted rule drawn as text under the words that follow (the
// fragment overlapping them is the rest of the line, not a script).
func dotsFrom(m *Line, x float64) bool {
	n := 0
	for _, c := range m.chars {
		if isSpace(c.Rune) || c.Box.X1 <= x {
			continue
		}
		if c.Rune != '.' && c.Rune != '…' && c.Rune != '·' {
			return false
		}
		n++
	}
	return n >= 3
}

// insertScript puts the characters of a fragment into a line's: after the
// line's characters that start left of the fragment's end, and after the
// run of smaller characters (scripts) that follows them, separated by
// generated spaces.
func insertScript(line, frag []char) []char {
	var fx0, fx1 float64 = math.Inf(1), math.Inf(-1)
	for _, c := range frag {
		if !isSpace(c.Rune) {
			fx0, fx1 = math.Min(fx0, c.Box.X0), math.Max(fx1, c.Box.X1)
		}
	}
	at := 0
	for k, c := range line {
		if !isSpace(c.Rune) && c.Box.X0 < fx1-0.01 {
			at = k + 1
		}
	}
	// Do not cut a run of script characters (the superscript over a
	// subscript): go on to its end.
	if at > 0 && at < len(line) {
		size := line[at-1].Size
		for at < len(line) && !isSpace(line[at].Rune) && line[at].Size > 0 && math.Abs(line[at].Size-size) < 0.05*size {
			at++
		}
	}
	sp := char{Char: pdf.Char{Rune: ' ', Generated: true, Font: -1}}
	out := append([]char{}, line[:at]...)
	if at > 0 && !isSpace(out[len(out)-1].Rune) {
		out = append(out, sp)
	}
	out = append(out, frag...)
	if at < len(line) && !isSpace(line[at].Rune) {
		out = append(out, sp)
	}
	return append(out, line[at:]...)
}

// overlapping reports whether some inked glyph of a covers half of a glyph
// of b: then b is drawn over a (a table, overprinted text), not between
// its glyphs.
func overlapping(a, b []char) bool {
	for _, x := range a {
		if isSpace(x.Rune) {
			continue
		}
		for _, y := range b {
			if isSpace(y.Rune) {
				continue
			}
			ov := math.Min(x.Box.X1, y.Box.X1) - math.Max(x.Box.X0, y.Box.X0)
			if ov > 0.5*math.Min(x.Box.Width(), y.Box.Width()) {
				return true
			}
		}
	}
	return false
}

// interleave merges the inked glyphs of passes over one line in x order.
// Spaces are dropped; compute infers word gaps from the glyph positions
// (see inferredSpaces).
func interleave(cs []char) []char {
	var out []char
	for _, c := range cs {
		if !isSpace(c.Rune) {
			c.afterDrop = false
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Box.X0 < out[j].Box.X0 })
	for i := range out {
		out[i].interleaved = true
	}
	return out
}

// shiftedDigits reports whether digit b follows digit a at another size or
// baseline: an exponent, index or footnote number drawn against a number
// ("10" and a raised "25", "2013" and a raised "1"). The text policy puts
// a space between them so that no number is read that the PDF does not
// print.
func shiftedDigits(a, b char) bool {
	if !unicode.IsDigit(a.Rune) || !unicode.IsDigit(b.Rune) {
		return false
	}
	ha, hb := a.Box.Height(), b.Box.Height()
	if ha <= 0 || hb <= 0 {
		return false
	}
	// pdfium reports one size per word, so compare the glyph boxes, whose
	// height follows the size each glyph is drawn at.
	return math.Abs(ha-hb) > 0.2*math.Max(ha, hb) || math.Abs(a.Box.Y0-b.Box.Y0) > 0.25*math.Max(ha, hb)
}

// smallLeadGlyph reports whether cs starts with one inked glyph followed
// by white space and more text, set at under 80 % of size (the line's
// size), that is neither a digit nor a footnote mark.
func smallLeadGlyph(cs []char, size float64) bool {
	i := 0
	for i < len(cs) && isSpace(cs[i].Rune) {
		i++
	}
	if i+2 >= len(cs) || !isSpace(cs[i+1].Rune) {
		return false
	}
	c := cs[i]
	if c.Size <= 0 || c.Size >= 0.8*size || unicode.IsDigit(c.Rune) || strings.ContainsRune("*†‡§¶∗⋆", c.Rune) {
		return false
	}
	for _, d := range cs[i+1:] {
		if !isSpace(d.Rune) {
			return true
		}
	}
	return false
}

// subsectionNumber matches a multi-level section number opening a line:
// "3.2 Displayed", "6.1.1. Dummy" (a list never numbers its items so).
var subsectionNumber = regexp.MustCompile(`^\d{1,2}(\.\d{1,2})+\.?\s+\S`)

// boldNumberedHead reports whether l is set as a subsection heading by the
// weight of its number alone: a bold multi-level section number before a
// title of at most ten words in the text face or italic (BoldNumber) that
// does not close with a period, as SPIE's and other journals' styles set
// subsections.
func boldNumberedHead(l *Line) bool {
	t := strings.TrimSpace(l.Text)
	return l.BoldNumber && subsectionNumber.MatchString(t) && len(strings.Fields(t)) <= 10 &&
		!strings.HasSuffix(t, ".") && !l.Hyphenated && !strings.HasSuffix(t, ",")
}

// joinRunInGaps joins again the first two parts of a line that splitGaps
// cut at a gap after a run-in heading: a head of at most eight words at the
// line's start, with letters and no mathematics, all its letters bold, or
// all italic and closing with a period, colon or dash, followed within
// three ems by text whose first letter is in neither of the head's faces. Some
// styles set such a head off by a wide space (APA's "Inter-rater
// reliability." before a 1.7 em gap; resphilosophica's bold
// "Acknowledgments") that is not a gutter: no other line of the frame
// starts where the text after the gap does, as the lines of a column or
// the cells of a table column do. split holds each pdfium line's parts
// (splitGaps); fonts classifies the characters' fonts.
func joinRunInGaps(split [][][]char, fonts []fontFlags) {
	flags := func(c char) fontFlags {
		if c.Font >= 0 && c.Font < len(fonts) {
			return fonts[c.Font]
		}
		return 0
	}
	// starts are the left edges of every part's first inked character.
	var starts []float64
	for _, parts := range split {
		for _, part := range parts {
			for _, c := range part {
				if !isSpace(c.Rune) {
					starts = append(starts, c.Box.X0)
					break
				}
			}
		}
	}
	for i, parts := range split {
		if len(parts) < 2 {
			continue
		}
		head, text := parts[0], parts[1]
		h := newLine(head, fonts)
		if h == nil || len(strings.Fields(h.Text)) > 8 || !h.Bold && !h.Italic || h.Math > 0 || letterCount(h.Text) < 2 {
			continue
		}
		if r, _ := utf8.DecodeLastRuneInString(h.Text); !h.Bold && !strings.ContainsRune(runInDelims, r) {
			continue // an italic head closes with a period, colon or dash (italic alone is also math's)
		}
		// The head's last inked character and the text's first.
		last, ok := lastInk(head)
		if !ok {
			continue
		}
		first := -1
		for k, c := range text {
			if !isSpace(c.Rune) {
				first = k
				break
			}
		}
		if first < 0 {
			continue
		}
		size := medianSize(head)
		if gap := text[first].Box.X0 - last.Box.X1; gap > 3*size {
			continue
		}
		// The text's first letter is in neither of the head's faces.
		face := fontFlags(0)
		if h.Bold {
			face |= boldFont
		}
		if h.Italic {
			face |= italicFont
		}
		letter := false
		for _, c := range text[first:] {
			if unicode.IsLetter(c.Rune) {
				letter = flags(c)&face == 0
				break
			}
		}
		if !letter {
			continue
		}
		x := text[first].Box.X0
		shared := 0
		for _, s := range starts {
			if math.Abs(s-x) <= 1 {
				shared++
			}
		}
		if shared > 1 {
			continue // other lines start there too: a gutter or a table column
		}
		joined := make([]char, 0, len(head)+len(text))
		joined = append(append(joined, head...), text...)
		split[i] = append([][]char{joined}, parts[2:]...)
	}
}

func letterCount(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n
}

// joinTermRows joins each term of a nomenclature or a list of
// abbreviations to its definition, set a tab stop to its right on the same
// baseline ("F        Force, N"): lines that the gap between them left
// apart. A term is at most two tokens and six characters with a letter,
// not bold and not closing with a colon (a symbol: "F", "∆x", "Re"; a bold
// label "Alpha:" with its value beside it is a table's); its definition starts with a letter and
// holds a word of two letters or more, one to eight ems to its right, in
// the same size, with no other line between them or after the definition
// (a table's row has more cells). Pairs join only in a
// list: at least three of them whose terms start at one left edge and
// whose definitions start at another (within a point), as a nomenclature
// aligns them.
func joinTermRows(lines []*Line, bold []fontFlags) []*Line {
	type pair struct{ t, d int }
	var pairs []pair
	for i, t := range lines {
		if t.Vertical || t.Bold || !termLike(t.Text) {
			continue
		}
		s := t.Size
		best := -1
		for j, d := range lines {
			if j == i || d.Vertical || math.Abs(d.Base-t.Base) > 0.2*s || math.Abs(d.Size-t.Size) > 0.12*s {
				continue
			}
			gap := d.Box.X0 - t.Box.X1
			if gap < 1.0*s || gap > 8*s || (best >= 0 && d.Box.X0 >= lines[best].Box.X0) {
				continue
			}
			best = j
		}
		if best < 0 || !definitionLike(lines[best].Text) {
			continue
		}
		// Nothing between them on the baseline, nor after the definition
		// (a table's row goes on with more cells).
		clear := true
		for k, o := range lines {
			if k != i && k != best && math.Abs(o.Base-t.Base) <= 0.2*s && o.Box.X0 > t.Box.X1 {
				clear = false
			}
		}
		if clear {
			pairs = append(pairs, pair{i, best})
		}
	}
	join := map[int]int{}
	for _, p := range pairs {
		n := 0
		for _, q := range pairs {
			if math.Abs(lines[q.t].Box.X0-lines[p.t].Box.X0) <= 1 && math.Abs(lines[q.d].Box.X0-lines[p.d].Box.X0) <= 1 {
				n++
			}
		}
		if n >= 3 {
			join[p.t] = p.d
		}
	}
	if len(join) == 0 {
		return lines
	}
	drop := map[int]bool{}
	for t, d := range join {
		if drop[t] || drop[d] {
			continue
		}
		drop[d] = true
	}
	var out []*Line
	for i, l := range lines {
		if drop[i] {
			continue
		}
		if d, ok := join[i]; ok && drop[d] {
			sep := char{Char: pdf.Char{Rune: ' ', Generated: true, Font: -1}}
			q := &Line{chars: append(append(append([]char{}, l.chars...), sep), lines[d].chars...)}
			q.compute(bold)
			q.Size, q.Base = lines[d].Size, lines[d].Base
			q.seq = l.seq
			out = append(out, q)
			continue
		}
		out = append(out, l)
	}
	return out
}

// termLike reports whether a line's text reads as a nomenclature's term:
// one or two tokens, six characters at most, with a letter, not closing
// with a colon (a label: "Alpha:", whose value a table sets beside it).
func termLike(text string) bool {
	f := strings.Fields(text)
	n := utf8.RuneCountInString(strings.Join(f, ""))
	return len(f) >= 1 && len(f) <= 2 && n <= 6 && strings.IndexFunc(text, unicode.IsLetter) >= 0 && !strings.HasSuffix(text, ":")
}

// definitionLike reports whether a line's text reads as a term's
// definition: it starts with a letter and holds a word — three letters or
// more and nothing else but closing punctuation ("Force,", "Mass"), not a
// formula such as "Ψ(t1, λ1)".
func definitionLike(text string) bool {
	r, _ := utf8.DecodeRuneInString(text)
	if !unicode.IsLetter(r) {
		return false
	}
	for _, w := range strings.Fields(text) {
		w = strings.TrimRight(w, ".,;:")
		if utf8.RuneCountInString(w) >= 3 && strings.IndexFunc(w, func(c rune) bool { return !unicode.IsLetter(c) }) < 0 {
			return true
		}
	}
	return false
}
