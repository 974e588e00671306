package unpaywall

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/crossmem/crossmem/internal/fetch"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/metadata/metadatatest"
)

func newClient(s *metadatatest.Server, email string) *Client {
	return &Client{BaseURL: s.BaseURL(metadata.SourceUnpaywall), HTTP: fetch.New(metadatatest.FetchOptions()), Email: email}
}

func byDOI(t *testing.T, c *Client, doi string) *metadata.Observation {
	t.Helper()
	o, err := c.ByDOI(t.Context(), doi)
	if err != nil {
		t.Fatalf("ByDOI(%q): %v", doi, err)
	}
	return o
}

func TestNoEmail(t *testing.T) {
	s := metadatatest.NewServer(t)
	_, err := newClient(s, " ").ByDOI(t.Context(), "10.1073/pnas.1414271111")
	if !errors.Is(err, ErrNoEmail) || errors.Is(err, fetch.ErrNotFound) {
		t.Fatalf("err = %v; want ErrNoEmail", err)
	}
	if !strings.Contains(err.Error(), "CROSSMEM_UNPAYWALL_EMAIL") {
		t.Errorf("error %q does not say how to fix it", err)
	}
	if r := s.Requests(); len(r) != 0 {
		t.Errorf("asked without an email: %q", r)
	}
}

func TestByDOIPreprint(t *testing.T) {
	s := metadatatest.NewServer(t)
	o := byDOI(t, newClient(s, "me@example.org"), "10.1101/2024.04.01.587366")
	want := &metadata.Observation{
		Source: "unpaywall",
		Query:  "doi:10.1101/2024.04.01.587366",
		Record: &metadata.Record{
			Type:  "article",
			Title: "High-throughput screening of human genetic variants by pooled prime editing",
			Authors: []metadata.Name{
				{Family: "Herger", Given: "Michael"}, {Family: "Kajba", Given: "Christina M."},
				{Family: "Buckley", Given: "Megan"}, {Family: "Cunha", Given: "Ana"},
				{Family: "Strom", Given: "Molly"}, {Family: "Findlay", Given: "Gregory M."},
			},
			Issued:      metadata.Date{Year: 2024, Month: 4, Day: 1},
			Publisher:   "Cold Spring Harbor Laboratory",
			DOI:         "10.1101/2024.04.01.587366",
			DOIPreprint: "10.1101/2024.04.01.587366",
			URL:         "https://doi.org/10.1101/2024.04.01.587366",
			Sources:     []string{"unpaywall"},
			Warnings:    []string{},
		},
		PreprintDOI: "10.1101/2024.04.01.587366",
		IsPreprint:  true,
		PDFURLs:     []string{"https://www.biorxiv.org/content/biorxiv/early/2024/04/01/2024.04.01.587366.full.pdf"},
	}
	if diff := cmp.Diff(want, o, cmp.FilterPath(func(p cmp.Path) bool {
		return p.Last().String() == ".FieldSources"
	}, cmp.Ignore())); diff != "" {
		t.Errorf("observation (-want +got):\n%s", diff)
	}
	for _, f := range []string{metadata.FieldTitle, metadata.FieldAuthors, metadata.FieldIssued, metadata.FieldDOI,
		metadata.FieldPublisher, metadata.FieldType, metadata.FieldURL} {
		if diff := cmp.Diff([]string{metadata.SourceUnpaywall}, o.Record.FieldSources[f]); diff != "" {
			t.Errorf("FieldSources[%s] (-want +got):\n%s", f, diff)
		}
	}
	if got, want := s.Requests()[0], "/unpaywall/v2/10.1101/2024.04.01.587366?email=me%40example.org"; got != want {
		t.Errorf("request %q; want %q", got, want)
	}
	if u := s.Unrecorded(); len(u) != 0 {
		t.Errorf("unrecorded: %q", u)
	}
}

