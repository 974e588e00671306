package layout

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/pdf"
)

// BenchmarkDocument: the layout of every corpus PDF (layout.Document: the
// pages laid out, then the document-level steps), from pages read once
// before the timing.
func BenchmarkDocument(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(corpustest.Dir(b, "pdf"), "*.pdf"))
	e, err := pdf.Open(b.Context(), pdf.Options{CacheDir: corpustest.WazeroCache()})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	type doc struct {
		pages []*pdf.Page
		s     pdf.Structure
	}
	var docs []doc
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		pages, s, err := e.Read(b.Context(), data, nil)
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, doc{pages, s})
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range docs {
			Document(d.pages, d.s)
		}
	}
}
