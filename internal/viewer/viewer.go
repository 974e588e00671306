// Package viewer is the library viewer of `crossmem serve`: server-rendered
// HTML pages (html/template, assets embedded in the binary, no build step)
// over the library, mounted on internal/serve's server.
//
//	GET /                      every paper: title, authors, year, cite key,
//	                           warnings, compiled or not; a search box
//	GET /search?q=…            recall with its filters (key, author, year,
//	                           section, type)
//	GET /paper/{key}           metadata with field sources and warnings,
//	                           citations with copy buttons, the chunks in
//	                           reading order, figures shown
//	GET /pdf/{key}?p=N&bbox=…  the page view: page N drawn by pdfium, the
//	GET /pdf/{key}?chunk=ID    box highlighted and scrolled into view, the
//	                           chunk's text and hash beside it
//	GET /img/{key}/{page}?w=W  the page as PNG, W one of PageWidths
//	GET /img/{key}/{page}/region?bbox=…&w=S   a region (a figure) as PNG,
//	                           its longer side S pixels (RegionSizes)
//	GET /talk/{key}/keyframe/frame_NNNN.png   a recorded talk's keyframe
//	GET /talk/{key}/recording  a talk's local recording (range requests)
//	GET /static/…              the stylesheet and script
//
// The deep links of internal/deeplink open the page view (for a recorded
// talk, which has no pages, the paper page at the chunk: its time range,
// keyframe and the link that plays the recording there). Every route is
// read-only and wrapped in serve.SameOrigin; keys in paths are resolved
// only through library.Find, which validates them, and every file served
// is a PDF page drawn from the paper's own raw PDF, a talk's keyframe or
// recording in its own folder (library.TalkFile), or an embedded asset.
// A chunk whose text no longer matches its text_sha256 (the note was
// edited) is shown as edited, never as a source.
package viewer

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/citation"
	"github.com/crossmem/crossmem/internal/cite"
	"github.com/crossmem/crossmem/internal/deeplink"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/note"
	"github.com/crossmem/crossmem/internal/pdf"
	"github.com/crossmem/crossmem/internal/render"
	"github.com/crossmem/crossmem/internal/search"
	"github.com/crossmem/crossmem/internal/serve"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Viewer serves the library's pages. Fill its fields, then Mount it.
type Viewer struct {
	Lib   *library.Library
	Citer *cite.Citer
	// Searcher runs the search box's queries (the index); BeforeSearch, if
	// set, runs first (it brings the index up to date with the notes).
	Searcher     search.Searcher
	BeforeSearch func(context.Context)
	// Engine returns the pdfium engine, started on first use (pages are
	// drawn with it).
	Engine func(context.Context) (*pdf.Engine, error)
	// CacheDir is where page images are kept: <CacheDir>/<pdf_sha256>/.
	CacheDir string
	Version  string
	Logger   *slog.Logger

	tmpl   map[string]*template.Template
	render *renderer
}

// Mount registers the viewer's routes on s and announces the library
// page in its banner.
func (v *Viewer) Mount(s *serve.Server) error {
	if v.Logger == nil {
		v.Logger = s.Logger()
	}
	if err := v.parseTemplates(); err != nil {
		return err
	}
	v.render = newRenderer(v.Engine, v.CacheDir)
	s.OnShutdown(v.render.close)
	static, _ := fs.Sub(staticFS, "static")
	routes := map[string]http.HandlerFunc{
		"GET /{$}":                        v.library,
		"GET /search":                     v.search,
		"GET /paper/{key}":                v.paper,
		"GET /pdf/{key}":                  v.page,
		"GET /img/{key}/{page}":           v.pageImage,
		"GET /img/{key}/{page}/region":    v.regionImage,
		"GET /talk/{key}/keyframe/{name}": v.keyframe,
		"GET /talk/{key}/recording":       v.recording,
		"GET /static/":                    http.StripPrefix("/static/", staticHandler(static)).ServeHTTP,
	}
	for pattern, h := range routes {
		s.Handle(pattern, serve.SameOrigin(h, v.Logger))
	}
	s.Announce("HTTP → " + s.URL() + "/ (library viewer)")
	return nil
}

// Close releases the viewer's open PDFs.
func (v *Viewer) Close() {
	if v.render != nil {
		v.render.close()
	}
}

func staticHandler(fsys fs.FS) http.Handler {
	fileServer := http.FileServerFS(fsys)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		fileServer.ServeHTTP(w, r)
	})
}

