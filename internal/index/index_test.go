package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/note"
	"github.com/crossmem/crossmem/internal/search"
)

type tchunk struct {
	id, typ, section, text string
	page                   int
}

type tpaper struct {
	key, title string
	authors    []string
	year       int
	aliases    []string
	chunks     []tchunk
}

// writeNote writes p as a note into dir and returns its path.
func writeNote(t testing.TB, dir string, p tpaper) string {
	t.Helper()
	n := &note.Note{Front: note.Frontmatter{
		CiteKey: p.key, Aliases: p.aliases, Title: p.title, Authors: p.authors, Year: p.year,
		CapturedAt: "1", Raw: "raw/1_" + p.key + ".pdf", Parser: note.Parser,
		Chunks: len(p.chunks), Pages: 9, UnquotablePages: []note.Unquotable{}, WikiFormat: note.FormatVersion,
	}}
	for _, c := range p.chunks {
		typ := c.typ
		if typ == "" {
			typ = "paragraph"
		}
		n.Chunks = append(n.Chunks, chunk.Chunk{
			ID: c.id, Type: typ, Text: c.text, Page: c.page, Section: c.section,
			BBox: [4]float64{72, 100, 540, 200}, TextSHA256: chunk.Hash(c.text), ByteRange: [2]int{0, len(c.text)},
		})
	}
	data, err := note.Format(n)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "1_"+p.key+".md")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

var papers = []tpaper{
	{key: "vaswani2017attention", title: "Attention Is All You Need", authors: []string{"Ashish Vaswani", "Noam Shazeer"}, year: 2017,
		aliases: []string{"transformer"},
		chunks: []tchunk{
			{id: "p1s0c1", typ: "heading", section: "Abstract", text: "Abstract", page: 1},
			{id: "p1s0c2", section: "Abstract", page: 1, text: "The dominant sequence transduction models are based on complex recurrent or\nconvolutional neural networks. We propose a new simple network architecture, the Transformer,\nbased solely on attention mechanisms, dispensing with recurrence and convolutions entirely."},
			{id: "p4s32c1", section: "3.2 Attention", page: 4, text: "We call our particular attention \"Scaled Dot-Product Attention\". The in-\nput consists of queries and keys of dimension dk, and values of dimen-\nsion dv."},
			{id: "p4s32c2", typ: "figure", section: "3.2 Attention", page: 4, text: "Figure 2: (left) Scaled Dot-Product Attention. (right) Multi-Head Attention consists of several attention layers running in parallel."},
		}},
	{key: "devlin2019bert", title: "BERT: Pre-training of Deep Bidirectional Transformers", authors: []string{"Jacob Devlin", "Ming-Wei Chang"}, year: 2019,
		chunks: []tchunk{
			{id: "p1s0c1", section: "Abstract", page: 1, text: "We introduce a new language representation model called BERT, which stands for Bidirectional Encoder Representations from Transformers."},
			{id: "p3s3c1", section: "3 BERT", page: 3, text: "There are two steps in our framework: pre-training and fine-tuning. During pre-training, the model is trained on unlabeled data over different pre-training tasks."},
			{id: "p5s4c1", section: "4 Experiments", page: 5, text: "The attention mechanism lets the model attend to every position of the input sequence."},
		}},
	{key: "lecun2015deep", title: "Deep Learning", authors: []string{"Yann LeCun", "Yoshua Bengio", "Geoffrey Hinton"}, year: 2015,
		chunks: []tchunk{
			{id: "p1s0c1", section: "", page: 1, text: "Deep learning allows computational models that are composed of multiple processing layers to learn representations of data with multiple levels of abstraction."},
			{id: "p2s1c1", section: "Supervised learning", page: 2, text: "The most common form of machine learning, deep or not, is supervised learning. Müller's state-of-the-art results use convolutional networks."},
		}},
}

