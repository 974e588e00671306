package index

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/note"
	"github.com/crossmem/crossmem/internal/search"
)

// writeFigureNote writes a note with two figure chunks into wiki: one
// whose crop is under the home, one whose crop path leaves it (never
// served).
func writeFigureNote(t *testing.T, wiki string) string {
	t.Helper()
	n := &note.Note{Front: note.Frontmatter{
		CiteKey: "fig2024plots", Title: "Plots", Authors: []string{"Ada Plot"}, Year: 2024,
		CapturedAt: "1", Raw: "raw/1_fig2024plots.pdf", Parser: note.Parser,
		Chunks: 2, Pages: 2, UnquotablePages: []note.Unquotable{}, WikiFormat: note.FormatVersion,
	}}
	for _, c := range []struct{ id, text, image string }{
		{"p1s0c1", "Figure 1: Loss of the sorghum classifier over training epochs.", "raw/figs/fig2024plots_fig1.png"},
		{"p2s0c1", "Figure 2: Accuracy of the millet classifier by epoch.", "../outside/fig2.png"},
	} {
		n.Chunks = append(n.Chunks, chunk.Chunk{ID: c.id, Type: chunk.TypeFigure, Text: c.text, Page: 1, BBox: [4]float64{72, 100, 540, 400},
			TextSHA256: chunk.Hash(c.text), ByteRange: [2]int{0, len(c.text)}, Image: c.image, ImageSHA256: chunk.Hash(c.image)})
	}
	data, err := note.Format(n)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(wiki, "1_fig2024plots.md")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestFigureImageFromIndex: a search hit on a figure, and a read of it,
// carry its crop's path from the index: the note is not read (here it is
// gone after indexing). A crop path leaving the home is not stored. A
// rebuild stores the path again from the notes.
func TestFigureImageFromIndex(t *testing.T) {
	home := t.TempDir()
	wiki := filepath.Join(home, "wiki")
	os.MkdirAll(wiki, 0o755)
	path := writeFigureNote(t, wiki)
	ix, err := Open(filepath.Join(home, FileName), wiki)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Sync(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	saved, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path, filepath.Join(home, "elsewhere.md")); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(home, "raw", "figs", "fig2024plots_fig1.png")
	check := func(when string) {
		t.Helper()
		r := find(t, ix, search.Query{Text: "sorghum classifier"})
		if len(r.Hits) == 0 || r.Hits[0].ChunkID != "p1s0c1" || r.Hits[0].Image != want {
			t.Errorf("%s: sorghum hits %+v, want p1s0c1 with image %s", when, r.Hits, want)
		}
		r = find(t, ix, search.Query{Text: "millet classifier"})
		if len(r.Hits) == 0 || r.Hits[0].ChunkID != "p2s0c1" || r.Hits[0].Image != "" {
			t.Errorf("%s: millet hits %+v, want p2s0c1 without an image (its path leaves the home)", when, r.Hits)
		}
		rr, err := ix.Read(context.Background(), ReadQuery{Key: "fig2024plots", Whole: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(rr.Images) != 1 || rr.Images["p1s0c1"] != want {
			t.Errorf("%s: read's images %v, want p1s0c1 → %s only", when, rr.Images, want)
		}
	}
	check("note moved away after indexing")

	// index --rebuild reads the notes again and stores the paths.
	if err := os.WriteFile(path, saved, 0o644); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	noLock := func(context.Context) (func(), error) { return func() {}, nil }
	if _, err := Rebuild(context.Background(), filepath.Join(home, FileName), wiki, noLock, nil); err != nil {
		t.Fatal(err)
	}
	if ix, err = Open(filepath.Join(home, FileName), wiki); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	check("after a rebuild, note removed")
}

// TestMigrateToImageSchema: an index of schema 6 (before figure crops were
// stored) is migrated on Open; the next sync reads every note again and
// its figure hits carry their crops.
func TestMigrateToImageSchema(t *testing.T) {
	home := t.TempDir()
	wiki := filepath.Join(home, "wiki")
	os.MkdirAll(wiki, 0o755)
	path := writeFigureNote(t, wiki)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(home, FileName)
	db, err := sql.Open("sqlite", "file:"+dbPath)
	if err != nil {
		t.Fatal(err)
	}
	qs := append([]string{}, migrations[:6]...)
	qs = append(qs,
		fmt.Sprintf(`INSERT INTO notes(name, size, mtime_ns, sha256, cite_key, title, authors, year, doi, arxiv_id) VALUES ('1_fig2024plots.md', %d, %d, 'x', 'fig2024plots', '', '', 0, '', '')`, fi.Size(), fi.ModTime().UnixNano()),
		`PRAGMA user_version = 6`)
	for _, q := range qs {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	ix, err := Open(dbPath, wiki)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if res, err := ix.Sync(context.Background(), nil); err != nil || res.Updated != 1 {
		t.Fatalf("sync after migration: %+v %v", res, err)
	}
	r := find(t, ix, search.Query{Text: "sorghum classifier"})
	if want := filepath.Join(home, "raw", "figs", "fig2024plots_fig1.png"); len(r.Hits) == 0 || r.Hits[0].Image != want {
		t.Errorf("after migration: hits %+v, want the crop %s", r.Hits, want)
	}
}
