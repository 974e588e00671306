package layout

import (
	"math"
	"sort"
	"strconv"

	"github.com/crossmem/crossmem/internal/pdf"
)

// Line numbers. A manuscript set for review (the lineno package, a
// journal's "review" or "proof" option) numbers its lines in the margin:
// a column of bare integers, one per line of text, counting up the page
// from the top, set beside the text column at a fixed distance. Read as
// text they are a scatter of short lines that join the display equations
// beside them ("lim 5 h→0 6") or stand alone as equations and numbers
// (aomart's sample, where every page has them). lineNumbers takes them out
// of the page's lines before the lines are grouped: they become one
// margin note per column of numbers, never body text.
//
// A column of line numbers is told by what only line numbers do at once:
//
//   - each is an integer of one to four digits, alone on its line or the
//     first (last) word of a line that reaches no further left (right)
//     than it, in type no larger than the body's;
//   - they line up on their right or their left edges, five or more of
//     them, increasing strictly from the top down, by one from most
//     lines to the next, a line apart (the median distance two body
//     sizes at most: a table's numbered rows wrap);
//   - they lie outside the running text: no line of running text on the
//     page that reaches past them starts (ends) within half an em of
//     them — a table's or a list's numbers stand at the column's edge,
//     where the paragraphs around them start — and three or more lines
//     of running text lie beyond them;
//   - at least three of them share the baseline of a line of two words or
//     more that is not code (they number lines of text).

// lineNumber is a candidate: the integer a line opens (side 0) or ends
// (side 1) with.
type lineNumber struct {
	line  *Line
	at    int // index in the frame's lines
	value int
	cut   int      // the number's characters are line.chars[:cut] (side 0) or [cut:] (side 1)
	box   pdf.Rect // the integer's characters only
	side  int
}

// lineNumbers splits the line numbers off lines (see above). It returns
// the lines without them (a line that also held text keeps its text as a
// line of its own) and the columns of numbers, each top down.
func lineNumbers(lines []*Line, bold []fontFlags, st Stats) (rest []*Line, columns [][]*Line) {
	var cands []lineNumber
	for i, l := range lines {
		if l.Vertical || len(l.chars) == 0 || l.Size > 1.05*st.BodySize && st.BodySize > 0 {
			continue
		}
		for side := 0; side < 2; side++ {
			if c, ok := numberAt(l, side); ok {
				c.at = i
				cands = append(cands, c)
			}
		}
	}
	if len(cands) < 5 {
		return lines, nil
	}
	// Group by the aligned edge — the right edges or the left edges
	// (lineno sets them flush left or flush right) — for numbers left of
	// the text (side 0) and right of it (side 1); the largest groups are
	// tried first, so that a column aligned on its left edges is not cut
	// into its one-digit and two-digit numbers by their right edges.
	var groups [][]lineNumber
	for pass := 0; pass < 4; pass++ {
		side, left := pass/2, pass%2 == 1
		edge := func(c lineNumber) float64 {
			if left {
				return c.box.X0
			}
			return c.box.X1
		}
		var cs []lineNumber
		for _, c := range cands {
			if c.side == side {
				cs = append(cs, c)
			}
		}
		sort.Slice(cs, func(i, j int) bool { return edge(cs[i]) < edge(cs[j]) })
		for i := 0; i < len(cs); {
			j := i + 1
			for j < len(cs) && edge(cs[j])-edge(cs[j-1]) < 1 {
				j++
			}
			if j-i >= 5 {
				groups = append(groups, cs[i:j])
			}
			i = j
		}
	}
	sort.SliceStable(groups, func(i, j int) bool { return len(groups[i]) > len(groups[j]) })
	cut := map[int]lineNumber{}
	for _, g := range groups {
		var group []lineNumber
		for _, c := range g {
			if _, taken := cut[c.at]; !taken {
				group = append(group, c)
			}
		}
		if len(group) < 5 {
			continue
		}
		col, ok := numberColumn(group, lines, group[0].side, st)
		if !ok {
			continue
		}
		var ls []*Line
		for _, c := range col {
			cut[c.at] = c
			if n := splitNumber(c, bold); n != nil {
				ls = append(ls, n)
			}
		}
		columns = append(columns, ls)
	}
	if len(columns) == 0 {
		return lines, nil
	}
	for i, l := range lines {
		c, ok := cut[i]
		if !ok {
			rest = append(rest, l)
			continue
		}
		var cs []char
		if c.side == 0 {
			cs = l.chars[c.cut:]
		} else {
			cs = l.chars[:c.cut]
		}
		if t := newLine(cs, bold); t != nil {
			t.seq = l.seq
			rest = append(rest, t)
		}
	}
	return rest, columns
}

