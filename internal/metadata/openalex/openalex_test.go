package openalex

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
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

func newClient(s *metadatatest.Server, mailto string) *Client {
	return &Client{
		BaseURL: s.BaseURL(metadata.SourceOpenAlex),
		HTTP:    fetch.New(metadatatest.FetchOptions()),
		Mailto:  mailto,
	}
}

func byDOI(t *testing.T, c *Client, doi string) *metadata.Observation {
	t.Helper()
	o, err := c.ByDOI(t.Context(), doi)
	if err != nil {
		t.Fatalf("ByDOI(%q): %v", doi, err)
	}
	return o
}

func noUnrecorded(t *testing.T, s *metadatatest.Server) {
	t.Helper()
	if u := s.Unrecorded(); len(u) != 0 {
		t.Errorf("unrecorded requests: %q", u)
	}
}

var ignoreProvenance = cmp.FilterPath(func(p cmp.Path) bool {
	switch p.Last().String() {
	case ".FieldSources", ".Abstract":
		return true
	}
	return false
}, cmp.Ignore())

func TestByDOIPreprint(t *testing.T) {
	s := metadatatest.NewServer(t)
	o := byDOI(t, newClient(s, "me@example.org"), "https://doi.org/10.1101/2024.04.01.587366")
	want := &metadata.Observation{
		Source: "openalex",
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
			DOI:         "10.1101/2024.04.01.587366",
			DOIPreprint: "10.1101/2024.04.01.587366",
			URL:         "https://doi.org/10.1101/2024.04.01.587366",
			Sources:     []string{"openalex"},
			Warnings:    []string{},
		},
		PreprintDOI: "10.1101/2024.04.01.587366",
		IsPreprint:  true,
		PDFURLs:     []string{"https://www.biorxiv.org/content/biorxiv/early/2024/04/01/2024.04.01.587366.full.pdf"},
	}
	if diff := cmp.Diff(want, o, ignoreProvenance); diff != "" {
		t.Errorf("observation (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(o.Record.Abstract, "Understanding the effects of rare genetic variants") {
		t.Errorf("abstract not rebuilt from the inverted index: %.80q", o.Record.Abstract)
	}
	for _, f := range []string{metadata.FieldTitle, metadata.FieldAuthors, metadata.FieldIssued, metadata.FieldDOI,
		metadata.FieldType, metadata.FieldURL, metadata.FieldAbstract} {
		if diff := cmp.Diff([]string{metadata.SourceOpenAlex}, o.Record.FieldSources[f]); diff != "" {
			t.Errorf("FieldSources[%s] (-want +got):\n%s", f, diff)
		}
	}
	req := s.Requests()[0]
	if want := "/openalex/works/https://doi.org/10.1101/2024.04.01.587366?mailto=me%40example.org"; req != want {
		t.Errorf("request %q; want %q", req, want)
	}
	noUnrecorded(t, s)
}

