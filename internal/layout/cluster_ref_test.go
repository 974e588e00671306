package layout

import (
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"

	"github.com/crossmem/crossmem/internal/pdf"
)

// clusterRectsRef is clusterRects as it was before its sweep read the
// rectangles side by side: the reference it is checked against.
func clusterRectsRef(rs []pdf.Rect, mark map[int]bool, gap float64) []cluster {
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
	idx := make([]int, len(rs))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return rs[idx[a]].X0 < rs[idx[b]].X0 })
	for a := 0; a < len(idx); a++ {
		ra := rs[idx[a]]
		for b := a + 1; b < len(idx); b++ {
			rb := rs[idx[b]]
			if rb.X0 > ra.X1+gap {
				break
			}
			if rb.Y0 <= ra.Y1+gap && rb.Y1 >= ra.Y0-gap {
				parent[find(idx[a])] = find(idx[b])
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

// TestClusterRectsMatchesReference: clusterRects finds the clusters
// clusterRectsRef does on random pages of rectangles: plot segments on a
// grid (many equal X0), long rules across them, points, marks.
func TestClusterRectsMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for k := range 2000 {
		n := rng.IntN(200)
		rs := make([]pdf.Rect, n)
		mark := map[int]bool{}
		for i := range rs {
			x, y := float64(rng.IntN(60))*10, float64(rng.IntN(80))*10
			w, h := float64(rng.IntN(30)), float64(rng.IntN(30))
			switch rng.IntN(6) {
			case 0:
				w = float64(rng.IntN(500)) // a rule across
			case 1:
				w, h = 0, 0 // a point
			case 2:
				x += rng.Float64()
			}
			rs[i] = pdf.Rect{X0: x, Y0: y, X1: x + w, Y1: y + h}
			if rng.IntN(4) == 0 {
				mark[i] = true
			}
		}
		gap := []float64{0, 4, 12}[k%3]
		got, want := clusterRects(rs, mark, gap), clusterRectsRef(rs, mark, gap)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("page %d (%d rectangles, gap %g): %d clusters, the reference %d\n got %+v\nwant %+v", k, n, gap, len(got), len(want), got, want)
		}
	}
}
