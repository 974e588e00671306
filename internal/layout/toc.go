package layout

import (
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/crossmem/crossmem/internal/pdf"
	"github.com/crossmem/crossmem/internal/roman"
)

// Tables of contents. A table of contents (and a list of figures or of
// tables, which has the same shape) is a table of two columns: each
// entry's text and the page it starts on. It is found from three marks,
// none of them specific to a producer:
//
//   - each entry ends in a page number (arabic, or roman for front
//     matter) set after dot leaders or after a gap of at least two ems
//     (a right tab);
//   - the page numbers are set flush right in one column: their right
//     ends line up (within a third of the font size);
//   - the page numbers do not go down the run (roman numbers before
//     arabic ones), and at least one goes up: what a table of contents
//     lists is in page order, where a column of data is not.
//
// A run of at least three such entries, one below the other with at most
// two lines between two of them (an entry's wrapped first line, a part's
// heading), is a table of contents; its area is a table float whose cells
// are read by tocCells, not by tableCells. A table of contents is never a
// section heading, so its entries, which repeat the headings, no longer
// come out as headings.

// pageNumber matches a printed page number: arabic, or roman in either
// case.
var pageNumber = regexp.MustCompile(`^([0-9]{1,4}|[ivxlcdm]{1,7}|[IVXLCDM]{1,7})$`)

// tocEntry is one candidate entry: a line that ends in a page number or
// a number line beside its entry.
type tocEntry struct {
	entry  []*Line  // the entry's lines on the number's baseline, left to right
	number *Line    // the line that holds the page number (the last of entry, or a line of its own)
	numBox pdf.Rect // the page number's box
	page   int      // its value; roman numbers below arabic ones (see pageOrder)
	leader bool     // dot leaders before the number
	size   float64
	base   float64
}

// pageOrder returns the order of a page number in a book's numbering:
// roman numbers (front matter) before arabic ones; ok is false when s is
// no page number.
func pageOrder(s string) (order int, ok bool) {
	if !pageNumber.MatchString(s) {
		return 0, false
	}
	if s[0] >= '0' && s[0] <= '9' {
		n := 0
		for _, r := range s {
			n = 10*n + int(r-'0')
		}
		return 10000 + n, true
	}
	v := roman.Value(s)
	if v <= 0 || v >= 10000 {
		return 0, false
	}
	return v, true
}

// leaderToken reports whether a token is part of dot leaders: dots (or
// middle dots, ellipses) only.
func leaderToken(t string) bool {
	if t == "" {
		return false
	}
	for _, r := range t {
		if r != '.' && r != '·' && r != '…' && r != '․' {
			return false
		}
	}
	return true
}

// leaders reports whether the tokens end in dot leaders: three or more
// leader tokens, or one of three dots or more, possibly attached to the
// entry's last word ("fundamentals. . . .").
func leaders(fs []string) bool {
	n, dots := 0, 0
	for i := len(fs) - 1; i >= 0 && leaderToken(fs[i]); i-- {
		n++
		dots += len([]rune(fs[i]))
	}
	return n >= 3 || dots >= 3
}

