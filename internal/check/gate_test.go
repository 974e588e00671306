package check

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/draft"
	"github.com/crossmem/crossmem/internal/index"
	"github.com/crossmem/crossmem/internal/note"
)

// gateChecker indexes one paper, lo2020s2orc, whose pages print their
// numbers in page footers (4969, 4970), and bert2019, whose PDF declares
// page labels (xii, 1).
func gateChecker(t *testing.T) (*Checker, string) {
	t.Helper()
	home := t.TempDir()
	wiki := filepath.Join(home, "wiki")
	os.MkdirAll(wiki, 0o755)
	type c struct {
		id, typ, label, text string
		page                 int
	}
	for _, p := range []struct {
		key     string
		authors []string
		chunks  []c
	}{
		{"lo2020s2orc", []string{"Kyle Lo", "Lucy Lu Wang"}, []c{
			{"p1s0c1", "paragraph", "", "Citation contexts are the sentences around a citation.", 1},
			{"p1s0c2", "page_footer", "", "4969", 1},
			{"p2s0c1", "paragraph", "", "Yet, existing corpora are not without their limi-\ntations. Some cover a small number of pa-\npers. Semantic Scholar-\nBased tools are cognitively-\ndemanding.", 2},
			{"p2s0c2", "page_footer", "", "4970", 2},
		}},
		{"bert2019", []string{"Jacob Devlin"}, []c{
			{"p1s0c1", "paragraph", "xii", "We introduce a new language representation model called BERT.", 1},
			{"p2s0c1", "paragraph", "1", "BERT is conceptually simple and empirically powerful.", 2},
		}},
	} {
		n := &note.Note{Front: note.Frontmatter{CiteKey: p.key, Title: "Title of " + p.key, Authors: p.authors, Year: 2020, CapturedAt: "1",
			Raw: "raw/1_" + p.key + ".pdf", Parser: note.Parser, Chunks: len(p.chunks), Pages: 2, WikiFormat: note.FormatVersion}}
		for _, ch := range p.chunks {
			n.Chunks = append(n.Chunks, chunk.Chunk{ID: ch.id, Type: ch.typ, Text: ch.text, Page: ch.page, PageLabel: ch.label,
				BBox: [4]float64{72, 100, 540, 300}, TextSHA256: chunk.Hash(ch.text), ByteRange: [2]int{0, len(ch.text)}})
		}
		data, err := note.Format(n)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(wiki, "1_"+p.key+".md"), data, 0o644)
	}
	ix, err := index.Open(filepath.Join(home, index.FileName), wiki)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	if _, err := ix.Sync(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return &Checker{Index: ix}, wiki
}

func TestPageLocators(t *testing.T) {
	c, _ := gateChecker(t)
	ctx := context.Background()
	const q = "Yet, existing corpora are not without their limitations."
	for _, tc := range []struct {
		key, quote, locator string
		status, found, from string
	}{
		{"lo2020s2orc", q, "p.~4970", Verified, "4970", "printed"},
		{"lo2020s2orc", q, "pp. 4969--4971", Verified, "4970", "printed"},
		{"lo2020s2orc", q, "4970", Verified, "4970", "printed"},
		{"lo2020s2orc", q, "p.~11", WrongPage, "4970", "printed"},
		{"lo2020s2orc", q, "p. 2", WrongPage, "4970", "printed"}, // the PDF page is not the printed one
		{"lo2020s2orc", q, "chap. 2", Verified, "", ""},          // not a page locator: not checked
		{"bert2019", "We introduce a new language representation model", "p. xii", Verified, "xii", "page_label"},
		{"bert2019", "We introduce a new language representation model", "p. 1", WrongPage, "xii", "page_label"},
		{"bert2019", "We introduce a new language representation model", "pp. xi-xiii", Verified, "xii", "page_label"},
		{"bert2019", "BERT is conceptually simple", "pp. 1-2", Verified, "1", "page_label"},
	} {
		r, err := c.Check(ctx, Request{Quote: tc.quote, Keys: []string{tc.key}, Locator: tc.locator})
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != tc.status {
			t.Errorf("%s %q: status %s, want %s (%v)", tc.key, tc.locator, r.Status, tc.status, r.Notes)
			continue
		}
		if tc.found == "" {
			if r.Page != nil {
				t.Errorf("%q: page check %+v for a locator that is not a page", tc.locator, r.Page)
			}
			continue
		}
		if r.Page == nil || r.Page.Found != tc.found || r.Page.FoundFrom != tc.from || r.Page.OK != (tc.status != WrongPage) {
			t.Errorf("%s %q: page %+v, want found %s from %s", tc.key, tc.locator, r.Page, tc.found, tc.from)
		}
		if tc.status == WrongPage && (r.Match != Verified || !strings.Contains(strings.Join(r.Notes, " "), "the quotation is on p. "+tc.found)) {
			t.Errorf("%q: match %q, notes %v", tc.locator, r.Match, r.Notes)
		}
	}
}

