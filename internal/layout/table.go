package layout

import (
	"math"
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
//     rules: a cell's text wraps inside its band); columns are the runs of
//     x covered by the words of the rows with the most words, separated by
//     gaps of at least half the font size that no such word crosses; a
//     word of another row (a head spanning columns) goes to the column it
//     overlaps most.
//
// A cell's text is the text of its pieces in reading order (top to
// bottom, left to right) joined by one space; a piece is a word of a line
// (the line's text split at its spaces, when that gives the words pdfium
// reports) or a whole line. Every row has the same number of cells.

// piece is a unit of a table's text: a word or a line.
type piece struct {
	text       string
	box        pdf.Rect
	base, size float64
}

func piecesOf(lines []*Line) []piece {
	var out []piece
	for _, l := range lines {
		ws := l.Words()
		fs := strings.Fields(l.Text)
		if len(ws) == len(fs) && len(fs) > 1 {
			for i, w := range ws {
				out = append(out, piece{fs[i], w.Box, l.Base, l.Size})
			}
			continue
		}
		out = append(out, piece{l.Text, l.Box, l.Base, l.Size})
	}
	return out
}

func tableCells(lines []*Line, box pdf.Rect, hRules, vRules []pdf.Rect) [][]string {
	if len(lines) == 0 {
		return nil
	}
	ps := piecesOf(lines)
	var h, v []pdf.Rect
	grow := box
	for _, l := range lines {
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
	xs := positions(v, func(r pdf.Rect) float64 { return (r.X0 + r.X1) / 2 })
	ys := positions(h, func(r pdf.Rect) float64 { return (r.Y0 + r.Y1) / 2 })
	if len(xs) >= 2 && len(ys) >= 2 {
		if cells := lattice(ps, grow, xs, ys, h, v); cells != nil {
			return cells
		}
	}
	return stream(ps, lines, grow, h)
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
func stream(ps []piece, lines []*Line, box pdf.Rect, h []pdf.Rect) [][]string {
	// Rows: baselines, or bands between full-width rules when there are
	// at least two such rules inside the table.
	type prow struct {
		ps   []piece
		base float64
	}
	var rows []*prow
	var full []float64
	for _, r := range h {
		y := (r.Y0 + r.Y1) / 2
		if r.Width() >= 0.9*box.Width() && y > box.Y0+3 && y < box.Y1-3 {
			full = append(full, y)
		}
	}
	sort.Float64s(full)
	full = dedupe(full)
	sorted := append([]piece(nil), ps...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].base > sorted[j].base })
	band := func(p piece) int {
		y := (p.box.Y0 + p.box.Y1) / 2
		return sort.SearchFloat64s(full, y)
	}
	byBand := len(full) >= 2
	for _, p := range sorted {
		if n := len(rows); n > 0 {
			last := rows[n-1]
			same := math.Abs(last.base-p.base) < 0.35*p.size
			if byBand {
				same = band(last.ps[0]) == band(p)
			}
			if same {
				last.ps = append(last.ps, p)
				continue
			}
		}
		rows = append(rows, &prow{ps: []piece{p}, base: p.base})
	}
	// Columns from the rows with the most pieces.
	most := 0
	for _, r := range rows {
		most = max(most, len(r.ps))
	}
	type span struct{ x0, x1 float64 }
	var spans []span
	for _, r := range rows {
		if len(r.ps)*2 < most && len(rows) > 1 {
			continue
		}
		for _, p := range r.ps {
			spans = append(spans, span{p.box.X0, p.box.X1})
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].x0 < spans[j].x0 })
	gap := 0.5 * medianLineSize(lines)
	var cols []span
	for _, s := range spans {
		if n := len(cols); n > 0 && s.x0 < cols[n-1].x1+gap {
			cols[n-1].x1 = math.Max(cols[n-1].x1, s.x1)
			continue
		}
		cols = append(cols, s)
	}
	var out [][]string
	for _, r := range rows {
		cells := make([][]piece, len(cols))
		for _, p := range r.ps {
			best, bestOv := 0, math.Inf(-1)
			for i, c := range cols {
				ov := math.Min(c.x1, p.box.X1) - math.Max(c.x0, p.box.X0)
				if ov > bestOv {
					best, bestOv = i, ov
				}
			}
			cells[best] = append(cells[best], p)
		}
		row := make([]string, len(cols))
		for i, c := range cells {
			row[i] = joinPieces(c)
		}
		out = append(out, row)
	}
	return out
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
