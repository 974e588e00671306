// Package capture adds a paper to the library: it classifies the input
// (local PDF, arXiv, DOI, PDF URL), fetches metadata, obtains the PDF,
// assigns a cite key and writes the PDF and its .meta.json sidecar.
//
// It sequences the stages (identifier, metadata sources, fetch, citekey,
// library) and reports progress through Options.Log; it never prints.
// Capture is idempotent: the same arXiv id and version, the same DOI or the
// same PDF bytes resolve to the existing entry and nothing is written.
package capture

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/crossmem/crossmem/internal/citekey"
	"github.com/crossmem/crossmem/internal/fetch"
	"github.com/crossmem/crossmem/internal/identifier"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/metadata/arxiv"
	"github.com/crossmem/crossmem/internal/metadata/crossref"
	"github.com/crossmem/crossmem/internal/metadata/pdfmeta"
	"github.com/crossmem/crossmem/internal/pdf"
)

// MaxPDFBytes caps a downloaded PDF.
const MaxPDFBytes = 512 << 20

// ErrNeedMetadata is returned (wrapped, with what is missing and which
// flag to pass) when a PDF comes without enough metadata to make a cite key
// and no --cite-key was given.
var ErrNeedMetadata = errors.New("not enough metadata to make a cite key")

// ErrNoPDF is returned (wrapped, with instructions) for a DOI capture when
// no PDF can be downloaded.
var ErrNoPDF = errors.New("no downloadable PDF")

// ErrKeyTaken is returned when --cite-key names a key another paper uses.
var ErrKeyTaken = errors.New("cite key already in use")

// Options configures a capture.
type Options struct {
	DOI     string // --doi: fetch Crossref metadata for a local PDF or PDF URL
	CiteKey string // --cite-key: use this key instead of the pattern
	Pattern string // cite key pattern; "" means citekey.Default()

	Engine   *pdf.Engine      // validates PDFs and reads their own metadata (required)
	Arxiv    *arxiv.Client    // required for arXiv input
	Crossref *crossref.Client // required for DOI input and --doi
	HTTP     *fetch.Client    // downloads PDFs (arXiv, DOI links, PDF URLs)

	// Now gives the capture time; nil means time.Now.
	Now func() time.Time
	// Log receives progress lines ("arxiv_id: 1706.03762"); may be nil.
	Log func(format string, args ...any)
}

// Result is a finished capture.
type Result struct {
	Paper    *library.Paper
	Existing bool          // the paper was already captured; nothing was written
	Input    identifier.ID // the classified input
}

// Run captures input into lib. Errors: an error wrapping
// identifier.ErrUnrecognized for input of no accepted form (a usage
// error); ErrNeedMetadata, ErrNoPDF, ErrKeyTaken; pdf.ErrNotPDF for files
// that are not PDFs; metadata and network errors from the sources.
func Run(ctx context.Context, lib *library.Library, input string, o Options) (*Result, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = func(string, ...any) {}
	}
	if o.Pattern == "" {
		o.Pattern = citekey.Default()
	}
	if o.CiteKey != "" {
		if err := citekey.Valid(o.CiteKey); err != nil {
			return nil, err
		}
	}
	id, err := identifier.Classify(input, nil)
	if err != nil {
		if looksLikePath(input) {
			return nil, fmt.Errorf("%s: no such file (%w)", input, err)
		}
		return nil, err
	}
	if o.DOI != "" {
		d, ok := identifier.ParseDOI(o.DOI)
		if !ok {
			return nil, fmt.Errorf("--doi %q is not a DOI (expected 10.NNNN/...)", o.DOI)
		}
		o.DOI = d
	}
	// An arXiv DOI names an arXiv paper: Crossref does not know it.
	if id.Kind == identifier.KindDOI {
		if aid, ok := identifier.ArxivIDFromDOI(id.DOI); ok {
			id = identifier.ID{Kind: identifier.KindArxiv, Input: id.Input, ArxivID: aid}
		}
	}

	c := &run{lib: lib, o: o, id: id}
	switch id.Kind {
	case identifier.KindArxiv:
		err = c.arxiv(ctx)
	case identifier.KindDOI:
		err = c.doi(ctx)
	case identifier.KindLocalPDF:
		err = c.local(ctx)
	case identifier.KindPDFURL:
		err = c.fromURL(ctx)
	default:
		return nil, fmt.Errorf("classify %q: %w", input, identifier.ErrUnrecognized)
	}
	if err != nil {
		return nil, err
	}
	if c.existing != nil {
		return &Result{Paper: c.existing, Existing: true, Input: id}, nil
	}
	p, existing, err := c.store(ctx)
	if err != nil {
		return nil, err
	}
	return &Result{Paper: p, Existing: existing, Input: id}, nil
}

