package chunk

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/crossmem/crossmem/internal/layout"
	"github.com/crossmem/crossmem/internal/pdf"
)

var calib = flag.String("calib", "", "glob of PDFs: print function-word ratio per page (development aid)")

func TestCalib(t *testing.T) {
	if *calib == "" {
		t.Skip("use -calib=glob")
	}
	files, _ := filepath.Glob(*calib)
	e, err := pdf.Open(t.Context(), pdf.Options{CacheDir: filepath.Join(os.TempDir(), "crossmem-wazero")})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, f := range files {
		doc, _ := e.OpenFile(f)
		var pages []*pdf.Page
		for i := 1; i <= doc.NumPages(); i++ {
			p, _ := doc.Page(i)
			pages = append(pages, p)
		}
		st := layout.DocumentStats(pages)
		for _, p := range pages {
			lp := layout.Analyze(p, st)
			ok, _ := Assess(lp)
			fmt.Printf("%s p%d %s %v\n", filepath.Base(f), p.Number, Diagnose(lp), ok)
		}
		doc.Close()
	}
}
