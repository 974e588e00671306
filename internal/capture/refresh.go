package capture

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/metadata/reconcile"
)

// UnreachableError is Refresh's error when the metadata sources failed:
// Unreachable is true when none could be reached at all (no network, or
// every question ran out of time), so that a batch can stop asking.
type UnreachableError struct {
	Err         error
	Unreachable bool
}

func (e *UnreachableError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *UnreachableError) Unwrap() error { return e.Err }

// RefreshResult describes a refresh.
type RefreshResult struct {
	Paper *library.Paper
	// Changes are human-readable descriptions of what changed in the
	// metadata ("year: 2023 → 2024"); empty when nothing did.
	Changes   []string
	Consulted []metadata.Consultation
}

// Refresh asks the metadata sources about a captured paper again and
// re-reconciles its record. The PDF is not downloaded again and the cite
// key never changes. The paper is identified by the arXiv id and version,
// else the DOI, else a confirmed title search for its title. Nothing is
// written when the sources cannot be reached or do not know the paper;
// the error says which. o.Sources and o.Now are used; pass an HTTP client
// that bypasses its cache to really re-fetch.
func Refresh(ctx context.Context, lib *library.Library, key string, o Options) (*RefreshResult, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	paper, err := lib.Find(key)
	if err != nil {
		return nil, err
	}
	old := paper.Metadata
	q := reconcile.Query{ArxivID: old.ArxivID, ArxivVersion: old.ArxivVersion}
	switch {
	case q.ArxivID != "":
	case old.DOI != "":
		q = reconcile.Query{DOI: old.DOI}
	case old.Title != "":
		q = reconcile.Query{Title: old.Title, Year: old.Year()}
		if len(old.Authors) > 0 {
			q.Author = old.Authors[0].FamilyOrLiteral()
		}
	default:
		return nil, hint.Wrap(fmt.Errorf("%s has no arXiv id, DOI or title to look up: nothing to refresh", key), hint.Action{Kind: hint.DescribeByImport, Key: paper.CiteKey})
	}
	rctx, cancel := context.WithTimeout(ctx, o.metadataTimeout())
	w := &watch{on: o.OnLookup}
	res, err := reconcile.Resolve(rctx, q, w.sources(o.Sources))
	cancel()
	if err != nil {
		if errors.Is(err, reconcile.ErrNotFound) && q.ArxivID == "" && q.DOI == "" {
			return nil, fmt.Errorf("refresh %s: no metadata source found its title %q; the record is unchanged: %w", key, old.Title, err)
		}
		err = fmt.Errorf("refresh %s: %w (the record is unchanged)", key, err)
		if errors.Is(err, reconcile.ErrSourcesFailed) {
			return nil, hint.Wrap(&UnreachableError{Err: err, Unreachable: w.unreachable()}, hint.Action{Kind: hint.CheckNetwork})
		}
		return nil, err
	}

	unlock, err := lib.Lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	// Re-read under the lock: another process may have written meanwhile.
	paper, err = lib.Find(key)
	if err != nil {
		return nil, err
	}
	rec := res.Record
	// A DOI the user gave at capture stays known even if no source lists it.
	if rec.DOI == "" && old.DOI != "" {
		rec.DOI = old.DOI
		for _, s := range old.FieldSources[metadata.FieldDOI] {
			rec.SetSource(metadata.FieldDOI, s)
		}
	}
	if rec.ArxivVersion == 0 {
		rec.ArxivVersion = old.ArxivVersion
	}
	sc := &paper.Sidecar
	if sc.Imported == nil && sc.Source.Kind == "import" {
		cp := old
		sc.Imported = &cp
	}
	if sc.Imported != nil {
		for _, w := range importDifferences(sc.Imported, rec) {
			rec.Warn(w)
		}
	}
	reconcile.Witness(rec, sc.PDFMetadata)
	rec.Normalize()
	changes := diff(&old, rec)
	if sc.LookupPending {
		changes = append(changes, "lookup_pending: true → false")
		sc.LookupPending = false
	}
	setRecord(sc, rec)
	sc.Published, sc.Preprint, sc.Consulted = res.Published, res.Preprint, res.Consulted
	sc.RefreshedAt = strconv.FormatInt(o.Now().Unix(), 10)
	if err := lib.WriteSidecar(paper); err != nil {
		return nil, fmt.Errorf("save metadata of %s: %w", key, err)
	}
	return &RefreshResult{Paper: paper, Changes: changes, Consulted: res.Consulted}, nil
}

// diff lists the differences that matter to a citation.
func diff(a, b *metadata.Record) []string {
	var out []string
	add := func(field, x, y string) {
		if x != y {
			out = append(out, fmt.Sprintf("%s: %q → %q", field, x, y))
		}
	}
	add("title", a.Title, b.Title)
	add("authors", strings.Join(a.AuthorDisplay(), "; "), strings.Join(b.AuthorDisplay(), "; "))
	add("year", strconv.Itoa(a.Year()), strconv.Itoa(b.Year()))
	add("venue", a.ContainerTitle, b.ContainerTitle)
	add("volume", a.Volume, b.Volume)
	add("issue", a.Issue, b.Issue)
	add("pages", a.Page, b.Page)
	add("doi", a.DOI, b.DOI)
	add("doi_preprint", a.DOIPreprint, b.DOIPreprint)
	add("doi_published", a.DOIPublished, b.DOIPublished)
	add("sources", strings.Join(a.Sources, ", "), strings.Join(b.Sources, ", "))
	if a.Reconciled != b.Reconciled {
		out = append(out, fmt.Sprintf("reconciled: %v → %v", a.Reconciled, b.Reconciled))
	}
	return out
}
