// Package pdf reads the text layer of PDF files with pdfium, compiled to
// WebAssembly and run by wazero inside this process (no cgo, no external
// program).
//
// It reports, per page, the characters pdfium extracts in content-stream
// order with their glyph boxes, and a little font information per word. It
// does not decide lines, paragraphs or reading order; that is internal/layout.
//
// Coordinates are PDF points (1/72 inch) with the origin at the bottom-left
// corner of the page's CropBox (the MediaBox when there is no CropBox) and y
// growing upward, in the page's unrotated user space (a /Rotate entry is
// reported in Page.Rotation but not applied).
//
// An Engine holds ~100 MB of WebAssembly memory per pdfium instance; open
// one per process, share it (it is safe for concurrent use) and Close it
// when done. Engine.Read reads the pages of one PDF on several instances.
package pdf

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf16"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
	"github.com/klippa-app/go-pdfium/webassembly"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// ErrNotPDF is returned by OpenFile, OpenBytes and Engine.Pages for input
// that does not start with the "%PDF-" header or that pdfium cannot parse.
var ErrNotPDF = errors.New("not a PDF file")

// ErrEncrypted is returned by OpenFile, OpenBytes and Engine.Pages for
// password-protected PDFs.
var ErrEncrypted = errors.New("PDF is password-protected")

// Options configures an Engine.
type Options struct {
	// CacheDir is where wazero keeps its compiled copy of pdfium. With it a
	// process starts pdfium in ~0.1 s instead of ~3 s. Empty disables the
	// cache; an unusable directory is ignored.
	CacheDir string
	// Workers is the number of pdfium instances Pages uses in parallel
	// (each ~100 MB); 0 means min(GOMAXPROCS, 4).
	Workers int
	// RecycleAfter is how many pages an instance reads before it is
	// replaced by a fresh one (when none of its documents is open); 0
	// means DefaultRecycleAfter.
	RecycleAfter int
}

// DefaultRecycleAfter is how many pages a pdfium instance reads before
// the Engine replaces it. go-pdfium keeps a handle (a UUID and a map
// entry) for every page object and font it hands out until the instance
// closes: ~70 KiB of Go heap a page of the corpus, which a long-lived
// engine (serve, the MCP server, compile --all of a large library) would
// otherwise hold for ever. Starting an instance costs ~2 ms of CPU.
const DefaultRecycleAfter = 200

// Engine is a pool of pdfium instances (each its own WebAssembly module
// instance with its own memory: they share nothing). Open starts the
// first; more, up to Options.Workers, start on first use and are kept
// until Close, except that an instance that has read
// Options.RecycleAfter pages is replaced by a fresh one once none of its
// documents is open (the output does not depend on the instance). Create
// it with Open and release it with Close.
//
// An Engine is safe for concurrent use. Documents that OpenBytes and
// OpenFile open live on the first instance, however many are open; go-pdfium
// does not serialise the calls on one instance (nor a rendering's Cleanup),
// so every Document call holds its instance's lock. Read borrows as many idle instances
// as it can use, the first among them, for its own documents. Calls on one
// Document are not safe for concurrent use.
type Engine struct {
	pool    pdfium.Pool
	workers int
	shared  pdfium.Pdfium      // the first instance: OpenBytes's documents
	idle    chan pdfium.Pdfium // instances not borrowed by a Read (capacity workers)

	mu      sync.Mutex
	checked [][sha256.Size]byte // SHA-256 of the latest PDFs that passed checkStreams
	started int                 // instances created (idle or in use)
	all     []pdfium.Pdfium
	locks   map[pdfium.Pdfium]*sync.Mutex // one per instance: its calls one at a time
	recycle int                           // Options.RecycleAfter
	pages   map[pdfium.Pdfium]int         // pages read on each instance
	live    map[pdfium.Pdfium]int         // documents open (or opening) on each instance
	retired int                           // instances replaced (tests)
}

// lockOf returns inst's lock, held by every Document call on inst.
func (e *Engine) lockOf(inst pdfium.Pdfium) *sync.Mutex {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.locks == nil {
		e.locks = map[pdfium.Pdfium]*sync.Mutex{}
	}
	l := e.locks[inst]
	if l == nil {
		l = &sync.Mutex{}
		e.locks[inst] = l
	}
	return l
}

