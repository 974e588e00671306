// End-to-end tests of the built binary: `crossmem serve` in a real browser
// (Debian's chromium driven by playwright-core, test/viewer-e2e), its exit
// codes, its Host check, `crossmem open` and `--register`.
package viewer_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/pdf/pdftest"
)

// buildBinary builds cmd/crossmem once for the package's tests.
func buildBinary(t *testing.T) string { return corpustest.Binary(t) }

// required skips t, or fails it where the tools must be there (CI sets
// CROSSMEM_REQUIRE_SHARED=1 and installs them).
func required(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CROSSMEM_REQUIRE_SHARED") == "1" {
		t.Fatalf(format, args...)
	}
	t.Skipf(format, args...)
}

// procEnv is this process's environment without crossmem's variables,
// plus the library's and extra ("K=V").
func procEnv(home string, extra ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CROSSMEM_") && !strings.HasPrefix(kv, "OLLAMA_") && !strings.HasPrefix(kv, "BRIDGE_PORT=") {
			out = append(out, kv)
		}
	}
	for k, v := range env(home) {
		out = append(out, k+"="+v)
	}
	return append(out, extra...)
}

// server is a running `crossmem serve`.
type server struct {
	cmd    *exec.Cmd
	base   string
	stderr *bytes.Buffer
	mu     *sync.Mutex
}

func (s *server) log() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stderr.String()
}

var bannerURL = regexp.MustCompile(`^\[serve\] HTTP → (http://127\.0\.0\.1:\d+)/ \(library viewer\)$`)

// startServe runs the binary with args (serve --port 0, or nothing with
// BRIDGE_PORT in extra) and waits for its banner.
func startServe(t *testing.T, bin, home string, args []string, extra ...string) *server {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = procEnv(home, extra...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd, stderr: &bytes.Buffer{}, mu: &sync.Mutex{}}
	cmd.Stderr = &lockedWriter{w: s.stderr, mu: s.mu}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	found := make(chan string, 1)
	var banner []string
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			banner = append(banner, sc.Text())
			if m := bannerURL.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
		close(found)
	}()
	select {
	case u, ok := <-found:
		if !ok {
			t.Fatalf("crossmem %s ended without its banner:\n%s\nstderr:\n%s", strings.Join(args, " "), strings.Join(banner, "\n"), s.log())
		}
		s.base = u
	case <-time.After(30 * time.Second):
		t.Fatalf("no banner from crossmem %s within 30 s; stderr:\n%s", strings.Join(args, " "), s.log())
	}
	return s
}

// stop sends sig and returns the exit code.
func (s *server) stop(t *testing.T, sig os.Signal) int {
	t.Helper()
	s.cmd.Process.Signal(sig)
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		s.cmd.Process.Kill()
		t.Fatalf("crossmem serve did not stop on %v", sig)
	}
	return s.cmd.ProcessState.ExitCode()
}

// freePort returns a loopback port nothing listens on.
func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// geometry is a page's CropBox size and /Rotate as poppler's pdfinfo reads
// them: the browser test's independent reference.
type geometry struct {
	Width    float64 `json:"width"`
	Height   float64 `json:"height"`
	Rotation int     `json:"rotation"`
}

func pdfinfo(t *testing.T, path string, page int) geometry {
	t.Helper()
	out, err := exec.Command("pdfinfo", "-box", "-f", strconv.Itoa(page), "-l", strconv.Itoa(page), path).Output()
	if err != nil {
		t.Fatalf("pdfinfo %s: %v", path, err)
	}
	var g geometry
	p := fmt.Sprintf("Page %4d ", page)
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(strings.TrimPrefix(l, p))
		switch {
		case strings.HasPrefix(l, p+"CropBox:") && len(f) == 5:
			x0, _ := strconv.ParseFloat(f[1], 64)
			y0, _ := strconv.ParseFloat(f[2], 64)
			x1, _ := strconv.ParseFloat(f[3], 64)
			y1, _ := strconv.ParseFloat(f[4], 64)
			g.Width, g.Height = x1-x0, y1-y0
		case strings.HasPrefix(l, p+"rot:") && len(f) == 2:
			g.Rotation, _ = strconv.Atoi(f[1])
		}
	}
	if g.Width == 0 {
		t.Fatalf("pdfinfo %s page %d: no CropBox in\n%s", path, page, out)
	}
	return g
}

