package compile

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/pdf"
	"golang.org/x/sync/errgroup"
)

// FigureDPI is the resolution of figure crops: 150 pixels per inch of the
// page (150/72 pixels per PDF point). A crop wider or taller than
// pdf.MaxRenderSide pixels at that resolution is drawn smaller, to fit.
const FigureDPI = 150

// FigureDir is the folder of figure crops, relative to the library home.
const FigureDir = "raw/figs"

// Figure is the crop of one figure chunk.
type Figure struct {
	Chunk int    // index of the figure chunk in the chunks it was drawn for
	Path  string // relative to the library home: FigureDir/{cite_key}_fig{N}.png
	PNG   []byte
}

// FigureName returns the file name of figure n (1-based, in note order)
// of the paper with cite key key.
func FigureName(key string, n int) string { return key + "_fig" + strconv.Itoa(n) + ".png" }

// RenderFigures draws the region (bbox) of every figure chunk with pdfium
// at FigureDPI and sets the chunk's Image (FigureDir/{key}_fig{N}.png, N
// counting the figure chunks from 1 in note order) and ImageSHA256 (of the
// PNG's bytes). A figure whose region pdfium cannot draw keeps no image.
// The figures are drawn on as many of e's pdfium instances as are idle
// (pdf.Engine.Each), all those of one page on the same instance, one
// after the other, so that pdfium loads each page once. Errors: opening
// the PDF (pdf.Engine.OpenBytes).
func RenderFigures(e *pdf.Engine, data []byte, chunks []chunk.Chunk, key string) ([]Figure, error) {
	var figs []int // indexes of the figure chunks
	for i := range chunks {
		if chunks[i].Type == chunk.TypeFigure {
			figs = append(figs, i)
		}
	}
	if len(figs) == 0 {
		return nil, nil
	}
	// The figures (indexes into figs) of each page, pages in order of
	// their first figure.
	var byPage [][]int
	at := map[int]int{} // page → its index in byPage
	for j, i := range figs {
		k, ok := at[chunks[i].Page]
		if !ok {
			k = len(byPage)
			at[chunks[i].Page] = k
			byPage = append(byPage, nil)
		}
		byPage[k] = append(byPage[k], j)
	}
	pngs := make([][]byte, len(figs))
	// PNG encoding runs beside the drawing, off the pdfium instance.
	var enc errgroup.Group
	enc.SetLimit(runtime.GOMAXPROCS(0))
	err := e.Each(context.Background(), data, len(byPage), func(doc *pdf.Document, k int) error {
		for _, j := range byPage[k] {
			c := &chunks[figs[j]]
			// A region pdfium cannot draw leaves pngs[j] nil: no image.
			img, err := DrawFigure(doc, *c)
			if err == nil {
				enc.Go(func() error {
					pngs[j], _ = img.PNG()
					return nil
				})
			}
		}
		return nil
	})
	enc.Wait()
	if err != nil {
		return nil, fmt.Errorf("open PDF to draw figures: %w", err)
	}
	var out []Figure
	for j, i := range figs {
		if pngs[j] == nil {
			continue
		}
		c := &chunks[i]
		sum := sha256.Sum256(pngs[j])
		c.Image = FigureDir + "/" + FigureName(key, j+1)
		c.ImageSHA256 = hex.EncodeToString(sum[:])
		out = append(out, Figure{Chunk: i, Path: c.Image, PNG: pngs[j]})
	}
	return out, nil
}

// DrawFigure draws figure chunk c's region (its bbox on its page) of doc
// as RenderFigures does: at FigureDPI, smaller when that passes pdf's size
// limits (pdf.MaxRenderSide, pdf.MaxRenderPixels). Errors: those of
// pdf.Document.Render.
func DrawFigure(doc *pdf.Document, c chunk.Chunk) (*pdf.Rendering, error) {
	n, r := c.Page, pdf.Rect{X0: c.BBox[0], Y0: c.BBox[1], X1: c.BBox[2], Y1: c.BBox[3]}
	scale := FigureDPI / 72.0
	w, h := r.Width()*scale, r.Height()*scale
	if g, err := doc.Geometry(n); err == nil && (g.Rotation == 90 || g.Rotation == 270) {
		w, h = h, w
	}
	fit := math.Min(1, float64(pdf.MaxRenderSide)/math.Max(w, h))
	if w*h*fit*fit > pdf.MaxRenderPixels {
		fit = math.Sqrt(pdf.MaxRenderPixels / (w * h))
	}
	width := int(math.Max(1, math.Floor(w*fit)))
	return doc.Render(n, pdf.RenderOptions{Width: width, Region: r})
}

var figureFile = regexp.MustCompile(`_fig[0-9]+\.png$`)

// writeFigures writes the crops into the library (atomically) and removes
// the crops of key that an earlier compile wrote and this one did not.
// The caller holds the library lock.
func writeFigures(lib *library.Library, key string, figs []Figure) error {
	dir := filepath.Join(lib.Home, filepath.FromSlash(FigureDir))
	keep := map[string]bool{}
	if len(figs) > 0 {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("create %s: %w", dir, err)
		}
	}
	// Written side by side: each file's write is synced to disk, and the
	// syncs' waits overlap.
	var g errgroup.Group
	g.SetLimit(8)
	for _, f := range figs {
		path := filepath.Join(lib.Home, filepath.FromSlash(f.Path))
		keep[filepath.Base(path)] = true
		g.Go(func() error {
			if err := library.WriteFileAtomic(path, f.PNG, 0o644); err != nil {
				return fmt.Errorf("write figure: %w", err)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	old, _ := filepath.Glob(filepath.Join(dir, library.GlobEscape(key)+"_fig*.png"))
	for _, p := range old {
		base := filepath.Base(p)
		if keep[base] || !figureFile.MatchString(base) || base[:len(base)-len(figureFile.FindString(base))] != key {
			continue
		}
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("remove stale figure: %w", err)
		}
	}
	return nil
}
