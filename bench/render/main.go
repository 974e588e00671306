// Command render measures how fast the viewer draws a PDF page: pdfium's
// FPDF_RenderPageBitmap (pdf.Document.Render) plus the PNG encoding
// (pdf.Rendering.PNG), what `crossmem serve` does for a page image it has
// not cached, at the width the page view asks first (-width, default 1200
// pixels, as the viewer's src).
//
// Warm: the engine is started and the document open, and each page is
// drawn once before timing (pdfium's font and image caches filled); a
// cached image is a file read and is not measured. Every page of every
// corpus PDF is timed -n times (default 5) on one pdfium instance and its
// minimum is kept (the machine is shared: the minimum is the page's cost,
// the rest is waiting). The report gives the median, 90th percentile and
// maximum over all pages, split into drawing and encoding, and the
// reference measured in the same run: poppler's `pdftoppm -png
// -scale-to-x W -scale-to-y -1 -f N -l N` on the same pages (its minimum of
// -n runs per page, one process per page, so it includes the start of
// pdftoppm and the parsing of the file: an upper bound of poppler's own
// cost). The program exits 1 when the median page is over -max (150 ms,
// issue 16's target).
//
// Usage, from the repository root:
//
//	go run ./bench/render                # summary
//	go run ./bench/render -v             # plus the slowest pages
//	go run ./bench/render -n 3 -width 1600
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/crossmem/crossmem/bench/internal/corpus"
	"github.com/crossmem/crossmem/internal/pdf"
)

type pageTime struct {
	file       string
	page       int
	draw, enc  time.Duration
	poppler    time.Duration
	pixels     int
	pngBytes   int
	popplerErr error
}

func (p pageTime) total() time.Duration { return p.draw + p.enc }

func main() {
	corpusFlag := flag.String("corpus", "", "folder of PDFs (default ../shared/corpus/pdf)")
	n := flag.Int("n", 5, "rounds per page (the minimum is kept)")
	width := flag.Int("width", 1200, "image width in pixels")
	maxMedian := flag.Duration("max", 150*time.Millisecond, "fail when the median page takes longer")
	verbose := flag.Bool("v", false, "list the 10 slowest pages")
	noPoppler := flag.Bool("no-poppler", false, "skip the pdftoppm reference")
	flag.Parse()
	if err := run(*corpusFlag, *n, *width, *maxMedian, *verbose, *noPoppler); err != nil {
		fmt.Fprintln(os.Stderr, "render:", err)
		os.Exit(1)
	}
}

