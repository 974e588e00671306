// Tests of crossmem_cite and crossmem_recall through the real protocol: an
// mcp.Client of the same SDK talks to the server over in-memory transports,
// against a library compiled from real papers of the shared corpus by the
// real pipeline (cli.Main capture + compile --no-llm, in process).
//
// The package is mcpserver_test because the fixture uses internal/cli, a
// package above this one.
package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.yaml.in/yaml/v3"

	"github.com/crossmem/crossmem/internal/check"
	"github.com/crossmem/crossmem/internal/citation"
	"github.com/crossmem/crossmem/internal/cite"
	"github.com/crossmem/crossmem/internal/cli"
	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/index"
	cmlibrary "github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/mcpserver"
	"github.com/crossmem/crossmem/internal/render"
	"github.com/crossmem/crossmem/internal/search"
)

// testDir holds what the package's tests share: the fixture library and
// the built binary. TestMain removes it.
var testDir string

// cacheDir is CROSSMEM_CACHE for every crossmem the tests run. It outlives
// the tests, like the other packages' wazero caches in os.TempDir(), so
// pdfium is compiled to machine code once per machine, not once per run
// (that takes seconds); wazero writes its cache files atomically.
var cacheDir = filepath.Join(os.TempDir(), "crossmem-test-cache")

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "crossmem-mcpserver-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// The papers of the fixture library, from ../shared/corpus/pdf.
const (
	changKey = "chang2023citesee" // pm_2302.07302v1.pdf, 15 pages, with PDF metadata
	changPDF = "pm_2302.07302v1.pdf"
	// changPhrase is verbatim from the abstract (chunk p1s0c19).
	changPhrase = "connects the current paper to familiar contexts by surfacing known citations"

	shenKey = "shen2023summarization" // pm_2304.02623v1.pdf, 4 pages, with PDF metadata
	shenPDF = "pm_2304.02623v1.pdf"
	// shenPhrase is verbatim from the introduction.
	shenPhrase = "semi-automate cognitively-demanding writing tasks"

	// dutotKey is gr_sample1.pdf (8 pages), whose document information
	// has no usable metadata; capture reads its title and authors from its
	// first page.
	dutotKey    = "dutot2005bicriteria"
	dutotPDF    = "gr_sample1.pdf"
	dutotPhrase = "Bi-criteria Algorithm for Scheduling Jobs on Cluster Platforms"
)

// library is a crossmem library folder with its config file inside it.
type library struct{ Home string }

func (l library) env() map[string]string {
	return map[string]string{
		"CROSSMEM_HOME":   l.Home,
		"CROSSMEM_CONFIG": filepath.Join(l.Home, "config.toml"),
		"CROSSMEM_CACHE":  cacheDir,
		// The metadata sources are offline (nothing listens on port 1),
		// whatever network the machine has: captures use the PDFs' own
		// metadata and say that the sources could not be reached.
		"CROSSMEM_ARXIV_API":     offline + "/api/query",
		"CROSSMEM_ARXIV_PDF":     offline + "/pdf",
		"CROSSMEM_CROSSREF_API":  offline,
		"CROSSMEM_OPENALEX_API":  offline,
		"CROSSMEM_DATACITE_API":  offline,
		"CROSSMEM_UNPAYWALL_API": offline,
		"OLLAMA_HOST":            offline,
	}
}

// offline is a local address nothing listens on.
const offline = "http://127.0.0.1:1"

func (l library) wikiDir() string { return filepath.Join(l.Home, "wiki") }

// notePath returns the path of the one note of key.
func (l library) notePath(t testing.TB, key string) string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(l.wikiDir(), "*_"+key+".md"))
	if err != nil || len(m) != 1 {
		t.Fatalf("want one note for %s in %s, got %v (%v)", key, l.wikiDir(), m, err)
	}
	return m[0]
}

// run runs crossmem in process on the library and returns its stdout. The
// environment is exactly l.env(): nothing leaks from the caller's.
func (l library) run(ctx context.Context, args ...string) (string, error) {
	var out, errb bytes.Buffer
	env := l.env()
	code := cli.Main(ctx, args, cli.IO{
		In: strings.NewReader(""), Out: &out, Err: &errb,
		Getenv: func(k string) string { return env[k] },
	}, cli.Servers{})
	if code != cli.ExitOK {
		return out.String(), fmt.Errorf("crossmem %s: exit %d\nstderr:\n%s", strings.Join(args, " "), code, errb.String())
	}
	return out.String(), nil
}

// addPaper captures pdf under key and compiles it without the LLM.
func (l library) addPaper(ctx context.Context, pdf, key string) error {
	out, err := l.run(ctx, "capture", pdf, "--cite-key", key)
	if err != nil {
		return err
	}
	if !strings.Contains(out, "cite_key: "+key) {
		return fmt.Errorf("capture %s: stdout %q does not report cite_key: %s", pdf, out, key)
	}
	_, err = l.run(ctx, "compile", key, "--no-llm")
	return err
}

