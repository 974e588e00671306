package layout

import (
	"math"
	"slices"
	"sort"

	"github.com/crossmem/crossmem/internal/pdf"
)

// Tables a caption vouches for. The float finder asks a table for cell
// evidence (rows of cells beside each other, rows of numbers) because any
// block set between rules could otherwise pass for one. A "Table N"
// caption is evidence of its own: when no table lies next to it, the rules
// beside it are looked at again with a lower bar (captionedTables):
//
//   - the first rule on either side of the caption, within two and a half
//     lines of it, and the rules of about the same extent that follow it
//     away from the caption, one band after the other, as long as each
//     band between two rules holds a table's text: what a ruled table's
//     band may hold (emptyOrTabular), a grid of cells set in single lines
//     (phrases whose starts line up in two columns or more over most of
//     the band's rows: alignedPhrases), or running text set inside the
//     rules with a cell's margin on both sides (a box of prose cells);
//   - the run stops at a band crossed by a caption (another float's) or
//     holding running text that reaches the rules' ends (the body's
//     paragraphs under a table's bottom rule).
//
// The area is a table even when it has one column (a box of guidelines
// captioned as a table): the caption says so, and a table chunk of one
// column of rows keeps the text linked to its caption. When most of its
// lines are running text (prose), its cells are read as one column of
// paragraphs (proseRows): the alignment reader would take a justified
// line's wide word space for a column gap and the whole box for one head
// row.

// captionedTables returns the areas of tables that captions vouch for;
// taken are the areas found so far.
func captionedTables(h, v []pdf.Rect, lines []*Line, taken []floatArea, ro roles) []pdf.Rect {
	var out []pdf.Rect
	for i, l := range lines {
		if kind, _ := captionKind(l.Text); kind != Table {
			continue
		}
		if i > 0 && ro.caption[lines[i-1]] && lines[i-1].Base > l.Base && lines[i-1].Base-l.Base < 2*l.Size {
			continue // a caption's own later line that happens to open with a label
		}
		cap := captionBox(l, lines, ro)
		if tableNear(cap, taken, l.Size) || tableNearRects(cap, out, l.Size) {
			continue
		}
		found := false
		for _, below := range []bool{true, false} {
			if box, ok := vouchedRun(cap, below, h, lines, ro); ok {
				out = append(out, box)
				found = true
				break
			}
		}
		for _, below := range []bool{true, false} {
			if found {
				break
			}
			if box, ok := unruledRun(cap, below, lines, taken, ro); ok {
				out = append(out, box)
				found = true
			}
		}
	}
	return out
}

// unruledRun looks for a table without rules (or with a rule under its
// head only) on one side of its caption (below: the table under the
// caption) and returns its area: the rows across the caption's column
// that follow it away from it, the first within two and a half lines of
// it and each less than a line from the one before (a table's rows are
// set at the baseline skip or a little more; the running text around a
// float is set off by a float's separation, a heading by its space
// above), up to a row of running text (a prose line whose words are a
// word space apart, wordSpaced: a table's cells are a column gap apart), a caption
// or another float. The rows must set a grid of cells (alignedPhrases):
// two rows at least, most of them two phrases or more whose starts line
// up in two columns.
func unruledRun(cap pdf.Rect, below bool, lines []*Line, taken []floatArea, ro roles) (pdf.Rect, bool) {
	size := medianLineSize(lines)
	var cand []*Line
	for _, l := range lines {
		if l.Box.X1 <= cap.X0 || l.Box.X0 >= cap.X1 || l.Box.Intersect(cap) != (pdf.Rect{}) {
			continue
		}
		if below && l.Box.Y1 <= cap.Y0+1 || !below && l.Box.Y0 >= cap.Y1-1 {
			cand = append(cand, l)
		}
	}
	rows := rowsOf(cand)
	if !below {
		slices.Reverse(rows)
	}
	var in []*Line
	var box pdf.Rect
	edge := cap // the caption, then the rows so far
	for _, r := range rows {
		gap := edge.Y0 - r.box.Y1
		if !below {
			gap = r.box.Y0 - edge.Y1
		}
		limit := size
		if len(in) == 0 {
			limit = 2.5 * size
		}
		if gap > limit {
			break
		}
		stop := false
		for _, l := range r.lines {
			if ro.caption[l] || opensCaption(l) || inAreas(l, taken) || prose(l) && wordSpaced(l) {
				stop = true
				break
			}
		}
		if stop {
			break
		}
		in = append(in, r.lines...)
		box = box.Union(r.box)
		edge = box
	}
	if len(rowsOf(in)) < 2 || !alignedPhrases(in) {
		return pdf.Rect{}, false
	}
	return box, true
}

