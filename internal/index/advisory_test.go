package index

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/note"
	"github.com/crossmem/crossmem/internal/search"
)

// writeAdvisoryNote writes a note whose chunks carry paraphrases (text →
// paraphrase), with the model that wrote them, and returns its path.
func writeAdvisoryNote(t *testing.T, dir, key string, adv *note.Advisory, chunks map[string]string, order []string) string {
	t.Helper()
	n := &note.Note{Front: note.Frontmatter{CiteKey: key, Title: "Advisory test", CapturedAt: "1", Raw: "raw/1_" + key + ".pdf",
		Parser: note.Parser, Chunks: len(order), Pages: 1, WikiFormat: note.FormatVersion, Advisory: adv}}
	for i, text := range order {
		n.Chunks = append(n.Chunks, chunk.Chunk{ID: "p1s0c" + string(rune('1'+i)), Type: "paragraph", Text: text, Page: 1,
			BBox: [4]float64{72, 100, 540, 200}, TextSHA256: chunk.Hash(text), ByteRange: [2]int{0, len(text)},
			Paraphrase: chunks[text], Implication: map[bool]string{true: "It matters for the field.", false: ""}[chunks[text] != ""]})
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

func TestAdvisoryLane(t *testing.T) {
	ix, wiki := newIndex(t)
	ctx := context.Background()
	r := find(t, ix, search.Query{Text: "zorblatt", Explain: true})
	if len(r.Hits) != 0 || !strings.Contains(strings.Join(r.Notes, "\n"), "advisory lane: off (no chunk has a paraphrase") {
		t.Errorf("no advisory text yet: %v %v", hitIDs(r), r.Notes)
	}
	a := "The quick brown fox jumps over the lazy dog near the river bank."
	b := "Gradient descent minimises the loss one small step at a time."
	c := "A zorblatt is the unit of measure this paper introduces."
	adv := &note.Advisory{Server: "ollama", Model: "m", ModelDigest: "d", PromptVersion: 1}
	writeAdvisoryNote(t, wiki, "fox2020", adv, map[string]string{
		a: "An animal leaps over another; the zorblatt of the story.",
		b: "Optimisation proceeds in increments.",
	}, []string{a, b, c})
	if _, err := ix.Sync(ctx, nil); err != nil {
		t.Fatal(err)
	}
	r = find(t, ix, search.Query{Text: "zorblatt", Explain: true})
	if got := hitIDs(r); len(got) != 2 || got[0] != "fox2020/p1s0c3" || got[1] != "fox2020/p1s0c1" {
		t.Fatalf("zorblatt: %v; want the chunk whose own text has it first, then the one whose paraphrase has it", got)
	}
	own, para := r.Hits[0], r.Hits[1]
	if own.AdvisoryMatch || own.Advisory != nil || own.Explain.BM25Rank != 1 {
		t.Errorf("verbatim match: %+v %+v", own, own.Explain)
	}
	if !para.AdvisoryMatch || para.Advisory == nil || para.Advisory.Paraphrase != "An animal leaps over another; the zorblatt of the story." ||
		para.Excerpt != a || para.Explain.AdvisoryRank != 1 || para.Explain.BM25Rank != 0 || para.Explain.AdvisoryScore <= 0 {
		t.Errorf("advisory match: %+v %+v", para, para.Explain)
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "advisory lane: 1 candidate chunks") {
		t.Errorf("notes: %v", r.Notes)
	}
	// A word of the implication finds it too; filters apply as to any hit.
	if got := hitIDs(find(t, ix, search.Query{Text: "increments"})); len(got) != 1 || got[0] != "fox2020/p1s0c2" {
		t.Errorf("increments: %v", got)
	}
	if got := hitIDs(find(t, ix, search.Query{Text: "zorblatt", Key: "lecun2015deep"})); len(got) != 0 {
		t.Errorf("zorblatt filtered to another paper: %v", got)
	}

	// The note's answers went into the store.
	got, err := ix.Annotations(ctx, AnnotationModel{Model: "m", Digest: "d", Prompt: 1}, []string{chunk.Hash(a), chunk.Hash(c)})
	if err != nil || len(got) != 1 || got[chunk.Hash(a)].Paraphrase != "An animal leaps over another; the zorblatt of the story." {
		t.Errorf("store after sync: %+v %v", got, err)
	}

	// Rewritten without paraphrases, the note leaves the lane.
	writeAdvisoryNote(t, wiki, "fox2020", nil, map[string]string{}, []string{a, b, c})
	if err := ix.UpdateNote(ctx, filepath.Join(wiki, "1_fox2020.md")); err != nil {
		t.Fatal(err)
	}
	if got := hitIDs(find(t, ix, search.Query{Text: "increments"})); len(got) != 0 {
		t.Errorf("increments after the paraphrases left: %v", got)
	}
	var n, tokens int
	ix.db.QueryRow(`SELECT (SELECT value FROM meta WHERE key = 'advisory_chunks'), (SELECT value FROM meta WHERE key = 'advisory_tokens')`).Scan(&n, &tokens)
	if n != 0 || tokens != 0 {
		t.Errorf("advisory totals after removal: %d chunks, %d tokens", n, tokens)
	}
}

func TestAnnotationStore(t *testing.T) {
	ix, wiki := newIndex(t)
	ctx := context.Background()
	m := AnnotationModel{Server: "ollama", Model: "m", Digest: "d", Prompt: 1}
	if err := ix.PutAnnotation(ctx, m, "s1", Annotation{Paraphrase: "p1", Implication: "i1"}); err != nil {
		t.Fatal(err)
	}
	for _, other := range []AnnotationModel{{Model: "m", Digest: "d2", Prompt: 1}, {Model: "m2", Digest: "d", Prompt: 1}, {Model: "m", Digest: "d", Prompt: 2}} {
		if got, _ := ix.Annotations(ctx, other, []string{"s1"}); len(got) != 0 {
			t.Errorf("answer found under %+v", other)
		}
	}
	got, err := ix.Annotations(ctx, m, []string{"s1", "s2", "s1"})
	if err != nil || len(got) != 1 || got["s1"] != (Annotation{"p1", "i1"}) {
		t.Errorf("Annotations = %v, %v", got, err)
	}
	// A note holding another answer under the same key does not replace
	// the store's.
	text := "A chunk text the store already has an answer for."
	ix.PutAnnotation(ctx, m, chunk.Hash(text), Annotation{Paraphrase: "from the store"})
	writeAdvisoryNote(t, wiki, "kept2021", &note.Advisory{Server: "ollama", Model: "m", ModelDigest: "d", PromptVersion: 1},
		map[string]string{text: "edited in the note"}, []string{text})
	if _, err := ix.Sync(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := ix.Annotations(ctx, m, []string{chunk.Hash(text)}); got[chunk.Hash(text)].Paraphrase != "from the store" {
		t.Errorf("store answer replaced by the note's: %+v", got)
	}
	// A rebuild keeps the store's answers, those no note holds too.
	other := AnnotationModel{Server: "openai", Model: "qwen", Prompt: 1}
	ix.PutAnnotation(ctx, other, "s9", Annotation{Paraphrase: "no note has it"})
	path := ix.Path()
	if _, err := Rebuild(ctx, path, wiki, func(context.Context) (func(), error) { return func() {}, nil }, nil); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	ix2, err := Open(path, wiki)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := ix2.Annotations(ctx, other, []string{"s9"}); got["s9"].Paraphrase != "no note has it" {
		t.Errorf("after a rebuild: %+v", got)
	}
	if got, _ := ix2.Annotations(ctx, m, []string{chunk.Hash(text)}); got[chunk.Hash(text)].Paraphrase != "from the store" {
		t.Errorf("after a rebuild the store has %+v; want its own answer", got)
	}
	ix2.Close()
	// Without the old file (deleted, or unreadable), the notes give theirs.
	if err := Remove(path); err != nil {
		t.Fatal(err)
	}
	if _, err := Rebuild(ctx, path, wiki, func(context.Context) (func(), error) { return func() {}, nil }, nil); err != nil {
		t.Fatal(err)
	}
	ix3, err := Open(path, wiki)
	if err != nil {
		t.Fatal(err)
	}
	defer ix3.Close()
	if got, _ := ix3.Annotations(ctx, m, []string{chunk.Hash(text)}); got[chunk.Hash(text)].Paraphrase != "edited in the note" {
		t.Errorf("after a rebuild from the notes alone the store has %+v; want the note's answer", got)
	}
}

// An index of schema 3 is migrated on Open: the notes are indexed again
// (their advisory text enters its lane), embeddings are kept.
func TestMigrateFromSchema3(t *testing.T) {
	home := t.TempDir()
	wiki := filepath.Join(home, "wiki")
	os.MkdirAll(wiki, 0o755)
	text := "Schema two had no advisory lane for this chunk."
	writeAdvisoryNote(t, wiki, "old2019", &note.Advisory{Server: "ollama", Model: "m", ModelDigest: "d", PromptVersion: 1},
		map[string]string{text: "A quokka paraphrase."}, []string{text})
	path := filepath.Join(home, FileName)
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(wiki, "1_old2019.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{migrations[0], migrations[1], migrations[2],
		fmt.Sprintf(`INSERT INTO notes(name, size, mtime_ns, sha256, cite_key, title, authors, year, doi, arxiv_id) VALUES ('1_old2019.md', %d, %d, 'x', 'old2019', '', '', 0, '', '')`, fi.Size(), fi.ModTime().UnixNano()),
		`INSERT INTO embeddings(sha256, model, dim, vec) VALUES ('abc', 'm', 1, x'00000000')`,
		`PRAGMA user_version = 3`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	ix, err := Open(path, wiki)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	var v, emb int
	ix.db.QueryRow(`PRAGMA user_version`).Scan(&v)
	ix.db.QueryRow(`SELECT count(*) FROM embeddings`).Scan(&emb)
	if v != SchemaVersion || emb != 1 {
		t.Fatalf("after migration: version %d, %d embeddings", v, emb)
	}
	// The note's size and time are as recorded, yet it is read again.
	if res, err := ix.Sync(context.Background(), nil); err != nil || res.Updated != 1 {
		t.Fatalf("sync after migration: %+v %v", res, err)
	}
	if r := find(t, ix, search.Query{Text: "quokka"}); len(r.Hits) != 1 || !r.Hits[0].AdvisoryMatch {
		t.Errorf("quokka after migration: %+v", r.Hits)
	}
}