type e2eChunk struct {
	Name     string     `json:"name"`
	Key      string     `json:"key"`
	Chunk    string     `json:"chunk"`
	Page     int        `json:"page"`
	BBox     [4]float64 `json:"bbox"`
	Geometry geometry   `json:"geometry"`
}

const changKey, changPDF = "chang2023citesee", "pm_2302.07302v1.pdf" // two columns, figures

var browserLib struct {
	once sync.Once
	home string
	err  error
}

// browserHome returns a library with chang2023citesee (two columns, figure
// captions) and "rotated", a generated one-page PDF whose page has a
// CropBox away from the origin and /Rotate 90, both compiled.
func browserHome(t *testing.T, bin string) string {
	t.Helper()
	chang := corpustest.Dir(t, "pdf", changPDF)
	browserLib.once.Do(func() {
		home, err := os.MkdirTemp("", "crossmem-viewer-e2e-")
		if err != nil {
			browserLib.err = err
			return
		}
		browserLib.home = home
		lines := []string{"A page turned on its side, as scanned books and wide tables are.", "Its text is set across the short side of the paper,",
			"and a viewer shows it rotated clockwise by ninety degrees.", "The highlight must follow the rotation and the crop box."}
		rot := filepath.Join(home, "rotated.pdf")
		if err := os.WriteFile(rot, pdftest.Boxed(pdftest.Text(lines...), pdftest.Box{MediaBox: [4]float64{0, 0, 612, 792}, CropBox: [4]float64{36, 100, 576, 760}, Rotate: 90}), 0o644); err != nil {
			browserLib.err = err
			return
		}
		for _, args := range [][]string{{"capture", chang, "--cite-key", changKey}, {"compile", changKey}, {"capture", rot, "--cite-key", "rotated"}, {"compile", "rotated"}} {
			cmd := exec.Command(bin, args...)
			cmd.Env = procEnv(home)
			if out, err := cmd.CombinedOutput(); err != nil {
				browserLib.err = fmt.Errorf("crossmem %s: %v\n%s", strings.Join(args, " "), err, out)
				return
			}
		}
	})
	if browserLib.err != nil {
		t.Fatal(browserLib.err)
	}
	return browserLib.home
}

// attackerPage is served on a second loopback origin: it tries to read the
// viewer with fetch (cors and no-cors), an image and a frame.
const attackerPage = `<!doctype html><title>another origin</title><body><script>
const V = %q, KEY = %q;
const results = {};
(async () => {
  try { const r = await fetch(V + "/paper/" + KEY); results.corsFetch = "read " + (await r.text()).length; }
  catch (e) { results.corsFetch = "blocked: " + e.name; }
  try { const r = await fetch(V + "/paper/" + KEY, { mode: "no-cors" }); results.noCors = r.type + " " + r.status; results.noCorsBody = (await r.text()).length; }
  catch (e) { results.noCors = "blocked: " + e.name; results.noCorsBody = 0; }
  results.img = await new Promise((res) => { const i = new Image(); i.onload = () => res("loaded " + i.naturalWidth); i.onerror = () => res("blocked"); i.src = V + "/img/" + KEY + "/1?w=480"; });
  results.iframe = await new Promise((res) => {
    const f = document.createElement("iframe");
    f.onload = () => { try { res("readable: " + f.contentDocument.body.innerText.length); } catch (e) { res("unreadable: " + e.name); } };
    f.src = V + "/paper/" + KEY; document.body.appendChild(f); setTimeout(() => res("no load event"), 5000);
  });
  window.results = results; window.done = true;
})();
</script></body>`

