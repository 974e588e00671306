package metadatatest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/fetch"
	"github.com/crossmem/crossmem/internal/metadata"
)

func get(t *testing.T, u string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: read body: %v", u, err)
	}
	return resp, body
}

// Every MANIFEST row of the five sources is served, by its own request
// URI, with its recorded status and body (or the base recording's body for
// a re-record of the same request).
func TestEveryRecordingIsServed(t *testing.T) {
	s := NewServer(t)
	recs := s.Recordings()
	perSource := map[string]int{}
	for _, r := range recs {
		perSource[r.Source]++
		u, ok := s.LocalURL(r.RequestURI)
		if !ok {
			t.Errorf("%s: request_uri %q is not a request to a replayed API", r.File, r.RequestURI)
			continue
		}
		resp, body := get(t, u)
		if resp.StatusCode != r.Status {
			t.Errorf("%s: status %d; want %d", r.File, resp.StatusCode, r.Status)
		}
		if !bytes.Equal(body, corpustest.File(t, "api", r.Served)) {
			t.Errorf("%s: body is not %s", r.File, r.Served)
		}
		if r.Served != r.File && !strings.Contains(r.File, ".v") {
			t.Errorf("%s: served %s, but only re-records should be served another file", r.File, r.Served)
		}
	}
	if u := s.Unrecorded(); len(u) != 0 {
		t.Errorf("unrecorded: %q", u)
	}
	// Counts from MANIFEST.tsv: rows with a request_uri.
	want := map[string]int{"arxiv": 14, "crossref": 83, "openalex": 43, "datacite": 3, "unpaywall": 9}
	for src, n := range want {
		if perSource[src] != n {
			t.Errorf("%s: %d recordings served; want %d", src, perSource[src], n)
		}
	}
}

func TestNormalisedKeys(t *testing.T) {
	s := NewServer(t)
	for _, tc := range []struct {
		name, path, file string
	}{
		{"arXiv id_list without the defaults", "/arxiv/api/query?id_list=1605.08386", "arxiv/1605.08386.xml"},
		{"arXiv old-style id escaped", "/arxiv/api/query?id_list=astro-ph%2F0601001", "arxiv/astro-ph_0601001.xml"},
		{"arXiv legacy recording", "/arxiv/api/query?id_list=1111.2011v2", "arxiv/1111.2011v2.2016.xml"},
		{"Crossref escaped slash, other mailto", "/crossref/works/10.1016%2Fj.xgen.2025.100814?mailto=me%40example.org", "crossref/10.1016_j.xgen.2025.100814.json"},
		{"Crossref DOI case", "/crossref/works/10.7554/eLife.01567", "crossref/10.7554_elife.01567.json"},
		{"Crossref re-record serves the base", "/crossref/works/10.1063/1.4938384", "crossref/10.1063_1.4938384.json"},
		{"Crossref query, parameters reordered", "/crossref/works?rows=1&query.title=PaperQA%3A%20Retrieval-Augmented%20Generative%20Agent%20for%20Scientific%20Research", "crossref-query/PaperQA_Retrieval-Augmented_Generative_Agent_for_Scientific_Research.json"},
		{"OpenAlex unescaped DOI", "/openalex/works/https://doi.org/10.1016/j.xgen.2025.100814?mailto=me@example.org", "openalex/10.1016_j.xgen.2025.100814.json"},
		{"OpenAlex title search", "/openalex/works?filter=title.search:PaperQA:%20Retrieval-Augmented%20Generative%20Agent%20for%20Scientific%20Research", "openalex/titlesearch_PaperQA_Retrieval-Augmented_Generative_Agent_for_Scientific_Research.json"},
		{"DataCite arXiv DOI case", "/datacite/dois/10.48550/arXiv.1902.02534?include=media%2Cclient", "datacite/10.48550_arxiv.1902.02534.json"},
		{"Unpaywall other email", "/unpaywall/v2/10.1023/A:1007154515475?email=someone@example.org", "unpaywall/10.1023_a_1007154515475.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := get(t, s.URL()+tc.path)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d: %s", resp.StatusCode, body)
			}
			if !bytes.Equal(body, corpustest.File(t, "api", tc.file)) {
				t.Errorf("body is not %s", tc.file)
			}
		})
	}
	if u := s.Unrecorded(); len(u) != 0 {
		t.Errorf("unrecorded: %q", u)
	}
}

