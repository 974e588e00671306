package index

import (
	"math"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/quote"
	"github.com/crossmem/crossmem/internal/search"
)

// Tests of the pure ranking (rank, filters, hits) on candidates built by
// hand, with made-up collection statistics: no database.

// collection returns statistics of a collection of n chunks of mean
// length avgdl in which each of the query's terms occurs in df chunks.
func collection(p parsed, n, avgdl float64, df int) *stats {
	st := &stats{n: n, avgdl: avgdl, df: map[string]int{}, prefDF: map[string]int{}}
	for _, t := range p.terms {
		st.df[t] = df
	}
	return st
}

// cand makes a candidate of note noteID with text (its token count as its
// length); norm is set as the index stores it.
func cand(id, noteID int64, text string) *candidate {
	return &candidate{id: id, noteID: noteID, citeKey: "k", chunkID: "c", text: text, norm: quote.Key(text),
		ntokens: len(terms(text)), typ: "paragraph", noteName: "1_k.md"}
}

func ids(cs []*candidate) string {
	var out []string
	for _, c := range cs {
		out = append(out, string(rune('0'+c.id)))
	}
	return strings.Join(out, " ")
}

func TestRankBM25(t *testing.T) {
	p := parseQuery("attention mechanism", false)
	st := collection(p, 1000, 10, 10)
	cands := []*candidate{
		cand(1, 1, "an attention model of the brain and more words here"),
		cand(2, 1, "attention attention mechanism and the attention mechanism again"),
		cand(3, 1, "nothing relevant in this chunk at all"),
		cand(4, 1, "a mechanism"),
	}
	got := rank(cands, ranking{scorer: newScorer(st, p), limit: 10})
	if ids(got) != "2 4 1" {
		t.Fatalf("order %s, want 2 4 1 (more and rarer occurrences first, a short chunk before a long one; 3 dropped)", ids(got))
	}
	for i, c := range got {
		if c.bm25Rank != i+1 || c.bm25 <= 0 {
			t.Errorf("candidate %d: bm25 %v rank %d", c.id, c.bm25, c.bm25Rank)
		}
		if want := 1.0 / (rrfK + float64(i+1)); math.Abs(c.fused-want) > 1e-12 {
			t.Errorf("candidate %d: fused %v, want 1/(%d+%d) with the BM25 lane alone", c.id, c.fused, rrfK, i+1)
		}
	}
	// The score is BM25's: idf × tf(k1+1)/(tf + k1(1-b+b·len/avgdl)).
	c := cand(9, 1, "attention")
	rank([]*candidate{c}, ranking{scorer: newScorer(st, parseQuery("attention", false)), limit: 1})
	idf := math.Log(1 + (1000-10+0.5)/(10+0.5))
	want := idf * (bm25K1 + 1) / (1 + bm25K1*(1-bm25B+bm25B*1/10.0))
	if math.Abs(c.bm25-want) > 1e-9 {
		t.Errorf("bm25 = %v, want %v", c.bm25, want)
	}
}

func TestRankTitleCredit(t *testing.T) {
	p := parseQuery("transformer", false)
	st := collection(p, 100, 10, 5)
	in := cand(1, 1, "the body says nothing")
	in.title = "The Transformer"
	out := cand(2, 2, "the body says nothing")
	got := rank([]*candidate{out, in}, ranking{scorer: newScorer(st, p), limit: 10})
	if ids(got) != "1" || math.Abs(got[0].bm25-metaWeight*st.idf(5)) > 1e-9 {
		t.Errorf("title credit: %s, bm25 %v", ids(got), got[0].bm25)
	}
}

func TestRankPhraseFirst(t *testing.T) {
	text := "the dominant sequence transduction models"
	p := parseQuery(text, false)
	st := collection(p, 1000, 10, 10)
	verbatim := cand(1, 1, "As they say, the dominant sequence\ntransduction models are recurrent.")
	rich := cand(2, 1, "dominant dominant sequence sequence transduction transduction models models")
	r := ranking{scorer: newScorer(st, p), phrase: quote.Key(text), limit: 10}
	got := rank([]*candidate{rich, verbatim}, r)
	if ids(got) != "1 2" || !got[0].phrase || got[1].phrase {
		t.Errorf("order %s (phrase %v %v), want the verbatim chunk first", ids(got), got[0].phrase, got[1].phrase)
	}
	if got[0].bm25Rank != 2 {
		t.Errorf("the verbatim chunk's BM25 rank %d, want 2 (the phrase lane, not BM25, puts it first)", got[0].bm25Rank)
	}
	r.phrase = "" // lane off
	if got := rank([]*candidate{rich, verbatim}, r); ids(got) != "2 1" {
		t.Errorf("phrase lane off: order %s, want BM25 order 2 1", ids(got))
	}
}