var fixture struct {
	once sync.Once
	lib  library
	err  error
}

// fixtureLibrary returns the shared library with chang2023citesee and
// shen2023summarization compiled. Tests must not change it: copy it with
// copyLibrary first.
func fixtureLibrary(t testing.TB) library {
	t.Helper()
	chang, shen := corpustest.Dir(t, "pdf", changPDF), corpustest.Dir(t, "pdf", shenPDF)
	fixture.once.Do(func() {
		start := time.Now()
		lib := library{Home: filepath.Join(testDir, "fixture")}
		ctx := context.Background() // shared by later tests: not tied to this one
		if err := lib.addPaper(ctx, chang, changKey); err != nil {
			fixture.err = err
			return
		}
		if err := lib.addPaper(ctx, shen, shenKey); err != nil {
			fixture.err = err
			return
		}
		fixture.lib = lib
		t.Logf("fixture library compiled in %v", time.Since(start).Round(time.Millisecond))
	})
	if fixture.err != nil {
		t.Fatalf("building the fixture library: %v", fixture.err)
	}
	return fixture.lib
}

// copyLibrary returns a private copy of lib.
func copyLibrary(t testing.TB, lib library) library {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "home")
	if err := os.CopyFS(dst, os.DirFS(lib.Home)); err != nil {
		t.Fatal(err)
	}
	return library{Home: dst}
}

// connect starts the server on lib, wired as `crossmem mcp serve` wires
// it, and returns a connected client session. Cleanup closes the session
// and checks that the server then stops.
func connect(t *testing.T, lib library) *mcp.ClientSession {
	t.Helper()
	l, err := cmlibrary.Open(lib.Home)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := index.Open(filepath.Join(lib.Home, index.FileName), lib.wikiDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	// As `crossmem mcp serve`, but checking the notes before every query.
	sync := func(ctx context.Context) {
		if _, err := ix.Sync(ctx, nil); err != nil {
			t.Errorf("sync: %v", err)
		}
	}
	citer := &cite.Citer{Lib: l}
	// With the viewer links `crossmem mcp serve` gives (cli.viewerBase).
	const viewer = "http://127.0.0.1:7600"
	s := &mcpserver.Server{Citer: citer, Searcher: search.Viewer{Searcher: ix, Base: viewer}, Checker: &check.Checker{Index: ix, Citer: citer, ViewerBase: viewer},
		Index: ix, Library: l, Home: l.Home, Version: "test", BeforeSearch: sync}
	serverT, clientT := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, serverT) }()

	client := mcp.NewClient(&mcp.Implementation{Name: "mcpserver-test", Version: "0"}, nil)
	cs, err := client.Connect(t.Context(), clientT, nil)
	if err != nil {
		cancel()
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() {
		defer cancel()
		if err := cs.Close(); err != nil {
			t.Errorf("closing the client session: %v", err)
		}
		select {
		case err := <-done:
			if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, context.Canceled) {
				t.Errorf("Serve returned %v after the client disconnected", err)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("Serve did not return within 5s of the client disconnecting")
		}
	})
	return cs
}

// result is a tool call's outcome as a client sees it.
type result struct {
	IsError    bool
	Text       string          // the text content blocks, joined by "\n"
	Structured json.RawMessage // structuredContent
}

func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) result {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("tools/call %s %v: protocol error: %v", tool, args, err)
	}
	var texts []string
	for _, c := range res.Content {
		tc, ok := c.(*mcp.TextContent)
		if !ok {
			t.Fatalf("tools/call %s %v: content block %T, want only text", tool, args, c)
		}
		texts = append(texts, tc.Text)
	}
	r := result{IsError: res.IsError, Text: strings.Join(texts, "\n")}
	if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		r.Structured = b
	}
	return r
}

// noteCitations reads the "## Citations" sections of a note file, by
// heading, independently of internal/note: the text between "### X" and
// the next heading, trimmed, with the BibTeX code fence removed.
func noteCitations(t testing.TB, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	in, style := false, ""
	var body []string
	flush := func() {
		if style != "" {
			s := strings.TrimSpace(strings.Join(body, "\n"))
			s = strings.TrimPrefix(s, "```bibtex")
			s = strings.TrimSuffix(s, "```")
			out[style] = strings.TrimSpace(s)
		}
		style, body = "", nil
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		switch {
		case line == "## Citations":
			in = true
		case in && strings.HasPrefix(line, "### "):
			flush()
			style = strings.TrimPrefix(line, "### ")
		case in && strings.HasPrefix(line, "## "):
			flush()
			return out
		case style != "":
			body = append(body, line)
		}
	}
	flush()
	return out
}

