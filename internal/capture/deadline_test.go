package capture

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crossmem/crossmem/internal/fetch"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/metadata/sources"
	"github.com/crossmem/crossmem/internal/pdf/pdftest"
)

// TestLookupsShareOneDeadline: the metadata questions of one capture share
// one deadline (Options.MetadataTimeout from the first question), not one
// each. Every source is an httptest server: a lookup by DOI is answered
// "not found" slowly (the DOI question takes about half the deadline),
// which sends the capture on to a
// title search, where every source stalls (the server holds the request
// until the client gives up). The lookups end at the one deadline (a
// deadline per question would have them run on for another whole one),
// the stalled questions are reported as failed, never as not found, and
// the paper is stored with its lookup pending.
func TestLookupsShareOneDeadline(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out a 4 s deadline")
	}
	const (
		deadline = 4 * time.Second
		slow404  = 800 * time.Millisecond // each DOI lookup's answer (DataCite is asked after Crossref and OpenAlex)
	)
	stalled := make(chan struct{})
	var stallOnce sync.Once
	t.Cleanup(func() { stallOnce.Do(func() { close(stalled) }) })
	handler := func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/works" || r.URL.Path == "/dois" { // a title search (Crossref ?query…, OpenAlex ?search…)
			select {
			case <-r.Context().Done():
			case <-stalled:
			}
			return
		}
		select {
		case <-time.After(slow404):
		case <-r.Context().Done():
			return
		}
		http.NotFound(w, r)
	}
	server := func() string {
		s := httptest.NewServer(http.HandlerFunc(handler))
		t.Cleanup(func() {
			stallOnce.Do(func() { close(stalled) })
			s.Close()
		})
		return s.URL
	}
	hc := fetch.New(fetch.Options{UserAgent: "crossmem-test"}) // production timeouts (30 s per attempt) and retries
	cfg := sources.Config{HTTP: hc, ArxivAPI: server() + "/api/query", CrossrefAPI: server(), OpenAlexAPI: server(),
		DataCiteAPI: server(), UnpaywallAPI: server(), UnpaywallEmail: "test@example.org"}

	var mu sync.Mutex
	var first, last time.Time
	var done []Lookup
	o := Options{Engine: openEngine(t), HTTP: hc, Sources: sources.New(cfg), MetadataTimeout: deadline,
		OnLookup: func(l Lookup) {
			mu.Lock()
			defer mu.Unlock()
			now := time.Now()
			if first.IsZero() {
				first = now
			}
			if l.Done {
				last = now
				done = append(done, l)
			}
		}}
	path := filepath.Join(t.TempDir(), "stalled.pdf")
	page := pdftest.FrontPage{
		Title:   []string{"Sorghum Yields Under Intermittent Irrigation"},
		Authors: []string{"Amara Okafor, Lucas Brandt"},
		Small:   []string{"Department of Agronomy, University of Testing", "doi: 10.5555/stalled.2024.17"},
		Body:    pdftest.Prose(12),
	}
	if err := os.WriteFile(path, page.PDF(), 0o644); err != nil {
		t.Fatal(err)
	}
	lib, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(t.Context(), lib, path, o)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	span := last.Sub(first)
	mu.Unlock()
	t.Logf("lookups took %v (deadline %v)", span, deadline)
	// A deadline per question: about 2 s for the DOI, then 4 s more for
	// the title. One shared: 4 s in all (the margin is for a loaded
	// machine).
	if span > deadline+time.Second {
		t.Errorf("the lookups took %v; the capture's one deadline is %v", span, deadline)
	}
	var doiAsked, titleAsked int
	for _, l := range done {
		switch {
		case strings.HasPrefix(l.Query, "title:"):
			titleAsked++
			if l.Outcome != metadata.OutcomeFailed {
				t.Errorf("%s %s stalled past the deadline: outcome %q, want %q", l.Source, l.Query, l.Outcome, metadata.OutcomeFailed)
			}
		case strings.HasPrefix(l.Query, "doi:"):
			doiAsked++
			if l.Outcome != metadata.OutcomeNotFound {
				t.Errorf("%s %s answered 404: outcome %q, want %q", l.Source, l.Query, l.Outcome, metadata.OutcomeNotFound)
			}
		}
	}
	if doiAsked == 0 || titleAsked == 0 {
		t.Fatalf("asked %d DOI and %d title questions, want both (%+v)", doiAsked, titleAsked, done)
	}
	for _, x := range res.Consulted {
		if strings.HasPrefix(x.Query, "title:") && x.Outcome != metadata.OutcomeFailed {
			t.Errorf("consulted %s %s: %q, want %q", x.Source, x.Query, x.Outcome, metadata.OutcomeFailed)
		}
	}
	p := res.Paper
	if !res.Pending || !p.LookupPending {
		t.Errorf("pending %v, sidecar lookup_pending %v: want the lookup pending", res.Pending, p.LookupPending)
	}
	if _, err := os.Stat(p.PDFPath); err != nil {
		t.Errorf("PDF not stored: %v", err)
	}
}
