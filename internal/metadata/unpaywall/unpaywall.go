// Package unpaywall asks the Unpaywall API (GET /v2/{doi},
// https://unpaywall.org/products/api) where a DOI's open-access copies
// are, and maps the answer to a metadata.Observation with every field
// attributed to metadata.SourceUnpaywall. Its main use is PDFURLs; the
// bibliographic fields are Crossref's, as Unpaywall relays them. It never
// downloads the PDFs.
//
// Unpaywall requires a contact email with every request; a Client without
// one fails with ErrNoEmail before asking.
//
// # Mapping
//
//   - Title: title (Unpaywall drops Crossref's subtitle).
//   - Authors: z_authors, either split (family/given, as Crossref gives
//     them) or raw_author_name only, which metadata.ParseName splits.
//   - Issued: published_date with its precision, else year.
//   - Container: journal_name; Publisher: publisher.
//   - Type: genre is a Crossref type, mapped as crossref.CSLType maps it
//     (journal-article → article-journal, posted-content → article, ...).
//   - IsPreprint: genre posted-content. The own DOI is then the preprint
//     DOI, otherwise the published DOI.
//   - PDFURLs: best_oa_location.url_for_pdf, then each oa_locations entry's
//     url_for_pdf, deduplicated, empty ones skipped. A closed-access work
//     (is_oa false) has none.
package unpaywall

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
	"github.com/crossmem/crossmem/internal/metadata/crossref"
	"github.com/crossmem/crossmem/internal/metadata/internal/field"
)

// DefaultBaseURL is the Unpaywall API used when Client.BaseURL is empty.
const DefaultBaseURL = "https://api.unpaywall.org"

// EnvEmail is the environment variable users set to give Unpaywall the
// contact email it requires. This package does not read it; the caller
// passes its value as Client.Email.
const EnvEmail = "CROSSMEM_UNPAYWALL_EMAIL"

// ErrNoEmail is matched (errors.Is) by the error of a lookup by a Client
// without Email: Unpaywall requires a contact email with every request.
var ErrNoEmail = errors.New("unpaywall requires a contact email: set " + EnvEmail)

// ErrNotFound is matched (errors.Is) by the error of a lookup for a DOI
// Unpaywall does not have (HTTP 404). It also matches fetch.ErrNotFound.
var ErrNotFound = fmt.Errorf("unpaywall: %w", fetch.ErrNotFound)

// Client queries the Unpaywall API. HTTP and Email are required. A Client
// is safe for concurrent use if its HTTP client is.
type Client struct {
	BaseURL string // default DefaultBaseURL
	HTTP    *fetch.Client
	Email   string // contact email sent as ?email=; required
}

// ByDOI returns Unpaywall's record of doi (bare, doi: or doi.org URL form),
// asked as GET /v2/<doi>?email=<Email>. The Observation's Query is
// "doi:<doi>". Errors: ErrNoEmail when Email is empty (nothing is asked);
// ErrNotFound for a DOI Unpaywall does not have; a *fetch.Error when the
// API failed (never ErrNotFound); a parse error for a malformed response.
func (c *Client) ByDOI(ctx context.Context, doi string) (*metadata.Observation, error) {
	if strings.TrimSpace(c.Email) == "" {
		return nil, fmt.Errorf("unpaywall lookup %s: %w", doi, ErrNoEmail)
	}
	if c.HTTP == nil {
		return nil, errors.New("unpaywall: client has no HTTP client")
	}
	d, ok := identifier.ParseDOI(doi)
	if !ok {
		return nil, fmt.Errorf("unpaywall: %q is not a DOI", doi)
	}
	base := c.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	u := strings.TrimSuffix(base, "/") + "/v2/" + strings.ReplaceAll(url.PathEscape(d), "%2F", "/") +
		"?email=" + url.QueryEscape(strings.TrimSpace(c.Email))
	resp, err := c.HTTP.Get(ctx, u, "application/json")
	if err != nil {
		if errors.Is(err, fetch.ErrNotFound) {
			return nil, fmt.Errorf("unpaywall %s: %w", d, ErrNotFound)
		}
		return nil, fmt.Errorf("unpaywall lookup %s: %w", d, err)
	}
	o, err := parse(resp.Body, d)
	if err != nil {
		return nil, fmt.Errorf("unpaywall lookup %s: %w", d, err)
	}
	o.Query = "doi:" + d
	return o, nil
}