var funcs = template.FuncMap{
	"join": strings.Join,
	"short": func(s string) string {
		if len(s) > 12 {
			return s[:12]
		}
		return s
	},
	"pct": func(v, of float64) string { return strconv.FormatFloat(100*v/of, 'f', 3, 64) },
	"num": func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) },
	"bbox": func(b [4]float64) string {
		return fmt.Sprintf("[%.2f, %.2f, %.2f, %.2f]", b[0], b[1], b[2], b[3])
	},
	"lines": func(s string) []string { return strings.Split(s, "\n") },
	"clock": search.Clock,
}

func (v *Viewer) parseTemplates() error {
	v.tmpl = map[string]*template.Template{}
	for _, name := range []string{"library", "search", "paper", "page", "error"} {
		t, err := template.New(name).Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/"+name+".html")
		if err != nil {
			return fmt.Errorf("viewer template %s: %w", name, err)
		}
		v.tmpl[name] = t
	}
	return nil
}

// base is what every page's layout reads.
type base struct {
	Title   string
	Version string
	Query   string // the search box's text
}

func (v *Viewer) html(w http.ResponseWriter, r *http.Request, status int, name string, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if r.Method == http.MethodHead {
		return
	}
	if err := v.tmpl[name].ExecuteTemplate(w, "layout", data); err != nil {
		v.Logger.Error("viewer template", "page", name, "error", err)
	}
}

type errorPage struct {
	base
	Status  int
	Message string
	Hint    string
}

// fail answers an error page: the message and hint as render words them.
func (v *Viewer) fail(w http.ResponseWriter, r *http.Request, status int, err error) {
	msg, next := render.Error(err)
	if status >= 500 {
		v.Logger.Error("viewer", "path", r.URL.Path, "error", err)
	}
	v.html(w, r, status, "error", errorPage{base: base{Title: http.StatusText(status), Version: v.Version}, Status: status, Message: msg, Hint: next})
}

// status classifies an error of a lookup or a render.
func status(err error) int {
	var nf *cite.NotFoundError
	var pe *pageError
	switch {
	case errors.As(err, &nf), errors.Is(err, library.ErrNotFound), errors.Is(err, errNoPDF), errors.As(err, &pe), errors.Is(err, os.ErrNotExist):
		return http.StatusNotFound
	case errors.Is(err, deeplink.ErrInvalid), errors.Is(err, pdf.ErrRenderSize):
		return http.StatusBadRequest
	}
	return http.StatusInternalServerError
}

// lookup finds the paper of the path's key.
func (v *Viewer) lookup(r *http.Request) (*library.Paper, error) {
	return v.Citer.Lookup(r.PathValue("key"))
}

// --- library page ---

type paperRow struct {
	Key, Title, Authors string
	Year                int
	Warnings            []string
	Compiled, HasPDF    bool
}

type libraryPage struct {
	base
	Home     string
	Papers   []paperRow
	Problems []string
}

func (v *Viewer) library(w http.ResponseWriter, r *http.Request) {
	papers, errs := v.Lib.Papers()
	page := libraryPage{base: base{Title: "Library", Version: v.Version}, Home: v.Lib.Home}
	for _, p := range papers {
		page.Papers = append(page.Papers, paperRow{
			Key: p.CiteKey, Title: p.Title, Authors: authorList(p.Authors), Year: p.Year,
			Warnings: p.Warnings, Compiled: p.HasNote(), HasPDF: p.HasPDF(),
		})
	}
	sort.Slice(page.Papers, func(i, j int) bool { return page.Papers[i].Key < page.Papers[j].Key })
	for _, e := range errs {
		page.Problems = append(page.Problems, e.Error())
	}
	v.html(w, r, http.StatusOK, "library", page)
}

func authorList(names []string) string {
	if len(names) > 6 {
		return strings.Join(names[:6], ", ") + fmt.Sprintf(" and %d more", len(names)-6)
	}
	return strings.Join(names, ", ")
}

// --- search ---

type hitRow struct {
	search.Hit
	Location string
	View     string // the page view of the chunk (a talk's: the paper page at it)
	Play     string // a talk's chunk: the recording at its start
}

type searchPage struct {
	base
	Form     searchForm
	Hits     []hitRow
	Notes    []string
	Error    string
	Searched bool
}

type searchForm struct {
	Q, Key, Author, Year, Section, Type string
	Types                               []string
}

