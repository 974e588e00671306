package verify

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/library"
)

// TestLibrary verifies a library with one compiled paper and one entry
// without a note, then the same after an edit, a changed PDF and a deep
// pass whose extractor moved a chunk.
func TestLibrary(t *testing.T) {
	p, cs := deepPaper(t, "First paragraph.", "Second paragraph.")
	if err := (&library.Library{Home: filepath.Dir(filepath.Dir(p.PDFPath))}).WriteSidecar(p); err != nil {
		t.Fatal(err)
	}
	lib, err := library.Open(filepath.Dir(filepath.Dir(p.PDFPath)))
	if err != nil {
		t.Fatal(err)
	}
	bare, err := lib.NewPaper("bare2021", 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := lib.WriteSidecar(bare); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	res, err := Library(ctx, lib, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Problems() != 0 || res.Chunks != 2 || res.PDFsChecked != 1 || res.Deep != nil {
		t.Fatalf("clean library: problems %d, %+v", res.Problems(), res)
	}
	var nn *NoNoteError
	if _, err := Library(ctx, lib, Options{Key: "bare2021"}); !errors.As(err, &nn) || nn.CiteKey != "bare2021" {
		t.Errorf("key without a note: err %v, want *NoNoteError", err)
	}
	if _, err := Library(ctx, lib, Options{Key: "nosuch"}); !errors.Is(err, library.ErrNotFound) {
		t.Errorf("unknown key: err %v, want library.ErrNotFound", err)
	}

	// The extractor moved the second chunk: one deep problem, and the
	// progress callback saw the one compiled paper.
	moved := cs[1]
	moved.BBox = [4]float64{72, 10, 540, 20}
	calls := 0
	res, err = Library(ctx, lib, Options{Key: "k2020", Progress: func(i, n int) { calls++ },
		Extract: func(context.Context, []byte) (chunk.Result, error) {
			return chunk.Result{Chunks: []chunk.Chunk{cs[0], moved}, Pages: 1}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Problems() != 1 || len(res.Deep) != 1 || res.Deep[0].Confirmed != 1 || calls != 1 {
		t.Errorf("deep: problems %d, %+v, %d progress calls", res.Problems(), res.Deep, calls)
	}

	// An edit is one problem (a drift), counted once although the deep
	// pass reports it too.
	data, _ := os.ReadFile(p.NotePath)
	os.WriteFile(p.NotePath, []byte(strings.Replace(string(data), "> First paragraph.", "> First edited paragraph.", 1)), 0o644)
	res, err = Library(ctx, lib, Options{Extract: func(context.Context, []byte) (chunk.Result, error) {
		return chunk.Result{Chunks: cs, Pages: 1}, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Problems() != 1 || len(res.Drifts) != 1 || len(res.Deep[0].Problems) != 1 || res.Deep[0].Problems[0].Kind != NoteEdited {
		t.Errorf("edited note: problems %d, drifts %v, deep %+v", res.Problems(), res.Drifts, res.Deep[0].Problems)
	}

	// A failing extractor is an error of that note, not of the run.
	res, err = Library(ctx, lib, Options{Extract: func(context.Context, []byte) (chunk.Result, error) {
		return chunk.Result{}, errors.New("boom")
	}})
	if err != nil || len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Err, "boom") || res.Deep != nil {
		t.Errorf("failing extractor: err %v, errors %+v, deep %+v", err, res.Errors, res.Deep)
	}

	// A changed PDF is a problem (twice: the hash check and the deep pass,
	// which then does not extract).
	os.WriteFile(p.PDFPath, []byte("%PDF-1.4 other"), 0o644)
	res, err = Library(ctx, lib, Options{Extract: func(context.Context, []byte) (chunk.Result, error) {
		t.Error("extracted a changed PDF")
		return chunk.Result{}, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.PDFs) != 1 || res.Problems() != 1+1+1 {
		t.Errorf("changed PDF: problems %d (want drift + PDF + deep), PDFs %+v", res.Problems(), res.PDFs)
	}
}
