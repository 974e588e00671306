package layout

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

var dump = flag.String("dump", "", "print the layout of file.pdf[:page] and exit (development aid)")

func TestDump(t *testing.T) {
	if *dump == "" {
		t.Skip("use -dump=file.pdf[:page]")
	}
	path, pageArg, _ := strings.Cut(*dump, ":")
	pages := readPages(t, path)
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
			if os.Getenv("DUMP_SHORT") != "" {
				t := strings.ReplaceAll(b.Text(), "\n", " ")
				if len(t) > 70 {
					t = t[:70]
				}
				fmt.Printf("%-9s x=%3.0f-%3.0f y=%3.0f-%3.0f %s\n", b.Kind, b.Box.X0, b.Box.X1, b.Box.Y0, b.Box.Y1, t)
				continue
			}
			fmt.Printf("--- %s [%.0f %.0f %.0f %.0f] size=%.1f\n", b.Kind, b.Box.X0, b.Box.Y0, b.Box.X1, b.Box.Y1, b.Size())
			for _, l := range b.Lines {
				if os.Getenv("DUMP_LINES") != "" {
					fmt.Printf("[%5.1f %5.1f b=%5.1f s=%4.1f bold=%v] ", l.Box.X0, l.Box.X1, l.Base, l.Size, l.Bold)
				}
				fmt.Println(l.Text)
			}
		}
	}
}
