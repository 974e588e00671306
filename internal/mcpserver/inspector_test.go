package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/mcpserver/mcptest"
)

// inspector returns the MCP Inspector's command (test/mcp-e2e's
// node_modules/.bin/mcp-inspector), or skips.
func inspector(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not on PATH: this test runs the MCP Inspector CLI (then run npm ci in test/mcp-e2e)")
	}
	bin := filepath.Join(corpustest.Root(t), "test", "mcp-e2e", "node_modules", ".bin", "mcp-inspector")
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("the MCP Inspector is not installed: run npm ci in test/mcp-e2e (%v)", err)
	}
	return bin
}

// TestInspectorCLI runs the official MCP Inspector's CLI (npx
// @modelcontextprotocol/inspector --cli) against the built binary: it lists
// the tools with their annotations (and its schema portability check
// finds no error), and calls each tool.
func TestInspectorCLI(t *testing.T) {
	insp := inspector(t)
	bin := buildBinary(t)
	lib := copyLibrary(t, fixtureLibrary(t))
	var envArgs []string
	env := lib.env()
	for _, k := range slices.Sorted(maps.Keys(env)) {
		envArgs = append(envArgs, "-e", k+"="+env[k])
	}
	run := func(method string, extra ...string) ([]byte, string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
		defer cancel()
		args := append([]string{"--cli", bin, "mcp", "serve"}, envArgs...)
		args = append(append(args, "--method", method), extra...)
		cmd := exec.CommandContext(ctx, insp, args...)
		// The inspector keeps a catalog of servers; not in the user's home.
		cmd.Env = append(os.Environ(), "MCP_CATALOG_PATH="+filepath.Join(t.TempDir(), "catalog.json"))
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("mcp-inspector %s %v: %v\nstdout:\n%.2000s\nstderr:\n%.2000s", method, extra, err, stdout.String(), stderr.String())
		}
		return stdout.Bytes(), stderr.String()
	}

	// tools/list, with the Inspector's schema portability check (--strict
	// exits 6 on an error-severity finding).
	out, warnings := run("tools/list", "--strict")
	var list struct {
		Tools []struct {
			Name        string `json:"name"`
			Annotations struct {
				Title           string `json:"title"`
				ReadOnlyHint    *bool  `json:"readOnlyHint"`
				IdempotentHint  *bool  `json:"idempotentHint"`
				DestructiveHint *bool  `json:"destructiveHint"`
				OpenWorldHint   *bool  `json:"openWorldHint"`
			} `json:"annotations"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(out, &list); err != nil {
		t.Fatalf("tools/list: %v\n%s", err, out)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		a := tool.Annotations
		if a.Title == "" || a.ReadOnlyHint == nil || !*a.ReadOnlyHint || a.IdempotentHint == nil || !*a.IdempotentHint ||
			a.DestructiveHint == nil || *a.DestructiveHint || a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("%s: annotations %+v", tool.Name, a)
		}
	}
	if got := strings.Join(names, " "); got != "crossmem_check_draft crossmem_cite crossmem_list crossmem_read crossmem_recall crossmem_verify_quote" {
		t.Errorf("tools = %s", got)
	}
	t.Logf("the Inspector's portability check: %d warnings (nullable output fields), no error", strings.Count(warnings, "Warning: tool"))

	// The papers as resources.
	out, _ = run("resources/list")
	if !bytes.Contains(out, []byte(`"uri": "crossmem://paper/`+shenKey+`"`)) {
		t.Errorf("resources/list:\n%.1000s", out)
	}
	out, _ = run("resources/read", "--uri", "crossmem://paper/"+shenKey)
	if !bytes.Contains(out, []byte(`"mimeType": "text/markdown"`)) || !bytes.Contains(out, []byte("cite_key: "+shenKey)) {
		t.Errorf("resources/read:\n%.1000s", out)
	}

	// Each tool, called as the Inspector's user would.
	type result struct {
		IsError bool `json:"isError"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		Structured json.RawMessage `json:"structuredContent"`
	}
	for _, c := range []struct {
		tool string
		args []string
		want string // in the text
	}{
		{"crossmem_cite", []string{"cite_key=" + shenKey, "format=apa"}, "Shen, Z."},
		{"crossmem_recall", []string{"query=" + shenPhrase, "limit=2"}, "1. [" + shenKey + "]"},
		{"crossmem_list", nil, "2 paper(s)"},
		{"crossmem_read", []string{"cite_key=" + shenKey, "page=1"}, "chunk p1"},
		{"crossmem_verify_quote", []string{"quote=" + shenPhrase, "cite_key=" + shenKey}, "verified (cites " + shenKey + ")"},
		{"crossmem_check_draft", []string{"draft=They want to ``" + shenPhrase + "'' \\citep[p.~1]{" + shenKey + "}.", "format=latex"}, "draft.tex: OK — 1 quotations (1 verified)"},
	} {
		args := []string{"--tool-name", c.tool}
		if len(c.args) > 0 {
			args = append(append(args, "--tool-arg"), c.args...)
		}
		out, _ := run("tools/call", args...)
		var r result
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatalf("%s: %v\n%s", c.tool, err, out)
		}
		if r.IsError || len(r.Content) == 0 || !strings.Contains(r.Content[0].Text, c.want) || len(r.Structured) == 0 {
			t.Errorf("%s %v: isError %v, text %.300q, want %q and structured content", c.tool, c.args, r.IsError, firstText(r.Content), c.want)
		}
	}
}