type run struct {
	lib      *library.Library
	o        Options
	id       identifier.ID
	rec      *metadata.Record
	data     []byte // the PDF
	pdfURL   string
	existing *library.Paper
}

func (c *run) arxiv(ctx context.Context) error {
	if c.o.Arxiv == nil {
		return errors.New("capture: no arXiv client")
	}
	c.o.Log("arxiv_id: %s", versioned(c.id.ArxivID, c.id.Version))
	if c.id.Version > 0 {
		if p := c.find(func(p *library.Paper) bool {
			return p.Metadata.ArxivID == c.id.ArxivID && p.Metadata.ArxivVersion == c.id.Version
		}); p != nil {
			c.existing = p
			return nil
		}
	}
	e, err := c.o.Arxiv.LookupEntry(ctx, c.id.ArxivID, c.id.Version)
	if err != nil {
		return fmt.Errorf("arXiv metadata for %s: %w", c.id.ArxivID, err)
	}
	c.rec = e.Record
	c.o.Log("title: %s", c.rec.Title)
	if p := c.find(func(p *library.Paper) bool {
		return p.Metadata.ArxivID == c.rec.ArxivID && p.Metadata.ArxivVersion == c.rec.ArxivVersion
	}); p != nil {
		c.existing = p
		return nil
	}
	c.pdfURL = e.PDFURL
	if c.pdfURL == "" {
		c.pdfURL = c.o.Arxiv.PDFURL(c.rec.ArxivID, c.rec.ArxivVersion)
	}
	return c.download(ctx, c.pdfURL)
}

func (c *run) doi(ctx context.Context) error {
	c.o.Log("DOI: %s", c.id.DOI)
	if p := c.findDOI(c.id.DOI); p != nil {
		c.existing = p
		return nil
	}
	w, err := c.crossref(ctx, c.id.DOI)
	if err != nil {
		return err
	}
	c.rec = w.Record
	c.o.Log("title: %s", c.rec.Title)
	var lastErr error
	for _, link := range w.PDFLinks {
		if err := c.download(ctx, link); err != nil {
			lastErr = err
			continue
		}
		c.pdfURL = link
		return nil
	}
	reason := "Crossref lists no open PDF link"
	if lastErr != nil {
		reason = fmt.Sprintf("downloading it failed: %v", lastErr)
	}
	return fmt.Errorf("%w for DOI %s (%s).\nDownload the PDF yourself (publisher site, library access or the authors' page), then run:\n  crossmem capture /path/to/paper.pdf --doi %s", ErrNoPDF, c.id.DOI, reason, c.id.DOI)
}

func (c *run) local(ctx context.Context) error {
	abs, err := filepath.Abs(c.id.Path)
	if err != nil {
		abs = c.id.Path
	}
	c.o.Log("Local file: %s", abs)
	data, err := os.ReadFile(c.id.Path)
	if err != nil {
		return fmt.Errorf("read %s: %w", c.id.Path, err)
	}
	c.data = data
	return c.fromPDF(ctx)
}

func (c *run) fromURL(ctx context.Context) error {
	c.o.Log("PDF URL: %s", c.id.URL)
	if err := c.download(ctx, c.id.URL); err != nil {
		return err
	}
	c.pdfURL = c.id.URL
	return c.fromPDF(ctx)
}