// chunk is one chunk of a note file, read independently of internal/note.
type chunk struct {
	ID      string
	Page    int
	Section string
	Text    string // the blockquote lines, whitespace runs folded to one space
}

var chunkStart = regexp.MustCompile(`^<!-- chunk id=(\S+) `)

func noteChunks(t testing.TB, path string) []chunk {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []chunk
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		m := chunkStart.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		c := chunk{ID: m[1]}
		var text []string
		for i++; i < len(lines) && (lines[i] == ">" || strings.HasPrefix(lines[i], "> ")); i++ {
			text = append(text, strings.TrimPrefix(strings.TrimPrefix(lines[i], ">"), " "))
		}
		c.Text = strings.Join(strings.Fields(strings.Join(text, "\n")), " ")
		for ; i < len(lines) && lines[i] != "```yaml"; i++ {
		}
		var y []string
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			y = append(y, lines[i])
		}
		var prov struct {
			Provenance struct {
				Page    int    `yaml:"page"`
				Section string `yaml:"section"`
			} `yaml:"provenance"`
		}
		if err := yaml.Unmarshal([]byte(strings.Join(y, "\n")), &prov); err != nil {
			t.Fatalf("%s: chunk %s: provenance: %v", path, c.ID, err)
		}
		c.Page, c.Section = prov.Provenance.Page, prov.Provenance.Section
		out = append(out, c)
	}
	if len(out) == 0 {
		t.Fatalf("%s: no chunks", path)
	}
	return out
}

// textHit is one result of crossmem_recall's text, as the seed shows it.
type textHit struct {
	N                                                   int
	CiteKey, Title, Section, Chunk, Excerpt, Link, View string
}

var hitRE = regexp.MustCompile(`^(\d+)\. \[([^\]]+)\] (.*)\n   section: (.*)\n   chunk: (.*)\n   excerpt: (.*)\n   link: (.*)(?:\n   image: .*)?(?:\n   view: (.*))?$`)

func parseHits(t *testing.T, text string) []textHit {
	t.Helper()
	var out []textHit
	for block := range strings.SplitSeq(text, "\n\n") {
		m := hitRE.FindStringSubmatch(block)
		if m == nil {
			t.Fatalf("result block does not have the seed's layout:\n%s", block)
		}
		n, _ := strconv.Atoi(m[1])
		out = append(out, textHit{n, m[2], m[3], m[4], m[5], m[6], m[7], m[8]})
		// The viewer link opens the hit's chunk (crossmem serve).
		if want := "http://127.0.0.1:7600/pdf/" + m[2] + "?chunk=" + m[5]; m[8] != want {
			t.Errorf("hit %s %s: view %q, want %q", m[2], m[5], m[8], want)
		}
	}
	return out
}

// recallOutput is crossmem_recall's structured result, as a client decodes it.
type recallOutput struct {
	Query   string `json:"query"`
	Results []struct {
		CiteKey string  `json:"cite_key"`
		Title   string  `json:"title"`
		ChunkID string  `json:"chunk_id"`
		Page    int     `json:"page"`
		Section string  `json:"section"`
		Excerpt string  `json:"excerpt"`
		Link    string  `json:"link"`
		View    string  `json:"viewer_url"`
		Score   float64 `json:"score"`
	} `json:"results"`
	Withheld []struct {
		CiteKey string `json:"cite_key"`
		ChunkID string `json:"chunk_id"`
	} `json:"withheld"`
}

// recall calls crossmem_recall and checks that its text and structured
// results agree and are well formed.
func recall(t *testing.T, cs *mcp.ClientSession, args map[string]any) ([]textHit, recallOutput) {
	t.Helper()
	r := call(t, cs, "crossmem_recall", args)
	if r.IsError {
		t.Fatalf("crossmem_recall %v: isError: %s", args, r.Text)
	}
	var out recallOutput
	if err := json.Unmarshal(r.Structured, &out); err != nil {
		t.Fatalf("crossmem_recall %v: structuredContent %s: %v", args, r.Structured, err)
	}
	if out.Results == nil {
		t.Errorf("crossmem_recall %v: structured results are null, want an array", args)
	}
	if out.Query != args["query"] {
		t.Errorf("structured query = %q, want %q", out.Query, args["query"])
	}
	if len(out.Results) == 0 {
		return nil, out
	}
	hits := parseHits(t, r.Text)
	if len(hits) != len(out.Results) {
		t.Fatalf("text lists %d results, structuredContent %d", len(hits), len(out.Results))
	}
	for i, h := range hits {
		s := out.Results[i]
		if h.N != i+1 {
			t.Errorf("result %d numbered %d", i+1, h.N)
		}
		want := textHit{i + 1, s.CiteKey, s.Title, search.Hit{Page: s.Page, Section: s.Section}.Location(), s.ChunkID, s.Excerpt, s.Link, s.View}
		if h != want {
			t.Errorf("result %d: text %+v, structured %+v", i+1, h, want)
		}
		if n := utf8.RuneCountInString(h.Excerpt); n > 400 || n == 0 {
			t.Errorf("result %d: excerpt has %d characters, want 1..400", i+1, n)
		}
		if !strings.HasPrefix(h.Link, "file:///") {
			t.Errorf("result %d: link %q is not a file:/// URL", i+1, h.Link)
		}
	}
	return hits, out
}