// Open starts pdfium. ctx bounds the start-up only.
func Open(ctx context.Context, opts Options) (*Engine, error) {
	// pdfium.wasm of go-pdfium ≥ 1.21 uses WebAssembly exception handling.
	rc := wazero.NewRuntimeConfig().WithCoreFeatures(api.CoreFeaturesV2 | experimental.CoreFeaturesExceptionHandling).
		WithMemoryLimitPages(MemoryLimitPages)
	if opts.CacheDir != "" {
		if err := os.MkdirAll(opts.CacheDir, 0o755); err == nil {
			if cache, err := wazero.NewCompilationCacheWithDir(opts.CacheDir); err == nil {
				rc = rc.WithCompilationCache(cache)
			}
		}
	}
	type result struct {
		pool pdfium.Pool
		err  error
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = min(runtime.GOMAXPROCS(0), 4)
	}
	done := make(chan result, 1)
	go func() {
		p, err := webassembly.Init(webassembly.Config{
			Context: experimental.WithMemoryAllocator(context.Background(), memoryAllocator()),
			MinIdle: 1, MaxIdle: workers, MaxTotal: workers,
			RuntimeConfig: rc,
			// pdfium must never write to stdout: it may carry MCP protocol.
			Stdout: io.Discard,
			Stderr: io.Discard,
		})
		done <- result{p, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if r.err != nil {
		return nil, fmt.Errorf("start pdfium: %w", r.err)
	}
	recycle := opts.RecycleAfter
	if recycle <= 0 {
		recycle = DefaultRecycleAfter
	}
	e := &Engine{pool: r.pool, workers: workers, idle: make(chan pdfium.Pdfium, workers), recycle: recycle,
		pages: map[pdfium.Pdfium]int{}, live: map[pdfium.Pdfium]int{}}
	inst, err := e.start()
	if err != nil {
		r.pool.Close()
		return nil, fmt.Errorf("start pdfium instance: %w", err)
	}
	e.shared = inst
	e.idle <- inst
	return e, nil
}

// maxChecked is how many PDFs an Engine remembers as checked.
const maxChecked = 16

// check runs checkStreams on data, unless data is one of the last
// maxChecked PDFs (by SHA-256) that passed it: a compile reads the pages
// of a PDF, then opens it again to draw its figures.
func (e *Engine) check(data []byte) error {
	sum := sha256.Sum256(data)
	e.mu.Lock()
	seen := slices.Contains(e.checked, sum)
	e.mu.Unlock()
	if seen {
		return nil
	}
	if err := checkStreams(data); err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if !slices.Contains(e.checked, sum) {
		if len(e.checked) == maxChecked {
			e.checked = e.checked[1:]
		}
		e.checked = append(e.checked, sum)
	}
	return nil
}

// start creates one more instance, if fewer than workers exist; nil, nil
// when the pool is full.
func (e *Engine) start() (pdfium.Pdfium, error) {
	e.mu.Lock()
	if e.pool == nil || e.started >= e.workers {
		e.mu.Unlock()
		return nil, nil
	}
	e.started++
	e.mu.Unlock()
	inst, err := e.pool.GetInstance(time.Minute)
	e.mu.Lock()
	defer e.mu.Unlock()
	if err != nil {
		e.started--
		return nil, err
	}
	e.all = append(e.all, inst)
	return inst, nil
}

// acquire returns an idle instance, starting one when the pool has room,
// or waits for one to be released.
func (e *Engine) acquire(ctx context.Context) (pdfium.Pdfium, error) {
	if inst := e.tryAcquire(); inst != nil {
		return inst, nil
	}
	select {
	case inst := <-e.idle:
		return inst, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// tryAcquire returns an idle instance or a newly started one, or nil when
// all are busy (or one cannot start).
func (e *Engine) tryAcquire() pdfium.Pdfium {
	select {
	case inst := <-e.idle:
		return inst
	default:
	}
	inst, err := e.start()
	if err != nil || inst == nil {
		return nil
	}
	return inst
}

// release returns an instance to the idle ones, first replacing it by a
// fresh one when it has read e.recycle pages and no document of it is
// open (see DefaultRecycleAfter). Should the fresh one fail to start, the
// pool has one instance fewer until start makes another.
func (e *Engine) release(inst pdfium.Pdfium) {
	e.mu.Lock()
	if e.pool != nil && e.pages[inst] >= e.recycle && e.live[inst] == 0 {
		inst = e.replace(inst)
	}
	e.mu.Unlock()
	if inst != nil {
		e.idle <- inst
	}
}

// replace closes inst, which no document uses, and starts a fresh
// instance in its place (the shared one too); nil when it cannot start.
// e.mu is held.
func (e *Engine) replace(inst pdfium.Pdfium) pdfium.Pdfium {
	inst.Close()
	e.retired++
	delete(e.pages, inst)
	delete(e.live, inst)
	delete(e.locks, inst)
	if i := slices.Index(e.all, inst); i >= 0 {
		e.all = slices.Delete(e.all, i, i+1)
	}
	fresh, err := e.pool.GetInstance(time.Minute)
	if err != nil {
		e.started--
		if e.shared == inst {
			e.shared = nil
		}
		return nil
	}
	e.all = append(e.all, fresh)
	if e.shared == inst {
		e.shared = fresh
	}
	return fresh
}

// readPage counts a page read on inst, towards its replacement.
func (e *Engine) readPage(inst pdfium.Pdfium) {
	e.mu.Lock()
	e.pages[inst]++
	e.mu.Unlock()
}

// Close releases the pdfium runtime. Documents opened by the engine must be
// closed first.
func (e *Engine) Close() error {
	if e == nil {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.pool == nil {
		return nil
	}
	for _, x := range e.all {
		x.Close()
	}
	err := e.pool.Close()
	e.pool, e.all = nil, nil
	return err
}

// Document is an open PDF. Close it when done.
type Document struct {
	e        *Engine
	inst     pdfium.Pdfium
	mu       *sync.Mutex // inst's lock (Engine.lockOf)
	borrowed bool        // inst was borrowed by a Read and goes back on Close
	ref      references.FPDF_DOCUMENT
	numPages int
	data     []byte
}

// OpenFile reads and opens the PDF at path. The file is read into memory
// and never modified. It returns ErrNotPDF for files that are not PDFs and
// ErrEncrypted for password-protected ones.
func (e *Engine) OpenFile(path string) (*Document, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return e.OpenBytes(data)
}

// OpenBytes opens a PDF held in memory. data must not be modified while the
// document is open. Errors are as for OpenFile, plus a *LimitError for a
// stream that inflates past MaxStreamBytes. The document lives on the
// engine's first pdfium instance.
func (e *Engine) OpenBytes(data []byte) (*Document, error) {
	if !IsPDF(data) {
		return nil, ErrNotPDF
	}
	if err := e.check(data); err != nil {
		return nil, err
	}
	e.mu.Lock()
	inst := e.shared
	if inst == nil {
		e.mu.Unlock()
		return nil, errors.New("pdfium: no instance (a replacement failed to start)")
	}
	e.live[inst]++ // held: release does not replace it while this opens
	e.mu.Unlock()
	d, err := e.open(inst, false, data)
	e.mu.Lock()
	e.live[inst]--
	e.mu.Unlock()
	return d, err
}

// open opens data on inst; a borrowed inst goes back to the idle ones when
// the Document closes (or now, on an error).
func (e *Engine) open(inst pdfium.Pdfium, borrowed bool, data []byte) (*Document, error) {
	release := func() {
		if borrowed {
			e.release(inst)
		}
	}
	mu := e.lockOf(inst)
	mu.Lock()
	defer mu.Unlock()
	doc, err := inst.OpenDocument(&requests.OpenDocument{File: &data})
	if err != nil {
		release()
		if strings.Contains(strings.ToLower(err.Error()), "password") {
			return nil, ErrEncrypted
		}
		return nil, fmt.Errorf("%w: %v", ErrNotPDF, err)
	}
	pc, err := inst.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: doc.Document})
	if err != nil {
		inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc.Document})
		release()
		return nil, fmt.Errorf("count pages: %w", err)
	}
	e.mu.Lock()
	e.live[inst]++
	e.mu.Unlock()
	return &Document{e: e, inst: inst, mu: mu, borrowed: borrowed, ref: doc.Document, numPages: pc.PageCount, data: data}, nil
}

// IsPDF reports whether data starts with a PDF header ("%PDF-" within the
// first 1024 bytes, as PDF readers accept).
func IsPDF(data []byte) bool {
	n := len(data)
	if n > 1024 {
		n = 1024
	}
	return strings.Contains(string(data[:n]), "%PDF-")
}

// NumPages returns the number of pages.
func (d *Document) NumPages() int { return d.numPages }

// Close releases the document (and the pdfium instance a Read borrowed
// for it).
func (d *Document) Close() error {
	if d == nil || d.e == nil {
		return nil
	}
	d.mu.Lock()
	_, err := d.inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: d.ref})
	d.mu.Unlock()
	d.e.mu.Lock()
	d.e.live[d.inst]--
	d.e.mu.Unlock()
	if d.borrowed {
		d.e.release(d.inst)
	}
	d.e, d.inst = nil, nil
	return err
}