// fromPDF fills the metadata of a local or downloaded PDF: Crossref with
// --doi, else the PDF's own document information and XMP.
func (c *run) fromPDF(ctx context.Context) error {
	if !pdf.IsPDF(c.data) {
		return fmt.Errorf("%s: %w (it does not start with %%PDF-)", c.id.Input, pdf.ErrNotPDF)
	}
	sum := hash(c.data)
	if p := c.find(func(p *library.Paper) bool { return p.PDFSHA256 == sum }); p != nil {
		c.existing = p
		return nil
	}
	doc, err := c.o.Engine.OpenBytes(c.data)
	if err != nil {
		return fmt.Errorf("%s: %w", c.id.Input, err)
	}
	info := doc.Info()
	doc.Close()
	if c.o.DOI != "" {
		c.o.Log("Fetching CrossRef metadata for DOI %s", c.o.DOI)
		if p := c.findDOI(c.o.DOI); p != nil && c.o.CiteKey == "" {
			return fmt.Errorf("DOI %s is already captured as %s with a different PDF (SHA-256 %s); pass --cite-key to capture this file as a separate entry", c.o.DOI, p.CiteKey, p.PDFSHA256)
		}
		w, err := c.crossref(ctx, c.o.DOI)
		if err != nil {
			return err
		}
		c.rec = w.Record
		return nil
	}
	infoRec := pdfmeta.FromInfo(info.Title, info.Author, info.CreationDate)
	x, _ := pdfmeta.ParseXMP(c.data)
	c.rec = pdfmeta.Merge(infoRec, x)
	if c.rec.Title != "" {
		c.o.Log("title: %s (from the PDF's metadata)", c.rec.Title)
	}
	return nil
}

func (c *run) crossref(ctx context.Context, doi string) (*crossref.Work, error) {
	if c.o.Crossref == nil {
		return nil, errors.New("capture: no Crossref client")
	}
	w, err := c.o.Crossref.Work(ctx, doi)
	if err != nil {
		if errors.Is(err, crossref.ErrNotFound) {
			return nil, fmt.Errorf("Crossref has no record of DOI %s (check the DOI; DataCite DOIs such as arXiv's 10.48550/... are not in Crossref): %w", doi, err)
		}
		return nil, fmt.Errorf("Crossref metadata for DOI %s: %w", doi, err)
	}
	return w, nil
}

func (c *run) download(ctx context.Context, url string) error {
	if c.o.HTTP == nil {
		return errors.New("capture: no HTTP client")
	}
	var buf bytes.Buffer
	if _, _, err := c.o.HTTP.Download(ctx, url, &buf, MaxPDFBytes); err != nil {
		return fmt.Errorf("download %s: %w", url, err)
	}
	if !pdf.IsPDF(buf.Bytes()) {
		return fmt.Errorf("download %s: %w (the server sent something else, often a login or landing page)", url, pdf.ErrNotPDF)
	}
	c.data = buf.Bytes()
	return nil
}

// store assigns the cite key and writes the PDF and sidecar under the
// library lock. It re-checks for an existing capture inside the lock, so
// two processes capturing the same paper write it once.
func (c *run) store(ctx context.Context) (*library.Paper, bool, error) {
	sum := hash(c.data)
	if c.o.Engine != nil {
		doc, err := c.o.Engine.OpenBytes(c.data)
		if err != nil {
			return nil, false, fmt.Errorf("%s: %w", c.id.Input, err)
		}
		doc.Close()
	}
	rec := c.rec
	if rec == nil {
		rec = &metadata.Record{}
	}
	if c.o.DOI != "" && rec.DOI == "" {
		rec.DOI = c.o.DOI
		rec.SetSource(metadata.FieldDOI, metadata.SourceUser)
	}
	rec.Normalize()

	unlock, err := c.lib.Lock(ctx)
	if err != nil {
		return nil, false, err
	}
	defer unlock()
	papers, _ := c.lib.Papers()
	for _, p := range papers {
		if p.PDFSHA256 == sum || (c.o.CiteKey == "" && sameWork(p, rec)) {
			return p, true, nil
		}
	}
	key, err := c.key(rec, papers)
	if err != nil {
		return nil, false, err
	}
	now := c.o.Now()
	p, err := c.lib.NewPaper(key, now.Unix())
	if err != nil {
		return nil, false, err
	}
	kind := map[identifier.Kind]string{
		identifier.KindLocalPDF: "local", identifier.KindArxiv: "arxiv",
		identifier.KindDOI: "doi", identifier.KindPDFURL: "url",
	}[c.id.Kind]
	p.Sidecar = library.Sidecar{
		CiteKey:    key,
		Title:      rec.Title,
		Authors:    rec.AuthorDisplay(),
		Year:       rec.Year(),
		ArxivID:    rec.ArxivID,
		DOI:        rec.DOI,
		Container:  rec.ContainerTitle,
		Sources:    rec.Sources,
		Reconciled: rec.Reconciled,
		Warnings:   rec.Warnings,
		PDFSHA256:  sum,
		CapturedAt: strconv.FormatInt(now.Unix(), 10),
		Source:     library.Source{Kind: kind, Input: c.id.Input, URL: c.pdfURL},
		Metadata:   *rec,
	}
	if err := library.WriteFileAtomic(p.PDFPath, c.data, 0o644); err != nil {
		return nil, false, fmt.Errorf("save PDF: %w", err)
	}
	if err := c.lib.WriteSidecar(p); err != nil {
		os.Remove(p.PDFPath)
		return nil, false, fmt.Errorf("save metadata: %w", err)
	}
	return p, false, nil
}

