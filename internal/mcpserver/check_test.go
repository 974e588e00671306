package mcpserver_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/check"
	cmlibrary "github.com/crossmem/crossmem/internal/library"
)

// holder returns the chunk of key's note whose text holds phrase.
func holder(t *testing.T, lib library, key, phrase string) chunk {
	t.Helper()
	for _, c := range noteChunks(t, lib.notePath(t, key)) {
		if strings.Contains(c.Text, phrase) {
			return c
		}
	}
	t.Fatalf("%q is in no chunk of %s", phrase, key)
	return chunk{}
}

func TestVerifyQuote(t *testing.T) {
	lib := fixtureLibrary(t)
	cs := connect(t, lib)
	changChunk := holder(t, lib, changKey, changPhrase)
	shenChunk := holder(t, lib, shenKey, shenPhrase)
	for _, tc := range []struct {
		name, quote, key string
		status           string
		source           string // cite key of the source; "" = none
		chunk            chunk
		sourceText       string // when checked
	}{
		{"verbatim", changPhrase, changKey, check.Verified, changKey, changChunk, ""},
		{"verbatim in quotation marks", "“" + changPhrase + "”", changKey, check.Verified, changKey, changChunk, ""},
		{"verbatim without a key: where it is", changPhrase, "", check.Verified, changKey, changChunk, ""},
		{"typographic dashes", strings.ReplaceAll(shenPhrase, "-", "–"), shenKey, check.Repaired, shenKey, shenChunk, shenPhrase},
		{"other paper's words", changPhrase, shenKey, check.Misattributed, changKey, changChunk, ""},
		{"one word changed", strings.Replace(changPhrase, "familiar", "unfamiliar", 1), changKey, check.Unverified, "", chunk{}, ""},
		{"invented", "Citation tools make every researcher twice as productive in all fields of science", changKey, check.Unverified, "", chunk{}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := map[string]any{"quote": tc.quote}
			if tc.key != "" {
				args["cite_key"] = tc.key
			}
			r := call(t, cs, "crossmem_verify_quote", args)
			if r.IsError {
				t.Fatalf("tool error: %s", r.Text)
			}
			var got check.QuoteResult
			if err := json.Unmarshal(r.Structured, &got); err != nil {
				t.Fatalf("structured content %s: %v", r.Structured, err)
			}
			if got.Status != tc.status {
				t.Fatalf("status %s, want %s\n%s", got.Status, tc.status, r.Text)
			}
			if !strings.HasPrefix(r.Text, tc.status+" ") {
				t.Errorf("text does not start with the status:\n%s", r.Text)
			}
			if tc.source == "" {
				if got.Source != nil {
					t.Errorf("source %+v for a quotation in no paper", got.Source)
				}
				if n := len(got.Nearest); n == 0 || n > 3 {
					t.Errorf("%d nearest passages, want 1 to 3", n)
				}
				if tc.name == "one word changed" && (got.Nearest[0].CiteKey != changKey || got.Nearest[0].ChunkID != changChunk.ID) {
					t.Errorf("nearest passage %s %s, want %s %s", got.Nearest[0].CiteKey, got.Nearest[0].ChunkID, changKey, changChunk.ID)
				}
				return
			}
			if got.Source == nil || got.Source.CiteKey != tc.source || len(got.Source.Chunks) != 1 {
				t.Fatalf("source %+v, want one chunk of %s", got.Source, tc.source)
			}
			c := got.Source.Chunks[0]
			if c.ChunkID != tc.chunk.ID || c.Page != tc.chunk.Page || len(c.SHA256) != 64 || c.BBox[2] <= c.BBox[0] || c.BBox[3] <= c.BBox[1] {
				t.Errorf("source chunk %+v, want %s on page %d with bbox and text_sha256", c, tc.chunk.ID, tc.chunk.Page)
			}
			if tc.sourceText != "" && got.Source.Text != tc.sourceText {
				t.Errorf("source text %q, want %q", got.Source.Text, tc.sourceText)
			}
			if !strings.Contains(r.Text, "source: "+tc.source+" "+tc.chunk.ID) {
				t.Errorf("text does not name the source chunk:\n%s", r.Text)
			}
		})
	}
	if r := call(t, cs, "crossmem_verify_quote", map[string]any{"quote": "  "}); !r.IsError {
		t.Errorf("empty quote: no tool error: %s", r.Text)
	}
}

// clearWarnings removes the metadata warnings of key's sidecar (the
// fixture papers are captured offline, so their records say that the
// metadata sources could not be reached).
func clearWarnings(t *testing.T, lib library, key string) {
	t.Helper()
	l, err := cmlibrary.Open(lib.Home)
	if err != nil {
		t.Fatal(err)
	}
	p, err := l.Find(key)
	if err != nil {
		t.Fatal(err)
	}
	p.Warnings, p.Metadata.Warnings = nil, nil
	if err := l.WriteSidecar(p); err != nil {
		t.Fatal(err)
	}
}

