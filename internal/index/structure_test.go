package index

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/note"
	"github.com/crossmem/crossmem/internal/search"
)

// TestPageLabelsAndFurniture indexes a wiki_format 2 note with printed page
// labels and page furniture: hits carry the label (Location "p. 46"),
// furniture is left out of search unless a filter asks for it, and
// PaperChunks returns the label and the continuation link.
func TestPageLabelsAndFurniture(t *testing.T) {
	home := t.TempDir()
	wiki := filepath.Join(home, "wiki")
	os.MkdirAll(wiki, 0o755)
	body := "Growth hormone therapy in girls with Turner syndrome improves adult height"
	head := "Growth hormone and Turner syndrome, 2015, Vol. 113"
	n := &note.Note{Front: note.Frontmatter{CiteKey: "lucaccioni2015turner", Title: "Turner syndrome", CapturedAt: "1",
		Raw: "raw/1_x.pdf", Parser: note.Parser, Chunks: 3, Pages: 2, WikiFormat: note.FormatVersion}}
	for _, c := range []chunk.Chunk{
		{ID: "p2s0c1", Type: chunk.TypePageHeader, Text: head, Page: 2, PageLabel: "46"},
		{ID: "p2s0c2", Type: chunk.TypeParagraph, Text: body, Page: 2, PageLabel: "46", Section: "Growth", SectionPath: []string{"Growth"}},
		{ID: "p2s0c3", Type: chunk.TypeParagraph, Text: "and in boys with growth hormone deficiency", Page: 2, PageLabel: "46", Section: "Growth", SectionPath: []string{"Growth"}, Continues: "p2s0c2"},
	} {
		c.TextSHA256 = chunk.Hash(c.Text)
		c.ByteRange = [2]int{0, len(c.Text)}
		n.Chunks = append(n.Chunks, c)
	}
	data, err := note.Format(n)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(wiki, "1_lucaccioni2015turner.md"), data, 0o644)
	ix, err := Open(filepath.Join(home, FileName), wiki)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Sync(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	r := find(t, ix, search.Query{Text: "growth hormone turner syndrome"})
	for _, h := range r.Hits {
		if h.Type == chunk.TypePageHeader {
			t.Errorf("furniture hit %s without a filter", h.ChunkID)
		}
	}
	if len(r.Hits) == 0 || r.Hits[0].ChunkID != "p2s0c2" || r.Hits[0].PageLabel != "46" || r.Hits[0].Location() != "p. 46 §Growth" {
		t.Fatalf("hits = %+v, want p2s0c2 on p. 46 first", r.Hits)
	}
	for _, q := range []search.Query{{Text: "growth hormone turner syndrome", Type: chunk.TypePageHeader}, {Text: "growth hormone turner syndrome", Furniture: true}} {
		found := false
		for _, h := range find(t, ix, q).Hits {
			found = found || h.ChunkID == "p2s0c1"
		}
		if !found {
			t.Errorf("query %+v does not bring the running head back", q)
		}
	}
	cs, err := ix.PaperChunks(context.Background(), "lucaccioni2015turner")
	if err != nil || len(cs) != 3 || cs[2].PageLabel != "46" || cs[2].Continues != "p2s0c2" {
		t.Errorf("PaperChunks = %+v, %v", cs, err)
	}
}
