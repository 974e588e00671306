package check

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/cite"
	"github.com/crossmem/crossmem/internal/draft"
	cmlibrary "github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/metadata"
)

// newLibraryChecker is newChecker with a library of sidecars beside the
// notes: vaswani2017attention is clean, devlin2019bert carries a
// reconciliation warning, and raffel2020t5 has a sidecar but no note.
func newLibraryChecker(t *testing.T) *Checker {
	t.Helper()
	c := newChecker(t)
	home := filepath.Dir(c.Index.WikiDir())
	lib, err := cmlibrary.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []struct {
		key, title string
		warnings   []string
	}{
		{"vaswani2017attention", "Attention Is All You Need", nil},
		{"devlin2019bert", "BERT: Pre-training of Deep Bidirectional Transformers", []string{"year: arxiv says 2018, crossref says 2019"}},
		{"raffel2020t5", "Exploring the Limits of Transfer Learning", nil},
	} {
		pp, err := lib.NewPaper(p.key, 1)
		if err != nil {
			t.Fatal(err)
		}
		pp.Title = p.title
		pp.Metadata = metadata.Record{Title: p.title, Authors: []metadata.Name{{Family: "Author", Given: "A."}}, Warnings: p.warnings}
		if err := lib.WriteSidecar(pp); err != nil {
			t.Fatal(err)
		}
	}
	c.Citer = &cite.Citer{Lib: lib}
	return c
}

