package crossref

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/crossmem/crossmem/internal/fetch"
	"github.com/crossmem/crossmem/internal/identifier"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/metadata/internal/field"
)

// DefaultSearchRows is the number of candidates SearchTitle asks for when
// its rows argument is less than 1.
const DefaultSearchRows = 5

// Observe is Work returned as a metadata.Observation (see
// Work.Observation) whose Query is "doi:<doi>". Errors as Work:
// ErrNotFound for an unknown DOI (arXiv's DataCite DOIs among them); a
// *fetch.Error when the API failed; a parse error for a malformed
// response.
func (c *Client) Observe(ctx context.Context, doi string) (*metadata.Observation, error) {
	w, err := c.Work(ctx, doi)
	if err != nil {
		return nil, err
	}
	o := w.Observation()
	d, _ := identifier.ParseDOI(doi)
	o.Query = "doi:" + d
	return o, nil
}

// Observation returns the work as an Observation with Source
// metadata.SourceCrossref, sharing w.Record (which it does not change).
// IsPreprint is set for posted content (subtype preprint or none) and for a
// work with an is-preprint-of relation. PreprintDOI and PublishedDOI come
// from the relations (is-preprint-of, has-preprint) and otherwise from the
// work's own DOI: a preprint's DOI is the preprint DOI, any other work's
// the published DOI. PDFURLs are the PDFLinks. Query is left empty.
func (w *Work) Observation() *metadata.Observation {
	r := w.Record
	o := &metadata.Observation{
		Source:       metadata.SourceCrossref,
		Record:       r,
		PreprintDOI:  r.DOIPreprint,
		PublishedDOI: r.DOIPublished,
		PDFURLs:      append([]string(nil), w.PDFLinks...),
	}
	posted := w.CrossrefType == "posted-content" && (w.CrossrefSubtype == "" || w.CrossrefSubtype == "preprint")
	o.IsPreprint = posted || (r.DOI != "" && strings.EqualFold(r.DOIPreprint, r.DOI) && r.DOIPublished != "")
	if r.DOI != "" {
		if o.IsPreprint && o.PreprintDOI == "" {
			o.PreprintDOI = r.DOI
		}
		if !o.IsPreprint && o.PublishedDOI == "" {
			o.PublishedDOI = r.DOI
		}
	}
	return o
}

// SearchTitle asks Crossref for works matching title and, when author is
// not empty, author names (GET /works?query.title=<title>&query.author=
// <author>&rows=<rows>, rows < 1 meaning DefaultSearchRows), and returns
// them as Observations in Crossref's order of relevance, each with Query
// "title:<title>". No hits is an empty slice and no error.
//
// The hits are candidates, not answers: Crossref always returns its best
// matches, and when it has no record of the work asked for they are other
// works (asked for "Attention is All you Need" it returns "Self-Attention
// with Relative Position Representations", which shares two authors). The
// caller must confirm a hit (title similarity, first author, year) before
// using it.
//
// Errors: ErrNotFound for an HTTP 404; a *fetch.Error when the API failed;
// a parse error for a malformed response.
func (c *Client) SearchTitle(ctx context.Context, title, author string, rows int) ([]*metadata.Observation, error) {
	if c.HTTP == nil {
		return nil, errors.New("crossref: client has no HTTP client")
	}
	title = field.Collapse(title)
	if title == "" {
		return nil, errors.New("crossref: empty title")
	}
	if rows < 1 {
		rows = DefaultSearchRows
	}
	v := url.Values{}
	v.Set("query.title", title)
	if a := field.Collapse(author); a != "" {
		v.Set("query.author", a)
	}
	v.Set("rows", strconv.Itoa(rows))
	if c.Mailto != "" {
		v.Set("mailto", c.Mailto)
	}
	base := c.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	u := strings.TrimSuffix(base, "/") + "/works?" + v.Encode()
	resp, err := c.HTTP.Get(ctx, u, "application/json")
	if err != nil {
		if errors.Is(err, fetch.ErrNotFound) {
			return nil, fmt.Errorf("crossref title search: %w", ErrNotFound)
		}
		return nil, fmt.Errorf("crossref title search: %w", err)
	}
	works, err := ParseList(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("crossref title search: %w", err)
	}
	out := make([]*metadata.Observation, 0, len(works))
	for _, w := range works {
		o := w.Observation()
		o.Query = "title:" + title
		out = append(out, o)
	}
	return out, nil
}

// ParseList maps a Crossref /works?query... JSON response (message-type
// "work-list") to its Works, in Crossref's order. Items without a DOI are
// skipped.
func ParseList(body []byte) ([]*Work, error) {
	var env struct {
		Status  string `json:"status"`
		Message *struct {
			Items *[]message `json:"items"`
		} `json:"message"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		return nil, fmt.Errorf("parse Crossref JSON: %w", err)
	}
	if env.Status != "" && env.Status != "ok" {
		return nil, fmt.Errorf("parse Crossref JSON: status %q", env.Status)
	}
	if env.Message == nil || env.Message.Items == nil {
		return nil, errors.New("parse Crossref JSON: no items in message")
	}
	var out []*Work
	for i := range *env.Message.Items {
		m := &(*env.Message.Items)[i]
		if m.DOI == "" {
			continue
		}
		out = append(out, m.toWork(""))
	}
	return out, nil
}
