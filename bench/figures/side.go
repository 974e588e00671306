package main

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/quote"
)

// A docling table the bench counts as missed is shown with the first
// rows of both sides next to each other, so that a reader sees whose
// rows they are: docling's grid (its cells placed at their start row and
// column) and ours (the best-overlapping table chunk's cells, or, when
// no table chunk overlaps the table, the lines of the chunk of any type
// that overlaps it most). Only the report changes; how the score is
// computed does not.

// sideRows is how many rows of each side are shown.
const sideRows = 8

type sideBySide struct {
	title         string
	docling, ours [][]string
	oursName      string
}

// doclingGrid places docling's cells at their start row and column.
func doclingGrid(rows, cols int, cells []doclingCell) [][]string {
	rows, cols = min(rows, 1000), min(cols, 100)
	g := make([][]string, rows)
	for i := range g {
		g[i] = make([]string, cols)
	}
	for _, c := range cells {
		if c.Row >= 0 && c.Row < rows && c.Col >= 0 && c.Col < cols {
			g[c.Row][c.Col] = strings.Join(strings.Fields(c.Text), " ")
		}
	}
	return g
}

type chunkRows struct {
	name string
	rows [][]string
}

// overlapping returns the rows of the chunk on page whose bbox overlaps
// box the most (a table chunk's cells; another chunk's lines, one cell
// each), named by its type and id.
func overlapping(chunks []chunk.Chunk, page int, box [4]float64) chunkRows {
	best, bi := 0.0, -1
	for i, c := range chunks {
		if c.Page != page {
			continue
		}
		if v := within(c.BBox, box) * area(c.BBox); v > best {
			best, bi = v, i
		}
	}
	if bi < 0 {
		return chunkRows{name: "no chunk overlaps it"}
	}
	c := chunks[bi]
	if c.Type == chunk.TypeTable {
		return chunkRows{"table chunk " + c.ID, chunk.Cells(c.Text)}
	}
	var rows [][]string
	for _, l := range strings.Split(c.Text, "\n") {
		rows = append(rows, []string{l})
	}
	return chunkRows{c.Type + " chunk " + c.ID + ", its lines", rows}
}

func area(b [4]float64) float64 { return math.Max(0, b[2]-b[0]) * math.Max(0, b[3]-b[1]) }

// write prints the first sideRows rows of both sides as a markdown
// table of three columns: row number, docling's cells, ours (cells of a
// row joined by " ¦ ", each cut to 60 characters).
func (s sideBySide) write(w io.Writer) {
	fmt.Fprintln(w, "| row | docling | ours |")
	fmt.Fprintln(w, "| --- | --- | --- |")
	row := func(g [][]string, i int) string {
		if i >= len(g) {
			return ""
		}
		var cs []string
		for _, c := range g[i] {
			cs = append(cs, head(c, 60))
		}
		return strings.ReplaceAll(strings.Join(cs, " ¦ "), "|", `\|`)
	}
	n := min(sideRows, max(len(s.docling), len(s.ours)))
	for i := range n {
		fmt.Fprintf(w, "| %d | %s | %s |\n", i+1, row(s.docling, i), row(s.ours, i))
	}
	// When the first rows agree, the rows from the first that does not
	// (where the two sides part) are shown too.
	d := firstDifference(s.docling, s.ours)
	if d < n {
		return
	}
	fmt.Fprintln(w, "| … | | |")
	for i := max(n, d-2); i < min(d+sideRows, max(len(s.docling), len(s.ours))); i++ {
		fmt.Fprintf(w, "| %d | %s | %s |\n", i+1, row(s.docling, i), row(s.ours, i))
	}
}

// firstDifference returns the index of the first row whose non-empty
// cells differ between a and b (compared by quote.Key with every dot left
// out: where a cell's box cut a dot leader is no difference), len of the
// longer when none does.
func firstDifference(a, b [][]string) int {
	key := func(g [][]string, i int) string {
		if i >= len(g) {
			return ""
		}
		var ks []string
		for _, c := range g[i] {
			if k := quote.Key(strings.ReplaceAll(c, ".", "")); k != "" {
				ks = append(ks, k)
			}
		}
		return strings.Join(ks, "\x00")
	}
	n := max(len(a), len(b))
	for i := range n {
		if key(a, i) != key(b, i) {
			return i
		}
	}
	return n
}
