package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crossmem/crossmem/internal/check"
	"github.com/crossmem/crossmem/internal/cite"
	"github.com/crossmem/crossmem/internal/index"
	cmlibrary "github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/mcpserver"
	"github.com/crossmem/crossmem/internal/mcpserver/mcptest"
)

// serveRaw starts the server on lib over mcpserver.Transport on pipes and
// returns a raw client, initialized. done receives Serve's result.
func serveRaw(t *testing.T, lib library, s *mcpserver.Server) (*mcptest.Client, chan error) {
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
	citer := &cite.Citer{Lib: l}
	s.Citer, s.Searcher, s.Checker, s.Version = citer, ix, &check.Checker{Index: ix, Citer: citer}, "test"
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- s.Serve(ctx, &mcpserver.Transport{Reader: inR, Writer: outW, Logger: slog.New(slog.DiscardHandler)})
		outW.Close()
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Errorf("Serve did not return within 5s of its input ending")
		}
		cancel()
	})
	c := mcptest.NewClient(outR, inW)
	if err := c.Initialize(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	return c, done
}

// citeProbe is a valid crossmem_cite call whose answer must be the
// citation of changKey.
func citeProbe(i int) ([]byte, string, func(mcptest.Frame) string) {
	id := fmt.Sprintf(`"probe-%d"`, i)
	line := []byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"crossmem_cite","arguments":{"cite_key":"` + changKey + `"}}}`)
	return line, id, func(f mcptest.Frame) string {
		var r struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		}
		if f.Error != nil || json.Unmarshal(f.Result, &r) != nil || r.IsError || len(r.Content) == 0 || !strings.Contains(r.Content[0].Text, "@") || !strings.Contains(r.Content[0].Text, changKey) {
			return "want the BibTeX entry of " + changKey + ", got " + string(f.Raw)
		}
		return ""
	}
}

// TestTransportMalformed sends every fixed malformed message and random
// mutations of valid ones, each followed by a valid call: each gets the
// JSON-RPC error it is owed and the server answers the valid call after
// it. test/reliability runs the same against the binary.
func TestTransportMalformed(t *testing.T) {
	lib := fixtureLibrary(t)
	c, done := serveRaw(t, lib, &mcpserver.Server{})
	n := 1000
	if testing.Short() {
		n = len(mcptest.Fixed())
	}
	for i, k := range mcptest.Malformed(n, 1) {
		probe, id, check := citeProbe(i)
		if err := c.Check(k, probe, id, check, 10*time.Second); err != nil {
			select {
			case err := <-done:
				t.Fatalf("%s (%.80q): the server ended: %v", k.Name, k.Line, err)
			default:
			}
			t.Errorf("%s (%.80q): %v", k.Name, k.Line, err)
		}
	}
}

// TestArgumentLimits: arguments over their limits get a tool error that
// names the limit.
func TestArgumentLimits(t *testing.T) {
	lib := fixtureLibrary(t)
	cs := connect(t, lib)
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"crossmem_cite", map[string]any{"cite_key": strings.Repeat("k", mcpserver.MaxKeyChars+1)}, "cite_key has 257 characters; the limit is 256"},
		{"crossmem_recall", map[string]any{"query": strings.Repeat("word ", 1000)}, "query has 5000 characters; the limit is 4000"},
		{"crossmem_recall", map[string]any{"query": strings.Repeat("a* ", 9)}, ""},
		{"crossmem_recall", map[string]any{"query": "a* b* c* d* e* f* g* h* i*"}, "query has 9 prefix terms (word*); the limit is 8"},
		{"crossmem_verify_quote", map[string]any{"quote": strings.Repeat("q", mcpserver.MaxQuoteChars+1)}, "quote has 20001 characters; the limit is 20000"},
		{"crossmem_check_draft", map[string]any{"draft": strings.Repeat("d", mcpserver.MaxDraftBytes+1)}, "draft has 4194305 bytes; the limit is 4194304"},
	} {
		r := call(t, cs, tc.tool, tc.args)
		if tc.want == "" {
			if r.IsError {
				t.Errorf("%s: %s", tc.tool, r.Text)
			}
			continue
		}
		if !r.IsError || !strings.Contains(r.Text, tc.want) {
			t.Errorf("%s: want a tool error %q, got %+v", tc.tool, tc.want, r)
		}
	}
}

// TestCallTimeout: a call that outlives CallTimeout is answered with a
// tool error, and the server goes on.
func TestCallTimeout(t *testing.T) {
	lib := fixtureLibrary(t)
	s := &mcpserver.Server{CallTimeout: time.Nanosecond}
	c, _ := serveRaw(t, lib, s)
	s.BeforeSearch = func(ctx context.Context) { <-ctx.Done() }
	if err := c.Send([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"crossmem_recall","arguments":{"query":"citations"}}}`)); err != nil {
		t.Fatal(err)
	}
	f, _, err := c.Until("1", 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(f.Result), `"isError":true`) || !strings.Contains(string(f.Result), "did not finish within") {
		t.Errorf("want a tool error about the deadline, got %s", f.Raw)
	}
	if err := c.Send([]byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)); err != nil {
		t.Fatal(err)
	}
	if f, _, err := c.Until("2", 10*time.Second); err != nil || f.Error != nil {
		t.Fatalf("tools/list after the timeout: %v %s", err, f.Raw)
	}
}

// TestPanicRecovered: a handler that panics (here: a server without a
// library) answers -32603 and the session goes on.
func TestPanicRecovered(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		s := &mcpserver.Server{Version: "test"}
		done <- s.Serve(context.Background(), &mcpserver.Transport{Reader: inR, Writer: outW, Logger: slog.New(slog.DiscardHandler)})
		outW.Close()
	}()
	defer func() {
		inW.Close()
		<-done
	}()
	old := slog.Default()
	slog.SetDefault(slog.New(slog.DiscardHandler))
	defer slog.SetDefault(old)
	c := mcptest.NewClient(outR, inW)
	if err := c.Initialize(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		id := fmt.Sprint(i + 1)
		if err := c.Send([]byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"crossmem_cite","arguments":{"cite_key":"x"}}}`)); err != nil {
			t.Fatal(err)
		}
		f, _, err := c.Until(id, 10*time.Second)
		if err != nil {
			t.Fatalf("call %s: %v", id, err)
		}
		if f.Error == nil || f.Error.Code != mcptest.InternalError || !strings.Contains(f.Error.Message, "internal error in crossmem") {
			t.Errorf("call %s: want -32603, got %s", id, f.Raw)
		}
	}
}
