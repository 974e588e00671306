package layout

import (
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/crossmem/crossmem/internal/pdf"
)

// Tables: cells from rules and alignment. tableCells reads the cells of a
// table from the lines of its text and the rules drawn in its box, in one
// of two ways:
//
//   - a ruled grid (lattice): when the box holds vertical rules at two or
//     more places and horizontal rules at two or more, the rules' positions
//     cut the box into a grid of fine cells; neighbouring fine cells that
//     no rule separates are one cell (a cell spanning rows or columns),
//     whose text is given at its top-left fine cell; rows and columns
//     without any text are dropped;
//   - alignment (stream): rows are the lines that share a baseline (or,
//     when full-width rules separate the rows, the bands between those
//     rules: a cell's text wraps inside its band; a rule drawn between two
//     lines always ends a row); columns are the runs of x covered by the
//     words of the rows with the most words, separated by gaps of at least
//     half the font size that no such word crosses, by vertical rules
//     running the table's height and by column starts only alignment
//     shows (alignedStarts); a word of another row (a head spanning
//     columns) goes to the column it overlaps most. A ruled grid whose
//     rules leave rows of the body in one band (rowsInBand) is read this
//     way too.
//
// A cell's text is the text of its pieces in reading order (top to
// bottom, left to right) joined by one space; a piece is a phrase of a
// line (its words, as the line's text split at its spaces gives the words
// pdfium reports, joined when less than half the font size apart) or a
// whole line. Every row has the same number of cells.

// piece is a unit of a table's text: a word or a line.
type piece struct {
	text       string
	box        pdf.Rect
	base, size float64
}

func piecesOf(lines []*Line) []piece { return piecesCut(lines, nil, nil) }

// piecesCut splits lines into pieces as piecesOf does, and also between
// two words a cut separates: a vertical rule drawn across the line between
// them (rules: a ruled column's side), or a column start (starts: see
// alignedStarts) where the second word begins, however narrow the gap.
func piecesCut(lines []*Line, rules []pdf.Rect, starts []float64) []piece {
	var out []piece
	for _, l := range lines {
		ws := fieldWords(l)
		fs := strings.Fields(l.Text)
		if len(ws) == len(fs) && len(fs) > 1 {
			// Phrases: words a word space apart; a wider gap (half the
			// font size or more) is between cells.
			p := piece{fs[0], ws[0].Box, l.Base, l.Size}
			for i := 1; i < len(ws); i++ {
				if ws[i].Box.X0-p.box.X1 < 0.35*l.Size && !cutBetween(p.box, ws[i].Box, rules, starts) {
					p.text += " " + fs[i]
					p.box = p.box.Union(ws[i].Box)
					continue
				}
				out = append(out, p)
				p = piece{fs[i], ws[i].Box, l.Base, l.Size}
			}
			out = append(out, p)
			continue
		}
		out = append(out, piece{l.Text, l.Box, l.Base, l.Size})
	}
	return out
}

// cutBetween reports whether a vertical rule runs between boxes a and b
// (left to right) over their height, or b starts at a column start.
func cutBetween(a, b pdf.Rect, rules []pdf.Rect, starts []float64) bool {
	for _, r := range rules {
		x := (r.X0 + r.X1) / 2
		if x >= a.X1-1 && x <= b.X0+1 && r.Y0 <= math.Max(a.Y0, b.Y0)+1 && r.Y1 >= math.Min(a.Y1, b.Y1)-1 {
			return true
		}
	}
	for _, x := range starts {
		if math.Abs(b.X0-x) <= 0.5 && a.X1 <= x {
			return true
		}
	}
	return false
}

// fieldWords returns the boxes of a line's words, one per field of its
// text (strings.Fields(l.Text)): the line's characters are matched to the
// fields in order, so that a space the line's text has where the PDF
// draws no space character (a gap wide enough) still ends a word. Nil
// when the characters do not spell the fields.
func fieldWords(l *Line) []Word {
	fs := strings.Fields(l.Text)
	out := make([]Word, 0, len(fs))
	i, have := 0, ""
	var box pdf.Rect
	for _, c := range l.chars {
		t := strings.Join(strings.Fields(c.text()), "")
		if t == "" {
			continue
		}
		if i >= len(fs) {
			return nil
		}
		if have == "" {
			box = c.Box
		} else {
			box = box.Union(c.Box)
		}
		have += t
		switch {
		case have == fs[i]:
			out = append(out, Word{Text: have, Box: box})
			i, have = i+1, ""
		case !strings.HasPrefix(fs[i], have):
			return nil
		}
	}
	if i != len(fs) || have != "" {
		return nil
	}
	return out
}

