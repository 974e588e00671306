package reconcile

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/crossmem/crossmem/internal/fetch"
	"github.com/crossmem/crossmem/internal/identifier"
	"github.com/crossmem/crossmem/internal/metadata"
)

// ErrNotFound is returned by Resolve when every source that answered said
// the work does not exist.
var ErrNotFound = errors.New("no metadata source knows this work")

// ErrSourcesFailed is returned by Resolve when no source gave an answer
// and at least one failed (timeout, 5xx, 429 after retries, unreadable
// response): the work may exist; the capture cannot be checked.
var ErrSourcesFailed = errors.New("metadata sources failed")

// Sources are the lookups Resolve may use. A nil function is a source that
// is not configured and is not consulted. Functions must return an error
// wrapping fetch.ErrNotFound when the source does not know the work, and
// any other error when the source failed. They may be called concurrently.
type Sources struct {
	Arxiv          func(ctx context.Context, id string, version int) (*metadata.Observation, error)
	Crossref       func(ctx context.Context, doi string) (*metadata.Observation, error)
	CrossrefSearch func(ctx context.Context, title, author string) ([]*metadata.Observation, error)
	OpenAlex       func(ctx context.Context, doi string) (*metadata.Observation, error)
	OpenAlexSearch func(ctx context.Context, title string) ([]*metadata.Observation, error)
	DataCite       func(ctx context.Context, doi string) (*metadata.Observation, error)
	Unpaywall      func(ctx context.Context, doi string) (*metadata.Observation, error)
}

// Query identifies the work to resolve. At least one of DOI, ArxivID and
// Title must be set.
type Query struct {
	DOI          string // any DOI; an arXiv DOI 10.48550/arXiv.<id> is read as ArxivID
	ArxivID      string // versionless
	ArxivVersion int    // 0 = latest
	// Title, Author (first author's family name) and Year come from the
	// PDF's own metadata; they are used only for the title-search fallback
	// and never copied into the record unconfirmed.
	Title  string
	Author string
	Year   int
	// WantPDF also asks Unpaywall (the open-access index) for PDFs of the
	// work; Result.PDFURLs then lists every PDF link any source knows.
	WantPDF bool
}

// Outcomes of a consultation (see metadata.Consultation).
const (
	OK       = metadata.OutcomeOK
	NotFound = metadata.OutcomeNotFound
	Failed   = metadata.OutcomeFailed
	Rejected = metadata.OutcomeRejected
)

// Consultation is metadata.Consultation.
type Consultation = metadata.Consultation

// Result is a resolved work.
type Result struct {
	// Record is the version of the work that was captured, reconciled.
	Record *metadata.Record
	// Published is the published version when the captured one is a
	// preprint and the published version is known; Preprint is the
	// preprint when the captured one is published. Nil otherwise.
	Published *metadata.Record
	Preprint  *metadata.Record
	// Consulted lists every question asked, in order.
	Consulted []Consultation
	// PDFURLs are PDF links of the captured version, best first.
	PDFURLs []string
}

// Failed returns the names of the sources that failed, without
// duplicates.
func (r *Result) Failed() []string { return FailedSources(r.Consulted) }

// FailedSources returns the names of the sources whose questions in cs
// failed, without duplicates, in the order they were asked (as in a
// FailureError's Consulted).
func FailedSources(cs []Consultation) []string {
	var out []string
	for _, c := range cs {
		if c.Outcome == Failed && !slices.Contains(out, c.Source) {
			out = append(out, c.Source)
		}
	}
	return out
}

// resolver holds the state of one Resolve call.
type resolver struct {
	src       Sources
	mu        sync.Mutex
	obs       []*metadata.Observation
	consulted []Consultation
	asked     map[string]bool // source|lower-cased query already asked (claim)
	notes     []string        // warnings about near-miss title-search hits
}

