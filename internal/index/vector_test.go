package index

import (
	"context"
	"errors"
	"hash/fnv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/crossmem/crossmem/internal/search"
)

// fakeEmbedder maps each word (after a small synonym table) to one of 64
// dimensions: texts sharing words, or synonyms, are near.
type fakeEmbedder struct {
	calls, texts atomic.Int64
	fail         error
}

var synonyms = map[string]string{"canine": "dog", "dogs": "dog", "felines": "cat", "kitten": "cat"}

func (f *fakeEmbedder) Model() string { return "fake-embed" }

func (f *fakeEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if f.fail != nil {
		return nil, f.fail
	}
	f.calls.Add(1)
	f.texts.Add(int64(len(texts)))
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, 64)
		for _, w := range words(t) {
			if s, ok := synonyms[w]; ok {
				w = s
			}
			h := fnv.New32a()
			h.Write([]byte(w))
			v[h.Sum32()%64]++
		}
		out[i] = v
	}
	return out, nil
}

func TestVectorLane(t *testing.T) {
	ix, wiki := newIndex(t)
	ctx := context.Background()
	writeNote(t, wiki, tpaper{key: "pets2020", title: "Pets", year: 2020, chunks: []tchunk{
		{id: "p1s0c1", page: 1, text: "The dog sleeps while the cat watches."},
		{id: "p1s0c2", page: 1, text: "Fish swim in the bowl."},
	}})
	if _, err := ix.Sync(ctx, nil); err != nil {
		t.Fatal(err)
	}
	fe := &fakeEmbedder{}
	ix.Embedder = fe
	n, err := ix.EmbedMissing(ctx, nil)
	if err != nil || n == 0 {
		t.Fatalf("EmbedMissing = %d, %v", n, err)
	}
	// Unchanged text is never embedded again.
	before := fe.texts.Load()
	if n, err := ix.EmbedMissing(ctx, nil); err != nil || n != 0 || fe.texts.Load() != before {
		t.Errorf("second EmbedMissing embedded %d texts (%v)", n, err)
	}
	// A word the chunk does not have, found through its vector.
	r := find(t, ix, search.Query{Text: "canine", Explain: true})
	if len(r.Hits) == 0 || r.Hits[0].ChunkID != "p1s0c1" || r.Hits[0].CiteKey != "pets2020" {
		t.Fatalf("canine: %v", hitIDs(r))
	}
	e := r.Hits[0].Explain
	if e.VectorRank != 1 || e.BM25Rank != 0 || e.Fused <= 0 || e.VectorScore <= 0 {
		t.Errorf("explain %+v", e)
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "vector lane: on (fake-embed") {
		t.Errorf("notes %v", r.Notes)
	}
	// Both lanes agree: the fused score beats either alone.
	r = find(t, ix, search.Query{Text: "dog", Explain: true})
	if h := r.Hits[0]; h.ChunkID != "p1s0c1" || h.Explain.BM25Rank != 1 || h.Explain.VectorRank != 1 {
		t.Errorf("dog: %+v", r.Hits[0].Explain)
	}
	// The server goes away: BM25 still answers and says why the vector
	// lane is off.
	fe.fail = errors.New("ollama unavailable: no Ollama server answers")
	r = find(t, ix, search.Query{Text: "dog", Explain: true})
	if len(r.Hits) == 0 || !strings.Contains(strings.Join(r.Notes, "\n"), "vector lane: off (ollama unavailable") {
		t.Errorf("without the server: %v %v", hitIDs(r), r.Notes)
	}
}