// alignedStarts returns the x positions where a column starts that only
// alignment shows: a table set so tight that the gap between two columns
// is a word space. A position is a column start when words start at it
// (within half a point: TeX sets a left-aligned column's cells at one x)
// after another word of their line in at least three lines, and in at
// least half of the lines that reach past it; no word of a line crosses
// it but in at most a third as many lines as start a word there (a head
// or a note spanning columns); and the words before it end at different
// x (the ragged right side of a left-aligned column), or start at
// different x (a right-aligned column of words of different widths)
// while the words at x end at different x (a left-aligned column): words
// after words of one width start at one x inside a cell too ("Cluster,
// open" and "Cluster, globular"; "72.0 ± 1.1" and "76.1 ± 1.1" in
// tabular figures), and so does the last word of one width of cells set
// flush right ("Train (70%)" and "Dev (10%)").
// maxAlignWork bounds alignedStarts' work: distinct word starts times
// lines. A full page of table (80 lines of 15 columns whose cells start
// at 40 different x each: 48,000) is under a twentieth of it.
const maxAlignWork = 1_000_000

func alignedStarts(lines []*Line) []float64 {
	type lw struct {
		ws []Word
	}
	var ls []lw
	var cand []float64
	for _, l := range lines {
		all := fieldWords(l)
		if all == nil {
			all = l.Words()
		}
		// Dot leaders are left out: TeX sets their dots on a grid of
		// the page, so they line up from line to line in any text.
		var ws []Word
		for _, w := range all {
			if strings.Trim(w.Text, ".·…") != "" {
				ws = append(ws, w)
			}
		}
		ls = append(ls, lw{ws})
		for i := 1; i < len(ws); i++ {
			cand = append(cand, ws[i].Box.X0)
		}
	}
	sort.Float64s(cand)
	// A position is judged by its x alone: words set at one x (TeX's
	// columns) are judged once. Each judgement reads every line, so a
	// region with more distinct positions times lines than any table
	// has (a hostile page of thousands of lines of scattered words) gets
	// no column starts from alignment, in bounded time.
	cand = slices.Compact(cand)
	if len(cand)*len(ls) > maxAlignWork {
		return nil
	}
	var out []float64
	last := math.Inf(-1)
	for _, x := range cand {
		if x-last <= 0.5 {
			continue
		}
		aligned, reach, cross := 0, 0, 0
		lo, hi := math.Inf(1), math.Inf(-1)   // ends of the words before
		slo, shi := math.Inf(1), math.Inf(-1) // their starts
		nlo, nhi := math.Inf(1), math.Inf(-1) // ends of the words at x
		for _, l := range ls {
			if len(l.ws) == 0 || l.ws[len(l.ws)-1].Box.X1 <= x+0.5 {
				continue
			}
			reach++
			for i, w := range l.ws {
				if w.Box.X0 < x-0.5 && w.Box.X1 > x+0.5 {
					cross++
					break
				}
				if i > 0 && math.Abs(w.Box.X0-x) <= 0.5 {
					aligned++
					prev := l.ws[i-1]
					lo, hi = math.Min(lo, prev.Box.X1), math.Max(hi, prev.Box.X1)
					slo, shi = math.Min(slo, prev.Box.X0), math.Max(shi, prev.Box.X0)
					nlo, nhi = math.Min(nlo, w.Box.X1), math.Max(nhi, w.Box.X1)
					break
				}
			}
		}
		if aligned >= 3 && 2*aligned >= reach && 3*cross <= aligned && (hi-lo > 1 || shi-slo > 1 && nhi-nlo > 1) {
			out = append(out, x)
			last = x
		}
	}
	return out
}