// The pasteable text of a repaired quotation resolves line-end hyphens as
// docs/verification.md says.
func TestRepairedTextResolvesHyphens(t *testing.T) {
	c, _ := gateChecker(t)
	ctx := context.Background()
	for _, tc := range []struct{ quote, status, text string }{
		// the quotation writes the word joined, or breaks it
		{"Yet, existing corpora are not without their limi- tations.", Repaired, "Yet, existing corpora are not without their limitations."},
		{"YET, existing corpora are not without their limitations.", Repaired, "Yet, existing corpora are not without their limitations."},
		// verified either way: the line-end hyphen joined or kept
		{"Some cover a small number of papers.", Verified, "Some cover a small number of papers."},
		{"Some cover a small number of pa-pers.", Verified, "Some cover a small number of pa-pers."},
		// the quotation keeps the compound's hyphen
		{"tools are Cognitively-Demanding", Repaired, "tools are cognitively-demanding"},
		// the quotation does not show it ("– " a dash): upper case after the
		// break keeps the hyphen
		{"Semantic Scholar – Based tools", Repaired, "Semantic Scholar-Based tools"},
	} {
		r, err := c.Check(ctx, Request{Quote: tc.quote, Keys: []string{"lo2020s2orc"}})
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != tc.status || r.Source == nil || r.Source.Text != tc.text {
			t.Errorf("%q: %s %+v, want %s %q", tc.quote, r.Status, r.Source, tc.status, tc.text)
		}
	}
	if got := Resolve("limi-\ntations and cogni-\ntive", "", func(w string) bool { return w == "cogni-tive" }); got != "limitations and cogni-tive" {
		t.Errorf("Resolve with the paper's words = %q", got)
	}
}