func firstText(cs []struct {
	Text string `json:"text"`
}) string {
	if len(cs) == 0 {
		return ""
	}
	return cs[0].Text
}

// malformedCalls are tools/call requests that must fail, one per argument
// of each tool and wrong kind of value, plus the calls no tool can take:
// unknown tools, arguments that are not an object, unknown arguments,
// missing required ones, values over their limits. Schemas come from the
// server's own tools/list.
func malformedCalls(t *testing.T, tools []toolSchema) []string {
	t.Helper()
	wrong := map[string][]string{
		"string":  {`1`, `true`, `[]`, `{}`, `null`, `1.5`, `["a"]`},
		"integer": {`"1"`, `true`, `[]`, `{}`, `null`, `1.5`, `"x"`},
		"boolean": {`"true"`, `1`, `[]`, `{}`, `null`, `"x"`},
	}
	var calls []string
	add := func(name, args string) {
		calls = append(calls, fmt.Sprintf(`{"name":%q,"arguments":%s}`, name, args))
	}
	for _, tool := range tools {
		valid := map[string]string{}
		for _, r := range tool.Required {
			valid[r] = `"x"`
		}
		obj := func(k, v string) string {
			m := map[string]json.RawMessage{}
			for rk, rv := range valid {
				m[rk] = json.RawMessage(rv)
			}
			m[k] = json.RawMessage(v)
			b, _ := json.Marshal(m)
			return string(b)
		}
		for prop, p := range tool.Properties {
			for _, v := range wrong[p.Type] {
				add(tool.Name, obj(prop, v))
			}
			if len(p.Enum) > 0 {
				add(tool.Name, obj(prop, `"no-such-value"`))
			}
			if p.Type == "string" {
				add(tool.Name, obj(prop, `"`+strings.Repeat("k", 5<<20)+`"`)) // over every limit
			}
		}
		add(tool.Name, obj("no_such_argument", `"x"`))
		add(tool.Name, `[]`)
		add(tool.Name, `"arguments"`)
		add(tool.Name, `42`)
		if len(tool.Required) > 0 {
			add(tool.Name, `{}`)
		}
	}
	for _, name := range []string{"crossmem_nosuch", "", "CROSSMEM_CITE", "crossmem_cite "} {
		add(name, `{}`)
	}
	return calls
}

type toolSchema struct {
	Name       string   `json:"name"`
	Required   []string `json:"-"`
	Properties map[string]struct {
		Type string `json:"type"`
		Enum []any  `json:"enum"`
	} `json:"-"`
	InputSchema struct {
		Required   []string `json:"required"`
		Properties map[string]struct {
			Type string `json:"type"`
			Enum []any  `json:"enum"`
		} `json:"properties"`
	} `json:"inputSchema"`
}

