package viewer_test

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/cite"
	"github.com/crossmem/crossmem/internal/cli"
	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/index"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/note"
	"github.com/crossmem/crossmem/internal/pdf"
	"github.com/crossmem/crossmem/internal/serve"
	"github.com/crossmem/crossmem/internal/viewer"
)

// shen2023summarization is pm_2304.02623v1.pdf: 4 pages, a figure with
// text inside it and a caption.
const (
	shenKey = "shen2023summarization"
	shenPDF = "pm_2304.02623v1.pdf"
)

var cacheDir = filepath.Join(os.TempDir(), "crossmem-test-cache")

var fixture struct {
	once sync.Once
	home string
	err  error
}

// fixtureHome returns a library with shen2023summarization captured
// (offline) and compiled. Tests copy it before changing it.
func fixtureHome(t *testing.T) string {
	t.Helper()
	src := corpustest.Dir(t, "pdf", shenPDF)
	fixture.once.Do(func() {
		home, err := os.MkdirTemp("", "crossmem-viewer-test-")
		if err != nil {
			fixture.err = err
			return
		}
		fixture.home = home
		for _, args := range [][]string{{"capture", src, "--cite-key", shenKey}, {"compile", shenKey}} {
			if err := run(home, args...); err != nil {
				fixture.err = err
				return
			}
		}
	})
	if fixture.err != nil {
		t.Fatal(fixture.err)
	}
	return fixture.home
}

func TestMain(m *testing.M) {
	code := m.Run()
	if fixture.home != "" {
		os.RemoveAll(fixture.home)
	}
	os.Exit(code)
}

func env(home string) map[string]string {
	const offline = "http://127.0.0.1:1"
	return map[string]string{
		"CROSSMEM_HOME": home, "CROSSMEM_CONFIG": filepath.Join(home, "config.toml"), "CROSSMEM_CACHE": cacheDir,
		"CROSSMEM_ARXIV_API": offline + "/api/query", "CROSSMEM_ARXIV_PDF": offline + "/pdf", "CROSSMEM_CROSSREF_API": offline,
		"CROSSMEM_OPENALEX_API": offline, "CROSSMEM_DATACITE_API": offline, "CROSSMEM_UNPAYWALL_API": offline, "OLLAMA_HOST": offline,
		"PATH": os.Getenv("PATH"), // a talk's tools (ffmpeg, tesseract)
	}
}

// run runs crossmem in process on the library at home.
func run(home string, args ...string) error {
	var out, errb bytes.Buffer
	e := env(home)
	code := cli.Main(context.Background(), args, cli.IO{In: strings.NewReader(""), Out: &out, Err: &errb, Getenv: func(k string) string { return e[k] }}, cli.Servers{})
	if code != 0 {
		return fmt.Errorf("crossmem %s: exit %d\n%s", strings.Join(args, " "), code, errb.String())
	}
	return nil
}

var engine struct {
	once sync.Once
	e    *pdf.Engine
	err  error
}

// start serves the viewer on home on a free loopback port and returns its
// base URL and the page image cache folder.
func start(t *testing.T, home string) (string, string) {
	t.Helper()
	lib, err := library.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := index.Open(filepath.Join(home, index.FileName), lib.WikiDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	engine.once.Do(func() {
		engine.e, engine.err = pdf.Open(context.Background(), pdf.Options{CacheDir: filepath.Join(cacheDir, "wazero"), Workers: 1})
	})
	if engine.err != nil {
		t.Fatal(engine.err)
	}
	var log bytes.Buffer
	var logMu sync.Mutex
	s, err := serve.Listen("", 0, slog.New(slog.NewTextHandler(&lockedWriter{w: &log, mu: &logMu}, nil)))
	if err != nil {
		t.Fatal(err)
	}
	pages := t.TempDir()
	v := &viewer.Viewer{
		Lib: lib, Citer: &cite.Citer{Lib: lib}, Searcher: ix,
		BeforeSearch: func(ctx context.Context) { ix.Sync(ctx, nil) },
		Engine:       func(context.Context) (*pdf.Engine, error) { return engine.e, engine.err },
		CacheDir:     pages, Version: "test",
	}
	if err := v.Mount(s); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		v.Close()
	})
	return s.URL(), pages
}