func TestToolsList(t *testing.T) {
	cs := connect(t, fixtureLibrary(t))
	if info := cs.InitializeResult().ServerInfo; info.Name != "crossmem" || info.Version != "test" {
		t.Errorf("serverInfo = %+v, want crossmem/test", info)
	}
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	type prop struct {
		Type        string          `json:"type"`
		Description string          `json:"description"`
		Default     json.RawMessage `json:"default"`
		Enum        []string        `json:"enum"`
	}
	type schema struct {
		Type       string          `json:"type"`
		Required   []string        `json:"required"`
		Properties map[string]prop `json:"properties"`
	}
	schemas := map[string]schema{}
	for _, tool := range res.Tools {
		if tool.Description == "" {
			t.Errorf("%s has no description", tool.Name)
		}
		// Every tool only reads the local library.
		if a := tool.Annotations; a == nil || !a.ReadOnlyHint || !a.IdempotentHint || a.OpenWorldHint == nil || *a.OpenWorldHint ||
			a.DestructiveHint == nil || *a.DestructiveHint || a.Title == "" {
			t.Errorf("%s annotations %+v: want a title, readOnlyHint, idempotentHint, destructiveHint false, openWorldHint false", tool.Name, a)
		}
		if tool.OutputSchema == nil {
			t.Errorf("%s has no output schema", tool.Name)
		}
		b, err := json.Marshal(tool.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var s schema
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatalf("%s input schema %s: %v", tool.Name, b, err)
		}
		schemas[tool.Name] = s
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range schemas {
			if !yield(n) {
				return
			}
		}
	})
	if want := []string{"crossmem_check_draft", "crossmem_cite", "crossmem_list", "crossmem_read", "crossmem_recall", "crossmem_verify_quote"}; !slices.Equal(names, want) {
		t.Fatalf("tools = %v, want %v", names, want)
	}
	// The instructions name the library served.
	if ins := cs.InitializeResult().Instructions; !strings.Contains(ins, "library at "+fixtureLibrary(t).Home+": 2 paper(s), 2 compiled") {
		t.Errorf("instructions do not state the library and its papers:\n%s", ins)
	}
	rd := schemas["crossmem_read"]
	if !slices.Equal(rd.Required, []string{"cite_key"}) || rd.Properties["chunk_id"].Type != "string" || rd.Properties["page"].Type != "integer" ||
		rd.Properties["page_label"].Type != "string" || rd.Properties["section"].Type != "string" {
		t.Errorf("crossmem_read schema %+v: want required [cite_key], chunk_id, page, page_label, section", rd)
	}
	// Page locators and labels are strings ("xii", "pp. 11-12"): an agent
	// that sends 11 gets a schema error, so the descriptions say so and
	// show their examples as strings.
	for _, tp := range [][2]string{{"crossmem_verify_quote", "page"}, {"crossmem_read", "page_label"}} {
		p := schemas[tp[0]].Properties[tp[1]]
		if p.Type != "string" || !strings.Contains(p.Description, "as a string") || !regexp.MustCompile(`"[0-9]+"`).MatchString(p.Description) {
			t.Errorf("%s %s: type %q, description %q: want a string said to be one, with quoted examples", tp[0], tp[1], p.Type, p.Description)
		}
	}
	if ls := schemas["crossmem_list"]; !slices.Equal(ls.Properties["state"].Enum, []string{"compiled", "captured", "metadata-only"}) {
		t.Errorf("crossmem_list state enum = %v", ls.Properties["state"].Enum)
	}
	vq := schemas["crossmem_verify_quote"]
	if vq.Type != "object" || !slices.Equal(vq.Required, []string{"quote"}) || vq.Properties["quote"].Type != "string" || vq.Properties["cite_key"].Type != "string" {
		t.Errorf("crossmem_verify_quote schema %+v: want object, required [quote], string quote and cite_key", vq)
	}
	cd := schemas["crossmem_check_draft"]
	if cd.Type != "object" || !slices.Equal(cd.Required, []string{"draft"}) || cd.Properties["draft"].Type != "string" ||
		!slices.Equal(cd.Properties["format"].Enum, []string{"auto", "latex", "markdown"}) || string(cd.Properties["format"].Default) != `"auto"` {
		t.Errorf("crossmem_check_draft schema %+v: want object, required [draft], format enum auto/latex/markdown default auto", cd)
	}

	cite := schemas["crossmem_cite"]
	if cite.Type != "object" || !slices.Equal(cite.Required, []string{"cite_key"}) {
		t.Errorf("crossmem_cite schema: type %q, required %v; want object, [cite_key]", cite.Type, cite.Required)
	}
	if p := cite.Properties["cite_key"]; p.Type != "string" {
		t.Errorf("cite_key: type %q, want string", p.Type)
	}
	format := cite.Properties["format"]
	if format.Type != "string" || string(format.Default) != `"bibtex"` {
		t.Errorf("format: type %q, default %s; want string, \"bibtex\"", format.Type, format.Default)
	}
	if want := []string{"apa", "mla", "chicago", "chicago-17", "chicago-author-date", "chicago-author-date-17", "ieee", "bibtex", "biblatex", "csl-json"}; !slices.Equal(format.Enum, want) {
		t.Errorf("format enum = %v, want %v", format.Enum, want)
	}

	rec := schemas["crossmem_recall"]
	if rec.Type != "object" || !slices.Equal(rec.Required, []string{"query"}) {
		t.Errorf("crossmem_recall schema: type %q, required %v; want object, [query]", rec.Type, rec.Required)
	}
	if p := rec.Properties["query"]; p.Type != "string" {
		t.Errorf("query: type %q, want string", p.Type)
	}
	if p := rec.Properties["limit"]; p.Type != "integer" || string(p.Default) != "5" {
		t.Errorf("limit: type %q, default %s; want integer, 5", p.Type, p.Default)
	}
	// The type filter offers the chunk types there are (no "caption").
	if p := rec.Properties["type"]; !slices.Contains(p.Enum, "paragraph") || !slices.Contains(p.Enum, "figure") || slices.Contains(p.Enum, "caption") {
		t.Errorf("type enum = %v", p.Enum)
	}
}

