package datacite

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/fetch"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/metadata/metadatatest"
)

func newClient(s *metadatatest.Server) *Client {
	return &Client{BaseURL: s.BaseURL(metadata.SourceDataCite), HTTP: fetch.New(metadatatest.FetchOptions())}
}

func TestByDOIArxiv(t *testing.T) {
	s := metadatatest.NewServer(t)
	o, err := newClient(s).ByDOI(t.Context(), "10.48550/arXiv.1902.02534")
	if err != nil {
		t.Fatal(err)
	}
	want := &metadata.Observation{
		Source: "datacite",
		Query:  "doi:10.48550/arXiv.1902.02534",
		Record: &metadata.Record{
			Type: "article",
			// arXiv's TeX-style "--" is kept as given.
			Title: "Crowdsourcing open citations with CROCI -- An analysis of the current status of open citations, and a proposal",
			Authors: []metadata.Name{
				{Family: "Heibi", Given: "Ivan"}, {Family: "Peroni", Given: "Silvio"}, {Family: "Shotton", Given: "David"},
			},
			// DataCite's Issued date is the year alone.
			Issued:      metadata.Date{Year: 2019},
			Publisher:   "arXiv",
			DOI:         "10.48550/arXiv.1902.02534",
			DOIPreprint: "10.48550/arXiv.1902.02534",
			ArxivID:     "1902.02534",
			URL:         "https://arxiv.org/abs/1902.02534",
			Sources:     []string{"datacite"},
			Warnings:    []string{},
		},
		PreprintDOI: "10.48550/arXiv.1902.02534",
		IsPreprint:  true,
	}
	if diff := cmp.Diff(want, o, cmp.FilterPath(func(p cmp.Path) bool {
		return p.Last().String() == ".FieldSources"
	}, cmp.Ignore())); diff != "" {
		t.Errorf("observation (-want +got):\n%s", diff)
	}
	for _, f := range []string{metadata.FieldTitle, metadata.FieldAuthors, metadata.FieldIssued, metadata.FieldDOI,
		metadata.FieldArxivID, metadata.FieldPublisher, metadata.FieldType, metadata.FieldURL} {
		if diff := cmp.Diff([]string{metadata.SourceDataCite}, o.Record.FieldSources[f]); diff != "" {
			t.Errorf("FieldSources[%s] (-want +got):\n%s", f, diff)
		}
	}
	if got, want := s.Requests()[0], "/datacite/dois/10.48550/arXiv.1902.02534?include=media,client"; got != want {
		t.Errorf("request %q; want %q", got, want)
	}
	if u := s.Unrecorded(); len(u) != 0 {
		t.Errorf("unrecorded: %q", u)
	}
}

// GROUNDTRUTH yin2023leveraging: a DataCite-only arXiv record with 10
// creators split by DataCite.
func TestByDOIArxivManyCreators(t *testing.T) {
	s := metadatatest.NewServer(t)
	o, err := newClient(s).ByDOI(t.Context(), "doi:10.48550/ARXIV.2311.16162")
	if err != nil {
		t.Fatal(err)
	}
	r := o.Record
	// An arXiv DOI is written as arXiv writes it, whatever the request's case.
	if r.DOI != "10.48550/arXiv.2311.16162" || r.ArxivID != "2311.16162" || r.Issued != (metadata.Date{Year: 2023}) ||
		!o.IsPreprint || r.Title != "Leveraging Artificial Intelligence Technology for Mapping Research to Sustainable Development Goals: A Case Study" {
		t.Errorf("record %+v", r)
	}
	var fam []string
	for _, a := range r.Authors {
		fam = append(fam, a.Family)
	}
	want := []string{"Yin", "Aryani", "Lambert", "White", "Salvador-Carulla", "Sadiq", "Sojli", "Boddy"}
	if len(fam) != 10 || !cmp.Equal(want, fam[:8]) {
		t.Errorf("families %q", fam)
	}
}

