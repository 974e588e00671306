package layout

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/crossmem/crossmem/internal/pdf"
)

var agree = flag.String("agree", "", "glob of PDFs: print word agreement with pdftotext per page (development aid)")

var hyphenBreak = regexp.MustCompile(`-\s*\n\s*(\p{Ll})`)

func bag(s string) map[string]int {
	s = norm.NFKC.String(s)
	s = hyphenBreak.ReplaceAllString(s, "$1")
	m := map[string]int{}
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		m[w]++
	}
	return m
}

func inter(a, b map[string]int) (n, na, nb int) {
	for w, c := range a {
		na += c
		n += min(c, b[w])
	}
	for _, c := range b {
		nb += c
	}
	return
}

func TestAgree(t *testing.T) {
	if *agree == "" {
		t.Skip("use -agree=glob")
	}
	files, _ := filepath.Glob(*agree)
	e, err := pdf.Open(t.Context(), pdf.Options{CacheDir: filepath.Join(os.TempDir(), "crossmem-wazero")})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, f := range files {
		doc, err := e.OpenFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var pages []*pdf.Page
		for i := 1; i <= doc.NumPages(); i++ {
			p, _ := doc.Page(i)
			pages = append(pages, p)
		}
		st := DocumentStats(pages)
		var tn, tp, to int
		for _, p := range pages {
			lp := Analyze(p, st)
			var sb strings.Builder
			for _, b := range lp.Blocks {
				sb.WriteString(b.Text())
				sb.WriteString("\n\n")
			}
			out, _ := exec.Command("pdftotext", "-f", fmt.Sprint(p.Number), "-l", fmt.Sprint(p.Number), "-enc", "UTF-8", f, "-").Output()
			n, np, no := inter(bag(string(out)), bag(sb.String()))
			tn += n
			tp += np
			to += no
			r, pr := 1.0, 1.0
			if np > 0 {
				r = float64(n) / float64(np)
			}
			if no > 0 {
				pr = float64(n) / float64(no)
			}
			if r < 0.97 || pr < 0.97 {
				fmt.Printf("  %s p%d recall %.3f precision %.3f (poppler %d, ours %d)\n", filepath.Base(f), p.Number, r, pr, np, no)
				if os.Getenv("AGREE_DIFF") != "" {
					a, b := bag(string(out)), bag(sb.String())
					var miss, extra []string
					for w, c := range a {
						if c > b[w] {
							miss = append(miss, fmt.Sprintf("%s×%d", w, c-b[w]))
						}
					}
					for w, c := range b {
						if c > a[w] {
							extra = append(extra, fmt.Sprintf("%s×%d", w, c-a[w]))
						}
					}
					fmt.Printf("    missing: %v\n    extra: %v\n", miss, extra)
				}
			}
		}
		fmt.Printf("%-45s recall %.4f precision %.4f words %d\n", filepath.Base(f), float64(tn)/float64(max(tp, 1)), float64(tn)/float64(max(to, 1)), tp)
		doc.Close()
	}
}
