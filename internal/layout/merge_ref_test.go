package layout

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/pdf"
)

// mergeRegionsRef is mergeRegions as it was before it kept its candidate
// pairs between joins: every pair scanned again after each join. It is
// the reference the faster form must agree with.
func mergeRegionsRef(rs []*region, st Stats) []*region {
	for changed := true; changed; {
		changed = false
	outer:
		for i, a := range rs {
			for j, b := range rs {
				if i == j {
					continue
				}
				if joinsLocally(a, b, st) && nothingBetween(a, b, rs) {
					for _, l := range b.lines {
						a.add(l)
					}
					a.seq = min(a.seq, b.seq)
					rs = append(rs[:j], rs[j+1:]...)
					changed = true
					break outer
				}
			}
		}
	}
	return rs
}

// randomRegions returns n regions of one to three lines each in a few
// columns and sizes, prose and short lines, some centred: shapes where
// joins depend on what lies between and on the order they are made in.
func randomRegions(rng *rand.Rand, n int) []*region {
	words := strings.Fields("the of a model results show that we in which data table value is and for")
	var rs []*region
	for i := range n {
		r := &region{seq: i}
		size := []float64{9, 10, 10, 10, 12}[rng.Intn(5)]
		x0 := []float64{72, 72, 310, 150}[rng.Intn(4)]
		y := 720 - float64(rng.Intn(60))*size*1.2
		for k := range 1 + rng.Intn(3) {
			nw := 1 + rng.Intn(12)
			var t []string
			for range nw {
				t = append(t, words[rng.Intn(len(words))])
			}
			if rng.Intn(3) == 0 {
				t[len(t)-1] += "."
			}
			w := float64(len(strings.Join(t, " "))) * size * 0.5
			lx := x0
			if rng.Intn(5) == 0 {
				lx = 300 - w/2 // centred
			}
			base := y - float64(k)*size*1.2
			r.add(&Line{Text: strings.Join(t, " "), Size: size, Base: base, Ink: nw * 4,
				Box: pdf.Rect{X0: lx, Y0: base - 0.2*size, X1: lx + w, Y1: base + 0.8*size}})
		}
		rs = append(rs, r)
	}
	return rs
}

func regionsKey(rs []*region) string {
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "%d:", r.seq)
		for _, l := range r.lines {
			fmt.Fprintf(&b, "[%.1f %.1f %s]", l.Box.X0, l.Base, l.Text)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func TestMergeRegionsAgreesWithReference(t *testing.T) {
	st := Stats{BodySize: 10, Leading: 12}
	joins := 0
	for seed := range int64(300) {
		a := randomRegions(rand.New(rand.NewSource(seed)), 5+int(seed%40))
		b := randomRegions(rand.New(rand.NewSource(seed)), 5+int(seed%40))
		n := len(a)
		got, want := regionsKey(mergeRegions(a, st)), regionsKey(mergeRegionsRef(b, st))
		if got != want {
			t.Fatalf("seed %d: mergeRegions\n%s\nreference\n%s", seed, got, want)
		}
		joins += n - strings.Count(got, "\n")
	}
	// The inputs must exercise joins, or agreeing says nothing.
	t.Logf("%d joins", joins)
	if joins < 100 {
		t.Fatalf("only %d joins over the random pages: the test inputs do not exercise mergeRegions", joins)
	}
}

// BenchmarkMergeRegionsHostile is a page of 1,000 short monospaced lines
// two by two, each pair its own region (a listing the stream wrote in
// pieces): cubic before the candidate pairs were kept.
func BenchmarkMergeRegionsHostile(b *testing.B) {
	fonts := []pdf.Font{{Name: "Courier"}}
	p := newPen(72, 19900, 4)
	for i := range 1000 {
		p.text("int x = 1;").gen(1.5).text("12").newline(72)
		if i%2 == 0 {
			p.y -= 8
		}
	}
	for k := range p.chars {
		p.chars[k].Font = 0
	}
	page := &pdf.Page{Number: 1, Width: 2000, Height: 20000, Chars: p.chars, Fonts: fonts}
	st := DocumentStats([]*pdf.Page{page})
	for b.Loop() {
		Analyze(page, st)
	}
}
