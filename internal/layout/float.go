package layout

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/crossmem/crossmem/internal/pdf"
)

// Floats: tables and figures. Their text is not running text: table cells,
// axis labels, legends and the labels of a diagram would otherwise come out
// as a scatter of short paragraphs and false headings. findFloats finds
// their areas on a page frame from three kinds of evidence, none of them
// specific to a producer:
//
//   - ruled tables: three or more parallel rules (thin paths) of about the
//     same extent, one above the other (booktabs' top, middle and bottom
//     rules) or side by side (a grid), with the text between them set as
//     cells rather than as running text;
//   - text grids: three or more consecutive rows of short cells, each row
//     at least two cells or a run of numbers, whose cells line up in
//     columns (a table without rules);
//   - figures: clusters of drawn graphics (paths, images, shadings) at
//     least half an inch each way that hold no running text, grown by the
//     short labels that touch them (tick labels, legends).
//
// Running text ("prose") is never put in a float: a framed box or a shaded
// sidebar of paragraphs stays body text. The text of a float is one block
// of kind TableText or FigureText, read row by row; captions stay blocks of
// their own (Table, Figure). The areas are the foundation of figure and
// table chunks (issue 12 extends them with crops and cells).

// debugFloats, when set (by a test), receives the float finder's
// decisions.
var debugFloats func(format string, args ...any)

// floatArea is a table or figure found on a frame.
type floatArea struct {
	kind Kind // TableText or FigureText
	box  pdf.Rect
	toc  bool // a table of contents (toc.go)
	// vouched is a table that a caption next to it vouches for
	// (table_caption.go): a table even with one column.
	vouched bool
}

// Rules are thin paths: at most ruleThick points across and at least
// ruleLong points along.
const (
	ruleThick = 2.5
	ruleLong  = 12.0
)

var (
	// numberToken is a cell value: a number (with sign, an uncertainty
	// written on it, "9117±38", unit marks, footnote marks) or a mark that stands for one (a dash, n/a, a tick).
	numberToken = regexp.MustCompile(`^([-−–+±(\[]*[0-9]+([.,:/][0-9]+)*(±[0-9]+([.,][0-9]+)*)?[%)\]*†‡]*[.,;]?|[-–—✓✔✗✘×]|(?i:n/?a))$`)
	eqNumber    = regexp.MustCompile(`^\(\s*([A-Z]\.?\s*)?[0-9]{1,3}(\.[0-9]{1,3})?[a-z]?\s*\)$`)
)

// lineStats are the features of a line that tell running text from cells.
type lineStats struct {
	tokens, words, numbers int
}

// isNumberToken is numberToken.MatchString(t), running the expression
// only on tokens with an ASCII digit: without one, it matches a lone mark
// or "n/a" (any case), which are compared directly.
func isNumberToken(t string) bool {
	if strings.ContainsAny(t, "0123456789") {
		return numberToken.MatchString(t)
	}
	switch t {
	case "-", "–", "—", "✓", "✔", "✗", "✘", "×":
		return true
	}
	return strings.EqualFold(t, "na") || strings.EqualFold(t, "n/a")
}

// statsOf returns the line's lineStats, computed once for its Text (the
// floats and regions ask for them many times over).
func statsOf(l *Line) lineStats {
	if l.stats.ok && l.stats.text == l.Text {
		return l.stats.s
	}
	s := textStats(l.Text)
	l.stats.text, l.stats.s, l.stats.ok = l.Text, s, true
	return s
}

// textStats counts the tokens, words and numbers of a line's text.
func textStats(text string) lineStats {
	var s lineStats
	for _, t := range strings.Fields(text) {
		s.tokens++
		if isNumberToken(t) {
			s.numbers++
			continue
		}
		letters, n := 0, 0
		for _, r := range t {
			n++
			if unicode.IsLetter(r) {
				letters++
			}
		}
		if letters >= 2 && letters*10 >= n*6 {
			s.words++
		}
	}
	return s
}

// prose reports whether a line reads as running text: at least six tokens,
// most of them words, and as wide as 18 of its ems.
func prose(l *Line) bool {
	s := statsOf(l)
	return s.tokens >= 6 && s.words*10 >= s.tokens*6 && l.Box.Width() >= 18*l.Size
}

// numericRow reports whether a line is a row of numbers: at least two
// number tokens making at least half of its tokens.
func numericRow(l *Line) bool {
	s := statsOf(l)
	return s.numbers >= 2 && s.numbers*2 >= s.tokens
}

// roles marks the lines of a frame that no float may take: running text
// and captions.
type roles struct {
	running, caption map[*Line]bool
	// para marks running lines that have a running neighbour in their
	// region: paragraphs of two lines or more, which a figure never holds
	// (a one-line callout inside a figure may read as prose).
	para map[*Line]bool
	// narrow marks paragraphs set in a narrow column (narrowMeasure): a
	// box or figure that holds them is a text box, not a figure. Table
	// cells may wrap text so; tables do not consult it.
	narrow map[*Line]bool
}

// rolesOf marks running text — prose lines and the lines of their regions
// next to them (a paragraph's short last line, a line with inline math) —
// and captions: a line that starts with a caption label and the lines of
// its region below it, up to a horizontal rule (a table's top rule under
// its caption).
func rolesOf(rs []*region, hRules []pdf.Rect) roles {
	ro := roles{running: map[*Line]bool{}, caption: map[*Line]bool{}, para: map[*Line]bool{}, narrow: map[*Line]bool{}}
	for _, r := range rs {
		for _, l := range narrowMeasure(r.lines) {
			ro.narrow[l] = true
		}
		for i, l := range r.lines {
			if prose(l) {
				ro.running[l] = true
			}
			if captionText(l.Text) || i > 0 && ro.caption[r.lines[i-1]] && !ruleBetween(r.lines[i-1], l, hRules) {
				ro.caption[l] = true
			}
		}
		// Spread running text to the neighbouring lines of its region.
		for changed := true; changed; {
			changed = false
			for i, l := range r.lines {
				if ro.running[l] {
					continue
				}
				for _, j := range []int{i - 1, i + 1} {
					if j < 0 || j >= len(r.lines) || !ro.running[r.lines[j]] {
						continue
					}
					o := r.lines[j]
					s := math.Max(o.Size, l.Size)
					if math.Abs(o.Base-l.Base) < 1.75*s && math.Abs(o.Box.X0-l.Box.X0) < 2.5*s && l.Box.X1 <= o.Box.X1+s {
						ro.running[l] = true
						changed = true
						break
					}
				}
			}
		}
		for i, l := range r.lines {
			if ro.running[l] && (i > 0 && ro.running[r.lines[i-1]] || i+1 < len(r.lines) && ro.running[r.lines[i+1]]) {
				ro.para[l] = true
			}
		}
	}
	return ro
}

// ruleBetween reports whether a horizontal rule lies between line a and
// line b below it, across both.
func ruleBetween(a, b *Line, hRules []pdf.Rect) bool {
	for _, r := range hRules {
		if r.Y1 <= a.Box.Y0+1 && r.Y0 >= b.Box.Y1-1 && r.X0 <= math.Max(a.Box.X0, b.Box.X0) && r.X1 >= math.Min(a.Box.X1, b.Box.X1) {
			return true
		}
	}
	return false
}