// chunkTypes are the types the search form offers.
var chunkTypes = []string{chunk.TypeParagraph, chunk.TypeHeading, chunk.TypeListItem, chunk.TypeFigure, chunk.TypeTable, chunk.TypeCaption,
	chunk.TypeFigureText, chunk.TypeTableText, chunk.TypeEquation, chunk.TypeCode, chunk.TypeFootnote, chunk.TypeReference,
	chunk.TypePageHeader, chunk.TypePageFooter, chunk.TypeMarginNote}

func (v *Viewer) search(w http.ResponseWriter, r *http.Request) {
	qv := r.URL.Query()
	f := searchForm{Q: qv.Get("q"), Key: qv.Get("key"), Author: qv.Get("author"), Year: qv.Get("year"),
		Section: qv.Get("section"), Type: qv.Get("type"), Types: chunkTypes}
	page := searchPage{base: base{Title: "Search", Version: v.Version, Query: f.Q}, Form: f}
	if strings.TrimSpace(f.Q) == "" || v.Searcher == nil {
		v.html(w, r, http.StatusOK, "search", page)
		return
	}
	q := search.Query{Text: f.Q, Limit: search.MaxLimit, Key: f.Key, Author: f.Author, Section: f.Section, Type: f.Type}
	if f.Year != "" {
		from, to, err := search.ParseYears(f.Year)
		if err != nil {
			page.Error = "year " + err.Error()
			v.html(w, r, http.StatusBadRequest, "search", page)
			return
		}
		q.YearFrom, q.YearTo = from, to
	}
	if v.BeforeSearch != nil {
		v.BeforeSearch(r.Context())
	}
	res, err := v.Searcher.Search(r.Context(), q)
	if err != nil {
		msg, next := render.Error(err)
		page.Error = msg
		if next != "" {
			page.Error += " (" + next + ")"
		}
		v.html(w, r, http.StatusBadRequest, "search", page)
		return
	}
	page.Searched = true
	for _, h := range res.Hits {
		row := hitRow{Hit: h, Location: h.Location(), View: (&deeplink.Link{Key: h.CiteKey, Chunk: h.ChunkID}).Path()}
		if h.Media != nil {
			row.View = chunkView(h.CiteKey, h.ChunkID)
			if strings.HasPrefix(h.Media.Link, "https://") || strings.HasPrefix(h.Media.Link, "http://") {
				row.Play = h.Media.Link
			} else {
				row.Play = talkURL(h.CiteKey, fmt.Sprintf("recording#t=%d", h.Media.StartMS/1000))
			}
		}
		page.Hits = append(page.Hits, row)
	}
	page.Notes = res.Notes
	v.html(w, r, http.StatusOK, "search", page)
}

// --- paper page ---

type field struct {
	Name, Value string
	Sources     []string
}

type citationRow struct {
	Style, Text string
}

type chunkRow struct {
	chunk.Chunk
	Lines    []string
	Location string
	View     string // the page view
	Edited   bool   // the text no longer hashes to TextSHA256
	// Figure is the image shown with a figure or table caption (the page
	// with the caption marked) or with the text inside a figure (the
	// region): a URL of /img, "" for other chunks. A talk's chunk shows its
	// first keyframe.
	Figure, FigureAlt string
	// Play is a talk's chunk's link to the recording at its start.
	Play string
}

type paperPage struct {
	base
	Key, Title string
	Aliases    []string
	Fields     []field
	Warnings   []string
	Consulted  []metadata.Consultation
	Citations  []citationRow
	CiteError  string
	Compiled   bool
	NoteError  string
	Pages      int
	Unquotable []note.Unquotable
	Chunks     []chunkRow
	Advisory   *note.Advisory
	HasPDF     bool
	// IsTalk is set for a recorded talk (its chunks are time ranges of a
	// recording Duration long).
	IsTalk   bool
	Duration string
}