// wordSpaced reports whether the words of line l are set a word space
// apart, as running text is: the median gap between them is under 0.6 of
// its size (a loose justified line's spaces stay under it) and the
// widest under two and a half times the median or 0.8 of the size (a
// justified line stretches all its spaces alike; a sentence's end takes a
// little more). A row of a table's one-word cells ("Data Data Data …")
// reads as a prose line by its words, but its words are a column gap
// apart; a head row of two-word heads has word spaces inside its cells
// and column gaps between them. True for a line whose words cannot be
// told.
func wordSpaced(l *Line) bool {
	ws := fieldWords(l)
	if len(ws) < 2 {
		return true
	}
	gaps := make([]float64, 0, len(ws)-1)
	widest := math.Inf(-1)
	for i := 1; i < len(ws); i++ {
		g := ws[i].Box.X0 - ws[i-1].Box.X1
		gaps = append(gaps, g)
		widest = math.Max(widest, g)
	}
	m := median(gaps)
	return m < 0.6*l.Size && widest < math.Max(2.5*m, 0.8*l.Size)
}

// captionBox returns the box of the caption that line l opens: l and the
// caption lines right below it.
func captionBox(l *Line, lines []*Line, ro roles) pdf.Rect {
	box := l.Box
	for changed := true; changed; {
		changed = false
		for _, o := range lines {
			if !ro.caption[o] || o.Box.Y1 > box.Y0+1 || box.Y0-o.Box.Y1 > 0.8*o.Size {
				continue
			}
			if o.Box.X1 < box.X0 || o.Box.X0 > box.X1 || box.Union(o.Box) == box {
				continue
			}
			box = box.Union(o.Box)
			changed = true
		}
	}
	return box
}

// tableNear reports whether a table area lies next to the caption: above
// or below it within three lines, overlapping it across.
func tableNear(cap pdf.Rect, areas []floatArea, size float64) bool {
	var rs []pdf.Rect
	for _, a := range areas {
		if a.kind == TableText {
			rs = append(rs, a.box)
		}
	}
	return tableNearRects(cap, rs, size)
}

func tableNearRects(cap pdf.Rect, rs []pdf.Rect, size float64) bool {
	for _, b := range rs {
		if b.X1 < cap.X0 || b.X0 > cap.X1 {
			continue
		}
		if b.Y0 >= cap.Y1-1 && b.Y0-cap.Y1 < 3*size || b.Y1 <= cap.Y0+1 && cap.Y0-b.Y1 < 3*size {
			return true
		}
	}
	return false
}