// tableSource is what a table's cells are read from, kept with its
// float so that they can be read again when its lines change (a running
// head taken out, turned column heads added): its box and rules in the
// coordinates of the frame it was found in (quarter: see orientations),
// its lines and the turned lines of its head.
type tableSource struct {
	box           pdf.Rect
	hRules, vRule []pdf.Rect
	lines, turned []*Line
	quarter       int
	toc           bool // a table of contents: cells by tocCells
	vouched       bool // a table its caption vouches for (table_caption.go)
}

// readCells reads a table's cells (Cells) from its source; it does
// nothing for a float without one, or found in a turned frame once its
// lines are back in page coordinates (quarter != 0).
func (f *Float) readCells() {
	s := f.src
	if s == nil || s.quarter != 0 {
		return
	}
	if s.toc {
		f.Cells = tocCells(s.lines)
		return
	}
	if s.vouched && mostlyProse(s.lines) {
		f.Cells = proseRows(s.lines)
		return
	}
	f.Cells = tableCells(s.lines, s.turned, s.box, s.hRules, s.vRule)
}

// turnedPieces returns the turned lines of a table's head as pieces of
// one row: each a whole line, on the lowest bottom among them (turned
// heads are set on a common foot, or a common top that a row holds as
// well).
func turnedPieces(ls []*Line) []piece {
	if len(ls) == 0 {
		return nil
	}
	foot := math.Inf(1)
	for _, l := range ls {
		foot = math.Min(foot, l.Box.Y0)
	}
	out := make([]piece, len(ls))
	for i, l := range ls {
		out[i] = piece{strings.Join(strings.Fields(l.Text), " "), l.Box, foot, l.Size}
	}
	return out
}

func tableCells(lines, turned []*Line, box pdf.Rect, hRules, vRules []pdf.Rect) [][]string {
	if len(lines) == 0 {
		return nil
	}
	var h, v []pdf.Rect
	grow := box
	for _, l := range lines {
		grow = grow.Union(l.Box)
	}
	for _, l := range turned {
		grow = grow.Union(l.Box)
	}
	for _, r := range hRules {
		if r.X1 > grow.X0+2 && r.X0 < grow.X1-2 && r.Y0 >= grow.Y0-3 && r.Y1 <= grow.Y1+3 {
			h = append(h, r)
		}
	}
	for _, r := range vRules {
		if r.Y1 > grow.Y0+2 && r.Y0 < grow.Y1-2 && r.X0 >= grow.X0-3 && r.X1 <= grow.X1+3 {
			v = append(v, r)
		}
	}
	// Column rules: vertical rules over two thirds of the text's height
	// or more (a ruled table's sides and column separators; a plot's
	// grid lines behind its legend do not run the height of its text).
	var text pdf.Rect
	for i, l := range lines {
		if i == 0 {
			text = l.Box
		}
		text = text.Union(l.Box)
	}
	var colRules []pdf.Rect
	var cuts []float64
	for _, r := range v {
		if math.Min(r.Y1, text.Y1)-math.Max(r.Y0, text.Y0) >= 2*text.Height()/3 {
			colRules = append(colRules, r)
			cuts = append(cuts, (r.X0+r.X1)/2)
		}
	}
	starts := alignedStarts(lines)
	ps := append(piecesCut(lines, colRules, starts), turnedPieces(turned)...)
	xs := positions(v, func(r pdf.Rect) float64 { return (r.X0 + r.X1) / 2 })
	ys := positions(h, func(r pdf.Rect) float64 { return (r.Y0 + r.Y1) / 2 })
	if len(xs) >= 2 && len(ys) >= 2 {
		// A grid whose rules mark the columns and the head but not the
		// rows (two rows of cells holding many lines of text, or a band
		// holding rows of its own) is read by alignment, its vertical
		// rules cutting columns.
		if cells := lattice(ps, grow, xs, ys, h, v); cells != nil && !(len(cells) <= 2 && baselines(ps) >= 2*len(cells)+2) && !rowsInBand(ps, xs, ys, grow) {
			return cells
		}
	}
	return stream(ps, lines, grow, h, append(cuts, starts...))
}