// findFloats returns the float areas of a frame's body regions; gs are
// the page's graphics in the frame's coordinates, extent the page.
//
// It also returns the horizontal and vertical rules it saw.
func findFloats(rs []*region, gs []pdf.Graphic, extent pdf.Rect, st Stats) (areas []floatArea, hRules, vRules []pdf.Rect) {
	var lines []*Line
	for _, r := range rs {
		lines = append(lines, r.lines...)
	}
	if len(lines) == 0 {
		return nil, nil, nil
	}
	ro := rolesOf(rs, horizontalRules(gs))
	var marks, images, blanks []pdf.Rect
	scanned := false
	pageArea := extent.Width() * extent.Height()
	for _, g := range gs {
		// A graphic reaching far beyond the page is drawn under a clip
		// that its bounding box does not show (pdfium reports the path's
		// own extent): where it is visible is not known.
		mx, my := 0.05*extent.Width(), 0.05*extent.Height()
		if g.Box.X0 < extent.X0-mx || g.Box.X1 > extent.X1+mx || g.Box.Y0 < extent.Y0-my || g.Box.Y1 > extent.Y1+my {
			continue
		}
		b := g.Box.Intersect(extent)
		if b == (pdf.Rect{}) {
			continue
		}
		if g.Kind == pdf.GraphicImage {
			images = append(images, b)
		}
		w, h := b.Width(), b.Height()
		switch {
		case w*h > 0.6*pageArea:
			// A page background or a frame around the whole page; an
			// image this large is a scanned page's (scannedFigures).
			scanned = scanned || g.Kind == pdf.GraphicImage
		case g.Blank:
			// A white box on a white page draws nothing: it holds a
			// figure's marks together (a plot's background) but is no
			// figure by itself (figures).
			blanks = append(blanks, b)
		case w > ruleThick && h > ruleThick && holdsRunningText(b, lines, ro, st):
			// A shaded or framed box behind running text, a text box.
		case h <= ruleThick && w >= ruleLong:
			hRules = append(hRules, b)
		case w <= ruleThick && h >= ruleLong:
			vRules = append(vRules, b)
		default:
			marks = append(marks, b)
		}
	}
	hRules, vRules = joinRules(hRules, vRules, marks)
	for _, a := range ruledTables(hRules, vRules, marks, lines, ro) {
		areas = append(areas, floatArea{kind: TableText, box: a})
	}
	for _, a := range tocAreas(lines, areas) {
		areas = append(areas, floatArea{kind: TableText, box: a, toc: true})
	}
	grids, maths := textGrids(lines, areas, ro)
	for _, a := range grids {
		areas = append(areas, floatArea{kind: TableText, box: a})
	}
	for i := range areas {
		if !areas[i].toc {
			areas[i].box = growTable(areas[i].box, lines, areas, ro)
		}
	}
	for _, a := range captionedTables(hRules, vRules, lines, areas, ro) {
		areas = append(areas, floatArea{kind: TableText, box: a, vouched: true})
	}
	areas = absorbTouching(areas, medianLineSize(lines))
	// figures sorts and reorders nothing it is given but the rule
	// slices' order; pass copies.
	h := append([]pdf.Rect(nil), hRules...)
	v := append([]pdf.Rect(nil), vRules...)
	v = append(v, blanks...)
	for _, a := range figures(marks, h, v, images, lines, areas, ro, st) {
		areas = append(areas, floatArea{kind: FigureText, box: a})
	}
	if scanned {
		for _, a := range scannedFigures(lines, areas, ro, st) {
			areas = append(areas, floatArea{kind: FigureText, box: a})
		}
	}
	// A table drawn inside a figure (a page shown in a figure) is part of
	// the figure.
	var kept []floatArea
	for _, a := range areas {
		inFigure := false
		if a.kind == TableText {
			for _, f := range areas {
				if x := a.box.Intersect(f.box); f.kind == FigureText && x.Width()*x.Height() >= 0.8*a.box.Width()*a.box.Height() {
					inFigure = true
					break
				}
			}
		}
		if !inFigure {
			kept = append(kept, a)
		}
	}
	areas = kept
	// Display mathematics set as a grid: one Equation region, after the
	// floats (a figure's labels are not an equation).
	for _, a := range maths {
		in := false
		for _, f := range areas {
			if x := a.Intersect(f.box); x != (pdf.Rect{}) && x.Width()*x.Height() >= 0.5*a.Width()*a.Height() {
				in = true
			}
		}
		if !in {
			areas = append(areas, floatArea{kind: Equation, box: a})
		}
	}
	return areas, hRules, vRules
}

// horizontalRules returns the boxes of the horizontal rules among gs.
func horizontalRules(gs []pdf.Graphic) []pdf.Rect {
	var out []pdf.Rect
	for _, g := range gs {
		if g.Box.Height() <= ruleThick && g.Box.Width() >= ruleLong {
			out = append(out, g.Box)
		}
	}
	return out
}

// holdsRunningText reports whether a line of a paragraph of running text
// of at least 70 % of the body size lies in box b (smaller text is the content of a
// picture, such as a page shown in a figure).
func holdsRunningText(b pdf.Rect, lines []*Line, ro roles, st Stats) bool {
	for _, l := range lines {
		if (ro.para[l] || ro.narrow[l]) && !ro.caption[l] && !pictureType(l, st) && inside(l, b) {
			return true
		}
	}
	return false
}

// pictureType reports whether line l is set in type under 70 % of the
// body size: inside a figure, the text of a picture (a page shown in a
// figure), never the document's own running text or caption.
func pictureType(l *Line, st Stats) bool { return l.Size < 0.7*st.BodySize }

// inside reports whether most of line l lies in box a.
func inside(l *Line, a pdf.Rect) bool {
	x := l.Box.Intersect(a)
	if x == (pdf.Rect{}) {
		return false
	}
	lw, lh := math.Max(l.Box.Width(), 0.1), math.Max(l.Box.Height(), 0.1)
	return x.Width() >= 0.6*lw && x.Height() >= 0.5*lh
}

