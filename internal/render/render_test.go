package render

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/check"
	"github.com/crossmem/crossmem/internal/citation"
	"github.com/crossmem/crossmem/internal/cite"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/search"
)

func TestHits(t *testing.T) {
	if got, want := Hits("quantum computing", nil), "No results for query: 'quantum computing'"; got != want {
		t.Errorf("no hits: %q, want the seed's %q", got, want)
	}
	hits := []search.Hit{
		{CiteKey: "vaswani2017attention", Title: "Attention Is All You Need", ChunkID: "p4s32c1", Page: 4, Section: "3.2 Scaled Dot-Product Attention",
			Excerpt: "...We call our particular attention...", Link: "file:///home/you/crossmem/wiki/1_vaswani2017attention.md"},
		{CiteKey: "lecun2015deep", Title: "Deep Learning", ChunkID: "p12s4c1", Page: 12, Excerpt: "Attention mechanisms", Link: "file:///w/2.md"},
	}
	want := `1. [vaswani2017attention] Attention Is All You Need
   section: p.4 §3.2 Scaled Dot-Product Attention
   chunk: p4s32c1
   excerpt: ...We call our particular attention...
   link: file:///home/you/crossmem/wiki/1_vaswani2017attention.md

2. [lecun2015deep] Deep Learning
   section: p.12
   chunk: p12s4c1
   excerpt: Attention mechanisms
   link: file:///w/2.md`
	if got := Hits("attention", hits); got != want {
		t.Errorf("Hits =\n%s\nwant\n%s", got, want)
	}
	hits[0].Explain = &search.Explain{Phrase: true, BM25Rank: 2, BM25Score: 1.5, Fused: 0.03}
	got := SearchText("attention", &search.Result{Hits: hits, Notes: []string{"vector lane: off"}}, true)
	if !strings.HasPrefix(got, want+"\nexplain:\n  vector lane: off\n  1. vaswani2017attention p4s32c1: phrase=true bm25_rank=2 bm25=1.5000 vector_rank=0 vector=0.0000 fused=0.030000") {
		t.Errorf("SearchText with explain =\n%s", got)
	}
	if strings.Contains(got, "2. lecun2015deep p12s4c1:") {
		t.Errorf("explain lists a hit without scores:\n%s", got)
	}
	if out := Recall("q", &search.Result{}); out.Results == nil {
		t.Error("Recall: results null")
	}
}

// A hit found through the advisory lane says so, and its paraphrase and
// implication are labelled as what they are; the excerpt is the verbatim
// text.
func TestHitsAdvisory(t *testing.T) {
	hits := []search.Hit{{CiteKey: "k2020", Title: "T", ChunkID: "p1s0c1", Page: 1, Excerpt: "The verbatim text.", Link: "file:///w/1.md",
		AdvisoryMatch: true, Advisory: &search.Advisory{Paraphrase: "A restatement.", Implication: "Why it matters."},
		Explain: &search.Explain{AdvisoryRank: 1, AdvisoryScore: 2.25, Fused: 0.008197}}}
	want := `1. [k2020] T
   section: p.1
   chunk: p1s0c1
   excerpt: The verbatim text.
   matched: the model-written paraphrase/implication (advisory; quote only the chunk's verbatim text)
   paraphrase (advisory, not quotable): A restatement.
   implication (advisory, not quotable): Why it matters.
   link: file:///w/1.md
explain:
  1. k2020 p1s0c1: phrase=false bm25_rank=0 bm25=0.0000 vector_rank=0 vector=0.0000 advisory_rank=1 advisory=2.2500 fused=0.008197`
	if got := SearchText("q", &search.Result{Hits: hits}, true); got != want {
		t.Errorf("SearchText =\n%s\nwant\n%s", got, want)
	}
	hits[0].AdvisoryMatch = false
	if got := Hits("q", hits); strings.Contains(got, "matched:") || !strings.Contains(got, "paraphrase (advisory, not quotable): A restatement.") {
		t.Errorf("a hit matched by its own words:\n%s", got)
	}
}