// rowsInBand reports whether a band of a ruled grid (between two of its
// horizontal rules) holds two lines or more that fill all the columns its
// fullest line fills, two at least: rows the rules do not separate (a
// grid ruled at its head and foot only). A cell's wrapped lines fill
// fewer columns than its row's first line. The head's band is not looked
// at: its heads may take two lines in every column.
func rowsInBand(ps []piece, xs, ys []float64, box pdf.Rect) bool {
	edgesX := edges(xs, box.X0, box.X1)
	edgesY := edges(ys, box.Y0, box.Y1)
	type key struct{ band, line int }
	lines := map[key]map[int]bool{}
	sorted := append([]piece(nil), ps...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].base > sorted[j].base })
	// The baselines of each band's lines, in the order they were met.
	bases := map[int][]float64{}
	for _, p := range sorted {
		cy := (p.box.Y0 + p.box.Y1) / 2
		band := sort.SearchFloat64s(edgesY, cy)
		col := sort.SearchFloat64s(edgesX, (p.box.X0+p.box.X1)/2)
		li := -1
		for i, b := range bases[band] {
			if math.Abs(b-p.base) < 0.35*p.size {
				li = i
				break
			}
		}
		if li < 0 {
			li = len(bases[band])
			bases[band] = append(bases[band], p.base)
		}
		k := key{band, li}
		if lines[k] == nil {
			lines[k] = map[int]bool{}
		}
		lines[k][col] = true
	}
	most := map[int]int{}
	for k, cols := range lines {
		most[k.band] = max(most[k.band], len(cols))
	}
	full := map[int]int{}
	for k, cols := range lines {
		if m := most[k.band]; m >= 2 && len(cols) == m {
			full[k.band]++
		}
	}
	top := -1
	for k := range lines {
		top = max(top, k.band)
	}
	for band, n := range full {
		if n >= 2 && band != top {
			return true
		}
	}
	return false
}

// positions returns the distinct positions (within 2 points) of rules,
// ascending.
func positions(rs []pdf.Rect, at func(pdf.Rect) float64) []float64 {
	var xs []float64
	for _, r := range rs {
		xs = append(xs, at(r))
	}
	sort.Float64s(xs)
	var out []float64
	for _, x := range xs {
		if n := len(out); n > 0 && x-out[n-1] <= 2 {
			continue
		}
		out = append(out, x)
	}
	return out
}

// lattice reads a ruled grid (see tableCells); nil when the grid holds
// its text in fewer than two columns.
func lattice(ps []piece, box pdf.Rect, xs, ys []float64, h, v []pdf.Rect) [][]string {
	// Edges: the rules' positions and the box's sides, ascending x and
	// descending y.
	edgesX := edges(xs, box.X0, box.X1)
	ys2 := edges(ys, box.Y0, box.Y1)
	edgesY := make([]float64, len(ys2))
	for i := range ys2 {
		edgesY[i] = ys2[len(ys2)-1-i]
	}
	R, C := len(edgesY)-1, len(edgesX)-1
	if R < 1 || C < 2 {
		return nil
	}
	parent := make([]int, R*C)
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
	union := func(a, b int) {
		ra, rb := find(a), find(b)
		if ra < rb {
			parent[rb] = ra
		} else {
			parent[ra] = rb
		}
	}
	drawnV := func(x, y float64) bool {
		for _, r := range v {
			if math.Abs((r.X0+r.X1)/2-x) <= 2 && r.Y0 <= y && r.Y1 >= y {
				return true
			}
		}
		return false
	}
	drawnH := func(y, x float64) bool {
		for _, r := range h {
			if math.Abs((r.Y0+r.Y1)/2-y) <= 2 && r.X0 <= x && r.X1 >= x {
				return true
			}
		}
		return false
	}
	for r := 0; r < R; r++ {
		ym := (edgesY[r] + edgesY[r+1]) / 2
		for c := 0; c < C; c++ {
			xm := (edgesX[c] + edgesX[c+1]) / 2
			if c+1 < C && !drawnV(edgesX[c+1], ym) {
				union(r*C+c, r*C+c+1)
			}
			if r+1 < R && !drawnH(edgesY[r+1], xm) {
				union(r*C+c, (r+1)*C+c)
			}
		}
	}
	// Pieces to cells by their centres.
	text := map[int][]piece{}
	for _, p := range ps {
		cx, cy := (p.box.X0+p.box.X1)/2, (p.box.Y0+p.box.Y1)/2
		c := sort.SearchFloat64s(edgesX, cx) - 1
		r := 0
		for r < R-1 && cy < edgesY[r+1] {
			r++
		}
		c = max(0, min(C-1, c))
		root := find(r*C + c)
		text[root] = append(text[root], p)
	}
	// Keep rows and columns where a cell with text starts.
	keepR, keepC := make([]bool, R), make([]bool, C)
	for root := range text {
		keepR[root/C], keepC[root%C] = true, true
	}
	cols := 0
	for _, k := range keepC {
		if k {
			cols++
		}
	}
	if cols < 2 {
		return nil
	}
	var out [][]string
	for r := 0; r < R; r++ {
		if !keepR[r] {
			continue
		}
		var row []string
		for c := 0; c < C; c++ {
			if !keepC[c] {
				continue
			}
			row = append(row, joinPieces(text[r*C+c]))
		}
		out = append(out, row)
	}
	return out
}

