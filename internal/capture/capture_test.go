package capture

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/crossmem/crossmem/internal/citekey"
	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/fetch"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/identifier"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/metadata/metadatatest"
	"github.com/crossmem/crossmem/internal/metadata/reconcile"
	"github.com/crossmem/crossmem/internal/metadata/sources"
	"github.com/crossmem/crossmem/internal/pdf"
)

// wazeroCache is shared by every engine the tests open (and by the other
// packages' tests), so pdfium is compiled once per machine.
var wazeroCache = corpustest.WazeroCache()

// response is how the fake server answers one request.
type response struct {
	body   []byte
	status int // 0 means 200
}

// testServer replays the recorded metadata APIs (metadatatest) with the
// tests' own answers: arXiv feeds and Crossref works (Answer, matched like
// the recordings and preferred to them) and PDFs under /pdf/ (Serve).
type testServer struct{ *metadatatest.Server }

func newTestServer(t *testing.T) testServer { return testServer{metadatatest.NewServer(t)} }

func (r response) code() int {
	if r.status == 0 {
		return http.StatusOK
	}
	return r.status
}

// arxiv answers the arXiv query for id_list with r.
func (f testServer) arxiv(idList string, r response) {
	f.Answer(metadata.SourceArxiv, "/api/query?id_list="+idList, r.code(), r.body)
}

// pdf serves r at /pdf/<id>v<N>, where capture's arXiv PDF links point.
func (f testServer) pdf(versioned string, r response) {
	f.Serve("/pdf/"+versioned, r.code(), "application/pdf", r.body)
}

// work answers Crossref's /works/<doi> with r.
func (f testServer) work(doi string, r response) {
	f.Answer(metadata.SourceCrossref, "/works/"+doi, r.code(), r.body)
}

// paths returns every request's decoded path and query in order, arXiv's
// and Crossref's without their source prefix ("/api/query?id_list=…",
// "/works/<doi>"), the other sources' with it ("/openalex/works/…"), PDFs
// as served ("/pdf/…").
func (f testServer) paths() []string {
	var out []string
	for _, req := range f.Received() {
		u, err := url.Parse(req.URI)
		if err != nil {
			continue
		}
		p := u.Path
		for _, src := range []string{metadata.SourceArxiv, metadata.SourceCrossref} {
			if rest, ok := strings.CutPrefix(p, "/"+src+"/"); ok {
				p = "/" + rest
				break
			}
		}
		if u.RawQuery != "" {
			p += "?" + u.RawQuery
		}
		out = append(out, p)
	}
	return out
}

// requests returns how many requests the server has seen.
func (f testServer) requests() int { return len(f.Received()) }

// hitCount returns how many requests had the path and query key (as paths
// gives them).
func (f testServer) hitCount(key string) int {
	n := 0
	for _, p := range f.paths() {
		if p == key {
			n++
		}
	}
	return n
}