// joinRules joins rules drawn in pieces end to end (a word processor
// draws a table's border cell by cell, with a small square where borders
// meet): thin pieces on the same line that touch (at most half a point
// apart) become one rule when they add up to a rule's length and two of
// them are rules, or one is and another is a piece of line too short to
// be a rule (at least 4 points and four times as long as thick: a
// cell's border shorter than a rule). The marks
// that joined a rule stay marks too (a box drawn in pieces is still
// drawn: a figure when it is no table). Dashed lines, whose dashes are
// apart, stay pieces.
func joinRules(h, v, marks []pdf.Rect) (hRules, vRules []pdf.Rect) {
	join := func(rules []pdf.Rect, vertical bool) []pdf.Rect {
		turn := func(r pdf.Rect) pdf.Rect {
			if vertical {
				return rotateRect(r, 1)
			}
			return r
		}
		type piece struct {
			r    pdf.Rect
			rule bool
		}
		var ps []piece
		for _, r := range rules {
			ps = append(ps, piece{turn(r), true})
		}
		for _, m := range marks {
			if vertical && m.Width() <= ruleThick || !vertical && m.Height() <= ruleThick {
				ps = append(ps, piece{turn(m), false})
			}
		}
		// Lines: pieces whose two edges are within a quarter point of the
		// first piece's (a comparison with a tolerance is no order to sort
		// by: pieces of other thickness would interleave), each left to
		// right; a run goes on while a piece starts within half a point
		// of the end of the run so far.
		sort.Slice(ps, func(i, j int) bool {
			if ps[i].r.Y0 != ps[j].r.Y0 {
				return ps[i].r.Y0 < ps[j].r.Y0
			}
			return ps[i].r.Y1 < ps[j].r.Y1
		})
		var byLine [][]piece
		for _, p := range ps {
			placed := false
			for i := len(byLine) - 1; i >= 0 && p.r.Y0-byLine[i][0].r.Y0 <= 0.25; i-- {
				if math.Abs(byLine[i][0].r.Y1-p.r.Y1) <= 0.25 {
					byLine[i] = append(byLine[i], p)
					placed = true
					break
				}
			}
			if !placed {
				byLine = append(byLine, []piece{p})
			}
		}
		// Runs of touching pieces; a run joins when it holds two rules or
		// more (the pixels of a drawn heat map or a colour bar touch
		// too, but are no rules), else its rules stay as they are.
		var keep []pdf.Rect
		var run []piece
		flush := func() {
			var box pdf.Rect
			var own []pdf.Rect
			lineLike := 0
			for _, p := range run {
				box = box.Union(p.r)
				if p.rule {
					own = append(own, p.r)
				}
				if p.rule || p.r.Width() >= 4 && p.r.Width() >= 4*p.r.Height() {
					lineLike++
				}
			}
			if len(own) >= 2 || len(own) == 1 && box.Width() >= ruleLong && lineLike >= 2 {
				own = []pdf.Rect{box}
			}
			for _, r := range own {
				if vertical {
					r = rotateRect(r, 3)
				}
				keep = append(keep, r)
			}
			run = run[:0]
		}
		for _, l := range byLine {
			sort.SliceStable(l, func(i, j int) bool { return l[i].r.X0 < l[j].r.X0 })
			end := math.Inf(-1)
			for _, p := range l {
				if len(run) > 0 && p.r.X0 > end+0.5 {
					flush()
					end = math.Inf(-1)
				}
				run = append(run, p)
				end = math.Max(end, p.r.X1)
			}
			flush()
		}
		return keep
	}
	return join(h, false), join(v, true)
}

// ruledTables finds tables drawn with rules: runs of at least three
// horizontal rules of about the same extent, one below the other (or two
// with at least three vertical rules between them), such that the text
// between each two consecutive rules reads as table cells rather than
// running text (tabularText).
func ruledTables(h, v, marks []pdf.Rect, lines []*Line, ro roles) []pdf.Rect {
	sort.Slice(h, func(i, j int) bool { return h[i].Y1 > h[j].Y1 })
	used := make([]bool, len(h))
	var out []pdf.Rect
	for i := range h {
		if used[i] {
			continue
		}
		// The second line of a double rule, or a rule drawn again, of a
		// table found already starts no table of its own.
		within := false
		for _, t := range out {
			if h[i].Y0 >= t.Y0-1 && h[i].Y1 <= t.Y1+1 && h[i].X0 < t.X1 && h[i].X1 > t.X0 {
				within = true
			}
		}
		if within {
			continue
		}
		// Rules below rule i with about its extent.
		group := []int{i}
		for j := i + 1; j < len(h); j++ {
			a, b := h[i], h[j]
			ov := math.Min(a.X1, b.X1) - math.Max(a.X0, b.X0)
			if used[j] || ov < 0.8*math.Min(a.Width(), b.Width()) || b.Width() < 0.5*a.Width() || a.Width() < 0.5*b.Width() {
				continue
			}
			if a := h[group[len(group)-1]]; a.Y0-b.Y1 < 1 {
				continue // a double rule or the same rule drawn twice
			}
			group = append(group, j)
		}
		// The longest run from rule i whose bands between rules read as
		// a table.
		n := 1
		for n < len(group) {
			top, bottom := h[group[n-1]], h[group[n]]
			band := pdf.Rect{X0: math.Min(top.X0, bottom.X0), Y0: bottom.Y1, X1: math.Max(top.X1, bottom.X1), Y1: top.Y0}
			if !emptyOrTabular(band, lines, ro) || captionCrosses(band, lines, ro) || n >= 3 && blankGap(band, lines, marks) {
				if debugFloats != nil {
					debugFloats("  run breaks at band %v", band)
				}
				break
			}
			n++
		}
		// The longest run whose box reads as a table (rows of cells), down
		// to three rules (two with three vertical rules between them).
		ok := false
		var box pdf.Rect
		for ; n >= 2; n-- {
			box = h[group[0]]
			for _, k := range group[:n] {
				box = box.Union(h[k])
			}
			// Column rules run from rule to rule (a diagram's arrows
			// between a float's two separator rules do not).
			vert, cols := 0, 0
			for _, r := range v {
				if r.X0 >= box.X0-3 && r.X1 <= box.X1+3 && r.Y1 > box.Y0 && r.Y0 < box.Y1 && r.Height() >= 0.5*box.Height() {
					vert++
					if r.Y0 >= box.Y0-3 && r.Y1 <= box.Y1+3 {
						cols++ // within the box: no rule of something beyond it
					}
				}
			}
			if n < 3 && !(n == 2 && vert >= 3) {
				break
			}
			// A grid of boxes (three or more column rules from rule to
			// rule and not beyond, text between every two rules, nothing drawn inside
			// but pieces of line: a plot's grid has curves and marks)
			// is a table whatever its cells hold: a row whose cells are
			// close enough to read as one line is still cut by the
			// rules.
			if (tabularText(box, lines, ro) || cols >= 3 && emptyBands(box, group[:n], h, lines) == 0 && !drawnIn(box, marks)) && !chart(box, group[:n], h, lines) && !crossedByText(box, lines, ro) {
				ok = true
				break
			}
		}
		if debugFloats != nil {
			debugFloats("rules from %v: run of %d, table %v", h[i], n, ok)
		}
		if !ok {
			continue
		}
		group = group[:n]
		for _, k := range group {
			used[k] = true
		}
		out = append(out, box)
	}
	return out
}

// blankGap reports whether the band between two rules is the space
// between two tables set one above the other (the parts of a table split
// in parts, two floats stacked): taller than one and a half of the
// lines' median size, with no text and nothing drawn in it. Inside one
// table, rules separate rows of cells; no row is left empty. It ends a
// run of three rules or more (a table's top, head and bottom rules); a
// run of two (a box's frame) may go on.
func blankGap(band pdf.Rect, lines []*Line, marks []pdf.Rect) bool {
	if band.Height() <= 1.5*medianLineSize(lines) {
		return false
	}
	for _, l := range lines {
		if l.Box.Intersect(band) != (pdf.Rect{}) {
			return false
		}
	}
	for _, m := range marks {
		if m.Intersect(band) != (pdf.Rect{}) {
			return false
		}
	}
	return true
}

// crossedByText reports whether running text lies in box but sticks out
// of it sideways by more than two of its ems: the column of text beside a
// figure whose frame's rules joined a table's. A cell's text stays
// within its table's rules.
func crossedByText(box pdf.Rect, lines []*Line, ro roles) bool {
	for _, l := range lines {
		if ro.running[l] && inside(l, box) && (l.Box.X1 > box.X1+2*l.Size || l.Box.X0 < box.X0-2*l.Size) {
			return true
		}
	}
	return false
}

// chart reports whether a ruled box is a plot with grid lines rather than
// a table: most bands between its rules hold no text.
func chart(box pdf.Rect, group []int, h []pdf.Rect, lines []*Line) bool {
	return emptyBands(box, group, h, lines)*2 > len(group)-1
}

// drawnIn reports whether a mark thicker than a rule each way lies
// (mostly) in box: a curve, a bar, a plot's marker.
func drawnIn(box pdf.Rect, marks []pdf.Rect) bool {
	for _, m := range marks {
		if x := m.Intersect(box); m.Width() > ruleThick && m.Height() > ruleThick && x.Width()*x.Height() >= 0.5*m.Width()*m.Height() {
			return true
		}
	}
	return false
}

