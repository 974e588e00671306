package arxiv

import (
	"context"
	"strconv"
	"strings"

	"github.com/crossmem/crossmem/internal/identifier"
	"github.com/crossmem/crossmem/internal/metadata"
)

// ObservationFromEntry returns e as a metadata.Observation with Source
// metadata.SourceArxiv, sharing e.Record (which it does not change): a
// preprint (IsPreprint), whose PreprintDOI is 10.48550/arXiv.<id>, whose
// PublishedDOI is the DOI the authors gave arXiv (arxiv:doi; "" when none),
// and whose PDFURLs hold the versioned PDF URL. Query is
// "arxiv:<id>v<version>" as the entry identifies itself ("arxiv:<id>" when
// its version is unknown).
func ObservationFromEntry(e *Entry) *metadata.Observation {
	r := e.Record
	o := &metadata.Observation{
		Source:       metadata.SourceArxiv,
		Query:        query(r.ArxivID, r.ArxivVersion),
		Record:       r,
		PreprintDOI:  r.DOIPreprint,
		PublishedDOI: r.DOIPublished,
		IsPreprint:   true,
	}
	if o.PreprintDOI == "" && r.ArxivID != "" {
		o.PreprintDOI = identifier.ArxivDOI(r.ArxivID)
	}
	if e.PDFURL != "" {
		o.PDFURLs = []string{e.PDFURL}
	}
	return o
}

// Observe is LookupEntry returned as an Observation (see
// ObservationFromEntry) whose Query is how arXiv was asked:
// "arxiv:<id>", or "arxiv:<id>v<version>" for a versioned lookup. Errors
// as LookupEntry.
func (c *Client) Observe(ctx context.Context, id string, version int) (*metadata.Observation, error) {
	e, err := c.LookupEntry(ctx, id, version)
	if err != nil {
		return nil, err
	}
	o := ObservationFromEntry(e)
	asked := strings.TrimSpace(id)
	if pid, v, ok := identifier.ParseArxivID(asked); ok {
		asked = pid
		if version == 0 {
			version = v
		}
	}
	o.Query = query(asked, version)
	return o, nil
}

func query(id string, version int) string {
	q := "arxiv:" + id
	if version > 0 {
		q += "v" + strconv.Itoa(version)
	}
	return q
}
