package capture

import (
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/fetch"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/metadata/metadatatest"
	"github.com/crossmem/crossmem/internal/metadata/reconcile"
	"github.com/crossmem/crossmem/internal/metadata/sources"
)

// replayOptions returns capture options whose sources are the recorded
// responses of ../shared/corpus/api, cached in cacheDir.
func replayOptions(t *testing.T, srv *metadatatest.Server, cacheDir string, refresh bool) Options {
	t.Helper()
	fo := metadatatest.FetchOptions()
	fo.CacheDir, fo.Refresh = cacheDir, refresh
	return Options{
		Engine:  openEngine(t),
		Sources: sources.New(replayConfig(srv.BaseURL, fetch.New(fo))),
		HTTP:    fetch.New(fo),
		Now:     func() time.Time { return time.Unix(1776227254, 0) },
	}
}

func replayConfig(base func(string) string, hc *fetch.Client) sources.Config {
	return sources.Config{
		HTTP:     hc,
		ArxivAPI: base(metadata.SourceArxiv), CrossrefAPI: base(metadata.SourceCrossref),
		OpenAlexAPI: base(metadata.SourceOpenAlex), DataCiteAPI: base(metadata.SourceDataCite),
		UnpaywallAPI: base(metadata.SourceUnpaywall), UnpaywallEmail: "test@example.org",
	}
}

