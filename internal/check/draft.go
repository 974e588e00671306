package check

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/crossmem/crossmem/internal/cite"
	"github.com/crossmem/crossmem/internal/draft"
)

// CitationResult is the verdict on one cite key a draft cites.
type CitationResult struct {
	// Key is the key as the draft writes it.
	Key string `json:"key"`
	// Status is CiteOK, CiteUnknown or CiteMetadataWarning.
	Status string `json:"status"`
	// Lines are the 1-based lines that cite Key, in order.
	Lines []int `json:"lines"`
	// CiteKey is the cite key of the library paper Key names (Key itself,
	// or the paper's key when Key is an alias); empty when unknown.
	CiteKey string `json:"cite_key,omitempty"`
	// Title is the paper's title.
	Title string `json:"title,omitempty"`
	// Suggestions are the library's closest keys to an unknown Key.
	Suggestions []cite.Suggestion `json:"did_you_mean,omitempty"`
	// Warnings are the reconciliation warnings of the paper's metadata
	// record (metadata-warning), or why it cannot be cited.
	Warnings []string `json:"warnings,omitempty"`
	// EditedChunks are the chunks of the paper's note edited by hand
	// (their text no longer matches their text_sha256): not served, so no
	// quotation is checked against them.
	EditedChunks []string `json:"edited_chunks,omitempty"`
}

// Report is the result of checking a draft.
type Report struct {
	// Draft is the draft's name; Markup how it was read: "latex" or
	// "markdown".
	Draft  string `json:"draft"`
	Markup string `json:"format"`
	// OK is true when no quotation is unverified, misattributed or on the
	// wrong page and no cited key is unknown (nor, when Strict, carries
	// metadata warnings): what `crossmem check` exits 0 for.
	OK bool `json:"ok"`
	// Strict is true when metadata warnings fail the check
	// (DraftOptions.Strict).
	Strict bool `json:"strict"`
	// Counts are the number of quotations per quotation status and of
	// cited keys per citation status (every status present, zeros
	// included).
	Counts Counts `json:"counts"`
	// Quotations are the verdicts on the draft's quotations, in text
	// order.
	Quotations []QuoteResult `json:"quotations"`
	// Citations are the verdicts on the distinct cited keys, in order of
	// first citation.
	Citations []CitationResult `json:"citations"`
}

// Counts counts a report's verdicts by status.
type Counts struct {
	Quotations map[string]int `json:"quotations"`
	Citations  map[string]int `json:"citations"`
}

// QuoteStatuses are the quotation statuses in the order reports list
// them: the ones that need work first.
var QuoteStatuses = []string{Unverified, Misattributed, WrongPage, Repaired, Verified, TooShort}

// DraftOptions are the settings of a draft check.
type DraftOptions struct {
	// Strict makes metadata warnings fail the check (`crossmem check
	// --strict`, crossmem_check_draft's strict): by default they are
	// reported only, since every offline capture carries one until a
	// refresh.
	Strict bool
}

// CiteStatuses are the citation statuses in report order.
var CiteStatuses = []string{CiteUnknown, CiteMetadataWarning, CiteOK}

// Draft checks a scanned draft: every quotation against the library, with
// the cite keys draft.CitedKeys attributes it to (or the author-year
// reference draft.AuthorYearFor gives it), the page locator draft.Locator
// gives it and the provenance comment draft.ProvenanceFor gives it, and
// every cited key against the library (c.Citer; without one, against the
// index). Errors are the index's, never a verdict.
func (c *Checker) Draft(ctx context.Context, d *draft.Draft, o DraftOptions) (*Report, error) {
	rep := &Report{Draft: d.Name, Markup: strings.ToLower(d.Kind.String()), Strict: o.Strict,
		Counts:     Counts{Quotations: map[string]int{}, Citations: map[string]int{}},
		Quotations: []QuoteResult{}, Citations: []CitationResult{}}
	for _, s := range QuoteStatuses {
		rep.Counts.Quotations[s] = 0
	}
	for _, s := range CiteStatuses {
		rep.Counts.Citations[s] = 0
	}
	for i, q := range d.Quotations {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var prov *Provenance
		if p, ok := d.ProvenanceFor(i); ok {
			prov = &Provenance{Key: p.Key, ChunkID: p.ChunkID, SHA256: p.SHA256}
		}
		req := Request{Quote: q.Text, Keys: d.CitedKeys(i), Provenance: prov, Locator: d.Locator(i)}
		if ay, ok := d.AuthorYearFor(i); ok {
			req.AuthorYear = &AuthorYear{Author: ay.Author, Year: ay.Year}
			if ay.Narrative && !ay.Sure {
				req.AuthorYear.Names = ay.Names
			}
		}
		r, err := c.Check(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("check quotation on line %d: %w", q.Line, err)
		}
		r.Line, r.EndLine, r.Kind = q.Line, q.EndLine, string(q.Kind)
		rep.Quotations = append(rep.Quotations, *r)
		rep.Counts.Quotations[r.Status]++
	}
	lines := map[string][]int{}
	for _, ct := range d.Citations {
		lines[ct.Key] = append(lines[ct.Key], ct.Line)
	}
	for _, k := range d.Keys() {
		r := c.citation(ctx, k)
		r.Lines = lines[k]
		edited, err := c.Index.EditedChunks(ctx, k, 0)
		if err != nil {
			return nil, fmt.Errorf("check %s: %w", k, err)
		}
		for _, e := range edited {
			r.EditedChunks = append(r.EditedChunks, e.ChunkID)
		}
		rep.Citations = append(rep.Citations, r)
		rep.Counts.Citations[r.Status]++
	}
	failed := rep.Counts.Quotations[Unverified] + rep.Counts.Quotations[Misattributed] + rep.Counts.Quotations[WrongPage] +
		rep.Counts.Citations[CiteUnknown]
	if o.Strict {
		failed += rep.Counts.Citations[CiteMetadataWarning]
	}
	rep.OK = failed == 0
	return rep, nil
}

// citation checks one cited key.
func (c *Checker) citation(ctx context.Context, key string) CitationResult {
	r := CitationResult{Key: key}
	if c.Citer == nil {
		if k, ok := c.Index.ResolveKey(ctx, key); ok {
			r.Status, r.CiteKey = CiteOK, k
		} else {
			r.Status = CiteUnknown
		}
		return r
	}
	p, err := c.Citer.Lookup(key)
	if err != nil {
		r.Status = CiteUnknown
		var nf *cite.NotFoundError
		if errors.As(err, &nf) {
			r.Suggestions = nf.Suggestions
		}
		return r
	}
	rec, _ := cite.Record(p, c.Citer.Version)
	r.Status, r.CiteKey, r.Title = CiteOK, p.CiteKey, rec.Title
	if !cite.Citable(rec) {
		r.Warnings = append(r.Warnings, fmt.Sprintf("the library has no usable metadata for %s (no title or authors): describe it by importing a BibTeX or CSL-JSON entry with its cite key", p.CiteKey))
	}
	r.Warnings = append(r.Warnings, rec.Warnings...)
	if len(r.Warnings) > 0 {
		r.Status = CiteMetadataWarning
	}
	return r
}