// emptyBands counts the bands of box between consecutive rules of group
// that hold no line.
func emptyBands(box pdf.Rect, group []int, h []pdf.Rect, lines []*Line) int {
	empty := 0
	for k := 1; k < len(group); k++ {
		top, bottom := h[group[k-1]], h[group[k]]
		band := pdf.Rect{X0: box.X0, Y0: bottom.Y1, X1: box.X1, Y1: top.Y0}
		has := false
		for _, l := range lines {
			if inside(l, band) {
				has = true
				break
			}
		}
		if !has {
			empty++
		}
	}
	return empty
}

// emptyOrTabular reports whether a band between two rules can be part of
// a table: it holds no text, text that is not mostly running text (whose
// words are a word space apart: wordSpaced) or a caption (a group's header row such as "Region A"), or rows of cells
// (tabularText; cells may wrap running text).
//
// A band of one row that is no caption is a table's head row between its
// top and middle rules, however many words it holds ("Source Long Short
// Tiny Total" reads as prose): a paragraph of running text takes more
// than one line.
func emptyOrTabular(band pdf.Rect, lines []*Line, ro roles) bool {
	n, running, captions := 0, 0, 0
	var in pdf.Rect
	size := 0.0
	for _, l := range lines {
		if inside(l, band) {
			n++
			in = in.Union(l.Box)
			size = math.Max(size, l.Size)
			// A line of heads a column gap apart reads as prose by its
			// words but is a table's row (wordSpaced).
			if ro.running[l] && wordSpaced(l) || ro.caption[l] {
				running++
			}
			if ro.caption[l] {
				captions++
			}
		}
	}
	// One row: its lines (subscripts, a cell's marks set apart) within
	// one and a half of their size.
	if n > 0 && captions == 0 && in.Height() <= 1.5*size {
		return true
	}
	return running*2 < n || n == 0 || tabularText(band, lines, ro) || cellLines(band, lines, ro)
}

// tabularText reports whether the lines in box read as a table rather than
// running text (a page of two columns, paragraphs between rules): at
// least a quarter of its rows are rows of cells — a line that is not
// running text beside other lines, or a row of numbers.
func tabularText(box pdf.Rect, lines []*Line, ro roles) bool {
	var in []*Line
	for _, l := range lines {
		if inside(l, box) && !ro.caption[l] {
			in = append(in, l)
		}
	}
	if len(in) == 0 {
		return false
	}
	rows := rowsOf(in)
	cells := 0
	for _, r := range rows {
		free := 0
		for _, l := range r.lines {
			if !ro.running[l] {
				free++
			}
		}
		if free > 0 && (len(r.lines) >= 2 || numericRow(r.lines[0])) {
			cells++
		}
	}
	return cells > 0 && cells*4 >= len(rows)
}

// row is a set of lines that share a baseline.
type row struct {
	lines []*Line
	box   pdf.Rect
	base  float64
	size  float64
}

// rowsOf groups lines by baseline, top first; a row's lines are left to
// right.
func rowsOf(lines []*Line) []*row {
	ls := append([]*Line(nil), lines...)
	sort.SliceStable(ls, func(i, j int) bool { return ls[i].Base > ls[j].Base })
	var out []*row
	for _, l := range ls {
		if n := len(out); n > 0 && math.Abs(out[n-1].base-l.Base) < 0.35*math.Max(out[n-1].size, l.Size) {
			r := out[n-1]
			r.lines = append(r.lines, l)
			r.box = r.box.Union(l.Box)
			continue
		}
		out = append(out, &row{lines: []*Line{l}, box: l.Box, base: l.Base, size: l.Size})
	}
	for _, r := range out {
		sort.Slice(r.lines, func(i, j int) bool { return r.lines[i].Box.X0 < r.lines[j].Box.X0 })
	}
	return out
}

// textGrids finds tables without rules: runs of at least three rows whose
// cells are not running text, each row either two or more cells close
// enough to belong together or a run of numbers, one below the other at a
// regular pitch, with cells lining up in at least two columns over most of
// the rows. A run must hold numbers in a quarter of its cells or span at
// least five rows (an author grid on a title page does neither). Rows are
// looked for per column of the page: lines of running text split the page
// into the parts they do not cover.
//
// Grids that are display mathematics (displayMath) are returned apart, as
// maths.
func textGrids(lines []*Line, taken []floatArea, ro roles) (out, maths []pdf.Rect) {
	rows := rowsOf(outsideAreas(lines, taken))
	// Cells of a row: lines that are not prose, in x-order.
	type cand struct {
		r     *row
		cells []*Line
		ok    bool
	}
	var cs []cand
	for _, r := range rows {
		var cells []*Line
		for _, l := range r.lines {
			if ro.running[l] || ro.caption[l] || eqNumber.MatchString(l.Text) {
				continue
			}
			cells = append(cells, l)
		}
		ok := false
		switch {
		case len(cells) >= 2:
			// Cells belong together when they are not a whole column width
			// apart: the widest gap is at most a third of the row.
			ok = true
			for i := 1; i < len(cells); i++ {
				if cells[i].Box.X0-cells[i-1].Box.X1 > 12*r.size {
					ok = false
				}
			}
		case len(cells) == 1 && numericRow(cells[0]):
			ok = true
		}
		cs = append(cs, cand{r, cells, ok})
	}
	for i := 0; i < len(cs); {
		if !cs[i].ok {
			i++
			continue
		}
		j := i + 1
		box := cellsBox(cs[i].cells)
		for j < len(cs) && cs[j].ok {
			prev := cs[j-1].r
			gap := prev.box.Y0 - cs[j].r.box.Y1
			nb := cellsBox(cs[j].cells)
			ov := math.Min(box.X1, nb.X1) - math.Max(box.X0, nb.X0)
			if gap > 2.5*math.Max(prev.size, cs[j].r.size) || ov < 0.3*math.Min(box.Width(), nb.Width()) {
				break
			}
			box = box.Union(nb)
			j++
		}
		run := cs[i:j]
		i = j
		if len(run) < 3 {
			continue
		}
		cells, numbers := 0, 0
		var all []*Line
		for _, c := range run {
			for _, l := range c.cells {
				cells++
				all = append(all, l)
				s := statsOf(l)
				if s.numbers*2 >= s.tokens {
					numbers++
				}
			}
		}
		if numbers*4 < cells && len(run) < 5 {
			continue
		}
		if columns(all, len(run)) < 2 && numbers*2 < cells {
			continue
		}
		if displayMath(box, all, lines) {
			maths = append(maths, box)
			continue
		}
		out = append(out, box)
	}
	return out, maths
}

func cellsBox(ls []*Line) pdf.Rect {
	var b pdf.Rect
	for _, l := range ls {
		b = b.Union(l.Box)
	}
	return b
}

// columns counts the x positions (left edges, right edges or centres,
// within 3 points) that at least half of n rows share.
func columns(cells []*Line, n int) int {
	type edge struct {
		x    float64
		kind int
	}
	var es []edge
	for _, l := range cells {
		es = append(es, edge{l.Box.X0, 0}, edge{l.Box.X1, 1}, edge{(l.Box.X0 + l.Box.X1) / 2, 2})
	}
	sort.Slice(es, func(i, j int) bool { return es[i].x < es[j].x })
	count := 0
	last := math.Inf(-1)
	for i, e := range es {
		if e.x-last < 6 {
			continue // one column counted once
		}
		k := 0
		for _, f := range es[i:] {
			if f.x-e.x > 3 {
				break
			}
			if f.kind == e.kind {
				k++
			}
		}
		if k*2 >= n && k >= 3 {
			count++
			last = e.x
		}
	}
	return count
}