type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func get(t *testing.T, url string) (int, string, http.Header) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, string(b), res.Header
}

// readNote returns the compiled note of key in home.
func readNote(t *testing.T, home, key string) (*note.Note, string) {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(home, "wiki", "*_"+key+".md"))
	if len(m) != 1 {
		t.Fatalf("notes of %s: %v", key, m)
	}
	data, err := os.ReadFile(m[0])
	if err != nil {
		t.Fatal(err)
	}
	n, err := note.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return n, m[0]
}

func TestLibraryAndPaper(t *testing.T) {
	home := fixtureHome(t)
	base, _ := start(t, home)
	n, _ := readNote(t, home, shenKey)

	code, body, _ := get(t, base+"/")
	if code != 200 || !strings.Contains(body, `data-key="`+shenKey+`"`) || !strings.Contains(body, "compiled") || !strings.Contains(body, n.Front.Title) {
		t.Errorf("library page: %d\n%s", code, body)
	}

	code, body, _ = get(t, base+"/paper/"+shenKey)
	if code != 200 {
		t.Fatalf("paper page: %d\n%s", code, body)
	}
	// Every chunk, in reading order, with its provenance link.
	at := 0
	for _, c := range n.Chunks {
		i := strings.Index(body[at:], `id="`+c.ID+`"`)
		if i < 0 {
			t.Fatalf("chunk %s missing or out of order on the paper page", c.ID)
		}
		at += i
		link := fmt.Sprintf(`/pdf/%s?p=%d&amp;bbox=`, shenKey, c.Page)
		if !strings.Contains(body[at:], link) {
			t.Errorf("chunk %s has no provenance link %s", c.ID, link)
		}
	}
	// The citations as crossmem cite renders them, with copy buttons.
	c := &cite.Citer{Lib: mustLib(t, home)}
	apa, err := c.Cite(shenKey, "apa")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(body, htmlEscape(apa.Text)) || strings.Count(body, `class="copy"`) < 5 {
		t.Errorf("paper page lacks the APA citation %q or the copy buttons", apa.Text)
	}
	// Metadata fields with their sources, and the warnings.
	if !strings.Contains(body, `<th>Title</th>`) || !strings.Contains(body, `class="warnings"`) {
		t.Error("paper page lacks the metadata table or the warnings")
	}
	// A caption is shown with its page image, a figure and the text
	// inside it with the figure's region.
	for _, c := range n.Chunks {
		switch c.Type {
		case chunk.TypeCaption:
			if !strings.Contains(item(body, c.ID), `<img loading="lazy" src="/img/`+shenKey+`/`+strconv.Itoa(c.Page)+`?w=480"`) {
				t.Errorf("caption chunk %s has no page image", c.ID)
			}
		case chunk.TypeFigure, chunk.TypeFigureText:
			if !strings.Contains(body, `/img/`+shenKey+`/`+strconv.Itoa(c.Page)+`/region?bbox=`) {
				t.Errorf("figure text chunk %s has no region image", c.ID)
			}
		}
	}

	code, body, _ = get(t, base+"/paper/shen2023summarisation")
	if code != 404 || !strings.Contains(body, shenKey) {
		t.Errorf("misspelt key: %d, want 404 with the suggestion %s:\n%s", code, shenKey, body)
	}
}

// item returns the paper page's list item of chunk id.
func item(body, id string) string {
	i := strings.Index(body, `id="`+id+`"`)
	if i < 0 {
		return ""
	}
	j := strings.Index(body[i:], "</li>")
	if j < 0 {
		return body[i:]
	}
	return body[i : i+j]
}

func mustLib(t *testing.T, home string) *library.Library {
	l, err := library.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}

