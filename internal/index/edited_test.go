package index

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/search"
)

// editNote replaces old with new in the note of key, by hand: the
// chunk's text_sha256 is left as it was.
func editNote(t *testing.T, wiki, key, old, new string) {
	t.Helper()
	path := filepath.Join(wiki, "1_"+key+".md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(data), old) != 1 {
		t.Fatalf("%s does not hold %q once", path, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A chunk whose text no longer hashes to its text_sha256 is never served:
// not searched, not read, not matched; its place stays a gap; it is
// listed as withheld; the statistics are those of the notes without it.
func TestEditedChunks(t *testing.T) {
	ix, wiki := newIndex(t)
	ctx := context.Background()
	editNote(t, wiki, "vaswani2017attention", "We propose a new simple network architecture", "We propose a zebra network architecture")
	res, err := ix.Sync(ctx, nil)
	if err != nil || res.Updated != 1 {
		t.Fatalf("sync after the edit: %+v %v", res, err)
	}

	// Search: the edited words find nothing served, and say what was
	// withheld; the chunk's other words do not serve it either.
	for _, q := range []string{"zebra network architecture", "dominant sequence transduction models"} {
		r := find(t, ix, search.Query{Text: q})
		for _, h := range r.Hits {
			if h.ChunkID == "p1s0c2" && h.CiteKey == "vaswani2017attention" {
				t.Errorf("%q: the edited chunk was served", q)
			}
		}
		if len(r.Withheld) != 1 || r.Withheld[0].ChunkID != "p1s0c2" || r.Withheld[0].TextSHA256 == r.Withheld[0].ActualSHA256 {
			t.Errorf("%q: withheld %+v, want p1s0c2 with its two hashes", q, r.Withheld)
		}
	}
	// A filter on another paper leaves it out of the withheld list too.
	if r := find(t, ix, search.Query{Text: "zebra network architecture", Key: "devlin2019bert"}); len(r.Withheld) != 0 {
		t.Errorf("withheld outside the filter: %+v", r.Withheld)
	}

	// The chunk by id: an *EditedError with the verify hint.
	var ee *EditedError
	if _, err := ix.ChunkByID(ctx, "transformer", "p1s0c2"); !errors.As(err, &ee) || ee.Chunk.CiteKey != "vaswani2017attention" {
		t.Errorf("ChunkByID of the edited chunk: %v", err)
	}
	if _, err := ix.Read(ctx, ReadQuery{Key: "vaswani2017attention", ChunkID: "p1s0c2"}); !errors.As(err, &ee) {
		t.Errorf("Read of the edited chunk: %v", err)
	}
	// Its page reads without it, saying it is withheld.
	r, err := ix.Read(ctx, ReadQuery{Key: "vaswani2017attention", Page: 1})
	if err != nil || len(r.Chunks) != 1 || r.Chunks[0].ChunkID != "p1s0c1" || len(r.Withheld) != 1 || r.Withheld[0].ChunkID != "p1s0c2" {
		t.Errorf("Read page 1: %+v %v", r, err)
	}

	// PaperChunks: a gap without text where it was, so nothing is matched
	// across it.
	chunks, err := ix.PaperChunks(ctx, "vaswani2017attention")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range chunks {
		id := c.ChunkID
		if c.Edited {
			id += "(edited)"
			if c.Text != "" || c.Norm != "" {
				t.Errorf("the gap of %s holds text", c.ChunkID)
			}
		}
		ids = append(ids, id)
	}
	if got := strings.Join(ids, " "); got != "p1s0c1 p1s0c2(edited) p4s32c1 p4s32c2" {
		t.Errorf("PaperChunks = %s", got)
	}
	if es, err := ix.EditedMatching(ctx, []string{"we propose a ZEBRA network"}, 5); err != nil || len(es) != 1 {
		t.Errorf("EditedMatching: %+v %v", es, err)
	}
	if es, _ := ix.EditedMatching(ctx, []string{"we propose a new simple network"}, 5); len(es) != 0 {
		t.Errorf("EditedMatching of the original words: %+v", es)
	}
	if st, err := ix.Stats(ctx); err != nil || st.Edited != 1 {
		t.Errorf("Stats: %+v %v", st, err)
	}
	if ns, err := ix.NoteStats(ctx); err != nil || ns["vaswani2017attention"] != (NoteStat{Chunks: 3, Edited: 1}) {
		t.Errorf("NoteStats: %+v %v", ns, err)
	}

	// The statistics are a fresh build's, before and after the edit is
	// undone (the df of the edited chunk's words never counted).
	fresh, err := Open(filepath.Join(t.TempDir(), FileName), wiki)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	fresh.Sync(ctx, nil)
	if a, b := dumpStats(t, ix), dumpStats(t, fresh); a != b {
		t.Errorf("statistics with an edited chunk differ from a fresh build:\n%s\nvs\n%s", a, b)
	}
	editNote(t, wiki, "vaswani2017attention", "We propose a zebra network architecture", "We propose a new simple network architecture")
	if _, err := ix.Sync(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if r := find(t, ix, search.Query{Text: "new simple network architecture"}); len(r.Hits) == 0 || r.Hits[0].ChunkID != "p1s0c2" || len(r.Withheld) != 0 {
		t.Errorf("after undoing the edit: %v withheld %+v", hitIDs(r), r.Withheld)
	}
	if st, _ := ix.Stats(ctx); st.Edited != 0 {
		t.Errorf("edited after undoing: %d", st.Edited)
	}
}

func TestRead(t *testing.T) {
	ix, _ := newIndex(t)
	ctx := context.Background()
	r, err := ix.Read(ctx, ReadQuery{Key: "transformer", ChunkID: "p4s32c1"})
	if err != nil {
		t.Fatal(err)
	}
	if r.CiteKey != "vaswani2017attention" || len(r.Chunks) != 1 || !strings.Contains(r.Chunks[0].Text, "The in-\nput") ||
		r.Previous == nil || r.Previous.ChunkID != "p1s0c2" || r.Next == nil || r.Next.ChunkID != "p4s32c2" {
		t.Errorf("read chunk: %+v", r)
	}
	r, err = ix.Read(ctx, ReadQuery{Key: "devlin2019bert", Section: "experiments"})
	if err != nil || len(r.Chunks) != 1 || r.Chunks[0].ChunkID != "p5s4c1" || r.Next != nil || r.Previous.ChunkID != "p3s3c1" {
		t.Errorf("read section: %+v %v", r, err)
	}
	for _, q := range []ReadQuery{
		{Key: "devlin2019bert", Page: 9},
		{Key: "devlin2019bert", PageLabel: "xii"},
		{Key: "devlin2019bert", Section: "no such section"},
		{Key: "devlin2019bert", ChunkID: "p9s9c9"},
	} {
		if _, err := ix.Read(ctx, q); !errors.Is(err, ErrNothingToRead) {
			t.Errorf("%+v: %v, want ErrNothingToRead", q, err)
		}
	}
	if _, err := ix.Read(ctx, ReadQuery{Key: "nosuch", Page: 1}); !errors.Is(err, ErrUnknownPaper) {
		t.Errorf("unknown paper: %v", err)
	}
	if _, err := ix.Read(ctx, ReadQuery{Key: "devlin2019bert", Page: 1, Section: "x"}); err == nil {
		t.Error("two selections: no error")
	}
}

func TestPrintedPages(t *testing.T) {
	chunks := []Chunk{
		{Page: 1, Type: "page_footer", Text: "4969"},
		{Page: 2, Type: "page_footer", Text: "4970"},
		{Page: 2, Type: "page_header", Text: "Proceedings of ACL 2020"},
		{Page: 3, Type: "page_header", Text: "- xii -"},
		{Page: 4, Type: "page_footer", Text: "Page 7 of 15"},
		{Page: 5, Type: "page_footer", Text: "12"},
		{Page: 5, Type: "page_header", Text: "13"}, // two numbers: which one?
		{Page: 6, Type: "paragraph", Text: "42"},
		{Page: 7, Type: "page_header", Text: "2020"}, // a year in every running head
		{Page: 8, Type: "page_header", Text: "2020"},
	}
	got := PrintedPages(chunks)
	want := map[int]string{1: "4969", 2: "4970", 3: "xii", 4: "7"}
	if len(got) != len(want) {
		t.Errorf("PrintedPages = %v, want %v", got, want)
	}
	for p, n := range want {
		if got[p] != n {
			t.Errorf("page %d: %q, want %q", p, got[p], n)
		}
	}
}