// Resolve asks the configured sources about the work, follows the links
// between its preprint and published versions, falls back to a confirmed
// title search when fewer than two sources describe the captured version,
// and reconciles the answers. It returns ErrNotFound or ErrSourcesFailed
// (wrapped, naming the sources) when nothing could be learnt.
func Resolve(ctx context.Context, q Query, src Sources) (*Result, error) {
	r := &resolver{src: src, asked: map[string]bool{}}
	if q.DOI != "" {
		if id, ok := identifier.ArxivIDFromDOI(q.DOI); ok && q.ArxivID == "" {
			q.ArxivID, q.DOI = id, ""
		}
	}
	capturedPreprint := q.ArxivID != ""

	// Round 1: the identifiers we were given.
	r.round(ctx, r.lookups(q.ArxivID, q.ArxivVersion, q.DOI))

	// Without any identifier, a confirmed title search finds one.
	if q.ArxivID == "" && q.DOI == "" && q.Title != "" {
		ref := &metadata.Record{Title: q.Title, Issued: metadata.Date{Year: q.Year}}
		if q.Author != "" {
			ref.Authors = []metadata.Name{{Family: q.Author}}
		}
		if hit := r.titleSearch(ctx, ref, nil); hit != nil {
			q.DOI = hit.Record.DOI
			r.round(ctx, r.lookups("", 0, q.DOI))
		}
	}

	// Round 2: versions the answers link to.
	r.round(ctx, r.linkedLookups())

	res := r.result(q, capturedPreprint)
	if res == nil {
		return nil, r.failure()
	}

	// Fallback: a confirmed title search as a second witness.
	if countSources(r.versionObs(res.captured)) < 2 && res.Record.Title != "" {
		r.titleSearch(ctx, res.Record, res.knownDOIs)
		r.round(ctx, r.linkedLookups())
		res = r.result(q, capturedPreprint)
	}

	if q.WantPDF && r.src.Unpaywall != nil {
		for _, d := range []string{res.Record.DOI, res.Record.DOIPublished} {
			if d == "" {
				continue
			}
			r.round(ctx, []lookup{{metadata.SourceUnpaywall, "doi:" + d, func(ctx context.Context) (*metadata.Observation, error) { return r.src.Unpaywall(ctx, d) }}})
		}
		res = r.result(q, capturedPreprint)
	}
	return &res.Result, nil
}

type lookup struct {
	source, query string
	run           func(ctx context.Context) (*metadata.Observation, error)
}

// lookups returns the questions to ask about an arXiv id and/or DOI.
func (r *resolver) lookups(arxivID string, version int, doi string) []lookup {
	var ls []lookup
	add := func(source, query string, f func(ctx context.Context) (*metadata.Observation, error)) {
		ls = append(ls, lookup{source, query, f})
	}
	if arxivID != "" {
		ad := identifier.ArxivDOI(arxivID)
		if r.src.Arxiv != nil {
			q := "arxiv:" + arxivID
			if version > 0 {
				q += fmt.Sprintf("v%d", version)
			}
			add(metadata.SourceArxiv, q, func(ctx context.Context) (*metadata.Observation, error) { return r.src.Arxiv(ctx, arxivID, version) })
		}
		if r.src.DataCite != nil {
			add(metadata.SourceDataCite, "doi:"+ad, func(ctx context.Context) (*metadata.Observation, error) { return r.src.DataCite(ctx, ad) })
		}
		if r.src.OpenAlex != nil {
			add(metadata.SourceOpenAlex, "doi:"+ad, func(ctx context.Context) (*metadata.Observation, error) { return r.src.OpenAlex(ctx, ad) })
		}
	}
	if doi != "" {
		if r.src.Crossref != nil {
			add(metadata.SourceCrossref, "doi:"+doi, func(ctx context.Context) (*metadata.Observation, error) { return r.src.Crossref(ctx, doi) })
		}
		if r.src.OpenAlex != nil {
			add(metadata.SourceOpenAlex, "doi:"+doi, func(ctx context.Context) (*metadata.Observation, error) { return r.src.OpenAlex(ctx, doi) })
		}
	}
	return ls
}