// TestPageView opens chunks by id and by bbox: the page view names the
// chunk, shows its text and hash, and draws the highlight where the bbox
// maps on the displayed page (pdf.Geometry.ToDisplay, tested against the
// rendered ink in internal/pdf).
func TestPageView(t *testing.T) {
	home := fixtureHome(t)
	base, cache := start(t, home)
	n, _ := readNote(t, home, shenKey)
	var c chunk.Chunk
	for _, x := range n.Chunks {
		if x.Type == chunk.TypeParagraph && x.Page == 2 {
			c = x
			break
		}
	}
	num := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	bbox := fmt.Sprintf("%s,%s,%s,%s", num(c.BBox[0]), num(c.BBox[1]), num(c.BBox[2]), num(c.BBox[3]))
	for _, path := range []string{"?chunk=" + c.ID, fmt.Sprintf("?p=%d&bbox=%s", c.Page, bbox)} {
		code, body, _ := get(t, base+"/pdf/"+shenKey+path)
		if code != 200 {
			t.Fatalf("%s: %d\n%s", path, code, body)
		}
		if !strings.Contains(body, `data-chunk="`+c.ID+`"`) || !strings.Contains(body, c.TextSHA256) {
			t.Errorf("%s: the page view does not show chunk %s with its hash", path, c.ID)
		}
		if first := strings.Split(c.Text, "\n")[0]; !strings.Contains(body, htmlEscape(first)) {
			t.Errorf("%s: the chunk's text %q is not beside the page", path, first)
		}
		// The page is US Letter, unrotated: x stays, y flips.
		want := fmt.Sprintf(`<rect id="highlight" class="highlight" x="%s" y="%s" width="%s" height="%s">`,
			num(c.BBox[0]), num(792-c.BBox[3]), num(c.BBox[2]-c.BBox[0]), num(c.BBox[3]-c.BBox[1]))
		if !strings.Contains(body, want) {
			t.Errorf("%s: no highlight %s in\n%s", path, want, body)
		}
		if !strings.Contains(body, `viewBox="0 0 612 792"`) || !strings.Contains(body, `srcset="/img/`+shenKey+`/2?w=480 480w`) {
			t.Errorf("%s: no overlay viewBox or srcset", path)
		}
		if !strings.Contains(body, `href="/pdf/`+shenKey+`?p=1"`) || !strings.Contains(body, `href="/pdf/`+shenKey+`?p=3"`) {
			t.Errorf("%s: no previous/next page links", path)
		}
	}

	// The page image: a PNG of the asked width, drawn once and then served
	// from the cache.
	code, body, hdr := get(t, base+"/img/"+shenKey+"/2?w=800")
	img, err := png.Decode(strings.NewReader(body))
	if code != 200 || err != nil || img.Bounds().Dx() != 800 || img.Bounds().Dy() != 1035 || hdr.Get("Content-Type") != "image/png" {
		t.Fatalf("page image: %d %v %v %s", code, err, img, hdr.Get("Content-Type"))
	}
	files, _ := filepath.Glob(filepath.Join(cache, "*", "p2-w800.png"))
	if len(files) != 1 {
		t.Fatalf("cache: %v", files)
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(files[0], old, old)
	if code, again, _ := get(t, base+"/img/"+shenKey+"/2?w=800"); code != 200 || again != body {
		t.Error("the second request is not the cached image")
	}
	if st, _ := os.Stat(files[0]); !st.ModTime().Equal(old) {
		t.Error("the cached image was drawn again")
	}
	// A region, its longer side the asked size.
	code, body, _ = get(t, base+"/img/"+shenKey+"/2/region?bbox="+bbox+"&w=320")
	if img, err := png.Decode(strings.NewReader(body)); code != 200 || err != nil || max(img.Bounds().Dx(), img.Bounds().Dy()) != 320 {
		t.Errorf("region image: %d %v", code, err)
	}

	for path, want := range map[string]int{
		"/img/" + shenKey + "/2?w=801":                 400, // not a size the viewer offers
		"/img/" + shenKey + "/9?w=800":                 404, // no page 9
		"/img/" + shenKey + "/0":                       400,
		"/img/" + shenKey + "/2/region?bbox=1,2,3":     400,
		"/img/nosuchkey/1":                             404,
		"/pdf/" + shenKey + "?p=9":                     404,
		"/pdf/" + shenKey + "?bbox=5,5,1,1":            400,
		"/pdf/" + shenKey + "?p=abc":                   400,
		"/pdf/..%2F..%2Fetc%2Fpasswd":                  404,
		"/pdf/" + shenKey + "%2F..%2F..%2Fconfig.toml": 404,
		"/img/..%2Fraw/1":                              404,
		"/static/../templates/layout.html":             404,
	} {
		if code, body, _ := get(t, base+path); code != want || strings.Contains(body, "root:") {
			t.Errorf("GET %s: %d, want %d\n%.300s", path, code, want, body)
		}
	}
}

// TestEditedChunk: a chunk whose text was edited in the note is shown as
// edited, not as a source.
func TestEditedChunk(t *testing.T) {
	home := t.TempDir()
	if err := os.CopyFS(home, os.DirFS(fixtureHome(t))); err != nil {
		t.Fatal(err)
	}
	n, path := readNote(t, home, shenKey)
	var c chunk.Chunk
	for _, x := range n.Chunks {
		if x.Type == chunk.TypeParagraph && strings.Contains(strings.Split(x.Text, "\n")[0], " the ") {
			c = x
			break
		}
	}
	data, _ := os.ReadFile(path)
	first := strings.Split(c.Text, "\n")[0]
	edited := strings.Replace(first, " the ", " no ", 1)
	data = bytes.Replace(data, []byte("> "+first+"\n"), []byte("> "+edited+"\n"), 1)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ := start(t, home)
	_, body, _ := get(t, base+"/pdf/"+shenKey+"?chunk="+c.ID)
	if !strings.Contains(body, "Edited by hand") || !strings.Contains(body, `class="chunk-detail edited"`) {
		t.Errorf("the edited chunk %s is not marked edited on the page view", c.ID)
	}
	_, body, _ = get(t, base+"/paper/"+shenKey)
	if !strings.Contains(body, `class="chunk type-paragraph edited" id="`+c.ID+`"`) {
		t.Errorf("the edited chunk %s is not marked edited on the paper page", c.ID)
	}
}

func TestSearch(t *testing.T) {
	home := fixtureHome(t)
	base, _ := start(t, home)
	code, body, _ := get(t, base+"/search?q=expository+writing&key="+shenKey+"&year=2000-2100")
	if code != 200 || !strings.Contains(body, `class="hit" data-key="`+shenKey+`"`) || !strings.Contains(body, `href="/pdf/`+shenKey+`?chunk=`) {
		t.Errorf("search: %d\n%s", code, body)
	}
	if code, body, _ := get(t, base+"/search?q=expository&year=2100"); code != 200 || !strings.Contains(body, "No results for query") {
		t.Errorf("search outside the years: %d\n%s", code, body)
	}
	if code, body, _ := get(t, base+"/search?q=expository&year=20x"); code != 400 || !strings.Contains(body, "use a year") {
		t.Errorf("bad year: %d\n%s", code, body)
	}
}

// TestConcurrentPages is the bounded load test: 100 requests at once for
// page images (5 pages × widths, so some are drawn and most wait for the
// same drawing or hit the cache) and page views, on loopback. Every one
// must be answered 200 with a whole PNG or page.
func TestConcurrentPages(t *testing.T) {
	home := fixtureHome(t)
	base, _ := start(t, home)
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	client := &http.Client{Timeout: 2 * time.Minute}
	for i := range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			page := i%4 + 1
			url := fmt.Sprintf("%s/img/%s/%d?w=%d", base, shenKey, page, viewer.PageWidths[i%3])
			if i%5 == 4 {
				url = fmt.Sprintf("%s/pdf/%s?p=%d", base, shenKey, page)
			}
			res, err := client.Get(url)
			if err != nil {
				errs <- err
				return
			}
			defer res.Body.Close()
			b, err := io.ReadAll(res.Body)
			if err != nil || res.StatusCode != 200 {
				errs <- fmt.Errorf("%s: %d %v", url, res.StatusCode, err)
				return
			}
			if strings.Contains(url, "/img/") {
				if _, err := png.Decode(bytes.NewReader(b)); err != nil {
					errs <- fmt.Errorf("%s: %v", url, err)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
