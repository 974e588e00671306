package mcpserver_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/crossmem/crossmem/internal/check"
	"github.com/crossmem/crossmem/internal/cite"
	"github.com/crossmem/crossmem/internal/index"
	cmlibrary "github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/mcpserver"
)

// serve starts s over in-memory transports and returns a connected client
// session, closed at cleanup.
func serve(t *testing.T, s *mcpserver.Server) *mcp.ClientSession {
	t.Helper()
	serverT, clientT := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, serverT) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(t.Context(), clientT, nil)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		defer cancel()
		cs.Close()
		select {
		case err := <-done:
			if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, context.Canceled) {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Error("Serve did not return")
		}
	})
	return cs
}

// everyCall is one valid call of each tool.
var everyCall = map[string]map[string]any{
	"crossmem_cite":         {"cite_key": "x2020y"},
	"crossmem_recall":       {"query": "attention"},
	"crossmem_list":         {},
	"crossmem_read":         {"cite_key": "x2020y", "page": 1},
	"crossmem_verify_quote": {"quote": "three words here"},
	"crossmem_check_draft":  {"draft": "A draft \\cite{x2020y}."},
}

// A mistyped CROSSMEM_HOME is not served as an empty library: the
// instructions and every tool say that the folder does not exist.
func TestMissingLibrary(t *testing.T) {
	home := filepath.Join(t.TempDir(), "no-such-library")
	cs := serve(t, &mcpserver.Server{Home: home, Missing: true, Version: "test"})
	if ins := cs.InitializeResult().Instructions; !strings.Contains(ins, home+", which DOES NOT EXIST") {
		t.Errorf("instructions: %q", ins)
	}
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) != len(everyCall) {
		t.Errorf("%d tools, want all %d", len(tools.Tools), len(everyCall))
	}
	for name, args := range everyCall {
		r := call(t, cs, name, args)
		if !r.IsError || !strings.HasPrefix(r.Text, "Error: the library folder "+home+" does not exist") || !strings.Contains(r.Text, "Hint: check CROSSMEM_HOME") {
			t.Errorf("%s: isError %v, text %q", name, r.IsError, r.Text)
		}
		if len(r.Structured) != 0 {
			t.Errorf("%s: an error result with structured content %s", name, r.Structured)
		}
	}
}

// An empty library says so; tools that read text answer with the error.
func TestEmptyLibrary(t *testing.T) {
	home := t.TempDir()
	l, err := cmlibrary.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := index.Open(filepath.Join(home, index.FileName), l.WikiDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	citer := &cite.Citer{Lib: l}
	cs := serve(t, &mcpserver.Server{Citer: citer, Searcher: ix, Checker: &check.Checker{Index: ix, Citer: citer}, Index: ix, Library: l, Home: l.Home, Version: "test"})
	if ins := cs.InitializeResult().Instructions; !strings.Contains(ins, l.Home+", which is EMPTY") {
		t.Errorf("instructions: %q", ins)
	}
	for _, name := range []string{"crossmem_recall", "crossmem_read", "crossmem_verify_quote", "crossmem_check_draft"} {
		r := call(t, cs, name, everyCall[name])
		if !r.IsError || !strings.Contains(r.Text, "has no compiled papers") || len(r.Structured) != 0 {
			t.Errorf("%s: isError %v, text %q, structured %s", name, r.IsError, r.Text, r.Structured)
		}
	}
	if r := call(t, cs, "crossmem_list", map[string]any{}); r.IsError || r.Text != "No papers match." {
		t.Errorf("crossmem_list: %v %q", r.IsError, r.Text)
	}
}

// Error results carry the error's words and no success-shaped structured
// content, whatever failed: arguments, filters, unknown keys.
func TestErrorResultsHaveNoPayload(t *testing.T) {
	cs := connect(t, fixtureLibrary(t))
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"crossmem_cite", map[string]any{"cite_key": "zzqqxx"}},
		{"crossmem_cite", map[string]any{"cite_key": changKey, "format": "harvard"}},
		{"crossmem_recall", map[string]any{"query": "writing", "cite_key": "nosuch2020"}},
		{"crossmem_recall", map[string]any{"query": "writing", "type": "caption"}},
		{"crossmem_recall", map[string]any{"query": "writing", "year_from": 2024, "year_to": 2020}},
		{"crossmem_recall", map[string]any{"query": "writing", "limit": -1}},
		{"crossmem_read", map[string]any{"cite_key": shenKey, "chunk_id": "p9s9c9"}},
		{"crossmem_list", map[string]any{"state": "lost"}},
		{"crossmem_verify_quote", map[string]any{"quote": " "}},
		{"crossmem_check_draft", map[string]any{"draft": "%PDF-1.4 binary"}},
	} {
		r := call(t, cs, c.tool, c.args)
		if !r.IsError || (!strings.HasPrefix(r.Text, "Error: ") && !strings.HasPrefix(r.Text, "validating ")) {
			t.Errorf("%s %v: isError %v, text %q", c.tool, c.args, r.IsError, r.Text)
		}
		if len(r.Structured) != 0 {
			t.Errorf("%s %v: error result with structured content %s", c.tool, c.args, r.Structured)
		}
	}
}

