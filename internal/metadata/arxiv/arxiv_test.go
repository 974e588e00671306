package arxiv

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossmem/crossmem/internal/fetch"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/metadata/metadatatest"
)

// replay serves the recorded arXiv responses (metadatatest), failing the
// test on a request without one, and three answers of the tests' own: a body cut short (2301.00001), an HTML page
// (2301.00002) and a 503 with a text body (2301.00003).
type replay struct {
	s *metadatatest.Server
}

func newReplay(t *testing.T) *replay {
	t.Helper()
	s := metadatatest.NewServer(t)
	for id, a := range map[string]struct {
		status int
		body   string
	}{
		"2301.00001": {200, `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/abs/2301.00001v1</id><title>Trunc`},
		"2301.00002": {200, "<html><body>Service Unavailable</body></html>"},
		"2301.00003": {http.StatusServiceUnavailable, "Rate exceeded."},
	} {
		s.Answer(metadata.SourceArxiv, "/api/query?id_list="+id, a.status, []byte(a.body))
	}
	// As the real API would, every request must have an answer.
	t.Cleanup(func() {
		if u := s.Unrecorded(); len(u) > 0 {
			t.Errorf("requests without a recording: %q", u)
		}
	})
	return &replay{s: s}
}

func (r *replay) client() *Client {
	o := metadatatest.FetchOptions()
	o.RetryMax = -1
	return &Client{BaseURL: r.s.BaseURL(metadata.SourceArxiv), HTTP: fetch.New(o)}
}

// queries returns the raw query of every request, in order.
func (r *replay) queries() []string {
	var out []string
	for _, req := range r.s.Received() {
		_, q, _ := strings.Cut(req.URI, "?")
		out = append(out, q)
	}
	return out
}

