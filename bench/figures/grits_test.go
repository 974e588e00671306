package main

import (
	"math"
	"testing"
)

func TestGritsCon(t *testing.T) {
	table := [][]string{
		{"Name", "Type", "Size"},
		{"alpha", "int", "4"},
		{"beta", "float", "8"},
		{"gamma", "char", "1"},
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if f, p, r := gritsCon(table, table); !near(f, 1) || !near(p, 1) || !near(r, 1) {
		t.Errorf("identical tables: GriTS-Con %v (precision %v, recall %v), want 1", f, p, r)
	}
	// A row the reference drops costs that row only, not every row after
	// it, unlike the cell share at one shift.
	dropped := [][]string{table[0], table[2], table[3]}
	f, p, r := gritsCon(dropped, table)
	if !near(r, 1) || !near(p, 9.0/12) {
		t.Errorf("reference without a row: precision %v recall %v, want 0.75 and 1", p, r)
	}
	if f < 0.85 || f >= 1 {
		t.Errorf("reference without a row: GriTS-Con %v, want in [0.85, 1)", f)
	}
	// Columns swapped: only one of them can be aligned in order.
	swapped := make([][]string, len(table))
	for i, row := range table {
		swapped[i] = []string{row[1], row[0], row[2]}
	}
	if f, _, _ := gritsCon(table, swapped); f > 0.7 {
		t.Errorf("columns swapped: GriTS-Con %v, want at most 0.7", f)
	}
	// A partly right cell counts in part (LCS similarity).
	typo := [][]string{{"Name", "Type", "Size"}, {"alpha", "int", "4"}, {"betta", "float", "8"}, {"gamma", "char", "1"}}
	if f, _, _ := gritsCon(table, typo); f >= 1 || f < 0.95 {
		t.Errorf("one cell off by a letter: GriTS-Con %v, want in [0.95, 1)", f)
	}
	if f, _, _ := gritsCon(table, nil); f != 0 {
		t.Errorf("no prediction: GriTS-Con %v, want 0", f)
	}
	// Ragged rows are padded, not dropped.
	if f, _, _ := gritsCon([][]string{{"a", "b"}, {"c"}}, [][]string{{"a", "b"}, {"c", ""}}); !near(f, 1) {
		t.Errorf("ragged against padded: GriTS-Con %v, want 1", f)
	}
}
