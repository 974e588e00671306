// Package compile turns a captured paper into its wiki note: it reads the
// raw PDF with internal/pdf, lays pages out (internal/layout), builds
// chunks (internal/chunk), renders citations (internal/citation) and
// writes the note (internal/note) into the library atomically. The
// advisory paraphrases of a language model are a later stage
// (internal/enrich); compile keeps those the previous note had for chunks
// whose text did not change.
//
// It is the only place that sequences those stages. It reports progress
// through a callback and never prints.
package compile

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/citation"
	"github.com/crossmem/crossmem/internal/cite"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/layout"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/note"
	"github.com/crossmem/crossmem/internal/pdf"
)

// ErrPDFChanged is returned when the raw PDF no longer has the SHA-256
// recorded at capture.
var ErrPDFChanged = errors.New("raw PDF changed since capture")

// Ready reports whether paper can be compiled: an error wrapping
// library.ErrNoPDF (with the hint to attach one) for an entry imported as
// metadata only. Run checks it too.
func Ready(paper *library.Paper) error {
	if !paper.HasPDF() && !paper.IsTalk() {
		return hint.Wrap(fmt.Errorf("%s has %w yet (it was imported as metadata only)", paper.CiteKey, library.ErrNoPDF),
			hint.Action{Kind: hint.AttachPDF, Key: paper.CiteKey})
	}
	return nil
}

// Options configures a compile.
type Options struct {
	// Engine is the pdfium instance to use (required).
	Engine *pdf.Engine
	// Progress, when set, is called with stage "page" after each page is
	// read (page i of n). It runs on the caller's goroutine.
	Progress func(stage string, i, n int)
	// Cite renders the note's citations: which version to cite (captured
	// or published), the Chicago edition, BibTeX's Unicode handling. Its
	// Lib is not used.
	Cite cite.Citer
	// Talk configures the compile of a recorded talk (talk.go); the PDF
	// engine is not used for one.
	Talk TalkOptions
}

// Result describes a written note.
type Result struct {
	Paper      *library.Paper // the paper compiled
	Note       *note.Note
	Path       string // absolute path of the note
	Unquotable []chunk.Unquotable
	// Reused counts the chunks whose paraphrase and implication were kept
	// from the previous note because their text_sha256 did not change.
	Reused int
	// Damage says why pdfium had to repair the PDF (pdf.Damage): text may
	// be missing from the note. Empty for a sound file.
	Damage string
}

// Run compiles the paper with cite key (or alias) key in lib. Errors:
// library.ErrNotFound, library.ErrNoPDF for a metadata-only entry (Ready),
// ErrPDFChanged when the raw PDF no longer has its recorded SHA-256,
// extraction errors; they carry what to do next as a hint.Action.
func Run(ctx context.Context, lib *library.Library, key string, opts Options) (*Result, error) {
	x := extract(ctx, lib, key, opts)
	return write(ctx, lib, x, opts)
}

// InFlight is how many papers RunAll reads and lays out at once: while one
// is laid out, chunked and written, the next ones' pages are read. Four
// rather than two: a long paper ahead of short ones otherwise leaves a
// core idle while its serial steps run (bench/speed -cpuprofile samples
// how many goroutines could run).
const InFlight = 4

// Ahead bounds how many papers RunAll holds extracted (chunks and figure
// crops in memory) ahead of the note it writes: notes are written in key
// order, and a long paper would otherwise keep the InFlight slots of the
// short ones after it, finished, waiting behind it while one core works.
const Ahead = 4 * InFlight