// --- JSON --------------------------------------------------------------------

type response struct {
	DOI            string      `json:"doi"`
	DOIURL         string      `json:"doi_url"`
	Title          string      `json:"title"`
	Genre          string      `json:"genre"`
	PublishedDate  string      `json:"published_date"`
	Year           json.Number `json:"year"`
	JournalName    string      `json:"journal_name"`
	Publisher      string      `json:"publisher"`
	IsOA           bool        `json:"is_oa"`
	ZAuthors       []author    `json:"z_authors"`
	BestOALocation *location   `json:"best_oa_location"`
	OALocations    []location  `json:"oa_locations"`
}

type author struct {
	Given         string `json:"given"`
	Family        string `json:"family"`
	Name          string `json:"name"`
	RawAuthorName string `json:"raw_author_name"`
}

type location struct {
	URLForPDF string `json:"url_for_pdf"`
}

// --- mapping -----------------------------------------------------------------

func parse(body []byte, requested string) (*metadata.Observation, error) {
	var resp response
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, field.ParseError("Unpaywall", err)
	}
	if resp.DOI == "" {
		return nil, errors.New("parse Unpaywall JSON: no DOI record in the response")
	}
	return resp.observation(requested), nil
}

func (p *response) observation(requested string) *metadata.Observation {
	r := &metadata.Record{}
	set := func(field string) { r.SetSource(field, metadata.SourceUnpaywall) }
	o := &metadata.Observation{Source: metadata.SourceUnpaywall, Record: r}

	doi := p.DOI
	if strings.EqualFold(doi, requested) {
		doi = requested
	}
	r.DOI = doi
	set(metadata.FieldDOI)
	if u := strings.TrimSpace(p.DOIURL); u != "" {
		r.URL = u
		set(metadata.FieldURL)
	}
	if t := field.Clean(p.Title); t != "" {
		r.Title = t
		set(metadata.FieldTitle)
	} else {
		r.Warn("Unpaywall record has no title")
	}
	for _, a := range p.ZAuthors {
		if n := a.name(); n != (metadata.Name{}) {
			r.Authors = append(r.Authors, n)
		}
	}
	if len(r.Authors) > 0 {
		set(metadata.FieldAuthors)
	}
	if d, ok := field.ISODate(p.PublishedDate); ok {
		r.Issued = d
	} else if y, err := strconv.Atoi(p.Year.String()); err == nil && y > 0 {
		r.Issued = metadata.Date{Year: y}
	}
	if !r.Issued.IsZero() {
		set(metadata.FieldIssued)
	}
	if j := field.Clean(p.JournalName); j != "" {
		r.ContainerTitle = j
		set(metadata.FieldContainerTitle)
	}
	if pub := field.Clean(p.Publisher); pub != "" {
		r.Publisher = pub
		set(metadata.FieldPublisher)
	}
	if t := crossref.CSLType(p.Genre); t != "" {
		r.Type = t
		set(metadata.FieldType)
	}

	o.IsPreprint = p.Genre == "posted-content"
	if o.IsPreprint {
		o.PreprintDOI = doi
	} else {
		o.PublishedDOI = doi
	}
	r.DOIPreprint, r.DOIPublished = o.PreprintDOI, o.PublishedDOI

	seen := map[string]bool{}
	add := func(l *location) {
		if l == nil {
			return
		}
		u := strings.TrimSpace(l.URLForPDF)
		if u == "" || seen[u] {
			return
		}
		seen[u] = true
		o.PDFURLs = append(o.PDFURLs, u)
	}
	add(p.BestOALocation)
	for i := range p.OALocations {
		add(&p.OALocations[i])
	}
	r.Normalize()
	return o
}

func (a author) name() metadata.Name {
	family, given := field.Collapse(a.Family), field.Collapse(a.Given)
	switch {
	case family != "":
		return metadata.Name{Family: family, Given: given}
	case field.Collapse(a.RawAuthorName) != "":
		return metadata.ParseName(a.RawAuthorName)
	case field.Collapse(a.Name) != "":
		return metadata.Name{Literal: field.Collapse(a.Name)}
	case given != "":
		return metadata.Name{Literal: given}
	}
	return metadata.Name{}
}