func localPDF(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "paper.pdf")
	if err := os.WriteFile(path, corpustest.PDF(t, "pm_2304.02623v1.pdf"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const branDOI = "10.1038/s42256-024-00832-8"

func TestRefresh(t *testing.T) {
	srv := metadatatest.NewServer(t)
	lib, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	o := replayOptions(t, srv, filepath.Join(t.TempDir(), "cache"), false)
	o.DOI = branDOI
	res, err := Run(t.Context(), lib, localPDF(t), o)
	if err != nil {
		t.Fatal(err)
	}
	key := res.Paper.CiteKey
	if key != "bran2024augmenting" || res.Paper.Metadata.Authors[0].Family != "Bran" || !res.Paper.Metadata.Reconciled {
		t.Fatalf("capture: key %q, record %+v", key, res.Paper.Metadata)
	}

	// Nothing changed at the sources: nothing to report.
	ro := replayOptions(t, srv, "", true)
	rr, err := Refresh(t.Context(), lib, key, ro)
	if err != nil {
		t.Fatal(err)
	}
	if len(rr.Changes) != 0 || rr.Paper.CiteKey != key || rr.Paper.RefreshedAt == "" {
		t.Errorf("refresh without changes: %v, key %q, refreshed_at %q", rr.Changes, rr.Paper.CiteKey, rr.Paper.RefreshedAt)
	}

	// A record that went stale (say a wrong year and title) is corrected,
	// and the cite key stays.
	p, _ := lib.Find(key)
	p.Metadata.Issued.Year = 2023
	p.Metadata.Title = "ChemCrow"
	if err := lib.WriteSidecar(p); err != nil {
		t.Fatal(err)
	}
	pdfBefore, _ := os.Stat(p.PDFPath)
	rr, err = Refresh(t.Context(), lib, key, ro)
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(rr.Changes, "\n")
	if !strings.Contains(joined, `year: "2023" → "2024"`) || !strings.Contains(joined, `title: "ChemCrow" → "Augmenting large language models with chemistry tools"`) {
		t.Errorf("changes = %q", rr.Changes)
	}
	p, _ = lib.Find(key)
	if p.CiteKey != key || p.Metadata.Issued.Year != 2024 || p.Year != 2024 {
		t.Errorf("after refresh: key %q, year %d/%d", p.CiteKey, p.Metadata.Issued.Year, p.Year)
	}
	if pdfAfter, _ := os.Stat(p.PDFPath); !pdfAfter.ModTime().Equal(pdfBefore.ModTime()) {
		t.Error("refresh rewrote the PDF")
	}

	// Sources failing: an error naming them, and the record untouched.
	srv.Fail(metadata.SourceCrossref, metadatatest.ServerError)
	srv.Fail(metadata.SourceOpenAlex, metadatatest.ServerError)
	before, _ := os.ReadFile(p.SidecarPath)
	_, err = Refresh(t.Context(), lib, key, ro)
	if !errors.Is(err, reconcile.ErrSourcesFailed) || !strings.Contains(err.Error(), "crossref") || !strings.Contains(err.Error(), "unchanged") {
		t.Errorf("refresh with failing sources: %v", err)
	}
	if a, _ := hint.Of(err); a.Kind != hint.CheckNetwork {
		t.Errorf("refresh with failing sources does not say what to do next: %v (hint %+v)", err, a)
	}
	after, _ := os.ReadFile(p.SidecarPath)
	if string(before) != string(after) {
		t.Error("a failed refresh changed the sidecar")
	}
}

// TestOffline checks the promises about the network: with the network
// unreachable and an empty cache a capture with --doi finishes quickly and
// stores the PDF with what it says, the DOI given marked unconfirmed, the
// lookup pending and the failed sources named in one warning; with a warm
// cache the same capture works offline.
func TestOffline(t *testing.T) {
	live := metadatatest.NewServer(t)
	cache := filepath.Join(t.TempDir(), "cache")
	dead := httptest.NewServer(nil)
	deadURL := dead.URL
	dead.Close() // connection refused from now on: "unreachable"

	newOpts := func(base func(string) string) Options {
		fo := fetch.Options{UserAgent: "crossmem-test", CacheDir: cache} // production retry settings
		hc := fetch.New(fo)
		return Options{Engine: openEngine(t), Sources: sources.New(replayConfig(base, hc)), HTTP: hc, DOI: branDOI,
			Now: func() time.Time { return time.Unix(1776227254, 0) }}
	}
	deadBase := func(source string) string { return deadURL + "/" + source }

	lib, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	offline, path := newOpts(deadBase), localPDF(t)
	start := time.Now()
	res, err := Run(t.Context(), lib, path, offline)
	elapsed := time.Since(start)
	if err != nil {
		t.Fatalf("offline capture with an empty cache: %v", err)
	}
	if elapsed > 10*time.Second {
		t.Errorf("capturing offline took %v, want under 10 s", elapsed)
	}
	p := res.Paper
	if !res.Pending || !res.Unreachable || !p.LookupPending {
		t.Errorf("pending %v, unreachable %v, sidecar lookup_pending %v; want all true", res.Pending, res.Unreachable, p.LookupPending)
	}
	if p.Metadata.DOI != branDOI || !slices.Equal(p.Metadata.FieldSources[metadata.FieldDOI], []string{metadata.SourceUser}) {
		t.Errorf("DOI %q from %v; want the --doi value from %q", p.Metadata.DOI, p.Metadata.FieldSources[metadata.FieldDOI], metadata.SourceUser)
	}
	if p.CiteKey != "shen2023summarization" || p.Metadata.Title != "Beyond Summarization: Designing AI Support for Real-World Expository Writing Tasks" {
		t.Errorf("offline record %q %q; want what the PDF says", p.CiteKey, p.Metadata.Title)
	}
	var pending []string
	for _, w := range p.Metadata.Warnings {
		if strings.HasPrefix(w, "metadata lookup pending") {
			pending = append(pending, w)
		}
	}
	if len(pending) != 1 || !strings.Contains(pending[0], "crossref") || !strings.Contains(pending[0], "openalex") || !strings.Contains(pending[0], "unconfirmed") {
		t.Errorf("pending warnings %q: want one naming crossref, openalex and the unconfirmed DOI", pending)
	}

	// Warm the cache with the recordings (in another library: this one
	// has the PDF already), then go offline again.
	warm, _ := library.Open(t.TempDir())
	if _, err := Run(t.Context(), warm, localPDF(t), newOpts(live.BaseURL)); err != nil {
		t.Fatal(err)
	}
	lib2, _ := library.Open(t.TempDir())
	// The cache is keyed by URL: keep the URLs, refuse connections.
	live.Close()
	cached, path := newOpts(live.BaseURL), localPDF(t)
	start = time.Now()
	res, err = Run(t.Context(), lib2, path, cached)
	t.Logf("offline, empty cache: stored in %v; offline, warm cache: captured in %v", elapsed, time.Since(start))
	if err != nil {
		t.Fatalf("capture from a warm cache: %v", err)
	}
	if res.Pending || res.Paper.CiteKey != "bran2024augmenting" || res.Paper.Metadata.Issued.Year != 2024 {
		t.Errorf("capture from cache: pending %v %q %+v", res.Pending, res.Paper.CiteKey, res.Paper.Metadata)
	}
	// The PDF is not Bran's paper: the sources' record stands, and the
	// PDF's disagreement is a warning, never a silent pick.
	if !slices.ContainsFunc(res.Paper.Metadata.Warnings, func(w string) bool { return strings.HasPrefix(w, "the PDF's title (") }) {
		t.Errorf("no warning that the PDF's title differs: %q", res.Paper.Metadata.Warnings)
	}
}

// TestSourceFaults captures by DOI while the sources misbehave in each way
// a network service can: every capture stores the PDF with its lookup
// pending, and the warning names the failed sources as failed (never "not
// found").
func TestSourceFaults(t *testing.T) {
	for _, f := range []metadatatest.Fault{metadatatest.ServerError, metadatatest.RateLimited, metadatatest.Hang, metadatatest.Truncated, metadatatest.Malformed} {
		t.Run(f.String(), func(t *testing.T) {
			srv := metadatatest.NewServer(t)
			srv.Fail(metadata.SourceCrossref, f)
			srv.Fail(metadata.SourceOpenAlex, f)
			lib, err := library.Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			fo := metadatatest.FetchOptions()
			fo.Timeout = 300 * time.Millisecond // for Hang
			hc := fetch.New(fo)
			o := Options{Engine: openEngine(t), Sources: sources.New(replayConfig(srv.BaseURL, hc)), HTTP: hc, DOI: branDOI}
			res, err := Run(t.Context(), lib, localPDF(t), o)
			if err != nil {
				t.Fatalf("err = %v, want the PDF stored with its lookup pending", err)
			}
			if !res.Pending || res.Unreachable != (f == metadatatest.Hang) {
				t.Errorf("pending %v unreachable %v", res.Pending, res.Unreachable)
			}
			w := strings.Join(res.Paper.Metadata.Warnings, "\n")
			if !strings.Contains(w, "crossref") || !strings.Contains(w, "failed") || strings.Contains(w, "not found") {
				t.Errorf("warnings do not say crossref failed: %s", w)
			}
		})
	}
}

// TestDOICaptureUsesUnpaywall checks that a DOI capture asks Unpaywall
// for an open-access PDF (with its email) and tries the PDF it names.
func TestDOICaptureUsesUnpaywall(t *testing.T) {
	srv := metadatatest.NewServer(t)
	lib, _ := library.Open(t.TempDir())
	o := replayOptions(t, srv, "", false)
	_, err := Run(t.Context(), lib, "10.1073/pnas.1414271111", o)
	// The recorded PDF link points to pnas.org, which the test cannot
	// reach: the capture must say it tried that link and explain the
	// local-PDF route.
	if a, _ := hint.Of(err); !errors.Is(err, library.ErrNoPDF) || !strings.Contains(err.Error(), "pnas.org/content/pnas/111/45/E4832.full.pdf") ||
		a.Kind != hint.DownloadPDF || a.DOI != "10.1073/pnas.1414271111" {
		t.Errorf("err = %v, hint %+v", err, a)
	}
	asked := false
	for _, r := range srv.Requests() {
		if strings.Contains(r, "/unpaywall/v2/10.1073/pnas.1414271111") {
			asked = true
		}
	}
	if !asked {
		t.Errorf("Unpaywall was not asked: %v", srv.Requests())
	}
}

// TestOfflineOwnMetadata checks a local PDF captured with no network and
// no flags: the record is what the PDF says (its arXiv stamp, printed
// title and authors, each field naming its PDF source), one warning says
// the lookup is pending and why, and the failed questions are in the
// sidecar's consulted list.
func TestOfflineOwnMetadata(t *testing.T) {
	dead := httptest.NewServer(nil)
	deadURL := dead.URL
	dead.Close()
	hc := fetch.New(fetch.Options{UserAgent: "crossmem-test", CacheDir: filepath.Join(t.TempDir(), "cache")})
	opts := Options{Engine: openEngine(t), HTTP: hc,
		Sources: sources.New(replayConfig(func(source string) string { return deadURL + "/" + source }, hc)),
		Now:     func() time.Time { return time.Unix(1776227254, 0) }}
	lib, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(t.Context(), lib, localPDF(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	p := res.Paper
	if !res.Pending || !p.LookupPending {
		t.Error("the lookup is not pending")
	}
	m := p.Metadata
	if m.ArxivID != "2304.02623" || m.ArxivVersion != 1 || m.Issued.Year != 2023 || len(m.Authors) != 9 || m.Authors[0].Family != "Shen" {
		t.Errorf("record %+v: want the arXiv stamp's id, version and year and the nine printed authors", m)
	}
	for field, want := range map[string]string{metadata.FieldArxivID: metadata.SourcePDFText, metadata.FieldTitle: metadata.SourcePDFText, metadata.FieldAuthors: metadata.SourcePDFText} {
		if !slices.Contains(m.FieldSources[field], want) {
			t.Errorf("%s sources %v lack %s", field, m.FieldSources[field], want)
		}
	}
	if p.PDFMetadata == nil || p.PDFMetadata.Title != m.Title {
		t.Errorf("sidecar pdf_metadata %+v", p.PDFMetadata)
	}
	n := 0
	for _, w := range m.Warnings {
		if strings.HasPrefix(w, "metadata lookup pending: ") && strings.Contains(w, "arxiv") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("warnings %q: want one pending warning naming arxiv", m.Warnings)
	}
	failed := 0
	for _, c := range p.Consulted {
		if c.Outcome == metadata.OutcomeFailed && c.Detail != "" {
			failed++
		}
	}
	if failed < 2 {
		t.Errorf("consulted %+v: want the failed questions with their errors", p.Consulted)
	}
}
