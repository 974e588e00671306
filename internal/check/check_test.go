package check

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/index"
	"github.com/crossmem/crossmem/internal/note"
)

type tpaper struct {
	key    string
	chunks []string // chunk texts, page 1.., ids p<page>s0c1
}

var library = []tpaper{
	{"vaswani2017attention", []string{
		"The dominant sequence transduction models are based on complex recurrent or\nconvolutional neural networks that include an encoder and a decoder. The best\nperforming models also connect the encoder and decoder through an attention\nmechanism.",
		"We call our particular attention \"Scaled Dot-Product Attention\". The in-\nput consists of queries and keys of dimension dk, and values of dimen-\nsion dv.",
		"An attention function can be described as mapping a query and a set of key-value pairs to an output, where the query, keys, values, and output are all vectors. The output is computed as a",
		"weighted sum of the values, where the weight assigned to each value is computed by a compatibility function of the query with the corresponding key.",
	}},
	{"devlin2019bert", []string{
		"We introduce a new language representation model called BERT, which stands for\nBidirectional Encoder Representations from Transformers.",
		"BERT is conceptually simple and empirically powerful. It obtains new state-of-the-art re-\nsults on eleven natural language processing tasks.",
	}},
}

func newChecker(t *testing.T) *Checker {
	t.Helper()
	home := t.TempDir()
	wiki := filepath.Join(home, "wiki")
	os.MkdirAll(wiki, 0o755)
	for _, p := range library {
		n := &note.Note{Front: note.Frontmatter{CiteKey: p.key, Title: "Title of " + p.key, Year: 2019, CapturedAt: "1",
			Raw: "raw/1_" + p.key + ".pdf", Parser: note.Parser, Chunks: len(p.chunks), Pages: len(p.chunks), WikiFormat: note.FormatVersion}}
		for i, text := range p.chunks {
			n.Chunks = append(n.Chunks, chunk.Chunk{ID: "p" + string(rune('1'+i)) + "s0c1", Type: "paragraph", Text: text, Page: i + 1,
				BBox: [4]float64{72, 100, 540, 300}, TextSHA256: chunk.Hash(text), ByteRange: [2]int{0, len(text)}})
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
	return &Checker{Index: ix}
}

func TestQuote(t *testing.T) {
	c := newChecker(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name, quote string
		keys        []string
		status      string
		source      string // cite key of the source
		chunks      string // chunk ids of the source, joined by +
		text        string // Source.Text, when checked
	}{
		{"exact", "The dominant sequence transduction models are based on complex recurrent or convolutional neural networks that include an encoder and a decoder.",
			[]string{"vaswani2017attention"}, Verified, "vaswani2017attention", "p1s0c1", ""},
		{"exact across two chunks", "The output is computed as a weighted sum of the values",
			[]string{"vaswani2017attention"}, Verified, "vaswani2017attention", "p3s0c1+p4s0c1", ""},
		{"hyphenation and typographic quotes", "We call our particular attention “Scaled Dot–Product Attention”. The input consists of queries",
			[]string{"vaswani2017attention"}, Repaired, "vaswani2017attention", "p2s0c1",
			"We call our particular attention \"Scaled Dot-Product Attention\". The input consists of queries"},
		{"line-end hyphen read as joined", "The input consists of queries and keys of dimension dk",
			[]string{"vaswani2017attention"}, Verified, "vaswani2017attention", "p2s0c1", "The input consists of queries and keys of dimension dk"},
		{"line-end hyphen kept", "The in-put consists of queries and keys of dimension dk",
			[]string{"vaswani2017attention"}, Verified, "vaswani2017attention", "p2s0c1", ""},
		{"line-end hyphen as a broken word", "The in- put consists of queries and keys of dimension dk",
			[]string{"vaswani2017attention"}, Repaired, "vaswani2017attention", "p2s0c1", "The input consists of queries and keys of dimension dk"},
		{"outer quote marks", "“BERT is conceptually simple and empirically powerful.”",
			[]string{"devlin2019bert"}, Verified, "devlin2019bert", "p2s0c1", "BERT is conceptually simple and empirically powerful."},
		{"outer quote marks, punctuation after", "“BERT is conceptually simple and empirically powerful”.",
			[]string{"devlin2019bert"}, Verified, "devlin2019bert", "p2s0c1", "BERT is conceptually simple and empirically powerful."},
		{"outer single quotes", "'It obtains new state-of-the-art results on eleven natural language processing tasks'",
			[]string{"devlin2019bert"}, Verified, "devlin2019bert", "p2s0c1", "It obtains new state-of-the-art results on eleven natural language processing tasks"},
		{"repaired across a line-end hyphen", "it obtains new state-of-the-art results on eleven natural language processing tasks",
			[]string{"devlin2019bert"}, Repaired, "devlin2019bert", "p2s0c1", "It obtains new state-of-the-art results on eleven natural language processing tasks"},
		{"case", "bert is conceptually simple and empirically powerful",
			[]string{"devlin2019bert"}, Repaired, "devlin2019bert", "p2s0c1", "BERT is conceptually simple and empirically powerful"},
		{"elided, in order", "The dominant sequence transduction models [...] include an encoder and a decoder.",
			[]string{"vaswani2017attention"}, Verified, "vaswani2017attention", "p1s0c1", "The dominant sequence transduction models […] include an encoder and a decoder."},
		{"alias of both keys", "It obtains new state-of-the-art results on eleven natural language processing tasks.",
			[]string{"vaswani2017attention", "devlin2019bert"}, Verified, "devlin2019bert", "p2s0c1", ""},
		{"from another paper", "We introduce a new language representation model called BERT",
			[]string{"vaswani2017attention"}, Misattributed, "devlin2019bert", "p1s0c1", ""},
		{"cites nothing", "An attention function can be described as mapping a query and a set of key-value pairs to an output",
			nil, Misattributed, "vaswani2017attention", "p3s0c1", ""},
		{"unknown key", "BERT is conceptually simple and empirically powerful.",
			[]string{"nosuch2020"}, Misattributed, "devlin2019bert", "p2s0c1", ""},
		{"one word changed", "The dominant sequence transduction models are based on simple recurrent or convolutional neural networks",
			[]string{"vaswani2017attention"}, Unverified, "", "", ""},
		{"elided, out of order", "include an encoder and a decoder … The dominant sequence transduction models",
			[]string{"vaswani2017attention"}, Unverified, "", "", ""},
		{"invented", "Transformers are provably optimal for every sequence task.",
			[]string{"vaswani2017attention"}, Unverified, "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := c.Quote(ctx, tc.quote, tc.keys, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != tc.status {
				t.Fatalf("status %s, want %s (%+v)", r.Status, tc.status, r)
			}
			if tc.source == "" {
				if r.Source != nil {
					t.Errorf("source %+v for a quotation that is not there", r.Source)
				}
				return
			}
			var ids []string
			for _, ch := range r.Source.Chunks {
				ids = append(ids, ch.ChunkID)
				if ch.Page == 0 || ch.BBox[2] == 0 || len(ch.SHA256) != 64 {
					t.Errorf("chunk without provenance: %+v", ch)
				}
			}
			if r.Source.CiteKey != tc.source || strings.Join(ids, "+") != tc.chunks {
				t.Errorf("source %s %v, want %s %s", r.Source.CiteKey, ids, tc.source, tc.chunks)
			}
			if tc.text != "" && r.Source.Text != tc.text {
				t.Errorf("source text\n%q\nwant\n%q", r.Source.Text, tc.text)
			}
		})
	}
}

