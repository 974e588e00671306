package compile

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/golden"
)

// digest is a fingerprint of everything a note takes from a compile: every
// chunk's id, type, page and label, section path, bbox (to 1/1000 pt, as
// notes write it and finer), text, hash, byte range and continuation, and
// the unquotable pages.
func digest(res chunk.Result) string {
	h := sha256.New()
	for _, c := range res.Chunks {
		fmt.Fprintf(h, "%s|%s|%d|%s|%q|%q|%.3f,%.3f,%.3f,%.3f|%s|%d,%d|%s|%q\n", c.ID, c.Type, c.Page, c.PageLabel,
			c.Section, c.SectionPath, c.BBox[0], c.BBox[1], c.BBox[2], c.BBox[3], c.TextSHA256,
			c.ByteRange[0], c.ByteRange[1], c.Continues, c.Text)
	}
	for _, u := range res.Unquotable {
		fmt.Fprintf(h, "unquotable %d %s\n", u.Page, u.Reason)
	}
	return hex.EncodeToString(h.Sum(nil))[:24]
}

// TestCorpusIdentical compiles the whole corpus the way a batch does
// (RunAll's pipeline: several papers in flight, pages read on a pool of
// pdfium instances, pages laid out in parallel) and compares a digest of
// each paper's chunks (texts, hashes, boxes, ids, sections) with
// testdata/corpus.digest, recorded before the speed work of issue 15. It
// proves that the speed machinery leaves the output as it was; it fails
// too when the layout rules change on purpose: then check the notes
// (go run ./bench/inspect) and rerun with -update.
func TestCorpusIdentical(t *testing.T) {
	corpustest.Slow(t, "compiles every corpus PDF")
	pdfDir := corpustest.Dir(t, "pdf")
	files, _ := filepath.Glob(filepath.Join(pdfDir, "*.pdf"))
	if len(files) < 30 {
		t.Fatalf("expected the 36 corpus PDFs, found %d", len(files))
	}
	e := newEngine(t)
	var b strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Extract(t.Context(), e, data, nil)
		if err != nil {
			t.Fatalf("%s: %v", filepath.Base(f), err)
		}
		fmt.Fprintf(&b, "%s pages=%d chunks=%d %s\n", filepath.Base(f), res.Pages, len(res.Chunks), digest(res))
	}
	golden.Check(t, "testdata/corpus.digest", b.String())
}