// Info is the document information dictionary (PDF 1.7 §14.3.3), values
// as stored (CreationDate like "D:20230214123456+01'00'"); empty when absent.
type Info struct {
	Title, Author, Subject, Keywords, CreationDate string
}

// Info returns the document information dictionary.
func (d *Document) Info() Info {
	d.mu.Lock()
	defer d.mu.Unlock()
	get := func(tag string) string {
		r, err := d.inst.FPDF_GetMetaText(&requests.FPDF_GetMetaText{Document: d.ref, Tag: tag})
		if err != nil {
			return ""
		}
		return strings.TrimSpace(r.Value)
	}
	return Info{
		Title:        get("Title"),
		Author:       get("Author"),
		Subject:      get("Subject"),
		Keywords:     get("Keywords"),
		CreationDate: get("CreationDate"),
	}
}

// Rect is an axis-aligned box [X0, Y0, X1, Y1] in PDF points, X0 <= X1,
// Y0 <= Y1, origin bottom-left of the page's CropBox.
type Rect struct{ X0, Y0, X1, Y1 float64 }

// Width returns X1-X0.
func (r Rect) Width() float64 { return r.X1 - r.X0 }

// Height returns Y1-Y0.
func (r Rect) Height() float64 { return r.Y1 - r.Y0 }