func (v *Viewer) paper(w http.ResponseWriter, r *http.Request) {
	p, err := v.lookup(r)
	if err != nil {
		v.fail(w, r, status(err), err)
		return
	}
	rec := &p.Metadata
	page := paperPage{base: base{Title: p.Title, Version: v.Version}, Key: p.CiteKey, Title: p.Title, Aliases: p.Aliases,
		Warnings: rec.Warnings, Consulted: p.Consulted, HasPDF: p.HasPDF(), IsTalk: p.IsTalk()}
	if p.Talk != nil {
		page.Duration = search.Clock(p.Talk.DurationMS)
	}
	if page.Title == "" {
		page.Title = p.CiteKey + " (no title)"
	}
	page.Fields = fields(rec)
	for _, s := range citation.NoteStyles() {
		c, err := v.Citer.Paper(p, p.CiteKey, s)
		if err != nil {
			page.CiteError, _ = render.Error(err)
			break
		}
		page.Citations = append(page.Citations, citationRow{Style: s.Title(), Text: c.Text})
	}
	if n, err := readNote(p); err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			page.NoteError = err.Error()
		}
	} else {
		page.Compiled = true
		page.Pages = n.Front.Pages
		page.Unquotable = n.Front.UnquotablePages
		page.Advisory = n.Front.Advisory
		for _, c := range n.Chunks {
			if c.Media != nil {
				row := chunkRow{Chunk: c, Lines: strings.Split(c.Text, "\n"), Edited: chunk.Hash(c.Text) != c.TextSHA256}
				talkRow(&row, p.CiteKey, p, c)
				page.Chunks = append(page.Chunks, row)
				continue
			}
			page.Chunks = append(page.Chunks, v.chunkRow(p.CiteKey, c))
		}
	}
	v.html(w, r, http.StatusOK, "paper", page)
}

func (v *Viewer) chunkRow(key string, c chunk.Chunk) chunkRow {
	row := chunkRow{Chunk: c, Lines: strings.Split(c.Text, "\n"), Location: location(c),
		View: deeplink.Link{Key: key, Page: c.Page, BBox: c.BBox, HasBox: true, Chunk: c.ID}.Path(), Edited: chunk.Hash(c.Text) != c.TextSHA256}
	img := "/img/" + url.PathEscape(key) + "/" + strconv.Itoa(c.Page)
	switch c.Type {
	case chunk.TypeCaption:
		// The caption's page, small, with the caption marked: the float
		// is beside it on the page.
		row.Figure = img + "?w=480"
		row.FigureAlt = fmt.Sprintf("page %d, where the float captioned here appears", c.Page)
	case chunk.TypeFigure, chunk.TypeTable, chunk.TypeFigureText:
		b := pad(c.BBox, 6)
		row.Figure = img + "/region?" + url.Values{"bbox": {fmt.Sprintf("%.2f,%.2f,%.2f,%.2f", b[0], b[1], b[2], b[3])}, "w": {"640"}}.Encode()
		row.FigureAlt = fmt.Sprintf("the figure on page %d whose text this is", c.Page)
	}
	return row
}

func pad(b [4]float64, by float64) [4]float64 {
	return [4]float64{math.Max(0, b[0]-by), math.Max(0, b[1]-by), b[2] + by, b[3] + by}
}

func location(c chunk.Chunk) string {
	s := "p. " + strconv.Itoa(c.Page)
	if c.PageLabel != "" && c.PageLabel != strconv.Itoa(c.Page) {
		s += " (printed " + c.PageLabel + ")"
	}
	if c.Section != "" {
		s += " §" + c.Section
	}
	return s
}

// fields lists the record's fields with the sources that supplied each.
func fields(rec *metadata.Record) []field {
	var out []field
	add := func(name, key, value string) {
		if value != "" {
			out = append(out, field{Name: name, Value: value, Sources: rec.FieldSources[key]})
		}
	}
	add("Title", "title", rec.Title)
	add("Authors", "authors", strings.Join(rec.AuthorDisplay(), "; "))
	if y := rec.Year(); y != 0 {
		d := strconv.Itoa(y)
		if rec.Issued.Month != 0 {
			d += fmt.Sprintf("-%02d", rec.Issued.Month)
			if rec.Issued.Day != 0 {
				d += fmt.Sprintf("-%02d", rec.Issued.Day)
			}
		}
		add("Issued", "issued", d)
	}
	add("Type", "type", rec.Type)
	add("Container", "container_title", rec.ContainerTitle)
	add("Volume", "volume", rec.Volume)
	add("Issue", "issue", rec.Issue)
	add("Pages", "page", rec.Page)
	add("Publisher", "publisher", rec.Publisher)
	add("DOI", "doi", rec.DOI)
	add("Preprint DOI", "doi_preprint", rec.DOIPreprint)
	add("Published DOI", "doi_published", rec.DOIPublished)
	if rec.ArxivID != "" {
		id := rec.ArxivID
		if rec.ArxivVersion > 0 {
			id += "v" + strconv.Itoa(rec.ArxivVersion)
		}
		add("arXiv", "arxiv_id", id)
	}
	add("URL", "url", rec.URL)
	add("Sources", "", strings.Join(rec.Sources, ", "))
	if rec.Reconciled {
		add("Reconciled", "", "yes: at least two sources agree on title, first author and year")
	} else {
		add("Reconciled", "", "no")
	}
	return out
}