// TestBrowser drives the viewer in chromium: library, search, paper, a
// chunk's provenance to its page with the highlight where the bbox is
// (two-column page, figure caption, rotated page with a crop box), the
// copy button, the image resolution following the screen, and a page on a
// second loopback origin that must not read the library.
func TestBrowser(t *testing.T) {
	corpustest.Slow(t, "builds cmd/crossmem and runs chromium")
	root := corpustest.Root(t)
	dir := filepath.Join(root, "test", "viewer-e2e")
	node, err := exec.LookPath("node")
	if err != nil {
		required(t, "node is not on PATH: this test drives chromium with playwright-core (Node 20+; npm ci in test/viewer-e2e)")
	}
	chromium := "/usr/bin/chromium"
	if _, err := os.Stat(chromium); err != nil {
		required(t, "%s is missing: apt-get install chromium (.ci/run does)", chromium)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "playwright-core", "package.json")); err != nil {
		required(t, "test/viewer-e2e/node_modules lacks playwright-core: run npm ci in test/viewer-e2e (%v)", err)
	}
	if _, err := exec.LookPath("pdfinfo"); err != nil {
		required(t, "pdfinfo (poppler-utils) is missing: it is the page geometry reference")
	}
	bin := buildBinary(t)
	home := browserHome(t, bin)

	n, _ := readNote(t, home, changKey)
	rn, _ := readNote(t, home, "rotated")
	changPath := filepath.Join(corpustest.Dir(t, "pdf"), changPDF)
	var twoCol, figure *chunk.Chunk
	for i := range n.Chunks {
		c := &n.Chunks[i]
		g := pdfinfo(t, changPath, c.Page)
		if twoCol == nil && c.Page == 2 && c.Type == chunk.TypeParagraph && c.BBox[0] > g.Width/2 && len(strings.Fields(c.Text)) > 30 {
			twoCol = c
		}
		if figure == nil && c.Type == chunk.TypeCaption {
			figure = c
		}
		if twoCol != nil && figure != nil {
			break
		}
	}
	if twoCol == nil || figure == nil || len(rn.Chunks) == 0 {
		t.Fatalf("no right-column paragraph on page 2 (%v), figure caption (%v) or rotated chunk (%d)", twoCol, figure, len(rn.Chunks))
	}
	rotPath, _ := filepath.Glob(filepath.Join(home, "raw", "*_rotated.pdf"))
	chunks := []e2eChunk{
		{Name: "two-column", Key: changKey, Chunk: twoCol.ID, Page: twoCol.Page, BBox: twoCol.BBox, Geometry: pdfinfo(t, changPath, twoCol.Page)},
		{Name: "figure", Key: changKey, Chunk: figure.ID, Page: figure.Page, BBox: figure.BBox, Geometry: pdfinfo(t, changPath, figure.Page)},
		{Name: "rotated", Key: "rotated", Chunk: rn.Chunks[0].ID, Page: 1, BBox: rn.Chunks[0].BBox, Geometry: pdfinfo(t, rotPath[0], 1)},
	}
	if g := chunks[2].Geometry; g.Rotation != 90 || g.Width != 540 || g.Height != 660 {
		t.Fatalf("rotated.pdf geometry by pdfinfo: %+v", g)
	}

	s := startServe(t, bin, home, []string{"serve", "--port", "0"})
	// The page on a second local origin.
	al, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	attacker := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, attackerPage, s.base, changKey)
	})}
	go attacker.Serve(al)
	defer attacker.Close()

	artifacts := filepath.Join(dir, "artifacts")
	if err := os.MkdirAll(artifacts, 0o755); err != nil {
		t.Fatal(err)
	}
	query := strings.Join(strings.Fields(twoCol.Text)[:8], " ")
	cfg, _ := json.Marshal(map[string]any{
		"base": s.base, "chromium": chromium, "artifacts": artifacts,
		"search":   map[string]string{"query": query, "key": changKey, "chunk": twoCol.ID},
		"chunks":   chunks,
		"attacker": "http://" + al.Addr().String() + "/",
	})
	ctx, cancel := context.WithTimeout(t.Context(), 8*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(dir, "viewer.mjs"))
	cmd.Env = append(os.Environ(), "VIEWER_E2E="+string(cfg))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	var res struct {
		Checks   int             `json:"checks"`
		Failures []string        `json:"failures"`
		Report   json.RawMessage `json:"report"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatalf("viewer.mjs: %v (%v)\nstdout:\n%s\nstderr:\n%s\nserver:\n%s", runErr, err, stdout.String(), stderr.String(), s.log())
	}
	for _, f := range res.Failures {
		t.Error(f)
	}
	if res.Checks < 20 {
		t.Errorf("viewer.mjs made %d checks, want at least 20", res.Checks)
	}
	t.Logf("%d browser checks; screenshots in %s; report: %s", res.Checks, artifacts, res.Report)

	// The second origin's requests were refused by the server itself, and
	// logged with their reason.
	if log := s.log(); !strings.Contains(log, "request refused") || !strings.Contains(log, "from another origin") {
		t.Errorf("the server did not log refusing the other origin:\n%s", log)
	}
	// A foreign Host header is refused; localhost is the same server.
	for host, want := range map[string]int{"evil.example:" + port(s.base): 421, "localhost:" + port(s.base): 200, "127.0.0.1.nip.io:" + port(s.base): 421} {
		req, _ := http.NewRequest("GET", s.base+"/", nil)
		req.Host = host
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if r.StatusCode != want || (want != 200 && strings.Contains(string(body), changKey)) {
			t.Errorf("Host %s: %d, want %d", host, r.StatusCode, want)
		}
		if v := r.Header.Get("Access-Control-Allow-Origin"); v != "" {
			t.Errorf("Host %s: Access-Control-Allow-Origin %q", host, v)
		}
	}
	if code := s.stop(t, syscall.SIGTERM); code != 0 {
		t.Errorf("exit on SIGTERM = %d, want 0\n%s", code, s.log())
	}
}

func port(base string) string { return base[strings.LastIndex(base, ":")+1:] }

// TestServeExitCodes: `crossmem` with no command serves (BRIDGE_PORT) and
// exits 0 on SIGINT; a second server on the same port exits 1 (bind
// failure) and says so.
func TestServeExitCodes(t *testing.T) {
	corpustest.Slow(t, "builds cmd/crossmem")
	bin := buildBinary(t)
	home := t.TempDir()
	p := freePort(t)
	s := startServe(t, bin, home, nil, "BRIDGE_PORT="+strconv.Itoa(p))
	if s.base != "http://127.0.0.1:"+strconv.Itoa(p) {
		t.Errorf("serving at %s, want port %d", s.base, p)
	}
	cmd := exec.Command(bin, "serve")
	cmd.Env = procEnv(home, "BRIDGE_PORT="+strconv.Itoa(p))
	out, err := cmd.CombinedOutput()
	if cmd.ProcessState.ExitCode() != 1 || !strings.Contains(string(out), "the port is in use") ||
		!strings.Contains(string(out), "crossmem: hint: if it is another crossmem serve, it serves the viewer and the bridge already") {
		t.Errorf("second serve on port %d: %v\n%s", p, err, out)
	}
	if code := s.stop(t, os.Interrupt); code != 0 {
		t.Errorf("exit on SIGINT = %d, want 0\n%s", code, s.log())
	}
}

// TestOpen: crossmem open starts the server when none runs, opens the
// chunk's page with the desktop's opener (a stand-in xdg-open that
// records the URL), and prints it; --print only prints; --register writes
// the desktop entry that xdg-mime then names as the crossmem:// handler.
func TestOpen(t *testing.T) {
	corpustest.Slow(t, "builds cmd/crossmem")
	bin := buildBinary(t)
	home := t.TempDir()
	if err := os.CopyFS(home, os.DirFS(fixtureHome(t))); err != nil {
		t.Fatal(err)
	}
	n, _ := readNote(t, home, shenKey)
	c := n.Chunks[3]
	p := freePort(t)
	tools := t.TempDir()
	opened := filepath.Join(tools, "opened")
	if err := os.WriteFile(filepath.Join(tools, "xdg-open"), []byte("#!/bin/sh\necho \"$1\" >> "+opened+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	extra := []string{"BRIDGE_PORT=" + strconv.Itoa(p), "DISPLAY=:99", "PATH=" + tools + string(os.PathListSeparator) + os.Getenv("PATH")}
	run := func(args ...string) (string, string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Env = procEnv(home, extra...)
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		cmd.Run()
		return o.String(), e.String(), cmd.ProcessState.ExitCode()
	}
	num := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	want := fmt.Sprintf("http://127.0.0.1:%d/pdf/%s?p=%d&bbox=%s,%s,%s,%s&chunk=%s", p, shenKey, c.Page, num(c.BBox[0]), num(c.BBox[1]), num(c.BBox[2]), num(c.BBox[3]), c.ID)

	out, errOut, code := run("open", "--print", shenKey, c.ID)
	if code != 0 || strings.TrimSpace(out) != want {
		t.Errorf("open --print: %d %q, want %q\n%s", code, out, want, errOut)
	}
	out, errOut, code = run("open", shenKey, c.ID)
	// Stop the server open started (its pid is in this notice; errOut is
	// reused below). It runs in a session of its own and would outlive the
	// test, holding whatever files the test inherited.
	started := errOut
	t.Cleanup(func() {
		if m := regexp.MustCompile(`\(pid (\d+);`).FindStringSubmatch(started); m != nil {
			if pid, _ := strconv.Atoi(m[1]); pid > 0 {
				syscall.Kill(pid, syscall.SIGTERM)
			}
		}
	})
	if code != 0 || strings.TrimSpace(out) != want || !strings.Contains(errOut, "started crossmem serve") {
		t.Fatalf("open: %d %q\n%s", code, out, errOut)
	}
	r, err := http.Get(want)
	if err != nil || r.StatusCode != 200 {
		t.Fatalf("GET %s after open: %v %v", want, err, r)
	}
	r.Body.Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		b, _ := os.ReadFile(opened)
		if strings.TrimSpace(string(b)) == want {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("xdg-open got %q, want %q", b, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// Running now: a deep link opens without starting another.
	link := fmt.Sprintf("crossmem://pdf/%s#p=%d", shenKey, c.Page)
	out, errOut, code = run("open", link)
	if code != 0 || strings.TrimSpace(out) != fmt.Sprintf("http://127.0.0.1:%d/pdf/%s?p=%d", p, shenKey, c.Page) || strings.Contains(errOut, "started") {
		t.Errorf("open %s: %d %q\n%s", link, code, out, errOut)
	}
	for _, args := range [][]string{{"open", "nosuchkey"}, {"open", shenKey, "p99s9c9"}} {
		if _, errOut, code := run(args...); code != 1 {
			t.Errorf("%v: exit %d, want 1\n%s", args, code, errOut)
		}
	}
	if _, errOut, code := run("open", "file:///etc/passwd"); code != 2 {
		t.Errorf("open file:///etc/passwd: exit %d, want 2\n%s", code, errOut)
	}

	if _, err := exec.LookPath("xdg-mime"); err != nil {
		t.Skip("xdg-mime (xdg-utils) is not installed: --register not checked")
	}
	data, cfgHome := t.TempDir(), t.TempDir()
	extra = append(extra, "XDG_DATA_HOME="+data, "XDG_CONFIG_HOME="+cfgHome, "HOME="+t.TempDir())
	out, errOut, code = run("open", "--register")
	entry := filepath.Join(data, "applications", "crossmem-open.desktop")
	b, err := os.ReadFile(entry)
	if code != 0 || err != nil || !strings.Contains(string(b), "Exec="+bin+" open %u") || !strings.Contains(string(b), "MimeType=x-scheme-handler/crossmem;") {
		t.Fatalf("open --register: %d %q %s\n%s", code, out, errOut, b)
	}
	q := exec.Command("xdg-mime", "query", "default", "x-scheme-handler/crossmem")
	q.Env = procEnv(home, extra...)
	if got, err := q.Output(); err != nil || strings.TrimSpace(string(got)) != "crossmem-open.desktop" {
		t.Errorf("xdg-mime query default x-scheme-handler/crossmem = %q, %v", got, err)
	}
}