// Union returns the smallest rectangle covering r and o. A zero Rect is
// treated as empty.
func (r Rect) Union(o Rect) Rect {
	if r == (Rect{}) {
		return o
	}
	if o == (Rect{}) {
		return r
	}
	return Rect{min(r.X0, o.X0), min(r.Y0, o.Y0), max(r.X1, o.X1), max(r.Y1, o.Y1)}
}

// Intersect returns the overlap of r and o, or the zero Rect when they do
// not overlap.
func (r Rect) Intersect(o Rect) Rect {
	x := Rect{max(r.X0, o.X0), max(r.Y0, o.Y0), min(r.X1, o.X1), min(r.Y1, o.Y1)}
	if x.X0 > x.X1 || x.Y0 > x.Y1 {
		return Rect{}
	}
	return x
}

// Char is one character of the text layer as pdfium reports it.
type Char struct {
	// Rune is the Unicode value. It is 0 when the glyph has no Unicode
	// mapping. Characters outside the Basic Multilingual Plane, which pdfium
	// reports as two UTF-16 halves, are joined into one Char.
	Rune rune
	// Box is the loose glyph box (FPDFText_GetLooseCharBox): the glyph's
	// advance along the baseline and the font's ascent to descent across
	// it, so the gap between two boxes is the extra space between the
	// glyphs. Generated characters have zero width or height.
	Box Rect
	// Ink is the tight glyph box (FPDFText_GetCharBox), read only for
	// diacritics (see IsDiacritic), whose position relative to a letter
	// matters; zero otherwise.
	Ink Rect
	// Angle is the rotation of the character's baseline in radians as
	// pdfium reports it (FPDFText_GetCharAngle) for the first character of
	// its word: 0..2π, measured clockwise from the page's x axis (so text
	// reading up the page has 3π/2). Use Quarter to classify it.
	Angle float64
	// Generated is true for characters pdfium inserted itself: spaces it
	// inferred from glyph gaps and the "\r\n" it puts at line ends.
	Generated bool
	// Hyphen is true when pdfium identified the character as a line-end
	// hyphen (FPDFText_IsHyphen; it reports these as U+0002, in page text
	// as U+FFFE, and omits the line break after them). Rune is set to '-'
	// for these. Other characters with Rune U+0002 have a broken Unicode
	// mapping.
	Hyphen bool
	// Font indexes Page.Fonts for the first character of each word and is
	// copied to the rest of the word; -1 when unknown.
	Font int
	// Size is the font size as drawn, in points: pdfium's font size of the
	// word's first character times the text matrix's vertical scale. When
	// pdfium reports none, the extent of the loose box across the baseline.
	Size float64
}