// readNote parses p's note (os.ErrNotExist when it is not compiled).
func readNote(p *library.Paper) (*note.Note, error) {
	data, err := os.ReadFile(p.NotePath)
	if err != nil {
		return nil, err
	}
	n, err := note.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("the note of %s cannot be read: %w", p.CiteKey, err)
	}
	return n, nil
}

// --- page view ---

type box struct {
	X, Y, W, H float64 // points of the displayed page, from its top-left corner
}

type pageView struct {
	base
	Key, Title  string
	Page, Pages int
	Label       string
	// DispW and DispH are the displayed page's size in points (the SVG
	// overlay's viewBox); Rotation its /Rotate.
	DispW, DispH float64
	Rotation     int
	Geometry     pdf.Geometry
	Src, SrcSet  string
	ImgW, ImgH   int
	// Box is the highlighted box (nil: none), BBox the asked bbox.
	Box    *box
	BBox   [4]float64
	HasBox bool
	Chunk  *chunkRow // the chunk shown beside the page
	// Others are the page's chunks, outlined and linked.
	Others     []pageChunk
	Prev, Next string
	PaperURL   string
	Notice     string
}

type pageChunk struct {
	ID, Type, View string
	Box            box
	Current        bool
}

func (v *Viewer) page(w http.ResponseWriter, r *http.Request) {
	p, err := v.lookup(r)
	if err != nil {
		v.fail(w, r, status(err), err)
		return
	}
	link, err := deeplink.FromQuery(p.CiteKey, r.URL.Query())
	if err != nil {
		v.fail(w, r, http.StatusBadRequest, err)
		return
	}
	if p.IsTalk() {
		// A talk has no pages: its chunk on the paper page.
		http.Redirect(w, r, chunkView(p.CiteKey, link.Chunk), http.StatusSeeOther)
		return
	}
	view := pageView{base: base{Title: p.Title, Version: v.Version}, Key: p.CiteKey, Title: p.Title, Page: link.Page,
		PaperURL: "/paper/" + url.PathEscape(p.CiteKey)}
	if view.Title == "" {
		view.Title = p.CiteKey + " (no title)"
	}
	var chunks []chunk.Chunk
	if n, err := readNote(p); err == nil {
		chunks = n.Chunks
	} else if !errors.Is(err, os.ErrNotExist) {
		view.Notice = err.Error()
	}
	// The chunk: named by id, or the one at the asked bbox on the page.
	var cur *chunk.Chunk
	if link.Chunk != "" {
		for i := range chunks {
			if chunks[i].ID == link.Chunk {
				cur = &chunks[i]
			}
		}
		if cur == nil {
			view.Notice = fmt.Sprintf("chunk %s is not in the note of %s (compiled again since the link was made?)", link.Chunk, p.CiteKey)
		}
	}
	if cur != nil && view.Page == 0 {
		view.Page = cur.Page
	}
	if view.Page == 0 {
		view.Page = 1
	}
	if cur == nil && link.HasBox {
		cur = chunkAt(chunks, view.Page, link.BBox)
	}
	view.HasBox, view.BBox = link.HasBox, link.BBox
	if !link.HasBox && cur != nil && cur.Page == view.Page {
		view.HasBox, view.BBox = true, cur.BBox
	}
	pages, g, err := v.render.info(r.Context(), p, view.Page)
	if err != nil {
		v.fail(w, r, status(err), err)
		return
	}
	view.Pages, view.Geometry, view.Rotation = pages, g, g.Rotation
	view.DispW, view.DispH = g.Display()
	img := "/img/" + url.PathEscape(p.CiteKey) + "/" + strconv.Itoa(view.Page)
	var set []string
	for _, pw := range PageWidths {
		set = append(set, fmt.Sprintf("%s?w=%d %dw", img, pw, pw))
	}
	view.Src, view.SrcSet = img+"?w=1200", strings.Join(set, ", ")
	view.ImgW, view.ImgH = 1200, int(math.Round(1200*view.DispH/view.DispW))
	if view.HasBox {
		d := g.ToDisplay(pdf.Rect{X0: view.BBox[0], Y0: view.BBox[1], X1: view.BBox[2], Y1: view.BBox[3]})
		view.Box = &box{d.X0, d.Y0, d.Width(), d.Height()}
	}
	if cur != nil {
		row := v.chunkRow(p.CiteKey, *cur)
		view.Chunk = &row
	}
	for _, c := range chunks {
		if c.Page != view.Page {
			continue
		}
		d := g.ToDisplay(pdf.Rect{X0: c.BBox[0], Y0: c.BBox[1], X1: c.BBox[2], Y1: c.BBox[3]})
		view.Others = append(view.Others, pageChunk{ID: c.ID, Type: c.Type, Current: cur != nil && c.ID == cur.ID,
			View: deeplink.Link{Key: p.CiteKey, Page: c.Page, BBox: c.BBox, HasBox: true, Chunk: c.ID}.Path(),
			Box:  box{d.X0, d.Y0, d.Width(), d.Height()}})
		if view.Label == "" {
			view.Label = c.PageLabel
		}
	}
	if view.Page > 1 {
		view.Prev = deeplink.Link{Key: p.CiteKey, Page: view.Page - 1}.Path()
	}
	if view.Page < pages {
		view.Next = deeplink.Link{Key: p.CiteKey, Page: view.Page + 1}.Path()
	}
	v.html(w, r, http.StatusOK, "page", view)
}