// linkedLookups returns questions about DOIs the answers so far link to
// and that were not asked yet: Crossref (or DataCite for arXiv DOIs) and
// OpenAlex for each. A DOI Crossref does not know is asked of DataCite.
func (r *resolver) linkedLookups() []lookup {
	r.mu.Lock()
	var dois []string
	for _, o := range r.obs {
		for _, d := range []string{o.PublishedDOI, o.PreprintDOI, o.Record.DOIPublished, o.Record.DOIPreprint, o.Record.DOI} {
			if d != "" && !slices.ContainsFunc(dois, func(x string) bool { return sameDOI(x, d) }) {
				dois = append(dois, d)
			}
		}
	}
	// A DOI Crossref does not know may be in no answer; DataCite is asked
	// about it below (round skips what was asked already).
	for _, c := range r.consulted {
		if c.Source != metadata.SourceCrossref || c.Outcome != NotFound || r.src.DataCite == nil {
			continue
		}
		if d, ok := strings.CutPrefix(c.Query, "doi:"); ok && !slices.ContainsFunc(dois, func(x string) bool { return sameDOI(x, d) }) {
			dois = append(dois, d)
		}
	}
	r.mu.Unlock()
	var ls []lookup
	for _, d := range dois {
		d := d
		if id, ok := identifier.ArxivIDFromDOI(d); ok {
			ls = append(ls, r.lookups(id, 0, "")...)
			continue
		}
		ls = append(ls, r.lookups("", 0, d)...)
		if r.src.DataCite != nil && r.crossrefNotFound(d) {
			ls = append(ls, lookup{metadata.SourceDataCite, "doi:" + d, func(ctx context.Context) (*metadata.Observation, error) { return r.src.DataCite(ctx, d) }})
		}
	}
	return ls
}

func (r *resolver) crossrefNotFound(doi string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.consulted {
		if c.Source == metadata.SourceCrossref && c.Outcome == NotFound && sameDOI(strings.TrimPrefix(c.Query, "doi:"), doi) {
			return true
		}
	}
	return false
}

// round runs the lookups not asked before, concurrently, and records
// their outcomes.
func (r *resolver) round(ctx context.Context, ls []lookup) {
	var wg sync.WaitGroup
	for _, l := range ls {
		if !r.claim(l.source, l.query) {
			continue
		}
		wg.Add(1)
		go func(l lookup) {
			defer wg.Done()
			o, err := l.run(ctx)
			r.record(l.source, l.query, o, err)
		}(l)
	}
	wg.Wait()
	// Keep the consultation log in a stable order.
	r.mu.Lock()
	slices.SortStableFunc(r.consulted, func(a, b Consultation) int { return strings.Compare(a.Source+a.Query, b.Source+b.Query) })
	r.mu.Unlock()
}

// claim reports whether source has not been asked query yet (queries
// compare case-insensitively) and marks it asked.
func (r *resolver) claim(source, query string) bool {
	key := source + "|" + strings.ToLower(query)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.asked[key] {
		return false
	}
	r.asked[key] = true
	return true
}

func (r *resolver) record(source, query string, o *metadata.Observation, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := Consultation{Source: source, Query: query, Outcome: OK}
	switch {
	case err == nil && o != nil && o.Record != nil:
		if o.Source == "" {
			o.Source = source
		}
		if o.Query == "" {
			o.Query = query
		}
		r.obs = append(r.obs, o)
	case err == nil:
		c.Outcome, c.Detail = NotFound, "empty answer"
	case errors.Is(err, fetch.ErrNotFound):
		c.Outcome, c.Detail = NotFound, err.Error()
	default:
		c.Outcome, c.Detail = Failed, err.Error()
	}
	r.consulted = append(r.consulted, c)
}

