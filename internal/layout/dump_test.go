package layout

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/pdf"
)

var dump = flag.String("dump", "", "print the layout of file.pdf[:page] and exit (development aid)")

func TestDump(t *testing.T) {
	if *dump == "" {
		t.Skip("use -dump=file.pdf[:page]")
	}
	path, pageArg, _ := strings.Cut(*dump, ":")
	e, err := pdf.Open(t.Context(), pdf.Options{CacheDir: filepath.Join(os.TempDir(), "crossmem-wazero")})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	doc, err := e.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	var pages []*pdf.Page
	for i := 1; i <= doc.NumPages(); i++ {
		p, err := doc.Page(i)
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, p)
	}
	st := DocumentStats(pages)
	fmt.Printf("body size %.1f bold %v\n", st.BodySize, st.BodyBold)
	for _, p := range pages {
		if pageArg != "" {
			if n, _ := strconv.Atoi(pageArg); n != p.Number {
				continue
			}
		}
		lp := Analyze(p, st)
		fmt.Printf("=== page %d (%d chars, %d blocks)\n", p.Number, lp.Chars, len(lp.Blocks))
		for _, b := range lp.Blocks {
			fmt.Printf("--- %s [%.0f %.0f %.0f %.0f] size=%.1f\n%s\n", b.Kind, b.Box.X0, b.Box.Y0, b.Box.X1, b.Box.Y1, b.Size(), b.Text())
		}
	}
}