// newIndex writes papers into a fresh wiki folder, syncs an index over it
// and returns both.
func newIndex(t testing.TB) (*Index, string) {
	t.Helper()
	home := t.TempDir()
	wiki := filepath.Join(home, "wiki")
	os.MkdirAll(wiki, 0o755)
	for _, p := range papers {
		writeNote(t, wiki, p)
	}
	ix, err := Open(filepath.Join(home, FileName), wiki)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	res, err := ix.Sync(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Added != len(papers) || len(res.Skipped) != 0 {
		t.Fatalf("sync: %+v", res)
	}
	return ix, wiki
}

func hitIDs(r *search.Result) []string {
	var out []string
	for _, h := range r.Hits {
		out = append(out, h.CiteKey+"/"+h.ChunkID)
	}
	return out
}

func find(t *testing.T, ix *Index, q search.Query) *search.Result {
	t.Helper()
	r, err := ix.Search(context.Background(), q)
	if err != nil {
		t.Fatalf("search %+v: %v", q, err)
	}
	return r
}

func TestSearchRanking(t *testing.T) {
	ix, wiki := newIndex(t)
	for _, tc := range []struct {
		q     string
		first string
	}{
		{"attention mechanisms dispensing with recurrence", "vaswani2017attention/p1s0c2"},
		{"attention mechanism", "devlin2019bert/p5s4c1"}, // both terms in the shortest chunk
		{"pre-training tasks", "devlin2019bert/p3s3c1"},
		{"supervised learning", "lecun2015deep/p2s1c1"},
		{"representation abstraction levels", "lecun2015deep/p1s0c1"}, // stemmed: "representations", "levels"
		{"MULLER", "lecun2015deep/p2s1c1"},                            // diacritics and case folded
		{"bidirectional encoder", "devlin2019bert/p1s0c1"},
		{"vaswani", "vaswani2017attention/p1s0c1"}, // through the authors only
	} {
		r := find(t, ix, search.Query{Text: tc.q})
		if got := hitIDs(r); len(got) == 0 || got[0] != tc.first {
			t.Errorf("%q: results %v, want %s first", tc.q, got, tc.first)
		}
	}
	r := find(t, ix, search.Query{Text: "scaled dot product"})
	h := r.Hits[0]
	if h.Title != "Attention Is All You Need" || h.Page != 4 || h.Section != "3.2 Attention" ||
		h.Link != "file://"+filepath.ToSlash(filepath.Join(wiki, "1_vaswani2017attention.md")) || !strings.Contains(h.Excerpt, "Scaled Dot-Product") {
		t.Errorf("hit %+v", h)
	}
	if r := find(t, ix, search.Query{Text: "zzqqxx"}); len(r.Hits) != 0 {
		t.Errorf("nonsense query: %v", hitIDs(r))
	}
	if r := find(t, ix, search.Query{Text: "the of and"}); len(r.Hits) != 0 {
		t.Errorf("stop words only: %v", hitIDs(r))
	}
	if r := find(t, ix, search.Query{Text: "  "}); len(r.Hits) != 0 {
		t.Errorf("empty query: %v", hitIDs(r))
	}
	// Prefixes.
	r = find(t, ix, search.Query{Text: "convol*", Limit: 20})
	if len(r.Hits) != 2 {
		t.Errorf("convol*: %v, want the two chunks with convolutional/convolutions", hitIDs(r))
	}
}

// The exact-phrase lane: a sentence from a chunk, typed however the PDF's
// hyphenation, ligatures and quotes came out, finds that chunk first, even
// when other chunks score higher on its words.
func TestPhraseLane(t *testing.T) {
	ix, _ := newIndex(t)
	for _, tc := range []struct{ q, first string }{
		{`The input consists of queries and keys of dimension dk`, "vaswani2017attention/p4s32c1"}, // "in-\nput" in the PDF
		{`"the input consists of queries"`, "vaswani2017attention/p4s32c1"},
		{`values of dimension dv`, "vaswani2017attention/p4s32c1"}, // "dimen-\nsion"
		{`We call our particular attention “Scaled Dot–Product Attention”.`, "vaswani2017attention/p4s32c1"},
		{`Müller’s state-of-the-art results`, "lecun2015deep/p2s1c1"},
		{`the model is trained on unlabeled data`, "devlin2019bert/p3s3c1"},
	} {
		r := find(t, ix, search.Query{Text: tc.q, Explain: true})
		if got := hitIDs(r); len(got) == 0 || got[0] != tc.first || !r.Hits[0].Explain.Phrase {
			t.Errorf("%q: %v, want the phrase hit %s first", tc.q, got, tc.first)
		}
	}
	// Two chunks have this phrase: both rank before the rest.
	r := find(t, ix, search.Query{Text: `“Scaled Dot-Product Attention”`, Explain: true, Limit: 10})
	if len(r.Hits) < 3 || !r.Hits[0].Explain.Phrase || !r.Hits[1].Explain.Phrase || r.Hits[2].Explain.Phrase {
		t.Errorf("two phrase hits: %v", hitIDs(r))
	}
	// A phrase that appears nowhere gives ordinary BM25 results.
	r = find(t, ix, search.Query{Text: `"attention consists of queries"`, Explain: true})
	for _, h := range r.Hits {
		if h.Explain.Phrase {
			t.Errorf("false phrase hit %s", h.ChunkID)
		}
	}
	// Explain says which lanes ran.
	joined := strings.Join(r.Notes, "\n")
	if !strings.Contains(joined, "phrase lane: on (quoted query)") || !strings.Contains(joined, "vector lane: off") {
		t.Errorf("notes: %v", r.Notes)
	}
}

func TestFilters(t *testing.T) {
	ix, _ := newIndex(t)
	for _, tc := range []struct {
		q    search.Query
		want []string // cite keys allowed
	}{
		{search.Query{Text: "attention", Key: "devlin2019bert"}, []string{"devlin2019bert"}},
		{search.Query{Text: "attention", Key: "transformer"}, []string{"vaswani2017attention"}}, // an alias
		{search.Query{Text: "learning", Author: "bengio"}, []string{"lecun2015deep"}},
		{search.Query{Text: "model", YearFrom: 2018}, []string{"devlin2019bert"}},
		{search.Query{Text: "model", YearTo: 2016}, []string{"lecun2015deep"}},
		{search.Query{Text: "attention", Section: "experiments"}, []string{"devlin2019bert"}},
		{search.Query{Text: "attention", Type: "figure"}, []string{"vaswani2017attention"}},
	} {
		r := find(t, ix, tc.q)
		if len(r.Hits) == 0 {
			t.Errorf("%+v: no results", tc.q)
		}
		for _, h := range r.Hits {
			ok := false
			for _, k := range tc.want {
				ok = ok || h.CiteKey == k
			}
			if !ok || (tc.q.Type != "" && h.Type != tc.q.Type) || (tc.q.Section != "" && !strings.Contains(strings.ToLower(h.Section), tc.q.Section)) {
				t.Errorf("%+v: hit %s/%s (%s, %s) breaks the filter", tc.q, h.CiteKey, h.ChunkID, h.Type, h.Section)
			}
		}
	}
	if r := find(t, ix, search.Query{Text: "attention", Author: "nobody", Explain: true}); len(r.Hits) != 0 || !strings.Contains(strings.Join(r.Notes, " "), "no paper matches") {
		t.Errorf("an author nobody is: %v %v", hitIDs(r), r.Notes)
	}
	// Filters that cannot match by their form are errors, not "no results".
	var uk *UnknownKeyError
	if _, err := ix.Search(context.Background(), search.Query{Text: "attention", Key: "nosuchkey"}); !errors.As(err, &uk) || uk.Key != "nosuchkey" {
		t.Errorf("unknown cite key filter: %v, want *UnknownKeyError", err)
	}
	var fe *FilterError
	for _, q := range []search.Query{{Text: "attention", Type: "caption"}, {Text: "attention", YearFrom: 2020, YearTo: 2019}} {
		if _, err := ix.Search(context.Background(), q); !errors.As(err, &fe) {
			t.Errorf("%+v: %v, want *FilterError", q, err)
		}
	}
}

func TestLimit(t *testing.T) {
	ix, wiki := newIndex(t)
	var cs []tchunk
	for i := 0; i < 40; i++ {
		cs = append(cs, tchunk{id: fmt.Sprintf("p1s0c%d", i+1), page: 1, text: fmt.Sprintf("transport equation number %d", i)})
	}
	writeNote(t, wiki, tpaper{key: "many2020", title: "Many", year: 2020, chunks: cs})
	if _, err := ix.Sync(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	for limit, want := range map[int]int{0: search.DefaultLimit, 3: 3, 20: 20, 50: search.MaxLimit} {
		if r := find(t, ix, search.Query{Text: "transport", Limit: limit}); len(r.Hits) != want {
			t.Errorf("limit %d: %d hits, want %d", limit, len(r.Hits), want)
		}
	}
}

func TestIncrementalSync(t *testing.T) {
	ix, wiki := newIndex(t)
	ctx := context.Background()
	// Nothing changed: nothing read.
	res, err := ix.Sync(ctx, nil)
	if err != nil || res.Changed() || res.Unchanged != len(papers) {
		t.Fatalf("second sync: %+v %v", res, err)
	}
	// Touched but identical: the hash says unchanged.
	path := filepath.Join(wiki, "1_lecun2015deep.md")
	future := time.Now().Add(time.Hour)
	os.Chtimes(path, future, future)
	if res, _ := ix.Sync(ctx, nil); res.Changed() || res.Unchanged != len(papers) {
		t.Errorf("touched note: %+v", res)
	}
	// Edited by hand: re-indexed.
	p := papers[2]
	p.chunks = append([]tchunk(nil), p.chunks...)
	p.chunks[0].text = "Convolutional networks see zebras in images."
	writeNote(t, wiki, p)
	if res, _ := ix.Sync(ctx, nil); res.Updated != 1 {
		t.Errorf("edited note: %+v", res)
	}
	if r := find(t, ix, search.Query{Text: "zebras"}); len(r.Hits) != 1 || r.Hits[0].CiteKey != "lecun2015deep" {
		t.Errorf("edited text not found: %v", hitIDs(r))
	}
	if r := find(t, ix, search.Query{Text: "computational"}); len(r.Hits) != 0 {
		t.Errorf("old text still found: %v", hitIDs(r))
	}
	// A file that is not a note is skipped with a warning; a note that
	// becomes unreadable leaves the index.
	os.WriteFile(filepath.Join(wiki, "README.md"), []byte("# notes\n"), 0o644)
	os.WriteFile(path, []byte("---\ncite_key: [broken\n"), 0o644)
	res, err = ix.Sync(ctx, nil)
	if err != nil || len(res.Skipped) != 2 {
		t.Fatalf("foreign and broken files: %+v %v", res, err)
	}
	if r := find(t, ix, search.Query{Text: "zebras"}); len(r.Hits) != 0 {
		t.Errorf("broken note still indexed: %v", hitIDs(r))
	}
	// Deleted: gone.
	os.Remove(filepath.Join(wiki, "1_devlin2019bert.md"))
	if res, _ := ix.Sync(ctx, nil); res.Removed != 1 {
		t.Errorf("deleted note: %+v", res)
	}
	if r := find(t, ix, search.Query{Text: "bidirectional"}); len(r.Hits) != 0 {
		t.Errorf("deleted note still found: %v", hitIDs(r))
	}
	// The statistics follow: df and totals equal a fresh build's.
	fresh, err := Open(filepath.Join(t.TempDir(), FileName), wiki)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	fresh.Sync(ctx, nil)
	if a, b := dumpStats(t, ix), dumpStats(t, fresh); a != b {
		t.Errorf("statistics after incremental syncs differ from a fresh build:\n%s\nvs\n%s", a, b)
	}
}

func dumpStats(t *testing.T, ix *Index) string {
	var b strings.Builder
	rows, err := ix.db.Query(`SELECT key, value FROM meta WHERE key IN ('chunks', 'tokens') UNION ALL SELECT 'term ' || term, df FROM terms UNION ALL SELECT 'word ' || word, df FROM words ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		var v int
		rows.Scan(&k, &v)
		fmt.Fprintf(&b, "%s=%d ", k, v)
	}
	return b.String()
}

func TestUpdateNoteAndRemove(t *testing.T) {
	ix, wiki := newIndex(t)
	ctx := context.Background()
	path := writeNote(t, wiki, tpaper{key: "new2024", title: "Fresh", year: 2024, chunks: []tchunk{{id: "p1s0c1", page: 1, text: "A quasicrystal of gold."}}})
	if err := ix.UpdateNote(ctx, path); err != nil {
		t.Fatal(err)
	}
	if r := find(t, ix, search.Query{Text: "quasicrystal"}); len(r.Hits) != 1 {
		t.Fatalf("after UpdateNote: %v", hitIDs(r))
	}
	os.Remove(path)
	if err := ix.UpdateNote(ctx, path); err != nil {
		t.Fatal(err)
	}
	if r := find(t, ix, search.Query{Text: "quasicrystal"}); len(r.Hits) != 0 {
		t.Errorf("after removal: %v", hitIDs(r))
	}
	if k, ok := ix.ResolveKey(ctx, "transformer"); !ok || k != "vaswani2017attention" {
		t.Errorf("ResolveKey(alias) = %q, %v", k, ok)
	}
}

// hasHint reports whether err says to do k.
func hasHint(err error, k hint.Kind) bool {
	a, ok := hint.Of(err)
	return ok && a.Kind == k
}

func TestSchemaVersion(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	ix, err := Open(path, dir)
	if err != nil {
		t.Fatal(err)
	}
	ix.db.Exec(fmt.Sprintf(`PRAGMA user_version = %d`, SchemaVersion+1))
	ix.Close()
	_, err = Open(path, dir)
	if a, ok := hint.Of(err); !errors.Is(err, ErrNewerSchema) || !ok || a.Kind != hint.UpgradeOrRebuildIndex {
		t.Errorf("newer schema: %v (hint %+v)", err, a)
	}
	// A foreign SQLite file and a file that is not SQLite.
	foreign := filepath.Join(dir, "foreign.db")
	db, _ := sql.Open("sqlite", foreign)
	db.Exec(`CREATE TABLE x(y)`)
	db.Close()
	if _, err := Open(foreign, dir); !errors.Is(err, ErrCorrupt) || !hasHint(err, hint.RebuildIndex) {
		t.Errorf("foreign database: %v", err)
	}
	junk := filepath.Join(dir, "junk.db")
	os.WriteFile(junk, []byte(strings.Repeat("not a database ", 100)), 0o644)
	if _, err := Open(junk, dir); !errors.Is(err, ErrCorrupt) || !hasHint(err, hint.RebuildIndex) {
		t.Errorf("junk file: %v", err)
	}
	// Rebuild replaces a file that is not a database.
	if _, err := Rebuild(context.Background(), junk, dir, noLock, nil); err != nil {
		t.Fatal(err)
	}
	ix2, err := Open(junk, dir)
	if err != nil {
		t.Fatalf("after Rebuild: %v", err)
	}
	ix2.Close()
}

// A writer re-indexing notes while readers search: readers never fail or
// see a half-written note, and two writers never corrupt the index.
func TestConcurrentReadersAndWriters(t *testing.T) {
	ix, wiki := newIndex(t)
	ctx := context.Background()
	other, err := Open(ix.Path(), wiki) // a second process's connection
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	var wg sync.WaitGroup
	stop := make(chan struct{})
	var readErr error
	var mu sync.Mutex
	for r := 0; r < 3; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				res, err := other.Search(ctx, search.Query{Text: "convolutional networks"})
				mu.Lock()
				if err != nil && readErr == nil {
					readErr = err
				}
				if err == nil && len(res.Hits) == 0 && readErr == nil {
					readErr = errors.New("a reader saw no results mid-update")
				}
				mu.Unlock()
			}
		}()
	}
	var werr [2]error
	var ww sync.WaitGroup
	for w := 0; w < 2; w++ {
		ww.Add(1)
		go func(w int) {
			defer ww.Done()
			writer := ix
			if w == 1 {
				writer = other
			}
			for i := 0; i < 15; i++ {
				// Each writer its own note (compile writes notes atomically,
				// under the library lock).
				p := tpaper{key: fmt.Sprintf("writer%d", w), title: "Writer", year: 2020, chunks: []tchunk{
					{id: "p1s0c1", page: 1, text: fmt.Sprintf("Convolutional networks, version %d of writer %d.", i, w)}}}
				path := writeNote(t, wiki, p)
				if err := writer.UpdateNote(ctx, path); err != nil {
					werr[w] = err
					return
				}
			}
		}(w)
	}
	ww.Wait()
	close(stop)
	wg.Wait()
	if werr[0] != nil || werr[1] != nil || readErr != nil {
		t.Fatalf("writers %v %v, readers %v", werr[0], werr[1], readErr)
	}
	var check string
	if err := ix.db.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Errorf("integrity_check: %q %v", check, err)
	}
	for _, key := range []string{"writer0", "writer1"} {
		var n, c int
		ix.db.QueryRow(`SELECT count(*) FROM notes WHERE cite_key = ?`, key).Scan(&n)
		ix.db.QueryRow(`SELECT count(*) FROM chunks c JOIN notes n ON n.id = c.note_id WHERE n.cite_key = ?`, key).Scan(&c)
		if n != 1 || c != 1 {
			t.Errorf("%s: %d note rows, %d chunk rows; want 1, 1", key, n, c)
		}
	}
}

// TestCaptionlessFigureStats: a figure chunk without text adds no terms,
// and taking its note away takes none: the statistics after the note is
// removed equal a fresh build's (its section's words were once taken
// away though never added).
func TestCaptionlessFigureStats(t *testing.T) {
	ix, wiki := newIndex(t)
	ctx := context.Background()
	// Another note keeps the section's words in the index.
	writeNote(t, wiki, tpaper{key: "keep2024", title: "Kept", year: 2024, chunks: []tchunk{
		{id: "p1s1c1", page: 1, section: "Methods", text: "Other words entirely."},
	}})
	path := writeNote(t, wiki, tpaper{key: "fig2024", title: "Figures", year: 2024, chunks: []tchunk{
		{id: "p1s1c1", page: 1, section: "Methods", text: "The methods of this paper."},
		{id: "p1s1c2", page: 1, section: "Methods", typ: "figure", text: ""},
	}})
	if _, err := ix.Sync(ctx, nil); err != nil {
		t.Fatal(err)
	}
	os.Remove(path)
	if res, err := ix.Sync(ctx, nil); err != nil || res.Removed != 1 {
		t.Fatalf("removal: %+v %v", res, err)
	}
	fresh, err := Open(filepath.Join(t.TempDir(), FileName), wiki)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if _, err := fresh.Sync(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if a, b := dumpStats(t, ix), dumpStats(t, fresh); a != b {
		t.Errorf("statistics after removing a note with a figure without text differ from a fresh build:\n%s\nvs\n%s", a, b)
	}
}
