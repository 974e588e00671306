package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/crossmem/crossmem/internal/compile"
	"github.com/crossmem/crossmem/internal/pdf"
)

func main() {
	e, err := pdf.Open(context.Background(), pdf.Options{CacheDir: os.ExpandEnv("$HOME/.cache/crossmem/wazero")})
	if err != nil {
		panic(err)
	}
	defer e.Close()
	files, _ := filepath.Glob("/work/shared/corpus/pdf/*.pdf")
	for _, f := range files {
		data, _ := os.ReadFile(f)
		r, err := compile.Extract(context.Background(), e, data, nil)
		if err != nil {
			fmt.Println(f, err)
			continue
		}
		if os.Getenv("BROKEN") != "" {
			for i := 1; i < len(r.Chunks); i++ {
				a, b := r.Chunks[i-1], r.Chunks[i]
				if a.Page != b.Page || a.Type != "paragraph" || b.Type != "paragraph" {
					continue
				}
				first := []rune(b.Text)[0]
				last := []rune(a.Text)[len([]rune(a.Text))-1]
				if unicode.IsLower(first) && !strings.ContainsRune(".:;!?", last) && len(strings.Fields(a.Text)) >= 3 {
					fmt.Printf("BROKEN %s %s|%s %q || %q\n", filepath.Base(f), a.ID, b.ID, tail(a.Text), trunc(b.Text))
				}
			}
			continue
		}
		if os.Getenv("PAIRS") != "" {
			byPage := map[int][]string{}
			for _, c := range r.Chunks {
				byPage[c.Page] = append(byPage[c.Page], c.Text)
			}
			for pg, texts := range byPage {
				out, _ := exec.Command("pdftotext", "-enc", "UTF-8", "-f", fmt.Sprint(pg), "-l", fmt.Sprint(pg), f, "-").Output()
				ours, theirs := words(strings.Join(texts, "\n\n")), words(string(out))
				if os.Getenv("CHUNKS") != "" {
					pp := count(pairsOf(theirs))
					for _, c := range r.Chunks {
						if c.Page != pg {
							continue
						}
						ws := words(c.Text)
						if len(ws) < 12 {
							continue
						}
						ps := pairsOf(ws)
						m := 0
						for w, n := range count(ps) {
							m += min(n, pp[w])
						}
						if a := float64(m) / float64(len(ps)); a < 0.85 {
							fmt.Printf("CHUNK %.2f %s %s %q\n", a, filepath.Base(f), c.ID, trunc(c.Text))
						}
					}
					continue
				}
				for _, s := range splits(ours, theirs) {
					fmt.Printf("OURSPLIT %s p%d %s\n", filepath.Base(f), pg, s)
				}
				for _, s := range splits(theirs, ours) {
					fmt.Printf("POPSPLIT %s p%d %s\n", filepath.Base(f), pg, s)
				}
			}
			continue
		}
		seen := map[string]string{}
		for _, c := range r.Chunks {
			key := fmt.Sprint(c.Page, "|", c.Text)
			letters := 0
			for _, r := range c.Text {
				if unicode.IsLetter(r) {
					letters++
				}
			}
			if letters >= 8 {
				if id, ok := seen[key]; ok {
					ours := 0
					for _, d := range r.Chunks {
						if d.Page == c.Page && d.Text == c.Text {
							ours++
						}
					}
					out, _ := exec.Command("pdftotext", "-enc", "UTF-8", "-f", fmt.Sprint(c.Page), "-l", fmt.Sprint(c.Page), f, "-").Output()
					theirs := strings.Count(strings.Join(strings.Fields(string(out)), " "), strings.Join(strings.Fields(c.Text), " "))
					if theirs < ours {
						fmt.Printf("DUP %s %s=%s ours=%d poppler=%d %q\n", filepath.Base(f), id, c.ID, ours, theirs, trunc(c.Text))
					}
				}
				seen[key] = c.ID
			}
			if letters == 0 && !strings.ContainsAny(c.Text, "0123456789") {
				fmt.Printf("PUNCT %s %s %q\n", filepath.Base(f), c.ID, trunc(c.Text))
			}
		}
	}
}

func pairsOf(ws []string) []string {
	var out []string
	for i := 1; i < len(ws); i++ {
		out = append(out, ws[i-1]+" "+ws[i])
	}
	return out
}

func tail(s string) string {
	r := []rune(s)
	if len(r) > 50 {
		return string(r[len(r)-50:])
	}
	return s
}

func trunc(s string) string {
	if len(s) > 160 {
		return s[:160]
	}
	return s
}
