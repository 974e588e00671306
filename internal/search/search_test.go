package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/note"
	"github.com/crossmem/crossmem/internal/wiki"
)

type testChunk struct {
	id, section, text string
	page              int
}

// writeNote writes a note with the given chunks into dir.
func writeNote(t *testing.T, dir, key, title string, chunks ...testChunk) string {
	t.Helper()
	n := &note.Note{
		Front: note.Frontmatter{
			CiteKey: key, Title: title, Authors: []string{"Ada Lovelace"}, Year: 2020,
			CapturedAt: "1", Raw: "raw/1_" + key + ".pdf", Parser: note.Parser,
			Chunks: len(chunks), Pages: 9, UnquotablePages: []note.Unquotable{}, WikiFormat: note.FormatVersion,
		},
	}
	for _, c := range chunks {
		n.Chunks = append(n.Chunks, chunk.Chunk{
			ID: c.id, Type: "paragraph", Text: c.text, Page: c.page, Section: c.section,
			TextSHA256: chunk.Hash(c.text), ByteRange: [2]int{0, len(c.text)},
		})
	}
	data, err := note.Format(n)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "1_"+key+".md")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func ids(hits []Hit) []string {
	out := []string{}
	for _, h := range hits {
		out = append(out, h.CiteKey+"/"+h.ChunkID)
	}
	return out
}

func TestSearchRanking(t *testing.T) {
	dir := t.TempDir()
	path := writeNote(t, dir, "vaswani2017attention", "Transformer Paper",
		testChunk{"p1s0c1", "", "Attention attention attention attention. Attention everywhere.", 1},
		testChunk{"p4s32c1", "3.2 Scaled Dot-Product Attention", "We call our particular attention scaled dot-product attention.", 4},
		testChunk{"p5s0c1", "", "Nothing relevant here about recurrence.", 5},
	)
	writeNote(t, dir, "lecun2015deep", "Deep Learning",
		testChunk{"p2s0c1", "", "Convolutional networks scale well with data.", 2},
	)
	s := &Scan{Store: wiki.NewStore(dir)}

	hits, err := s.Search(t.Context(), Query{Text: "scaled attention"})
	if err != nil {
		t.Fatal(err)
	}
	// The chunk with both tokens first, although another has "attention"
	// six times; then the chunk with one token; "scale" in lecun matches
	// the token "scaled" only as a prefix the other way round, so not at
	// all.
	if diff := cmp.Diff([]string{"vaswani2017attention/p4s32c1", "vaswani2017attention/p1s0c1"}, ids(hits)); diff != "" {
		t.Errorf("ranking (-want +got):\n%s", diff)
	}
	h := hits[0]
	if h.Title != "Transformer Paper" || h.Page != 4 || h.Section != "3.2 Scaled Dot-Product Attention" {
		t.Errorf("hit = %+v", h)
	}
	if h.Link != "file://"+filepath.ToSlash(path) {
		t.Errorf("link = %q", h.Link)
	}
	if h.Excerpt != "We call our particular attention scaled dot-product attention." {
		t.Errorf("excerpt = %q", h.Excerpt)
	}
	if h.Location() != "p.4 §3.2 Scaled Dot-Product Attention" {
		t.Errorf("location = %q", h.Location())
	}
	if hits[1].Location() != "p.1" {
		t.Errorf("location without section = %q", hits[1].Location())
	}
	if hits[0].Score <= hits[1].Score {
		t.Errorf("scores %v, %v not decreasing", hits[0].Score, hits[1].Score)
	}

	// Query tokens match word prefixes, case-insensitively, and the paper's
	// title counts for every chunk.
	hits, _ = s.Search(t.Context(), Query{Text: "CONVOLUTION"})
	if diff := cmp.Diff([]string{"lecun2015deep/p2s0c1"}, ids(hits)); diff != "" {
		t.Errorf("prefix match (-want +got):\n%s", diff)
	}
	hits, _ = s.Search(t.Context(), Query{Text: "deep"})
	if diff := cmp.Diff([]string{"lecun2015deep/p2s0c1"}, ids(hits)); diff != "" {
		t.Errorf("title match (-want +got):\n%s", diff)
	}
	// With equal scores, notes (by cite key) and chunks keep their order.
	hits, _ = s.Search(t.Context(), Query{Text: "ada"})
	if diff := cmp.Diff([]string{"lecun2015deep/p2s0c1", "vaswani2017attention/p1s0c1", "vaswani2017attention/p4s32c1", "vaswani2017attention/p5s0c1"}, ids(hits)); diff != "" {
		t.Errorf("author match (-want +got):\n%s", diff)
	}

	for _, q := range []string{"", "  ", "!!! ---", "quantum"} {
		hits, err := s.Search(t.Context(), Query{Text: q})
		if err != nil || len(hits) != 0 {
			t.Errorf("Search(%q) = %v, %v; want no hits", q, ids(hits), err)
		}
	}

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := s.Search(ctx, Query{Text: "attention"}); err == nil {
		t.Error("Search with a cancelled context succeeded")
	}
}