func TestByDOIPublished(t *testing.T) {
	s := metadatatest.NewServer(t)
	c := newClient(s, "")

	t.Run("journal article with article number", func(t *testing.T) {
		o := byDOI(t, c, "10.1016/j.xgen.2025.100814")
		r := o.Record
		// GROUNDTRUTH: Crossref issued 2025-04, OpenAlex 2025-03-01 (a
		// real date, not January 1: kept).
		if r.Type != "article-journal" || r.ContainerTitle != "Cell Genomics" || r.Page != "100814" ||
			r.Volume != "" || r.Issued != (metadata.Date{Year: 2025, Month: 3, Day: 1}) {
			t.Errorf("record = %+v", r)
		}
		if o.IsPreprint || o.PublishedDOI != "10.1016/j.xgen.2025.100814" || o.PreprintDOI != "" || len(o.PDFURLs) != 0 {
			t.Errorf("observation = %+v", o)
		}
		for _, f := range []string{metadata.FieldContainerTitle, metadata.FieldPage} {
			if diff := cmp.Diff([]string{"openalex"}, r.FieldSources[f]); diff != "" {
				t.Errorf("FieldSources[%s] (-want +got):\n%s", f, diff)
			}
		}
	})

	t.Run("padded date, DOI case, raw author names", func(t *testing.T) {
		o := byDOI(t, c, "10.1023/A:1007154515475")
		r := o.Record
		// OpenAlex publication_date 2001-01-01 is year-only precision.
		if r.Issued != (metadata.Date{Year: 2001}) {
			t.Errorf("issued %+v; want the year alone", r.Issued)
		}
		if r.DOI != "10.1023/A:1007154515475" {
			t.Errorf("DOI %q: the requested capitalisation is kept", r.DOI)
		}
		// The raw name as printed (Crossref agrees), not OpenAlex's
		// profile name "Debasish".
		if r.Authors[1] != (metadata.Name{Family: "Bandyopadhyay", Given: "Debashis"}) {
			t.Errorf("author 2 = %+v", r.Authors[1])
		}
		if r.Volume != "218" || r.Issue != "1/2" || r.Page != "1-11" ||
			r.ContainerTitle != "Molecular and Cellular Biochemistry" || !strings.HasSuffix(r.Title, "peroxidase.") {
			t.Errorf("record = %+v", r)
		}
	})

	t.Run("conference paper without source", func(t *testing.T) {
		r := byDOI(t, c, "10.1145/3448016.3452841").Record
		if r.Type != "paper-conference" || r.Title != "Vector Quotient Filters" || r.Page != "1386-1399" || r.ContainerTitle != "" {
			t.Errorf("record = %+v", r)
		}
		// Raw "Martin", not the display name written with a dotless i.
		if r.Authors[4] != (metadata.Name{Family: "Farach-Colton", Given: "Martin"}) {
			t.Errorf("author 5 = %+v", r.Authors[4])
		}
	})

	t.Run("elocation", func(t *testing.T) {
		r := byDOI(t, c, "10.7554/eLife.01567").Record
		if r.Page != "e01567" || r.Volume != "3" || r.Issued != (metadata.Date{Year: 2014, Month: 2, Day: 11}) {
			t.Errorf("record = %+v", r)
		}
		if r.Authors[3] != (metadata.Name{Family: "Xenarios", Given: "Ioannis"}) {
			t.Errorf("author 4 = %+v (raw name has no accent)", r.Authors[3])
		}
	})

	t.Run("empty title and CJK names", func(t *testing.T) {
		o := byDOI(t, c, "10.7600/jspfsm.56.60")
		r := o.Record
		if r.Title != "" || len(r.FieldSources[metadata.FieldTitle]) != 0 || !hasWarning(r, "no title") {
			t.Errorf("title %q, warnings %q", r.Title, r.Warnings)
		}
		want := []metadata.Name{{Family: "宮地", Given: "元彦"}, {Family: "山元", Given: "健太"}}
		if diff := cmp.Diff(want, r.Authors); diff != "" {
			t.Errorf("authors (-want +got):\n%s", diff)
		}
		if r.Issued != (metadata.Date{Year: 2007}) || r.Page != "60" {
			t.Errorf("record = %+v", r)
		}
		if diff := cmp.Diff([]string{"https://www.jstage.jst.go.jp/article/jspfsm/56/1/56_1_60/_pdf"}, o.PDFURLs); diff != "" {
			t.Errorf("PDFURLs (-want +got):\n%s", diff)
		}
	})

	t.Run("affiliations listed as authors", func(t *testing.T) {
		r := byDOI(t, c, "10.3934/nhm.2009.4.249").Record
		// Three real authors; the display name "Valérie dos Santos" is
		// taken because the raw "Valérie Dos Santos" differs only in case
		// (and metadata.ParseName reads "Yann Le Gorrec", today, as family
		// "Gorrec": "Le" is not among its capitalised particles).
		if len(r.Authors) != 3 || r.Authors[0] != (metadata.Name{Family: "dos Santos", Given: "Valérie"}) ||
			r.Authors[1] != (metadata.Name{Family: "Maschke", Given: "Bernhard"}) {
			t.Errorf("authors %+v", r.Authors)
		}
		if !hasWarning(r, "affiliation as an author", "LAGEP") || !hasWarning(r, "FEMTO-ST") {
			t.Errorf("warnings %q", r.Warnings)
		}
	})

	t.Run("book on an ebook platform", func(t *testing.T) {
		r := byDOI(t, c, "10.1017/9781108348843").Record
		if r.Type != "book" || r.ContainerTitle != "" || r.Issued != (metadata.Date{Year: 2019, Month: 7, Day: 1}) {
			t.Errorf("record = %+v", r)
		}
	})
	noUnrecorded(t, s)
}

func TestByDOIPDFOrder(t *testing.T) {
	s := metadatatest.NewServer(t)
	o := byDOI(t, newClient(s, ""), "10.1073/pnas.1414271111")
	want := []string{
		"https://europepmc.org/articles/pmc4234579?pdf=render",
		"https://escholarship.org/content/qt4ws805f2/qt4ws805f2.pdf?t=rt3n16",
	}
	if diff := cmp.Diff(want, o.PDFURLs); diff != "" {
		t.Errorf("PDFURLs (-want +got):\n%s", diff)
	}
	// Display "Eleftherios Makris"; raw "Eleftherios A. Makris".
	if o.Record.Authors[0] != (metadata.Name{Family: "Makris", Given: "Eleftherios A."}) {
		t.Errorf("first author %+v", o.Record.Authors[0])
	}
}