// IsDiacritic reports whether r is a diacritic that PDF producers draw as
// a glyph of its own over or under a letter: a modifier symbol (Unicode
// category Sk, e.g. ¨ ´ ˙ ¸), a character of the Spacing Modifier Letters
// block (U+02B0–U+02FF, e.g. ˆ ˇ), a combining mark (Mn) or the tilde.
func IsDiacritic(r rune) bool {
	return r == '~' || (r >= 0x02B0 && r <= 0x02FF) || unicode.In(r, unicode.Sk, unicode.Mn)
}

// Quarter classifies a Char.Angle by the nearest multiple of 90°,
// counter-clockwise: 0 = horizontal, 1 = text reading up the page, 2 =
// upside down, 3 = reading down.
func Quarter(angle float64) int {
	q := int(math.Round(-angle/(math.Pi/2))) % 4
	if q < 0 {
		q += 4
	}
	return q
}

// Font describes a font used on a page.
type Font struct {
	Name   string // PostScript name without subset prefix, e.g. "NimbusRomNo9L-Medi"
	Weight int    // 100..900 as pdfium reports it, 0 when unknown
	Flags  int    // PDF font descriptor flags (PDF 1.7 §9.8.2)
}

// NameBold reports whether the font's name marks it as bold ("Bold",
// "Black", "Heavy", "Semibold", "Demi", "-Medi", TeX's bold series in
// Computer Modern, EC and cm-super names — "CMBX10", "SFBX1000",
// "ECRB1200" — or a ".B"/"-B" style suffix). pdfium's weight is not used
// here: it is unreliable for many embedded fonts (regular text at weight
// 736 has been seen).
func (f Font) NameBold() bool {
	n := strings.ToLower(f.Name)
	for _, s := range []string{"bold", "black", "heavy", "semibold", "demi", "-medi", "cmb10"} {
		if strings.Contains(n, s) {
			return true
		}
	}
	return texBold.MatchString(n) || strings.HasSuffix(n, ".b") || strings.HasSuffix(n, "-b") || strings.HasSuffix(n, ",bold")
}

// texBold matches the bold series of TeX's font names: Computer Modern
// (cmbx10, cmssbx10, cmbxti10), EC/TC and cm-super (ecbx1000, sfbx1000,
// sfrb1200, sfsx0900, sfbi1000).
var texBold = regexp.MustCompile(`^(cm|cmss|ec|tc|sf)(bx|rb|sx|bi)[a-z]*[0-9]{2,4}$`)

// Page is the text layer of one page.
type Page struct {
	Number   int     // 1-based page number
	Width    float64 // CropBox width in points
	Height   float64 // CropBox height in points
	Rotation int     // /Rotate in degrees clockwise: 0, 90, 180 or 270
	Chars    []Char
	Fonts    []Font
	// Refused is the limit a page over MaxPageObjects or MaxPageChars is
	// over; its text and graphics are then not read (Chars, Fonts and
	// Graphics are empty). nil for a page that was read.
	Refused *LimitError
	// Graphics holds the page's paths, images and shadings (see Graphic),
	// in drawing order; GraphicsCut is true when the page has more objects
	// than are read (a dense plot) and Graphics holds the first of them.
	Graphics    []Graphic
	GraphicsCut bool
	// Tags maps the characters to the PDF's structure tree on a tagged
	// page (see Tags); nil on untagged pages.
	Tags *Tags

	// origin is where the outline's positions on this page are measured
	// from (Document.origin): the CropBox's origin, else the MediaBox's.
	origin [2]float64
}

