package layout

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

var dump = flag.String("dump", "", "print the layout of file.pdf[:page] and exit (development aid; DUMP_LINES=1 adds line geometry, DUMP_SHORT=1 one line per block)")

func TestDump(t *testing.T) {
	if *dump == "" {
		t.Skip("use -dump=file.pdf[:page]")
	}
	path, pageArg, _ := strings.Cut(*dump, ":")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pages, s, err := openEngine(t).Read(t.Context(), data, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range s.Outline {
		fmt.Printf("outline L%d p%d x=%.0f y=%.0f %q\n", e.Level, e.Page, e.X, e.Y, e.Title)
	}
	st := DocumentStats(pages)
	fmt.Printf("body size %.1f bold %v\n", st.BodySize, st.BodyBold)
	for _, lp := range Document(pages, s) {
		if pageArg != "" {
			if n, _ := strconv.Atoi(pageArg); n != lp.Number {
				continue
			}
		}
		fmt.Printf("=== page %d (%d chars, %d blocks, %.0fx%.0f)\n", lp.Number, lp.Chars, len(lp.Blocks), lp.Width, lp.Height)
		for _, b := range lp.Blocks {
			if os.Getenv("DUMP_SHORT") != "" {
				t := strings.ReplaceAll(b.Text(), "\n", " ")
				if len(t) > 70 {
					t = t[:70]
				}
				fmt.Printf("%-9s x=%3.0f-%3.0f y=%3.0f-%3.0f %s\n", b.Kind, b.Box.X0, b.Box.X1, b.Box.Y0, b.Box.Y1, t)
				continue
			}
			sec := ""
			if b.Section != nil {
				sec = fmt.Sprintf(" section=%q L%d", b.Section.Title, b.Section.Level)
			}
			fmt.Printf("--- %s [%.0f %.0f %.0f %.0f] size=%.1f%s\n", b.Kind, b.Box.X0, b.Box.Y0, b.Box.X1, b.Box.Y1, b.Size(), sec)
			for _, l := range b.Lines {
				if os.Getenv("DUMP_LINES") != "" {
					fmt.Printf("[%5.1f %5.1f b=%5.1f s=%4.1f bold=%v] ", l.Box.X0, l.Box.X1, l.Base, l.Size, l.Bold)
				}
				fmt.Println(l.Text)
			}
		}
	}
}