// noteHeading is the "### " heading of each style in a wiki note.
var noteHeading = map[citation.Style]string{
	citation.APA: "APA", citation.MLA: "MLA", citation.Chicago: "Chicago", citation.IEEE: "IEEE", citation.BibTeX: "BibTeX",
}

func TestCite(t *testing.T) {
	lib := fixtureLibrary(t)
	cs := connect(t, lib)
	for _, key := range []string{changKey, shenKey} {
		sections := noteCitations(t, lib.notePath(t, key))
		for _, st := range citation.Styles() {
			t.Run(key+"/"+string(st), func(t *testing.T) {
				r := call(t, cs, "crossmem_cite", map[string]any{"cite_key": key, "format": string(st)})
				if r.IsError || strings.TrimSpace(r.Text) == "" {
					t.Fatalf("isError %v: %s", r.IsError, r.Text)
				}
				// The note's sections are made by the same formatters.
				if h, ok := noteHeading[st]; ok && r.Text != sections[h] {
					t.Errorf("citation =\n%s\nwant the note's %s section:\n%s", r.Text, h, sections[h])
				}
				var out render.CiteOutput
				if err := json.Unmarshal(r.Structured, &out); err != nil {
					t.Fatalf("structuredContent %s: %v", r.Structured, err)
				}
				if out.Key != key || out.CiteKey != key || out.Format != string(st) || out.Citation != r.Text || out.CitedVersion != "captured" || out.Warnings == nil {
					t.Errorf("structuredContent = %+v", out)
				}
				switch st {
				case citation.BibTeX, citation.BibLaTeX:
					if !regexp.MustCompile(`^@\w+\{` + key + `,\n`).MatchString(r.Text) {
						t.Errorf("entry does not start with @type{%s,:\n%s", key, r.Text)
					}
				case citation.CSLJSON:
					var item map[string]any
					if err := json.Unmarshal([]byte(r.Text), &item); err != nil || item["id"] != key {
						t.Errorf("CSL-JSON item (%v):\n%s", err, r.Text)
					}
				}
			})
		}
		t.Run(key+"/default", func(t *testing.T) {
			r := call(t, cs, "crossmem_cite", map[string]any{"cite_key": key})
			if r.IsError || r.Text != sections["BibTeX"] {
				t.Errorf("without format: isError %v, text\n%s\nwant the BibTeX section", r.IsError, r.Text)
			}
		})
	}
}

