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
	if err != nil && !strings.Contains(err.Error(), "check the network connection and run the refresh again") {
		t.Errorf("refresh with failing sources does not say what to do next: %v", err)
	}
	after, _ := os.ReadFile(p.SidecarPath)
	if string(before) != string(after) {
		t.Error("a failed refresh changed the sidecar")
	}
}

// TestOffline checks the two promises about the network: with the network
// unreachable and an empty cache a capture fails quickly, naming the
// sources it could not reach; with a warm cache the same capture works
// offline.
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
	_, err = Run(t.Context(), lib, path, offline)
	elapsed := time.Since(start)
	if !errors.Is(err, reconcile.ErrSourcesFailed) {
		t.Fatalf("offline capture with an empty cache: %v", err)
	}
	if elapsed > 10*time.Second {
		t.Errorf("failing took %v, want under 10 s", elapsed)
	}
	for _, s := range []string{"crossref", "openalex"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error does not name %s: %v", s, err)
		}
	}
	if entries, _ := os.ReadDir(lib.RawDir()); len(entries) != 0 {
		t.Errorf("a failed capture wrote %d files", len(entries))
	}

	// Warm the cache with the recordings, then go offline again.
	if _, err := Run(t.Context(), lib, localPDF(t), newOpts(live.BaseURL)); err != nil {
		t.Fatal(err)
	}
	lib2, _ := library.Open(t.TempDir())
	// The cache is keyed by URL: keep the URLs, refuse connections.
	live.Close()
	cached, path := newOpts(live.BaseURL), localPDF(t)
	start = time.Now()
	res, err := Run(t.Context(), lib2, path, cached)
	t.Logf("offline, empty cache: failed in %v; offline, warm cache: captured in %v", elapsed, time.Since(start))
	if err != nil {
		t.Fatalf("capture from a warm cache: %v", err)
	}
	if res.Paper.CiteKey != "bran2024augmenting" || res.Paper.Metadata.Issued.Year != 2024 {
		t.Errorf("capture from cache: %q %+v", res.Paper.CiteKey, res.Paper.Metadata)
	}
}

// TestSourceFaults captures by DOI while the sources misbehave in each way
// a network service can: every capture fails with a message naming the
// failed source as failed (never "not found") and writes nothing.
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
			_, err = Run(t.Context(), lib, localPDF(t), o)
			if !errors.Is(err, reconcile.ErrSourcesFailed) || errors.Is(err, reconcile.ErrNotFound) {
				t.Fatalf("err = %v, want ErrSourcesFailed", err)
			}
			msg := err.Error()
			if !strings.Contains(msg, "crossref") || !strings.Contains(msg, "failed") {
				t.Errorf("message does not say crossref failed: %s", msg)
			}
			if entries, _ := os.ReadDir(lib.RawDir()); len(entries) != 0 {
				t.Errorf("%d files written", len(entries))
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

// TestOfflineOwnMetadata checks a local PDF captured with no network: the
// PDF's own metadata is used, and the warning names the failed sources in
// a line (the details go to the sidecar's consulted list).
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
	want := "metadata sources could not be reached (crossref, openalex failed; details in the sidecar's consulted list); using the PDF's own metadata only until it is refreshed online"
	if !slices.Contains(p.Metadata.Warnings, want) {
		t.Errorf("warnings %q, want %q", p.Metadata.Warnings, want)
	}
	if !res.Offline {
		t.Error("Result.Offline is false")
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
