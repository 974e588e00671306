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
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/identifier"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/metadata/pdfmeta"
	"github.com/crossmem/crossmem/internal/metadata/reconcile"
	"github.com/crossmem/crossmem/internal/pdf"
)

// MaxPDFBytes caps a downloaded PDF.
const MaxPDFBytes = 512 << 20

// ErrNeedMetadata is returned (wrapped, with what is missing, and the
// hint to name a cite key or a DOI) when a PDF comes without enough
// metadata to make a cite key and Options.CiteKey is empty.
var ErrNeedMetadata = errors.New("not enough metadata to make a cite key")

// OptionError is an option of a capture that is not valid, found by
// CheckOptions before any work: Options.DOI that is not a DOI (Err is
// ErrNotDOI), or Options.CiteKey that cannot be a cite key (Err wraps
// citekey.ErrInvalid).
type OptionError struct {
	Option string // "DOI" or "CiteKey", the field of Options
	Err    error
}

func (e *OptionError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *OptionError) Unwrap() error { return e.Err }

// ErrNotDOI is the error of an OptionError for a DOI option that is not a
// DOI.
var ErrNotDOI = errors.New("not a DOI")

// CheckOptions validates the options a user gives (o.DOI, o.CiteKey), as
// Run does first: an *OptionError for the first that is not valid.
func CheckOptions(o Options) error {
	if o.DOI != "" {
		if _, ok := identifier.ParseDOI(o.DOI); !ok {
			return &OptionError{Option: "DOI", Err: fmt.Errorf("%q is %w: pass it as 10.NNNN/suffix or https://doi.org/10.NNNN/suffix", o.DOI, ErrNotDOI)}
		}
	}
	if o.CiteKey != "" {
		if err := citekey.Valid(o.CiteKey); err != nil {
			return &OptionError{Option: "CiteKey", Err: err}
		}
	}
	return nil
}

// Options configures a capture.
type Options struct {
	DOI     string // --doi: fetch Crossref metadata for a local PDF or PDF URL
	CiteKey string // --cite-key: use this key instead of the pattern
	Pattern string // cite key pattern; "" means citekey.Default()

	Engine *pdf.Engine // validates PDFs and reads their own metadata (required)
	// Sources are the metadata lookups (internal/metadata/sources.New);
	// missing ones are simply not consulted.
	Sources reconcile.Sources
	// ArxivPDFURL builds the PDF link of an arXiv paper when no source
	// gave one (version 0 = latest); nil means https://arxiv.org/pdf/.
	ArxivPDFURL func(id string, version int) string
	HTTP        *fetch.Client // downloads PDFs (arXiv, DOI links, PDF URLs)
	// MetadataTimeout bounds the metadata lookups (default 60 s).
	MetadataTimeout time.Duration

	// Now gives the capture time; nil means time.Now.
	Now func() time.Time
	// Log receives progress lines ("arxiv_id: 1706.03762"); may be nil.
	Log func(format string, args ...any)
}

func (o Options) metadataTimeout() time.Duration {
	if o.MetadataTimeout <= 0 {
		return 60 * time.Second
	}
	return o.MetadataTimeout
}

// Result is a finished capture.
type Result struct {
	Paper    *library.Paper
	Existing bool          // the paper was already captured; nothing was written
	Input    identifier.ID // the classified input
	// Consulted lists the metadata questions asked and their outcomes
	// (empty for an existing paper).
	Consulted []metadata.Consultation
	// Offline is true when the metadata sources could not be reached and
	// the record is the PDF's own metadata (it says so in a warning): a
	// refresh when online can check it.
	Offline bool
}

