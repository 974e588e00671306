package index

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/search"
)

// syncIndex syncs ix and fails the test on an error.
func syncIndex(t *testing.T, ix *Index) {
	t.Helper()
	if _, err := ix.Sync(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
}

// A prefix matches the words as written, not their stems: "using" is
// indexed by FTS5 as the stem "use" and "dying" as "die", yet usi* and
// dyi* find them.
func TestPrefixMatchesWords(t *testing.T) {
	ix, wiki := newIndex(t)
	writeNote(t, wiki, tpaper{key: "hinton2012dropout", title: "Regularization", authors: []string{"Geoffrey Hinton"}, year: 2012,
		chunks: []tchunk{
			{id: "p1s0c1", page: 1, text: "Using dropout, the network avoids co-adaptation of feature detectors."},
			{id: "p2s0c1", page: 2, text: "Dying units stop learning; their gradients vanish."},
		}})
	syncIndex(t, ix)
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{"usi*", []string{"hinton2012dropout/p1s0c1"}},
		{"Usi*", []string{"hinton2012dropout/p1s0c1"}},
		{"dyi*", []string{"hinton2012dropout/p2s0c1"}},
		{"dropout usi*", []string{"hinton2012dropout/p1s0c1"}},
		{"gradients dyi*", []string{"hinton2012dropout/p2s0c1"}},
		// Every chunk with a word beginning with "att" (attention,
		// attend), and no other.
		{"att*", []string{"devlin2019bert/p5s4c1", "vaswani2017attention/p1s0c2", "vaswani2017attention/p4s32c1", "vaswani2017attention/p4s32c2"}},
		{"zzq*", nil},
		{"dropout zzq*", []string{"hinton2012dropout/p1s0c1"}}, // an unknown prefix adds nothing, takes nothing away
	} {
		got := hitIDs(find(t, ix, search.Query{Text: tc.q, Limit: 20}))
		sort.Strings(got)
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%q: %v, want %v", tc.q, got, tc.want)
		}
	}
}

// A prefix that begins many words is expanded to the most frequent of
// them only (bounded work), and the best match is still found: here
// through the query's other word, its own word being too rare to be among
// the expansions.
func TestPrefixExpansionBound(t *testing.T) {
	ix, wiki := newIndex(t)
	// 60 words res<xx>; word j is in chunks 0..j, so its df is j+1. With
	// "resonance" below and "results" in the base papers: 62 res words.
	var ws []string
	for i := 0; len(ws) < 60; i++ {
		ws = append(ws, fmt.Sprintf("res%c%c", 'a'+i/26, 'a'+i%26))
	}
	var cs []tchunk
	for i := range ws {
		cs = append(cs, tchunk{id: fmt.Sprintf("p1s0c%d", i+1), page: 1, text: "Filler: " + strings.Join(ws[i:], " ")})
	}
	cs = append(cs, tchunk{id: "p2s0c1", page: 2, text: "Quartz resonance is sharp."})
	writeNote(t, wiki, tpaper{key: "many2021", title: "Many", year: 2021, chunks: cs})
	syncIndex(t, ix)

	r := find(t, ix, search.Query{Text: "res*", Explain: true})
	if len(r.Hits) == 0 || !strings.Contains(strings.Join(r.Notes, "\n"), "prefix res*: 62 words begin with it; candidates come from the 50 most frequent") {
		t.Errorf("res*: %v, notes %v", hitIDs(r), r.Notes)
	}
	for _, q := range []string{"quartz res*", "resonan*", "quartz reso*", "sharp res* quartz"} {
		if got := hitIDs(find(t, ix, search.Query{Text: q})); len(got) == 0 || got[0] != "many2021/p2s0c1" {
			t.Errorf("%q: %v, want many2021/p2s0c1 first", q, got)
		}
	}
	// The expansion is the 50 most frequent words.
	st, err := ix.stats(context.Background(), parseQuery("res*", false))
	if err != nil {
		t.Fatal(err)
	}
	if got := st.prefix["res"]; len(got) != prefixWords || got[0] != "resch" || got[prefixWords-1] != "resak" {
		t.Errorf("expansion of res*: %v", got)
	}
}

