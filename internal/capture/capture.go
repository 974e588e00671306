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
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/crossmem/crossmem/internal/citekey"
	"github.com/crossmem/crossmem/internal/fetch"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/identifier"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/metadata/reconcile"
	"github.com/crossmem/crossmem/internal/pdf"
)

// MaxPDFBytes caps a downloaded PDF.
const MaxPDFBytes = 512 << 20

// ErrNeedMetadata is returned (wrapped, with why no title was found, and
// the hint to name a cite key or a DOI) when a capture has no title to make
// a cite key from, Options.CiteKey is empty and there is no file name to
// make one from either (an arXiv id or a DOI whose sources give no title). A
// title is all a key needs: a missing author or year takes the pattern's
// fallback. A PDF that gives no title is kept under a key made from its
// file name (citekey.FromFileName), with no title and a warning saying so.
var ErrNeedMetadata = errors.New("no title to make a cite key from")

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
	// MetadataTimeout bounds the metadata lookups of one capture or
	// refresh, all questions to all sources together (default
	// DefaultMetadataTimeout). When it runs out, the sources that have not
	// answered count as failed.
	MetadataTimeout time.Duration
	// Offline skips the metadata lookups of a local PDF or PDF URL: the
	// paper is stored with what the PDF says and its lookup is pending
	// (Result.Pending), as when the sources cannot be reached. A batch
	// sets it after one capture found the network unreachable.
	Offline bool
	// OnLookup, when set, is called as each metadata question is asked
	// (Lookup.Done false) and answered (Done true), from several
	// goroutines at once.
	OnLookup func(Lookup)

	// SourceURL, for a local PDF, is the http(s) address a browser fetched
	// it from (crossmem serve's POST /capture, capture --via-browser): the
	// sidecar's source is then {kind "browser", input and url SourceURL}
	// instead of the temporary file's path.
	SourceURL string

	// Now gives the capture time; nil means time.Now.
	Now func() time.Time
	// Log receives progress lines ("arxiv_id: 1706.03762"); may be nil.
	Log func(format string, args ...any)
}

// DefaultMetadataTimeout is Options.MetadataTimeout's default.
const DefaultMetadataTimeout = 30 * time.Second

func (o Options) metadataTimeout() time.Duration {
	if o.MetadataTimeout <= 0 {
		return DefaultMetadataTimeout
	}
	return o.MetadataTimeout
}

// Lookup is one metadata question, as Options.OnLookup reports it.
type Lookup struct {
	Source string // metadata.SourceArxiv, SourceCrossref, …
	Query  string // "arxiv:2206.10883v3", "doi:10.1093/bmb/ldu038", "title:…"
	Done   bool   // false when asked, true when answered
	// Outcome is set when Done: metadata.OutcomeOK, OutcomeNotFound or
	// OutcomeFailed.
	Outcome string
}

// Result is a finished capture.
type Result struct {
	Paper    *library.Paper
	Existing bool          // the paper was already captured; nothing was written
	Input    identifier.ID // the classified input
	// Consulted lists the metadata questions asked and their outcomes
	// (empty for an existing paper).
	Consulted []metadata.Consultation
	// Pending is true when the metadata sources could not be reached (or
	// were not asked: Options.Offline) and the record is what the PDF says
	// (it says so in a warning): the sidecar records the lookup as
	// pending, and crossmem refresh --pending completes it.
	Pending bool
	// Unreachable is true when no source could be reached at all: every
	// question failed to connect or ran out of time (the network is down
	// or hangs). Later captures of a batch can then skip the lookups
	// (Options.Offline).
	Unreachable bool
	// KeyIgnored is the cite key asked for (Options.CiteKey) when the PDF
	// was captured before under another key, which it keeps.
	KeyIgnored string
	// Identified says how the paper was identified: by the arXiv id or DOI
	// its first page prints or its metadata gives, by --doi, or by a
	// title search; "" when it was not looked up.
	Identified string
	// Insecure is true for a PDF downloaded over plain http://.
	Insecure bool
	// SubtitlesAdded is true when a talk already captured was given a
	// subtitle file (TalkOptions.Subs): it was stored with the recording
	// and the sidecar names it as the transcript; compile again to use it.
	SubtitlesAdded bool
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
		return c.existingResult(), nil
	}
	p, existing, err := c.store(ctx)
	if err != nil {
		return nil, err
	}
	if existing {
		c.existing = p
		return c.existingResult(), nil
	}
	return &Result{Paper: p, Input: id, Consulted: c.consulted, Pending: c.pending,
		Unreachable: c.unreachable, Identified: c.identified, Insecure: id.Insecure}, nil
}