// openEngine starts pdfium for one test.
func openEngine(t *testing.T) *pdf.Engine {
	t.Helper()
	e, err := pdf.Open(t.Context(), pdf.Options{CacheDir: wazeroCache})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// testEnv is a fresh library with a capture configuration pointing at the
// fake server.
type testEnv struct {
	lib  *library.Library
	srv  testServer
	opts Options
	logs *logBuffer
}

type logBuffer struct {
	mu    sync.Mutex
	lines []string
}

func (l *logBuffer) logf(format string, args ...any) {
	l.mu.Lock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
	l.mu.Unlock()
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

func newEnv(t *testing.T) *testEnv {
	t.Helper()
	corpustest.Dir(t, "pdf")
	lib, err := library.Open(filepath.Join(t.TempDir(), "home"))
	if err != nil {
		t.Fatal(err)
	}
	srv := newTestServer(t)
	env := &testEnv{lib: lib, srv: srv, logs: &logBuffer{}}
	env.opts = env.options(t, openEngine(t))
	return env
}

// options returns capture options using engine (engines are not safe for
// concurrent use, so concurrent captures need one each).
func (env *testEnv) options(t *testing.T, engine *pdf.Engine) Options {
	hc := fetch.New(fetch.Options{
		UserAgent:    "crossmem-test",
		Timeout:      10 * time.Second,
		RetryMax:     1,
		RetryWaitMin: time.Millisecond,
		RetryWaitMax: 5 * time.Millisecond,
		RateLimits:   map[string]fetch.RateLimit{},
	})
	sc := sources.Config{
		HTTP:     hc,
		ArxivAPI: env.srv.BaseURL(metadata.SourceArxiv), ArxivPDF: env.srv.URL() + "/pdf",
		CrossrefAPI: env.srv.BaseURL(metadata.SourceCrossref),
		OpenAlexAPI: env.srv.BaseURL(metadata.SourceOpenAlex), DataCiteAPI: env.srv.BaseURL(metadata.SourceDataCite),
	}
	return Options{
		Engine:      engine,
		Sources:     sources.New(sc),
		ArxivPDFURL: sc.Arxiv().PDFURL,
		HTTP:        hc,
		Now:         func() time.Time { return time.Unix(1776227254, 0) },
		Log:         env.logs.logf,
	}
}

// files lists every file under the library home (relative paths), so tests
// can check that nothing was written.
func (env *testEnv) files(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(env.lib.Home, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(env.lib.Home, p)
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// rawFiles lists raw/ (PDFs and sidecars only; the lock file lives in the
// home folder).
func (env *testEnv) rawFiles(t *testing.T) []string {
	t.Helper()
	return dirNames(t, env.lib.RawDir())
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// readSidecar decodes the sidecar file at path.
func readSidecar(t *testing.T, path string) library.Sidecar {
	t.Helper()
	p, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var sc library.Sidecar
	if err := json.Unmarshal(p, &sc); err != nil {
		t.Fatalf("sidecar %s: %v", path, err)
	}
	return sc
}

func TestArxivVersioned(t *testing.T) {
	env := newEnv(t)
	pdfData := corpustest.PDF(t, "pm_2304.02623v1.pdf")
	env.srv.arxiv("2104.12255v1", response{body: corpustest.File(t, "api", "arxiv/2104.12255v1.xml")})
	env.srv.pdf("2104.12255v1", response{body: pdfData})

	res, err := Run(t.Context(), env.lib, "https://arxiv.org/abs/2104.12255v1", env.opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Existing {
		t.Error("first capture reported Existing")
	}
	if res.Input.Kind != identifier.KindArxiv {
		t.Errorf("input kind = %v; want arXiv", res.Input.Kind)
	}
	p := res.Paper
	// Title "0", author Quan Thoi Minh Nguyen, 2021.
	if !strings.HasPrefix(p.CiteKey, "nguyen2021") {
		t.Errorf("cite key = %q; want nguyen2021…", p.CiteKey)
	}
	if err := citekey.Valid(p.CiteKey); err != nil {
		t.Errorf("cite key %q is not valid: %v", p.CiteKey, err)
	}
	wantPDF := filepath.Join(env.lib.RawDir(), "1776227254_"+p.CiteKey+".pdf")
	if p.PDFPath != wantPDF {
		t.Errorf("PDF path = %s; want %s", p.PDFPath, wantPDF)
	}
	got, err := os.ReadFile(p.PDFPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, pdfData) {
		t.Error("saved PDF differs from the served PDF")
	}
	sc := readSidecar(t, p.SidecarPath)
	if sc.CiteKey != p.CiteKey || sc.ArxivID != "2104.12255" || sc.Metadata.ArxivVersion != 1 || sc.Year != 2021 {
		t.Errorf("sidecar: key %q arxiv %q v%d year %d", sc.CiteKey, sc.ArxivID, sc.Metadata.ArxivVersion, sc.Year)
	}
	if diff := cmp.Diff([]string{"Quan Thoi Minh Nguyen"}, sc.Authors); diff != "" {
		t.Errorf("authors (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{metadata.SourceArxiv}, sc.Sources); diff != "" {
		t.Errorf("sources (-want +got):\n%s", diff)
	}
	if sc.PDFSHA256 != sha(pdfData) {
		t.Errorf("pdf_sha256 = %s; want %s", sc.PDFSHA256, sha(pdfData))
	}
	wantSrc := library.Source{Kind: "arxiv", Input: "https://arxiv.org/abs/2104.12255v1", URL: env.srv.URL() + "/pdf/2104.12255v1"}
	if sc.Source != wantSrc {
		t.Errorf("source = %+v; want %+v", sc.Source, wantSrc)
	}
	if sc.CapturedAt != "1776227254" {
		t.Errorf("captured_at = %q", sc.CapturedAt)
	}
	if !strings.Contains(env.logs.String(), "arxiv_id: 2104.12255v1") {
		t.Errorf("log does not name the arXiv id:\n%s", env.logs)
	}
	found, err := env.lib.Find(p.CiteKey)
	if err != nil {
		t.Fatalf("Find(%q) after capture: %v", p.CiteKey, err)
	}
	if found.PDFPath != p.PDFPath {
		t.Errorf("Find PDF path = %s; want %s", found.PDFPath, p.PDFPath)
	}
	if diff := cmp.Diff([]string{"1776227254_" + p.CiteKey + ".meta.json", "1776227254_" + p.CiteKey + ".pdf"}, env.rawFiles(t)); diff != "" {
		t.Errorf("raw/ (-want +got):\n%s", diff)
	}
}

func TestArxivVersionless(t *testing.T) {
	env := newEnv(t)
	env.srv.arxiv("1605.08386", response{body: corpustest.File(t, "api", "arxiv/1605.08386.xml")})
	env.srv.pdf("1605.08386v1", response{body: corpustest.PDF(t, "gr_dehypenisation1.pdf")})

	res, err := Run(t.Context(), env.lib, "1605.08386", env.opts)
	if err != nil {
		t.Fatal(err)
	}
	p := res.Paper
	if p.CiteKey != "stanley2016heatbath" {
		t.Errorf("cite key = %q; want stanley2016heatbath", p.CiteKey)
	}
	if p.Metadata.ArxivID != "1605.08386" || p.Metadata.ArxivVersion != 1 {
		t.Errorf("arXiv id %q version %d; want 1605.08386 v1 (the version the API returned)", p.Metadata.ArxivID, p.Metadata.ArxivVersion)
	}
	if n := env.srv.hitCount("/pdf/1605.08386v1"); n != 1 {
		t.Errorf("versioned PDF URL fetched %d times; want 1", n)
	}
	if p.Sidecar.Source.URL != env.srv.URL()+"/pdf/1605.08386v1" {
		t.Errorf("source URL = %q", p.Sidecar.Source.URL)
	}
}

func TestArxivRecaptureIsIdempotent(t *testing.T) {
	env := newEnv(t)
	env.srv.arxiv("2104.12255v1", response{body: corpustest.File(t, "api", "arxiv/2104.12255v1.xml")})
	env.srv.arxiv("2104.12255", response{body: corpustest.File(t, "api", "arxiv/2104.12255v1.xml")})
	env.srv.pdf("2104.12255v1", response{body: corpustest.PDF(t, "pm_2304.02623v1.pdf")})

	first, err := Run(t.Context(), env.lib, "2104.12255v1", env.opts)
	if err != nil {
		t.Fatal(err)
	}
	before := env.files(t)
	requests := env.srv.requests()

	for _, input := range []string{"2104.12255v1", "https://arxiv.org/abs/2104.12255v1", "arXiv:2104.12255v1"} {
		again, err := Run(t.Context(), env.lib, input, env.opts)
		if err != nil {
			t.Fatalf("re-capture %s: %v", input, err)
		}
		if !again.Existing {
			t.Errorf("re-capture %s: Existing = false", input)
		}
		if again.Paper.CiteKey != first.Paper.CiteKey {
			t.Errorf("re-capture %s: key %q; want %q", input, again.Paper.CiteKey, first.Paper.CiteKey)
		}
	}
	if n := env.srv.requests(); n != requests {
		t.Errorf("re-capturing the same arXiv id and version made %d requests; want none", n-requests)
	}
	// The versionless id asks the API for the latest version, which is
	// the captured one: still no new files and no PDF download.
	again, err := Run(t.Context(), env.lib, "2104.12255", env.opts)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Existing || again.Paper.CiteKey != first.Paper.CiteKey {
		t.Errorf("versionless re-capture: existing %v key %q", again.Existing, again.Paper.CiteKey)
	}
	if n := env.srv.hitCount("/pdf/2104.12255v1"); n != 1 {
		t.Errorf("PDF downloaded %d times; want 1", n)
	}
	if diff := cmp.Diff(before, env.files(t)); diff != "" {
		t.Errorf("re-capture changed the library (-before +after):\n%s", diff)
	}
}

func TestArxivNotFound(t *testing.T) {
	for _, tc := range []struct {
		name  string
		input string
		resp  response
	}{
		{"empty feed", "2401.00003", response{}},
		{"HTTP 404", "2401.00001", response{body: []byte("not found"), status: http.StatusNotFound}},
		{"error entry", "2401.00002v1", response{status: http.StatusBadRequest}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := newEnv(t)
			resp := tc.resp
			switch tc.name {
			case "empty feed":
				resp.body = corpustest.File(t, "api", "arxiv/0000.0000.xml")
			case "error entry":
				resp.body = corpustest.File(t, "api", "arxiv/abc.xml")
			}
			env.srv.arxiv(tc.input, resp)
			_, err := Run(t.Context(), env.lib, tc.input, env.opts)
			if err == nil {
				t.Fatal("capture of an unknown arXiv id succeeded")
			}
			if !errors.Is(err, reconcile.ErrNotFound) {
				t.Errorf("error %q does not match reconcile.ErrNotFound", err)
			}
			id := strings.TrimSuffix(tc.input, "v1")
			if !strings.Contains(err.Error(), id) {
				t.Errorf("error %q does not name the id %s", err, id)
			}
			if tc.name == "error entry" && !strings.Contains(err.Error(), "incorrect id format") {
				t.Errorf("error %q does not carry arXiv's message", err)
			}
			if got := env.rawFiles(t); len(got) != 0 {
				t.Errorf("files written after a failed capture: %v", got)
			}
			for _, k := range env.srv.paths() {
				if strings.HasPrefix(k, "/pdf/") {
					t.Errorf("PDF requested after a failed lookup: %s", k)
				}
			}
		})
	}
}

func TestServerErrorsWriteNothing(t *testing.T) {
	t.Run("metadata 500", func(t *testing.T) {
		env := newEnv(t)
		env.srv.arxiv("2104.12255v1", response{body: []byte("oops"), status: http.StatusInternalServerError})
		_, err := Run(t.Context(), env.lib, "2104.12255v1", env.opts)
		if err == nil {
			t.Fatal("capture succeeded although the API answered 500")
		}
		if !strings.Contains(err.Error(), "failed") || !strings.Contains(err.Error(), "500") {
			t.Errorf("error %q does not say the fetch failed with HTTP 500", err)
		}
		if a, _ := hint.Of(err); a.Kind != hint.CheckNetwork {
			t.Errorf("error %q does not say what to do next (hint %+v)", err, a)
		}
		if errors.Is(err, reconcile.ErrNotFound) || errors.Is(err, fetch.ErrNotFound) {
			t.Errorf("a server error is reported as not found: %v", err)
		}
		if n := env.srv.hitCount("/api/query?id_list=2104.12255v1"); n != 2 {
			t.Errorf("API asked %d times; want 2 (one retry)", n)
		}
		if got := env.rawFiles(t); len(got) != 0 {
			t.Errorf("files written: %v", got)
		}
	})
	t.Run("PDF 500", func(t *testing.T) {
		env := newEnv(t)
		env.srv.arxiv("2104.12255v1", response{body: corpustest.File(t, "api", "arxiv/2104.12255v1.xml")})
		env.srv.pdf("2104.12255v1", response{body: []byte("oops"), status: http.StatusInternalServerError})
		_, err := Run(t.Context(), env.lib, "2104.12255v1", env.opts)
		if err == nil {
			t.Fatal("capture succeeded although the PDF download answered 500")
		}
		if !strings.Contains(err.Error(), "failed") || !strings.Contains(err.Error(), "/pdf/2104.12255v1") {
			t.Errorf("error %q does not say the PDF download failed", err)
		}
		if a, _ := hint.Of(err); a.Kind != hint.RetryOrDownloadPDF || a.DOI != "10.48550/arXiv.2104.12255" || a.URL != "https://arxiv.org/abs/2104.12255" {
			t.Errorf("error %q: hint %+v does not say how to capture a PDF downloaded by hand", err, a)
		}
		if got := env.rawFiles(t); len(got) != 0 {
			t.Errorf("files written: %v", got)
		}
	})
	t.Run("PDF is HTML", func(t *testing.T) {
		env := newEnv(t)
		env.srv.arxiv("2104.12255v1", response{body: corpustest.File(t, "api", "arxiv/2104.12255v1.xml")})
		env.srv.pdf("2104.12255v1", response{body: []byte("<html><body>Please log in</body></html>")})
		_, err := Run(t.Context(), env.lib, "2104.12255v1", env.opts)
		if !errors.Is(err, pdf.ErrNotPDF) {
			t.Fatalf("error = %v; want pdf.ErrNotPDF", err)
		}
		if got := env.rawFiles(t); len(got) != 0 {
			t.Errorf("files written: %v", got)
		}
	})
}

func TestDOIWithoutPDFLink(t *testing.T) {
	env := newEnv(t)
	const doi = "10.1145/3184558.3186235"
	env.srv.work(doi, response{body: corpustest.File(t, "api", "crossref/10.1145_3184558.3186235.json")})

	_, err := Run(t.Context(), env.lib, "https://doi.org/"+doi, env.opts)
	if !errors.Is(err, library.ErrNoPDF) {
		t.Fatalf("error = %v; want library.ErrNoPDF", err)
	}
	if a, _ := hint.Of(err); a.Kind != hint.DownloadPDF || a.DOI != doi {
		t.Errorf("hint %+v, want DownloadPDF with the DOI", a)
	}
	msg := err.Error()
	for _, want := range []string{
		"no source knows an open-access PDF",
		"set CROSSMEM_UNPAYWALL_EMAIL",
		doi,
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error does not contain %q:\n%s", want, msg)
		}
	}
	if got := env.rawFiles(t); len(got) != 0 {
		t.Errorf("files written: %v", got)
	}
	if n := env.srv.hitCount("/works/" + doi); n != 1 {
		t.Errorf("Crossref asked %d times; want 1", n)
	}
}

func TestDOIUnknown(t *testing.T) {
	env := newEnv(t)
	_, err := Run(t.Context(), env.lib, "10.1371/notarealdoi", env.opts)
	if !errors.Is(err, reconcile.ErrNotFound) {
		t.Fatalf("error = %v; want reconcile.ErrNotFound", err)
	}
	if !strings.Contains(err.Error(), "10.1371/notarealdoi") {
		t.Errorf("error %q does not name the DOI", err)
	}
	if a, _ := hint.Of(err); a.Kind != hint.CheckInput || a.What != "the DOI" {
		t.Errorf("error %q does not say what to do next (hint %+v)", err, a)
	}
	if got := env.rawFiles(t); len(got) != 0 {
		t.Errorf("files written: %v", got)
	}
}

// copyPDF copies a corpus PDF into a temp folder and returns its path.
func copyPDF(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, corpustest.PDF(t, name), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLocalPDFWithDOI(t *testing.T) {
	env := newEnv(t)
	const doi = "10.1016/j.tcs.2015.06.001"
	env.srv.work(doi, response{body: corpustest.File(t, "api", "crossref/10.1016_j.tcs.2015.06.001.json")})
	path := copyPDF(t, "gr_dehypenisation1.pdf")
	orig, _ := os.ReadFile(path)

	o := env.opts
	o.DOI = "https://doi.org/" + doi
	res, err := Run(t.Context(), env.lib, path, o)
	if err != nil {
		t.Fatal(err)
	}
	p := res.Paper
	if p.CiteKey != "dennunzio2015reaction" {
		t.Errorf("cite key = %q; want dennunzio2015reaction", p.CiteKey)
	}
	sc := readSidecar(t, p.SidecarPath)
	if !strings.HasPrefix(sc.Title, "Reaction systems and extremal combinatorics properties") {
		t.Errorf("title = %q; want the Crossref title", sc.Title)
	}
	if sc.DOI != doi || sc.Year != 2015 {
		t.Errorf("doi %q year %d", sc.DOI, sc.Year)
	}
	if diff := cmp.Diff([]string{metadata.SourceCrossref}, sc.Sources); diff != "" {
		t.Errorf("sources (-want +got):\n%s", diff)
	}
	for _, f := range []string{metadata.FieldTitle, metadata.FieldAuthors, metadata.FieldIssued, metadata.FieldDOI} {
		if diff := cmp.Diff([]string{metadata.SourceCrossref}, sc.Metadata.FieldSources[f]); diff != "" {
			t.Errorf("field_sources[%s] (-want +got):\n%s", f, diff)
		}
	}
	if sc.Source.Kind != "local" || sc.Source.Input != path {
		t.Errorf("source = %+v", sc.Source)
	}
	if !strings.Contains(env.logs.String(), "Fetching CrossRef metadata for DOI "+doi) {
		t.Errorf("log:\n%s", env.logs)
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(orig, after) {
		t.Error("capture modified the original PDF")
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("original PDF gone: %v", err)
	}
	saved, _ := os.ReadFile(p.PDFPath)
	if !bytes.Equal(orig, saved) {
		t.Error("saved PDF is not a byte-identical copy")
	}
}

func TestLocalPDF(t *testing.T) {
	t.Run("own metadata", func(t *testing.T) {
		env := newEnv(t)
		path := copyPDF(t, "pm_2304.02623v1.pdf")
		res, err := Run(t.Context(), env.lib, path, env.opts)
		if err != nil {
			t.Fatal(err)
		}
		if res.Paper.CiteKey != "shen2023summarization" {
			t.Errorf("cite key = %q; want shen2023summarization", res.Paper.CiteKey)
		}
		if diff := cmp.Diff([]string{metadata.SourcePDFInfo, metadata.SourcePDFXMP, metadata.SourcePDFText}, res.Paper.Sources); diff != "" {
			t.Errorf("sources (-want +got):\n%s", diff)
		}
		before := env.files(t)
		again, err := Run(t.Context(), env.lib, path, env.opts)
		if err != nil {
			t.Fatal(err)
		}
		if !again.Existing || again.Paper.CiteKey != res.Paper.CiteKey {
			t.Errorf("re-capture: existing %v key %q", again.Existing, again.Paper.CiteKey)
		}
		// A copy of the same bytes under another name is the same paper.
		copyPath := filepath.Join(t.TempDir(), "renamed.pdf")
		os.WriteFile(copyPath, corpustest.PDF(t, "pm_2304.02623v1.pdf"), 0o644)
		again, err = Run(t.Context(), env.lib, copyPath, env.opts)
		if err != nil {
			t.Fatal(err)
		}
		if !again.Existing || again.Paper.CiteKey != res.Paper.CiteKey {
			t.Errorf("re-capture of a copy: existing %v key %q", again.Existing, again.Paper.CiteKey)
		}
		if diff := cmp.Diff(before, env.files(t)); diff != "" {
			t.Errorf("re-capture changed the library (-before +after):\n%s", diff)
		}
		// Only the first capture asks: by the arXiv id its margin stamp
		// prints (arXiv, DataCite and OpenAlex for 10.48550/arXiv.…), then,
		// as the recordings do not know it, a title search on Crossref and
		// OpenAlex for its title; so what the PDF says is kept and the
		// record says why.
		if n := env.srv.requests(); n != 5 {
			t.Errorf("local capture made %d HTTP requests, want 3 by arXiv id and 2 title searches: %v", n, env.srv.Requests())
		}
		if !slices.ContainsFunc(env.srv.Requests(), func(r string) bool { return strings.Contains(r, "id_list=2304.02623v1") }) {
			t.Errorf("arXiv was not asked for the stamped id and version: %v", env.srv.Requests())
		}
		want := "no metadata source knows this paper, asked by the arXiv id 2304.02623v1 printed on the first page; the record is what the PDF says"
		if !slices.Contains(res.Paper.Metadata.Warnings, want) {
			t.Errorf("warnings %q, want %q", res.Paper.Metadata.Warnings, want)
		}
	})
	t.Run("no metadata", func(t *testing.T) {
		// A PDF that prints no title is kept, with no title, under a key
		// made from its file name, and a warning says so and what to do.
		env := newEnv(t)
		path := copyPDF(t, "gr_dehypenisation1.pdf")
		res, err := Run(t.Context(), env.lib, path, env.opts)
		if err != nil {
			t.Fatal(err)
		}
		if res.Paper.CiteKey != "gr_dehypenisation1" || res.Paper.Metadata.Title != "" {
			t.Errorf("cite key %q, title %q; want the file name's key and no title", res.Paper.CiteKey, res.Paper.Metadata.Title)
		}
		if !slices.ContainsFunc(res.Paper.Metadata.Warnings, func(w string) bool {
			return strings.HasPrefix(w, "no title: its first page prints no title") && strings.Contains(w, "a key made from its file name (crossmem rekey gives it another")
		}) {
			t.Errorf("warnings %q do not say the key is the file name's", res.Paper.Metadata.Warnings)
		}
		if got := env.rawFiles(t); len(got) != 2 {
			t.Errorf("files written: %v; want the PDF and its sidecar", got)
		}
		// Another PDF of the same name gets the next key.
		other := filepath.Join(t.TempDir(), "gr_dehypenisation1.pdf")
		data, _ := os.ReadFile(path)
		os.WriteFile(other, append(data, "\n% another revision\n"...), 0o644)
		if res, err := Run(t.Context(), env.lib, other, env.opts); err != nil || res.Paper.CiteKey != "gr_dehypenisation1a" {
			t.Errorf("a second title-less PDF of the same name: %v, %+v", err, res)
		}
		// A PDF without a title and a file name that gives no key needs
		// --cite-key.
		nameless := filepath.Join(t.TempDir(), "-.pdf")
		os.WriteFile(nameless, append(data, "\n% a third\n"...), 0o644)
		_, err = Run(t.Context(), env.lib, nameless, env.opts)
		if !errors.Is(err, ErrNeedMetadata) {
			t.Fatalf("error = %v; want ErrNeedMetadata", err)
		}
		if a, _ := hint.Of(err); a.Kind != hint.NameCiteKey {
			t.Errorf("error %q does not say to name a cite key (hint %+v)", err, a)
		}
		path = copyPDF(t, "ol_math_2503_04086.pdf")
		o := env.opts
		o.CiteKey = "smith2023transport"
		res, err = Run(t.Context(), env.lib, path, o)
		if err != nil {
			t.Fatal(err)
		}
		if res.Paper.CiteKey != "smith2023transport" {
			t.Errorf("cite key = %q", res.Paper.CiteKey)
		}
		// The key is now taken: another PDF cannot have it.
		other = copyPDF(t, "pm_2304.02623v1.pdf")
		_, err = Run(t.Context(), env.lib, other, o)
		if !errors.Is(err, library.ErrKeyInUse) {
			t.Errorf("reusing a taken --cite-key: error = %v; want library.ErrKeyInUse", err)
		}
	})
	t.Run("not a PDF", func(t *testing.T) {
		env := newEnv(t)
		path := filepath.Join(t.TempDir(), "notes.pdf")
		os.WriteFile(path, []byte("just some text\n"), 0o644)
		_, err := Run(t.Context(), env.lib, path, env.opts)
		if !errors.Is(err, pdf.ErrNotPDF) {
			t.Errorf("error = %v; want pdf.ErrNotPDF", err)
		}
		if got := env.rawFiles(t); len(got) != 0 {
			t.Errorf("files written: %v", got)
		}
	})
}

func TestInvalidInput(t *testing.T) {
	env := newEnv(t)
	for _, in := range []string{"", "not a paper", "ftp://example.org/x.pdf", "/no/such/file.pdf"} {
		_, err := Run(t.Context(), env.lib, in, env.opts)
		if !errors.Is(err, identifier.ErrUnrecognized) {
			t.Errorf("Run(%q) error = %v; want ErrUnrecognized", in, err)
		}
	}
	for _, key := range []string{"../x", "a/b", "..", ".hidden", "a b"} {
		o := env.opts
		o.CiteKey = key
		_, err := Run(t.Context(), env.lib, copyPDF(t, "gr_dehypenisation1.pdf"), o)
		if err == nil || !strings.Contains(err.Error(), "invalid cite key") {
			t.Errorf("--cite-key %q: error = %v; want an invalid cite key error", key, err)
		}
	}
	o := env.opts
	o.DOI = "not-a-doi"
	var oe *OptionError
	if _, err := Run(t.Context(), env.lib, copyPDF(t, "gr_dehypenisation1.pdf"), o); !errors.As(err, &oe) || oe.Option != "DOI" || !errors.Is(err, ErrNotDOI) {
		t.Errorf("bad --doi: error = %v", err)
	}
	if got := env.files(t); len(got) != 0 {
		t.Errorf("files written: %v", got)
	}
}

// feedFor rewrites the 1605.08386 recording to describe paper id with the
// given title and first author, keeping everything else real.
func feedFor(t *testing.T, id, title, author string) []byte {
	t.Helper()
	s := string(corpustest.File(t, "api", "arxiv/1605.08386.xml"))
	s = strings.ReplaceAll(s, "1605.08386", id)
	s = strings.Replace(s, "<title>Heat-bath random walks with Markov bases</title>", "<title>"+title+"</title>", 1)
	s = strings.Replace(s, "<name>Caprice Stanley</name>", "<name>"+author+"</name>", 1)
	return []byte(s)
}

func TestConcurrentCapturesGetDistinctKeys(t *testing.T) {
	env := newEnv(t)
	ids := []string{"1605.90001", "1605.90002", "1605.90003"}
	pdfs := []string{"gr_dehypenisation1.pdf", "pm_2304.02623v1.pdf", "dl_ocr_test.pdf"}
	for i, id := range ids {
		// Same title, first author and year: the same base key.
		env.srv.arxiv(id, response{body: feedFor(t, id, "Heat-bath random walks with Markov bases", "Caprice Stanley")})
		env.srv.pdf(id+"v1", response{body: corpustest.PDF(t, pdfs[i])})
	}
	opts := make([]Options, len(ids))
	for i := range ids {
		opts[i] = env.options(t, openEngine(t))
	}
	keys := make([]string, len(ids))
	errs := make([]error, len(ids))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, id := range ids {
		wg.Go(func() {
			<-start
			res, err := Run(t.Context(), env.lib, id, opts[i])
			errs[i] = err
			if err == nil {
				keys[i] = res.Paper.CiteKey
			}
		})
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("capture %s: %v", ids[i], err)
		}
	}
	slices.Sort(keys)
	if diff := cmp.Diff([]string{"stanley2016heatbath", "stanley2016heatbatha", "stanley2016heatbathb"}, keys); diff != "" {
		t.Errorf("keys (-want +got):\n%s", diff)
	}
	papers, errList := env.lib.Papers()
	if len(errList) != 0 {
		t.Errorf("Papers errors: %v", errList)
	}
	if len(papers) != len(ids) {
		t.Fatalf("library has %d papers; want %d", len(papers), len(ids))
	}
	byID := map[string]string{}
	for _, p := range papers {
		byID[p.Metadata.ArxivID] = p.CiteKey
		data, err := os.ReadFile(p.PDFPath)
		if err != nil || sha(data) != p.PDFSHA256 {
			t.Errorf("%s: PDF %s does not match its sidecar (%v)", p.CiteKey, p.PDFPath, err)
		}
	}
	if len(byID) != len(ids) {
		t.Errorf("papers by arXiv id: %v", byID)
	}
}

func TestCiteKeyIsSafeFileName(t *testing.T) {
	for _, tc := range []struct{ title, author string }{
		{"../../../etc/passwd", "../../Evil"},
		{"..", "Mallory ../.."},
		{"a/b\\c: d", `C:\Windows ..\System32`},
		{"%2e%2e%2f traversal", "Eve /etc"},
	} {
		t.Run(tc.title, func(t *testing.T) {
			env := newEnv(t)
			const id = "1605.90009"
			env.srv.arxiv(id, response{body: feedFor(t, id, tc.title, tc.author)})
			env.srv.pdf(id+"v1", response{body: corpustest.PDF(t, "gr_dehypenisation1.pdf")})
			res, err := Run(t.Context(), env.lib, id, env.opts)
			if err != nil {
				// Refusing is acceptable, as long as nothing is written.
				if got := env.files(t); len(got) > 1 || (len(got) == 1 && got[0] != ".lock") {
					t.Errorf("capture failed (%v) but wrote %v", err, got)
				}
				return
			}
			key := res.Paper.CiteKey
			t.Logf("cite key %q", key)
			if err := citekey.Valid(key); err != nil {
				t.Errorf("cite key %q is not a valid key: %v", key, err)
			}
			if strings.ContainsAny(key, `/\`) || strings.Contains(key, "..") {
				t.Errorf("cite key %q could leave the raw folder", key)
			}
			for _, p := range []string{res.Paper.PDFPath, res.Paper.SidecarPath} {
				if filepath.Dir(p) != env.lib.RawDir() {
					t.Errorf("%s is not directly in %s", p, env.lib.RawDir())
				}
			}
			for _, f := range env.files(t) {
				if f != ".lock" && filepath.Dir(f) != "raw" {
					t.Errorf("file written outside raw/: %s", f)
				}
			}
			if _, err := env.lib.Find(key); err != nil {
				t.Errorf("Find(%q): %v", key, err)
			}
		})
	}
}

func TestArxivDOIUsesArxiv(t *testing.T) {
	env := newEnv(t)
	env.srv.arxiv("2104.12255", response{body: corpustest.File(t, "api", "arxiv/2104.12255v1.xml")})
	env.srv.pdf("2104.12255v1", response{body: corpustest.PDF(t, "gr_dehypenisation1.pdf")})

	// Crossref does not know arXiv's DataCite DOIs; the capture must go to
	// the arXiv API instead.
	res, err := Run(t.Context(), env.lib, "https://doi.org/10.48550/arXiv.2104.12255", env.opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Input.Kind != identifier.KindArxiv || res.Paper.Metadata.ArxivID != "2104.12255" || res.Paper.Metadata.ArxivVersion != 1 {
		t.Errorf("kind %v arXiv %q v%d", res.Input.Kind, res.Paper.Metadata.ArxivID, res.Paper.Metadata.ArxivVersion)
	}
	for _, k := range env.srv.paths() {
		if strings.HasPrefix(k, "/works/") {
			t.Errorf("Crossref asked for an arXiv DOI: %s", k)
		}
	}
	if res.Paper.Sidecar.Source.Kind != "arxiv" {
		t.Errorf("source kind = %q", res.Paper.Sidecar.Source.Kind)
	}
}

func TestConcurrentCapturesOfOnePaperWriteOnce(t *testing.T) {
	env := newEnv(t)
	env.srv.arxiv("2104.12255v1", response{body: corpustest.File(t, "api", "arxiv/2104.12255v1.xml")})
	env.srv.pdf("2104.12255v1", response{body: corpustest.PDF(t, "gr_dehypenisation1.pdf")})
	const n = 3
	opts := make([]Options, n)
	for i := range opts {
		opts[i] = env.options(t, openEngine(t))
	}
	results := make([]*Result, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			results[i], errs[i] = Run(t.Context(), env.lib, "2104.12255v1", opts[i])
		})
	}
	close(start)
	wg.Wait()
	created := 0
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("capture %d: %v", i, errs[i])
		}
		if !results[i].Existing {
			created++
		}
		if results[i].Paper.CiteKey != results[0].Paper.CiteKey {
			t.Errorf("capture %d: key %q; capture 0: %q", i, results[i].Paper.CiteKey, results[0].Paper.CiteKey)
		}
	}
	if created != 1 {
		t.Errorf("%d captures wrote the paper; want exactly 1", created)
	}
	if got := env.rawFiles(t); len(got) != 2 {
		t.Errorf("raw/ = %v; want one PDF and one sidecar", got)
	}
}