// The phrase lane asks FTS5 for the chunk text only: a sentence of author
// names that are also the authors of many other notes (more chunks than
// every candidate budget) still finds its chunk.
func TestPhraseLaneTextColumnOnly(t *testing.T) {
	ix, wiki := newIndex(t)
	authors := []string{"Tal August", "Lucy Lu Wang", "Jonathan Bragg", "Marti A. Hearst", "Andrew Head", "Kyle Lo"}
	for n := 0; n < 11; n++ {
		var cs []tchunk
		for i := 0; i < 100; i++ {
			cs = append(cs, tchunk{id: fmt.Sprintf("p1s0c%d", i+1), page: 1, text: fmt.Sprintf("Paragraph %d of paper %d about reading interfaces.", i, n)})
		}
		writeNote(t, wiki, tpaper{key: fmt.Sprintf("august%02d", n), title: "Reading", authors: authors, year: 2022, chunks: cs})
	}
	// Its file sorts last: its chunks are indexed after the others'.
	writeNote(t, wiki, tpaper{key: "zz2023papermage", title: "PaperMage", authors: []string{"Kyle Lo"}, year: 2023,
		chunks: []tchunk{{id: "p7s0c9", page: 7, text: "Tal August, Lucy Lu Wang, Jonathan Bragg, Marti A. Hearst, Andrew Head, and Kyle Lo. 2023. Paper Plain."}}})
	syncIndex(t, ix)
	q := "Tal August, Lucy Lu Wang, Jonathan Bragg, Marti A. Hearst, Andrew Head, and Kyle Lo."
	r := find(t, ix, search.Query{Text: q, Explain: true})
	if got := hitIDs(r); len(got) == 0 || got[0] != "zz2023papermage/p7s0c9" || !r.Hits[0].Explain.Phrase {
		t.Errorf("%q: %v, want the phrase hit zz2023papermage/p7s0c9 first", q, got)
	}
}

// An index of schema 1 (FTS5 prefix index, no words table) is migrated on
// Open: what derives from the notes is dropped, the next Sync indexes
// every note again, embeddings are kept.
func TestMigrateFromSchema1(t *testing.T) {
	home := t.TempDir()
	wiki := filepath.Join(home, "wiki")
	if err := os.MkdirAll(wiki, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range papers {
		writeNote(t, wiki, p)
	}
	path := filepath.Join(home, FileName)
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{migrations[0],
		`INSERT INTO notes(name, size, mtime_ns, sha256, cite_key, title, authors, year, doi, arxiv_id) VALUES ('1_old.md', 1, 1, 'x', 'old', '', '', 0, '', '')`,
		`INSERT INTO embeddings(sha256, model, dim, vec) VALUES ('abc', 'm', 1, x'00000000')`,
		`UPDATE meta SET value = 7 WHERE key = 'chunks'`,
		`PRAGMA user_version = 1`} {
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
	var v, notes, emb, words int
	ix.db.QueryRow(`PRAGMA user_version`).Scan(&v)
	ix.db.QueryRow(`SELECT (SELECT count(*) FROM notes), (SELECT count(*) FROM embeddings), (SELECT count(*) FROM words)`).Scan(&notes, &emb, &words)
	if v != SchemaVersion || notes != 0 || emb != 1 || words != 0 {
		t.Fatalf("after migration: version %d, %d notes, %d embeddings, %d words", v, notes, emb, words)
	}
	res, err := ix.Sync(context.Background(), nil)
	if err != nil || res.Added != len(papers) {
		t.Fatalf("sync after migration: %+v %v", res, err)
	}
	if s, _ := ix.Stats(context.Background()); s.Chunks != 9 {
		t.Errorf("chunks after migration and sync: %d, want 9", s.Chunks)
	}
	if got := hitIDs(find(t, ix, search.Query{Text: "convol*", Limit: 20})); len(got) != 2 {
		t.Errorf("convol* after migration: %v", got)
	}
}