// titleSearch asks the title-search sources about ref's title and keeps
// the hits confirmed as the same work (Confirm). A confirmed hit whose DOI
// is not in known is another version or the work itself found by title;
// unconfirmed hits are recorded as rejected. It returns the best confirmed
// hit, or nil.
func (r *resolver) titleSearch(ctx context.Context, ref *metadata.Record, known []string) *metadata.Observation {
	type search struct {
		source string
		run    func(ctx context.Context) ([]*metadata.Observation, error)
	}
	var ss []search
	author := ""
	if len(ref.Authors) > 0 {
		author = ref.Authors[0].FamilyOrLiteral()
	}
	if r.src.CrossrefSearch != nil {
		ss = append(ss, search{metadata.SourceCrossref, func(ctx context.Context) ([]*metadata.Observation, error) {
			return r.src.CrossrefSearch(ctx, ref.Title, author)
		}})
	}
	if r.src.OpenAlexSearch != nil {
		ss = append(ss, search{metadata.SourceOpenAlex, func(ctx context.Context) ([]*metadata.Observation, error) {
			return r.src.OpenAlexSearch(ctx, ref.Title)
		}})
	}
	var best *metadata.Observation
	var wg sync.WaitGroup
	for _, s := range ss {
		query := "title:" + ref.Title
		if !r.claim(s.source, query) {
			continue
		}
		wg.Add(1)
		go func(s search) {
			defer wg.Done()
			hits, err := s.run(ctx)
			r.mu.Lock()
			defer r.mu.Unlock()
			if err != nil {
				out := Failed
				if errors.Is(err, fetch.ErrNotFound) {
					out = NotFound
				}
				r.consulted = append(r.consulted, Consultation{Source: s.source, Query: query, Outcome: out, Detail: err.Error()})
				return
			}
			found := false
			for _, h := range hits {
				if h == nil || h.Record == nil {
					continue
				}
				if why := Confirm(h.Record, ref); why != "" {
					r.consulted = append(r.consulted, Consultation{Source: s.source, Query: query, Outcome: Rejected,
						Detail: fmt.Sprintf("returned a different work %q (%s): %s", h.Record.Title, h.Record.DOI, why)})
					if nearMiss(h.Record, ref) {
						r.notes = append(r.notes, fmt.Sprintf("%s title search also found %q (%s, %d, %d authors), not confirmed as this work (%s): possibly another version of it",
							s.source, h.Record.Title, h.Record.DOI, h.Record.Issued.Year, len(h.Record.Authors), why))
					}
					continue
				}
				found = true
				if h.Source == "" {
					h.Source = s.source
				}
				h.Query = query
				// The same source already answered for this DOI: no new witness.
				dup := slices.ContainsFunc(r.obs, func(o *metadata.Observation) bool {
					return o.Source == h.Source && sameDOI(o.Record.DOI, h.Record.DOI)
				})
				if !dup {
					r.obs = append(r.obs, h)
				}
				if best == nil {
					best = h
				}
			}
			if !found && len(hits) == 0 {
				r.consulted = append(r.consulted, Consultation{Source: s.source, Query: query, Outcome: NotFound, Detail: "no hits"})
			} else if found {
				r.consulted = append(r.consulted, Consultation{Source: s.source, Query: query, Outcome: OK})
			}
		}(s)
	}
	wg.Wait()
	return best
}

// nearMiss reports whether a rejected title-search hit resembles the work
// closely enough to mention: titles at least 60 % similar, or the same
// first author and a year at most one apart.
func nearMiss(hit, ref *metadata.Record) bool {
	if TitleSimilarity(hit.Title, ref.Title) >= 0.6 {
		return true
	}
	ha, _ := RepairNames(hit.Authors)
	ra, _ := RepairNames(ref.Authors)
	return len(ha) > 0 && len(ra) > 0 && FamilyKey(ha[0]) == FamilyKey(ra[0]) &&
		hit.Issued.Year > 0 && ref.Issued.Year > 0 && abs(hit.Issued.Year-ref.Issued.Year) <= 1
}

