// Command inspect holds the development aids for the layout and chunk
// stages: printouts a developer reads while tuning a rule, not tests (they
// assert nothing). Run from the repository root:
//
//	go run ./bench/inspect dump FILE.pdf[:PAGE]   # the outline, blocks and lines layout finds (DUMP_SHORT=1: one line per block; DUMP_LINES=1: line boxes; DUMP_FLOATS=1: the float finder's decisions)
//	go run ./bench/inspect gaps 'GLOB'            # glyph-gap statistics, between glyphs with and without a space (GAPSHOW=1: the unspaced gaps over 0.12 em)
//	go run ./bench/inspect calib 'GLOB'           # the text-layer trust check (chunk.Assess) of every page, with its diagnosis
//	go run ./bench/inspect tables 'GLOB'          # every table chunk as the note shows it, with its caption
//	go run ./bench/inspect boxes FILE.pdf:PAGE=OUT.png # the page drawn with every chunk's box (figures red, tables green, captions orange, the rest blue)
//
// A GLOB is matched against file names as given; for the shared corpus use
// '../shared/corpus/pdf/*.pdf'. They were TestDump, TestGapStats
// (internal/layout) and TestCalib (internal/chunk), behind flags, until
// issue 10 moved them here.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/crossmem/crossmem/bench/internal/corpus"
	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/layout"
	"github.com/crossmem/crossmem/internal/pdf"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: inspect dump FILE.pdf[:PAGE] | gaps GLOB | calib GLOB | tables GLOB | boxes FILE.pdf:PAGE=OUT.png")
		os.Exit(2)
	}
	ctx := context.Background()
	e, err := pdf.Open(ctx, pdf.Options{CacheDir: corpus.WazeroCache()})
	if err != nil {
		fmt.Fprintln(os.Stderr, "inspect:", err)
		os.Exit(1)
	}
	defer e.Close()
	switch os.Args[1] {
	case "dump":
		err = dump(ctx, e, os.Args[2])
	case "gaps":
		err = gaps(ctx, e, os.Args[2])
	case "calib":
		err = calib(ctx, e, os.Args[2])
	case "tables":
		err = tables(ctx, e, os.Args[2])
	case "boxes":
		err = boxes(ctx, e, os.Args[2])
	default:
		err = fmt.Errorf("unknown aid %q: use dump, gaps, calib, tables or boxes", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "inspect:", err)
		os.Exit(1)
	}
}