func TestCiteUnknownKey(t *testing.T) {
	lib := fixtureLibrary(t)
	cs := connect(t, lib)
	titles := map[string]string{}
	for _, key := range []string{changKey, shenKey} {
		data, err := os.ReadFile(lib.notePath(t, key))
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`(?m)^# (.+)$`).FindSubmatch(data)
		if m == nil {
			t.Fatalf("note of %s has no title heading", key)
		}
		titles[key] = string(m[1])
	}
	for _, tc := range []struct {
		query, first string // first: the key suggested first
	}{
		{"chang2023", changKey},              // prefix of the key
		{"chnag2023citesee", changKey},       // typo
		{"CiteSee", changKey},                // in the title and the key
		{"summarization", shenKey},           // in the title and the key
		{"shen expository writing", shenKey}, // tokens
		{"vaswani2017attention", ""},         // nothing similar
		{"zzqqxx", ""},                       // nothing similar
	} {
		t.Run(tc.query, func(t *testing.T) {
			r := call(t, cs, "crossmem_cite", map[string]any{"cite_key": tc.query, "format": "apa"})
			if !r.IsError {
				t.Fatalf("isError not set; text: %s", r.Text)
			}
			if tc.first == "" {
				want := fmt.Sprintf("Error: cite_key '%s' not found. No similar cite keys", tc.query)
				if !strings.HasPrefix(r.Text, want) {
					t.Errorf("text = %q, want prefix %q", r.Text, want)
				}
				return
			}
			lines := strings.Split(r.Text, "\n")
			if want := fmt.Sprintf("Error: cite_key '%s' not found. Did you mean:", tc.query); lines[0] != want {
				t.Errorf("first line = %q, want %q", lines[0], want)
			}
			if len(lines) < 2 || len(lines) > 6 {
				t.Fatalf("want 1 to 5 suggestions, got:\n%s", r.Text)
			}
			if want := "- " + tc.first + " — " + titles[tc.first]; lines[1] != want {
				t.Errorf("first suggestion = %q, want %q", lines[1], want)
			}
		})
	}
}

// TestCiteAliasAndImport: a key renamed by `crossmem rekey` and an entry
// added by `crossmem import` while the server runs are cited at once; the
// old key still resolves, and a BibTeX entry takes the key it was asked by.
func TestCiteAliasAndImport(t *testing.T) {
	lib := copyLibrary(t, fixtureLibrary(t))
	cs := connect(t, lib)
	if _, err := lib.run(t.Context(), "rekey", changKey, "citesee"); err != nil {
		t.Fatal(err)
	}
	r := call(t, cs, "crossmem_cite", map[string]any{"cite_key": changKey})
	var out render.CiteOutput
	if err := json.Unmarshal(r.Structured, &out); err != nil || r.IsError {
		t.Fatalf("old key after rekey: isError %v %s (%v)", r.IsError, r.Text, err)
	}
	if out.Key != changKey || out.CiteKey != "citesee" || !strings.HasPrefix(r.Text, "@") || !strings.Contains(r.Text, "{"+changKey+",") {
		t.Errorf("old key: %+v", out)
	}
	r = call(t, cs, "crossmem_cite", map[string]any{"cite_key": "citesee", "format": "apa"})
	if r.IsError || !strings.HasPrefix(r.Text, "Chang, J. C.") {
		t.Errorf("new key: isError %v %q", r.IsError, r.Text)
	}

	bib := filepath.Join(t.TempDir(), "refs.json")
	os.WriteFile(bib, []byte(`[{"id": "knuth1984literate", "type": "article-journal", "title": "Literate Programming",
	  "author": [{"family": "Knuth", "given": "Donald E."}], "container-title": "The Computer Journal",
	  "volume": 27, "issue": 2, "page": "97-111", "issued": {"date-parts": [[1984]]}, "DOI": "10.1093/comjnl/27.2.97"}]`), 0o644)
	if _, err := lib.run(t.Context(), "import", bib); err != nil {
		t.Fatal(err)
	}
	r = call(t, cs, "crossmem_cite", map[string]any{"cite_key": "knuth1984literate", "format": "apa"})
	want := "Knuth, D. E. (1984). Literate Programming. The Computer Journal, 27(2), 97–111. https://doi.org/10.1093/comjnl/27.2.97"
	if r.IsError || r.Text != want {
		t.Errorf("imported entry: isError %v\n got %q\nwant %q", r.IsError, r.Text, want)
	}
	if err := json.Unmarshal(r.Structured, &out); err != nil || len(out.Warnings) == 0 || !strings.Contains(out.Warnings[0], "imported from") {
		t.Errorf("imported entry's warnings: %+v", out.Warnings)
	}
}

func TestCiteInvalidArguments(t *testing.T) {
	cs := connect(t, fixtureLibrary(t))
	for _, tc := range []struct {
		name string
		args map[string]any
		want string // in the error text
	}{
		{"no cite_key", map[string]any{"format": "apa"}, "cite_key"},
		{"cite_key not a string", map[string]any{"cite_key": 42}, "cite_key"},
		{"unknown format", map[string]any{"cite_key": changKey, "format": "harvard"}, "format"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := call(t, cs, "crossmem_cite", tc.args)
			if !r.IsError || !strings.Contains(r.Text, tc.want) {
				t.Errorf("isError %v, text %q; want an error about %s", r.IsError, r.Text, tc.want)
			}
		})
	}
	r := call(t, cs, "crossmem_recall", map[string]any{"limit": 3})
	if !r.IsError || !strings.Contains(r.Text, "query") {
		t.Errorf("recall without query: isError %v, text %q; want an error about query", r.IsError, r.Text)
	}
}