// edges adds lo and hi to the sorted positions unless a position is
// within 3 points of them, and drops positions outside [lo, hi].
func edges(xs []float64, lo, hi float64) []float64 {
	out := []float64{lo}
	for _, x := range xs {
		if x > lo+3 && x < hi-3 {
			out = append(out, x)
		}
	}
	return append(out, hi)
}

// joinPieces returns the pieces' texts in reading order joined by a
// space.
func joinPieces(ps []piece) string {
	sort.SliceStable(ps, func(i, j int) bool {
		if math.Abs(ps[i].base-ps[j].base) > 0.3*math.Max(ps[i].size, ps[j].size) {
			return ps[i].base > ps[j].base
		}
		return ps[i].box.X0 < ps[j].box.X0
	})
	var parts []string
	for _, p := range ps {
		parts = append(parts, p.text)
	}
	return strings.Join(parts, " ")
}

// stream reads a table by alignment (see tableCells).
func stream(ps []piece, lines []*Line, box pdf.Rect, h []pdf.Rect, cuts []float64) [][]string {
	// Lines of the table: pieces that share a baseline.
	type prow struct {
		ps   []piece
		base float64
	}
	var rows []*prow
	sorted := append([]piece(nil), ps...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].base > sorted[j].base })
	for _, p := range sorted {
		if n := len(rows); n > 0 && math.Abs(rows[n-1].base-p.base) < 0.35*p.size {
			rows[n-1].ps = append(rows[n-1].ps, p)
			continue
		}
		rows = append(rows, &prow{ps: []piece{p}, base: p.base})
	}
	// Columns from the lines with the most pieces: the runs of x their
	// pieces cover, apart where a gap of at least half the font size is
	// left. In a table of four such lines or more a gap may be crossed by
	// one piece (a group's head or a note across columns).
	most, counted := 0, 0
	for _, r := range rows {
		most = max(most, len(r.ps))
	}
	var spans []span
	for _, r := range rows {
		if len(r.ps)*2 < most && len(rows) > 1 {
			continue
		}
		counted++
		for _, p := range r.ps {
			spans = append(spans, span{p.box.X0, p.box.X1})
		}
	}
	crossing := 0
	if counted >= 4 {
		crossing = 1
	}
	gap := 0.5 * medianLineSize(lines)
	// Coverage of x by the spans: the elementary intervals between their
	// ends, each with the number of spans over it.
	var ends []float64
	for _, s := range spans {
		ends = append(ends, s.x0, s.x1)
	}
	sort.Float64s(ends)
	var cols []span
	for i := 0; i+1 < len(ends); i++ {
		a, b := ends[i], ends[i+1]
		if b-a <= 0 {
			continue
		}
		n := 0
		for _, s := range spans {
			if s.x0 <= a && s.x1 >= b {
				n++
			}
		}
		if n <= crossing {
			continue
		}
		if k := len(cols); k > 0 && a < cols[k-1].x1+gap && !cutIn(cuts, cols[k-1], a) {
			cols[k-1].x1 = math.Max(cols[k-1].x1, b)
			continue
		}
		cols = append(cols, span{a, b})
	}
	if len(cols) == 0 {
		cols = []span{{box.X0, box.X1}}
	}
	// Each line's pieces to the column they overlap most.
	lineCells := make([][][]piece, len(rows))
	for i, r := range rows {
		cells := make([][]piece, len(cols))
		for _, p := range r.ps {
			best, bestOv := 0, math.Inf(-1)
			for k, c := range cols {
				ov := math.Min(c.x1, p.box.X1) - math.Max(c.x0, p.box.X0)
				if ov > bestOv {
					best, bestOv = k, ov
				}
			}
			cells[best] = append(cells[best], p)
		}
		lineCells[i] = cells
	}
	// Lines to rows: a line continues the row above (see wraps). Rules
	// across the table inside it split it into bands: the head band is
	// the lines above the first (a table's head and body split by a
	// rule); when rules separate the body's rows, a band is one row (rows
	// of wrapped text between rules).
	full := fullRules(h, box)
	headBand := math.Inf(1)
	if n := len(full); n > 0 {
		headBand = full[n-1]
	}
	inHead := func(r *prow) bool {
		for _, p := range r.ps {
			if (p.box.Y0+p.box.Y1)/2 < headBand {
				return false
			}
		}
		return true
	}
	bandOf := func(r *prow) int {
		p := r.ps[0]
		return sort.SearchFloat64s(full, (p.box.Y0+p.box.Y1)/2)
	}
	// A band of words (no number in it) whose first and last lines leave
	// the first column empty while a line between fills it holds one
	// row: its first cell (a label, \multirow) is set vertically centred
	// on the row's wrapped lines. With numbers the label is a group's,
	// over rows of data.
	centred := map[int]bool{}
	{
		firstLine, lastLine := map[int]int{}, map[int]int{}
		data := map[int]bool{}
		for i, r := range rows {
			b := bandOf(r)
			if _, ok := firstLine[b]; !ok {
				firstLine[b] = i
			}
			lastLine[b] = i
			for _, c := range lineCells[i] {
				if len(c) > 0 && dataCell(c) {
					data[b] = true
				}
			}
		}
		for i, r := range rows {
			b := bandOf(r)
			f, l := firstLine[b], lastLine[b]
			if !data[b] && i > f && i < l && len(lineCells[i][0]) > 0 && len(lineCells[f][0]) == 0 && len(lineCells[l][0]) == 0 {
				centred[b] = true
			}
		}
	}
	// Rules separate the body's rows when three or more bands below the
	// head hold text (two may be a body and its notes under the last
	// rule) and some band holds a wrapped line: a line that fills fewer
	// columns than the band's first one. Bands whose every line fills
	// as many columns as the first are groups of rows of single lines
	// (\hline or \midrule between groups of rows).
	bodyBands := map[int]bool{}
	firstFill := map[int]int{}
	wrapped := false
	for i, r := range rows {
		if inHead(r) {
			continue
		}
		b := bandOf(r)
		n := 0
		for _, c := range lineCells[i] {
			if len(c) > 0 {
				n++
			}
		}
		if !bodyBands[b] {
			bodyBands[b] = true
			firstFill[b] = n
		} else if n < firstFill[b] {
			wrapped = true
		}
	}
	ruledRows := len(bodyBands) >= 3 && wrapped
	// ruled reports whether a rule runs between lines i-1 and i over one
	// of line i's pieces (a rule under a head spanning columns).
	ruled := func(i int) bool {
		top, bottom := math.Inf(-1), math.Inf(1)
		for _, p := range rows[i].ps {
			top = math.Max(top, p.box.Y1)
		}
		for _, p := range rows[i-1].ps {
			bottom = math.Min(bottom, p.box.Y0)
		}
		for _, r := range h {
			y := (r.Y0 + r.Y1) / 2
			if y < top-1 || y > bottom+1 {
				continue
			}
			for _, p := range rows[i].ps {
				if r.X0 < p.box.X1 && r.X1 > p.box.X0 {
					return true
				}
			}
		}
		return false
	}
	var out [][][]piece
	var first []int // the line each row starts with
	for i := range rows {
		if n := len(out); n > 0 {
			// One band: no rule between the lines, in the head or in a
			// body whose rows rules separate.
			// A rule drawn between the two lines ends the row: a cell's
			// text does not wrap across a rule.
			band := inHead(rows[i]) && inHead(rows[i-1]) || ruledRows && bandOf(rows[i]) == bandOf(rows[i-1])
			if centred[bandOf(rows[i])] && bandOf(rows[i]) == bandOf(rows[i-1]) || !ruled(i) && wraps(lineCells[first[n-1]], lineCells[i-1], lineCells[i], band) {
				for k, c := range lineCells[i] {
					out[n-1][k] = append(out[n-1][k], c...)
				}
				continue
			}
		}
		out = append(out, lineCells[i])
		first = append(first, i)
	}
	// A column no piece went to (a cut between two runs of one column's
	// pieces) is left out.
	used := make([]bool, len(cols))
	for _, r := range out {
		for k, c := range r {
			used[k] = used[k] || len(c) > 0
		}
	}
	cells := make([][]string, len(out))
	for i, r := range out {
		for k, c := range r {
			if used[k] {
				cells[i] = append(cells[i], joinPieces(c))
			}
		}
	}
	return cells
}