func TestContentTypeAndStatus(t *testing.T) {
	s := NewServer(t)
	for _, tc := range []struct {
		path, ct string
		status   int
	}{
		{"/arxiv/api/query?id_list=1707.08567", "application/atom+xml", 200},
		{"/arxiv/api/query?id_list=abc", "application/atom+xml", 400},
		{"/crossref/works/10.1371/notarealdoi", "text/plain; charset=utf-8", 404},
		{"/openalex/works/https://doi.org/10.1046/j.1365-2699.2003.00795?select=open_access,doi", "text/html; charset=utf-8", 404},
		{"/datacite/dois/10.48550/arxiv.2311.16162?include=media,client", "application/json", 200},
	} {
		resp, _ := get(t, s.URL()+tc.path)
		if resp.StatusCode != tc.status || resp.Header.Get("Content-Type") != tc.ct {
			t.Errorf("%s: %d %q; want %d %q", tc.path, resp.StatusCode, resp.Header.Get("Content-Type"), tc.status, tc.ct)
		}
	}
}

func TestUnrecordedAndRequests(t *testing.T) {
	s := NewServer(t)
	for _, p := range []string{
		"/openalex/works/https://doi.org/10.9999/nothing",
		"/crossref/works/10.1063/1.4938384?select=DOI", // a parameter the recording lacks
		"/nowhere/at/all",
		"/crossref/works/10.1063/1.4938384",
	} {
		get(t, s.URL()+p)
	}
	resp, body := get(t, s.URL()+"/unpaywall/v2/10.9999/nothing?email=x@example.org")
	if resp.StatusCode != http.StatusNotFound || string(body) != `{"status":"not recorded"}` {
		t.Errorf("unrecorded answer: %d %s", resp.StatusCode, body)
	}
	want := []string{
		"/openalex/works/https://doi.org/10.9999/nothing",
		"/crossref/works/10.1063/1.4938384?select=DOI",
		"/nowhere/at/all",
		"/unpaywall/v2/10.9999/nothing?email=x@example.org",
	}
	if got := s.Unrecorded(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Unrecorded() = %q; want %q", got, want)
	}
	if n := len(s.Requests()); n != 5 {
		t.Errorf("%d requests logged; want 5", n)
	}
}

func TestBaseURLAndEnv(t *testing.T) {
	s := NewServer(t)
	if got, want := s.BaseURL(metadata.SourceArxiv), s.URL()+"/arxiv/api/query"; got != want {
		t.Errorf("arxiv BaseURL %q; want %q", got, want)
	}
	if got, want := s.BaseURL(metadata.SourceOpenAlex), s.URL()+"/openalex"; got != want {
		t.Errorf("openalex BaseURL %q; want %q", got, want)
	}
	env := s.Env()
	if len(env) != 5 || env["CROSSMEM_UNPAYWALL_API"] != s.URL()+"/unpaywall" || env["CROSSMEM_ARXIV_API"] != s.BaseURL("arxiv") {
		t.Errorf("Env() = %v", env)
	}
}