// figures finds figure areas: clusters of graphics (rules and blank
// boxes included, so that a plot's axes and its white background hold its
// marks together; v may hold the blank boxes) at least 36 points each
// way, that are not only rules or blank boxes and whose text is not
// running text; each
// is grown by the lines that are not prose and lie within a line's height
// of it, until no more do.
func figures(marks, h, v, images []pdf.Rect, lines []*Line, taken []floatArea, ro roles, st Stats) []pdf.Rect {
	var items []pdf.Rect
	isMark := map[int]bool{}
	for _, m := range marks {
		isMark[len(items)] = true
		items = append(items, m)
	}
	items = append(items, h...)
	items = append(items, v...)
	// Leave out graphics inside tables found already.
	var keep []pdf.Rect
	keepMark := map[int]bool{}
	for i, b := range items {
		in := false
		for _, a := range taken {
			x := b.Intersect(a.box)
			if x != (pdf.Rect{}) && x.Width()*x.Height() >= 0.5*b.Width()*b.Height() {
				in = true
				break
			}
		}
		if !in {
			keepMark[len(keep)] = isMark[i]
			keep = append(keep, b)
		}
	}
	clusters := clusterRects(keep, keepMark, 4)
	var out []pdf.Rect
	for len(clusters) > 0 {
		c := clusters[0]
		clusters = clusters[1:]
		if debugFloats != nil {
			debugFloats("cluster %v marks=%v", c.box, c.marks)
		}
		// A frame of rules closed on four sides with a figure's caption
		// under or over it is a figure (a box left for a picture, a
		// framed drawing), though it holds nothing else.
		framed := !c.marks && closedFrame(c, keep) && c.box.Width() >= 36 && c.box.Height() >= 36 && figureCaptioned(c.box, lines, ro, st)
		// A panel under half an inch that a figure's caption names (over
		// its sub-caption) is a figure too, from 20 points each way.
		panel := c.marks && math.Min(c.box.Width(), c.box.Height()) >= 20 && c.box.Width()*c.box.Height() >= 600 && figureCaptioned(c.box, lines, ro, st)
		if !framed && (!c.marks || !figureSized(c, images, lines) && !panel) {
			continue
		}
		box := c.box
		// A box behind display type (a chapter's number or title set on
		// a coloured panel) is decoration, not a figure — unless a
		// figure's caption names it: then the type is the picture's (a
		// placeholder's "Image", a diagram's large letter).
		behind := false
		for _, l := range lines {
			if x := l.Box.Intersect(box); l.Size >= 1.6*st.BodySize && x.Width()*x.Height() >= 0.5*l.Box.Width()*l.Box.Height() {
				behind = !figureCaptioned(box, lines, ro, st)
				break
			}
		}
		if behind {
			if debugFloats != nil {
				debugFloats("  rejected: behind display type")
			}
			clusters = append(clusters, splitRules(c, keep, keepMark)...)
			continue
		}
		// Running text inside: a framed or shaded box of text.
		n, proseLines := 0, 0
		for _, l := range lines {
			if inside(l, box) {
				n++
				if (ro.para[l] || ro.narrow[l]) && !ro.caption[l] && !pictureType(l, st) {
					proseLines++
				}
			}
		}
		if proseLines*3 > n || proseLines >= 3 {
			if debugFloats != nil {
				debugFloats("  rejected: %d of %d lines prose", proseLines, n)
			}
			clusters = append(clusters, splitRules(c, keep, keepMark)...)
			continue
		}
		box = grow(box, lines, taken, ro, st)
		out = append(out, box)
	}
	// Areas found twice (a figure grown over a neighbouring cluster) are
	// merged, and so are the panels of one figure: areas less than two
	// body lines apart with no paragraph of running text, caption or
	// display type (a chapter's title between its picture and its
	// number's box) between them (a line of column heads over a panel
	// may read as prose).
	out = mergeRects(out)
	for changed := true; changed; {
		changed = false
	outer:
		for i := range out {
			for j := i + 1; j < len(out); j++ {
				a, b := out[i], out[j]
				gx := math.Max(a.X0, b.X0) - math.Min(a.X1, b.X1)
				gy := math.Max(a.Y0, b.Y0) - math.Min(a.Y1, b.Y1)
				if gx > 2*st.BodySize || gy > 2*st.BodySize && !(gx < 0 && gy <= 6*st.BodySize && panelLabelsBetween(a, b, lines, ro)) {
					continue
				}
				// Side by side, each over or under a caption of its own:
				// two figures (in two columns), not two panels.
				if gx > 0 && ownCaption(a, b, lines, ro, st) && ownCaption(b, a, lines, ro, st) {
					continue
				}
				u := a.Union(b)
				clear := true
				for _, l := range lines {
					if (ro.para[l] || ro.caption[l]) && inside(l, u) {
						clear = false
						break
					}
					if x := l.Box.Intersect(u); l.Size >= 1.6*st.BodySize && x.Width()*x.Height() > 0.1*l.Box.Width()*l.Box.Height() && l.Box.Intersect(a) == (pdf.Rect{}) && l.Box.Intersect(b) == (pdf.Rect{}) {
						clear = false
						break
					}
				}
				if clear {
					out[i] = u
					out = append(out[:j], out[j+1:]...)
					changed = true
					break outer
				}
			}
		}
	}
	return out
}