// Run captures input into lib. Errors: an *OptionError (CheckOptions); an
// error wrapping identifier.ErrUnrecognized for input of no accepted form
// (a usage error); ErrNeedMetadata, library.ErrNoPDF (no PDF could be
// downloaded), library.ErrKeyInUse (Options.CiteKey is another paper's);
// pdf.ErrNotPDF for files that are not PDFs; metadata and network errors
// from the sources. Errors carry what to do next as a hint.Action.
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
	if err := CheckOptions(o); err != nil {
		return nil, err
	}
	id, err := identifier.Classify(input, nil)
	if err != nil {
		if looksLikePath(input) {
			return nil, fmt.Errorf("%s: no such file (%w)", input, err)
		}
		return nil, err
	}
	if o.DOI != "" {
		o.DOI, _ = identifier.ParseDOI(o.DOI)
	}
	// An arXiv DOI names an arXiv paper: Crossref does not know it.
	if id.Kind == identifier.KindDOI {
		if aid, ok := identifier.ArxivIDFromDOI(id.DOI); ok {
			id = identifier.ID{Kind: identifier.KindArxiv, Input: id.Input, ArxivID: aid}
		}
	}

	c := &run{lib: lib, o: o, id: id}
	if o.CiteKey != "" {
		if p, err := lib.Find(o.CiteKey); err == nil && !p.HasPDF() {
			c.attach = p
			c.useImportedIDs()
		}
	}
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
	return &Result{Paper: p, Existing: existing, Input: id, Consulted: c.consulted, Offline: c.offline && !existing}, nil
}

type run struct {
	lib       *library.Library
	o         Options
	id        identifier.ID
	rec       *metadata.Record
	published *metadata.Record
	preprint  *metadata.Record
	consulted []metadata.Consultation
	data      []byte // the PDF
	pdfURL    string
	existing  *library.Paper
	offline   bool // the sources could not be reached: the PDF's own metadata
	// attach is the metadata-only entry (from `crossmem import`) this
	// capture gives its PDF to: named by --cite-key, or the same work.
	attach *library.Paper
}

// useImportedIDs lets a local PDF or PDF URL attached to an imported entry
// be identified by the entry's DOI or arXiv id when --doi is not given.
func (c *run) useImportedIDs() {
	if c.o.DOI != "" || (c.id.Kind != identifier.KindLocalPDF && c.id.Kind != identifier.KindPDFURL) {
		return
	}
	m := c.attach.Metadata
	switch {
	case m.DOI != "":
		c.o.DOI = m.DOI
	case m.ArxivID != "":
		c.o.DOI = identifier.ArxivDOI(m.ArxivID)
	default:
		return
	}
	c.o.Log("using the DOI of the imported entry %s: %s", c.attach.CiteKey, c.o.DOI)
}

func (c *run) arxiv(ctx context.Context) error {
	c.o.Log("arxiv_id: %s", versioned(c.id.ArxivID, c.id.Version))
	if c.id.Version > 0 {
		if p := c.find(func(p *library.Paper) bool {
			return p.Metadata.ArxivID == c.id.ArxivID && p.Metadata.ArxivVersion == c.id.Version
		}); p != nil {
			c.existing = p
			return nil
		}
	}
	res, err := c.resolve(ctx, reconcile.Query{ArxivID: c.id.ArxivID, ArxivVersion: c.id.Version})
	if err != nil {
		return lookupFailed(fmt.Errorf("metadata for arXiv %s: %w", c.id.ArxivID, err), hint.Action{Kind: hint.CheckInput, What: "the arXiv id"})
	}
	c.o.Log("title: %s", c.rec.Title)
	if p := c.find(func(p *library.Paper) bool {
		return p.Metadata.ArxivID == c.rec.ArxivID && p.Metadata.ArxivVersion == c.rec.ArxivVersion
	}); p != nil {
		c.existing = p
		return nil
	}
	urls := res.PDFURLs
	if len(urls) == 0 {
		urls = []string{c.arxivPDF(c.rec.ArxivID, c.rec.ArxivVersion)}
	}
	if err := c.downloadFirst(ctx, urls); err != nil {
		id := c.rec.ArxivID
		return hint.Wrap(err, hint.Action{Kind: hint.RetryOrDownloadPDF, URL: "https://arxiv.org/abs/" + id, DOI: identifier.ArxivDOI(id)})
	}
	return nil
}

