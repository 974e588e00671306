// End-to-end test of the bridge and the extension in a real browser:
// `crossmem serve` (the built binary), Debian's chromium with the unpacked
// extension (extension/), driven by playwright-core (test/viewer-e2e/bridge.mjs).
package bridge_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crossmem/crossmem/internal/bridge"
	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/pdf/pdftest"
)

// required skips t, or fails it where the tools must be there (CI sets
// CROSSMEM_REQUIRE_SHARED=1 and installs them).
func required(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CROSSMEM_REQUIRE_SHARED") == "1" {
		t.Fatalf(format, args...)
	}
	t.Skipf(format, args...)
}

// lockedBuffer collects a process's output while it runs.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

var (
	bannerURL  = regexp.MustCompile(`^\[serve\] HTTP → (http://127\.0\.0\.1:\d+)/ \(library viewer\)$`)
	bannerCode = regexp.MustCompile(`^\[serve\] pairing code: ([2-9A-Z]{4}-[2-9A-Z]{4}) `)
)

// served is a running `crossmem serve` with its base URL, pairing code and
// token.
type served struct {
	base, code, token string
	env               []string
	stderr            *lockedBuffer
}

// startCrossmem builds cmd/crossmem and runs `crossmem serve --port 0` on
// an empty library at home (metadata sources unreachable: captures are
// stored with what the PDF says, lookup pending).
func startCrossmem(t *testing.T, home string) (*served, string) {
	t.Helper()
	bin := corpustest.Binary(t)
	const offline = "http://127.0.0.1:1"
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CROSSMEM_") && !strings.HasPrefix(kv, "BRIDGE_PORT=") && !strings.HasPrefix(kv, "OLLAMA_") {
			env = append(env, kv)
		}
	}
	env = append(env, "CROSSMEM_HOME="+home, "CROSSMEM_CONFIG="+filepath.Join(home, "config", "config.toml"),
		"CROSSMEM_ARXIV_API="+offline+"/api/query", "CROSSMEM_ARXIV_PDF="+offline+"/pdf", "CROSSMEM_CROSSREF_API="+offline,
		"CROSSMEM_OPENALEX_API="+offline, "CROSSMEM_DATACITE_API="+offline, "CROSSMEM_UNPAYWALL_API="+offline, "OLLAMA_HOST="+offline)
	s := &served{env: env, stderr: &lockedBuffer{}}
	cmd := exec.Command(bin, "serve", "--port", "0")
	cmd.Env = env
	cmd.Stderr = s.stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
		}
	})
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := bannerURL.FindStringSubmatch(sc.Text()); m != nil {
				s.base = m[1]
			}
			if m := bannerCode.FindStringSubmatch(sc.Text()); m != nil {
				s.code = m[1]
				close(ready)
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(60 * time.Second):
		t.Fatalf("no banner with a pairing code from crossmem serve within 60 s; stderr:\n%s", s.stderr.String())
	}
	tok, err := os.ReadFile(filepath.Join(home, "config", bridge.TokenFile))
	if err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(filepath.Join(home, "config", bridge.TokenFile)); fi.Mode().Perm() != 0o600 {
		t.Errorf("token file mode %v, want 0600", fi.Mode().Perm())
	}
	s.token = strings.TrimSpace(string(tok))
	return s, bin
}

// browserTools returns chromium's path and the folder of the browser
// tests' npm packages, or skips.
func browserTools(t *testing.T) (chromium, dir string) {
	t.Helper()
	if testing.Short() {
		t.Skip("the browser test is slow (-short)")
	}
	root := corpustest.Root(t)
	dir = filepath.Join(root, "test", "viewer-e2e")
	if _, err := exec.LookPath("node"); err != nil {
		required(t, "node is not installed: the browser test needs it")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "playwright-core")); err != nil {
		required(t, "playwright-core is not installed: run npm ci in test/viewer-e2e (scripts/test.sh does)")
	}
	chromium = os.Getenv("CROSSMEM_CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	if _, err := os.Stat(chromium); err != nil {
		required(t, "no chromium at %s (apt-get install chromium)", chromium)
	}
	return chromium, dir
}