func TestFaults(t *testing.T) {
	s := NewServer(t)
	const work = "/crossref/works/10.1063/1.4938384"
	full := corpustest.File(t, "api", "crossref/10.1063_1.4938384.json")

	s.Fail(metadata.SourceCrossref, ServerError)
	if resp, _ := get(t, s.URL()+work); resp.StatusCode != 500 {
		t.Errorf("ServerError: %d", resp.StatusCode)
	}
	if resp, _ := get(t, s.URL()+work); resp.StatusCode != 500 {
		t.Errorf("Fail lasts until cleared: %d", resp.StatusCode)
	}
	// Other sources are unaffected.
	if resp, _ := get(t, s.URL()+"/unpaywall/v2/10.1073/pnas.1414271111"); resp.StatusCode != 200 {
		t.Errorf("unpaywall while crossref fails: %d", resp.StatusCode)
	}

	s.Fail(metadata.SourceCrossref, RateLimited)
	resp, _ := get(t, s.URL()+work)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "1" {
		t.Errorf("RateLimited: %d Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}

	s.Fail(metadata.SourceCrossref, Malformed)
	resp, body := get(t, s.URL()+work)
	if resp.StatusCode != 200 || !bytes.Equal(body, full[:len(full)/2]) {
		t.Errorf("Malformed: %d, %d bytes", resp.StatusCode, len(body))
	}

	s.Fail(metadata.SourceCrossref, Truncated)
	r2, err := http.Get(s.URL() + work)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(r2.Body)
	r2.Body.Close()
	if !errors.Is(err, io.ErrUnexpectedEOF) || len(b) != len(full)/2 {
		t.Errorf("Truncated: %d bytes, err %v", len(b), err)
	}

	s.Fail(metadata.SourceCrossref, NoFault)
	if resp, body := get(t, s.URL()+work); resp.StatusCode != 200 || !bytes.Equal(body, full) {
		t.Errorf("NoFault: %d", resp.StatusCode)
	}

	s.FailNext(metadata.SourceCrossref, ServerError, 1)
	if resp, _ := get(t, s.URL()+work); resp.StatusCode != 500 {
		t.Errorf("FailNext first: %d", resp.StatusCode)
	}
	if resp, _ := get(t, s.URL()+work); resp.StatusCode != 200 {
		t.Errorf("FailNext second: %d", resp.StatusCode)
	}
	if u := s.Unrecorded(); len(u) != 0 {
		t.Errorf("unrecorded: %q", u)
	}
}

// A hang ends when the client gives up, and a fetch client reports it as a
// failure, never as not found; a 429 that clears is retried after the
// server's Retry-After.
func TestFaultsThroughFetch(t *testing.T) {
	s := NewServer(t)
	u := s.BaseURL(metadata.SourceCrossref) + "/works/10.1063/1.4938384"

	o := FetchOptions()
	o.Timeout = 100 * time.Millisecond
	o.RetryMax = -1
	s.Fail(metadata.SourceCrossref, Hang)
	start := time.Now()
	_, err := fetch.New(o).Get(t.Context(), u, "")
	var fe *fetch.Error
	if !errors.As(err, &fe) || errors.Is(err, fetch.ErrNotFound) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("hang: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("hang took %v", d)
	}

	o = FetchOptions()
	o.RetryAfterMax = 2 * time.Second
	s.FailNext(metadata.SourceCrossref, RateLimited, 1)
	start = time.Now()
	resp, err := fetch.New(o).Get(t.Context(), u, "")
	if err != nil {
		t.Fatalf("429 then recording: %v", err)
	}
	if d := time.Since(start); d < 900*time.Millisecond {
		t.Errorf("retried after %v; Retry-After: 1 asks for a second", d)
	}
	if resp.Status != 200 {
		t.Errorf("status %d", resp.Status)
	}
}

func TestKeyIgnoresContactAndOrder(t *testing.T) {
	a := requestKey("crossref", "/works", "mailto=a%40b.c&query.title=A+B&rows=1")
	b := requestKey("crossref", "/works", "rows=1&query.title=a%20b&email=x")
	if a != b {
		t.Errorf("%q != %q", a, b)
	}
	c := requestKey("arxiv", "/api/query", "search_query=&id_list=1605.08386&sortBy=relevance&sortOrder=descending&start=0&max_results=100")
	d := requestKey("arxiv", "/api/query", "id_list=1605.08386")
	if c != d {
		t.Errorf("%q != %q", c, d)
	}
	if e := requestKey("arxiv", "/api/query", "search_query=testing&max_results=10"); e == requestKey("arxiv", "/api/query", "search_query=testing&max_results=100") {
		t.Errorf("max_results must matter for a search: %q", e)
	}
}

// A test's own answers: Answer overrides and adds API answers, Serve adds
// files outside the APIs, Received and Count report the requests.
func TestAnswerServeReceived(t *testing.T) {
	s := NewServer(t)
	feed := []byte(`<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"></feed>`)
	s.Answer(metadata.SourceArxiv, "/api/query?id_list=2301.00009", http.StatusOK, feed)
	s.Answer(metadata.SourceCrossref, "/works/10.1145/3184558.3186235", http.StatusServiceUnavailable, []byte("busy"))
	pdfURL := s.Serve("/pdf/2301.00009v1", http.StatusOK, "application/pdf", []byte("%PDF-1.4"))

	// Matched like recordings: defaults dropped, case ignored.
	resp, body := get(t, s.BaseURL(metadata.SourceArxiv)+"?id_list=2301.00009&start=0")
	if resp.StatusCode != 200 || !bytes.Equal(body, feed) || resp.Header.Get("Content-Type") != "application/atom+xml" {
		t.Errorf("answer: %d %q %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	resp, body = get(t, s.BaseURL(metadata.SourceCrossref)+"/works/10.1145/3184558.3186235")
	if resp.StatusCode != http.StatusServiceUnavailable || string(body) != "busy" {
		t.Errorf("an answer does not override the recording: %d %q", resp.StatusCode, body)
	}
	resp, body = get(t, pdfURL)
	if resp.StatusCode != 200 || string(body) != "%PDF-1.4" || resp.Header.Get("Content-Type") != "application/pdf" {
		t.Errorf("served file: %d %q %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	if resp, _ := get(t, s.URL()+"/pdf/other"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a path nobody serves: %d", resp.StatusCode)
	}
	if n := s.Count("/pdf/2301.00009v1"); n != 1 {
		t.Errorf("Count = %d", n)
	}
	got := s.Received()
	if len(got) != 4 || got[2].URI != "/pdf/2301.00009v1" || got[2].Header.Get("User-Agent") == "" {
		t.Errorf("Received = %+v", got)
	}
}