func TestRecall(t *testing.T) {
	lib := fixtureLibrary(t)
	cs := connect(t, lib)
	for _, tc := range []struct{ key, phrase string }{{changKey, changPhrase}, {shenKey, shenPhrase}} {
		t.Run(tc.key, func(t *testing.T) {
			path := lib.notePath(t, tc.key)
			chunks := noteChunks(t, path)
			var holder *chunk // the chunk with the phrase verbatim
			for i := range chunks {
				if strings.Contains(chunks[i].Text, tc.phrase) {
					if holder != nil {
						t.Fatalf("phrase %q is in chunks %s and %s", tc.phrase, holder.ID, chunks[i].ID)
					}
					holder = &chunks[i]
				}
			}
			if holder == nil {
				t.Fatalf("phrase %q is in no chunk of %s", tc.phrase, path)
			}

			hits, _ := recall(t, cs, map[string]any{"query": tc.phrase})
			if len(hits) == 0 || len(hits) > 5 {
				t.Fatalf("got %d results, want 1..5 (default limit)", len(hits))
			}
			first := hits[0]
			if first.CiteKey != tc.key || first.Chunk != holder.ID {
				t.Errorf("first result is [%s] %s, want [%s] %s (the chunk with the phrase)", first.CiteKey, first.Chunk, tc.key, holder.ID)
			}
			if want := fmt.Sprintf("p.%d §%s", holder.Page, holder.Section); holder.Section != "" && first.Section != want {
				t.Errorf("section line = %q, want %q", first.Section, want)
			}
			if !regexp.MustCompile(`^p\.\d+( §.+)?$`).MatchString(first.Section) {
				t.Errorf("section line %q is not p.N §…", first.Section)
			}
			if want := "file://" + filepath.ToSlash(path); first.Link != want {
				t.Errorf("link = %q, want %q", first.Link, want)
			}
			// Every excerpt is verbatim text of its chunk (ellipses aside).
			byID := map[string]chunk{}
			for _, c := range chunks {
				byID[c.ID] = c
			}
			for _, h := range hits {
				if h.CiteKey != tc.key {
					continue
				}
				ex := strings.TrimSuffix(strings.TrimPrefix(h.Excerpt, "..."), "...")
				if c, ok := byID[h.Chunk]; !ok || !strings.Contains(c.Text, ex) {
					t.Errorf("excerpt of %s is not verbatim text of the chunk:\n%s", h.Chunk, h.Excerpt)
				}
			}
		})
	}
}

func TestRecallLimit(t *testing.T) {
	cs := connect(t, fixtureLibrary(t))
	for _, tc := range []struct {
		limit any // nil: not passed
		want  int
	}{{nil, 5}, {3, 3}, {1, 1}, {20, 20}, {21, 20}, {50, 20}, {1000, 20}} {
		t.Run(fmt.Sprint(tc.limit), func(t *testing.T) {
			args := map[string]any{"query": "citations"} // in dozens of chunks
			if tc.limit != nil {
				args["limit"] = tc.limit
			}
			hits, _ := recall(t, cs, args)
			if len(hits) != tc.want {
				t.Errorf("limit %v: %d results, want %d", tc.limit, len(hits), tc.want)
			}
		})
	}
}

func TestRecallNoResults(t *testing.T) {
	cs := connect(t, fixtureLibrary(t))
	for _, q := range []string{"zzqqxx", "zzqqxx qqzzxx", "?!"} {
		r := call(t, cs, "crossmem_recall", map[string]any{"query": q})
		if want := "No results for query: '" + q + "'"; r.IsError || r.Text != want {
			t.Errorf("query %q: isError %v, text %q; want %q", q, r.IsError, r.Text, want)
		}
		if want := `{"query":` + strconv.Quote(q) + `,"results":[]}`; string(r.Structured) != want {
			t.Errorf("query %q: structuredContent %s, want %s", q, r.Structured, want)
		}
	}
}