func TestDraft(t *testing.T) {
	c := newLibraryChecker(t)
	tex := `\section{Background}
Recurrent models dominate: ` + "``" + `The dominant sequence transduction models are based on complex recurrent or
convolutional neural networks'' \citep{vaswani2017attention}.
BERT ` + "``" + `is conceptually simple and empirically powerful'' \citep{devlin2019bert}.
As \citet{vaswani2017attention} claim, ` + "``" + `BERT is conceptually simple and empirically powerful''.

\begin{quote}
Transformers are provably optimal for every sequence task whatsoever.
\end{quote}
\citep{vaswani2017attention}
T5 \citep{raffel2020t5} and \cite{vaswany2017attention}.
`
	rep, err := c.Draft(context.Background(), draft.Scan("paper.tex", []byte(tex)), DraftOptions{})
	if err != nil {
		t.Fatal(err)
	}
	type qv struct {
		line, endLine int
		status, keys  string
	}
	var got []qv
	for _, q := range rep.Quotations {
		got = append(got, qv{q.Line, q.EndLine, q.Status, strings.Join(q.CitedKeys, ",")})
	}
	want := []qv{
		{2, 3, Verified, "vaswani2017attention"},
		{4, 4, Verified, "devlin2019bert"},
		{5, 5, Misattributed, "vaswani2017attention"},
		{8, 8, Unverified, "vaswani2017attention"},
	}
	if len(got) != len(want) {
		t.Fatalf("quotations %+v, want %+v\n%+v", got, want, rep)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("quotation %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if s := rep.Quotations[2].Source; s == nil || s.CiteKey != "devlin2019bert" {
		t.Errorf("misattributed quotation: source %+v, want devlin2019bert", s)
	}
	if n := rep.Quotations[3].Nearest; len(n) == 0 || len(n) > 3 {
		t.Errorf("unverified quotation: %d nearest passages, want 1 to 3", len(n))
	}

	cites := map[string]CitationResult{}
	var order []string
	for _, r := range rep.Citations {
		cites[r.Key] = r
		order = append(order, r.Key)
	}
	if want := "vaswani2017attention devlin2019bert raffel2020t5 vaswany2017attention"; strings.Join(order, " ") != want {
		t.Errorf("cited keys %v, want %s", order, want)
	}
	if r := cites["vaswani2017attention"]; r.Status != CiteOK || len(r.Lines) != 3 || r.Lines[0] != 3 || r.Title != "Attention Is All You Need" {
		t.Errorf("vaswani2017attention: %+v", r)
	}
	if r := cites["devlin2019bert"]; r.Status != CiteMetadataWarning || len(r.Warnings) != 1 {
		t.Errorf("devlin2019bert: %+v, want a metadata warning", r)
	}
	// A paper without a note is a citation like any other.
	if r := cites["raffel2020t5"]; r.Status != CiteOK {
		t.Errorf("raffel2020t5: %+v, want ok", r)
	}
	if r := cites["vaswany2017attention"]; r.Status != CiteUnknown || len(r.Suggestions) == 0 || r.Suggestions[0].CiteKey != "vaswani2017attention" || r.Lines[0] != 11 {
		t.Errorf("vaswany2017attention: %+v, want unknown on line 11, did you mean vaswani2017attention", r)
	}
	if rep.OK || rep.Markup != "latex" {
		t.Errorf("ok %v, markup %s; want false, latex", rep.OK, rep.Markup)
	}
	wantCounts := Counts{
		Quotations: map[string]int{Verified: 2, Repaired: 0, Misattributed: 1, Unverified: 1},
		Citations:  map[string]int{CiteOK: 2, CiteUnknown: 1, CiteMetadataWarning: 1},
	}
	for s, n := range wantCounts.Quotations {
		if rep.Counts.Quotations[s] != n {
			t.Errorf("quotations %s: %d, want %d", s, rep.Counts.Quotations[s], n)
		}
	}
	for s, n := range wantCounts.Citations {
		if rep.Counts.Citations[s] != n {
			t.Errorf("citations %s: %d, want %d", s, rep.Counts.Citations[s], n)
		}
	}
}

func TestDraftMarkdownProvenance(t *testing.T) {
	c := newLibraryChecker(t)
	chunks, err := c.Index.PaperChunks(context.Background(), "devlin2019bert")
	if err != nil {
		t.Fatal(err)
	}
	sha := chunks[1].SHA256
	md := `# Notes

> BERT is conceptually simple and empirically powerful.
<!-- crossmem: devlin2019bert p2s0c1 sha256=` + sha[:16] + ` -->

Faithful: "It obtains new state-of-the-art results on eleven natural language processing tasks" [@devlin2019bert].
<!-- crossmem: devlin2019bert p1s0c1 sha256=` + sha[:16] + ` -->
`
	rep, err := c.Draft(context.Background(), draft.Scan("notes.md", []byte(md)), DraftOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Quotations) != 2 {
		t.Fatalf("%d quotations, want 2\n%+v", len(rep.Quotations), rep)
	}
	// The blockquote cites nothing but its provenance comment.
	q := rep.Quotations[0]
	if q.Status != Verified || strings.Join(q.CitedKeys, ",") != "devlin2019bert" || q.Kind != string(draft.Blockquote) || len(q.Notes) != 0 {
		t.Errorf("blockquote: %+v", q)
	}
	// The second one's comment names the wrong chunk and an old hash;
	// its "results" reads the source's line-end hyphen "re-\nsults".
	q = rep.Quotations[1]
	if q.Status != Verified || len(q.Notes) != 2 {
		t.Errorf("quotation with a stale provenance comment: %+v", q)
	}
	if !strings.Contains(strings.Join(q.Notes, "\n"), "names chunk p1s0c1, but the quotation is in p2s0c1") {
		t.Errorf("notes %q", q.Notes)
	}
	// The metadata warning of devlin2019bert is reported, and fails the
	// draft only when strict.
	if !rep.OK || rep.Markup != "markdown" || rep.Counts.Citations[CiteMetadataWarning] != 1 {
		t.Errorf("ok %v, markup %s, counts %v", rep.OK, rep.Markup, rep.Counts.Citations)
	}
	rep, err = c.Draft(context.Background(), draft.Scan("notes.md", []byte(md)), DraftOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK || !rep.Strict {
		t.Errorf("strict: ok %v, strict %v; want false, true", rep.OK, rep.Strict)
	}
}