func TestSearchTitle(t *testing.T) {
	s := metadatatest.NewServer(t)
	c := newClient(s, "me@example.org")

	t.Run("published and preprint", func(t *testing.T) {
		const title = "Augmenting large language models with chemistry tools"
		hits, err := c.SearchTitle(t.Context(), title)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != 2 {
			t.Fatalf("%d hits; want 2", len(hits))
		}
		pub, pre := hits[0], hits[1]
		if pub.Query != "title:"+title || pub.IsPreprint || pub.Record.DOI != "10.1038/s42256-024-00832-8" ||
			pub.Record.Type != "article-journal" || pub.Record.Issued != (metadata.Date{Year: 2024, Month: 5, Day: 8}) ||
			pub.Record.Volume != "6" || pub.Record.Issue != "5" || pub.Record.Page != "525-535" ||
			pub.Record.ContainerTitle != "Nature Machine Intelligence" || len(pub.Record.Authors) != 6 {
			t.Errorf("published hit = %+v %+v", pub, pub.Record)
		}
		// GROUNDTRUTH: OpenAlex has "Andres M. Bran" where Crossref splits
		// "Andres" / "M. Bran".
		if pub.Record.Authors[0] != (metadata.Name{Family: "Bran", Given: "Andres M."}) {
			t.Errorf("first author %+v", pub.Record.Authors[0])
		}
		// The arXiv preprint: padded date → 2023 alone; 4 authors, raw
		// names inverted ("Bran, Andres M").
		r := pre.Record
		if !pre.IsPreprint || r.DOI != "10.48550/arXiv.2304.05376" || r.ArxivID != "2304.05376" ||
			pre.PreprintDOI != "10.48550/arXiv.2304.05376" || pre.PublishedDOI != "" ||
			r.Issued != (metadata.Date{Year: 2023}) || r.Type != "article" || r.ContainerTitle != "" ||
			!strings.HasPrefix(r.Title, "ChemCrow:") || len(r.Authors) != 4 {
			t.Errorf("preprint hit = %+v %+v", pre, r)
		}
		if r.Authors[0] != (metadata.Name{Family: "Bran", Given: "Andres M"}) {
			t.Errorf("preprint first author %+v", r.Authors[0])
		}
		if diff := cmp.Diff([]string{"http://arxiv.org/pdf/2304.05376"}, pre.PDFURLs); diff != "" {
			t.Errorf("preprint PDFURLs (-want +got):\n%s", diff)
		}
	})

	t.Run("arXiv-only paper", func(t *testing.T) {
		hits, err := c.SearchTitle(t.Context(), "PaperQA: Retrieval-Augmented Generative Agent for Scientific Research")
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != 1 {
			t.Fatalf("%d hits", len(hits))
		}
		r := hits[0].Record
		// GROUNDTRUTH: publication_date 2023-01-01 is padded; S2 has 2023-12-08.
		if r.Issued != (metadata.Date{Year: 2023}) || r.ArxivID != "2312.07559" || !hits[0].IsPreprint {
			t.Errorf("record = %+v", r)
		}
		want := []string{"Lála", "O'Donoghue", "Shtedritski", "Cox", "Rodriques", "White"}
		var got []string
		for _, a := range r.Authors {
			got = append(got, a.Family)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("families (-want +got):\n%s", diff)
		}
	})
	if got := s.Requests()[0]; !strings.HasPrefix(got, "/openalex/works?filter=title.search%3AAugmenting+large+language+models") ||
		!strings.Contains(got, "mailto=me%40example.org") {
		t.Errorf("request %q", got)
	}
	noUnrecorded(t, s)
}