func readPages(ctx context.Context, e *pdf.Engine, path string) ([]*pdf.Page, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	pages, err := e.Pages(ctx, data, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return pages, nil
}

func glob(pattern string) ([]string, error) {
	files, err := filepath.Glob(pattern)
	if err == nil && len(files) == 0 {
		err = fmt.Errorf("no file matches %q", pattern)
	}
	return files, err
}

// dump prints the outline and the layout of file.pdf[:page], as compile
// lays it out (layout.Document).
func dump(ctx context.Context, e *pdf.Engine, arg string) error {
	path, pageArg, _ := strings.Cut(arg, ":")
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	pages, s, err := e.Read(ctx, data, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	for _, o := range s.Outline {
		fmt.Printf("outline L%d p%d x=%.0f y=%.0f %q\n", o.Level, o.Page, o.X, o.Y, o.Title)
	}
	if os.Getenv("DUMP_FLOATS") != "" {
		*layout.DebugFloats = func(format string, args ...any) { fmt.Printf("floats: "+format+"\n", args...) }
	}
	st := layout.DocumentStats(pages)
	fmt.Printf("body size %.1f bold %v\n", st.BodySize, st.BodyBold)
	for _, lp := range layout.Document(pages, s) {
		if pageArg != "" {
			if n, _ := strconv.Atoi(pageArg); n != lp.Number {
				continue
			}
		}
		fmt.Printf("=== page %d (%d chars, %d blocks, %.0fx%.0f)\n", lp.Number, lp.Chars, len(lp.Blocks), lp.Width, lp.Height)
		for _, f := range lp.Floats {
			c := ""
			if f.Caption != nil {
				c = fmt.Sprintf(" caption p%d %q", f.CaptionPage, f.Caption.Label)
			}
			fmt.Printf("float %s [%.0f %.0f %.0f %.0f]%s\n", f.Kind, f.Box.X0, f.Box.Y0, f.Box.X1, f.Box.Y1, c)
		}
		for _, b := range lp.Blocks {
			if os.Getenv("DUMP_SHORT") != "" {
				t := strings.ReplaceAll(b.Text(), "\n", " ")
				if len(t) > 70 {
					t = t[:70]
				}
				fmt.Printf("%-9s x=%3.0f-%3.0f y=%3.0f-%3.0f %s\n", b.Kind, b.Box.X0, b.Box.X1, b.Box.Y0, b.Box.Y1, t)
				continue
			}
			sec := ""
			if b.Section != nil {
				sec = fmt.Sprintf(" section=%q L%d", b.Section.Title, b.Section.Level)
			}
			if b.Continues {
				sec += " continues"
			}
			fmt.Printf("--- %s [%.0f %.0f %.0f %.0f] size=%.1f%s\n", b.Kind, b.Box.X0, b.Box.Y0, b.Box.X1, b.Box.Y1, b.Size(), sec)
			for _, l := range b.Lines {
				if os.Getenv("DUMP_LINES") != "" {
					fmt.Printf("[%5.1f %5.1f b=%5.1f s=%4.1f bold=%v] ", l.Box.X0, l.Box.X1, l.Base, l.Size, l.Bold)
				}
				fmt.Println(l.Text)
			}
		}
	}
	return nil
}

func isSpace(r rune) bool { return unicode.IsSpace(r) || r == 0xA0 }

// gaps prints the distribution of the gaps between consecutive glyphs of
// similar size, in em, split by whether the text layer has a space there.
func gaps(ctx context.Context, e *pdf.Engine, pattern string) error {
	files, err := glob(pattern)
	if err != nil {
		return err
	}
	var spaced, unspaced []float64
	for _, f := range files {
		pages, err := readPages(ctx, e, f)
		if err != nil {
			return err
		}
		for _, p := range pages {
			prev := -1
			sp := false
			for k, c := range p.Chars {
				if isSpace(c.Rune) || c.Rune == 0 {
					if c.Rune == '\r' || c.Rune == '\n' {
						prev = -1
					}
					sp = sp || isSpace(c.Rune)
					continue
				}
				if prev >= 0 {
					a := p.Chars[prev]
					s := min(a.Size, c.Size)
					if s > 0 && max(a.Size, c.Size) < 1.2*s && c.Box.X0 > a.Box.X0 {
						g := (c.Box.X0 - a.Box.X1) / s
						if sp {
							spaced = append(spaced, g)
						} else {
							unspaced = append(unspaced, g)
							if g > 0.12 && os.Getenv("GAPSHOW") != "" {
								var ctx strings.Builder
								for j := max(0, k-12); j < min(len(p.Chars), k+8); j++ {
									if j == k {
										ctx.WriteString("|")
									}
									ctx.WriteRune(p.Chars[j].Rune)
								}
								fmt.Printf("%s p%d %.2f %q\n", filepath.Base(f), p.Number, g, ctx.String())
							}
						}
					}
				}
				prev, sp = k, false
			}
		}
	}
	if len(spaced) == 0 || len(unspaced) == 0 {
		return fmt.Errorf("no glyph gaps measured in %q", pattern)
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
	return nil
}

// calib prints, for every page, whether the text layer passes the trust
// check and why.
func calib(ctx context.Context, e *pdf.Engine, pattern string) error {
	files, err := glob(pattern)
	if err != nil {
		return err
	}
	for _, f := range files {
		pages, err := readPages(ctx, e, f)
		if err != nil {
			return err
		}
		st := layout.DocumentStats(pages)
		for _, p := range pages {
			lp := layout.Analyze(p, st)
			ok, _ := chunk.Assess(lp)
			fmt.Printf("%s p%d %s %v\n", filepath.Base(f), p.Number, chunk.Diagnose(lp), ok)
		}
	}
	return nil
}
