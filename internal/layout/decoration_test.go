package layout

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/crossmem/crossmem/internal/pdf"
)

// dropDecorationReference is dropDecoration's rule written the plain
// way (every bare figure against every float of the document): what the
// grid-indexed version must agree with.
func dropDecorationReference(pages []*Page) map[*Float]bool {
	minRepeat := 3
	if len(pages) <= 4 {
		minRepeat = 2
	}
	bare := func(f *Float) bool { return f.Kind == Figure && f.Text == nil && f.Caption == nil }
	drop := map[*Float]bool{}
	for _, p := range pages {
		for _, f := range p.Floats {
			n := 0
			if bare(f) {
				for _, o := range pages {
					for _, g := range o.Floats {
						if bare(g) && math.Abs(g.Box.X0-f.Box.X0) <= 2 && math.Abs(g.Box.X1-f.Box.X1) <= 2 && math.Abs(g.Box.Y0-f.Box.Y0) <= 2 && math.Abs(g.Box.Y1-f.Box.Y1) <= 2 {
							n++
							break
						}
					}
				}
			}
			drop[f] = n >= minRepeat
		}
	}
	return drop
}

// dropDecoration drops exactly the floats the plain rule drops, on random
// documents whose figures sit at a few places with offsets around the
// 2-point tolerance (0, ±1.5, ±2, just over 2, 3), on cell boundaries and
// off them, some with text or a caption, some tables, one with a NaN
// coordinate.
func TestDropDecorationAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	offsets := []float64{0, 0, 0, 1.5, -1.5, 2, -2, 2.0000001, -2.0000001, 3, 0.999, 1}
	places := []pdf.Rect{{X0: 72, Y0: 700, X1: 140, Y1: 760}, {X0: 71, Y0: 31, X1: 541, Y1: 41}, {X0: 300.5, Y0: 20.25, X1: 312.75, Y1: 30}, {X0: 0, Y0: 0, X1: 612, Y1: 792}}
	for round := range 300 {
		var pages []*Page
		for i := range 1 + rng.IntN(8) {
			p := &Page{Number: i + 1}
			for range rng.IntN(5) {
				r := places[rng.IntN(len(places))]
				r.X0 += offsets[rng.IntN(len(offsets))]
				r.Y0 += offsets[rng.IntN(len(offsets))]
				r.X1 += offsets[rng.IntN(len(offsets))]
				r.Y1 += offsets[rng.IntN(len(offsets))]
				f := &Float{Kind: Figure, Box: r}
				switch rng.IntN(12) {
				case 0:
					f.Kind = Table
				case 1:
					f.Text = &Block{Kind: FigureText}
				case 2:
					f.Caption = &Block{Kind: Caption}
				case 3:
					f.Box.Y1 = math.NaN()
				}
				p.Floats = append(p.Floats, f)
			}
			pages = append(pages, p)
		}
		want := dropDecorationReference(pages)
		before := make([][]*Float, len(pages))
		for i, p := range pages {
			before[i] = slices.Clone(p.Floats)
		}
		dropDecoration(pages)
		for i, p := range pages {
			var kept []*Float
			for _, f := range before[i] {
				if !want[f] {
					kept = append(kept, f)
				}
			}
			if !slices.Equal(kept, p.Floats) {
				t.Fatalf("round %d, page %d: kept %d floats of %d, the plain rule keeps %d", round, i+1, len(p.Floats), len(before[i]), len(kept))
			}
		}
	}
}

// A hostile document of many bare figures, none repeated (3,000 pages of
// 50 image tiles each): the decoration check compares each with its
// neighbours in the grid only. Comparing every figure with every page's
// (2·10¹⁰ box comparisons) took 170 s of CPU.
func TestDropDecorationManyFloats(t *testing.T) {
	var pages []*Page
	for i := range 3000 {
		p := &Page{Number: i + 1}
		for j := range 50 {
			x, y, h := float64(10*j), float64(7*(i%100)), float64(5+3*(i/100))
			p.Floats = append(p.Floats, &Float{Kind: Figure, Box: pdf.Rect{X0: x, Y0: y, X1: x + 8, Y1: y + h}})
		}
		pages = append(pages, p)
	}
	done := make(chan struct{})
	go func() {
		dropDecoration(pages)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("dropDecoration did not return in 20 s")
	}
}
