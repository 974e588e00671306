package arxiv

import (
	"errors"
	"strings"
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
	for _, tc := range []struct {
		fault    metadatatest.Fault
		fetchErr bool
		msg      string
	}{
		{metadatatest.ServerError, true, "HTTP 500"},
		{metadatatest.RateLimited, true, "rate limited"},
		{metadatatest.Hang, true, "timed out"},
		{metadatatest.Truncated, true, "unexpected EOF"},
		{metadatatest.Malformed, false, "malformed XML"},
	} {
		t.Run(tc.fault.String(), func(t *testing.T) {
			s.Fail(metadata.SourceArxiv, tc.fault)
			defer s.Fail(metadata.SourceArxiv, metadatatest.NoFault)
			_, err := c.Observe(t.Context(), "1605.08386", 0)
			var fe *fetch.Error
			switch {
			case err == nil:
				t.Fatal("no error")
			case errors.Is(err, fetch.ErrNotFound):
				t.Errorf("failure reported as not found: %v", err)
			case tc.fetchErr != errors.As(err, &fe):
				t.Errorf("*fetch.Error = %v: %v", !tc.fetchErr, err)
			case !strings.Contains(err.Error(), tc.msg):
				t.Errorf("error %q does not say %q", err, tc.msg)
			}
		})
	}
}