// site serves the test's pages and PDFs on a loopback origin.
func site(t *testing.T, paper, second []byte) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/page.html", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Bridge test page</title>
<p id="quote">Every quote can be traced to its place in the source.</p>
<input id="q"><button id="go">Go</button><p id="echo"></p>
<script>document.getElementById("go").addEventListener("click", () => { document.getElementById("echo").textContent = document.getElementById("q").value; });</script>`)
	})
	mux.HandleFunc("/papers/testing-bridges.pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		w.Write(paper)
	})
	mux.HandleFunc("/papers/second.pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		w.Write(second)
	})
	mux.HandleFunc("/article/landing", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Landing page</title>
<meta name="citation_title" content="Testing Bridges Between Browsers and Libraries">
<meta name="citation_pdf_url" content="/papers/testing-bridges.pdf">
<h1>Testing Bridges Between Browsers and Libraries</h1>`)
	})
	s := httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

// attackerSite serves a page that tries to drive the bridge at base from
// its own origin.
func attackerSite(t *testing.T, base string) *httptest.Server {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!doctype html><title>attacker</title><script>
const base = %q;
window.results = {};
const cmd = JSON.stringify({action: "navigate", params: {url: "http://127.0.0.1:9/attacker-was-here"}});
async function attempt(name, f) {
  try { results[name] = await f(); } catch (e) { results[name] = "blocked: " + e.message; }
}
(async () => {
  await attempt("cors", async () => { const r = await fetch(base + "/command", {method: "POST", headers: {"Content-Type": "application/json"}, body: cmd}); return "read: " + r.status + " " + await r.text(); });
  await attempt("noCors", async () => { const r = await fetch(base + "/command", {method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"}, body: cmd}); return "opaque " + r.type; });
  await attempt("status", async () => { const r = await fetch(base + "/status"); return "read: " + await r.text(); });
  await attempt("capture", async () => { const r = await fetch(base + "/capture", {method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"}, body: '{"identifier":"1706.03762"}'}); return "opaque " + r.type; });
  await attempt("pair", async () => { const r = await fetch(base + "/pair", {method: "POST", body: '{"code":"AAAA-AAAA"}'}); return "read: " + await r.text(); });
  results.websocket = await new Promise((res) => {
    try {
      const ws = new WebSocket(base.replace("http", "ws") + "/ws", ["crossmem.v1"]);
      ws.onopen = () => res("open"); ws.onerror = () => res("error"); setTimeout(() => res("timeout"), 5000);
    } catch (e) { res("blocked: " + e.message); }
  });
  window.done = true;
})();
</script>`, base)
	}))
	t.Cleanup(s.Close)
	return s
}

// TestBrowser: the extension loads in chromium, pairs, answers ping, runs
// extract (and type, click, summarize, screenshot) on a loopback page,
// keeps agents apart, saves a PDF tab and a landing page to the library,
// fetches a PDF for capture --via-browser; a page on another origin gets
// nothing done.
func TestBrowser(t *testing.T) {
	chromium, dir := browserTools(t)
	home := t.TempDir()
	srv, bin := startCrossmem(t, home)
	paper := pdftest.FrontPage{Title: []string{"Testing Bridges Between", "Browsers and Libraries"}, Authors: []string{"Ada Lovelace and Charles Babbage"},
		Small: []string{"Analytical Engine Society, London"}, Body: pdftest.Prose(12)}.PDF()
	second := pdftest.FrontPage{Title: []string{"A Second Paper Behind", "an Institutional Login"}, Authors: []string{"Grace Hopper"},
		Small: []string{"Harvard Computation Laboratory"}, Body: pdftest.Prose(10)}.PDF()
	st := site(t, paper, second)
	att := attackerSite(t, srv.base)
	root := corpustest.Root(t)
	cfg := map[string]any{
		"mode": "e2e", "base": srv.base, "token": srv.token, "code": srv.code, "chromium": chromium,
		"extension": filepath.Join(root, "extension"), "profile": t.TempDir(),
		"page":    map[string]string{"url": st.URL + "/page.html", "selector": "#quote", "text": "Every quote can be traced to its place in the source.", "title": "Bridge test page"},
		"pdf":     st.URL + "/papers/testing-bridges.pdf",
		"landing": st.URL + "/article/landing",
		"viaBrowser": map[string]any{"url": st.URL + "/papers/second.pdf", "binary": bin,
			"env": envMap(append(srv.env, "BRIDGE_PORT="+srv.base[strings.LastIndex(srv.base, ":")+1:]))},
		"attacker": att.URL + "/",
	}
	raw, _ := json.Marshal(cfg)
	cmd := exec.Command("node", "bridge.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "BRIDGE_E2E="+string(raw))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var res struct {
		Checks   int      `json:"checks"`
		Failures []string `json:"failures"`
		Report   struct {
			Saved struct {
				CiteKey string `json:"cite_key"`
				PDF     string `json:"pdf"`
				Sidecar string `json:"sidecar"`
			} `json:"saved"`
			ViaBrowser struct {
				CiteKey string `json:"cite_key"`
			} `json:"viaBrowser"`
			Attacker map[string]string `json:"attacker"`
		} `json:"report"`
	}
	if jerr := json.Unmarshal(lastLine(stdout.Bytes()), &res); jerr != nil {
		t.Fatalf("bridge.mjs: %v, %v\nstdout:\n%s\nstderr:\n%s\nserve:\n%s", err, jerr, stdout.String(), stderr.String(), srv.stderr.String())
	}
	for _, f := range res.Failures {
		t.Error(f)
	}
	if err != nil || len(res.Failures) > 0 {
		t.Logf("stderr:\n%s\nserve:\n%s", stderr.String(), srv.stderr.String())
	}
	t.Logf("%d checks; attacker: %v", res.Checks, res.Report.Attacker)
	// The saved paper is in the library: its PDF (the served bytes) and
	// its sidecar, which names the browser's address as its source.
	if k := res.Report.Saved.CiteKey; k != "" {
		pdfs, _ := filepath.Glob(filepath.Join(home, "raw", "*_"+k+".pdf"))
		if len(pdfs) != 1 {
			t.Fatalf("the library has %v for %s", pdfs, k)
		}
		if b, _ := os.ReadFile(pdfs[0]); !bytes.Equal(b, paper) {
			t.Errorf("%s is not the served PDF", pdfs[0])
		}
		side, err := os.ReadFile(strings.TrimSuffix(pdfs[0], ".pdf") + ".meta.json")
		if err != nil {
			t.Fatal(err)
		}
		var sc struct {
			CiteKey string `json:"cite_key"`
			Source  struct {
				Kind, Input, URL string
			} `json:"source"`
		}
		json.Unmarshal(side, &sc)
		if sc.CiteKey != k || sc.Source.Kind != "browser" || sc.Source.URL != st.URL+"/papers/testing-bridges.pdf" {
			t.Errorf("sidecar: %s", side)
		}
		// The CLI's capture of the same bytes finds the same paper.
		f := filepath.Join(t.TempDir(), "same.pdf")
		os.WriteFile(f, paper, 0o644)
		c := exec.Command(bin, "capture", f, "-q")
		c.Env = srv.env
		if out, err := c.Output(); err != nil || strings.TrimSpace(string(out)) != k {
			t.Errorf("crossmem capture of the same PDF: %q, %v; want %s", out, err, k)
		}
	}
	if k := res.Report.ViaBrowser.CiteKey; k != "" {
		pdfs, _ := filepath.Glob(filepath.Join(home, "raw", "*_"+k+".pdf"))
		if len(pdfs) != 1 {
			t.Fatalf("capture --via-browser: the library has %v for %s", pdfs, k)
		}
		if b, _ := os.ReadFile(pdfs[0]); !bytes.Equal(b, second) {
			t.Errorf("capture --via-browser: %s is not the served PDF", pdfs[0])
		}
		side, _ := os.ReadFile(strings.TrimSuffix(pdfs[0], ".pdf") + ".meta.json")
		if !bytes.Contains(side, []byte(`"kind": "browser"`)) || !bytes.Contains(side, []byte(st.URL+"/papers/second.pdf")) {
			t.Errorf("capture --via-browser: sidecar %s", side)
		}
	}
	if log := srv.stderr.String(); !strings.Contains(log, "request refused") || !strings.Contains(log, "origin") {
		t.Errorf("the attacker's refusals are not logged:\n%s", log)
	}
}

func envMap(env []string) map[string]string {
	m := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	return m
}

func lastLine(b []byte) []byte {
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	return lines[len(lines)-1]
}