// TestNoticesChanges: the server sees notes compiled, edited and removed
// after it started, without a restart.
func TestNoticesChanges(t *testing.T) {
	lib := copyLibrary(t, fixtureLibrary(t))
	pdf := corpustest.Dir(t, "pdf", dutotPDF)
	cs := connect(t, lib)

	r := call(t, cs, "crossmem_cite", map[string]any{"cite_key": dutotKey})
	if !r.IsError || !strings.HasPrefix(r.Text, "Error: cite_key '"+dutotKey+"' not found.") {
		t.Fatalf("before compiling %s: isError %v, text %q", dutotKey, r.IsError, r.Text)
	}
	hits, _ := recall(t, cs, map[string]any{"query": dutotPhrase, "limit": 20})
	for _, h := range hits {
		if h.CiteKey == dutotKey {
			t.Fatalf("before compiling: %s found", dutotKey)
		}
	}

	// Compile a new paper into the wiki the server is reading.
	if err := lib.addPaper(t.Context(), pdf, dutotKey); err != nil {
		t.Fatal(err)
	}
	path := lib.notePath(t, dutotKey)
	hits, _ = recall(t, cs, map[string]any{"query": dutotPhrase})
	if len(hits) == 0 || hits[0].CiteKey != dutotKey {
		t.Fatalf("after compiling: first result %+v, want [%s]", hits, dutotKey)
	}
	if want := "file://" + filepath.ToSlash(path); hits[0].Link != want {
		t.Errorf("link = %q, want %q", hits[0].Link, want)
	}
	// Its PDF has no metadata of its own, but its first page names it: the
	// new paper is citable at once.
	r = call(t, cs, "crossmem_cite", map[string]any{"cite_key": dutotKey})
	if r.IsError || !strings.Contains(r.Text, dutotPhrase) || !strings.Contains(r.Text, "Dutot") {
		t.Errorf("after compiling: isError %v, text:\n%s", r.IsError, r.Text)
	}

	// Edit a note in place: the server reads the new content.
	shen := lib.notePath(t, shenKey)
	data, err := os.ReadFile(shen)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(data), "\n> ")
	if i < 0 {
		t.Fatal("note has no blockquote line")
	}
	i += 3
	edited := string(data[:i]) + "zqxjvw " + string(data[i:])
	if err := os.WriteFile(shen, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	// The edited chunk no longer matches its text_sha256: it is withheld,
	// never served, and the answer says why.
	hits, out := recall(t, cs, map[string]any{"query": "zqxjvw"})
	if len(hits) != 0 || len(out.Withheld) != 1 || out.Withheld[0].CiteKey != shenKey {
		t.Errorf("after editing the note: hits %+v, withheld %+v; want no hits and the edited chunk of %s withheld", hits, out.Withheld, shenKey)
	}

	// Remove a note: it is gone.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	hits, _ = recall(t, cs, map[string]any{"query": dutotPhrase, "limit": 20})
	for _, h := range hits {
		if h.CiteKey == dutotKey {
			t.Errorf("after removing the note: %s still found", dutotKey)
		}
	}
}

func TestRecallFiltersAndExplain(t *testing.T) {
	cs := connect(t, fixtureLibrary(t))
	hits, _ := recall(t, cs, map[string]any{"query": "writing tasks", "cite_key": shenKey, "limit": 20})
	if len(hits) == 0 {
		t.Fatal("no results with the cite_key filter")
	}
	for _, h := range hits {
		if h.CiteKey != shenKey {
			t.Errorf("cite_key filter let %s through", h.CiteKey)
		}
	}
	if hits, _ := recall(t, cs, map[string]any{"query": "writing tasks", "year_from": 2030}); len(hits) != 0 {
		t.Errorf("year_from 2030: %d results", len(hits))
	}
	if hits, _ := recall(t, cs, map[string]any{"query": "citations", "author": "Zhang", "limit": 20}); len(hits) == 0 {
		t.Error("author filter found nothing") // Amy X. Zhang is an author of CiteSee
	} else {
		for _, h := range hits {
			if h.CiteKey != changKey {
				t.Errorf("author filter let %s through", h.CiteKey)
			}
		}
	}

	r := call(t, cs, "crossmem_recall", map[string]any{"query": changPhrase, "explain": true})
	if r.IsError {
		t.Fatal(r.Text)
	}
	var out struct {
		Results []struct {
			ChunkID string          `json:"chunk_id"`
			Explain *search.Explain `json:"explain"`
		} `json:"results"`
		Notes []string `json:"notes"`
	}
	if err := json.Unmarshal(r.Structured, &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Results) == 0 || out.Results[0].Explain == nil || !out.Results[0].Explain.Phrase || out.Results[0].Explain.BM25Rank == 0 {
		t.Fatalf("explain of the first result: %+v", out.Results)
	}
	notes := strings.Join(out.Notes, "\n")
	if !strings.Contains(notes, "phrase lane: on") || !strings.Contains(notes, "vector lane: off") {
		t.Errorf("notes: %v", out.Notes)
	}
	if !strings.Contains(r.Text, "\nexplain:\n") || !strings.Contains(r.Text, "phrase=true") {
		t.Errorf("text lacks the explain block:\n%s", r.Text)
	}
}