func TestByDOIConferencePaper(t *testing.T) {
	s := metadatatest.NewServer(t)
	o, err := newClient(s).ByDOI(t.Context(), "10.4230/LIPIcs.TQC.2013.93")
	if err != nil {
		t.Fatal(err)
	}
	r := o.Record
	if r.DOI != "10.4230/LIPIcs.TQC.2013.93" || r.Type != "paper-conference" || r.Title != "The Minimum Size of Qubit Unextendible Product Bases" ||
		r.ContainerTitle != "LIPIcs, Volume 22, TQC 2013" || r.Volume != "22" || r.Issue != "" || r.Page != "93-105" ||
		r.Publisher != "Schloss Dagstuhl – Leibniz-Zentrum für Informatik" || r.Issued != (metadata.Date{Year: 2013}) ||
		r.ArxivID != "" || o.IsPreprint || o.PublishedDOI != "10.4230/LIPIcs.TQC.2013.93" || o.PreprintDOI != "" {
		t.Errorf("observation %+v record %+v", o, r)
	}
	// Editors (contributors) are not authors.
	if diff := cmp.Diff([]metadata.Name{{Family: "Johnston", Given: "Nathaniel"}}, r.Authors); diff != "" {
		t.Errorf("authors (-want +got):\n%s", diff)
	}
}

func TestNotFound(t *testing.T) {
	s := metadatatest.NewServer(t)
	// A Crossref DOI: DataCite does not have it (here: not recorded → 404).
	_, err := newClient(s).ByDOI(t.Context(), "10.1038/s42256-024-00832-8")
	if !errors.Is(err, ErrNotFound) || !errors.Is(err, fetch.ErrNotFound) {
		t.Errorf("err = %v", err)
	}
	if _, err := newClient(s).ByDOI(t.Context(), "1902.02534"); err == nil || errors.Is(err, fetch.ErrNotFound) {
		t.Errorf("not a DOI: %v", err)
	}
}

func TestFailures(t *testing.T) {
	s := metadatatest.NewServer(t)
	opts := metadatatest.FetchOptions()
	opts.Timeout = 150 * time.Millisecond
	c := &Client{BaseURL: s.BaseURL(metadata.SourceDataCite), HTTP: fetch.New(opts)}
	s.CheckFaults(t, metadata.SourceDataCite, "parse DataCite JSON", func(ctx context.Context) error {
		_, err := c.ByDOI(ctx, "10.48550/arXiv.1902.02534")
		return err
	})
}

// DataCite records embedded in Zotero's translator tests (bare attribute
// objects, not served by the replay) parse, with their subtitles, types and
// name forms.
func TestParseZoteroRecords(t *testing.T) {
	dir := corpustest.Dir(t, "api", "datacite")
	paths, err := filepath.Glob(filepath.Join(dir, "zotero-tc_*.json"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*metadata.Observation{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		o, err := parse(b, "")
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(p), err)
			continue
		}
		if o.Record.Title == "" || len(o.Record.Authors) == 0 {
			t.Errorf("%s: record %+v", filepath.Base(p), o.Record)
		}
		got[filepath.Base(p)] = o
	}
	if len(got) != 15 {
		t.Errorf("%d records parsed; want 15", len(got))
	}
	check := func(file string, f func(o *metadata.Observation) bool) {
		t.Helper()
		if o := got[file]; o == nil || !f(o) {
			t.Errorf("%s: %+v", file, o)
		}
	}
	check("zotero-tc_10.17171_2-3-12-1.json", func(o *metadata.Observation) bool {
		return o.Record.Title == "3D model of object V 1.2-71: Structured-light Scan, Staatliche Museen zu Berlin - Antikensammlung" &&
			o.Record.Type == "dataset" && o.Record.ContainerTitle == "Architectural Fragments from Magnesia on the Maeander"
	})
	check("zotero-tc_10.48548_PUBDATA-155.json", func(o *metadata.Observation) bool {
		return o.Record.Title == "Sorry Miss, I Completely Forgot about It: Apologies and Vocatives in Ireland and England" &&
			o.Record.Type == "chapter" && o.Record.Issued == (metadata.Date{Year: 2021, Month: 11, Day: 30}) &&
			o.Record.Publisher == "Medien- und Informationszentrum, Leuphana Universität Lüneburg"
	})
	// A Zenodo preprint: IsVersionOf names Zenodo's concept DOI (same
	// prefix), which is not a published version.
	check("zotero-tc_10.5281_ZENODO.5513598.json", func(o *metadata.Observation) bool {
		return o.IsPreprint && o.Record.Type == "article" && strings.EqualFold(o.PreprintDOI, "10.5281/zenodo.5513598") && o.PublishedDOI == ""
	})
	// A Zenodo journal article: IsVersionOf (concept DOI) is no publication.
	check("zotero-tc_10.5281_zenodo.2548653.json", func(o *metadata.Observation) bool {
		return !o.IsPreprint && o.PublishedDOI == "10.5281/zenodo.2548653" && o.Record.Type == "article-journal"
	})
	// Creators without nameType still have family/given.
	check("zotero-tc_10.25656_01_28324.json", func(o *metadata.Observation) bool {
		return o.Record.Authors[0] == (metadata.Name{Family: "Bonnet", Given: "Andreas"})
	})
	// Container "pages" that are not page numbers are dropped.
	check("zotero-tc_10.17885_heiup.jts.2018.1-2.23812.json", func(o *metadata.Observation) bool {
		return o.Record.Page == "" && o.Record.ContainerTitle == "The Journal of Transcultural Studies" &&
			o.Record.Issued == (metadata.Date{Year: 2018, Month: 12, Day: 20})
	})
}