// RunAll compiles the papers with keys in order, as Run does each, with
// up to InFlight papers being extracted at once and up to Ahead extracted
// and not yet written: their PDFs are read and laid out concurrently
// (sharing opts.Engine's pdfium instances), their notes are written one
// after the other in key order. each is called on the caller's goroutine
// in key order with Run's result or error for that key (res.Paper is the
// paper). It returns when every key is done or ctx is; keys not written
// by then are not reported. opts.Progress is not used (report progress by
// paper from each).
func RunAll(ctx context.Context, lib *library.Library, keys []string, opts Options, each func(key string, res *Result, err error)) {
	opts.Progress = nil
	results := make([]chan extracted, len(keys))
	for i := range results {
		results[i] = make(chan extracted, 1)
	}
	slots := make(chan struct{}, InFlight) // papers being extracted
	ahead := make(chan struct{}, Ahead)    // papers extracted or being extracted, not yet written
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for i, k := range keys {
			select {
			case ahead <- struct{}{}:
			case <-stop:
				return
			}
			select {
			case slots <- struct{}{}:
			case <-stop:
				return
			}
			wg.Go(func() {
				x := extract(ctx, lib, k, opts)
				<-slots
				results[i] <- x
			})
		}
	})
	defer wg.Wait()
	defer close(stop)
	for i, k := range keys {
		x := <-results[i]
		if ctx.Err() != nil {
			return
		}
		res, err := write(ctx, lib, x, opts)
		<-ahead
		each(k, res, err)
	}
}

// extracted is a paper read and chunked, not yet written.
type extracted struct {
	paper  *library.Paper
	damage string // pdf.Damage of the raw PDF
	built  chunk.Result
	// talk is set for a recorded talk: write compiles it (compileTalk).
	talk bool
	figs []Figure // the figure crops (RenderFigures), written with the note
	err  error
}

// extract finds the paper, checks its raw PDF and extracts its chunks (a
// recorded talk is left to write).
func extract(ctx context.Context, lib *library.Library, key string, opts Options) extracted {
	paper, err := lib.Find(key)
	if err != nil {
		return extracted{err: err}
	}
	if paper.IsTalk() {
		return extracted{paper: paper, talk: true} // compiled by write (compileTalk)
	}
	if opts.Engine == nil {
		return extracted{paper: paper, err: errors.New("compile: no PDF engine")}
	}
	if err := Ready(paper); err != nil {
		return extracted{paper: paper, err: err}
	}
	data, err := os.ReadFile(paper.PDFPath)
	if err != nil {
		return extracted{paper: paper, err: hint.Wrap(fmt.Errorf("read raw PDF of %s: %w", paper.CiteKey, err), hint.Action{Kind: hint.RestoreRawPDF, Path: paper.PDFPath})}
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); got != paper.PDFSHA256 {
		return extracted{paper: paper, err: hint.Wrap(fmt.Errorf("%w: %s has SHA-256 %s, the sidecar records %s", ErrPDFChanged, paper.PDFPath, got, paper.PDFSHA256),
			hint.Action{Kind: hint.RestorePDF})}
	}
	built, err := Extract(ctx, opts.Engine, data, opts.Progress)
	if err != nil {
		return extracted{paper: paper, err: fmt.Errorf("extract %s: %w", paper.PDFPath, err)}
	}
	figs, err := RenderFigures(opts.Engine, data, built.Chunks, paper.CiteKey)
	if err != nil {
		return extracted{paper: paper, err: err}
	}
	return extracted{paper: paper, damage: pdf.Damage(data), built: built, figs: figs}
}

// write makes the note of an extracted paper and writes it under the
// library lock.
func write(ctx context.Context, lib *library.Library, x extracted, opts Options) (*Result, error) {
	if x.err != nil {
		return nil, x.err
	}
	if x.talk {
		return compileTalk(ctx, lib, x.paper, opts)
	}
	paper, built := x.paper, x.built
	n := &note.Note{Chunks: built.Chunks}
	stamp(n, paper, &opts.Cite)
	n.Front.Chunks = len(built.Chunks)
	n.Front.Pages = built.Pages
	for _, u := range built.Unquotable {
		n.Front.UnquotablePages = append(n.Front.UnquotablePages, note.Unquotable{Page: u.Page, Reason: u.Reason, BBox: u.BBox})
	}

	res := &Result{Note: n, Unquotable: built.Unquotable, Damage: x.damage}
	return save(ctx, lib, paper, res, func() error { return writeFigures(lib, paper.CiteKey, x.figs) })
}

