package enrich

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"sort"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/note"
)

// flush rewrites the notes of the papers in set from the store and
// updates each paper's Annotated count. It takes the library lock for the
// whole rewrite and re-reads each note under it, so a compile that
// replaced a note meanwhile is respected (its chunks get the answers
// their texts have). A note skipped at planning is left alone.
func (r *run) flush(ctx context.Context, set map[int]bool) error {
	if len(set) == 0 {
		return nil
	}
	idx := make([]int, 0, len(set))
	for i := range set {
		if r.res.Papers[i].Skipped == "" {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return nil
	}
	sort.Ints(idx)
	unlock, err := r.o.Lib.Lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	for _, i := range idx {
		n, err := r.rewrite(ctx, r.papers[i].NotePath)
		if err != nil {
			return fmt.Errorf("rewrite the note of %s: %w", r.papers[i].CiteKey, err)
		}
		r.mu.Lock()
		r.res.Papers[i].Annotated = n
		r.mu.Unlock()
	}
	return nil
}

// rewrite sets the advisory fields of the note at path from the store:
// the current model's answers on the chunks that are asked about, nothing
// elsewhere; the frontmatter's advisory block names the model when any
// chunk has an answer. It writes the note (atomically) only when that
// changes it, then tells the store, and returns how many chunks have an
// answer. A note edited by hand since planning is left as it is.
func (r *run) rewrite(ctx context.Context, path string) (int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	n, err := note.Parse(data)
	if err != nil {
		return 0, err
	}
	var shas []string
	for _, c := range n.Chunks {
		if chunk.Hash(c.Text) != c.TextSHA256 {
			return 0, nil
		}
		if Annotatable(c.Type) {
			shas = append(shas, c.TextSHA256)
		}
	}
	answers, err := r.o.Store.Annotations(ctx, r.key, shas)
	if err != nil {
		return 0, err
	}
	annotated := 0
	for i := range n.Chunks {
		c := &n.Chunks[i]
		c.Paraphrase, c.Implication = "", ""
		if !Annotatable(c.Type) {
			continue
		}
		if a, ok := answers[c.TextSHA256]; ok {
			c.Paraphrase, c.Implication = a.Paraphrase, a.Implication
			annotated++
		}
	}
	n.Front.Advisory = nil
	if annotated > 0 {
		n.Front.Advisory = &note.Advisory{Server: r.key.Server, Model: r.key.Model, ModelDigest: r.key.Digest, PromptVersion: r.key.Prompt}
	}
	out, err := note.Format(n)
	if err != nil {
		return 0, err
	}
	if bytes.Equal(out, data) {
		return annotated, nil
	}
	if err := library.WriteFileAtomic(path, out, 0o644); err != nil {
		return 0, err
	}
	if err := r.o.Store.UpdateNote(ctx, path); err != nil {
		return 0, fmt.Errorf("index the note: %w", err)
	}
	return annotated, nil
}