// span is a run of x, x0 to x1.
type span struct{ x0, x1 float64 }

// cutIn reports whether one of the cuts (column boundaries drawn as
// vertical rules or shown by aligned starts) lies between a column begun
// before it and an interval starting at x, within a point.
func cutIn(cuts []float64, col span, x float64) bool {
	for _, c := range cuts {
		if col.x0 < c-1 && col.x1 <= c+1 && x >= c-1 {
			return true
		}
	}
	return false
}

// fullRules returns the heights, ascending, of the rules inside box (not
// at its top or bottom edge) that span at least 90 % of its width: the
// rules between a table's rows or groups of rows.
func fullRules(h []pdf.Rect, box pdf.Rect) []float64 {
	var full []float64
	for _, r := range h {
		y := (r.Y0 + r.Y1) / 2
		if r.Width() >= 0.9*box.Width() && y > box.Y0+3 && y < box.Y1-3 {
			full = append(full, y)
		}
	}
	sort.Float64s(full)
	return dedupe(full)
}

// wraps reports whether a line of a table (its cells, by column)
// continues the row above it (whose first line is first, and whose last
// line is prev) rather than starting a row. A line holding a number
// starts a row (a row of data has its own line; wrapped text is words).
// In one band (band: no rule between the two lines, in the head band or
// in a body whose rows rules separate) every line continues the row: head
// cells wrap and are set centred, so their lines interleave, and a ruled
// row holds its wrapped lines. In the body a line continues the row when each of its
// cells lies under text of the line above (the text of a cell wrapping in
// its column) and it fills fewer columns than the row's first line.
func wraps(first, prev, line [][]piece, band bool) bool {
	filled := func(cs [][]piece) int {
		n := 0
		for _, c := range cs {
			if len(c) > 0 {
				n++
			}
		}
		return n
	}
	for _, c := range line {
		if len(c) > 0 && dataCell(c) {
			return false
		}
	}
	if band {
		return true
	}
	for k, c := range line {
		if len(c) > 0 && len(prev[k]) == 0 {
			return false
		}
	}
	return filled(line) < filled(first)
}

