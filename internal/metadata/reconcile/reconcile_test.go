package reconcile

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/crossmem/crossmem/internal/fetch"
	"github.com/crossmem/crossmem/internal/metadata"
)

func rec(source, title string, year int, doi string, authors ...metadata.Name) *metadata.Observation {
	r := &metadata.Record{Title: title, Issued: metadata.Date{Year: year}, DOI: doi, Authors: authors}
	return &metadata.Observation{Source: source, Record: r}
}

func n(family, given string) metadata.Name { return metadata.Name{Family: family, Given: given} }

func hasWarning(r *metadata.Record, parts ...string) bool {
	for _, w := range r.Warnings {
		ok := true
		for _, p := range parts {
			if !strings.Contains(w, p) {
				ok = false
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func TestMergeAgreement(t *testing.T) {
	cr := rec(metadata.SourceCrossref, "Augmenting large language models with chemistry tools", 2024, "10.1038/s42256-024-00832-8",
		n("M. Bran", "Andres"), n("Cox", "Sam"))
	oa := rec(metadata.SourceOpenAlex, "Augmenting large language models with chemistry tools", 2024, "10.1038/S42256-024-00832-8",
		n("Bran", "Andres M."), n("Cox", "Sam"))
	r := Merge([]*metadata.Observation{oa, cr})
	if !r.Reconciled {
		t.Error("two sources agreeing on title, first author and year: want Reconciled")
	}
	if r.Authors[0].Family != "Bran" || r.Authors[0].Given != "Andres M." {
		t.Errorf("first author = %+v, want the repaired split", r.Authors[0])
	}
	if !hasWarning(r, "crossref splits author name", "M. Bran") {
		t.Errorf("the name repair must be a warning: %q", r.Warnings)
	}
	if got := r.FieldSources[metadata.FieldTitle]; len(got) != 2 {
		t.Errorf("title sources = %v, want both", got)
	}
	if got := r.FieldSources[metadata.FieldDOI]; len(got) != 2 {
		t.Errorf("DOI sources = %v (DOIs compare case-insensitively)", got)
	}
	if r.Title != cr.Record.Title || r.Sources[0] != metadata.SourceCrossref {
		t.Errorf("Crossref is preferred for the title: %+v", r)
	}
}

func TestMergeDisagreements(t *testing.T) {
	ax := rec(metadata.SourceArxiv, "BERT: Pre-training of Deep Bidirectional Transformers", 2018, "", n("Devlin", "Jacob"))
	oa := rec(metadata.SourceOpenAlex, "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding", 2019, "", n("Devlin", "Jacob"), n("Chang", "Ming-Wei"))
	r := Merge([]*metadata.Observation{ax, oa})
	if r.Reconciled {
		t.Error("years differ: not reconciled")
	}
	if r.Issued.Year != 2018 || !hasWarning(r, "year differs", "arxiv gives 2018", "openalex gives 2019") {
		t.Errorf("year %d, warnings %q", r.Issued.Year, r.Warnings)
	}
	if !hasWarning(r, "authors differ", "1 authors vs 2") {
		t.Errorf("author count difference not reported: %q", r.Warnings)
	}
	// A subtitle is not a different title.
	if hasWarning(r, "title differs") {
		t.Errorf("title plus subtitle reported as different: %q", r.Warnings)
	}
	if got := r.FieldSources[metadata.FieldIssued]; len(got) != 1 || got[0] != metadata.SourceArxiv {
		t.Errorf("issued sources = %v", got)
	}
}

func TestMergeSingleSource(t *testing.T) {
	r := Merge([]*metadata.Observation{rec(metadata.SourceCrossref, "T", 2020, "10.1/x", n("A", "B"))})
	if r.Reconciled || len(r.Sources) != 1 {
		t.Errorf("one source cannot reconcile: %+v", r)
	}
	r = Merge(nil)
	if r.Title != "" || r.Sources == nil || r.Warnings == nil {
		t.Errorf("empty merge = %+v", r)
	}
}

func TestHelpers(t *testing.T) {
	if s := TitleSimilarity("Attention Is All You Need", "attention is all you need!"); s != 1 {
		t.Errorf("similarity = %v", s)
	}
	if s := TitleSimilarity("PaperQA: Retrieval-Augmented Generative Agent for Scientific Research", "The Dilemma and Countermeasures of Music Education"); s > 0.3 {
		t.Errorf("different titles similarity = %v", s)
	}
	for _, tc := range []struct{ a, b string }{{"525-535", "525 - 535"}, {"1234-56", "1234–1256"}, {"e01567", "E01567"}} {
		if !samePages(tc.a, tc.b) && !sameNumber(tc.a, tc.b) {
			t.Errorf("%q and %q should be the same pages", tc.a, tc.b)
		}
	}
	if FamilyKey(n("de Oliveira", "")) != FamilyKey(n("De Oliveira", "")) || FamilyKey(n("Müller", "")) != FamilyKey(n("Muller", "")) {
		t.Error("FamilyKey must fold case, particles' spacing and diacritics")
	}
	if _, fixes := RepairNames([]metadata.Name{n("Smith", "J."), {Literal: "OpenAI"}}); len(fixes) != 0 {
		t.Errorf("nothing to repair, got %v", fixes)
	}
}

// fakeSources answers from fixed observations keyed by query, and fails
// or says not found for the queries listed.
type fakeSources struct {
	mu       sync.Mutex
	obs      map[string]*metadata.Observation
	search   map[string][]*metadata.Observation
	failing  map[string]bool
	asked    []string
	noSearch bool
}

func (f *fakeSources) get(source, query string) (*metadata.Observation, error) {
	key := source + " " + strings.ToLower(query)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, key)
	if f.failing[key] {
		return nil, errors.New("timeout after 30s")
	}
	if o, ok := f.obs[key]; ok {
		return o, nil
	}
	return nil, fmt.Errorf("%s %s: %w", source, query, fetch.ErrNotFound)
}

func (f *fakeSources) sources() Sources {
	s := Sources{
		Arxiv: func(ctx context.Context, id string, v int) (*metadata.Observation, error) {
			return f.get(metadata.SourceArxiv, "arxiv:"+id)
		},
		Crossref: func(ctx context.Context, doi string) (*metadata.Observation, error) {
			return f.get(metadata.SourceCrossref, "doi:"+doi)
		},
		OpenAlex: func(ctx context.Context, doi string) (*metadata.Observation, error) {
			return f.get(metadata.SourceOpenAlex, "doi:"+doi)
		},
		DataCite: func(ctx context.Context, doi string) (*metadata.Observation, error) {
			return f.get(metadata.SourceDataCite, "doi:"+doi)
		},
	}
	if !f.noSearch {
		s.CrossrefSearch = func(ctx context.Context, title, author string) ([]*metadata.Observation, error) {
			return f.search[metadata.SourceCrossref], nil
		}
		s.OpenAlexSearch = func(ctx context.Context, title string) ([]*metadata.Observation, error) {
			return f.search[metadata.SourceOpenAlex], nil
		}
	}
	return s
}

func TestResolvePreprintAndPublished(t *testing.T) {
	ax := rec(metadata.SourceArxiv, "ChemCrow: Augmenting large-language models with chemistry tools", 2023, "10.48550/arXiv.2304.05376", n("Bran", "Andres M"))
	ax.Record.ArxivID = "2304.05376"
	ax.IsPreprint = true
	ax.PublishedDOI = "10.1038/s42256-024-00832-8"
	ax.PDFURLs = []string{"https://arxiv.org/pdf/2304.05376v5"}
	dc := rec(metadata.SourceDataCite, "ChemCrow: Augmenting large-language models with chemistry tools", 2023, "10.48550/arXiv.2304.05376", n("Bran", "Andres M"))
	dc.IsPreprint = true
	cr := rec(metadata.SourceCrossref, "Augmenting large language models with chemistry tools", 2024, "10.1038/s42256-024-00832-8",
		n("M. Bran", "Andres"), n("Cox", "Sam"), n("Schilter", "Oliver"), n("Baldassari", "Carlo"), n("White", "Andrew D."), n("Schwaller", "Philippe"))
	f := &fakeSources{obs: map[string]*metadata.Observation{
		"arxiv arxiv:2304.05376":                  ax,
		"datacite doi:10.48550/arxiv.2304.05376":  dc,
		"crossref doi:10.1038/s42256-024-00832-8": cr,
		"openalex doi:10.1038/s42256-024-00832-8": nil,
	}}
	delete(f.obs, "openalex doi:10.1038/s42256-024-00832-8")
	res, err := Resolve(t.Context(), Query{ArxivID: "2304.05376"}, f.sources())
	if err != nil {
		t.Fatal(err)
	}
	r := res.Record
	if !r.Reconciled || r.Issued.Year != 2023 || r.ArxivID != "2304.05376" {
		t.Errorf("captured preprint = %+v", r)
	}
	if r.DOIPreprint != "10.48550/arXiv.2304.05376" || r.DOIPublished != "10.1038/s42256-024-00832-8" {
		t.Errorf("DOIs preprint %q published %q", r.DOIPreprint, r.DOIPublished)
	}
	if res.Published == nil || res.Published.Issued.Year != 2024 || len(res.Published.Authors) != 6 || res.Published.Authors[0].Family != "Bran" {
		t.Fatalf("published version = %+v", res.Published)
	}
	if !hasWarning(r, "published version (10.1038/s42256-024-00832-8) differs", "year 2024 vs 2023", "6 authors vs 1") {
		t.Errorf("version differences not reported: %q", r.Warnings)
	}
	if len(res.PDFURLs) != 1 || !strings.Contains(res.PDFURLs[0], "arxiv.org/pdf") {
		t.Errorf("PDF URLs = %v", res.PDFURLs)
	}
	if res.Failed() != nil {
		t.Errorf("failed = %v", res.Failed())
	}
}

func TestResolveFailureIsNotNotFound(t *testing.T) {
	f := &fakeSources{failing: map[string]bool{
		"crossref doi:10.1/x": true, "openalex doi:10.1/x": true,
	}, noSearch: true}
	_, err := Resolve(t.Context(), Query{DOI: "10.1/x"}, f.sources())
	if !errors.Is(err, ErrSourcesFailed) || errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v, want ErrSourcesFailed", err)
	}
	if !strings.Contains(err.Error(), "crossref") || !strings.Contains(err.Error(), "openalex") {
		t.Errorf("the error must name the failed sources: %v", err)
	}

	f = &fakeSources{noSearch: true}
	_, err = Resolve(t.Context(), Query{DOI: "10.1/missing"}, f.sources())
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v, want ErrNotFound", err)
	}

	// One source failing and one answering: a result, with the failure
	// recorded as a warning, not as "not found".
	cr := rec(metadata.SourceCrossref, "A title", 2020, "10.1/y", n("Smith", "J."))
	f = &fakeSources{obs: map[string]*metadata.Observation{"crossref doi:10.1/y": cr},
		failing: map[string]bool{"openalex doi:10.1/y": true}, noSearch: true}
	res, err := Resolve(t.Context(), Query{DOI: "10.1/y"}, f.sources())
	if err != nil {
		t.Fatal(err)
	}
	if fl := res.Failed(); len(fl) != 1 || fl[0] != metadata.SourceOpenAlex || !hasWarning(res.Record, "sources that failed", "openalex") {
		t.Errorf("failed %v, warnings %q", fl, res.Record.Warnings)
	}
}

func TestResolveTitleSearchConfirmation(t *testing.T) {
	cr := rec(metadata.SourceCrossref, "Effect of native oxide layers on copper thin-film tensile properties", 2015, "10.1063/1.4938384", n("Skarlinski", "Michael D."))
	// OpenAlex has no DOI record here; its title search finds the work, and
	// Crossref's search returns something else (a real failure mode).
	oaHit := rec(metadata.SourceOpenAlex, "Effect of native oxide layers on copper thin-film tensile properties: A reactive molecular dynamics study", 2015, "10.1063/1.4938384", n("Skarlinski", "Michael D."))
	wrong := rec(metadata.SourceCrossref, "The Dilemma and Countermeasures of Music Education", 2021, "10.9/other", n("Li", "X."))
	f := &fakeSources{
		obs:    map[string]*metadata.Observation{"crossref doi:10.1063/1.4938384": cr},
		search: map[string][]*metadata.Observation{metadata.SourceCrossref: {wrong}, metadata.SourceOpenAlex: {oaHit}},
	}
	res, err := Resolve(t.Context(), Query{DOI: "10.1063/1.4938384"}, f.sources())
	if err != nil {
		t.Fatal(err)
	}
	if !res.Record.Reconciled || len(res.Record.Sources) != 2 {
		t.Errorf("confirmed title-search hit should be the second witness: %+v", res.Record)
	}
	rejected := false
	for _, c := range res.Consulted {
		if c.Outcome == Rejected && c.Source == metadata.SourceCrossref && strings.Contains(c.Detail, "Music Education") {
			rejected = true
		}
	}
	if !rejected {
		t.Errorf("the wrong title-search hit must be rejected: %+v", res.Consulted)
	}
	if res.Record.Title != cr.Record.Title {
		t.Errorf("title = %q", res.Record.Title)
	}
}

func TestConfirm(t *testing.T) {
	ref := &metadata.Record{Title: "Attention Is All You Need", Issued: metadata.Date{Year: 2017}, Authors: []metadata.Name{n("Vaswani", "Ashish")}}
	ok := &metadata.Record{Title: "Attention is All you Need", Issued: metadata.Date{Year: 2018}, Authors: []metadata.Name{n("Vaswani", "A.")}}
	if why := Confirm(ok, ref); why != "" {
		t.Errorf("same work rejected: %s", why)
	}
	for _, bad := range []*metadata.Record{
		{Title: "Attention Is All You Need", Issued: metadata.Date{Year: 2020}, Authors: []metadata.Name{n("Vaswani", "A.")}},
		{Title: "Attention Is All You Need", Issued: metadata.Date{Year: 2017}, Authors: []metadata.Name{n("Smith", "A.")}},
		{Title: "Attention Is Not All You Need", Issued: metadata.Date{Year: 2017}},
	} {
		if Confirm(bad, ref) == "" {
			t.Errorf("different work confirmed: %+v", bad)
		}
	}
}
