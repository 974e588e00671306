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
		{"crossmem_check_draft", `{"draft": "%PDF-1.5\n%âãÏÓ\n1 0 obj"}`},
		{"crossmem_check_draft", `{"draft": "As \\citet[p.~9]{chang2023citesee} write, it ` + "``" + changPhrase + `''.", "strict": true}`},
		{"crossmem_verify_quote", `{"quote": "` + changPhrase + `", "cite_key": "chang2023citesee", "page": "1"}`},
		{"crossmem_verify_quote", `{"quote": "` + changPhrase + `", "cite_key": "chang2023citesee", "page": "pp. 3-4"}`},
		{"crossmem_verify_quote", `{"quote": "the paper"}`},
		{"crossmem_recall", `{"query": "writing", "cite_key": "shen2023summ"}`},
		{"crossmem_recall", `{"query": "writing", "type": "caption"}`},
		{"crossmem_recall", `{"query": "writing", "year_from": 2024, "year_to": 2020}`},
		{"crossmem_read", `{"cite_key": "shen2023summarization", "chunk_id": "p1s1c2"}`},
		{"crossmem_read", `{"cite_key": "shen2023summarization", "section": "characterizing"}`},
		{"crossmem_read", `{"cite_key": "shen2023summarization", "page": 9}`},
		{"crossmem_read", `{"cite_key": "shen2023summarization", "chunk_id": "p9s9c9"}`},
		{"crossmem_read", `{"cite_key": "shen2023summarization"}`},
		{"crossmem_read", `{"cite_key": "shen2023summ", "page": 1}`},
		{"crossmem_list", `{}`},
		{"crossmem_list", `{"author": "sontag", "year_from": 2020}`},
		{"crossmem_list", `{"state": "compiled", "query": "zzqqxx"}`},
		{"crossmem_list", `{"year_from": 2024, "year_to": 2020}`},
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