// key returns --cite-key (if free) or a new key from the pattern.
func (c *run) key(rec *metadata.Record, papers []*library.Paper) (string, error) {
	taken := func(k string) bool {
		for _, p := range papers {
			if strings.EqualFold(p.CiteKey, k) {
				return true
			}
		}
		return false
	}
	if c.o.CiteKey != "" {
		if taken(c.o.CiteKey) {
			return "", fmt.Errorf("%w: %q belongs to another paper; choose another --cite-key", ErrKeyTaken, c.o.CiteKey)
		}
		return c.o.CiteKey, nil
	}
	var missing []string
	if rec.Title == "" {
		missing = append(missing, "title")
	}
	if len(rec.Authors) == 0 {
		missing = append(missing, "author")
	}
	if rec.Year() == 0 {
		missing = append(missing, "year")
	}
	if len(missing) > 0 {
		return "", fmt.Errorf("%w: the PDF's metadata has no %s; pass --cite-key <key> (e.g. --cite-key smith2023transport), or --doi <doi> to fetch the metadata from Crossref", ErrNeedMetadata, strings.Join(missing, ", "))
	}
	base, err := citekey.Make(c.o.Pattern, rec)
	if err != nil {
		return "", fmt.Errorf("make cite key: %w", err)
	}
	return citekey.Unique(base, taken)
}

func (c *run) find(match func(*library.Paper) bool) *library.Paper {
	papers, _ := c.lib.Papers()
	for _, p := range papers {
		if match(p) {
			return p
		}
	}
	return nil
}

func (c *run) findDOI(doi string) *library.Paper {
	n := identifier.NormalizeDOI(doi)
	return c.find(func(p *library.Paper) bool {
		return p.Metadata.DOI != "" && identifier.NormalizeDOI(p.Metadata.DOI) == n
	})
}

// sameWork reports whether p is the capture of the same identified work:
// same arXiv id and version, or same DOI for non-arXiv captures.
func sameWork(p *library.Paper, rec *metadata.Record) bool {
	if rec.ArxivID != "" {
		return p.Metadata.ArxivID == rec.ArxivID && p.Metadata.ArxivVersion == rec.ArxivVersion
	}
	return rec.DOI != "" && p.Metadata.ArxivID == "" && identifier.NormalizeDOI(p.Metadata.DOI) == identifier.NormalizeDOI(rec.DOI)
}

// looksLikePath reports whether s was probably meant as a local file: it
// ends in .pdf or contains a path separator, and is no URL.
func looksLikePath(s string) bool {
	s = strings.TrimSpace(s)
	if strings.Contains(s, "://") {
		return false
	}
	return strings.HasSuffix(strings.ToLower(s), ".pdf") || strings.ContainsRune(s, filepath.Separator)
}

func versioned(id string, v int) string {
	if v > 0 {
		return fmt.Sprintf("%sv%d", id, v)
	}
	return id
}

func hash(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
