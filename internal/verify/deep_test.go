package verify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/note"
)

func deepPaper(t *testing.T, texts ...string) (*library.Paper, []chunk.Chunk) {
	t.Helper()
	lib, err := library.Open(filepath.Join(t.TempDir(), "home"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := lib.NewPaper("k2020", 1)
	if err != nil {
		t.Fatal(err)
	}
	pdf := []byte("%PDF-1.4 fake")
	os.WriteFile(p.PDFPath, pdf, 0o644)
	sum := sha256.Sum256(pdf)
	p.PDFSHA256 = hex.EncodeToString(sum[:])
	var cs []chunk.Chunk
	for i, s := range texts {
		cs = append(cs, chunk.Chunk{ID: "p1s0c" + string(rune('1'+i)), Type: "paragraph", Text: s, Page: 1,
			BBox: [4]float64{72, float64(600 - 100*i), 540, float64(680 - 100*i)}, TextSHA256: chunk.Hash(s), ByteRange: [2]int{0, len(s)}})
	}
	n := &note.Note{Front: note.Frontmatter{CiteKey: "k2020", Title: "T", CapturedAt: "1", Raw: "raw/1_k2020.pdf", Parser: note.Parser, Chunks: len(cs), Pages: 1, WikiFormat: note.FormatVersion}, Chunks: cs}
	data, _ := note.Format(n)
	os.WriteFile(p.NotePath, data, 0o644)
	return p, cs
}

func TestDeep(t *testing.T) {
	p, cs := deepPaper(t, "First paragraph.", "Second paragraph.", "Third paragraph.")
	// The extractor now gives: the first as before, the second moved, the
	// third with different text.
	moved := cs[1]
	moved.BBox = [4]float64{72, 100, 540, 150}
	changed := cs[2]
	changed.Text = "Third paragraph, now different."
	changed.TextSHA256 = chunk.Hash(changed.Text)
	extract := func(ctx context.Context, pdf []byte) (chunk.Result, error) {
		return chunk.Result{Chunks: []chunk.Chunk{cs[0], moved, changed}, Pages: 1}, nil
	}
	r, err := Deep(context.Background(), p, extract)
	if err != nil {
		t.Fatal(err)
	}
	if r.Chunks != 3 || r.Confirmed != 1 || len(r.Problems) != 2 {
		t.Fatalf("result %+v", r)
	}
	for i, want := range []string{"p1s0c2", "p1s0c3"} {
		pr := r.Problems[i]
		if pr.Kind != ExtractorChanged || pr.ChunkID != want || pr.Fix.Key != "k2020" || (pr.Fix.Kind != hint.RecordBBox && pr.Fix.Kind != hint.Reextract) {
			t.Errorf("problem %d: %+v", i, pr)
		}
	}
	if !strings.Contains(r.Problems[0].Detail, "another position") {
		t.Errorf("moved chunk: %s", r.Problems[0].Detail)
	}

	// The note edited by hand: reported as such, not as an extractor change.
	data, _ := os.ReadFile(p.NotePath)
	os.WriteFile(p.NotePath, []byte(strings.Replace(string(data), "> First paragraph.", "> First paragraph!", 1)), 0o644)
	same := func(ctx context.Context, pdf []byte) (chunk.Result, error) { return chunk.Result{Chunks: cs}, nil }
	r, _ = Deep(context.Background(), p, same)
	if len(r.Problems) != 1 || r.Problems[0].Kind != NoteEdited || r.Problems[0].ChunkID != "p1s0c1" || r.Confirmed != 2 {
		t.Errorf("edited note: %+v", r)
	}

	// The PDF changed: reported once, chunks not compared.
	os.WriteFile(p.PDFPath, []byte("%PDF-1.4 other"), 0o644)
	called := false
	r, _ = Deep(context.Background(), p, func(ctx context.Context, pdf []byte) (chunk.Result, error) { called = true; return chunk.Result{}, nil })
	if called || len(r.Problems) != 2 || r.Problems[1].Kind != PDFChanged {
		t.Errorf("changed PDF: extractor called %v, %+v", called, r.Problems)
	}
	n, probs := PDFs([]*library.Paper{p})
	if n != 1 || len(probs) != 1 || probs[0].Actual == "" || probs[0].Expected != p.PDFSHA256 {
		t.Errorf("PDFs: %d %+v", n, probs)
	}
	os.Remove(p.PDFPath)
	if _, probs := PDFs([]*library.Paper{p}); len(probs) != 1 || probs[0].Err == "" {
		t.Errorf("missing PDF: %+v", probs)
	}
	r, err = Deep(context.Background(), p, func(ctx context.Context, pdf []byte) (chunk.Result, error) { called = true; return chunk.Result{}, nil })
	if err != nil || called || len(r.Problems) != 2 || r.Problems[1].Kind != PDFChanged || r.Problems[1].Fix.Kind != hint.RestoreRawPDF || filepath.Base(r.Problems[1].Fix.Path) != "1_k2020.pdf" {
		t.Errorf("missing PDF, deep: err %v, extractor called %v, %+v", err, called, r)
	}
}