func (c *run) arxivPDF(id string, version int) string {
	if c.o.ArxivPDFURL != nil {
		return c.o.ArxivPDFURL(id, version)
	}
	u := "https://arxiv.org/pdf/" + id
	if version > 0 {
		u += fmt.Sprintf("v%d", version)
	}
	return u
}

func (c *run) doi(ctx context.Context) error {
	c.o.Log("DOI: %s", c.id.DOI)
	if p := c.findDOI(c.id.DOI); p != nil {
		c.existing = p
		return nil
	}
	res, err := c.resolve(ctx, reconcile.Query{DOI: c.id.DOI, WantPDF: true})
	if err != nil {
		return lookupFailed(fmt.Errorf("metadata for DOI %s: %w", c.id.DOI, err), hint.Action{Kind: hint.CheckInput, What: "the DOI"})
	}
	c.o.Log("title: %s", c.rec.Title)
	if len(res.PDFURLs) > 0 {
		if err := c.downloadFirst(ctx, res.PDFURLs); err == nil {
			return nil
		} else {
			return c.noPDF(fmt.Sprintf("downloading it failed: %v", err))
		}
	}
	reason := "no source knows an open-access PDF"
	if c.o.Sources.Unpaywall == nil {
		reason += "; set CROSSMEM_UNPAYWALL_EMAIL to ask Unpaywall"
	}
	return c.noPDF(reason)
}

func (c *run) noPDF(reason string) error {
	return hint.Wrap(fmt.Errorf("%w downloadable for DOI %s (%s)", library.ErrNoPDF, c.id.DOI, reason),
		hint.Action{Kind: hint.DownloadPDF, DOI: c.id.DOI})
}

// resolve asks the metadata sources and keeps the reconciled records.
func (c *run) resolve(ctx context.Context, q reconcile.Query) (*reconcile.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, c.o.metadataTimeout())
	defer cancel()
	res, err := reconcile.Resolve(ctx, q, c.o.Sources)
	if res != nil {
		c.consulted = res.Consulted
	}
	if err != nil {
		return nil, err
	}
	c.rec, c.published, c.preprint = res.Record, res.Published, res.Preprint
	c.logSources()
	return res, nil
}

// lookupFailed gives err, a failed metadata lookup, what to do next:
// reconnect when the sources could not be reached, notFound (check what
// was looked up) when none knows the work.
func lookupFailed(err error, notFound hint.Action) error {
	switch {
	case errors.Is(err, reconcile.ErrSourcesFailed):
		return hint.Wrap(err, hint.Action{Kind: hint.CheckNetwork})
	case errors.Is(err, reconcile.ErrNotFound):
		return hint.Wrap(err, notFound)
	}
	return err
}

// logSources reports, one line per question, which sources answered,
// which did not know the work, which failed and which title-search hits
// were rejected.
func (c *run) logSources() {
	for _, x := range c.consulted {
		switch x.Outcome {
		case metadata.OutcomeFailed, metadata.OutcomeRejected:
			c.o.Log("%s %s: %s (%s)", x.Source, x.Query, strings.ToUpper(x.Outcome), x.Detail)
		default:
			c.o.Log("%s %s: %s", x.Source, x.Query, x.Outcome)
		}
	}
}

