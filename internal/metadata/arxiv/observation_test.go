package arxiv

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/crossmem/crossmem/internal/fetch"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/metadata/metadatatest"
)

func replayClient(s *metadatatest.Server) *Client {
	return &Client{BaseURL: s.BaseURL(metadata.SourceArxiv), HTTP: fetch.New(metadatatest.FetchOptions())}
}

func TestObserve(t *testing.T) {
	s := metadatatest.NewServer(t)
	c := replayClient(s)

	o, err := c.Observe(t.Context(), "arXiv:1111.2011", 2)
	if err != nil {
		t.Fatal(err)
	}
	want := &metadata.Observation{
		Source:       "arxiv",
		Query:        "arxiv:1111.2011v2",
		PreprintDOI:  "10.48550/arXiv.1111.2011",
		PublishedDOI: "10.1103/PhysRevB.85.115117",
		IsPreprint:   true,
		PDFURLs:      []string{"https://arxiv.org/pdf/1111.2011v2"},
	}
	if diff := cmp.Diff(want, o, cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Record" }, cmp.Ignore())); diff != "" {
		t.Errorf("observation (-want +got):\n%s", diff)
	}
	if o.Record.ArxivID != "1111.2011" || o.Record.ArxivVersion != 2 || o.Record.Issued.Year != 2012 {
		t.Errorf("record %+v", o.Record)
	}

	// Unversioned: the Query is what was asked; ObservationFromEntry names
	// the version returned.
	o, err = c.Observe(t.Context(), "1707.08567", 0)
	if err != nil {
		t.Fatal(err)
	}
	if o.Query != "arxiv:1707.08567" || o.PublishedDOI != "" || len(o.Record.Authors) != 34 {
		t.Errorf("observation %+v", o)
	}
	e, err := c.LookupEntry(t.Context(), "1707.08567", 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := ObservationFromEntry(e); got.Query != "arxiv:1707.08567v1" || got.Record != e.Record ||
		got.PreprintDOI != "10.48550/arXiv.1707.08567" || !got.IsPreprint {
		t.Errorf("ObservationFromEntry %+v", got)
	}

	_, err = c.Observe(t.Context(), "abc", 0)
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("abc: %v", err)
	}
	// Every request matched a recording, though the client does not send
	// the parameters the recordings spell out.
	if u := s.Unrecorded(); len(u) != 0 {
		t.Errorf("unrecorded: %q", u)
	}
}

func TestObserveFailures(t *testing.T) {
	s := metadatatest.NewServer(t)
	opts := metadatatest.FetchOptions()
	opts.Timeout = 150 * time.Millisecond
	c := &Client{BaseURL: s.BaseURL(metadata.SourceArxiv), HTTP: fetch.New(opts)}
	s.CheckFaults(t, metadata.SourceArxiv, "malformed XML", func(ctx context.Context) error {
		_, err := c.Observe(ctx, "1605.08386", 0)
		return err
	})
}