// scannedFigures finds the figures of a page drawn as one image (a
// scanned page with an OCR text layer), whose graphics are part of that
// image and so cannot be told from its paper: next to a figure caption
// with no float of its own, the figure is the area of the image that
// holds no running text, over the caption's width, from the caption to
// the nearest running text, caption, display type or line of words (or
// the top or bottom of the page's text). The figure is looked for above its caption
// first (where figures set their captions), then below; an area less
// than 36 points high (figureSized) is none. Short lines inside it (tick
// labels) become its text.
func scannedFigures(lines []*Line, taken []floatArea, ro roles, st Stats) []pdf.Rect {
	var out []pdf.Rect
	top, bottom := math.Inf(-1), math.Inf(1)
	for _, l := range lines {
		top, bottom = math.Max(top, l.Box.Y1), math.Min(bottom, l.Box.Y0)
	}
	across := func(a, b pdf.Rect) bool {
		return math.Min(a.X1, b.X1)-math.Max(a.X0, b.X0) > 0.3*math.Min(a.Width(), b.Width())
	}
	for _, l := range lines {
		if k, _ := captionKind(l.Text); !ro.caption[l] || k != Figure {
			continue
		}
		// The caption's lines: the ones below its first, one under the
		// other.
		cb := l.Box
		for grown := true; grown; {
			grown = false
			for _, m := range lines {
				if ro.caption[m] && !captionText(m.Text) && m.Box.Y1 <= cb.Y0+1 && cb.Y0-m.Box.Y1 < 1.5*m.Size && across(m.Box, cb) &&
					cb.Union(m.Box) != cb { // a line already inside adds nothing (and would loop for ever)
					cb, grown = cb.Union(m.Box), true
				}
			}
		}
		own := false
		for _, a := range append(taken, floatsOf(out)...) {
			if across(a.box, cb) && (a.box.Y0 >= cb.Y1-1 && a.box.Y0-cb.Y1 <= 3*st.BodySize || a.box.Y1 <= cb.Y0+1 && cb.Y0-a.box.Y1 <= 3*st.BodySize) {
				own = true
				break
			}
		}
		if own {
			continue
		}
		// stops reports whether m bounds the figure: running text, a
		// caption, display type, or a line of four words or more (an OCR
		// layer's sizes are too rough for prose's measure in ems: a
		// figure's labels are shorter).
		stops := func(m *Line) bool {
			return m != l && across(m.Box, cb) && (ro.running[m] || ro.caption[m] || m.Size >= 1.6*st.BodySize || statsOf(m).words >= 4)
		}
		// A stop's paragraph stops it too: the lines right under or over
		// a stop (less than half a line apart), such as the short last
		// line of a caption the OCR layer garbled.
		stop := map[*Line]bool{}
		for _, m := range lines {
			if stops(m) && m.Box.Intersect(cb) == (pdf.Rect{}) {
				stop[m] = true
			}
		}
		for grown := true; grown; {
			grown = false
			for _, m := range lines {
				if stop[m] || m == l || m.Box.Intersect(cb) != (pdf.Rect{}) {
					continue
				}
				for o := range stop {
					gap := math.Max(o.Box.Y0-m.Box.Y1, m.Box.Y0-o.Box.Y1)
					if gap < 0.5*math.Max(o.Size, m.Size) && across(m.Box, o.Box) {
						stop[m], grown = true, true
						break
					}
				}
			}
		}
		up, down := top, bottom
		for _, m := range lines {
			if !stop[m] {
				continue
			}
			if m.Box.Y0 >= cb.Y1-1 {
				up = math.Min(up, m.Box.Y0)
			} else if m.Box.Y1 <= cb.Y0+1 {
				down = math.Max(down, m.Box.Y1)
			}
		}
		for _, a := range taken {
			if across(a.box, cb) {
				if a.box.Y0 >= cb.Y1-1 {
					up = math.Min(up, a.box.Y0)
				} else if a.box.Y1 <= cb.Y0+1 {
					down = math.Max(down, a.box.Y1)
				}
			}
		}
		// An OCR layer's boxes are rough: the figure keeps a third of a
		// body line off the text that bounds it.
		if up < top {
			up -= st.BodySize / 3
		}
		if down > bottom {
			down += st.BodySize / 3
		}
		switch {
		case up-cb.Y1 >= 36:
			out = append(out, pdf.Rect{X0: cb.X0, Y0: cb.Y1, X1: cb.X1, Y1: up})
		case cb.Y0-down >= 36:
			out = append(out, pdf.Rect{X0: cb.X0, Y0: down, X1: cb.X1, Y1: cb.Y0})
		}
	}
	return out
}

// floatsOf returns figure areas of boxes.
func floatsOf(boxes []pdf.Rect) []floatArea {
	out := make([]floatArea, len(boxes))
	for i, b := range boxes {
		out[i] = floatArea{kind: FigureText, box: b}
	}
	return out
}

// splitRules returns the clusters of the marks of a rejected cluster
// without its rules, nil when it has no rules or was split already: the
// rules of a frame around a page's text (or around a cover's type) may
// have joined a picture inside it to that text.
func splitRules(c cluster, keep []pdf.Rect, keepMark map[int]bool) []cluster {
	if c.rules == 0 || c.split {
		return nil
	}
	var sub []pdf.Rect
	subMark := map[int]bool{}
	for _, i := range c.members {
		if keepMark[i] {
			subMark[len(sub)] = true
			sub = append(sub, keep[i])
		}
	}
	var out []cluster
	for _, sc := range clusterRects(sub, subMark, 4) {
		sc.split = true
		var members []int
		for _, j := range sc.members {
			for _, i := range c.members {
				if keep[i] == sub[j] {
					members = append(members, i)
					break
				}
			}
		}
		sc.members = members
		out = append(out, sc)
	}
	return out
}

// inCaptionedFigure reports whether line l lies inside a figure area
// that a figure's caption names (figureCaptioned).
func inCaptionedFigure(l *Line, areas []floatArea, lines []*Line, ro roles, st Stats) bool {
	for _, a := range areas {
		if a.kind == FigureText && inside(l, a.box) && figureCaptioned(a.box, lines, ro, st) {
			return true
		}
	}
	return false
}

// closedFrame reports whether the rules of cluster c close a frame around
// its box: a horizontal rule along its top and its bottom edge and a
// vertical rule along its left and its right edge, each across most of
// the side.
func closedFrame(c cluster, rects []pdf.Rect) bool {
	b := c.box
	var top, bottom, left, right bool
	for _, i := range c.members {
		r := rects[i]
		if r.Height() <= ruleThick && r.Width() >= 0.8*b.Width() {
			top = top || r.Y1 >= b.Y1-ruleThick
			bottom = bottom || r.Y0 <= b.Y0+ruleThick
		}
		if r.Width() <= ruleThick && r.Height() >= 0.8*b.Height() {
			left = left || r.X0 <= b.X0+ruleThick
			right = right || r.X1 >= b.X1-ruleThick
		}
	}
	return top && bottom && left && right
}

// figureCaptioned reports whether a figure's caption stands right under
// box (within three body lines, or six when the lines between are only
// the panels' labels, "(a) …") or right over it (a caption's last line
// within three body lines), across its width, and box is no highlight
// behind a caption's or running text's words.
func figureCaptioned(box pdf.Rect, lines []*Line, ro roles, st Stats) bool {
	across := func(l *Line) bool {
		mid := (l.Box.X0 + l.Box.X1) / 2
		return mid >= box.X0 && mid <= box.X1 || math.Min(l.Box.X1, box.X1)-math.Max(l.Box.X0, box.X0) >= 0.5*math.Min(l.Box.Width(), box.Width())
	}
	for _, l := range lines {
		// A box behind a caption's or running text's words, a line or
		// two high (a highlight), is no figure of its own.
		if (ro.caption[l] || ro.running[l]) && l.Box.Intersect(box) != (pdf.Rect{}) && box.Height() < 3*l.Size {
			return false
		}
	}
	for _, l := range lines {
		if !ro.caption[l] || !across(l) {
			continue
		}
		if k, _ := captionKind(l.Text); k == Figure && l.Box.Y1 <= box.Y0+1 {
			gap := box.Y0 - l.Box.Y1
			if gap <= 3*st.BodySize || gap <= 6*st.BodySize && panelLabelsBetween(box, l.Box, lines, ro) {
				return true
			}
		}
		if l.Box.Y0 >= box.Y1-1 && l.Box.Y0-box.Y1 <= 3*st.BodySize {
			// A caption's line over the box: its first line names a
			// figure.
			for _, m := range lines {
				if k, _ := captionKind(m.Text); k == Figure && ro.caption[m] && m.Box.Y0 >= l.Box.Y0-1 && m.Box.Y0-l.Box.Y0 <= 10*st.BodySize && across(m) {
					return true
				}
			}
		}
	}
	return false
}

// panelLabel matches the label a sub-figure's caption opens with: "(a)",
// "a)", "(iv)".
var panelLabel = regexp.MustCompile(`^(\(?[a-z]\)|\((i|ii|iii|iv|v|vi|vii|viii|ix|x)\))(\s|$)`)