func TestSearchLimit(t *testing.T) {
	dir := t.TempDir()
	var chunks []testChunk
	for i := 1; i <= 30; i++ {
		chunks = append(chunks, testChunk{id: fmt.Sprintf("p%ds0c1", i), text: fmt.Sprintf("Chunk %d mentions transport once.", i), page: i})
	}
	writeNote(t, dir, "smith2023transport", "Molecular Dynamics", chunks...)
	s := &Scan{Store: wiki.NewStore(dir)}
	for _, tc := range []struct{ limit, want int }{
		{0, DefaultLimit},
		{-3, DefaultLimit},
		{3, 3},
		{20, 20},
		{21, MaxLimit},
		{1000, MaxLimit},
	} {
		hits, err := s.Search(t.Context(), Query{Text: "transport", Limit: tc.limit})
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != tc.want {
			t.Errorf("limit %d: %d hits; want %d", tc.limit, len(hits), tc.want)
		}
	}
	if DefaultLimit != 5 || MaxLimit != 20 {
		t.Errorf("limits %d/%d; the seed says default 5, cap 20", DefaultLimit, MaxLimit)
	}
}

// words returns n distinct words "w0001 w0002 …".
func words(from, n int) string {
	var b []string
	for i := from; i < from+n; i++ {
		b = append(b, fmt.Sprintf("w%04d", i))
	}
	return strings.Join(b, " ")
}

func TestExcerpt(t *testing.T) {
	long := words(0, 100) + " needle " + words(100, 100)
	for _, tc := range []struct {
		name       string
		text       string
		tokens     []string
		max        int
		lead, tail bool // "..." expected at the start / end
	}{
		{"middle", long, []string{"needle"}, MaxExcerpt, true, true},
		{"start", "needle " + words(0, 200), []string{"needle"}, MaxExcerpt, false, true},
		{"end", words(0, 200) + " needle", []string{"needle"}, MaxExcerpt, true, false},
		{"no match", words(0, 200), []string{"absent"}, MaxExcerpt, false, true},
		{"line breaks", strings.ReplaceAll(long, " ", "\n"), []string{"needle"}, MaxExcerpt, true, true},
		{"multibyte", strings.Repeat("äöü ßéè ", 60) + "needle " + strings.Repeat("ñøå ", 100), []string{"needle"}, MaxExcerpt, true, true},
		{"small max", long, []string{"needle"}, 60, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Excerpt(tc.text, tc.tokens, tc.max)
			if n := utf8.RuneCountInString(got); n > tc.max {
				t.Errorf("excerpt has %d characters; max %d", n, tc.max)
			}
			if n := utf8.RuneCountInString(got); n < tc.max/2 {
				t.Errorf("excerpt has only %d characters of %d allowed: %q", n, tc.max, got)
			}
			if strings.HasPrefix(got, "...") != tc.lead || strings.HasSuffix(got, "...") != tc.tail {
				t.Errorf("ellipses: got %q…%q; want lead %v tail %v", first(got, 10), last(got, 10), tc.lead, tc.tail)
			}
			if tc.tokens[0] == "needle" && !strings.Contains(got, "needle") {
				t.Errorf("excerpt does not contain the match: %q", got)
			}
			flat := " " + strings.Join(strings.Fields(tc.text), " ") + " "
			inner := strings.TrimSuffix(strings.TrimPrefix(got, "..."), "...")
			// Cut at word boundaries: the inner text is a run of whole words.
			if !strings.Contains(flat, " "+inner+" ") {
				t.Errorf("excerpt is not a run of whole words of the text: %q", got)
			}
		})
	}

	short := "  Short   text\nwith breaks. "
	if got := Excerpt(short, []string{"text"}, MaxExcerpt); got != "Short text with breaks." {
		t.Errorf("short text = %q", got)
	}
}

func TestExcerptWithoutSpaces(t *testing.T) {
	// Text without spaces (CJK, long URLs or formulas) has no word
	// boundaries; the excerpt must still show the match instead of
	// collapsing to nothing or to an unrelated word.
	for name, text := range map[string]string{
		"no spaces":        strings.Repeat("注意力机制", 100) + "变换器" + strings.Repeat("神经网络", 100),
		"one word before":  strings.Repeat("注意力机制", 40) + " x " + strings.Repeat("注意", 25) + "变换器" + strings.Repeat("神经网络", 100),
		"spaces far ahead": "a b " + strings.Repeat("注意力机制", 60) + "变换器" + strings.Repeat("神经网络", 100),
	} {
		t.Run(name, func(t *testing.T) {
			got := Excerpt(text, []string{"变换器"}, MaxExcerpt)
			if n := utf8.RuneCountInString(got); n > MaxExcerpt || n < MaxExcerpt/2 {
				t.Errorf("excerpt has %d characters; want at most %d and not much less", n, MaxExcerpt)
			}
			if !strings.Contains(got, "变换器") {
				t.Errorf("excerpt does not contain the match: %q", got)
			}
			if !strings.HasPrefix(got, "...") || !strings.HasSuffix(got, "...") {
				t.Errorf("excerpt lacks ellipses: %q", got)
			}
		})
	}
}

func first(s string, n int) string {
	r := []rune(s)
	return string(r[:min(n, len(r))])
}

func last(s string, n int) string {
	r := []rune(s)
	return string(r[max(0, len(r)-n):])
}