// Confirm checks that a title-search hit is the work described by ref:
// titles at least 90 % similar (TitleSimilarity), the same first-author
// family name when both have authors, and years at most one apart when
// both have years. It returns "" when confirmed, else the reason.
func Confirm(hit, ref *metadata.Record) string {
	if s := TitleSimilarity(hit.Title, ref.Title); s < 0.9 {
		return fmt.Sprintf("title similarity %.2f", s)
	}
	ha, _ := RepairNames(hit.Authors)
	ra, _ := RepairNames(ref.Authors)
	if len(ha) > 0 && len(ra) > 0 && FamilyKey(ha[0]) != FamilyKey(ra[0]) {
		return fmt.Sprintf("first author %q, not %q", ha[0].FamilyOrLiteral(), ra[0].FamilyOrLiteral())
	}
	if hit.Issued.Year > 0 && ref.Issued.Year > 0 && abs(hit.Issued.Year-ref.Issued.Year) > 1 {
		return fmt.Sprintf("year %d, not %d", hit.Issued.Year, ref.Issued.Year)
	}
	return ""
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

func sameDOI(a, b string) bool {
	return a != "" && identifier.NormalizeDOI(a) == identifier.NormalizeDOI(b)
}

func countSources(obs []*metadata.Observation) int {
	seen := map[string]bool{}
	for _, o := range obs {
		seen[o.Source] = true
	}
	return len(seen)
}

// FailureError is Resolve's error when nothing was resolved: it wraps
// ErrSourcesFailed (some source failed) or ErrNotFound, and carries every
// question asked with its outcome, so that callers can name the failed
// sources without parsing the message.
type FailureError struct {
	Err       error // ErrSourcesFailed or ErrNotFound
	Consulted []Consultation
	detail    string
}

func (e *FailureError) Error() string { return e.Err.Error() + ": " + e.detail }

func (e *FailureError) Unwrap() error { return e.Err }

// failure explains why nothing was resolved.
func (r *resolver) failure() error {
	var failed, notFound []string
	for _, c := range r.consulted {
		d := fmt.Sprintf("%s (%s: %s)", c.Source, c.Query, c.Detail)
		switch c.Outcome {
		case Failed:
			failed = append(failed, d)
		case NotFound, Rejected:
			notFound = append(notFound, d)
		}
	}
	e := &FailureError{Consulted: slices.Clone(r.consulted)}
	switch {
	case len(failed) > 0:
		e.Err, e.detail = ErrSourcesFailed, strings.Join(failed, "; ")
	case len(notFound) > 0:
		e.Err, e.detail = ErrNotFound, strings.Join(notFound, "; ")
	default:
		e.Err, e.detail = ErrNotFound, "no source is configured for this identifier"
	}
	return e
}

// resolved is a Result with the bookkeeping Resolve needs.
type resolved struct {
	Result
	captured  string // "preprint" or "published"
	knownDOIs []string
}

const (
	versionPreprint  = "preprint"
	versionPublished = "published"
)

// versionOf decides which version an observation describes.
func (r *resolver) versionOf(o *metadata.Observation, preprintDOIs, publishedDOIs []string) string {
	d := o.Record.DOI
	switch {
	case o.Source == metadata.SourceArxiv || o.IsPreprint:
		return versionPreprint
	case slices.ContainsFunc(publishedDOIs, func(x string) bool { return sameDOI(x, d) }):
		return versionPublished
	case slices.ContainsFunc(preprintDOIs, func(x string) bool { return sameDOI(x, d) }):
		return versionPreprint
	case o.Record.ArxivID != "" && d == "":
		return versionPreprint
	}
	return versionPublished
}

func (r *resolver) links() (preprints, published []string) {
	for _, o := range r.obs {
		for _, d := range []string{o.PreprintDOI, o.Record.DOIPreprint} {
			if d != "" {
				preprints = append(preprints, d)
			}
		}
		for _, d := range []string{o.PublishedDOI, o.Record.DOIPublished} {
			if d != "" {
				published = append(published, d)
			}
		}
		if o.IsPreprint && o.Record.DOI != "" {
			preprints = append(preprints, o.Record.DOI)
		}
		if o.Record.ArxivID != "" {
			preprints = append(preprints, identifier.ArxivDOI(o.Record.ArxivID))
		}
	}
	return preprints, published
}

func (r *resolver) versionObs(version string) []*metadata.Observation {
	r.mu.Lock()
	defer r.mu.Unlock()
	pre, pub := r.links()
	var out []*metadata.Observation
	for _, o := range r.obs {
		if r.versionOf(o, pre, pub) == version && o.Source != metadata.SourceUnpaywall {
			out = append(out, o)
		}
	}
	return out
}

// result reconciles the observations so far; nil when there are none for
// the captured version.
func (r *resolver) result(q Query, capturedPreprint bool) *resolved {
	captured := versionPublished
	if capturedPreprint {
		captured = versionPreprint
	} else if q.DOI != "" {
		// A DOI capture is the version that DOI names.
		r.mu.Lock()
		pre, _ := r.links()
		r.mu.Unlock()
		if slices.ContainsFunc(pre, func(x string) bool { return sameDOI(x, q.DOI) }) {
			captured = versionPreprint
		}
	}
	other := versionPublished
	if captured == versionPublished {
		other = versionPreprint
	}
	capObs := r.versionObs(captured)
	if len(capObs) == 0 {
		// Nothing describes the captured version itself, but maybe the
		// other one: better than nothing, with a warning.
		capObs = r.versionObs(other)
		if len(capObs) == 0 {
			return nil
		}
		captured, other = other, captured
	}
	res := &resolved{captured: captured}
	res.Record = Merge(capObs)
	if q.ArxivVersion > 0 && res.Record.ArxivVersion == 0 {
		res.Record.ArxivVersion = q.ArxivVersion
	}
	if otherObs := r.versionObs(other); len(otherObs) > 0 {
		o := Merge(otherObs)
		if captured == versionPreprint {
			res.Published = o
			if res.Record.DOIPublished == "" {
				res.Record.DOIPublished = o.DOI
			}
		} else {
			res.Preprint = o
			if res.Record.DOIPreprint == "" {
				res.Record.DOIPreprint = cmp.Or(o.DOI, arxivDOI(o))
			}
		}
		for _, w := range versionDifferences(res.Record, o, captured) {
			res.Record.Warn(w)
		}
	}
	if captured == versionPreprint && res.Record.DOIPreprint == "" {
		res.Record.DOIPreprint = cmp.Or(arxivDOI(res.Record), res.Record.DOI)
	}
	if captured == versionPublished && res.Record.DOIPublished == "" && res.Record.DOI != "" && res.Record.ArxivID == "" {
		res.Record.DOIPublished = res.Record.DOI
	}
	r.mu.Lock()
	res.Consulted = slices.Clone(r.consulted)
	for _, n := range r.notes {
		res.Record.Warn(n)
	}
	for _, o := range r.obs {
		if o.Source == metadata.SourceUnpaywall || r.versionOfLocked(o) == captured {
			for _, u := range o.PDFURLs {
				if !slices.Contains(res.PDFURLs, u) {
					res.PDFURLs = append(res.PDFURLs, u)
				}
			}
		}
		if o.Record.DOI != "" {
			res.knownDOIs = append(res.knownDOIs, o.Record.DOI)
		}
	}
	r.mu.Unlock()
	if f := res.Failed(); len(f) > 0 {
		res.Record.Warn("sources that failed (their view is missing): " + strings.Join(f, ", "))
	}
	if !res.Record.Reconciled {
		res.Record.Warn(fmt.Sprintf("not cross-checked: fewer than two sources agree on title, first author and year (sources: %s)", strings.Join(res.Record.Sources, ", ")))
	}
	return res
}

func (r *resolver) versionOfLocked(o *metadata.Observation) string {
	pre, pub := r.links()
	return r.versionOf(o, pre, pub)
}

func arxivDOI(r *metadata.Record) string {
	if r.ArxivID != "" {
		return identifier.ArxivDOI(r.ArxivID)
	}
	return ""
}

// versionDifferences describes how the other version differs from the
// captured one.
func versionDifferences(captured, other *metadata.Record, capturedVersion string) []string {
	label := "published version"
	if capturedVersion == versionPublished {
		label = "preprint"
	}
	id := cmp.Or(other.DOI, arxivDOI(other))
	var diffs []string
	if captured.Issued.Year > 0 && other.Issued.Year > 0 && captured.Issued.Year != other.Issued.Year {
		diffs = append(diffs, fmt.Sprintf("year %d vs %d", other.Issued.Year, captured.Issued.Year))
	}
	if captured.Title != "" && other.Title != "" && !sameTitle(captured.Title, other.Title) {
		diffs = append(diffs, fmt.Sprintf("title %q vs %q", other.Title, captured.Title))
	}
	if d := compareAuthors(other.Authors, captured.Authors); d != "" && len(other.Authors) > 0 && len(captured.Authors) > 0 {
		diffs = append(diffs, d)
	}
	if len(diffs) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("the %s (%s) differs from the captured version: %s", label, id, strings.Join(diffs, "; "))}
}
