package index

import (
	"context"
	"testing"

	"github.com/crossmem/crossmem/internal/llm"
	"github.com/crossmem/crossmem/internal/ollamatest"
	"github.com/crossmem/crossmem/internal/search"
)

// The vector lane with a real Ollama serving a tiny generated BERT model
// (ollamatest): its vectors are, in effect, bags of letter n-grams, so a
// chunk that shares words with the query must rank above one that does
// not. Real embedding quality is not tested here.
func TestRealEmbeddingLane(t *testing.T) {
	s := ollamatest.Start(t, ollamatest.Options{})
	s.EmbedModel(t, "tiny-embed", 1)
	ix, wiki := newIndex(t)
	ctx := context.Background()
	writeNote(t, wiki, tpaper{key: "weather2021", title: "Notes", year: 2021, chunks: []tchunk{
		{id: "p1s0c1", page: 1, text: "The weather in Paris was rainy throughout the spring of that year."},
		{id: "p1s0c2", page: 1, text: "Rainfall gauges along the Seine recorded the wettest April in decades."},
	}})
	if _, err := ix.Sync(ctx, nil); err != nil {
		t.Fatal(err)
	}
	ix.Embedder = llm.NewEmbedder(s.Addr, "tiny-embed")
	n, err := ix.EmbedMissing(ctx, nil)
	if err != nil || n == 0 {
		t.Fatalf("EmbedMissing = %d, %v", n, err)
	}
	r := find(t, ix, search.Query{Text: "scaled dot-product attention layers", Explain: true, Limit: 20})
	rank := map[string]int{}
	for _, h := range r.Hits {
		rank[h.CiteKey+"/"+h.ChunkID] = h.Explain.VectorRank
	}
	shares, unrelated := rank["vaswani2017attention/p4s32c2"], rank["weather2021/p1s0c1"]
	// The lane ranks every chunk (fewer than its top 100).
	if shares == 0 || unrelated == 0 || shares >= unrelated {
		t.Errorf("vector ranks: the chunk sharing words %d, the unrelated one %d (0 = not retrieved); notes %v", shares, unrelated, r.Notes)
	}
}