func TestCheckDraft(t *testing.T) {
	lib := copyLibrary(t, fixtureLibrary(t))
	clearWarnings(t, lib, changKey)
	cs := connect(t, lib)
	dashed := strings.ReplaceAll(shenPhrase, "-", "–")
	invented := "Citation tools make every researcher twice as productive in all fields of science"
	for _, tc := range []struct {
		name, format string
		first        int // the line of the first quotation
		text         string
	}{
		{"latex", "latex", 2, `\section{Related work}
CiteSee~\citep{` + changKey + `} ` + "``" + changPhrase + "''" + `.
Language models can ` + "``" + dashed + "''" + ` \citep{` + shenKey + `}.
It ` + "``" + changPhrase + "''" + ` \citep{` + shenKey + `}.

` + "``" + invented + "''" + ` \citep{` + changKey + `}.
See also \cite{nosuchkey2099}.
`},
		{"markdown", "markdown", 3, `# Related work

CiteSee [@` + changKey + `] "` + changPhrase + `".
Language models can "` + dashed + `" [@` + shenKey + `].
It "` + changPhrase + `" [@` + shenKey + `].

"` + invented + `" [@` + changKey + `].
See also [@nosuchkey2099].
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := call(t, cs, "crossmem_check_draft", map[string]any{"draft": tc.text, "format": tc.format})
			if r.IsError {
				t.Fatalf("tool error: %s", r.Text)
			}
			var rep check.Report
			if err := json.Unmarshal(r.Structured, &rep); err != nil {
				t.Fatalf("structured content %s: %v", r.Structured, err)
			}
			if rep.OK {
				t.Errorf("ok = true for a draft with bad quotations and an unknown key")
			}
			type verdict struct {
				Line   int
				Status string
				Keys   string
			}
			var got []verdict
			for _, q := range rep.Quotations {
				got = append(got, verdict{q.Line, q.Status, strings.Join(q.CitedKeys, ",")})
			}
			l := tc.first
			want := []verdict{{l, check.Verified, changKey}, {l + 1, check.Repaired, shenKey}, {l + 2, check.Misattributed, shenKey}, {l + 4, check.Unverified, changKey}}
			if len(got) != len(want) {
				t.Fatalf("quotations %+v, want %+v\n%s", got, want, r.Text)
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("quotation %d: %+v, want %+v", i, got[i], want[i])
				}
			}
			cites := map[string]check.CitationResult{}
			for _, c := range rep.Citations {
				cites[c.Key] = c
			}
			if c := cites[changKey]; c.Status != check.CiteOK || len(c.Lines) != 2 {
				t.Errorf("%s: %+v, want ok on two lines", changKey, c)
			}
			if c := cites[shenKey]; c.Status != check.CiteMetadataWarning || len(c.Warnings) == 0 {
				t.Errorf("%s: %+v, want metadata-warning (captured offline)", shenKey, c)
			}
			if c := cites["nosuchkey2099"]; c.Status != check.CiteUnknown || len(c.Lines) != 1 || c.Lines[0] != l+5 {
				t.Errorf("nosuchkey2099: %+v, want unknown on line %d", c, l+5)
			}
			if rep.Counts.Quotations[check.Verified] != 1 || rep.Counts.Citations[check.CiteUnknown] != 1 {
				t.Errorf("counts %+v", rep.Counts)
			}
			for _, s := range []string{"FAILED", "unverified quotations (1):", "unknown cite keys (1):", fmt.Sprintf("  nosuchkey2099 (line %d)", l+5)} {
				if !strings.Contains(r.Text, s) {
					t.Errorf("text lacks %q:\n%s", s, r.Text)
				}
			}
		})
	}

	// A faithful draft passes.
	good := "As \\citet{" + changKey + "} put it, ``" + changPhrase + "''.\n"
	r := call(t, cs, "crossmem_check_draft", map[string]any{"draft": good})
	var rep check.Report
	if err := json.Unmarshal(r.Structured, &rep); err != nil || r.IsError {
		t.Fatalf("faithful draft: %v %s", err, r.Text)
	}
	if !rep.OK || rep.Markup != "latex" || len(rep.Quotations) != 1 || rep.Quotations[0].Status != check.Verified {
		t.Errorf("faithful draft: %+v\n%s", rep, r.Text)
	}
	for _, bad := range []map[string]any{{"draft": ""}, {"draft": good, "format": "docx"}} {
		if r := call(t, cs, "crossmem_check_draft", bad); !r.IsError {
			t.Errorf("%v: no tool error: %s", bad, r.Text)
		}
	}
}