// downloadFirst downloads the first of urls that yields a PDF. The error
// joins the errors of every link tried.
func (c *run) downloadFirst(ctx context.Context, urls []string) error {
	var errs []error
	for _, u := range urls {
		if err := c.download(ctx, u); err != nil {
			errs = append(errs, err)
			continue
		}
		c.pdfURL = u
		return nil
	}
	return errors.Join(errs...)
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
		return hint.Wrap(err, hint.Action{Kind: hint.SavePDF})
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
			return hint.Wrap(fmt.Errorf("DOI %s is already captured as %s with a different PDF (SHA-256 %s)", c.o.DOI, p.CiteKey, p.PDFSHA256),
				hint.Action{Kind: hint.SeparateEntry, Key: p.CiteKey})
		}
		q := reconcile.Query{DOI: c.o.DOI}
		if id, ok := identifier.ArxivIDFromDOI(c.o.DOI); ok {
			q = reconcile.Query{ArxivID: id}
		}
		if _, err := c.resolve(ctx, q); err != nil {
			return lookupFailed(fmt.Errorf("metadata for DOI %s: %w", c.o.DOI, err), hint.Action{Kind: hint.CheckDOIOption})
		}
		return nil
	}
	infoRec := pdfmeta.FromInfo(info.Title, info.Author, info.CreationDate)
	x, _ := pdfmeta.ParseXMP(c.data)
	own := pdfmeta.Merge(infoRec, x)
	if own.DOI != "" {
		// The PDF names its own DOI (XMP prism:doi): look it up.
		if _, err := c.resolve(ctx, reconcile.Query{DOI: own.DOI}); err == nil {
			c.rec.Warn(fmt.Sprintf("identified by the DOI in the PDF's own metadata (%s)", own.DOI))
			return nil
		}
	}
	if own.Title != "" {
		c.o.Log("title: %s (from the PDF's metadata)", own.Title)
		q := reconcile.Query{Title: own.Title, Year: own.Year()}
		if len(own.Authors) > 0 {
			q.Author = own.Authors[0].FamilyOrLiteral()
		}
		_, err := c.resolve(ctx, q)
		if err == nil {
			c.rec.Warn(fmt.Sprintf("identified by a title search for the PDF's own title %q, confirmed by title, first author and year", own.Title))
			return nil
		}
		// Offline or unknown to the sources: the PDF's own metadata is
		// all there is, and the record says so.
		c.rec = own
		if errors.Is(err, reconcile.ErrSourcesFailed) {
			what := fmt.Sprint(err)
			var fe *reconcile.FailureError
			if errors.As(err, &fe) {
				c.consulted = fe.Consulted
			}
			if names := reconcile.FailedSources(c.consulted); len(names) > 0 {
				what = strings.Join(names, ", ") + " failed; details in the sidecar's consulted list"
			}
			c.rec.Warn(fmt.Sprintf("metadata sources could not be reached (%s); using the PDF's own metadata only until it is refreshed online", what))
			c.offline = true
		} else {
			c.rec.Warn("no metadata source found this title; using the PDF's own metadata only")
		}
		c.logSources()
		return nil
	}
	c.rec = own
	return nil
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
		if p.HasPDF() && (p.PDFSHA256 == sum || (c.o.CiteKey == "" && sameWork(p, rec))) {
			return p, true, nil
		}
	}
	if c.attach == nil && c.o.CiteKey == "" {
		for _, p := range papers {
			if !p.HasPDF() && sameImportedWork(&p.Metadata, rec) {
				c.attach = p
				break
			}
		}
	}
	if c.attach != nil {
		p, err := c.attachTo(c.attach.CiteKey, rec, sum)
		return p, false, err
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
		Source:     c.source(),
		Metadata:   *rec,
		Published:  c.published,
		Preprint:   c.preprint,
		Consulted:  c.consulted,
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

// source describes where this capture came from.
func (c *run) source() library.Source {
	kind := map[identifier.Kind]string{
		identifier.KindLocalPDF: "local", identifier.KindArxiv: "arxiv",
		identifier.KindDOI: "doi", identifier.KindPDFURL: "url",
	}[c.id.Kind]
	return library.Source{Kind: kind, Input: c.id.Input, URL: c.pdfURL}
}

// key returns --cite-key (if free) or a new key from the pattern.
func (c *run) key(rec *metadata.Record, papers []*library.Paper) (string, error) {
	taken := func(k string) bool { return library.KeyTaken(papers, k) }
	if c.o.CiteKey != "" {
		if taken(c.o.CiteKey) {
			return "", hint.Wrap(fmt.Errorf("%w: %q belongs to another paper", library.ErrKeyInUse, c.o.CiteKey), hint.Action{Kind: hint.OtherCiteKey})
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
		return "", hint.Wrap(fmt.Errorf("%w: the PDF's metadata has no %s", ErrNeedMetadata, strings.Join(missing, ", ")), hint.Action{Kind: hint.NameCiteKey})
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
		if p.HasPDF() && match(p) {
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
