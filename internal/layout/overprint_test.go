package layout

import (
	"math"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/pdf"
)

// dropOverprintMap is dropOverprint as it was written first (a map probed
// in the nine neighbouring grid cells for every character): the reference
// the sorted scan must agree with.
func dropOverprintMap(cs []pdf.Char) []pdf.Char {
	type key struct {
		r    rune
		x, y int
	}
	seen := map[key][]pdf.Rect{}
	out := cs[:0:0]
	for i, c := range cs {
		if c.Generated || isSpace(c.Rune) || c.Rune == 0 || c.Box.Width() <= 0 {
			out = append(out, c)
			continue
		}
		if i > 0 && cs[i-1].Box == c.Box {
			out = append(out, c)
			continue
		}
		gx, gy := int(c.Box.X0/4), int(c.Box.Y0/4)
		dup := false
		for dx := -1; dx <= 1 && !dup; dx++ {
			for dy := -1; dy <= 1 && !dup; dy++ {
				for _, b := range seen[key{c.Rune, gx + dx, gy + dy}] {
					if math.Abs(b.X0-c.Box.X0) < 0.1*c.Size && math.Abs(b.Y0-c.Box.Y0) < 0.1*c.Size {
						dup = true
						break
					}
				}
			}
		}
		if dup {
			continue
		}
		k := key{c.Rune, gx, gy}
		seen[k] = append(seen[k], c.Box)
		out = append(out, c)
	}
	return out
}

func sameChars(a, b []pdf.Char) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		// NaN boxes compare unequal to themselves: compare bits.
		x, y := a[i], b[i]
		for _, p := range [][2]float64{{x.Box.X0, y.Box.X0}, {x.Box.Y0, y.Box.Y0}, {x.Box.X1, y.Box.X1}, {x.Box.Y1, y.Box.Y1}, {x.Size, y.Size}} {
			if math.Float64bits(p[0]) != math.Float64bits(p[1]) {
				return false
			}
		}
		x.Box, y.Box, x.Size, y.Size = pdf.Rect{}, pdf.Rect{}, 0, 0
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

// TestDropOverprintCorpus: on every page of the corpus, and on each page
// with every character drawn twice (shifted by less and by more than the
// tolerance), the sorted scan keeps exactly what the map version keeps.
func TestDropOverprintCorpus(t *testing.T) {
	corpustest.Slow(t, "reads every corpus PDF")
	files, _ := filepath.Glob(filepath.Join(corpustest.Dir(t, "pdf"), "*.pdf"))
	if len(files) == 0 {
		t.Fatal("no corpus PDFs")
	}
	dropped := 0
	for _, f := range files {
		for _, p := range readPages(t, f) {
			twice := append([]pdf.Char(nil), p.Chars...)
			for i, c := range p.Chars {
				c.Box.X0 += float64(i%3) * 0.06 * c.Size // 0, 0.06 (a copy) or 0.12 (not) of the size
				twice = append(twice, c)
			}
			for _, cs := range [][]pdf.Char{p.Chars, twice} {
				want, got := dropOverprintMap(cs), dropOverprint(cs)
				if !sameChars(got, want) {
					t.Fatalf("%s page %d (%d characters): sorted scan keeps %d, the map version %d", filepath.Base(f), p.Number, len(cs), len(got), len(want))
				}
				dropped += len(cs) - len(want)
			}
		}
	}
	if dropped == 0 {
		t.Error("no character was dropped: the test compares nothing")
	}
}

// FuzzDropOverprint: the sorted scan agrees with the map version on
// characters made from any bytes (close, far, NaN and huge coordinates).
func FuzzDropOverprint(f *testing.F) {
	f.Add([]byte("aaaabbbbccccdddd"), 1.0)
	f.Add([]byte{0, 1, 2, 3, 0, 1, 2, 3, 255, 255, 0, 0}, 10.0)
	f.Add([]byte("xy\x00\x01xy\x00\x02xy\x01\x01"), 1e20)
	f.Fuzz(func(t *testing.T, data []byte, scale float64) {
		var cs []pdf.Char
		for len(data) >= 4 {
			x, y := float64(int8(data[1]))*scale/8, float64(int8(data[2]))*scale/8
			if data[3] == 255 {
				x = math.NaN()
			}
			cs = append(cs, pdf.Char{Rune: rune("ab c"[data[0]%4]), Box: pdf.Rect{X0: x, Y0: y, X1: x + 1 + float64(data[3]%4), Y1: y + 2}, Size: float64(data[3]%16) + 0.5, Generated: data[3] == 7})
			data = data[4:]
		}
		if want, got := dropOverprintMap(cs), dropOverprint(cs); !sameChars(got, want) {
			t.Fatalf("sorted scan keeps %d of %d characters, the map version %d", len(got), len(cs), len(want))
		}
	})
}
