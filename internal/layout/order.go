package layout

import (
	"math"
	"sort"

	"github.com/crossmem/crossmem/internal/pdf"
)

// minGutter is the narrowest vertical strip of empty page, in points, that
// is taken as a gap between columns.
const minGutter = 3.0

// orderRegions puts regions in reading order with a recursive cut:
//
//  1. If empty vertical strips (gutters) divide the regions into columns,
//     read the columns left to right, each ordered recursively.
//  2. Otherwise cut the page into horizontal bands at empty horizontal
//     strips, join consecutive bands that share a gutter (the rows of a
//     multi-column part of the page, between full-width elements such as a
//     title or a wide figure), and order each group recursively, top to
//     bottom.
//  3. A group that cannot be cut either way is read top to bottom, left to
//     right.
//
// Before 1, a horizontal rule drawn across a gutter with nothing crossing
// its height (the rule that sets a bibliography or a full-width float apart
// from two columns of text) cuts the page into the part above it and the
// part below, each ordered recursively.
//
// The content-stream order is never consulted here.
func orderRegions(rs []*region, rules []pdf.Rect) []*region {
	if len(rs) <= 1 {
		return rs
	}
	if above, below, ok := cutAtRule(rs, rules); ok {
		return append(orderRegions(above, rules), orderRegions(below, rules)...)
	}
	if cols := splitColumns(rs); len(cols) > 1 {
		var out []*region
		for _, c := range cols {
			out = append(out, orderRegions(c, rules)...)
		}
		return out
	}
	bands := splitBands(rs)
	if len(bands) <= 1 {
		out := append([]*region(nil), rs...)
		sort.SliceStable(out, func(i, j int) bool {
			a, b := out[i].box, out[j].box
			if math.Abs(a.Y1-b.Y1) > 2 {
				return a.Y1 > b.Y1
			}
			return a.X0 < b.X0
		})
		return out
	}
	var out []*region
	for _, g := range groupBands(bands) {
		if len(g) == len(rs) {
			// Cannot happen (a shared gutter would have split columns
			// above); guard against endless recursion anyway.
			out = append(out, g...)
			continue
		}
		out = append(out, orderRegions(g, rules)...)
	}
	return out
}

// cutAtRule looks for the topmost horizontal rule that crosses a gutter
// between the regions and lies between them (no region reaches across its
// height, some lie above and some below), and splits the regions there.
func cutAtRule(rs []*region, rules []pdf.Rect) (above, below []*region, ok bool) {
	ivs := make([]interval, len(rs))
	for i, r := range rs {
		ivs[i] = interval{r.box.X0, r.box.X1}
	}
	gs := gaps(ivs, minGutter)
	if len(gs) == 0 {
		return nil, nil, false
	}
	best := math.Inf(-1)
	for _, rule := range rules {
		y := (rule.Y0 + rule.Y1) / 2
		if y <= best {
			continue
		}
		crosses := false
		for _, g := range gs {
			if rule.X0 < g.lo && rule.X1 > g.hi {
				crosses = true
				break
			}
		}
		if !crosses {
			continue
		}
		n, m := 0, 0
		clear := true
		for _, r := range rs {
			switch {
			case r.box.Y0 >= y:
				n++
			case r.box.Y1 <= y:
				m++
			default:
				clear = false
			}
		}
		if clear && n > 0 && m > 0 {
			best = y
		}
	}
	if math.IsInf(best, -1) {
		return nil, nil, false
	}
	for _, r := range rs {
		if r.box.Y0 >= best {
			above = append(above, r)
		} else {
			below = append(below, r)
		}
	}
	return above, below, true
}

type interval struct{ lo, hi float64 }

// gaps returns the empty intervals of width >= minWidth between the
// covered intervals ivs, in ascending order.
func gaps(ivs []interval, minWidth float64) []interval {
	if len(ivs) == 0 {
		return nil
	}
	s := append([]interval(nil), ivs...)
	sort.Slice(s, func(i, j int) bool { return s[i].lo < s[j].lo })
	var out []interval
	hi := s[0].hi
	for _, iv := range s[1:] {
		if iv.lo-hi >= minWidth {
			out = append(out, interval{hi, iv.lo})
		}
		hi = math.Max(hi, iv.hi)
	}
	return out
}

// splitColumns divides regions at gutters, left to right. It returns one
// group when there is no gutter.
func splitColumns(rs []*region) [][]*region {
	ivs := make([]interval, len(rs))
	for i, r := range rs {
		ivs[i] = interval{r.box.X0, r.box.X1}
	}
	gs := gaps(ivs, minGutter)
	if len(gs) == 0 {
		return [][]*region{rs}
	}
	cols := make([][]*region, len(gs)+1)
	for _, r := range rs {
		c := 0
		for c < len(gs) && r.box.X0 >= gs[c].hi {
			c++
		}
		cols[c] = append(cols[c], r)
	}
	var out [][]*region
	for _, c := range cols {
		if len(c) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// splitBands divides regions at empty horizontal strips, top to bottom.
func splitBands(rs []*region) [][]*region {
	ivs := make([]interval, len(rs))
	for i, r := range rs {
		ivs[i] = interval{r.box.Y0, r.box.Y1}
	}
	gs := gaps(ivs, 0.01)
	if len(gs) == 0 {
		return [][]*region{rs}
	}
	// gaps are ascending in y; bands top to bottom means descending.
	bands := make([][]*region, len(gs)+1)
	for _, r := range rs {
		b := 0
		for b < len(gs) && r.box.Y0 >= gs[b].hi {
			b++
		}
		bands[len(gs)-b] = append(bands[len(gs)-b], r)
	}
	var out [][]*region
	for _, b := range bands {
		if len(b) > 0 {
			out = append(out, b)
		}
	}
	return out
}

// groupBands joins consecutive bands while some gutter stays free in all of
// them and has regions on both sides within the group.
//
// A band none of whose regions lines up with the group so far (left, right
// or centre within alignTol) but that does line up with the next band
// starts a new group instead: a column heading below a centred author grid
// belongs to the columns that follow it.
func groupBands(bands [][]*region) [][]*region {
	var out [][]*region
	cur := bands[0]
	for i, b := range bands[1:] {
		joined := append(append([]*region(nil), cur...), b...)
		if len(splitColumns(joined)) > 1 {
			next := i + 2
			if !aligned(b, cur) && next < len(bands) && aligned(b, bands[next]) {
				out = append(out, cur)
				cur = b
				continue
			}
			cur = joined
			continue
		}
		out = append(out, cur)
		cur = b
	}
	return append(out, cur)
}

// alignTol is how far apart, in points, two edges may be and still count as
// aligned.
const alignTol = 6.0

// aligned reports whether some region of a lines up with some region of b.
func aligned(a, b []*region) bool {
	for _, x := range a {
		for _, y := range b {
			if math.Abs(x.box.X0-y.box.X0) < alignTol || math.Abs(x.box.X1-y.box.X1) < alignTol ||
				math.Abs((x.box.X0+x.box.X1)/2-(y.box.X0+y.box.X1)/2) < alignTol {
				return true
			}
		}
	}
	return false
}