// Each compiled paper is a resource: its served chunks, verbatim, with
// provenance; chunks edited by hand are withheld.
func TestPaperResources(t *testing.T) {
	lib := copyLibrary(t, fixtureLibrary(t))
	if _, err := lib.run(t.Context(), "rekey", changKey, "citesee"); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, lib)
	res, err := cs.ListResources(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range res.Resources {
		uris = append(uris, r.URI)
	}
	if strings.Join(uris, " ") != "crossmem://paper/citesee crossmem://paper/"+shenKey {
		t.Errorf("resources = %v", uris)
	}
	tmpl, err := cs.ListResourceTemplates(t.Context(), nil)
	if err != nil || len(tmpl.ResourceTemplates) != 1 || tmpl.ResourceTemplates[0].URITemplate != "crossmem://paper/{cite_key}" {
		t.Errorf("templates %+v %v", tmpl, err)
	}
	read := func(uri string) (string, error) {
		r, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			return "", err
		}
		if len(r.Contents) != 1 || r.Contents[0].MIMEType != "text/markdown" {
			t.Fatalf("%s: contents %+v", uri, r.Contents)
		}
		return r.Contents[0].Text, nil
	}
	text, err := read("crossmem://paper/" + shenKey)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(text, "# Beyond Summarization") || !strings.Contains(text, " semi-automate cognitively-demanding\n") ||
		!regexp.MustCompile(`<!-- chunk p1s\d+c\d+ paragraph p\. 1 \(PDF page 1\) .* text_sha256=[0-9a-f]{64} -->`).MatchString(text) {
		t.Errorf("resource text:\n%.600s", text)
	}
	// By the template, for a key not listed (an alias); an unknown key is
	// not found.
	if text, err := read("crossmem://paper/" + changKey); err != nil || !strings.Contains(text, "cite_key: citesee") {
		t.Errorf("alias: %v", err)
	}
	if _, err := read("crossmem://paper/nosuch2020"); err == nil {
		t.Error("unknown key: no error")
	}
	// An edited chunk is withheld from the resource.
	path := lib.notePath(t, shenKey)
	data, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(data), "semi-automate cognitively-demanding", "fully automate cognitively-demanding", 1)), 0o644)
	text, err = read("crossmem://paper/" + shenKey)
	if err != nil || strings.Contains(text, "fully automate") || strings.Contains(text, "semi-automate cognitively") || !strings.Contains(text, "Withheld (edited by hand in the note, never served): p1s1c") {
		t.Errorf("after the edit (%v):\n%.800s", err, text)
	}
}
