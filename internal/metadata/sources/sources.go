// Package sources wires the metadata source clients (arXiv, Crossref,
// OpenAlex, DataCite, Unpaywall) into the lookups a reconcile.Resolver
// uses. It holds no logic of its own beyond choosing base URLs and contact
// addresses; each client is in its own package.
package sources

import (
	"context"

	"github.com/crossmem/crossmem/internal/fetch"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/metadata/arxiv"
	"github.com/crossmem/crossmem/internal/metadata/crossref"
	"github.com/crossmem/crossmem/internal/metadata/datacite"
	"github.com/crossmem/crossmem/internal/metadata/openalex"
	"github.com/crossmem/crossmem/internal/metadata/reconcile"
	"github.com/crossmem/crossmem/internal/metadata/unpaywall"
)

// Config selects the services. Empty base URLs mean each client's public
// default. HTTP is required; it provides the User-Agent, rate limits,
// retries and the response cache.
type Config struct {
	HTTP *fetch.Client

	ArxivAPI     string // arXiv API query endpoint
	ArxivPDF     string // base URL of arXiv PDFs
	CrossrefAPI  string
	OpenAlexAPI  string
	DataCiteAPI  string
	UnpaywallAPI string

	// Mailto is the contact address sent to Crossref and OpenAlex (their
	// "polite pool"); may be empty.
	Mailto string
	// UnpaywallEmail is required by Unpaywall; without it Unpaywall is not
	// consulted.
	UnpaywallEmail string
}

// Arxiv returns the arXiv client for c (also used for PDF URLs).
func (c Config) Arxiv() *arxiv.Client {
	return &arxiv.Client{BaseURL: c.ArxivAPI, PDFBase: c.ArxivPDF, HTTP: c.HTTP}
}

// New returns the lookups of every configured source.
func New(c Config) reconcile.Sources {
	ax := c.Arxiv()
	cr := &crossref.Client{BaseURL: c.CrossrefAPI, HTTP: c.HTTP, Mailto: c.Mailto}
	oa := &openalex.Client{BaseURL: c.OpenAlexAPI, HTTP: c.HTTP, Mailto: c.Mailto}
	dc := &datacite.Client{BaseURL: c.DataCiteAPI, HTTP: c.HTTP}
	s := reconcile.Sources{
		Arxiv:    ax.Observe,
		Crossref: cr.Observe,
		CrossrefSearch: func(ctx context.Context, title, author string) ([]*metadata.Observation, error) {
			return cr.SearchTitle(ctx, title, author, crossref.DefaultSearchRows)
		},
		OpenAlex:       oa.ByDOI,
		OpenAlexSearch: oa.SearchTitle,
		DataCite:       dc.ByDOI,
	}
	if c.UnpaywallEmail != "" {
		up := &unpaywall.Client{BaseURL: c.UnpaywallAPI, HTTP: c.HTTP, Email: c.UnpaywallEmail}
		s.Unpaywall = up.ByDOI
	}
	return s
}