// vouchedRun looks for the run of rules of a table on one side of its
// caption (below: the table under the caption) and returns its area.
func vouchedRun(cap pdf.Rect, below bool, h []pdf.Rect, lines []*Line, ro roles) (pdf.Rect, bool) {
	size := medianLineSize(lines)
	// Rules across the caption's column, nearest the caption first.
	var rs []pdf.Rect
	for _, r := range h {
		if r.X1 <= cap.X0 || r.X0 >= cap.X1 || r.Width() < 0.3*cap.Width() && r.Width() < 20*size {
			continue
		}
		if below && r.Y1 <= cap.Y0+1 || !below && r.Y0 >= cap.Y1-1 {
			rs = append(rs, r)
		}
	}
	if below {
		sort.Slice(rs, func(i, j int) bool { return rs[i].Y1 > rs[j].Y1 })
	} else {
		sort.Slice(rs, func(i, j int) bool { return rs[i].Y0 < rs[j].Y0 })
	}
	if len(rs) < 2 {
		return pdf.Rect{}, false
	}
	first := rs[0]
	if gap := math.Max(cap.Y0-first.Y1, first.Y0-cap.Y1); gap > 2.5*size {
		return pdf.Rect{}, false
	}
	// Running text between the caption and its first rule: the rule is
	// not the table's.
	between := pdf.Rect{X0: cap.X0, X1: cap.X1, Y0: first.Y1, Y1: cap.Y0}
	if !below {
		between.Y0, between.Y1 = cap.Y1, first.Y0
	}
	for _, l := range lines {
		if between.Y1 > between.Y0 && inside(l, between) && ro.running[l] && !ro.caption[l] {
			return pdf.Rect{}, false
		}
	}
	run := []pdf.Rect{first}
	for _, r := range rs[1:] {
		last := run[len(run)-1]
		ov := math.Min(first.X1, r.X1) - math.Max(first.X0, r.X0)
		if ov < 0.8*math.Min(first.Width(), r.Width()) || r.Width() < 0.5*first.Width() || first.Width() < 0.5*r.Width() {
			continue
		}
		if math.Abs((last.Y0+last.Y1)/2-(r.Y0+r.Y1)/2) < 1 {
			continue // a double rule, or the same rule drawn twice
		}
		top, bottom := last, r
		if !below {
			top, bottom = r, last
		}
		band := pdf.Rect{X0: math.Min(top.X0, bottom.X0), Y0: bottom.Y1, X1: math.Max(top.X1, bottom.X1), Y1: top.Y0}
		if !tableBand(band, lines, ro) {
			break
		}
		run = append(run, r)
	}
	if len(run) < 2 {
		return pdf.Rect{}, false
	}
	var box pdf.Rect
	for _, r := range run {
		box = box.Union(r)
	}
	has := false
	for _, l := range lines {
		if inside(l, box) && !ro.caption[l] {
			has = true
			box = box.Union(l.Box)
		}
	}
	return box, has
}

// tableBand reports whether the band between two rules of a captioned
// table holds a table's text (see the comment at the top).
func tableBand(band pdf.Rect, lines []*Line, ro roles) bool {
	var in []*Line
	for _, l := range lines {
		if l.Box.Y1 <= band.Y0 || l.Box.Y0 >= band.Y1 || l.Box.X1 <= band.X0 || l.Box.X0 >= band.X1 {
			continue
		}
		if ro.caption[l] && !inside(l, band) || opensCaption(l) {
			return false // a caption crosses the band: another float's
		}
		if !inside(l, band) {
			// Running text across the rules' ends; a line that only
			// pokes into the band (a head's tall delimiters reaching
			// below the rule under it) is the band's beside it.
			if ro.running[l] && math.Min(l.Box.Y1, band.Y1)-math.Max(l.Box.Y0, band.Y0) >= 0.5*l.Box.Height() {
				return false
			}
			continue
		}
		in = append(in, l)
	}
	if emptyOrTabular(band, lines, ro) || alignedPhrases(in) {
		return true
	}
	// Running text with a cell's margin inside the rules.
	for _, l := range in {
		m := 0.4 * math.Max(l.Size, 4)
		if ro.running[l] && (l.Box.X0 < band.X0+m || l.Box.X1 > band.X1-m) {
			return false
		}
	}
	return true
}

// alignedPhrases reports whether lines set a grid of cells in single
// lines: split into phrases at gaps of a third of the font size or more
// (piecesOf), at least half of the rows hold two phrases or more, and at
// least two phrase starts line up (within a third of the font size) over
// half of the rows or more.
func alignedPhrases(lines []*Line) bool {
	rows := rowsOf(lines)
	if len(rows) < 2 {
		return false
	}
	var starts [][]float64
	multi := 0
	for _, r := range rows {
		ps := piecesOf(r.lines)
		if len(ps) >= 2 {
			multi++
		}
		var xs []float64
		for _, p := range ps {
			xs = append(xs, p.box.X0)
		}
		starts = append(starts, xs)
	}
	if multi*2 < len(rows) {
		return false
	}
	tol := 0.33 * medianLineSize(lines)
	// Candidate column starts: every start of a row with several phrases;
	// a start counts once per row that has a phrase starting near it.
	var cand []float64
	for _, xs := range starts {
		if len(xs) >= 2 {
			cand = append(cand, xs...)
		}
	}
	sort.Float64s(cand)
	cols := 0
	last := math.Inf(-1)
	for _, x := range cand {
		if x-last <= tol {
			continue
		}
		n := 0
		for _, xs := range starts {
			for _, y := range xs {
				if math.Abs(y-x) <= tol {
					n++
					break
				}
			}
		}
		if n*2 >= len(rows) {
			cols++
			last = x
		}
	}
	return cols >= 2
}