func TestNotFound(t *testing.T) {
	s := metadatatest.NewServer(t)
	c := newClient(s, "")
	_, err := c.ByDOI(t.Context(), "10.9999/not-recorded")
	if !errors.Is(err, ErrNotFound) || !errors.Is(err, fetch.ErrNotFound) {
		t.Errorf("err = %v; want ErrNotFound", err)
	}
	if _, err := c.ByDOI(t.Context(), "not a doi"); err == nil || errors.Is(err, fetch.ErrNotFound) {
		t.Errorf("bad DOI: %v", err)
	}
	// OpenAlex has no recording of an arXiv lookup: the replay answers
	// 404, and the request is the arXiv DOI form.
	_, err = c.ByArxiv(t.Context(), "arXiv:2312.07559v2")
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "arxiv:2312.07559v2") {
		t.Errorf("ByArxiv err = %v", err)
	}
	want := []string{"/openalex/works/https://doi.org/10.9999/not-recorded", "/openalex/works/https://doi.org/10.48550/arXiv.2312.07559"}
	if diff := cmp.Diff(want, s.Unrecorded()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

// ByArxiv against a one-off server serving OpenAlex's record of
// scikit-learn (recorded inside Zotero's translator tests, so not in the
// replay): OpenAlex canonicalised the JMLR paper to its arXiv DOI.
func TestByArxiv(t *testing.T) {
	body := corpustest.File(t, "api", "openalex/zotero-tc_W2101234009.json")
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.URL.Path)
		if r.URL.Path != "/works/https://doi.org/10.48550/arXiv.1201.0490" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	defer srv.Close()
	c := &Client{BaseURL: srv.URL, HTTP: fetch.New(metadatatest.FetchOptions())}
	o, err := c.ByArxiv(t.Context(), "1201.0490")
	if err != nil {
		t.Fatalf("ByArxiv: %v (paths %q)", err, paths)
	}
	r := o.Record
	if o.Query != "arxiv:1201.0490" || !o.IsPreprint || o.PreprintDOI != "10.48550/arXiv.1201.0490" || o.PublishedDOI != "" ||
		r.DOI != "10.48550/arXiv.1201.0490" || r.ArxivID != "1201.0490" || r.Type != "article" ||
		r.Issued != (metadata.Date{Year: 2012}) || r.Volume != "" || r.Page != "" {
		t.Errorf("observation %+v record %+v", o, r)
	}
	// Raw names, not OpenAlex's profiles ("Fabián", "Marc de Perrot").
	if r.Authors[0] != (metadata.Name{Family: "Pedregosa", Given: "Fabian"}) ||
		r.Authors[14] != (metadata.Name{Family: "Perrot", Given: "Matthieu"}) {
		t.Errorf("authors %+v", r.Authors)
	}
	want := []string{"https://inria.hal.science/hal-00650905/document", "https://orbi.uliege.be/bitstream/2268/225787/1/1201.0490.pdf"}
	if diff := cmp.Diff(want, o.PDFURLs); diff != "" {
		t.Errorf("PDFURLs (-want +got):\n%s", diff)
	}
}

func TestFailures(t *testing.T) {
	s := metadatatest.NewServer(t)
	opts := metadatatest.FetchOptions()
	opts.Timeout = 150 * time.Millisecond
	c := &Client{BaseURL: s.BaseURL(metadata.SourceOpenAlex), HTTP: fetch.New(opts)}
	const doi = "10.1016/j.xgen.2025.100814"
	s.CheckFaults(t, metadata.SourceOpenAlex, "parse OpenAlex JSON",
		func(ctx context.Context) error { _, err := c.ByDOI(ctx, doi); return err },
		func(ctx context.Context) error {
			_, err := c.SearchTitle(ctx, "PaperQA: Retrieval-Augmented Generative Agent for Scientific Research")
			return err
		})
}

// Every recorded OpenAlex work and result list parses.
func TestParseEveryRecording(t *testing.T) {
	dir := corpustest.Dir(t, "api", "openalex")
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var probe struct {
			Results []json.RawMessage `json:"results"`
			Type    string            `json:"type"`
		}
		if err := json.Unmarshal(b, &probe); err != nil {
			t.Fatalf("%s: %v", filepath.Base(p), err)
		}
		works := probe.Results
		if works == nil {
			if probe.Type == "" {
				continue // a select=open_access,doi projection
			}
			works = []json.RawMessage{b}
		}
		for _, w := range works {
			o, err := parse(w, "")
			if err != nil {
				t.Errorf("%s: %v", filepath.Base(p), err)
				continue
			}
			if o.Record.Issued.IsZero() || o.Record.Issued.Month == 1 && o.Record.Issued.Day == 1 {
				t.Errorf("%s: issued %+v", filepath.Base(p), o.Record.Issued)
			}
		}
	}
}

func TestParseDate(t *testing.T) {
	for in, want := range map[string]metadata.Date{
		"2023-01-01": {Year: 2023},
		"2023-01-02": {Year: 2023, Month: 1, Day: 2},
		"2015-02-07": {Year: 2015, Month: 2, Day: 7},
		"2019-07-01": {Year: 2019, Month: 7, Day: 1},
		"2023-01":    {Year: 2023, Month: 1},
		"2023":       {Year: 2023},
		"":           {},
		"x":          {},
	} {
		got, _ := parseDate(in)
		if got != want {
			t.Errorf("parseDate(%q) = %+v; want %+v", in, got, want)
		}
	}
}

func hasWarning(r *metadata.Record, parts ...string) bool {
	for _, w := range r.Warnings {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(w, p)
		}
		if ok {
			return true
		}
	}
	return false
}