func TestCite(t *testing.T) {
	out := Cite(&cite.Citation{Key: "old2017", CiteKey: "new2017", Style: citation.APA, Text: "A.", CitedVersion: metadata.VersionCaptured})
	if out.Key != "old2017" || out.CiteKey != "new2017" || out.Format != "apa" || out.Warnings == nil {
		t.Errorf("alias: %+v", out)
	}
	if n := StyleNames(); !strings.HasPrefix(n, "apa, mla, chicago") || !strings.HasSuffix(n, "csl-json") {
		t.Errorf("StyleNames = %q", n)
	}
}

func TestDidYouMean(t *testing.T) {
	s := []cite.Suggestion{{CiteKey: "vaswani2017attention", Title: "Attention Is All You Need"}, {CiteKey: "b", Title: "B"}}
	if got, want := DidYouMean(s, ""), "Did you mean:\n- vaswani2017attention — Attention Is All You Need\n- b — B"; got != want {
		t.Errorf("DidYouMean = %q, want %q", got, want)
	}
	if got, want := DidYouMean(s[:1], "  "), "Did you mean:\n  - vaswani2017attention — Attention Is All You Need"; got != want {
		t.Errorf("indented: %q, want %q", got, want)
	}
	// A paper captured without a title: no dangling dash.
	if got, want := DidYouMean([]cite.Suggestion{{CiteKey: "btxdoc"}}, ""), "Did you mean:\n- btxdoc (no title)"; got != want {
		t.Errorf("no title: %q, want %q", got, want)
	}
	if got, want := DidYouMean(nil, ""), "No similar cite keys in the library."; got != want {
		t.Errorf("none: %q, want %q", got, want)
	}
}

func TestReport(t *testing.T) {
	sha := strings.Repeat("ab", 32)
	rep := &check.Report{Draft: "paper.tex", Markup: "latex",
		Counts: check.Counts{
			Quotations: map[string]int{check.Verified: 1, check.Repaired: 1, check.Misattributed: 0, check.Unverified: 1},
			Citations:  map[string]int{check.CiteOK: 1, check.CiteUnknown: 1, check.CiteMetadataWarning: 1},
		},
		Quotations: []check.QuoteResult{
			{Status: check.Verified, Quote: "exact words", Line: 2, EndLine: 3, CitedKeys: []string{"vaswani2017attention"},
				Source: &check.Source{CiteKey: "vaswani2017attention", Text: "exact words", Chunks: []check.SourceChunk{{ChunkID: "p1s0c1", Page: 1, BBox: [4]float64{72, 100.04, 540, 300}, SHA256: sha}}}},
			{Status: check.Unverified, Quote: "invented", Line: 8, CitedKeys: []string{"vaswani2017attention"},
				Nearest: []check.Passage{{CiteKey: "vaswani2017attention", ChunkID: "p2s0c1", Page: 2, Similarity: 0.5, Text: "inv"}}},
			{Status: check.Repaired, Quote: "“curly”", Line: 9, Source: &check.Source{CiteKey: "x", Text: "\"curly\"", Chunks: []check.SourceChunk{{ChunkID: "p3s0c1", Page: 3}}},
				Notes: []string{"the quotation cites nothing; it is from x"}},
		},
		Citations: []check.CitationResult{
			{Key: "vaswani2017attention", Status: check.CiteOK, Lines: []int{3, 5}, CiteKey: "vaswani2017attention", Title: "Attention Is All You Need"},
			{Key: "vaswany2017attention", Status: check.CiteUnknown, Lines: []int{11}, Suggestions: []cite.Suggestion{{CiteKey: "vaswani2017attention", Title: "Attention Is All You Need"}}},
			{Key: "devlin2019", Status: check.CiteMetadataWarning, Lines: []int{4}, CiteKey: "devlin2019bert", Title: "BERT", Warnings: []string{"year: arxiv says 2018, crossref says 2019"}},
		},
	}
	want := `paper.tex: FAILED — 3 quotations (1 unverified, 1 repaired, 1 verified), 3 cited keys (1 unknown, 1 metadata-warning, 1 ok)

unverified quotations (1):
  unverified line 8 (cites vaswani2017attention): "invented"
    nearest: vaswani2017attention p2s0c1 p.2 (similarity 0.50): "inv"

repaired quotations (1):
  repaired line 9 (no cite key given): "“curly”"
    source: x p3s0c1 p.3 bbox [0.0 0.0 0.0 0.0] sha256=
    paste: "\"curly\""
    note: the quotation cites nothing; it is from x

verified quotations (1):
  verified lines 2-3 (cites vaswani2017attention): "exact words"
    source: vaswani2017attention p1s0c1 p.1 bbox [72.0 100.0 540.0 300.0] sha256=abababababab

unknown cite keys (1):
  vaswany2017attention (line 11)
    Did you mean:
    - vaswani2017attention — Attention Is All You Need

metadata-warning cite keys (1):
  devlin2019 (line 4) → devlin2019bert — BERT
    warning: year: arxiv says 2018, crossref says 2019

ok cite keys (1):
  vaswani2017attention (lines 3, 5) — Attention Is All You Need
`
	if got := Report(rep); got != want {
		t.Errorf("Report =\n%s\nwant\n%s", got, want)
	}
	rep.OK, rep.Quotations, rep.Citations = true, nil, nil
	rep.Counts = check.Counts{Quotations: map[string]int{}, Citations: map[string]int{}}
	if got, want := Report(rep), "paper.tex: OK — 0 quotations (none), 0 cited keys (none)\n"; got != want {
		t.Errorf("empty report = %q, want %q", got, want)
	}
	long := strings.Repeat("word ", 100)
	if got := Quote(&check.QuoteResult{Status: check.Unverified, Quote: long}); !strings.Contains(got, "…") || len([]rune(got)) > 340 {
		t.Errorf("a long quotation is not shortened: %q", got)
	}
}