// Page extracts the text layer of page n (1-based). A page over
// MaxPageObjects or MaxPageChars is no error: it comes back with its size
// and Refused set, so that the other pages of the PDF can still be read.
func (d *Document) Page(n int) (*Page, error) {
	if n < 1 || n > d.numPages {
		return nil, fmt.Errorf("page %d out of range 1..%d", n, d.numPages)
	}
	d.e.readPage(d.inst)
	d.mu.Lock()
	defer d.mu.Unlock()
	inst := d.inst
	pageReq := requests.Page{ByIndex: &requests.PageByIndex{Document: d.ref, Index: n - 1}}
	p := &Page{Number: n}

	var ox, oy float64
	if cb, err := inst.FPDFPage_GetCropBox(&requests.FPDFPage_GetCropBox{Page: pageReq}); err == nil && cb.Right > cb.Left && cb.Top > cb.Bottom {
		ox, oy = float64(cb.Left), float64(cb.Bottom)
		p.Width, p.Height = float64(cb.Right-cb.Left), float64(cb.Top-cb.Bottom)
		p.origin = [2]float64{ox, oy}
	} else if mb, err := inst.FPDFPage_GetMediaBox(&requests.FPDFPage_GetMediaBox{Page: pageReq}); err == nil && mb.Right > mb.Left && mb.Top > mb.Bottom {
		ox, oy = float64(mb.Left), float64(mb.Bottom)
		p.Width, p.Height = float64(mb.Right-mb.Left), float64(mb.Top-mb.Bottom)
		p.origin = [2]float64{ox, oy}
	} else if mb, err := inst.FPDFPage_GetMediaBox(&requests.FPDFPage_GetMediaBox{Page: pageReq}); err == nil {
		// An empty MediaBox: the outline still measures from its origin.
		p.origin = [2]float64{float64(mb.Left), float64(mb.Bottom)}
		if sz, err := inst.FPDF_GetPageSizeByIndexF(&requests.FPDF_GetPageSizeByIndexF{Document: d.ref, Index: n - 1}); err == nil {
			p.Width, p.Height = float64(sz.Size.Width), float64(sz.Size.Height)
		}
	} else if sz, err := inst.FPDF_GetPageSizeByIndexF(&requests.FPDF_GetPageSizeByIndexF{Document: d.ref, Index: n - 1}); err == nil {
		p.Width, p.Height = float64(sz.Size.Width), float64(sz.Size.Height)
	}
	if rot, err := inst.FPDFPage_GetRotation(&requests.FPDFPage_GetRotation{Page: pageReq}); err == nil {
		p.Rotation = int(rot.PageRotation) * 90
	}

	tp, cc, err := d.loadText(n, pageReq)
	if le := (*LimitError)(nil); errors.As(err, &le) {
		p.Refused = le
		return p, nil
	}
	if err != nil {
		return nil, err
	}
	defer inst.FPDFText_ClosePage(&requests.FPDFText_ClosePage{TextPage: tp.TextPage})
	var complete bool
	p.Graphics, complete = d.graphics(pageReq, ox, oy)
	p.GraphicsCut = !complete

	fontIndex := map[Font]int{}
	p.Chars = make([]Char, 0, cc.Count)
	wordStart := true
	curFont, curAngle, curSize := -1, 0.0, 0.0
	loose := func(i int) (Rect, bool) {
		lb, err := inst.FPDFText_GetLooseCharBox(&requests.FPDFText_GetLooseCharBox{TextPage: tp.TextPage, Index: i})
		if err != nil {
			return Rect{}, false
		}
		r := lb.Rect
		return Rect{float64(min(r.Left, r.Right)) - ox, float64(min(r.Bottom, r.Top)) - oy, float64(max(r.Left, r.Right)) - ox, float64(max(r.Bottom, r.Top)) - oy}, true
	}
	for i := 0; i < cc.Count; i++ {
		u, err := inst.FPDFText_GetUnicode(&requests.FPDFText_GetUnicode{TextPage: tp.TextPage, Index: i})
		if err != nil {
			return nil, fmt.Errorf("read character %d of page %d: %w", i, n, err)
		}
		r := rune(u.Unicode)
		c := Char{Rune: r, Font: -1}
		c.Box, _ = loose(i)
		first := i
		// Join UTF-16 surrogate halves into one character.
		if utf16.IsSurrogate(r) && r < 0xDC00 && i+1 < cc.Count {
			u2, err := inst.FPDFText_GetUnicode(&requests.FPDFText_GetUnicode{TextPage: tp.TextPage, Index: i + 1})
			if err == nil {
				if j := utf16.DecodeRune(r, rune(u2.Unicode)); j != 0xFFFD {
					c.Rune = j
					i++
					if b2, ok := loose(i); ok {
						c.Box = c.Box.Union(b2)
					}
				}
			}
		}
		switch {
		case r == '\r' || r == '\n' || r == ' ':
			g, err := inst.FPDFText_IsGenerated(&requests.FPDFText_IsGenerated{TextPage: tp.TextPage, Index: i})
			c.Generated = err == nil && g.IsGenerated
			wordStart = true
		case r == 0xFFFE:
			c.Hyphen, c.Rune = true, '-'
		case r == 0x02:
			// pdfium stores its line-end hyphen marker as U+0002, but a
			// glyph whose ToUnicode entry is U+0002 looks the same.
			if h, err := inst.FPDFText_IsHyphen(&requests.FPDFText_IsHyphen{TextPage: tp.TextPage, Index: i}); err == nil && h.IsHyphen {
				c.Hyphen, c.Rune = true, '-'
			}
		}
		if !c.Generated && c.Rune != ' ' {
			if wordStart {
				curFont, curAngle = -1, 0
				fi, err1 := inst.FPDFText_GetFontInfo(&requests.FPDFText_GetFontInfo{TextPage: tp.TextPage, Index: first})
				fw, err2 := inst.FPDFText_GetFontWeight(&requests.FPDFText_GetFontWeight{TextPage: tp.TextPage, Index: first})
				if err1 == nil {
					f := Font{Name: stripSubset(fi.FontName), Flags: fi.Flags}
					if err2 == nil {
						f.Weight = fw.FontWeight
					}
					idx, ok := fontIndex[f]
					if !ok {
						idx = len(p.Fonts)
						p.Fonts = append(p.Fonts, f)
						fontIndex[f] = idx
					}
					curFont = idx
				}
				if a, err := inst.FPDFText_GetCharAngle(&requests.FPDFText_GetCharAngle{TextPage: tp.TextPage, Index: first}); err == nil {
					curAngle = float64(a.CharAngle)
				}
				curSize = 0
				if fs, err := inst.FPDFText_GetFontSize(&requests.FPDFText_GetFontSize{TextPage: tp.TextPage, Index: first}); err == nil && fs.FontSize > 0 {
					if m, err := inst.FPDFText_GetMatrix(&requests.FPDFText_GetMatrix{TextPage: tp.TextPage, Index: first}); err == nil {
						// The em size as drawn: the font size scaled by the
						// text matrix's y axis (pdfium leaves that scale out).
						if scale := math.Hypot(float64(m.Matrix.C), float64(m.Matrix.D)); scale > 0 {
							curSize = fs.FontSize * scale
						}
					}
				}
				wordStart = false
			}
			c.Font, c.Angle = curFont, curAngle
			if IsDiacritic(c.Rune) {
				if b, err := inst.FPDFText_GetCharBox(&requests.FPDFText_GetCharBox{TextPage: tp.TextPage, Index: first}); err == nil {
					c.Ink = Rect{b.Left - ox, b.Bottom - oy, b.Right - ox, b.Top - oy}
				}
			}
		} else {
			c.Angle = curAngle
		}
		if !c.Generated && c.Rune != ' ' && curSize > 0 {
			c.Size = curSize
		} else {
			c.Size = c.Box.Height()
			if q := Quarter(c.Angle); q == 1 || q == 3 {
				c.Size = c.Box.Width()
			}
		}
		p.Chars = append(p.Chars, c)
	}
	d.fixGlyphNames(tp.TextPage, p) // TeX glyph names pdfium does not know (texglyphs.go)
	p.Tags = d.readTags(pageReq, tp.TextPage, p.Chars)
	return p, nil
}