// panelLabelsBetween reports whether every line between boxes a and b
// (one above the other) and across them is a panel's label line — a
// short line opening with "(a)", not running text or a caption — and at
// least one such line lies between them or in them: the sub-captions of
// a figure's panels, set between rows of panels or between the panels
// and the figure's caption.
func panelLabelsBetween(a, b pdf.Rect, lines []*Line, ro roles) bool {
	lo, hi := math.Min(a.Y1, b.Y1), math.Max(a.Y0, b.Y0)
	x0, x1 := math.Max(a.X0, b.X0), math.Min(a.X1, b.X1)
	if x1 <= x0 {
		x0, x1 = math.Min(a.X0, b.X0), math.Max(a.X1, b.X1)
	}
	n := 0
	for _, l := range lines {
		if l.Box.X1 <= x0 || l.Box.X0 >= x1 {
			continue
		}
		if l.Box.Y0 >= hi || l.Box.Y1 <= lo || l.Box.Y0 < lo-1 || l.Box.Y1 > hi+1 {
			// In a or b: the labels a figure grew by count too.
			if (inside(l, a) || inside(l, b)) && panelLabel.MatchString(l.Text) && !ro.caption[l] {
				n++
			}
			continue
		}
		if ro.para[l] || ro.caption[l] || !panelLabel.MatchString(l.Text) || statsOf(l).words > 8 {
			return false
		}
		n++
	}
	return n > 0
}

// ownCaption reports whether a caption starts right below or above area
// a (within three body lines), under a's width and not under other's.
func ownCaption(a, other pdf.Rect, lines []*Line, ro roles, st Stats) bool {
	for _, l := range lines {
		if !ro.caption[l] || !captionText(l.Text) {
			continue
		}
		mid := (l.Box.X0 + l.Box.X1) / 2
		if mid < a.X0 || mid > a.X1 || mid >= other.X0 && mid <= other.X1 {
			continue
		}
		if l.Box.Y1 <= a.Y0 && a.Y0-l.Box.Y1 <= 3*st.BodySize || l.Box.Y0 >= a.Y1 && l.Box.Y0-a.Y1 <= 3*st.BodySize {
			return true
		}
	}
	return false
}

type cluster struct {
	box     pdf.Rect
	marks   bool  // holds something other than rules
	members []int // indices of the rectangles clustered
	rules   int   // how many of them are not marks
	split   bool  // made from the marks of a cluster with rules
}

// figureSized reports whether a cluster is large enough to be a figure:
// 36 points each way; a cluster holding a raster image, 10 points each
// way and 300 square points (a logo, an icon set apart); three or more
// graphics with no text inside, 20 points each way and 1,500 square
// points, or ten or more, 10 points each way and 300 square points (a
// logo drawn as paths).
func figureSized(c cluster, images []pdf.Rect, lines []*Line) bool {
	w, h := c.box.Width(), c.box.Height()
	if w >= 36 && h >= 36 {
		return true
	}
	for _, im := range images {
		if x := im.Intersect(c.box); x != (pdf.Rect{}) && x.Width()*x.Height() >= 0.5*im.Width()*im.Height() && w >= 10 && h >= 10 && w*h >= 300 {
			return true
		}
	}
	// Three pieces make a drawing of a figure's size; ten pieces make one
	// the size of an image's (a logo drawn as paths).
	if len(c.members) < 3 || math.Min(w, h) < 20 || w*h < 1500 {
		if len(c.members) < 10 || math.Min(w, h) < 10 || w*h < 300 {
			return false
		}
	}
	for _, l := range lines {
		if l.Box.Intersect(c.box) != (pdf.Rect{}) {
			return false
		}
	}
	return true
}

// clusterRects joins rectangles that come within gap points of each other.
func clusterRects(rs []pdf.Rect, mark map[int]bool, gap float64) []cluster {
	parent := make([]int, len(rs))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	// A sweep from left to right over the rectangles sorted by X0, kept
	// side by side with their indexes (the inner loop reads them in
	// order). Which pairs join does not depend on the order, nor do the
	// clusters: listed by their first member, members in index order.
	type item struct {
		r pdf.Rect
		i int
	}
	byX := make([]item, len(rs))
	for i, r := range rs {
		byX[i] = item{r, i}
	}
	slices.SortStableFunc(byX, func(a, b item) int { return cmp.Compare(a.r.X0, b.r.X0) })
	for a := range byX {
		ra := byX[a].r
		right, below, above := ra.X1+gap, ra.Y0-gap, ra.Y1+gap
		for _, b := range byX[a+1:] {
			if b.r.X0 > right {
				break
			}
			if b.r.Y0 <= above && b.r.Y1 >= below {
				parent[find(byX[a].i)] = find(b.i)
			}
		}
	}
	byRoot := map[int]*cluster{}
	var order []int
	for i, r := range rs {
		root := find(i)
		c := byRoot[root]
		if c == nil {
			c = &cluster{}
			byRoot[root] = c
			order = append(order, root)
		}
		c.box = c.box.Union(r)
		c.marks = c.marks || mark[i]
		c.members = append(c.members, i)
		if !mark[i] {
			c.rules++
		}
	}
	var out []cluster
	for _, root := range order {
		out = append(out, *byRoot[root])
	}
	return out
}

// grow extends a figure area by the lines that are not running text,
// captions or inside another float and that come within a line's height
// of it (two and a half under it for a panel's sub-caption, "(a) …"),
// until no more do.
func grow(box pdf.Rect, lines []*Line, taken []floatArea, ro roles, st Stats) pdf.Rect {
	for changed := true; changed; {
		changed = false
		for _, l := range lines {
			// Display type (a chapter's title beside its number's box) is
			// never a float's text (separateFloats).
			if inside(l, box) || ro.running[l] || ro.caption[l] || l.Size >= 1.6*st.BodySize && !wordmark(l, box) {
				continue
			}
			s := math.Max(l.Size, 4)
			// A panel's sub-caption ("(a) …") is set a little further
			// under its panel than a tick label.
			below := 1.2 * s
			if panelLabel.MatchString(l.Text) {
				below = 2.5 * s
			}
			near := l.Box.X1 >= box.X0-s && l.Box.X0 <= box.X1+s && l.Box.Y1 >= box.Y0-below && l.Box.Y0 <= box.Y1+1.2*s
			if !near {
				continue
			}
			// A line wider than the figure that sticks out on both sides
			// is not one of its labels, nor is a line above or below it
			// whose middle is beside it (a run-in heading at the margin
			// over a figure set in from it): a title or a tick label is
			// over or under the figure.
			if l.Box.X0 < box.X0-2*s && l.Box.X1 > box.X1+2*s {
				continue
			}
			if mid := (l.Box.X0 + l.Box.X1) / 2; (l.Box.Y0 >= box.Y1 || l.Box.Y1 <= box.Y0) && (mid < box.X0 || mid > box.X1) {
				continue
			}
			if inAreas(l, taken) {
				continue
			}
			box = box.Union(l.Box)
			changed = true
		}
	}
	return box
}

// wordmark reports whether display-type line l is a logo's word mark:
// one or two words set right against the logo's graphics (within half
// its size above or below them), mostly within their width. A chapter's
// title is longer, or set apart from its picture.
func wordmark(l *Line, box pdf.Rect) bool {
	if !wordmarkText(l) {
		return false
	}
	gap := math.Max(box.Y0-l.Box.Y1, l.Box.Y0-box.Y1)
	ov := math.Min(l.Box.X1, box.X1) - math.Max(l.Box.X0, box.X0)
	return gap >= 0 && gap <= 0.5*l.Size && ov >= 0.5*l.Box.Width()
}

