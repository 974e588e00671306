package crossref

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

func replayClient(s *metadatatest.Server, mailto string) *Client {
	return &Client{BaseURL: s.BaseURL(metadata.SourceCrossref), HTTP: fetch.New(metadatatest.FetchOptions()), Mailto: mailto}
}

func TestObservePreprintAndPublished(t *testing.T) {
	s := metadatatest.NewServer(t)
	c := replayClient(s, "me@example.org")

	// GROUNDTRUTH herger2025highthroughput: the bioRxiv record carries
	// relation.is-preprint-of → the Cell Genomics DOI.
	pre, err := c.Observe(t.Context(), "https://doi.org/10.1101/2024.04.01.587366")
	if err != nil {
		t.Fatal(err)
	}
	if pre.Source != "crossref" || pre.Query != "doi:10.1101/2024.04.01.587366" || !pre.IsPreprint ||
		pre.PreprintDOI != "10.1101/2024.04.01.587366" || pre.PublishedDOI != "10.1016/j.xgen.2025.100814" ||
		pre.Record.Type != "article" || pre.Record.Issued.Year != 2024 {
		t.Errorf("preprint observation %+v record %+v", pre, pre.Record)
	}

	pub, err := c.Observe(t.Context(), "10.1016/j.xgen.2025.100814")
	if err != nil {
		t.Fatal(err)
	}
	if pub.IsPreprint || pub.PublishedDOI != "10.1016/j.xgen.2025.100814" || pub.PreprintDOI != "" ||
		pub.Record.Type != "article-journal" || pub.Record.Issued != (metadata.Date{Year: 2025, Month: 4}) {
		t.Errorf("published observation %+v record %+v", pub, pub.Record)
	}
	// Observe leaves the Record as Work maps it.
	if pub.Record.DOIPublished != "" {
		t.Errorf("Record.DOIPublished = %q; Work sets it only from relations", pub.Record.DOIPublished)
	}

	mono, err := c.Observe(t.Context(), "10.1038/d41586-020-02761-z")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"http://www.nature.com/articles/d41586-020-02761-z.pdf"}, mono.PDFURLs); diff != "" {
		t.Errorf("PDFURLs (-want +got):\n%s", diff)
	}
	if u := s.Unrecorded(); len(u) != 0 {
		t.Errorf("unrecorded: %q", u)
	}
}

// arXiv DOIs are DataCite DOIs: Crossref answers 404 (recorded).
func TestObserveArxivDOINotFound(t *testing.T) {
	s := metadatatest.NewServer(t)
	_, err := replayClient(s, "me@example.org").Observe(t.Context(), "10.48550/arXiv.2312.07559")
	if !errors.Is(err, ErrNotFound) || !errors.Is(err, fetch.ErrNotFound) {
		t.Errorf("err = %v", err)
	}
	if u := s.Unrecorded(); len(u) != 0 {
		t.Errorf("the 404 should be the recorded one; unrecorded: %q", u)
	}
}

func TestSearchTitle(t *testing.T) {
	s := metadatatest.NewServer(t)
	c := replayClient(s, "me@example.org")
	search := func(title, author string) []*metadata.Observation {
		t.Helper()
		hits, err := c.SearchTitle(t.Context(), title, author, 1)
		if err != nil {
			t.Fatalf("SearchTitle(%q): %v", title, err)
		}
		if len(hits) != 1 {
			t.Fatalf("SearchTitle(%q): %d hits", title, len(hits))
		}
		if hits[0].Query != "title:"+title || hits[0].Source != "crossref" {
			t.Errorf("hit %+v", hits[0])
		}
		return hits
	}

	// GROUNDTRUTH vaswani2017attention: Crossref has no record of the
	// NeurIPS paper and returns another one sharing two authors. SearchTitle
	// returns it; confirming is the caller's job.
	hit := search("Attention is All you Need",
		"Ashish Vaswani Noam Shazeer Niki Parmar Jakob Uszkoreit Llion Jones Aidan N. Gomez Lukasz Kaiser Illia Polosukhin")[0]
	if hit.Record.DOI != "10.18653/v1/n18-2074" || hit.Record.Title != "Self-Attention with Relative Position Representations" ||
		hit.Record.Type != "paper-conference" || hit.Record.Issued.Year != 2018 {
		t.Errorf("Attention hit %+v", hit.Record)
	}

	// GROUNDTRUTH lala2023paperqa: an unrelated paper.
	hit = search("PaperQA: Retrieval-Augmented Generative Agent for Scientific Research", "")[0]
	if hit.Record.DOI != "10.1093/jamiaopen/ooae021" || hit.Record.Title != "Retrieval augmented scientific claim verification" {
		t.Errorf("PaperQA hit %+v", hit.Record)
	}

	// GROUNDTRUTH bran2024augmenting: the right paper, with Crossref's
	// wrong name split "Andres" / "M. Bran".
	hit = search("Augmenting large language models with chemistry tools", "")[0]
	if hit.Record.DOI != "10.1038/s42256-024-00832-8" || hit.IsPreprint || hit.PublishedDOI != "10.1038/s42256-024-00832-8" ||
		hit.Record.Authors[0] != (metadata.Name{Family: "M. Bran", Given: "Andres"}) {
		t.Errorf("Augmenting hit %+v %+v", hit, hit.Record)
	}

	reqs := s.Requests()
	want := "/crossref/works?mailto=me%40example.org&query.author=Ashish+Vaswani+Noam+Shazeer+Niki+Parmar+Jakob+Uszkoreit+Llion+Jones+Aidan+N.+Gomez+Lukasz+Kaiser+Illia+Polosukhin&query.title=Attention+is+All+you+Need&rows=1"
	if reqs[0] != want {
		t.Errorf("request\n%q; want\n%q", reqs[0], want)
	}
	if u := s.Unrecorded(); len(u) != 0 {
		t.Errorf("unrecorded: %q", u)
	}
}

func TestSearchTitleNotRecordedAndEmpty(t *testing.T) {
	s := metadatatest.NewServer(t)
	c := replayClient(s, "")
	if _, err := c.SearchTitle(t.Context(), "  ", "", 1); err == nil {
		t.Error("empty title: no error")
	}
	// The replay answers an unrecorded search 404.
	_, err := c.SearchTitle(t.Context(), "A title nobody recorded", "", 0)
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("err = %v", err)
	}
	if u := s.Unrecorded(); len(u) != 1 || !strings.HasSuffix(u[0], "rows=5") {
		t.Errorf("unrecorded %q; want one request with the default rows", u)
	}
	works, err := ParseList([]byte(`{"status":"ok","message-type":"work-list","message":{"items":[]}}`))
	if err != nil || len(works) != 0 {
		t.Errorf("no hits: %v %v", works, err)
	}
	if _, err := ParseList([]byte(`{"status":"ok","message":{"DOI":"10.1/x"}}`)); err == nil {
		t.Error("a single work is not a list")
	}
}

func TestObservationFailures(t *testing.T) {
	s := metadatatest.NewServer(t)
	opts := metadatatest.FetchOptions()
	opts.Timeout = 150 * time.Millisecond
	c := &Client{BaseURL: s.BaseURL(metadata.SourceCrossref), HTTP: fetch.New(opts)}
	s.CheckFaults(t, metadata.SourceCrossref, "parse Crossref JSON",
		func(ctx context.Context) error { _, err := c.Observe(ctx, "10.1016/j.xgen.2025.100814"); return err },
		func(ctx context.Context) error {
			_, err := c.SearchTitle(ctx, "PaperQA: Retrieval-Augmented Generative Agent for Scientific Research", "", 1)
			return err
		})
}