// numberAt returns the integer line l opens (side 0) or ends (side 1)
// with, when the rest of the line lies beyond it on the other side.
func numberAt(l *Line, side int) (lineNumber, bool) {
	cs := l.chars
	// The number's characters: up to the first (from the last) space.
	lo, hi := 0, len(cs)
	if side == 0 {
		hi = 0
		for hi < len(cs) && !isSpace(cs[hi].Rune) {
			hi++
		}
	} else {
		lo = len(cs)
		for lo > 0 && !isSpace(cs[lo-1].Rune) {
			lo--
		}
	}
	if hi-lo < 1 || hi-lo > 4 {
		return lineNumber{}, false
	}
	s := ""
	var box pdf.Rect
	for k := lo; k < hi; k++ {
		r := cs[k].Rune
		if r < '0' || r > '9' {
			return lineNumber{}, false
		}
		s += string(r)
		b := cs[k].Box
		if k == lo {
			box = b
		} else {
			box = box.Union(b)
		}
	}
	if s[0] == '0' {
		return lineNumber{}, false
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		return lineNumber{}, false
	}
	// The rest of the line lies beyond the number, a space or more away.
	for k, c := range cs {
		if k >= lo && k < hi || isSpace(c.Rune) {
			continue
		}
		if side == 0 && c.Box.X0 < box.X1+0.2*l.Size || side == 1 && c.Box.X1 > box.X0-0.2*l.Size {
			return lineNumber{}, false
		}
	}
	cut := hi
	if side == 1 {
		cut = lo
	}
	return lineNumber{line: l, value: v, cut: cut, box: box, side: side}, true
}

// numberColumn reports whether numbers aligned on one edge are a column of
// line numbers (see the comment at the top of the file), and returns them
// top down.
func numberColumn(group []lineNumber, lines []*Line, side int, st Stats) ([]lineNumber, bool) {
	if len(group) < 5 {
		return nil, false
	}
	sort.Slice(group, func(i, j int) bool { return group[i].box.Y1 > group[j].box.Y1 })
	byOne := 0
	for i := 1; i < len(group); i++ {
		d := group[i].value - group[i-1].value
		if d <= 0 || group[i].box.Y1 > group[i-1].box.Y0+0.5 {
			return nil, false
		}
		if d == 1 {
			byOne++
		}
	}
	if 2*byOne < len(group)-1 {
		return nil, false
	}
	// One line apart: they count lines, not the rows of a table, whose
	// cells wrap over several lines.
	var pitch []float64
	for i := 1; i < len(group); i++ {
		pitch = append(pitch, group[i-1].line.Base-group[i].line.Base)
	}
	if median(pitch) > 2*st.BodySize {
		return nil, false
	}
	top, bottom := group[0].box.Y1, group[len(group)-1].box.Y0
	edge := group[0].box.X1
	if side == 1 {
		edge = group[0].box.X0
	}
	for _, g := range group {
		if side == 0 {
			edge = math.Max(edge, g.box.X1)
		} else {
			edge = math.Min(edge, g.box.X0)
		}
	}
	isNumber := map[*Line]bool{}
	numBases := make([]float64, 0, len(group)) // ascending
	for _, g := range group {
		isNumber[g.line] = true
		numBases = append(numBases, g.line.Base)
	}
	sort.Float64s(numBases)
	// In the margin: no line of running text on the page reaches the
	// numbers from the text's side (a table's or a list's numbers stand
	// at the column's edge, where the paragraphs around them start), and
	// the page has running text beside them.
	beyond, shared := 0, 0
	for _, l := range lines {
		if isNumber[l] {
			continue
		}
		if prose(l) {
			half := l.Size / 2
			if side == 0 && l.Box.X1 > edge && l.Box.X0 < edge+half || side == 1 && l.Box.X0 < edge && l.Box.X1 > edge-half {
				return nil, false
			}
			if side == 0 && l.Box.X0 > edge || side == 1 && l.Box.X1 < edge {
				beyond++
			}
		}
		// A line of words on a number's baseline: a numbered line.
		if l.Mono || statsOf(l).words < 2 || l.Box.Y0 > top || l.Box.Y1 < bottom {
			continue
		}
		// A number's baseline within 0.3 of the line's size of its own
		// (a binary search: a page of thousands of numbered lines is
		// judged in n log n).
		lo, hi := l.Base-0.3*l.Size, l.Base+0.3*l.Size
		if i := sort.Search(len(numBases), func(i int) bool { return numBases[i] > lo }); i < len(numBases) && numBases[i] < hi {
			shared++
		}
	}
	for _, g := range group {
		// A number pdfium set on the line of its text.
		if !g.line.Mono && statsOf(g.line).words >= 3 {
			shared++
		}
	}
	if beyond < 3 || shared < 3 {
		return nil, false
	}
	return group, true
}

// splitNumber returns the line of c's number alone.
func splitNumber(c lineNumber, bold []fontFlags) *Line {
	cs := c.line.chars[:c.cut]
	if c.side == 1 {
		cs = c.line.chars[c.cut:]
	}
	l := newLine(cs, bold)
	if l != nil {
		l.seq = c.line.seq
	}
	return l
}
