package layout

import (
	"math"
	"slices"
	"sort"

	"github.com/crossmem/crossmem/internal/pdf"
)

// frame is the characters of one orientation, rotated so that their text
// runs left to right, with the way back to page coordinates.
type frame struct {
	quarter int
	chars   []pdf.Char
	extent  pdf.Rect // the page in the frame's coordinates
	inked   int
}

// back maps a rectangle from the frame to page coordinates.
func (f *frame) back(r pdf.Rect) pdf.Rect { return rotateRect(r, (4-f.quarter)%4) }

// orientations groups a page's characters by the rotation of their
// baseline (0°, 90°, 180°, 270°), keeping content-stream order, and
// rotates each group so its text runs left to right. Whitespace belongs to
// the group of the word before it. Groups come largest first, so a page's
// main text is read before rotated margin stamps or a turned table.
func orientations(p *pdf.Page) []*frame {
	page := pdf.Rect{X0: 0, Y0: 0, X1: p.Width, Y1: p.Height}
	// Most pages are one orientation, upright: their one frame is the
	// page's characters as they are (shared, not copied: nothing changes
	// them).
	upright, inked := true, 0
	for _, c := range p.Chars {
		if !c.Generated && !isSpace(c.Rune) {
			if pdf.Quarter(c.Angle) != 0 {
				upright = false
				break
			}
			inked++
		}
	}
	if upright {
		if inked == 0 {
			return nil
		}
		return []*frame{{quarter: 0, chars: p.Chars, extent: page, inked: inked}}
	}
	byQ := map[int]*frame{}
	q := 0
	for _, c := range p.Chars {
		if !c.Generated && !isSpace(c.Rune) {
			q = pdf.Quarter(c.Angle)
		}
		f := byQ[q]
		if f == nil {
			f = &frame{quarter: q, extent: rotateRect(page, q)}
			if len(byQ) == 0 {
				// Most pages are one orientation: room for all.
				f.chars = make([]pdf.Char, 0, len(p.Chars))
			}
			byQ[q] = f
		}
		if q != 0 {
			c.Box = rotateRect(c.Box, q)
			c.Ink = rotateRect(c.Ink, q)
		}
		if !c.Generated && !isSpace(c.Rune) {
			f.inked++
		}
		f.chars = append(f.chars, c)
	}
	var out []*frame
	for _, f := range byQ {
		if f.inked > 0 {
			out = append(out, f)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].inked != out[j].inked {
			return out[i].inked > out[j].inked
		}
		return out[i].quarter < out[j].quarter
	})
	return out
}

// rotateRect rotates r clockwise by q quarter turns about the origin, so
// that text whose baseline points at q×90° counter-clockwise ends up
// running along +x. A zero rectangle stays zero.
func rotateRect(r pdf.Rect, q int) pdf.Rect {
	if r == (pdf.Rect{}) || q == 0 {
		return r
	}
	pt := func(x, y float64) (float64, float64) {
		switch q {
		case 1:
			return y, -x
		case 2:
			return -x, -y
		default:
			return -y, x
		}
	}
	ax, ay := pt(r.X0, r.Y0)
	bx, by := pt(r.X1, r.Y1)
	return pdf.Rect{X0: min(ax, bx), Y0: min(ay, by), X1: max(ax, bx), Y1: max(ay, by)}
}

// dropOverprint removes characters drawn again over an earlier copy of
// themselves: the same rune at (almost) the same place, as producers do for
// text repeated on a layer or stroked and filled separately. Two copies
// count as the same glyph when they are less than a tenth of the font size
// apart both ways (poppler uses the same tolerance); copies shifted
// further, as for fake bold, are kept, as pdfium reports them.
// Consecutive characters with identical boxes are the letters of a
// ligature and are kept.
//
// Only characters with a possible copy nearby are compared one by one: the
// candidates are sorted by rune and position on the 4 pt grid the
// comparison uses, and a scan over neighbouring cells finds the few pairs
// (usually none) that could be copies of each other.
func dropOverprint(cs []pdf.Char) []pdf.Char {
	type cand struct {
		r      rune
		gx, gy int
		i      int // index in cs
	}
	cands := make([]cand, 0, len(cs))
	suspect := map[int]bool{} // indices in cs with a possible copy
	for i, c := range cs {
		if c.Generated || isSpace(c.Rune) || c.Rune == 0 || c.Box.Width() <= 0 {
			continue
		}
		// pdfium reports the letters of a ligature ("ffi") with the
		// ligature's box, one after the other: not an overprint.
		if i > 0 && cs[i-1].Box == c.Box {
			continue
		}
		if !(math.Abs(c.Box.X0) <= 1e15 && math.Abs(c.Box.Y0) <= 1e15) {
			// Far off (or NaN): grid cells could wrap around; leave it to
			// the rule itself.
			suspect[i] = true
			continue
		}
		cands = append(cands, cand{c.Rune, int(c.Box.X0 / 4), int(c.Box.Y0 / 4), i})
	}
	cmp := func(a, b cand) int {
		switch {
		case a.r != b.r:
			return compareInt(int(a.r), int(b.r))
		case a.gy != b.gy:
			return compareInt(a.gy, b.gy)
		case a.gx != b.gx:
			return compareInt(a.gx, b.gx)
		}
		return a.i - b.i
	}
	slices.SortFunc(cands, cmp)
	// copies reports whether the characters at i and j (i earlier) are
	// copies of one glyph as the later one's size measures it.
	copies := func(i, j int) bool {
		if i > j {
			i, j = j, i
		}
		b, c := cs[i].Box, cs[j]
		return math.Abs(b.X0-c.Box.X0) < 0.1*c.Size && math.Abs(b.Y0-c.Box.Y0) < 0.1*c.Size
	}
	for k, a := range cands {
		// Later candidates in the same or the next row of cells, within
		// one cell left or right.
		for _, gy := range [2]int{a.gy, a.gy + 1} {
			lo := k + 1
			if gy != a.gy {
				lo, _ = slices.BinarySearchFunc(cands, cand{a.r, a.gx - 1, gy, -1 << 62}, cmp)
			}
			for m := lo; m < len(cands); m++ {
				b := cands[m]
				if b.r != a.r || b.gy != gy || b.gx > a.gx+1 {
					break
				}
				if b.gx < a.gx-1 || !copies(a.i, b.i) {
					continue
				}
				suspect[a.i], suspect[b.i] = true, true
			}
		}
	}
	if len(suspect) == 0 {
		return cs // nothing to drop: cs itself, not a copy
	}
	out := cs[:0:0]
	// The rule itself, for the suspects only: a character is dropped when
	// an earlier kept suspect is a copy of it. A character that is no
	// suspect has no copy, so it neither drops nor is dropped.
	type key struct {
		r    rune
		x, y int
	}
	seen := map[key][]pdf.Rect{}
	for i, c := range cs {
		if !suspect[i] {
			out = append(out, c)
			continue
		}
		gx, gy := int(c.Box.X0/4), int(c.Box.Y0/4)
		dup := false
		for dx := -1; dx <= 1 && !dup; dx++ {
			for dy := -1; dy <= 1 && !dup; dy++ {
				for _, b := range seen[key{c.Rune, gx + dx, gy + dy}] {
					if math.Abs(b.X0-c.Box.X0) < 0.1*c.Size && math.Abs(b.Y0-c.Box.Y0) < 0.1*c.Size {
						dup = true
						break
					}
				}
			}
		}
		if dup {
			continue
		}
		k := key{c.Rune, gx, gy}
		seen[k] = append(seen[k], c.Box)
		out = append(out, c)
	}
	return out
}

func compareInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
