package compile

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/pdf"
)

// digest is a fingerprint of everything a note takes from a compile: every
// chunk's id, type, page and label, section path, bbox (to 1/1000 pt, as
// notes write it and finer), text, hash, byte range and continuation, and
// the unquotable pages, and every figure crop's file name and SHA-256.
func digest(res chunk.Result) string {
	h := sha256.New()
	for _, c := range res.Chunks {
		fmt.Fprintf(h, "%s|%s|%d|%s|%q|%q|%.3f,%.3f,%.3f,%.3f|%s|%d,%d|%s|%q|%s|%s\n", c.ID, c.Type, c.Page, c.PageLabel,
			c.Section, c.SectionPath, c.BBox[0], c.BBox[1], c.BBox[2], c.BBox[3], c.TextSHA256,
			c.ByteRange[0], c.ByteRange[1], c.Continues, c.Text, c.Image, c.ImageSHA256)
	}
	for _, u := range res.Unquotable {
		fmt.Fprintf(h, "unquotable %d %s %v\n", u.Page, u.Reason, u.BBox)
	}
	return hex.EncodeToString(h.Sum(nil))[:24]
}

// TestCorpusIdentical proves that the speed machinery leaves the output as
// it is: every corpus paper is compiled once the plain way (one pdfium
// instance, pages read and laid out one after the other on one core) and
// once the way a batch compiles (two papers in flight, pages read on a
// pool of pdfium instances and laid out in parallel, figures drawn on
// several instances), and the two must agree on every chunk (texts,
// hashes, boxes, ids, sections, figure crops; see digest).
// The layout's own speed-ups have their references in their packages
// (internal/layout's dropOverprintMap, internal/pdf's regular expressions
// for the stream scan).
func TestCorpusIdentical(t *testing.T) {
	corpustest.Slow(t, "compiles every corpus PDF twice")
	pdfDir := corpustest.Dir(t, "pdf")
	files, _ := filepath.Glob(filepath.Join(pdfDir, "*.pdf"))
	if len(files) < 30 {
		t.Fatalf("expected the 36 corpus PDFs, found %d", len(files))
	}
	if raceEnabled {
		// Under the race detector, every sixth paper: the concurrency
		// is the same, the time a fraction.
		var some []string
		for i := 0; i < len(files); i += 6 {
			some = append(some, files[i])
		}
		files = some
	}
	data := make([][]byte, len(files))
	for i, f := range files {
		var err error
		if data[i], err = os.ReadFile(f); err != nil {
			t.Fatal(err)
		}
	}

	// The plain way.
	one, err := pdf.Open(t.Context(), pdf.Options{CacheDir: filepath.Join(os.TempDir(), "crossmem-test-wazero"), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer one.Close()
	procs := runtime.GOMAXPROCS(1)
	want := make([]string, len(files))
	for i := range files {
		res, err := ExtractFigures(t.Context(), one, data[i], "k")
		if err != nil {
			runtime.GOMAXPROCS(procs)
			t.Fatalf("%s: %v", filepath.Base(files[i]), err)
		}
		want[i] = fmt.Sprintf("pages=%d chunks=%d %s", res.Pages, len(res.Chunks), digest(res))
	}
	runtime.GOMAXPROCS(max(procs, 2))
	defer runtime.GOMAXPROCS(procs)

	// The batch way.
	pool, err := pdf.Open(t.Context(), pdf.Options{CacheDir: filepath.Join(os.TempDir(), "crossmem-test-wazero"), Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	got := make([]string, len(files))
	slots := make(chan struct{}, InFlight)
	var wg sync.WaitGroup
	for i := range files {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			res, err := ExtractFigures(t.Context(), pool, data[i], "k")
			if err != nil {
				t.Errorf("%s: %v", filepath.Base(files[i]), err)
				return
			}
			got[i] = fmt.Sprintf("pages=%d chunks=%d %s", res.Pages, len(res.Chunks), digest(res))
		})
	}
	wg.Wait()
	for i, f := range files {
		if got[i] != want[i] {
			t.Errorf("%s: batch %s, plain %s", filepath.Base(f), got[i], want[i])
		}
	}
}