// chunkAt returns the chunk of page whose bbox is b (within 0.01 pt, as
// notes write two decimals), else the one that overlaps b most (at least
// half of both), else nil.
func chunkAt(chunks []chunk.Chunk, page int, b [4]float64) *chunk.Chunk {
	var best *chunk.Chunk
	bestScore := 0.5
	for i := range chunks {
		c := &chunks[i]
		if c.Page != page {
			continue
		}
		same := true
		for k := range b {
			if math.Abs(c.BBox[k]-b[k]) > 0.011 {
				same = false
			}
		}
		if same {
			return c
		}
		ix := math.Max(0, math.Min(c.BBox[2], b[2])-math.Max(c.BBox[0], b[0])) * math.Max(0, math.Min(c.BBox[3], b[3])-math.Max(c.BBox[1], b[1]))
		area := func(x [4]float64) float64 { return (x[2] - x[0]) * (x[3] - x[1]) }
		if ac, ab := area(c.BBox), area(b); ac > 0 && ab > 0 {
			if s := math.Min(ix/ac, ix/ab); s > bestScore {
				best, bestScore = c, s
			}
		}
	}
	return best
}

// --- images ---

func (v *Viewer) pageImage(w http.ResponseWriter, r *http.Request) {
	v.image(w, r, false)
}

func (v *Viewer) regionImage(w http.ResponseWriter, r *http.Request) {
	v.image(w, r, true)
}

func (v *Viewer) image(w http.ResponseWriter, r *http.Request, isRegion bool) {
	p, err := v.lookup(r)
	if err != nil {
		http.Error(w, "not found", status(err))
		return
	}
	n, err := strconv.Atoi(r.PathValue("page"))
	if err != nil || n < 1 || n > deeplink.MaxPage {
		http.Error(w, "bad page number", http.StatusBadRequest)
		return
	}
	var region *pdf.Rect
	widths, def := PageWidths, 1200
	if isRegion {
		b, err := deeplink.ParseBBox(r.URL.Query().Get("bbox"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		region = &pdf.Rect{X0: b[0], Y0: b[1], X1: b[2], Y1: b[3]}
		widths, def = RegionSizes, 640
	}
	width, err := pickWidth(r.URL.Query().Get("w"), widths, def)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	path, err := v.render.png(r.Context(), p, n, width, region)
	if err != nil {
		code := status(err)
		if code >= 500 {
			v.Logger.Error("render", "key", p.CiteKey, "page", n, "error", err)
		}
		http.Error(w, err.Error(), code)
		return
	}
	f, err := os.Open(path)
	if err != nil {
		http.Error(w, "page image cache: "+err.Error(), http.StatusInternalServerError)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	// The cached file is named by the PDF's hash: it is the ETag, and the
	// browser revalidates (the key may name another PDF after a capture).
	w.Header().Set("ETag", strconv.Quote(p.PDFSHA256[:16]+"-"+filepath.Base(path)))
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeContent(w, r, "", st.ModTime(), f)
}