func hasLetter(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// tocEntries returns the candidate entries among the rows of lines.
func tocEntries(rows []*row) []tocEntry {
	var out []tocEntry
	for _, r := range rows {
		for i, l := range r.lines {
			fs := strings.Fields(l.Text)
			if len(fs) == 0 {
				continue
			}
			page, ok := pageOrder(fs[len(fs)-1])
			if !ok {
				continue
			}
			s := math.Max(l.Size, 4)
			if len(fs) > 1 {
				// The number ends a line of its own entry.
				ws := l.Words()
				if len(ws) < 2 || ws[len(ws)-1].Text != fs[len(fs)-1] {
					continue
				}
				num := ws[len(ws)-1].Box
				lead := leaders(fs[:len(fs)-1])
				gap := num.X0-ws[len(ws)-2].Box.X1 >= 2*s
				if !lead && !gap || !hasLetter(strings.Join(fs[:len(fs)-1], " ")) {
					continue
				}
				if !lead && wideGapBefore(ws[:len(ws)-1], s) {
					continue // more columns than an entry and its page
				}
				out = append(out, tocEntry{entry: []*Line{l}, number: l, numBox: num, page: page, leader: lead, size: s, base: r.base})
				continue
			}
			// A number line: its entry is the line or two before it in
			// the row (a section number and a title), two ems or more to
			// its left.
			if i == 0 || i > 2 {
				continue
			}
			left := r.lines[:i]
			if l.Box.X0-left[i-1].Box.X1 < 2*s || !hasLetter(left[i-1].Text) {
				continue
			}
			if i == 2 && !tocSectionNumber(left[0].Text) {
				continue
			}
			lead := leaders(strings.Fields(left[i-1].Text))
			out = append(out, tocEntry{entry: left, number: l, numBox: l.Box, page: page, leader: lead, size: s, base: r.base})
		}
	}
	return out
}

// wideGapBefore reports whether words are set apart by a gap of two ems
// or more anywhere but after the first word (a section number set at a
// tab).
func wideGapBefore(ws []Word, s float64) bool {
	for i := 2; i < len(ws); i++ {
		if ws[i].Box.X0-ws[i-1].Box.X1 >= 2*s {
			return true
		}
	}
	return false
}

// sectionNumberRe matches a section's number set apart from its title in
// a table of contents: "1", "2.3", "A.1", "IV".
var sectionNumberRe = regexp.MustCompile(`^([0-9]{1,2}|[A-Z]|[IVX]{1,4})([.][0-9]{1,2})*\.?$`)

// tocSectionNumber reports whether s (white space around it aside) is a
// section number as sectionNumberRe matches it.
func tocSectionNumber(s string) bool { return sectionNumberRe.MatchString(strings.TrimSpace(s)) }

// tocAreas returns the areas of the tables of contents among lines (see
// the comment at the top); lines inside taken areas are not looked at.
func tocAreas(lines []*Line, taken []floatArea) []pdf.Rect {
	free := outsideAreas(lines, taken)
	rows := rowsOf(free)
	es := tocEntries(rows)
	if len(es) < 3 {
		return nil
	}
	// Columns of page numbers: right ends within a third of the font
	// size.
	sort.SliceStable(es, func(i, j int) bool { return es[i].numBox.X1 < es[j].numBox.X1 })
	var groups [][]tocEntry
	for _, e := range es {
		if n := len(groups); n > 0 {
			g := groups[n-1]
			if e.numBox.X1-g[0].numBox.X1 <= math.Max(2, 0.33*e.size) {
				groups[n-1] = append(g, e)
				continue
			}
		}
		groups = append(groups, []tocEntry{e})
	}
	var out []pdf.Rect
	for _, g := range groups {
		sort.SliceStable(g, func(i, j int) bool { return g[i].base > g[j].base })
		// Runs: consecutive entries with at most two lines between them
		// (in the run's columns) and no more than four lines' height.
		start := 0
		for k := 1; k <= len(g); k++ {
			if k < len(g) && !tooFar(g[k-1], g[k], free) {
				continue
			}
			if box, ok := tocRun(g[start:k], free); ok {
				out = append(out, box)
			}
			start = k
		}
	}
	return out
}

// tooFar reports whether entry b, below a, is too far from it to belong
// to the same table of contents: more than four lines' height apart, or
// more than two lines between them across the entries' x range.
func tooFar(a, b tocEntry, lines []*Line) bool {
	s := math.Max(a.size, b.size)
	if a.base-b.base > 4.5*s {
		return true
	}
	x0 := math.Min(a.entry[0].Box.X0, b.entry[0].Box.X0)
	x1 := math.Max(a.numBox.X1, b.numBox.X1)
	between := 0
	for _, l := range lines {
		if l.Base < a.base-0.35*s && l.Base > b.base+0.35*s && l.Box.X1 > x0 && l.Box.X0 < x1 {
			between++
		}
	}
	return between > 2
}

// tocRun reports whether a run of entries is a table of contents, and
// its area: the entries and the lines between them.
func tocRun(run []tocEntry, lines []*Line) (pdf.Rect, bool) {
	if len(run) < 3 {
		return pdf.Rect{}, false
	}
	up := false
	for i := 1; i < len(run); i++ {
		if run[i].page < run[i-1].page {
			return pdf.Rect{}, false
		}
		if run[i].page > run[i-1].page {
			up = true
		}
	}
	if !up {
		return pdf.Rect{}, false
	}
	// Without leaders, entries set flush right at one edge are the lines
	// of justified running text beside a column of numbers (line
	// numbers), not entries, whose ends are ragged.
	lead, flush := 0, 0
	var ends []float64
	for _, e := range run {
		if e.leader {
			lead++
		}
		ends = append(ends, e.entry[len(e.entry)-1].Box.X1)
	}
	if lead*2 < len(run) {
		m := median(ends)
		for _, x := range ends {
			if math.Abs(x-m) <= 1 {
				flush++
			}
		}
		if flush*2 > len(run) {
			return pdf.Rect{}, false
		}
	}
	var box pdf.Rect
	for _, e := range run {
		for _, l := range e.entry {
			box = box.Union(l.Box)
		}
		box = box.Union(e.number.Box)
	}
	first, last := run[0], run[len(run)-1]
	for _, l := range lines {
		if l.Base <= first.base+0.35*first.size && l.Base >= last.base-0.35*last.size && l.Box.X0 >= box.X0-2*first.size && l.Box.X1 <= box.X1+1 {
			box = box.Union(l.Box)
		}
	}
	return box, true
}

// tocCells reads the cells of a table of contents from its lines: one row
// per entry, its text (the entry's lines, dot leaders included, joined by
// one space) and its page number. A line without a page number is the
// first line of the entry below it when that entry follows within a line
// and a half and the line reaches past the middle of the table (an
// entry's text wrapping), else a row of its own with an empty page cell
// (a part's heading). Every cell is the text layer's text.
func tocCells(lines []*Line) [][]string {
	rows := rowsOf(lines)
	entries := map[*row]tocEntry{}
	for _, e := range tocEntries(rows) {
		for _, r := range rows {
			if r.base == e.base {
				entries[r] = e
			}
		}
	}
	var box pdf.Rect
	for _, l := range lines {
		box = box.Union(l.Box)
	}
	mid := (box.X0 + box.X1) / 2
	var out [][]string
	var pending []string
	var pendingBase float64
	for _, r := range rows {
		e, ok := entries[r]
		if !ok {
			if len(pending) > 0 {
				out = append(out, []string{strings.Join(pending, " "), ""})
				pending = nil
			}
			if r.box.X1 > mid {
				pending, pendingBase = []string{rowText(r.lines)}, r.base
			} else {
				out = append(out, []string{rowText(r.lines), ""})
			}
			continue
		}
		var entry []string
		if len(pending) > 0 {
			if pendingBase-r.base <= 1.5*e.size {
				entry = pending
			} else {
				out = append(out, []string{strings.Join(pending, " "), ""})
			}
			pending = nil
		}
		var page string
		for _, l := range r.lines {
			switch {
			case l == e.number && len(e.entry) > 0 && e.entry[len(e.entry)-1] == l:
				t := strings.TrimRightFunc(l.Text, unicode.IsSpace)
				cut := strings.LastIndexFunc(t, unicode.IsSpace)
				entry = append(entry, strings.TrimSpace(t[:cut]))
				page = t[cut+1:]
			case l == e.number:
				page = strings.TrimSpace(l.Text)
			default:
				entry = append(entry, strings.TrimSpace(l.Text))
			}
		}
		out = append(out, []string{strings.Join(entry, " "), page})
	}
	if len(pending) > 0 {
		out = append(out, []string{strings.Join(pending, " "), ""})
	}
	return out
}

func rowText(ls []*Line) string {
	var parts []string
	for _, l := range ls {
		parts = append(parts, strings.TrimSpace(l.Text))
	}
	return strings.Join(parts, " ")
}

// inTOC reports whether line l lies in a table of contents among areas.
func inTOC(l *Line, areas []floatArea) bool {
	for _, a := range areas {
		if a.toc && inside(l, a.box) {
			return true
		}
	}
	return false
}