func TestLookupVersionedWithPublishedDOI(t *testing.T) {
	api := newReplay(t)
	e, err := api.client().LookupEntry(t.Context(), "1111.2011", 2)
	if err != nil {
		t.Fatal(err)
	}
	r := e.Record
	want := &metadata.Record{
		Type:  "article",
		Title: "Quantum Criticality for Extended Nodes on a Bethe Lattice in the Large Connectivity Limit",
		Authors: []metadata.Name{
			{Family: "Murray", Given: "James M."},
			{Family: "Del Maestro", Given: "Adrian"},
			{Family: "Tesanovic", Given: "Zlatko"},
		},
		Issued:               metadata.Date{Year: 2012, Month: 4, Day: 2},
		Publisher:            "arXiv",
		DOI:                  "10.48550/arXiv.1111.2011",
		DOIPreprint:          "10.48550/arXiv.1111.2011",
		DOIPublished:         "10.1103/PhysRevB.85.115117",
		ArxivID:              "1111.2011",
		ArxivVersion:         2,
		ArxivPrimaryCategory: "cond-mat.str-el",
		JournalRef:           "Phys. Rev. B 85, 115117 (2012)",
		URL:                  "https://arxiv.org/abs/1111.2011v2",
		Sources:              []string{"arxiv"},
		Warnings:             []string{"arXiv v1 was submitted in 2011; this capture is v2 (2012)"},
	}
	if diff := cmp.Diff(want, r, cmpIgnoreAbstractAndProvenance()); diff != "" {
		t.Errorf("record mismatch (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(r.Abstract, "Theoretical description of anisotropic systems, such as layered superconductors and coupled spin chains,") ||
		strings.Contains(r.Abstract, "\n") {
		t.Errorf("abstract not collapsed: %q", r.Abstract[:80])
	}
	if e.Published != (metadata.Date{Year: 2011, Month: 11, Day: 8}) || e.Updated != r.Issued {
		t.Errorf("Published %+v Updated %+v", e.Published, e.Updated)
	}
	if e.Comment != "8 pages, 3 figures. Published version" {
		t.Errorf("Comment = %q", e.Comment)
	}
	if diff := cmp.Diff([]string{"cond-mat.str-el", "cond-mat.stat-mech"}, e.Categories); diff != "" {
		t.Errorf("categories (-want +got):\n%s", diff)
	}
	if e.PDFURL != "https://arxiv.org/pdf/1111.2011v2" {
		t.Errorf("PDFURL = %q", e.PDFURL)
	}
	for _, f := range []string{metadata.FieldTitle, metadata.FieldAuthors, metadata.FieldIssued, metadata.FieldDOI,
		metadata.FieldArxivID, metadata.FieldJournalRef, metadata.FieldPublisher, metadata.FieldAbstract,
		metadata.FieldType, metadata.FieldURL} {
		if diff := cmp.Diff([]string{metadata.SourceArxiv}, r.FieldSources[f]); diff != "" {
			t.Errorf("FieldSources[%s] (-want +got):\n%s", f, diff)
		}
	}
	if got := api.queries()[0]; got != "id_list=1111.2011v2" {
		t.Errorf("query = %q", got)
	}
}

func cmpIgnoreAbstractAndProvenance() cmp.Option {
	return cmp.FilterPath(func(p cmp.Path) bool {
		switch p.Last().String() {
		case ".Abstract", ".FieldSources":
			return true
		}
		return false
	}, cmp.Ignore())
}

func TestLookupOldStyleIDs(t *testing.T) {
	api := newReplay(t)
	c := api.client()

	r, err := c.Lookup(t.Context(), "quant-ph/0201082", 1)
	if err != nil {
		t.Fatal(err)
	}
	if r.Title != "Quantum Computers and Quantum Computer Languages: Quantum Assembly Language and Quantum C Language" {
		t.Errorf("title = %q", r.Title)
	}
	if diff := cmp.Diff([]metadata.Name{{Family: "Blaha", Given: "Stephen"}}, r.Authors); diff != "" {
		t.Errorf("authors (-want +got):\n%s", diff)
	}
	if r.ArxivID != "quant-ph/0201082" || r.ArxivVersion != 1 || r.ArxivPrimaryCategory != "quant-ph" ||
		r.DOI != "10.48550/arXiv.quant-ph/0201082" || r.URL != "https://arxiv.org/abs/quant-ph/0201082v1" ||
		r.Issued != (metadata.Date{Year: 2002, Month: 1, Day: 18}) || len(r.Warnings) != 0 {
		t.Errorf("record = %+v", r)
	}

	// Unversioned query: arXiv returns the latest version.
	r, err = c.Lookup(t.Context(), "astro-ph/0601001", 0)
	if err != nil {
		t.Fatal(err)
	}
	if r.ArxivVersion != 1 || r.JournalRef != "ActaAstron.56:1-50,2006" || r.DOIPublished != "" {
		t.Errorf("record = %+v", r)
	}
	wantAuthors := []metadata.Name{
		{Family: "Gould", Given: "Andrew"},
		{Family: "Dorsher", Given: "Susan"},
		{Family: "Gaudi", Given: "B. Scott"},
		{Family: "Udalski", Given: "Andrzej"},
	}
	if diff := cmp.Diff(wantAuthors, r.Authors); diff != "" {
		t.Errorf("authors (-want +got):\n%s", diff)
	}
	if !strings.Contains(r.Abstract, "V_max<17.5") || !strings.Contains(r.Abstract, "Gould & Morgan (2003)") {
		t.Errorf("entities not decoded in abstract: %q", r.Abstract)
	}
	// Old-style ids contain '/', which must be escaped in the query.
	for _, want := range []string{"id_list=quant-ph%2F0201082v1", "id_list=astro-ph%2F0601001"} {
		found := false
		for _, q := range api.queries() {
			found = found || q == want
		}
		if !found {
			t.Errorf("no query %q among %q", want, api.queries())
		}
	}
}

func TestLookupUTF8AndParticles(t *testing.T) {
	api := newReplay(t)
	r, err := api.client().Lookup(t.Context(), "1707.08567", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Authors) != 34 {
		t.Fatalf("%d authors; want 34", len(r.Authors))
	}
	byFamily := map[string]metadata.Name{}
	for _, a := range r.Authors {
		byFamily[a.Family] = a
	}
	for _, want := range []metadata.Name{
		{Family: "Wübben", Given: "Dirk"}, // served without charset; must be UTF-8
		{Family: "de With", Given: "Peter H. N."},
		{Family: "van der Putten", Given: "Joost"},
		{Family: "van der Sommen", Given: "Fons"},
		{Family: "Iwata", Given: "Ken-ichi"},
	} {
		if got := byFamily[want.Family]; got != want {
			t.Errorf("author %q = %+v; want %+v", want.Family, got, want)
		}
	}
	if r.Issued != (metadata.Date{Year: 2017, Month: 7, Day: 27}) || r.ArxivPrimaryCategory != "cs.IT" {
		t.Errorf("record = %+v", r)
	}
}

func TestLookupDegenerateTitle(t *testing.T) {
	api := newReplay(t)
	r, err := api.client().Lookup(t.Context(), "2104.12255v1", 0) // version in the id
	if err != nil {
		t.Fatal(err)
	}
	if r.Title != "0" || r.ArxivVersion != 1 {
		t.Errorf("title %q version %d; want the real title \"0\" of v1", r.Title, r.ArxivVersion)
	}
	if diff := cmp.Diff([]metadata.Name{{Family: "Nguyen", Given: "Quan Thoi Minh"}}, r.Authors); diff != "" {
		t.Errorf("authors (-want +got):\n%s", diff)
	}
}

func TestLookupNotFound(t *testing.T) {
	api := newReplay(t)
	c := api.client()
	for _, tc := range []struct {
		id      string
		message string
	}{
		{"abc", "incorrect id format for abc"}, // HTTP 400 with an Atom error entry
		{"0000.0000", "no entry"},              // empty feed
		{"0808.05394", "no entry"},
	} {
		_, err := c.Lookup(t.Context(), tc.id, 0)
		if !errors.Is(err, ErrNotFound) || !errors.Is(err, fetch.ErrNotFound) {
			t.Errorf("Lookup(%q) err = %v; want ErrNotFound", tc.id, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.message) {
			t.Errorf("Lookup(%q) err = %q; want it to mention %q", tc.id, err, tc.message)
		}
	}
}

func TestLookupFailures(t *testing.T) {
	api := newReplay(t)
	c := api.client()
	for _, id := range []string{"2301.00001", "2301.00002"} {
		_, err := c.Lookup(t.Context(), id, 0)
		if err == nil || errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "parse arXiv Atom feed") {
			t.Errorf("Lookup(%q) err = %v; want a parse error, not ErrNotFound", id, err)
		}
	}
	_, err := c.Lookup(t.Context(), "2301.00003", 0)
	var fe *fetch.Error
	if !errors.As(err, &fe) || fe.Status != 503 || errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "failed") {
		t.Errorf("err = %v; want a failed fetch", err)
	}
	if _, err := (&Client{}).Lookup(t.Context(), "1706.03762", 0); err == nil {
		t.Error("a Client without HTTP must fail")
	}
}

func TestPDFURL(t *testing.T) {
	c := &Client{}
	for _, tc := range []struct {
		id      string
		version int
		want    string
	}{
		{"1706.03762", 0, "https://arxiv.org/pdf/1706.03762"},
		{"1706.03762", 5, "https://arxiv.org/pdf/1706.03762v5"},
		{"quant-ph/0201082", 1, "https://arxiv.org/pdf/quant-ph/0201082v1"},
	} {
		if got := c.PDFURL(tc.id, tc.version); got != tc.want {
			t.Errorf("PDFURL(%q, %d) = %q; want %q", tc.id, tc.version, got, tc.want)
		}
	}
	c.PDFBase = "http://mirror.example/pdf/"
	if got := c.PDFURL("1706.03762", 2); got != "http://mirror.example/pdf/1706.03762v2" {
		t.Errorf("PDFURL with base = %q", got)
	}
}
