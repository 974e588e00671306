package mcpserver_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/golden"
)

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
	golden.Check(t, filepath.Join("testdata", "messages.golden"), got)
}
