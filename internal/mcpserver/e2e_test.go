// End-to-end tests of the built binary: `crossmem mcp serve` over real
// stdio, spoken to in raw JSON-RPC frames and by the official MCP
// TypeScript client (test/mcp-e2e/client.mjs).
package mcpserver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crossmem/crossmem/internal/cli"
	"github.com/crossmem/crossmem/internal/corpustest"
)

// buildBinary builds cmd/crossmem once for the package's tests.
func buildBinary(t *testing.T) string { return corpustest.Binary(t) }

// processEnv is this process's environment without crossmem's variables,
// plus the library's (and extra, "K=V").
func (l library) processEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CROSSMEM_") && !strings.HasPrefix(kv, "OLLAMA_") {
			env = append(env, kv)
		}
	}
	for k, v := range l.env() {
		env = append(env, k+"="+v)
	}
	return append(env, extra...)
}

// runBinary runs the built crossmem on the library and returns its stdout.
func (l library) runBinary(t *testing.T, bin string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), bin, args...)
	cmd.Env = l.processEnv()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("crossmem %s: %v\nstderr:\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}

// TestServeStdout speaks raw JSON-RPC to `crossmem mcp serve` over its
// stdin/stdout: every stdout line is a JSON-RPC 2.0 frame, logs go to
// stderr, and closing stdin is a clean shutdown (exit 0).
func TestServeStdout(t *testing.T) {
	corpustest.Slow(t, "builds cmd/crossmem")
	lib := copyLibrary(t, fixtureLibrary(t))
	bin := buildBinary(t)
	// A .md file that is not a note: the server logs a warning (to stderr)
	// and serves the others.
	if err := os.WriteFile(filepath.Join(lib.wikiDir(), "README.md"), []byte("# Not a note\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "mcp", "serve")
	cmd.Env = lib.processEnv("CROSSMEM_LOG=info")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer // read only after Wait
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()

	var all []string // every stdout line, in order
	type frame struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  string          `json:"method"`
		Result  json.RawMessage `json:"result"`
		Error   *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	send := func(msg string) {
		t.Helper()
		if _, err := io.WriteString(stdin, msg+"\n"); err != nil {
			t.Fatalf("writing %s: %v", msg, err)
		}
	}
	// await reads stdout until the response to id. Stdin stays open until
	// every reply has arrived (go-sdk#1061: a reply to a request sent just
	// before stdin closes can be lost).
	await := func(id int) frame {
		t.Helper()
		for {
			select {
			case line, ok := <-lines:
				if !ok {
					cancel()
					_ = cmd.Wait()
					t.Fatalf("stdout closed before the response to id %d; stderr:\n%s", id, stderr.String())
				}
				all = append(all, line)
				var f frame
				if err := json.Unmarshal([]byte(line), &f); err != nil {
					continue // reported below with every other line
				}
				if string(f.ID) == fmt.Sprint(id) && f.Method == "" {
					return f
				}
			case <-ctx.Done():
				t.Fatalf("no response to id %d", id)
			}
		}
	}
	request := func(id int, method, params string) frame {
		t.Helper()
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params))
		return await(id)
	}

	f := request(1, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw-test","version":"0"}}`)
	var init struct {
		ServerInfo struct{ Name, Version string } `json:"serverInfo"`
	}
	if f.Error != nil || json.Unmarshal(f.Result, &init) != nil || init.ServerInfo.Name != "crossmem" || init.ServerInfo.Version != cli.Version {
		t.Errorf("initialize: result %s, error %+v", f.Result, f.Error)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	f = request(2, "tools/list", `{}`)
	if f.Error != nil || !strings.Contains(string(f.Result), `"crossmem_cite"`) || !strings.Contains(string(f.Result), `"crossmem_recall"`) {
		t.Errorf("tools/list: result %.300s, error %+v", f.Result, f.Error)
	}

	type toolResult struct {
		IsError bool `json:"isError"`
		Content []struct{ Type, Text string }
	}
	tool := func(id int, name, args string) toolResult {
		t.Helper()
		f := request(id, "tools/call", fmt.Sprintf(`{"name":%q,"arguments":%s}`, name, args))
		var r toolResult
		if f.Error != nil || json.Unmarshal(f.Result, &r) != nil || len(r.Content) != 1 {
			t.Fatalf("tools/call %s %s: result %.300s, error %+v", name, args, f.Result, f.Error)
		}
		return r
	}
	r := tool(3, "crossmem_cite", `{"cite_key":"`+changKey+`","format":"apa"}`)
	if want := noteCitations(t, lib.notePath(t, changKey))["APA"]; r.IsError || r.Content[0].Text != want {
		t.Errorf("crossmem_cite apa: isError %v, text %q, want %q", r.IsError, r.Content[0].Text, want)
	}
	r = tool(4, "crossmem_recall", `{"query":"`+changPhrase+`","limit":2}`)
	if r.IsError || !strings.HasPrefix(r.Content[0].Text, "1. ["+changKey+"] ") {
		t.Errorf("crossmem_recall: isError %v, text %.300s", r.IsError, r.Content[0].Text)
	}
	r = tool(5, "crossmem_cite", `{"cite_key":"chang2023"}`)
	if !r.IsError || !strings.Contains(r.Content[0].Text, "Did you mean:\n- "+changKey+" — ") {
		t.Errorf("crossmem_cite unknown key: isError %v, text %q", r.IsError, r.Content[0].Text)
	}
	if f := request(6, "crossmem/no-such-method", `{}`); f.Error == nil || f.Error.Code != -32601 {
		t.Errorf("unknown method: want JSON-RPC error -32601 (method not found), got result %s, error %+v", f.Result, f.Error)
	}

	// Every reply has arrived: end the session.
	if err := stdin.Close(); err != nil {
		t.Fatal(err)
	}
	for line := range lines {
		all = append(all, line)
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("mcp serve did not exit after stdin closed; stderr:\n%s", stderr.String())
	case errors.As(err, &ee):
		t.Errorf("mcp serve exited with %d after stdin closed, want 0; stderr:\n%s", ee.ExitCode(), stderr.String())
	case err != nil:
		t.Fatal(err)
	}

	for i, line := range all {
		var f frame
		if err := json.Unmarshal([]byte(line), &f); err != nil || f.JSONRPC != "2.0" {
			t.Errorf("stdout line %d is not a JSON-RPC 2.0 frame: %q", i+1, line)
		}
	}
	if len(all) < 6 {
		t.Errorf("stdout has %d lines, want at least the 6 responses", len(all))
	}
	logs := stderr.String()
	for _, want := range []string{"crossmem MCP server ready", "skipping unreadable wiki note", "README.md"} {
		if !strings.Contains(logs, want) {
			t.Errorf("stderr lacks %q; stderr:\n%s", want, logs)
		}
	}
}

// e2eOutput is what test/mcp-e2e/client.mjs prints.
type e2eOutput struct {
	OK       bool                       `json:"ok"`
	Failures []string                   `json:"failures"`
	Steps    map[string]json.RawMessage `json:"steps"`
}

// s2orcKey is pm_2020.acl-main.447.pdf: 15 pages, printed page numbers
// 4969-4983 in its footers (no page labels), and the sentence of issue 13,
// "Yet, existing corpora are not without their limi-\ntations.", on page 2.
const (
	s2orcKey = "lo2020s2orc"
	s2orcPDF = "pm_2020.acl-main.447.pdf"
)

// TestTypeScriptClient runs the agent scenario of test/mcp-e2e/client.mjs
// with the official MCP TypeScript client against the built binary serving
// a library prepared by the binary itself: recall → read the full chunk →
// quote it in a LaTeX and a markdown draft → check_draft ok → cite → bib;
// then the note is edited by hand, and the edited text must never be
// verified, repaired or returned as a source, with every answer saying
// why.
func TestTypeScriptClient(t *testing.T) {
	corpustest.Slow(t, "builds cmd/crossmem and runs node")
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH: this end-to-end test runs the official MCP TypeScript client (Node 20+; then run npm ci in test/mcp-e2e)")
	}
	dir := filepath.Join(corpustest.Root(t), "test", "mcp-e2e")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		t.Skipf("test/mcp-e2e/node_modules is missing the MCP TypeScript SDK: run npm ci in test/mcp-e2e (%v)", err)
	}
	bin := buildBinary(t)
	lib := library{Home: filepath.Join(t.TempDir(), "home")}
	for key, pdf := range map[string]string{changKey: changPDF, s2orcKey: s2orcPDF} {
		if out := lib.runBinary(t, bin, "capture", corpustest.Dir(t, "pdf", pdf), "--cite-key", key); !strings.Contains(out, "cite_key: "+key) {
			t.Fatalf("capture printed %q, want cite_key: %s", out, key)
		}
		lib.runBinary(t, bin, "compile", key, "--no-llm")
	}

	ctx, cancel := context.WithTimeout(t.Context(), 120*time.Second)
	defer cancel()
	work := t.TempDir()
	cmd := exec.CommandContext(ctx, node, filepath.Join(dir, "client.mjs"), bin, work)
	cmd.Dir = dir
	cmd.Env = lib.processEnv()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	var got e2eOutput
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("client.mjs: %v; stdout is not one JSON object (%v):\n%s\nstderr:\n%s", runErr, err, stdout.String(), stderr.String())
	}
	if runErr != nil || !got.OK || len(got.Failures) > 0 {
		t.Errorf("client.mjs: %v, ok=%v, failures:\n%s\nstderr:\n%s", runErr, got.OK, strings.Join(got.Failures, "\n"), stderr.String())
	}
	// The scenario ran to its end, and wrote the bibliography.
	for _, step := range []string{"read", "check_latex", "check_markdown", "bib", "after_edit_verify_edited", "after_edit_recall", "after_edit_read", "after_edit_check_latex"} {
		if _, ok := got.Steps[step]; !ok {
			t.Errorf("client.mjs did not reach step %s", step)
		}
	}
	if data, err := os.ReadFile(filepath.Join(work, "refs.bib")); err != nil || !bytes.Contains(data, []byte("{"+s2orcKey+",")) {
		t.Errorf("refs.bib: %v\n%s", err, data)
	}
}