// save writes res.Note as paper's note, filling res.Paper and res.Path
// and keeping the advisory answers the note on disk holds for unchanged
// texts (reuseAnnotations). Holding the library lock, it runs before
// (files the note links to, such as figure crops; nil for none), then
// writes the note atomically. Errors: ctx's, the lock's, before's, and
// formatting or writing the note.
func save(ctx context.Context, lib *library.Library, paper *library.Paper, res *Result, before func() error) (*Result, error) {
	n := res.Note
	res.Paper, res.Path = paper, paper.NotePath
	n.Front.Advisory = reuseAnnotations(paper.NotePath, n.Chunks, res)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out, err := note.Format(n)
	if err != nil {
		return nil, fmt.Errorf("format note: %w", err)
	}
	unlock, err := lib.Lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if before != nil {
		if err := before(); err != nil {
			return nil, err
		}
	}
	if err := library.WriteFileAtomic(paper.NotePath, out, 0o644); err != nil {
		return nil, fmt.Errorf("write note: %w", err)
	}
	return res, nil
}

// stamp sets a note's frontmatter (all but chunks, pages and unquotable
// pages) and its citations from the paper's sidecar, the citations through
// c (internal/cite, as `crossmem cite` renders them).
func stamp(n *note.Note, paper *library.Paper, c *cite.Citer) {
	rec := paper.Metadata
	keep := n.Front
	n.Front = note.Frontmatter{
		CiteKey:         paper.CiteKey,
		Aliases:         paper.Aliases,
		Title:           rec.Title,
		Authors:         rec.AuthorDisplay(),
		Year:            rec.Year(),
		ArxivID:         rec.ArxivID,
		ArxivVersion:    rec.ArxivVersion,
		DOI:             rec.DOI,
		DOIPreprint:     rec.DOIPreprint,
		DOIPublished:    rec.DOIPublished,
		ContainerTitle:  rec.ContainerTitle,
		CapturedAt:      paper.CapturedAt,
		Raw:             filepath.ToSlash(filepath.Join("raw", filepath.Base(paper.PDFPath))),
		PDFSHA256:       paper.PDFSHA256,
		Parser:          note.Parser,
		Chunks:          keep.Chunks,
		Pages:           keep.Pages,
		UnquotablePages: keep.UnquotablePages,
		Meta:            note.Meta{Sources: rec.Sources, Reconciled: rec.Reconciled, Warnings: rec.Warnings},
		WikiFormat:      note.FormatVersion,
	}
	if n.Front.UnquotablePages == nil {
		n.Front.UnquotablePages = []note.Unquotable{}
	}
	if paper.IsTalk() {
		stampTalk(&n.Front, paper, keep)
	}
	n.Citations = nil
	for _, st := range citation.NoteStyles() {
		ci, err := c.Paper(paper, paper.CiteKey, st)
		if err != nil {
			// A record too thin to cite (e.g. a local PDF captured with only
			// --cite-key) gets no citation section; cite reports that.
			continue
		}
		if ci.CitedVersion == metadata.VersionPublished {
			n.Front.CitedVersion = metadata.VersionPublished
		}
		n.Citations = append(n.Citations, note.Citation{Style: StyleHeading(st), Text: ci.Text})
	}
}

// UpdateNote rewrites the frontmatter and citations of key's existing
// note from its sidecar (after `crossmem refresh` or `crossmem import`),
// keeping the chunks: no PDF is read. It takes the library lock and returns the
// note's path. Errors: library.ErrNotFound for an unknown key, the lock's
// error, and reading, parsing or writing the note (a paper that was never
// compiled has no note to read).
func UpdateNote(ctx context.Context, lib *library.Library, key string, c cite.Citer) (string, error) {
	unlock, err := lib.Lock(ctx)
	if err != nil {
		return "", err
	}
	defer unlock()
	paper, err := lib.Find(key)
	if err != nil {
		return "", err
	}
	return paper.NotePath, rewriteNote(paper, &c)
}