func TestRankFusion(t *testing.T) {
	p := parseQuery("attention", false)
	st := collection(p, 1000, 10, 10)
	lexical := cand(1, 1, "attention attention")
	both := cand(2, 1, "attention in a longer chunk of text with many other words")
	semantic := cand(3, 1, "a chunk about focus without the word")
	vec := map[int64]vecHit{3: {score: 0.9, rank: 1}, 2: {score: 0.8, rank: 2}}
	r := ranking{scorer: newScorer(st, p), vector: vec, limit: 10}
	got := rank([]*candidate{lexical, both, semantic}, r)
	// BM25 ranks 1, 2; vector ranks 3→1, 2→2. Fused: 2 = 1/62+1/62,
	// 1 = 1/61, 3 = 1/61; ties by id.
	if ids(got) != "2 1 3" {
		t.Fatalf("order %s, want 2 1 3", ids(got))
	}
	if c := got[0]; c.vecRank != 2 || c.vecScore != 0.8 || math.Abs(c.fused-2.0/62) > 1e-12 {
		t.Errorf("both lanes: %+v", c)
	}
	// Weights: the vector lane counts three times as much.
	r.vectorWeight = 3
	if got := rank([]*candidate{lexical, both, semantic}, r); ids(got) != "2 3 1" {
		t.Errorf("weighted order %s, want 2 3 1", ids(got))
	}
}

func TestRankFiltersAndLimit(t *testing.T) {
	p := parseQuery("attention", false)
	st := collection(p, 1000, 10, 10)
	mk := func() []*candidate {
		a := cand(1, 1, "attention")
		b := cand(2, 2, "attention here")
		b.section = "3.2 Scaled Dot-Product Attention"
		c := cand(3, 1, "attention there too")
		c.typ = "page_header"
		d := cand(4, 1, "attention is all")
		d.typ = "figure"
		return []*candidate{a, b, c, d}
	}
	for _, tc := range []struct {
		name   string
		q      search.Query
		papers map[int64]bool
		limit  int
		want   string
	}{
		// 2 has the term in its section too (BM25 counts it); the others
		// tie (one occurrence, stop words aside) and go by id.
		{"no filter: no furniture", search.Query{}, nil, 10, "2 1 4"},
		{"furniture asked", search.Query{Furniture: true}, nil, 10, "2 1 3 4"},
		{"type", search.Query{Type: "Page_Header"}, nil, 10, "3"},
		{"section", search.Query{Section: "dot-product"}, nil, 10, "2"},
		{"papers", search.Query{}, map[int64]bool{1: true}, 10, "1 4"},
		{"limit", search.Query{}, nil, 2, "2 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := rank(mk(), ranking{scorer: newScorer(st, p), keep: filters(tc.q, tc.papers), limit: tc.limit})
			if ids(got) != tc.want {
				t.Errorf("%s, want %s", ids(got), tc.want)
			}
		})
	}
}

func TestHits(t *testing.T) {
	p := parseQuery("needle in a haystack", false)
	c := cand(1, 1, strings.Repeat("xyz ", 150)+"a needle in a haystack "+strings.Repeat("qrst ", 150))
	c.citeKey, c.title, c.chunkID, c.page, c.pageLabel, c.section = "k2020", "T", "p1s0c1", 3, "iii", "Intro"
	c.bm25, c.bm25Rank, c.fused, c.phrase = 1.23456789, 1, 1.0/61, true
	h := hits([]*candidate{c}, "needle in a haystack", p, "/w", true)
	if len(h) != 1 {
		t.Fatal(len(h))
	}
	if got := h[0]; got.CiteKey != "k2020" || got.Page != 3 || got.PageLabel != "iii" || got.Link != "file:///w/1_k.md" ||
		!strings.Contains(got.Excerpt, "a needle in a haystack") || len([]rune(got.Excerpt)) > search.MaxExcerpt ||
		got.Explain == nil || !got.Explain.Phrase || got.Explain.BM25Score != 1.234568 || got.Score != round(1.0/61) {
		t.Errorf("hit %+v (explain %+v)", got, got.Explain)
	}
	if h := hits([]*candidate{c}, "needle", parseQuery("needle", false), "/w", false); h[0].Explain != nil {
		t.Error("explain without asking")
	}
	if h := hits(nil, "x", p, "/w", false); h == nil {
		t.Error("no hits must be an empty list, not null")
	}
}

func TestRankAdvisory(t *testing.T) {
	p := parseQuery("attention", false)
	st := collection(p, 1000, 10, 10)
	st.advN, st.advAvg = 5, 10
	verbatim := cand(1, 1, "attention here")
	para := cand(2, 1, "a chunk about focus")
	para.para = "It is about attention."
	r := ranking{scorer: newScorer(st, p), advisory: map[int64]bool{2: true}, limit: 10}
	got := rank([]*candidate{para, verbatim}, r)
	if ids(got) != "1 2" {
		t.Fatalf("order %s, want the chunk whose own words match first (advisory weight 0.5)", ids(got))
	}
	if c := got[1]; c.adv <= 0 || c.advRank != 1 || c.bm25Rank != 0 || math.Abs(c.fused-defaultAdvisoryWeight/(rrfK+1)) > 1e-12 {
		t.Errorf("advisory only: %+v", c)
	}
	h := hits(got, "attention", p, "/w", true)
	if !h[1].AdvisoryMatch || h[1].Advisory == nil || h[1].Advisory.Paraphrase != "It is about attention." || h[1].Excerpt != "a chunk about focus" || h[0].AdvisoryMatch {
		t.Errorf("hits %+v / %+v: the advisory match is marked and its text kept apart", h[0], h[1])
	}
	// A heavier advisory lane can put it first.
	r.advisoryWeight = 2
	if got := rank([]*candidate{para, verbatim}, r); ids(got) != "2 1" {
		t.Errorf("advisory weight 2: order %s", ids(got))
	}
}