// PageText returns pdfium's own plain text of page n (1-based), as
// FPDFText_GetText reports it: characters in content-stream order, "\r\n"
// at the line ends pdfium infers, U+FFFE for line-end hyphens (with the
// line break removed). It is the reference that chunk text is checked
// against.
func (d *Document) PageText(n int) (string, error) {
	if n < 1 || n > d.numPages {
		return "", fmt.Errorf("page %d out of range 1..%d", n, d.numPages)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	inst := d.inst
	pageReq := requests.Page{ByIndex: &requests.PageByIndex{Document: d.ref, Index: n - 1}}
	tp, cc, err := d.loadText(n, pageReq)
	if err != nil {
		return "", err
	}
	defer inst.FPDFText_ClosePage(&requests.FPDFText_ClosePage{TextPage: tp.TextPage})
	if cc.Count == 0 {
		return "", nil
	}
	t, err := inst.FPDFText_GetText(&requests.FPDFText_GetText{TextPage: tp.TextPage, StartIndex: 0, Count: cc.Count})
	if err != nil {
		return "", err
	}
	return d.fixGlyphNamesText(tp.TextPage, cc.Count, t.Text), nil // as Page does (texglyphs.go)
}

// Pages extracts every page of the PDF in data, in page order, reading
// pages on up to Options.Workers pdfium instances at once. progress, if
// set, is called on the caller's goroutine after each page with the number
// of pages done and the total. It returns ErrNotPDF or ErrEncrypted like
// OpenBytes, and stops at the first page error or when ctx is done.
func (e *Engine) Pages(ctx context.Context, data []byte, progress func(done, total int)) ([]*Page, error) {
	pages, _, err := e.Read(ctx, data, progress)
	return pages, err
}

// Read is Pages plus the document's own structure (outline and page
// labels, see Document.Structure), read from the same open document.
//
// It checks the streams (checkStreams) before it takes a pdfium instance,
// waits for one when all are borrowed by other Reads,
// and takes more while pages remain and instances are idle; each is
// released as soon as no page is left for it.
func (e *Engine) Read(ctx context.Context, data []byte, progress func(done, total int)) ([]*Page, Structure, error) {
	if !IsPDF(data) {
		return nil, Structure{}, ErrNotPDF
	}
	if err := e.check(data); err != nil {
		return nil, Structure{}, err
	}
	inst, err := e.acquire(ctx)
	if err != nil {
		return nil, Structure{}, err
	}
	first, err := e.open(inst, true, data)
	if err != nil {
		return nil, Structure{}, err
	}
	st := first.rawStructure()
	pages, err := e.readPages(ctx, first, data, progress)
	if err != nil {
		return nil, Structure{}, err
	}
	fixOutline(st.Outline, pages)
	return pages, st, nil
}

// readPages reads the pages of first's PDF (each, one page an item) and
// closes first.
func (e *Engine) readPages(ctx context.Context, first *Document, data []byte, progress func(done, total int)) ([]*Page, error) {
	n := first.NumPages()
	pages := make([]*Page, n)
	done := 0
	err := e.each(ctx, first, data, n, func(d *Document, i int) error {
		p, err := d.Page(i + 1)
		pages[i] = p
		return err
	}, func() {
		done++
		if progress != nil {
			progress(done, n)
		}
	})
	if err != nil {
		return nil, err
	}
	return pages, nil
}

// Each opens the PDF in data (checked as Read checks it) on an idle pdfium
// instance, waiting for one when all are borrowed, and calls f(d, i) once
// for every i in [0, n): on that instance's Document and on documents
// opened on further idle instances while items remain (up to
// Options.Workers), each on a goroutine of its own, so f must only touch
// what belongs to item i. Documents and instances are released as soon as
// no item is left for them, before Each returns. It stops handing out
// items at the first error of f (which it returns) or when ctx is done
// (ctx's error). Errors of opening are those of OpenBytes.
func (e *Engine) Each(ctx context.Context, data []byte, n int, f func(d *Document, i int) error) error {
	if !IsPDF(data) {
		return ErrNotPDF
	}
	if err := e.check(data); err != nil {
		return err
	}
	if n <= 0 {
		return nil
	}
	inst, err := e.acquire(ctx)
	if err != nil {
		return err
	}
	first, err := e.open(inst, true, data)
	if err != nil {
		return err
	}
	return e.each(ctx, first, data, n, f, nil)
}

// each runs f(d, i) for i in [0, n) on first and on documents of data
// opened on idle instances while items remain; each worker takes the next
// item until none is left, then closes its document (releasing the
// instance). done, if set, is called on the caller's goroutine after each
// item that succeeded. It returns f's first error, or ctx's.
func (e *Engine) each(ctx context.Context, first *Document, data []byte, n int, f func(d *Document, i int) error, done func()) error {
	jobs := make(chan int)
	results := make(chan error)
	running := 0
	var wg sync.WaitGroup
	work := func(d *Document) {
		defer wg.Done()
		defer d.Close()
		for i := range jobs {
			results <- f(d, i)
		}
	}
	// more starts a worker on another idle instance while items remain.
	more := func(next int) {
		if running >= e.workers || n-next <= running {
			return
		}
		inst := e.tryAcquire()
		if inst == nil {
			return
		}
		d, err := e.open(inst, true, data)
		if err != nil {
			return
		}
		running++
		wg.Add(1)
		go work(d)
	}
	running++
	wg.Add(1)
	go work(first)
	next, finished := 0, 0
	more(next)
	var firstErr error
	for finished < n {
		var send chan int
		if next < n && firstErr == nil && ctx.Err() == nil {
			send = jobs
		}
		if send == nil && next == finished {
			break
		}
		select {
		case send <- next:
			next++
		case err := <-results:
			finished++
			if err != nil {
				if firstErr == nil {
					firstErr = err
				}
				continue
			}
			if done != nil {
				done()
			}
			more(next)
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

// stripSubset removes a font subset tag such as "ABCDEF+" from a PostScript
// font name.
func stripSubset(name string) string {
	if len(name) > 7 && name[6] == '+' {
		for _, r := range name[:6] {
			if r < 'A' || r > 'Z' {
				return name
			}
		}
		return name[7:]
	}
	return name
}