// dataCell reports whether the pieces of a cell are mostly numbers (or
// placeholders of a number: a dash, n/a, a check mark).
func dataCell(c []piece) bool {
	tokens, numbers := 0, 0
	for _, p := range c {
		for _, t := range strings.Fields(p.text) {
			tokens++
			if isNumberToken(t) {
				numbers++
			}
		}
	}
	return numbers > 0 && numbers*2 >= tokens
}

func dedupe(xs []float64) []float64 {
	var out []float64
	for _, x := range xs {
		if n := len(out); n > 0 && x-out[n-1] <= 2 {
			continue
		}
		out = append(out, x)
	}
	return out
}

func medianLineSize(lines []*Line) float64 {
	s := make([]float64, len(lines))
	for i, l := range lines {
		s[i] = l.Size
	}
	return math.Max(median(s), 4)
}

// baselines counts the distinct baselines of pieces (within 0.35 of their
// font size).
func baselines(ps []piece) int {
	bs := make([]float64, 0, len(ps))
	for _, p := range ps {
		bs = append(bs, p.base)
	}
	sort.Float64s(bs)
	n := 0
	last := math.Inf(-1)
	for i, b := range bs {
		if b-last > 0.35*ps[0].size || i == 0 {
			n++
			last = b
		}
	}
	return n
}
