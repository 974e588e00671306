package layout

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/crossmem/crossmem/internal/corpustest"
)

func TestGapStats(t *testing.T) {
	if os.Getenv("GAPSTATS") == "" {
		t.Skip()
	}
	corpus := corpustest.Dir(t)
	files, _ := filepath.Glob(filepath.Join(corpus, "pdf", os.Getenv("GAPSTATS")))
	var spaced, unspaced []float64
	for _, f := range files {
		for _, p := range readPages(t, f) {
			i := p.Number
			var prev *int
			sp := false
			for k := range p.Chars {
				c := p.Chars[k]
				if isSpace(c.Rune) || c.Rune == 0 {
					if c.Rune == '\r' || c.Rune == '\n' {
						prev = nil
					}
					sp = sp || isSpace(c.Rune)
					continue
				}
				if prev != nil {
					a := p.Chars[*prev]
					s := min(a.Size, c.Size)
					if s > 0 && max(a.Size, c.Size) < 1.2*s && c.Box.X0 > a.Box.X0 {
						g := (c.Box.X0 - a.Box.X1) / s
						if sp {
							spaced = append(spaced, g)
						} else {
							unspaced = append(unspaced, g)
							if g > 0.12 && os.Getenv("GAPSHOW") != "" {
								ctx := ""
								for j := max(0, k-12); j < min(len(p.Chars), k+8); j++ {
									if j == k {
										ctx += "|"
									}
									ctx += string(p.Chars[j].Rune)
								}
								fmt.Printf("%s p%d %.2f %q\n", filepath.Base(f), i, g, ctx)
							}
						}
					}
				}
				kk := k
				prev = &kk
				sp = false
			}
		}
	}
	if len(spaced) == 0 || len(unspaced) == 0 {
		t.Fatalf("no glyph gaps measured in %q", os.Getenv("GAPSTATS"))
	}
	sort.Float64s(spaced)
	sort.Float64s(unspaced)
	q := func(v []float64, f float64) float64 { return v[int(f*float64(len(v)-1))] }
	fmt.Printf("spaced n=%d p1=%.3f p5=%.3f p10=%.3f p50=%.3f\n", len(spaced), q(spaced, .01), q(spaced, .05), q(spaced, .1), q(spaced, .5))
	fmt.Printf("unspaced n=%d p50=%.3f p90=%.3f p99=%.3f p99.9=%.3f p99.99=%.3f\n", len(unspaced), q(unspaced, .5), q(unspaced, .9), q(unspaced, .99), q(unspaced, .999), q(unspaced, .9999))
	for _, th := range []float64{0.08, 0.1, 0.12, 0.15, 0.18, 0.2} {
		n := 0
		for _, g := range unspaced {
			if g > th {
				n++
			}
		}
		fmt.Printf("  unspaced > %.2f: %d\n", th, n)
	}
}