func TestPreprintRelations(t *testing.T) {
	body := []byte(`{"data":{"attributes":{"doi":"10.48550/arxiv.2304.05376","titles":[{"title":"ChemCrow"}],
		"types":{"resourceTypeGeneral":"Preprint"},
		"relatedIdentifiers":[{"relationType":"IsVersionOf","relatedIdentifier":"10.48550/arXiv.2304.05376v2","relatedIdentifierType":"DOI"},
		                      {"relationType":"IsVersionOf","relatedIdentifier":"https://doi.org/10.1038/s42256-024-00832-8","relatedIdentifierType":"DOI"}]}}}`)
	o, err := parse(body, "")
	if err != nil {
		t.Fatal(err)
	}
	if o.PreprintDOI != "10.48550/arXiv.2304.05376" || o.PublishedDOI != "10.1038/s42256-024-00832-8" ||
		o.Record.DOIPublished != o.PublishedDOI || o.Record.ArxivID != "2304.05376" {
		t.Errorf("observation %+v", o)
	}
	body = []byte(`{"data":{"attributes":{"doi":"10.5281/zenodo.1","titles":[{"title":"Paper"}],
		"types":{"resourceTypeGeneral":"JournalArticle"},
		"relatedIdentifiers":[{"relationType":"HasPreprint","relatedIdentifier":"10.1101/2020.01.01.1","relatedIdentifierType":"DOI"}]}}}`)
	if o, err = parse(body, ""); err != nil || o.PreprintDOI != "10.1101/2020.01.01.1" || o.PublishedDOI != "10.5281/zenodo.1" || o.IsPreprint {
		t.Errorf("HasPreprint: %+v %v", o, err)
	}
}

func TestVersionYearWarning(t *testing.T) {
	body := []byte(`{"data":{"attributes":{"doi":"10.48550/arxiv.1810.04805",
		"titles":[{"title":"BERT"}],"types":{"resourceTypeGeneral":"Preprint"},
		"dates":[{"date":"2018-10-11T00:50:01Z","dateType":"Submitted","dateInformation":"v1"},
		         {"date":"2019-05-24T20:37:26Z","dateType":"Submitted","dateInformation":"v2"},
		         {"date":"2018","dateType":"Issued"}]}}}`)
	o, err := parse(body, "10.48550/arXiv.1810.04805")
	if err != nil {
		t.Fatal(err)
	}
	if o.Record.Issued != (metadata.Date{Year: 2018}) ||
		!cmp.Equal(o.Record.Warnings, []string{"arXiv v1 was submitted in 2018; v2 in 2019"}) {
		t.Errorf("record %+v", o.Record)
	}
}