func run(corpusFlag string, n, width int, maxMedian time.Duration, verbose, noPoppler bool) error {
	dir, err := corpus.Dir(corpusFlag)
	if err != nil {
		return err
	}
	files, err := corpus.PDFs(dir)
	if err != nil {
		return err
	}
	e, err := pdf.Open(context.Background(), pdf.Options{CacheDir: corpus.WazeroCache(), Workers: 1})
	if err != nil {
		return err
	}
	defer e.Close()
	pdftoppm, perr := exec.LookPath("pdftoppm")
	if noPoppler {
		perr = fmt.Errorf("skipped")
	}
	var pages []pageTime
	for _, f := range files {
		doc, err := e.OpenFile(f)
		if err != nil {
			fmt.Fprintf(os.Stderr, "render: %s: %v (skipped)\n", filepath.Base(f), err)
			continue
		}
		for p := 1; p <= doc.NumPages(); p++ {
			pt := pageTime{file: filepath.Base(f), page: p, draw: time.Hour, enc: time.Hour, poppler: time.Hour}
			if r, err := doc.Render(p, pdf.RenderOptions{Width: width}); err != nil { // warm-up
				fmt.Fprintf(os.Stderr, "render: %s page %d: %v (skipped)\n", pt.file, p, err)
				continue
			} else {
				pt.pixels = r.Image.Bounds().Dx() * r.Image.Bounds().Dy()
			}
			for range n {
				t0 := time.Now()
				r, err := doc.Render(p, pdf.RenderOptions{Width: width})
				t1 := time.Now()
				if err != nil {
					return fmt.Errorf("%s page %d: %w", pt.file, p, err)
				}
				data, err := r.PNG()
				t2 := time.Now()
				if err != nil {
					return err
				}
				pt.draw, pt.enc, pt.pngBytes = min(pt.draw, t1.Sub(t0)), min(pt.enc, t2.Sub(t1)), len(data)
			}
			if perr == nil {
				out := filepath.Join(os.TempDir(), "crossmem-bench-render")
				for range n {
					t0 := time.Now()
					cmd := exec.Command(pdftoppm, "-png", "-scale-to-x", fmt.Sprint(width), "-scale-to-y", "-1", "-f", fmt.Sprint(p), "-l", fmt.Sprint(p), "-singlefile", f, out)
					if err := cmd.Run(); err != nil {
						pt.popplerErr = err
						break
					}
					pt.poppler = min(pt.poppler, time.Since(t0))
				}
				os.Remove(out + ".png")
			}
			pages = append(pages, pt)
		}
		doc.Close()
	}
	if len(pages) == 0 {
		return fmt.Errorf("no page rendered")
	}
	pick := func(f func(pageTime) time.Duration, q float64) time.Duration {
		ds := make([]time.Duration, 0, len(pages))
		for _, p := range pages {
			if d := f(p); d < time.Hour {
				ds = append(ds, d)
			}
		}
		if len(ds) == 0 {
			return 0
		}
		slices.Sort(ds)
		return ds[min(len(ds)-1, int(q*float64(len(ds))))]
	}
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
	total := func(p pageTime) time.Duration { return p.total() }
	draw := func(p pageTime) time.Duration { return p.draw }
	enc := func(p pageTime) time.Duration { return p.enc }
	pop := func(p pageTime) time.Duration { return p.poppler }
	fmt.Printf("%d pages of %d PDFs at %d px wide, minimum of %d rounds per page (warm: engine started, document open, page drawn once)\n\n", len(pages), len(files), width, n)
	fmt.Println("| | median | p90 | max |")
	fmt.Println("|---|---:|---:|---:|")
	fmt.Printf("| draw (pdfium) | %s | %s | %s |\n", ms(pick(draw, .5)), ms(pick(draw, .9)), ms(pick(draw, 1)))
	fmt.Printf("| encode (PNG) | %s | %s | %s |\n", ms(pick(enc, .5)), ms(pick(enc, .9)), ms(pick(enc, 1)))
	fmt.Printf("| **draw + encode** | **%s** | %s | %s |\n", ms(pick(total, .5)), ms(pick(total, .9)), ms(pick(total, 1)))
	if perr == nil {
		fmt.Printf("| pdftoppm -png (process per page) | %s | %s | %s |\n", ms(pick(pop, .5)), ms(pick(pop, .9)), ms(pick(pop, 1)))
		fmt.Printf("\nmedian page: crossmem %.2f× pdftoppm's time (lower is faster)\n", float64(pick(total, .5))/float64(pick(pop, .5)))
	} else {
		fmt.Printf("\nno pdftoppm reference: %v\n", perr)
	}
	if verbose {
		slices.SortFunc(pages, func(a, b pageTime) int { return int(b.total() - a.total()) })
		fmt.Println("\nslowest pages:")
		for _, p := range pages[:min(10, len(pages))] {
			fmt.Printf("  %s p.%d: draw %s + encode %s (%d px, %d KB PNG); pdftoppm %s\n", p.file, p.page, ms(p.draw), ms(p.enc), p.pixels, p.pngBytes>>10, ms(p.poppler))
		}
	}
	if med := pick(total, .5); med > maxMedian {
		return fmt.Errorf("the median page takes %s, over the target %s", ms(med), ms(maxMedian))
	}
	return nil
}