// TestMalformedToolCalls sends over 200 malformed tools/call requests to
// the built binary over stdio: each is answered with isError or a
// JSON-RPC error, a valid call after each is answered correctly, and the
// server stays up to a clean exit.
func TestMalformedToolCalls(t *testing.T) {
	bin := buildBinary(t)
	lib := copyLibrary(t, fixtureLibrary(t))
	ctx, cancel := context.WithTimeout(t.Context(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "mcp", "serve")
	cmd.Env = lib.processEnv()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := mcptest.NewClient(stdout, stdin)
	if err := c.Initialize(30 * time.Second); err != nil {
		t.Fatal(err)
	}
	if err := c.Send([]byte(`{"jsonrpc":"2.0","id":"list","method":"tools/list"}`)); err != nil {
		t.Fatal(err)
	}
	f, _, err := c.Until(`"list"`, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Tools []toolSchema `json:"tools"`
	}
	if err := json.Unmarshal(f.Result, &list); err != nil || len(list.Tools) != 6 {
		t.Fatalf("tools/list: %v %s", err, f.Raw)
	}
	for i := range list.Tools {
		list.Tools[i].Required = list.Tools[i].InputSchema.Required
		list.Tools[i].Properties = list.Tools[i].InputSchema.Properties
	}
	calls := malformedCalls(t, list.Tools)
	if len(calls) < 200 {
		t.Fatalf("%d malformed calls, want at least 200", len(calls))
	}
	toolErrors, protocolErrors := 0, 0
	for i, params := range calls {
		id := fmt.Sprintf(`"bad-%d"`, i)
		if err := c.Send([]byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":` + params + `}`)); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		f, _, err := c.Until(id, 30*time.Second)
		if err != nil {
			t.Fatalf("call %d (%.200s): %v\nstderr:\n%s", i, params, err, stderr.String())
		}
		var r struct {
			IsError    bool            `json:"isError"`
			Structured json.RawMessage `json:"structuredContent"`
		}
		switch {
		case f.Error != nil:
			protocolErrors++
		case json.Unmarshal(f.Result, &r) == nil && r.IsError && len(r.Structured) == 0:
			toolErrors++
		default:
			t.Errorf("call %d (%.200s) was not refused: %.300s", i, params, f.Raw)
		}
		// The valid call after it.
		if i%10 == 0 {
			probe := fmt.Sprintf(`"probe-%d"`, i)
			c.Send([]byte(`{"jsonrpc":"2.0","id":` + probe + `,"method":"tools/call","params":{"name":"crossmem_cite","arguments":{"cite_key":"` + shenKey + `","format":"apa"}}}`))
			f, _, err := c.Until(probe, 30*time.Second)
			if err != nil || f.Error != nil || !strings.Contains(string(f.Result), "Shen, Z.") {
				t.Fatalf("valid call after call %d: %v %s", i, err, f.Raw)
			}
		}
	}
	t.Logf("%d malformed tools/call requests: %d tool errors (isError), %d JSON-RPC errors", len(calls), toolErrors, protocolErrors)
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("mcp serve did not exit cleanly after the malformed calls: %v\nstderr:\n%s", err, stderr.String())
	}
}

// TestMistypedHome starts the built binary with a CROSSMEM_HOME that does
// not exist: the server starts, its instructions and every tool say that
// the folder does not exist, and the folder is not created.
func TestMistypedHome(t *testing.T) {
	bin := buildBinary(t)
	lib := library{Home: filepath.Join(t.TempDir(), "crossmen")} // a typo
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "mcp", "serve")
	// The configuration lives elsewhere (~/.crossmem), as it does outside
	// tests: creating it must not create the library.
	cmd.Env = lib.processEnv("CROSSMEM_CONFIG=" + filepath.Join(t.TempDir(), "config.toml"))
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := mcptest.NewClient(stdout, stdin)
	c.Send([]byte(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`))
	f, _, err := c.Until(`"init"`, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var init struct {
		Instructions string `json:"instructions"`
	}
	if json.Unmarshal(f.Result, &init) != nil || !strings.Contains(init.Instructions, lib.Home+", which DOES NOT EXIST") {
		t.Errorf("instructions: %s", f.Result)
	}
	c.Send([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	c.Send([]byte(`{"jsonrpc":"2.0","id":"r","method":"tools/call","params":{"name":"crossmem_recall","arguments":{"query":"attention"}}}`))
	f, _, err = c.Until(`"r"`, 30*time.Second)
	if err != nil || !strings.Contains(string(f.Result), `"isError":true`) || !strings.Contains(string(f.Result), "does not exist") {
		t.Errorf("recall: %v %s", err, f.Raw)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("exit: %v\n%s", err, stderr.String())
	}
	if _, err := os.Stat(lib.Home); err == nil {
		t.Errorf("mcp serve created %s", lib.Home)
	}
	if !strings.Contains(stderr.String(), "the library folder does not exist") {
		t.Errorf("stderr does not warn: %s", stderr.String())
	}
}