// StyleHeading returns the "### " heading a style has in a note
// (citation.Style.Title).
func StyleHeading(s citation.Style) string { return s.Title() }

// Extract reads every page of a PDF and chunks it. progress, if set, is
// called with ("page", i, n) after page i of n. A page over one of the
// per-page limits (pdf.Page.Refused) gives no chunks and is listed in
// Result.Unquotable with chunk.ReasonOverLimit; the other pages are
// compiled. Errors are those of pdf.Engine.Pages: pdf.ErrNotPDF,
// pdf.ErrEncrypted, a *pdf.LimitError for a stream over a limit (the
// whole file is refused), a page's extraction error, or ctx's error.
func Extract(ctx context.Context, e *pdf.Engine, data []byte, progress func(stage string, i, n int)) (chunk.Result, error) {
	var pp func(done, total int)
	if progress != nil {
		pp = func(done, total int) { progress("page", done, total) }
	}
	pages, structure, err := e.Read(ctx, data, pp)
	if err != nil {
		return chunk.Result{}, err
	}
	res := chunk.Build(layout.Document(pages, structure))
	refused(&res, pages)
	return res, nil
}

// refused gives the pages that were not read for being over a limit
// (pdf.Page.Refused) that reason in res.Unquotable, in place of the "no
// text layer" that chunk.Build saw in their empty pages.
func refused(res *chunk.Result, pages []*pdf.Page) {
	for _, p := range pages {
		if p.Refused == nil {
			continue
		}
		u := chunk.Unquotable{Page: p.Number, Reason: chunk.ReasonOverLimit(p.Refused)}
		i := slices.IndexFunc(res.Unquotable, func(x chunk.Unquotable) bool { return x.Page == p.Number && x.BBox == nil })
		if i >= 0 {
			res.Unquotable[i] = u
			continue
		}
		i, _ = slices.BinarySearchFunc(res.Unquotable, p.Number, func(x chunk.Unquotable, n int) int { return x.Page - n })
		res.Unquotable = slices.Insert(res.Unquotable, i, u)
	}
}

// ExtractFigures is Extract with the figure crops drawn (RenderFigures for
// key): the chunks as compile writes them, for verify --deep to compare
// image_sha256 with.
func ExtractFigures(ctx context.Context, e *pdf.Engine, data []byte, key string) (chunk.Result, error) {
	res, err := Extract(ctx, e, data, nil)
	if err != nil {
		return res, err
	}
	_, err = RenderFigures(e, data, res.Chunks, key)
	return res, err
}

// reuseAnnotations copies paraphrase and implication from the existing
// note for chunks whose text and type are unchanged, so a re-compiled note
// keeps them, and returns the model they came from (nil when none was
// kept). Only a note whose frontmatter names that model (written by
// crossmem enrich, which annotates only the chunk types it asks about)
// gives any: advisory text of unknown origin is not carried over.
func reuseAnnotations(path string, chunks []chunk.Chunk, res *Result) *note.Advisory {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	old, err := note.Parse(data)
	if err != nil || old.Front.Advisory == nil {
		return nil
	}
	prev := map[string]chunk.Chunk{}
	for _, c := range old.Chunks {
		if c.Paraphrase != "" || c.Implication != "" {
			prev[c.TextSHA256] = c
		}
	}
	for i := range chunks {
		if p, ok := prev[chunks[i].TextSHA256]; ok && p.Type == chunks[i].Type {
			chunks[i].Paraphrase, chunks[i].Implication = p.Paraphrase, p.Implication
			res.Reused++
		}
	}
	if res.Reused == 0 {
		return nil
	}
	return old.Front.Advisory
}