func TestHintWordsEveryKind(t *testing.T) {
	if Hint(hint.Action{}) != "" {
		t.Error("None has words")
	}
	for k := hint.None + 1; k < hint.NumKinds; k++ {
		h := Hint(hint.Action{Kind: k, Key: "k2020", DOI: "10.1/x", URL: "https://x.org", Path: "/h/raw/1_k.pdf", What: "the DOI"})
		if h == "" || strings.HasSuffix(h, ".") || h[0] < 'a' || h[0] > 'z' {
			t.Errorf("kind %d: %q (want words, lowercase first, no final period)", k, h)
		}
	}
	if got := Hint(hint.Action{Kind: hint.RestoreRecording, Path: "/h/raw/youtube/x/x.m4a"}); got != "restore /h/raw/youtube/x/x.m4a from a backup, or capture the talk again" {
		t.Errorf("RestoreRecording = %q", got)
	}
	if got := Hint(hint.Action{Kind: hint.AttachPDF, Key: "k2020"}); got != "attach the PDF with: crossmem capture <paper.pdf> --cite-key k2020" {
		t.Errorf("AttachPDF = %q", got)
	}
	if got := Hint(hint.Action{Kind: hint.RestoreNote}); !strings.Contains(got, "crossmem compile <cite_key>") {
		t.Errorf("RestoreNote without a key = %q", got)
	}
}

func TestError(t *testing.T) {
	nf := &cite.NotFoundError{Key: "vaswani", Suggestions: []cite.Suggestion{{CiteKey: "vaswani2017attention", Title: "Attention Is All You Need"}}}
	msg, next := Error(nf)
	if msg != "cite_key 'vaswani' not found. Did you mean:\n- vaswani2017attention — Attention Is All You Need" || next != "" {
		t.Errorf("unknown key with suggestions: %q / %q", msg, next)
	}
	if got := ErrorText(nf); got != "Error: "+msg {
		t.Errorf("ErrorText = %q, want the seed's \"Error: \" form", got)
	}
	msg, next = Error(fmt.Errorf("bib: %w", &cite.NotFoundError{Key: "zz"}))
	if msg != "bib: cite_key 'zz' not found. No similar cite keys in the library." || !strings.Contains(next, "crossmem import") {
		t.Errorf("wrapped, no suggestions: %q / %q", msg, next)
	}
	err := hint.Wrap(errors.New("index file is damaged"), hint.Action{Kind: hint.RebuildIndex})
	if got := ErrorText(err); got != "Error: index file is damaged\nHint: rebuild the index from the notes with: crossmem index --rebuild" {
		t.Errorf("ErrorText with a hint = %q", got)
	}
}
