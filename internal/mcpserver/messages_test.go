package mcpserver_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/messages.golden from this run")

// TestToolMessages calls every tool with ordinary and failing arguments and
// compares what the agent reads (isError and the text content) with
// testdata/messages.golden: the record of the tools' wording (go test
// ./internal/mcpserver -run TestToolMessages -update rewrites it).
func TestToolMessages(t *testing.T) {
	lib := copyLibrary(t, fixtureLibrary(t))
	if _, err := lib.run(t.Context(), "rekey", changKey, "citesee"); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, lib)
	calls := []struct {
		tool string
		args string // JSON
	}{
		{"crossmem_cite", `{"cite_key": "shen2023summarization", "format": "apa"}`},
		{"crossmem_cite", `{"cite_key": "chang2023citesee", "format": "ieee"}`},
		{"crossmem_cite", `{"cite_key": "shen2023summ"}`},
		{"crossmem_cite", `{"cite_key": "zzqqxx"}`},
		{"crossmem_cite", `{"cite_key": "shen2023summarization", "format": "harvard"}`},
		{"crossmem_cite", `{"format": "apa"}`},
		{"crossmem_recall", `{"query": "expository writing support", "limit": 2}`},
		{"crossmem_recall", `{"query": "zzyzxqq"}`},
		{"crossmem_recall", `{"query": "expository writing", "limit": 1, "explain": true}`},
		{"crossmem_verify_quote", `{"quote": "` + shenPhrase + `", "cite_key": "shen2023summarization"}`},
		{"crossmem_verify_quote", `{"quote": "` + changPhrase + `"}`},
		{"crossmem_verify_quote", `{"quote": "Citation tools make every researcher twice as productive", "cite_key": "nosuchkey2020"}`},
		{"crossmem_verify_quote", `{"quote": "  "}`},
		{"crossmem_check_draft", `{"draft": "As \\citet{chang2023citesee} write, it ` + "``" + changPhrase + `''; see \\cite{shen2023summ}."}`},
		{"crossmem_check_draft", `{"draft": "x", "format": "rtf"}`},
		{"crossmem_check_draft", `{"draft": ""}`},
	}
	var b strings.Builder
	for _, c := range calls {
		var args map[string]any
		if err := json.Unmarshal([]byte(c.args), &args); err != nil {
			t.Fatalf("%s: %v", c.args, err)
		}
		r := call(t, cs, c.tool, args)
		fmt.Fprintf(&b, "> %s %s\n[isError %v]\n%s\n\n", c.tool, c.args, r.IsError, r.Text)
	}
	got := regexp.MustCompile(`\b1\d{9}_`).ReplaceAllString(strings.ReplaceAll(b.String(), lib.Home, "$HOME"), "<ts>_")
	golden := filepath.Join("testdata", "messages.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/mcpserver -run TestToolMessages -update)", err)
	}
	if got != string(want) {
		w, g := strings.Split(string(want), "\n"), strings.Split(got, "\n")
		for i := 0; i < max(len(w), len(g)); i++ {
			var wl, gl string
			if i < len(w) {
				wl = w[i]
			}
			if i < len(g) {
				gl = g[i]
			}
			if wl != gl {
				t.Errorf("line %d:\n  - %s\n  + %s", i+1, wl, gl)
			}
		}
		t.Errorf("the tool messages changed (rerun with -update to accept)")
	}
}
