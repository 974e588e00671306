package viewer

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sync/singleflight"

	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/pdf"
)

// PageWidths are the widths in pixels a page is rendered at: the image
// candidates the page view offers the browser (srcset), which picks the one
// that fits the screen (its width times the device pixel ratio). A fixed
// set bounds the cache and the work a request can ask for.
var PageWidths = []int{480, 800, 1200, 1600, 2400}

// RegionSizes are the sizes a region of a page (a figure) is rendered at:
// the length in pixels of its longer side.
var RegionSizes = []int{320, 640, 960}

// maxOpenDocs is how many PDFs the renderer keeps open.
const maxOpenDocs = 4

// renderer draws pages with pdfium and keeps the PNGs under dir, named by
// the PDF's SHA-256, page, width (and region): a page is drawn once per
// width, by one request at a time (pdfium's instance is not safe for
// concurrent use), and the same drawing asked for by concurrent requests is
// made once.
type renderer struct {
	engine func(context.Context) (*pdf.Engine, error)
	dir    string

	mu   sync.Mutex // guards the engine's instance, docs and geoms
	docs []*openDoc // most recently used last
	// geoms caches page geometry and page counts by PDF SHA-256.
	geoms map[string]*docInfo

	group singleflight.Group
}

type openDoc struct {
	sha string
	doc *pdf.Document
}

// docInfo is what the page view needs to know about a PDF without
// rendering it.
type docInfo struct {
	pages int
	geom  map[int]pdf.Geometry
}

func newRenderer(engine func(context.Context) (*pdf.Engine, error), dir string) *renderer {
	return &renderer{engine: engine, dir: dir, geoms: map[string]*docInfo{}}
}

var sha256Hex = regexp.MustCompile(`^[0-9a-f]{64}$`)

// errNoPDF is a paper without a PDF (an imported, metadata-only entry).
var errNoPDF = errors.New("this paper has no PDF (a metadata-only entry)")

// document returns p's open document; r.mu must be held.
func (r *renderer) document(ctx context.Context, p *library.Paper) (*pdf.Document, error) {
	if !p.HasPDF() {
		return nil, errNoPDF
	}
	if !sha256Hex.MatchString(p.PDFSHA256) {
		return nil, fmt.Errorf("the sidecar of %s records no valid pdf_sha256", p.CiteKey)
	}
	for i, d := range r.docs {
		if d.sha == p.PDFSHA256 {
			r.docs = append(append(r.docs[:i:i], r.docs[i+1:]...), d)
			return d.doc, nil
		}
	}
	e, err := r.engine(ctx)
	if err != nil {
		return nil, err
	}
	// p.PDFPath is built from the library folder, the stamp and the
	// validated cite key (library.Find): never from the request.
	doc, err := e.OpenFile(p.PDFPath)
	if err != nil {
		return nil, fmt.Errorf("open the PDF of %s: %w", p.CiteKey, err)
	}
	if len(r.docs) == maxOpenDocs {
		r.docs[0].doc.Close()
		r.docs = r.docs[1:]
	}
	r.docs = append(r.docs, &openDoc{sha: p.PDFSHA256, doc: doc})
	return doc, nil
}

// info returns the page count of p's PDF and the geometry of page n (n = 0:
// none).
func (r *renderer) info(ctx context.Context, p *library.Paper, n int) (int, pdf.Geometry, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	inf := r.geoms[p.PDFSHA256]
	if inf != nil {
		if g, ok := inf.geom[n]; ok || n == 0 {
			return inf.pages, g, nil
		}
	}
	doc, err := r.document(ctx, p)
	if err != nil {
		return 0, pdf.Geometry{}, err
	}
	if inf == nil {
		inf = &docInfo{pages: doc.NumPages(), geom: map[int]pdf.Geometry{}}
		r.geoms[p.PDFSHA256] = inf
	}
	if n == 0 {
		return inf.pages, pdf.Geometry{}, nil
	}
	if n < 1 || n > inf.pages {
		return inf.pages, pdf.Geometry{}, &pageError{n, inf.pages}
	}
	g, err := doc.Geometry(n)
	if err != nil {
		return 0, pdf.Geometry{}, err
	}
	inf.geom[n] = g
	return inf.pages, g, nil
}

// pageError is a page number outside the document.
type pageError struct{ page, pages int }

func (e *pageError) Error() string {
	return fmt.Sprintf("page %d does not exist: the PDF has %d pages", e.page, e.pages)
}

// png returns the path of the PNG of page n of p at width pixels (a
// member of PageWidths), or of a region of it whose longer side is width
// pixels (a member of RegionSizes), drawing it first when the cache lacks
// it.
func (r *renderer) png(ctx context.Context, p *library.Paper, n, width int, region *pdf.Rect) (string, error) {
	if !p.HasPDF() {
		return "", errNoPDF
	}
	if !sha256Hex.MatchString(p.PDFSHA256) {
		return "", fmt.Errorf("the sidecar of %s records no valid pdf_sha256", p.CiteKey)
	}
	name := fmt.Sprintf("p%d-w%d.png", n, width)
	if region != nil {
		name = fmt.Sprintf("p%d-r%s_%s_%s_%s-w%d.png", n, num(region.X0), num(region.Y0), num(region.X1), num(region.Y1), width)
	}
	path := filepath.Join(r.dir, p.PDFSHA256, name)
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	_, err, _ := r.group.Do(path, func() (any, error) {
		if _, err := os.Stat(path); err == nil {
			return nil, nil
		}
		// Requests waiting for the same image share this drawing: it does
		// not end with the first one's connection.
		data, err := r.draw(context.WithoutCancel(ctx), p, n, width, region)
		if err != nil {
			return nil, err
		}
		return nil, writeCache(path, data)
	})
	if err != nil {
		return "", err
	}
	return path, nil
}

// draw renders and encodes one image.
func (r *renderer) draw(ctx context.Context, p *library.Paper, n, width int, region *pdf.Rect) ([]byte, error) {
	r.mu.Lock()
	doc, err := r.document(ctx, p)
	if err != nil {
		r.mu.Unlock()
		return nil, err
	}
	if n < 1 || n > doc.NumPages() {
		r.mu.Unlock()
		return nil, &pageError{n, doc.NumPages()}
	}
	opts := pdf.RenderOptions{Width: width}
	if region != nil {
		opts.Region = *region
		if w, h := region.Width(), region.Height(); h > w && h > 0 {
			opts.Width = max(1, int(math.Round(float64(width)*w/h)))
		}
	}
	rd, err := doc.Render(n, opts)
	r.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return rd.PNG()
}

// writeCache writes data to path through a temporary file and a rename,
// so a reader never sees half an image.
func writeCache(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("page image cache: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*.png")
	if err != nil {
		return fmt.Errorf("page image cache: %w", err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("page image cache: %w", err)
	}
	return nil
}

// close releases the open documents.
func (r *renderer) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, d := range r.docs {
		d.doc.Close()
	}
	r.docs = nil
}

// num writes a coordinate for a file name: at most two decimals.
func num(f float64) string {
	return strings.ReplaceAll(strconv.FormatFloat(f, 'f', 2, 64), "-", "m")
}

// pickWidth parses a requested width: one of allowed, or def when empty.
func pickWidth(s string, allowed []int, def int) (int, error) {
	if s == "" {
		return def, nil
	}
	w, err := strconv.Atoi(s)
	if err != nil || !slices.Contains(allowed, w) {
		return 0, fmt.Errorf("w=%q: use one of %v", clipped(s), allowed)
	}
	return w, nil
}

func clipped(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