// wordmarkText reports whether line l reads as a word mark: one or two
// words, mostly letters ("Redpaper™", not a margin's "JCAP10(2008)003").
func wordmarkText(l *Line) bool {
	if len(strings.Fields(l.Text)) > 2 {
		return false
	}
	letters, n := 0, 0
	for _, r := range l.Text {
		if unicode.IsSpace(r) {
			continue
		}
		n++
		if unicode.IsLetter(r) {
			letters++
		}
	}
	return n > 0 && letters*10 >= n*8
}

// overGraphic reports whether most of line l lies on one graphic of gs
// that is not the page's background (a banner behind a title).
func overGraphic(l *Line, gs []pdf.Graphic, extent pdf.Rect) bool {
	for _, g := range gs {
		if g.Box.Width()*g.Box.Height() > 0.6*extent.Width()*extent.Height() {
			continue
		}
		if x := l.Box.Intersect(g.Box); x.Width()*x.Height() >= 0.5*l.Box.Width()*l.Box.Height() {
			return true
		}
	}
	return false
}

// growTable extends a table by the lines right above or below it (a
// header row above the first rule, notes below the last) that lie within
// its width, are not running text or captions and are not in another
// float: within a line and a half of the table, until no more are.
func growTable(box pdf.Rect, lines []*Line, areas []floatArea, ro roles) pdf.Rect {
	for changed := true; changed; {
		changed = false
		for _, l := range lines {
			if inside(l, box) || ro.running[l] || ro.caption[l] {
				continue
			}
			s := math.Max(l.Size, 4)
			if l.Box.X0 < box.X0-s || l.Box.X1 > box.X1+s {
				continue
			}
			if l.Box.Y0 > box.Y1+1.5*s || l.Box.Y1 < box.Y0-1.5*s {
				continue
			}
			other := false
			for _, a := range areas {
				if a.box != box && inside(l, a.box) {
					other = true
					break
				}
			}
			if other {
				continue
			}
			box = box.Union(l.Box)
			changed = true
		}
	}
	return box
}

// mergeRects merges overlapping rectangles.
func mergeRects(rs []pdf.Rect) []pdf.Rect {
	for changed := true; changed; {
		changed = false
	outer:
		for i := range rs {
			for j := i + 1; j < len(rs); j++ {
				if rs[i].Intersect(rs[j]) != (pdf.Rect{}) {
					rs[i] = rs[i].Union(rs[j])
					rs = append(rs[:j], rs[j+1:]...)
					changed = true
					break outer
				}
			}
		}
	}
	return rs
}

// separateFloats takes the lines of the floats findFloats finds out of the
// body regions: each float becomes a region of its own kind, and the
// remaining lines are grouped into regions again.
//
// It also returns every float found, with or without text (an image
// without labels is a figure too), boxes in the frame's coordinates.
func separateFloats(body []*region, gs []pdf.Graphic, extent pdf.Rect, st Stats) ([]*region, []*Float) {
	var lines []*Line
	for _, r := range body {
		lines = append(lines, r.lines...)
	}
	ro := rolesOf(body, horizontalRules(gs))
	areas, hRules, vRules := findFloats(body, gs, extent, st)
	found := make([]*Float, len(areas))
	for i, a := range areas {
		switch a.kind {
		case TableText:
			found[i] = &Float{Kind: Table, Box: a.box}
		case FigureText:
			found[i] = &Float{Kind: Figure, Box: a.box}
		}
	}
	if len(areas) == 0 {
		return body, found
	}
	floats := make([]*region, len(areas))
	var rest []*Line
	for _, l := range lines {
		placed := false
		// Display type (a title, a chapter head: 1.6 times the body size
		// or more) is never a float's text, even on a banner; a word mark
		// beside a logo (display type on no graphic) is, and so is type
		// inside a figure a figure's caption names (a placeholder's
		// "Image").
		//
		// A caption in type under 70 % of the body size inside a figure is
		// the caption of a picture shown in it (a page reproduced in a
		// figure, with its own "Figure 1."): the figure's text, not the
		// document's caption. A list of figures' entries open with caption
		// labels but are its cells, and so are an example's label and lines
		// inside a captioned table.
		if (!ro.caption[l] || pictureType(l, st) || inTOC(l, areas) || inVouched(l, areas) && !opensCaption(l)) && (l.Size < 1.6*st.BodySize || wordmarkText(l) && !overGraphic(l, gs, extent) || inCaptionedFigure(l, areas, lines, ro, st)) {
			for i, a := range areas {
				if inside(l, a.box) && (!ro.caption[l] || a.kind == FigureText || a.toc || a.vouched && !opensCaption(l)) {
					if floats[i] == nil {
						floats[i] = &region{kind: a.kind, float: found[i]}
					}
					floats[i].add(l)
					placed = true
					break
				}
			}
		}
		if !placed {
			rest = append(rest, l)
		}
	}
	for i, f := range floats {
		if f != nil && f.kind == TableText {
			found[i].src = &tableSource{box: areas[i].box, hRules: hRules, vRule: vRules, lines: f.lines, toc: areas[i].toc, vouched: areas[i].vouched}
			found[i].readCells()
			rej := notATable(found[i].Cells, areas[i].box, hRules)
			if rej == isTable && !areas[i].toc && codeListing(f.lines, areas[i].box, hRules) {
				rej = asText // a listing: its lines are typed Code (mathAndCode)
			}
			if areas[i].vouched {
				rej = isTable // a caption says it is one
			}
			switch rej {
			case asText:
				// Not a table after all (table_reject.go): running text.
				rest = append(rest, f.lines...)
				floats[i], found[i] = nil, nil
			case asFigure:
				found[i] = &Float{Kind: Figure, Box: areas[i].box}
				f.kind, f.float = FigureText, found[i]
			}
		}
	}
	sort.SliceStable(rest, func(i, j int) bool { return rest[i].seq < rest[j].seq })
	out := mergeRegions(buildRegions(rest, st), st)
	for _, f := range floats {
		if f == nil {
			continue
		}
		sortLinesTopDown(f.lines)
		f.seq = f.lines[0].seq
		out = append(out, f)
	}
	for i, r := range out {
		if r.kind == "" {
			r.seq = r.lines[0].seq
		}
		_ = i
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].seq < out[j].seq })
	var fs []*Float
	for _, f := range found {
		if f != nil {
			fs = append(fs, f)
		}
	}
	return out, fs
}

// displayMath reports whether a grid of cells is a display equation (a
// matrix, a system of equations, a cases construct) rather than a table:
// an equation number alone is set to its right within its height, or
// most of its cells are mathematics (mathLine) or brackets drawn in
// pieces (private-use glyphs).
func displayMath(box pdf.Rect, cells, lines []*Line) bool {
	for _, l := range lines {
		if eqNumber.MatchString(l.Text) && l.Box.X0 >= box.X1-1 && l.Base >= box.Y0-2 && l.Base <= box.Y1+2 {
			return true
		}
	}
	m := 0
	for _, l := range cells {
		pua := 0
		for _, r := range l.Text {
			if r >= 0xE000 && r <= 0xF8FF {
				pua++
			}
		}
		if mathLine(l) || pua > 0 {
			m++
		}
	}
	return m*2 > len(cells)
}

// inAreas reports whether line l lies inside one of the areas (inside).
func inAreas(l *Line, areas []floatArea) bool {
	for _, a := range areas {
		if inside(l, a.box) {
			return true
		}
	}
	return false
}

// outsideAreas returns the lines that lie inside none of the areas, in
// their order.
func outsideAreas(lines []*Line, areas []floatArea) []*Line {
	var out []*Line
	for _, l := range lines {
		if !inAreas(l, areas) {
			out = append(out, l)
		}
	}
	return out
}