func TestTooShortAndAnywhere(t *testing.T) {
	c, _ := gateChecker(t)
	ctx := context.Background()
	for _, q := range []string{"the", "“deep learning”", "BERT is"} {
		if r, _ := c.Check(ctx, Request{Quote: q, Keys: []string{"bert2019"}}); r.Status != TooShort || r.Source != nil {
			t.Errorf("%q: %+v, want too-short", q, r)
		}
	}
	if r, _ := c.Check(ctx, Request{Quote: "BERT is conceptually", Keys: []string{"bert2019"}}); r.Status != Verified {
		t.Errorf("three words: %s, want verified", r.Status)
	}
	// Without a key: where it is (verify_quote), or misattributed (a draft).
	r, _ := c.Check(ctx, Request{Quote: "BERT is conceptually simple", Anywhere: true})
	if r.Status != Verified || r.Source == nil || r.Source.CiteKey != "bert2019" {
		t.Errorf("anywhere: %+v", r)
	}
	if r, _ := c.Check(ctx, Request{Quote: "BERT is conceptually simple"}); r.Status != Misattributed {
		t.Errorf("in a draft, citing nothing: %s", r.Status)
	}
	// With an author-year reference: attributed when it names the paper.
	r, _ = c.Check(ctx, Request{Quote: "BERT is conceptually simple", AuthorYear: &AuthorYear{Author: "Devlin", Year: "2020"}, Locator: "p. 1"})
	if r.Status != Verified || r.Page == nil || !r.Page.OK {
		t.Errorf("(Devlin, 2020, p. 1): %+v", r)
	}
	r, _ = c.Check(ctx, Request{Quote: "BERT is conceptually simple", AuthorYear: &AuthorYear{Author: "Lo", Year: "2020"}})
	if r.Status != Misattributed || r.Source.CiteKey != "bert2019" {
		t.Errorf("(Lo, 2020) for bert2019's words: %+v", r)
	}
	// A narrative reference whose name before the quotation may be no
	// name ("As Devlin writes", "The authors write"): the year decides,
	// and a name that is the first author's is reported.
	r, _ = c.Check(ctx, Request{Quote: "BERT is conceptually simple", AuthorYear: &AuthorYear{Author: "Devlin", Year: "2020", Names: []string{"Devlin", "As"}}, Locator: "p. 1"})
	if r.Status != Verified || r.Page == nil || !r.Page.OK || !strings.Contains(strings.Join(r.Notes, "\n"), "attributed by (Devlin, 2020) to bert2019") {
		t.Errorf("As Devlin writes, \"…\" (2020, p. 1): %+v", r)
	}
	r, _ = c.Check(ctx, Request{Quote: "BERT is conceptually simple", AuthorYear: &AuthorYear{Author: "The", Year: "2020", Names: []string{"The"}}, Locator: "p. 2"})
	if r.Status != WrongPage || !strings.Contains(strings.Join(r.Notes, "\n"), "attributed by its year (2020) to bert2019") {
		t.Errorf("The authors write \"…\" (2020, p. 2): %+v", r)
	}
	r, _ = c.Check(ctx, Request{Quote: "BERT is conceptually simple", AuthorYear: &AuthorYear{Author: "Devlin", Year: "2017", Names: []string{"Devlin"}}})
	if r.Status != Misattributed || r.Source == nil || r.Source.CiteKey != "bert2019" {
		t.Errorf("As Devlin writes, \"…\" (2017): %+v", r)
	}
}

// The edit: the edited text is never a source, and the verdict
// says why.
func TestEditedNoteIsNeverASource(t *testing.T) {
	c, wiki := gateChecker(t)
	ctx := context.Background()
	path := filepath.Join(wiki, "1_lo2020s2orc.md")
	data, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(data), "not without their limi-", "entirely without limi-", 1)), 0o644)
	if _, err := c.Index.Sync(ctx, nil); err != nil {
		t.Fatal(err)
	}
	for _, r0 := range []Request{
		{Quote: "Yet, existing corpora are entirely without limitations.", Keys: []string{"lo2020s2orc"}},
		{Quote: "Yet, existing corpora are entirely without limitations.", Anywhere: true},
		{Quote: "Yet, existing corpora are entirely without limi- tations.", Keys: []string{"lo2020s2orc"}, Locator: "p. 4970"},
	} {
		r, err := c.Check(ctx, r0)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != Unverified || r.Source != nil || len(r.Edited) != 1 || r.Edited[0].ChunkID != "p2s0c1" ||
			!strings.Contains(strings.Join(r.Notes, " "), "only as edited by hand in the note") {
			t.Errorf("%+v: %+v", r0, r)
		}
	}
	r, _ := c.Check(ctx, Request{Quote: "Yet, existing corpora are not without their limitations.", Keys: []string{"lo2020s2orc"}})
	if r.Status != Unverified || !strings.Contains(strings.Join(r.Notes, " "), "the note of lo2020s2orc was edited by hand: 1 chunk(s) (p2s0c1)") {
		t.Errorf("the original words: %+v", r)
	}
	// A quotation of the chunks around the edited one is not matched
	// across it.
	r, _ = c.Check(ctx, Request{Quote: "Citation contexts are the sentences around a citation. 4969 4970", Keys: []string{"lo2020s2orc"}})
	if r.Status == Verified || r.Status == Repaired {
		t.Errorf("matched across the edited chunk: %+v", r)
	}
	rep, err := c.Draft(ctx, draft.Scan("d.tex", []byte("``Yet, existing corpora are entirely without limitations.'' \\cite{lo2020s2orc}\n")), DraftOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK || len(rep.Citations) != 1 || strings.Join(rep.Citations[0].EditedChunks, ",") != "p2s0c1" {
		t.Errorf("draft: ok %v, citations %+v", rep.OK, rep.Citations)
	}
}