// existingResult is the Result for a paper captured before: the cite key
// asked for, when it is another, is reported as ignored.
func (c *run) existingResult() *Result {
	p := c.existing
	r := &Result{Paper: p, Existing: true, Input: c.id, Insecure: c.id.Insecure}
	if k := c.o.CiteKey; k != "" && k != p.CiteKey && !slices.Contains(p.Aliases, k) {
		r.KeyIgnored = k
	}
	return r
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
	// own is what the PDF says about itself (Identify), nil until read.
	own     *Identity
	pending bool // the lookup is pending: the record is what the PDF says
	// lookupDeadline ends every metadata question of the capture: set at
	// the first, Options.MetadataTimeout later.
	lookupDeadline time.Time
	// unreachable: every question failed to connect or ran out of time.
	unreachable bool
	identified  string
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

// resolve asks the metadata sources and keeps the reconciled records. All
// the questions of a capture (an identifier, then a title search) share one
// deadline, Options.MetadataTimeout after the first; each is reported to
// Options.OnLookup.
func (c *run) resolve(ctx context.Context, q reconcile.Query) (*reconcile.Result, error) {
	if c.lookupDeadline.IsZero() {
		c.lookupDeadline = time.Now().Add(c.o.metadataTimeout())
	}
	ctx, cancel := context.WithDeadline(ctx, c.lookupDeadline)
	defer cancel()
	w := &watch{on: c.o.OnLookup}
	res, err := reconcile.Resolve(ctx, q, w.sources(c.o.Sources))
	c.unreachable = w.unreachable()
	// Every question of the capture is kept, in the order asked.
	asked := len(c.consulted)
	if res != nil {
		c.consulted = append(c.consulted[:asked:asked], res.Consulted...)
	}
	var fe *reconcile.FailureError
	if errors.As(err, &fe) {
		c.consulted = append(c.consulted[:asked:asked], fe.Consulted...)
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

// fromPDF fills the metadata of a local or downloaded PDF: it reads what
// the PDF says about itself (Identify), then looks the paper up by --doi,
// else by the arXiv id or DOI the PDF gives, else by a confirmed title
// search, and checks the answer against the PDF (reconcile.Witness). When
// the sources cannot be reached, the record is what the PDF says and the
// lookup is pending; when none knows the paper, the record is what the PDF
// says, with a warning.
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
	c.own = Identify(doc, c.data)
	doc.Close()
	own := c.own.Record
	if own.Title != "" {
		c.o.Log("title: %s (from %s)", own.Title, strings.Join(own.FieldSources[metadata.FieldTitle], ", "))
	}

	if c.o.DOI != "" {
		c.o.Log("Fetching CrossRef metadata for DOI %s", c.o.DOI)
		if p := c.findDOI(c.o.DOI); p != nil && c.o.CiteKey == "" {
			return hint.Wrap(fmt.Errorf("DOI %s is already captured as %s with a different PDF (SHA-256 %s)", c.o.DOI, p.CiteKey, p.PDFSHA256),
				hint.Action{Kind: hint.SeparateEntry, Key: p.CiteKey})
		}
	}
	q, how := c.query()
	if q == nil {
		c.rec = cloneRecord(own)
		return nil
	}
	if c.o.Offline {
		c.lookupPending("not asked: the network could not be reached earlier in this run")
		return nil
	}
	_, err = c.resolve(ctx, *q)
	if err == nil {
		c.identified = how
		c.o.Log("identified by %s", how)
		reconcile.Witness(c.rec, own)
		return nil
	}
	switch {
	case errors.Is(err, reconcile.ErrSourcesFailed):
		c.lookupPending(c.failedWhat(err))
		return nil
	case !errors.Is(err, reconcile.ErrNotFound):
		return err
	case c.o.DOI != "":
		return lookupFailed(fmt.Errorf("metadata for DOI %s: %w", c.o.DOI, err), hint.Action{Kind: hint.CheckDOIOption})
	}
	// Nobody knows the identifier: try the title, when it was not the
	// question already.
	if q.Title == "" && own.Title != "" {
		tq := titleQuery(own)
		if _, err2 := c.resolve(ctx, tq); err2 == nil {
			c.identified = "a title search for the title the PDF gives"
			c.rec.Warn(fmt.Sprintf("no metadata source knows %s; identified by a title search for the PDF's title, confirmed by title, first author and year", how))
			reconcile.Witness(c.rec, own)
			return nil
		} else if errors.Is(err2, reconcile.ErrSourcesFailed) {
			c.lookupPending(c.failedWhat(err2))
			return nil
		}
	}
	c.rec = cloneRecord(own)
	c.rec.Warn(fmt.Sprintf("no metadata source knows this paper, asked by %s; the record is what the PDF says", how))
	c.logSources()
	return nil
}

// query returns what to look the PDF up by, and how that reads in a
// message: --doi, else the arXiv id its first page prints or its metadata
// gives, else its DOI, else its title. nil when there is nothing to ask.
func (c *run) query() (*reconcile.Query, string) {
	own := c.own.Record
	switch {
	case c.o.DOI != "":
		if id, ok := identifier.ArxivIDFromDOI(c.o.DOI); ok {
			return &reconcile.Query{ArxivID: id}, "the DOI " + c.o.DOI + " given with --doi"
		}
		return &reconcile.Query{DOI: c.o.DOI}, "the DOI " + c.o.DOI + " given with --doi"
	case own.ArxivID != "":
		return &reconcile.Query{ArxivID: own.ArxivID, ArxivVersion: own.ArxivVersion},
			fmt.Sprintf("the arXiv id %s %s", versioned(own.ArxivID, own.ArxivVersion), sourceWords(own.FieldSources[metadata.FieldArxivID]))
	case own.DOI != "":
		if id, ok := identifier.ArxivIDFromDOI(own.DOI); ok {
			return &reconcile.Query{ArxivID: id}, fmt.Sprintf("the DOI %s %s", own.DOI, sourceWords(own.FieldSources[metadata.FieldDOI]))
		}
		return &reconcile.Query{DOI: own.DOI}, fmt.Sprintf("the DOI %s %s", own.DOI, sourceWords(own.FieldSources[metadata.FieldDOI]))
	case own.Title != "":
		q := titleQuery(own)
		return &q, "a title search for the title the PDF gives, confirmed by title, first author and year"
	}
	return nil, ""
}

func titleQuery(own *metadata.Record) reconcile.Query {
	q := reconcile.Query{Title: own.Title, Year: own.Year()}
	if len(own.Authors) > 0 {
		q.Author = own.Authors[0].FamilyOrLiteral()
	}
	return q
}

// sourceWords says where in the PDF a value was found ("printed on the
// first page, in the PDF's XMP metadata").
func sourceWords(sources []string) string {
	var out []string
	for _, s := range sources {
		switch s {
		case metadata.SourcePDFText:
			out = append(out, "printed on the first page")
		case metadata.SourcePDFXMP:
			out = append(out, "in the PDF's XMP metadata")
		case metadata.SourcePDFInfo:
			out = append(out, "in the PDF's document information")
		default:
			out = append(out, "from "+s)
		}
	}
	return strings.Join(out, " and ")
}

// lookupPending makes the record what the PDF says, with the DOI given
// with --doi (unconfirmed), and records that the lookup is pending: the
// sources could not be reached (why).
func (c *run) lookupPending(why string) {
	c.rec = cloneRecord(c.own.Record)
	c.pending = true
	if c.o.DOI != "" && identifier.NormalizeDOI(c.rec.DOI) != identifier.NormalizeDOI(c.o.DOI) {
		c.rec.DOI = c.o.DOI
		delete(c.rec.FieldSources, metadata.FieldDOI)
		c.rec.SetSource(metadata.FieldDOI, metadata.SourceUser)
	} else if c.o.DOI != "" {
		c.rec.SetSource(metadata.FieldDOI, metadata.SourceUser)
	}
	msg := "metadata lookup pending: " + why + "; the record is what the PDF says"
	if c.o.DOI != "" {
		msg += ", with the DOI given with --doi, unconfirmed"
	}
	c.rec.Warn(msg)
}

// failedWhat says in a few words which sources failed and how.
func (c *run) failedWhat(err error) string {
	names := reconcile.FailedSources(c.consulted)
	if len(names) == 0 {
		return fmt.Sprint(err)
	}
	detail := ""
	for _, x := range c.consulted {
		if x.Outcome == metadata.OutcomeFailed {
			detail = x.Detail
			break
		}
	}
	if i := strings.LastIndex(detail, ": "); i >= 0 {
		detail = detail[i+2:]
	}
	if strings.Contains(detail, context.DeadlineExceeded.Error()) {
		detail = "no answer within " + c.o.metadataTimeout().String()
	}
	return fmt.Sprintf("%s failed (%s)", strings.Join(names, ", "), detail)
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
		if c.own == nil {
			// A PDF downloaded for an arXiv id or a DOI: what it says about
			// itself is checked against the sources' record.
			c.own = Identify(doc, c.data)
			if c.rec != nil {
				reconcile.Witness(c.rec, c.own.Record)
			}
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
		CiteKey:       key,
		Title:         rec.Title,
		Authors:       rec.AuthorDisplay(),
		Year:          rec.Year(),
		ArxivID:       rec.ArxivID,
		DOI:           rec.DOI,
		Container:     rec.ContainerTitle,
		Sources:       rec.Sources,
		Reconciled:    rec.Reconciled,
		Warnings:      rec.Warnings,
		PDFSHA256:     sum,
		CapturedAt:    strconv.FormatInt(now.Unix(), 10),
		Source:        c.source(),
		Metadata:      *rec,
		Published:     c.published,
		Preprint:      c.preprint,
		Consulted:     c.consulted,
		PDFMetadata:   c.ownRecord(),
		LookupPending: c.pending,
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

// ownRecord is what the PDF says about itself, for the sidecar.
func (c *run) ownRecord() *metadata.Record {
	if c.own == nil {
		return nil
	}
	r := cloneRecord(c.own.Record)
	r.Normalize()
	return r
}

// source describes where this capture came from.
func (c *run) source() library.Source {
	kind := map[identifier.Kind]string{
		identifier.KindLocalPDF: "local", identifier.KindArxiv: "arxiv",
		identifier.KindDOI: "doi", identifier.KindPDFURL: "url",
	}[c.id.Kind]
	if c.id.Kind == identifier.KindLocalPDF && c.o.SourceURL != "" {
		return library.Source{Kind: "browser", Input: c.o.SourceURL, URL: c.o.SourceURL}
	}
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
	if rec.Title == "" {
		why := "the metadata sources give none"
		if c.own != nil && c.own.NoTitle() != "" {
			why = c.own.NoTitle()
		}
		if c.pending {
			why += "; the metadata sources could not be reached"
		}
		// A PDF is never lost for want of a title: it is kept under a key
		// made from its file name, with no title and a warning.
		if base := citekey.FromFileName(c.fileName()); base != "" {
			key, err := citekey.Unique(base, taken)
			if err != nil {
				return "", fmt.Errorf("make cite key: %w", err)
			}
			rec.Warn("no title: " + why + "; kept with no title under a key made from its file name (crossmem rekey gives it another; to identify it, remove it and capture it again with --doi or --cite-key)")
			return key, nil
		}
		return "", hint.Wrap(fmt.Errorf("%w: %s", ErrNeedMetadata, why), hint.Action{Kind: hint.NameCiteKey})
	}
	base, err := citekey.Make(c.o.Pattern, rec)
	if err != nil {
		return "", fmt.Errorf("make cite key: %w", err)
	}
	return citekey.Unique(base, taken)
}

// fileName is the name of the PDF file captured: the local file's, or the
// last segment of a PDF URL's path; "" for an arXiv id or a DOI.
func (c *run) fileName() string {
	switch c.id.Kind {
	case identifier.KindLocalPDF:
		return filepath.Base(c.id.Input)
	case identifier.KindPDFURL:
		if u, err := url.Parse(c.id.URL); err == nil {
			return path.Base(u.Path)
		}
	}
	return ""
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