// captionCrosses reports whether a figure's or table's caption's first
// line lies across the
// band between two rules (inside it or sticking out of it): the rules on
// either side of it belong to two floats.
func captionCrosses(band pdf.Rect, lines []*Line, ro roles) bool {
	for _, l := range lines {
		if !ro.caption[l] || !opensCaption(l) {
			continue
		}
		mid := (l.Box.Y0 + l.Box.Y1) / 2
		if mid > band.Y0 && mid < band.Y1 && l.Box.X1 > band.X0 && l.Box.X0 < band.X1 {
			return true
		}
	}
	return false
}

// opensCaption reports whether a line opens a figure's or a table's
// caption (captionKind: not a table's row about figures, "Figure 0.0
// 0.0 …"; a listing's or an example's label may be set inside a table).
func opensCaption(l *Line) bool {
	k, _ := captionKind(l.Text)
	return k == Figure || k == Table
}

// inVouched reports whether line l lies in a table a caption vouches for.
func inVouched(l *Line, areas []floatArea) bool {
	for _, a := range areas {
		if a.vouched && inside(l, a.box) {
			return true
		}
	}
	return false
}

// mostlyProse reports whether at least half of the lines are running text
// (prose, its words a word space apart: wordSpaced).
func mostlyProse(lines []*Line) bool {
	n := 0
	for _, l := range lines {
		if prose(l) && wordSpaced(l) {
			n++
		}
	}
	return len(lines) > 0 && n*2 >= len(lines)
}

// proseRows reads a box of running text as one column of paragraphs: the
// lines top down (those sharing a baseline joined left to right by one
// space), a line continuing the row above when that one runs to the
// box's right edge (within two ems: a line that wrapped) and lies within
// one and a half lines of it; a short line ends its paragraph.
func proseRows(lines []*Line) [][]string {
	rows := rowsOf(lines)
	right := math.Inf(-1)
	for _, r := range rows {
		right = math.Max(right, r.box.X1)
	}
	var out [][]string
	var prev *row
	for _, r := range rows {
		text := rowText(r.lines)
		s := math.Max(r.size, 4)
		if prev != nil && prev.box.X1 >= right-2*s && prev.base-r.base <= 1.5*s {
			out[len(out)-1][0] += " " + text
		} else {
			out = append(out, []string{text})
		}
		prev = r
	}
	return out
}

// absorbTouching adds to each table a caption vouches for the table areas
// it overlaps or that lie within a line of it (the table's own head set
// above its first rule, or its rows below a row the float finder read as
// running text), which it replaces: one table, one area.
func absorbTouching(areas []floatArea, size float64) []floatArea {
	gone := make([]bool, len(areas))
	for i := range areas {
		v := &areas[i]
		if !v.vouched {
			continue
		}
		for changed := true; changed; {
			changed = false
			g := pdf.Rect{X0: v.box.X0 - size, Y0: v.box.Y0 - size, X1: v.box.X1 + size, Y1: v.box.Y1 + size}
			for j, a := range areas {
				if j == i || gone[j] || a.kind != TableText || a.vouched || a.toc || g.Intersect(a.box) == (pdf.Rect{}) {
					continue
				}
				v.box = v.box.Union(a.box)
				gone[j], changed = true, true
			}
		}
	}
	var out []floatArea
	for i, a := range areas {
		if !gone[i] {
			out = append(out, a)
		}
	}
	return out
}