func TestUnverifiedNearest(t *testing.T) {
	c := newChecker(t)
	r, err := c.Quote(context.Background(), "The dominant sequence transduction models are based on simple recurrent or convolutional neural networks", []string{"vaswani2017attention"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Nearest) == 0 || len(r.Nearest) > 3 {
		t.Fatalf("nearest: %+v", r.Nearest)
	}
	n := r.Nearest[0]
	if n.CiteKey != "vaswani2017attention" || n.ChunkID != "p1s0c1" || n.Page != 1 || n.Similarity < 0.9 || n.Similarity >= 1 {
		t.Errorf("nearest passage %+v", n)
	}
}

func TestHints(t *testing.T) {
	c := newChecker(t)
	ctx := context.Background()
	q := "The dominant sequence transduction models are based on complex recurrent or convolutional neural networks"
	sha := chunk.Hash(library[0].chunks[0])
	// A matching comment: no notes; its key counts as the citation.
	r, _ := c.Quote(ctx, q, nil, &Provenance{Key: "vaswani2017attention", ChunkID: "p1s0c1", SHA256: sha[:12]})
	if r.Status != Verified || len(r.Notes) != 0 {
		t.Errorf("matching hint: %s %v", r.Status, r.Notes)
	}
	r, _ = c.Quote(ctx, q, []string{"vaswani2017attention"}, &Provenance{Key: "vaswani2017attention", ChunkID: "p2s0c1", SHA256: "..."})
	if r.Status != Verified || len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "names chunk p2s0c1, but the quotation is in p1s0c1") {
		t.Errorf("wrong chunk: %v", r.Notes)
	}
	r, _ = c.Quote(ctx, q, []string{"vaswani2017attention"}, &Provenance{Key: "vaswani2017attention", ChunkID: "p1s0c1", SHA256: "5f3e1c"})
	if len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "the note changed since") {
		t.Errorf("old sha: %v", r.Notes)
	}
}

func TestPieces(t *testing.T) {
	for in, want := range map[string]string{
		"a b c":                      "a b c",
		"a ... b":                    "a|b",
		"a . . . b":                  "a|b",
		"a […] b [...] c":            "a|b|c",
		"… a b …":                    "a b",
		"a… b":                       "a|b",
		"3.14 is pi":                 "3.14 is pi",
		"end of sentence. Next one.": "end of sentence. Next one.",
	} {
		if got := strings.Join(pieces(in), "|"); got != want {
			t.Errorf("pieces(%q) = %q, want %q", in, got, want)
		}
	}
	if s := similarity(strings.Fields("a b c d"), strings.Fields("x a b y d")); s != 0.75 {
		t.Errorf("similarity = %v", s)
	}
}
