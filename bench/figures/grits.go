package main

import (
	"fmt"

	"github.com/crossmem/crossmem/internal/quote"
)

// GriTS-Con (grid table similarity, content; Smock, Pesala and Abraham,
// "GriTS: Grid table similarity metric for table structure recognition",
// ICDAR 2023; the measure of PubTables-1M) compares two tables as grids
// of cell texts without asking that their rows and columns be numbered
// alike: it finds the rows of the two grids that correspond (an
// order-keeping alignment, the best by the similarity of their cells)
// and likewise the columns, then sums the similarity of the cells at the
// aligned rows and columns. Recall divides that sum by the reference
// grid's cell count, precision by ours; GriTS-Con is their harmonic
// mean, 1 for identical tables.
//
// The cell measure compares cell texts as the rest of the bench does
// (quote.Key, dot leaders dropped): 2·LCS/(|a|+|b|) over their runes, 1
// for two empty cells. Alignments use the factored approximation of the
// paper (rows and columns aligned separately), which is what its
// reference code computes.
//
// The cell share (cellShare) asks more: every cell at its own row and
// column after one shift of the whole table, so a row the reference
// drops or merges moves every later row. GriTS-Con is reported beside it
// so that such a slip on either side shows as what it is, one row.

// maxCellRunes bounds the LCS of two cells (quadratic in their length).
const maxCellRunes = 300

// gritsCon returns GriTS-Con of pred against truth, and its precision
// and recall, all in [0, 1]. Ragged rows are padded with empty cells.
func gritsCon(truth, pred [][]string) (f, precision, recall float64) {
	t, p := keyGrid(truth), keyGrid(pred)
	nt, np := cells(t), cells(p)
	if nt == 0 || np == 0 {
		if nt == np {
			return 1, 1, 1
		}
		return 0, 0, 0
	}
	tr, pr := alignOuter(t, p)
	tc, pc := alignOuter(transpose(t), transpose(p))
	var score float64
	for i := range tr {
		for j := range tc {
			score += lcsSimilarity(t[tr[i]][tc[j]], p[pr[i]][pc[j]])
		}
	}
	precision, recall = score/float64(np), score/float64(nt)
	if precision+recall == 0 {
		return 0, precision, recall
	}
	return 2 * precision * recall / (precision + recall), precision, recall
}

// keyGrid returns g as a rectangular grid of runes of each cell's
// comparison key.
func keyGrid(g [][]string) [][][]rune {
	cols := 0
	for _, row := range g {
		cols = max(cols, len(row))
	}
	out := make([][][]rune, len(g))
	for i, row := range g {
		out[i] = make([][]rune, cols)
		for j, c := range row {
			r := []rune(quote.Key(noLeaders(glyphName.ReplaceAllString(c, ""))))
			out[i][j] = r[:min(len(r), maxCellRunes)]
		}
	}
	return out
}

func cells(g [][][]rune) int {
	if len(g) == 0 {
		return 0
	}
	return len(g) * len(g[0])
}

func transpose(g [][][]rune) [][][]rune {
	if len(g) == 0 {
		return nil
	}
	out := make([][][]rune, len(g[0]))
	for j := range out {
		out[j] = make([][]rune, len(g))
		for i := range g {
			out[j][i] = g[i][j]
		}
	}
	return out
}

// alignOuter aligns the rows of a with the rows of b, keeping their
// order, to the greatest total row similarity (align1D of their cells),
// and returns the indices of the aligned rows of each.
func alignOuter(a, b [][][]rune) (ai, bi []int) {
	ai, bi, _ = align(len(a), len(b), func(i, j int) float64 {
		return align1D(a[i], b[j])
	})
	return ai, bi
}

// align1D returns the similarity of two rows: the best order-keeping
// alignment of their cells, its summed cell similarity times 2 over the
// two lengths.
func align1D(a, b [][]rune) float64 {
	if len(a)+len(b) == 0 {
		return 1
	}
	_, _, s := align(len(a), len(b), func(i, j int) float64 { return lcsSimilarity(a[i], b[j]) })
	return 2 * s / float64(len(a)+len(b))
}

// align is the dynamic programme of a global alignment with no gap cost:
// the order-keeping pairing of 0..n-1 with 0..m-1 that maximises the sum
// of reward over the pairs; it returns the pairs and that sum.
func align(n, m int, reward func(i, j int) float64) (ai, bi []int, sum float64) {
	score := make([][]float64, n+1)
	for i := range score {
		score[i] = make([]float64, m+1)
	}
	for i := 1; i <= n; i++ {
		for j := 1; j <= m; j++ {
			score[i][j] = max(score[i-1][j-1]+reward(i-1, j-1), score[i-1][j], score[i][j-1])
		}
	}
	for i, j := n, m; i > 0 && j > 0; {
		switch {
		case score[i][j] == score[i-1][j]:
			i--
		case score[i][j] == score[i][j-1]:
			j--
		default:
			ai, bi = append(ai, i-1), append(bi, j-1)
			i, j = i-1, j-1
		}
	}
	for l, r := 0, len(ai)-1; l < r; l, r = l+1, r-1 {
		ai[l], ai[r] = ai[r], ai[l]
		bi[l], bi[r] = bi[r], bi[l]
	}
	return ai, bi, score[n][m]
}

// lcsSimilarity is 2·LCS(a, b)/(|a|+|b|), 1 when both are empty.
func lcsSimilarity(a, b []rune) float64 {
	if len(a)+len(b) == 0 {
		return 1
	}
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				cur[j] = prev[j-1] + 1
			} else {
				cur[j] = max(prev[j], cur[j-1])
			}
		}
		prev, cur = cur, prev
	}
	return 2 * float64(prev[len(b)]) / float64(len(a)+len(b))
}

// gritsSummary returns the mean GriTS-Con of the tables and how many
// reach 0.9, or "–" when there are none.
func gritsSummary(gs []float64) string {
	if len(gs) == 0 {
		return "–"
	}
	var sum float64
	n := 0
	for _, g := range gs {
		sum += g
		if g >= 0.9 {
			n++
		}
	}
	return fmt.Sprintf("mean %.3f; ≥ 0.9: %d/%d", sum/float64(len(gs)), n, len(gs))
}
