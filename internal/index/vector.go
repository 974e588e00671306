package index

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
)

// Embedder turns texts into vectors for the vector lane (internal/llm's
// Ollama client implements it). Vectors of one model have one dimension.
type Embedder interface {
	// Model names the embedding model; vectors are stored per model.
	Model() string
	// Embed returns one vector per text, in order.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

type vecHit struct {
	score float64
	rank  int
}

// vectorSet is every stored vector of one model, normalized, in memory:
// N × dim × 4 bytes (about 3 MB per 1,000 chunks at 768 dimensions).
type vectorSet struct {
	model   string
	version int64
	shas    []string
	vecs    [][]float32
}

func (ix *Index) dropVectorCache() {
	ix.vecMu.Lock()
	ix.vecCache = nil
	ix.vecMu.Unlock()
}

// vectors returns the model's vectors, re-reading them when another
// process has stored new ones (meta key "vectors" counts the writes).
func (ix *Index) vectors(ctx context.Context, model string) (*vectorSet, error) {
	var version int64
	if err := ix.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'vectors'`).Scan(&version); err != nil {
		version = 0
	}
	ix.vecMu.Lock()
	defer ix.vecMu.Unlock()
	if c := ix.vecCache; c != nil && c.model == model && c.version == version {
		return c, nil
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT sha256, dim, vec FROM embeddings WHERE model = ?`, model)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	vs := &vectorSet{model: model, version: version}
	for rows.Next() {
		var sha string
		var dim int
		var blob []byte
		if err := rows.Scan(&sha, &dim, &blob); err != nil {
			return nil, err
		}
		v := decodeVec(blob, dim)
		if v == nil {
			continue
		}
		vs.shas = append(vs.shas, sha)
		vs.vecs = append(vs.vecs, normalize(v))
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	ix.vecCache = vs
	return vs, nil
}

// vectorLane embeds the query and returns the vectorTopK chunks nearest to
// it by cosine similarity, with their ranks.
func (ix *Index) vectorLane(ctx context.Context, text string) (map[int64]vecHit, error) {
	vs, err := ix.vectors(ctx, ix.Embedder.Model())
	if err != nil {
		return nil, err
	}
	if len(vs.vecs) == 0 {
		return nil, fmt.Errorf("no chunk embeddings for %s yet: updating the index computes them", ix.Embedder.Model())
	}
	qv, err := ix.Embedder.Embed(ctx, []string{text})
	if err != nil {
		return nil, err
	}
	if len(qv) != 1 || len(qv[0]) != len(vs.vecs[0]) {
		return nil, errors.New("the embedding server returned a vector of another dimension")
	}
	q := normalize(qv[0])
	type scored struct {
		i int
		s float64
	}
	best := make([]scored, 0, vectorTopK+1)
	for i, v := range vs.vecs {
		s := dot(q, v)
		if len(best) == vectorTopK && s <= best[len(best)-1].s {
			continue
		}
		j := sort.Search(len(best), func(k int) bool { return best[k].s < s })
		best = append(best, scored{})
		copy(best[j+1:], best[j:])
		best[j] = scored{i, s}
		if len(best) > vectorTopK {
			best = best[:vectorTopK]
		}
	}
	out := map[int64]vecHit{}
	rank := 0
	for _, b := range best {
		rows, err := ix.db.QueryContext(ctx, `SELECT id FROM chunks WHERE sha256 = ? ORDER BY id`, vs.shas[b.i])
		if err != nil {
			return nil, err
		}
		found := false
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, err
			}
			if !found {
				rank++
				found = true
			}
			out[id] = vecHit{score: b.s, rank: rank}
		}
		rows.Close()
	}
	return out, nil
}

// EmbedMissing stores embeddings (of ix.Embedder's model) for every chunk
// text that has none yet, batch by batch; a text whose text_sha256 already
// has a vector is never embedded again. It returns how many texts it
// embedded. progress, if set, gets (done, total).
func (ix *Index) EmbedMissing(ctx context.Context, progress func(i, n int)) (int, error) {
	if ix.Embedder == nil {
		return 0, errors.New("no embedder configured")
	}
	model := ix.Embedder.Model()
	rows, err := ix.db.QueryContext(ctx, `SELECT c.sha256, min(c.text) FROM chunks c
		WHERE NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.sha256 = c.sha256 AND e.model = ?)
		GROUP BY c.sha256 ORDER BY c.sha256`, model)
	if err != nil {
		return 0, err
	}
	type todo struct{ sha, text string }
	var list []todo
	for rows.Next() {
		var t todo
		if err := rows.Scan(&t.sha, &t.text); err != nil {
			rows.Close()
			return 0, err
		}
		list = append(list, t)
	}
	rows.Close()
	done := 0
	const batch = 32
	for start := 0; start < len(list); start += batch {
		b := list[start:min(len(list), start+batch)]
		texts := make([]string, len(b))
		for i, t := range b {
			texts[i] = strings.Join(strings.Fields(t.text), " ")
		}
		vecs, err := ix.Embedder.Embed(ctx, texts)
		if err != nil {
			return done, fmt.Errorf("embed chunks with %s: %w", model, err)
		}
		if len(vecs) != len(b) {
			return done, fmt.Errorf("embed chunks with %s: %d vectors for %d texts", model, len(vecs), len(b))
		}
		tx, err := ix.db.BeginTx(ctx, nil)
		if err != nil {
			return done, err
		}
		for i, t := range b {
			if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO embeddings(sha256, model, dim, vec) VALUES (?, ?, ?, ?)`,
				t.sha, model, len(vecs[i]), encodeVec(vecs[i])); err != nil {
				tx.Rollback()
				return done, err
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES ('vectors', 1) ON CONFLICT(key) DO UPDATE SET value = value + 1`); err != nil {
			tx.Rollback()
			return done, err
		}
		if err := tx.Commit(); err != nil {
			return done, err
		}
		done += len(b)
		if progress != nil {
			progress(done, len(list))
		}
	}
	return done, nil
}

func encodeVec(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

func decodeVec(b []byte, dim int) []float32 {
	if dim <= 0 || len(b) != 4*dim {
		return nil
	}
	v := make([]float32, dim)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

func normalize(v []float32) []float32 {
	var n float64
	for _, f := range v {
		n += float64(f) * float64(f)
	}
	n = math.Sqrt(n)
	out := make([]float32, len(v))
	if n == 0 {
		return out
	}
	for i, f := range v {
		out[i] = float32(float64(f) / n)
	}
	return out
}

func dot(a, b []float32) float64 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return float64(s)
}