func TestByDOIPublished(t *testing.T) {
	s := metadatatest.NewServer(t)
	c := newClient(s, "me@example.org")

	t.Run("raw author names only", func(t *testing.T) {
		// GROUNDTRUTH: for the journal DOI z_authors carry only
		// raw_author_name; published_date 2025-03-22 (Crossref 2025-04).
		o := byDOI(t, c, "10.1016/j.xgen.2025.100814")
		r := o.Record
		if r.Type != "article-journal" || r.ContainerTitle != "Cell Genomics" || r.Issued != (metadata.Date{Year: 2025, Month: 3, Day: 22}) ||
			o.IsPreprint || o.PublishedDOI != "10.1016/j.xgen.2025.100814" || len(o.PDFURLs) != 0 {
			t.Errorf("observation %+v record %+v", o, r)
		}
		if r.Authors[1] != (metadata.Name{Family: "Kajba", Given: "Christina M."}) || len(r.Authors) != 6 {
			t.Errorf("authors %+v", r.Authors)
		}
	})

	t.Run("open access PDF, best first, deduplicated", func(t *testing.T) {
		o := byDOI(t, c, "10.1073/pnas.1414271111")
		if diff := cmp.Diff([]string{"https://www.pnas.org/content/pnas/111/45/E4832.full.pdf"}, o.PDFURLs); diff != "" {
			t.Errorf("PDFURLs (-want +got):\n%s", diff)
		}
		if o.Record.Authors[0] != (metadata.Name{Family: "Makris", Given: "Eleftherios A."}) {
			t.Errorf("first author %+v", o.Record.Authors[0])
		}
	})

	t.Run("closed access, no authors, DOI case", func(t *testing.T) {
		o := byDOI(t, c, "10.1007/s40278-023-41815-2")
		if len(o.PDFURLs) != 0 || len(o.Record.Authors) != 0 || o.Record.Title != "Convalescent-anti-sars-cov-2-plasma/immune-globulin" {
			t.Errorf("observation %+v record %+v", o, o.Record)
		}
		o = byDOI(t, c, "10.1023/A:1007154515475")
		if o.Record.DOI != "10.1023/A:1007154515475" || o.Record.Issued != (metadata.Date{Year: 2001, Month: 2, Day: 1}) {
			t.Errorf("record %+v", o.Record)
		}
	})
	if u := s.Unrecorded(); len(u) != 0 {
		t.Errorf("unrecorded: %q", u)
	}
}

func TestNotFound(t *testing.T) {
	s := metadatatest.NewServer(t)
	_, err := newClient(s, "me@example.org").ByDOI(t.Context(), "10.9999/nothing")
	if !errors.Is(err, ErrNotFound) || !errors.Is(err, fetch.ErrNotFound) {
		t.Errorf("err = %v", err)
	}
}

func TestFailures(t *testing.T) {
	s := metadatatest.NewServer(t)
	opts := metadatatest.FetchOptions()
	opts.Timeout = 150 * time.Millisecond
	c := &Client{BaseURL: s.BaseURL(metadata.SourceUnpaywall), HTTP: fetch.New(opts), Email: "me@example.org"}
	s.CheckFaults(t, metadata.SourceUnpaywall, "parse Unpaywall JSON", func(ctx context.Context) error {
		_, err := c.ByDOI(ctx, "10.1073/pnas.1414271111")
		return err
	})
}

// TestGenreIsCrossrefType checks that genre, a Crossref type, maps to the
// CSL type Crossref's own record gets.
func TestGenreIsCrossrefType(t *testing.T) {
	for genre, want := range map[string]string{
		"journal-article":     "article-journal",
		"proceedings-article": "paper-conference",
		"posted-content":      "article",
		"reference-entry":     "entry",
		"dataset":             "dataset",
	} {
		o, err := parse([]byte(`{"doi": "10.1234/x", "title": "T", "genre": "`+genre+`"}`), "")
		if err != nil {
			t.Fatal(err)
		}
		if o.Record.Type != want {
			t.Errorf("genre %q: type %q; want %q", genre, o.Record.Type, want)
		}
	}
}
