// Command texglyphs checks crossmem's reading of TeX's math fonts against
// MuPDF: pdfTeX (without \pdfgentounicode) prints every code 0–127 of
// cmsy10, cmmi10, cmex10, msam10 and msbm10, each labelled by its number;
// crossmem (pdfium with glyph names from the font programs) and
// `mutool draw -F text` read the PDF, and every code on which they
// disagree is listed with its glyph name (from the font's own encoding).
//
//	go run ./bench/texglyphs
//
// It needs pdftex, kpsewhich and mutool on PATH (texlive-base,
// mupdf-tools).
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/crossmem/crossmem/bench/internal/corpus"
	"github.com/crossmem/crossmem/internal/pdf"
)

var fonts = []string{"cmsy10", "cmmi10", "cmex10", "msam10", "msbm10"}

// source prints one font per page: "<code>:\ <glyph>" for codes 0–127 in
// cmtt (the control space makes each glyph a word of its own).
const source = `\pdfoutput=1
\hsize=6.5in \vsize=9in \parindent=0pt
\font\a=cmsy10 \font\b=cmmi10 \font\c=cmex10 \font\d=msam10 \font\e=msbm10
\newcount\n
\def\tbl#1{\n=0 {\tt\loop \the\n:\ {#1\char\n}\hskip 1em plus 1em \advance\n by 1 \ifnum\n<128 \repeat}\par\vfill\eject}
\tbl\a \tbl\b \tbl\c \tbl\d \tbl\e
\bye
`

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "texglyphs:", err)
		os.Exit(1)
	}
}

func run() error {
	dir, err := os.MkdirTemp("", "texglyphs")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "all.tex"), []byte(source), 0o644); err != nil {
		return err
	}
	cmd := exec.Command("pdftex", "-interaction=nonstopmode", "all.tex")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("pdftex: %v\n%s", err, out)
	}
	path := filepath.Join(dir, "all.pdf")

	e, err := pdf.Open(context.Background(), pdf.Options{CacheDir: corpus.WazeroCache()})
	if err != nil {
		return err
	}
	defer e.Close()
	doc, err := e.OpenFile(path)
	if err != nil {
		return err
	}
	defer doc.Close()
	var ours []map[int]string
	for n := 1; n <= len(fonts); n++ {
		p, err := doc.Page(n)
		if err != nil {
			return err
		}
		var b strings.Builder
		for _, c := range p.Chars {
			if c.Generated {
				b.WriteRune(' ')
			} else {
				b.WriteRune(c.Rune)
			}
		}
		ours = append(ours, codes(b.String()))
	}
	out, err := exec.Command("mutool", "draw", "-F", "text", path).Output()
	if err != nil {
		return fmt.Errorf("mutool: %v", err)
	}
	var mupdf []map[int]string
	for _, page := range strings.Split(string(out), "\f") {
		if strings.TrimSpace(page) != "" {
			mupdf = append(mupdf, codes(page))
		}
	}
	if len(mupdf) != len(fonts) {
		return fmt.Errorf("mutool read %d pages, want %d", len(mupdf), len(fonts))
	}
	fmt.Println("| font | codes | same as MuPDF | MuPDF has none | differ |")
	fmt.Println("|---|---|---|---|---|")
	var diffs []string
	for k, font := range fonts {
		names, err := glyphNames(font)
		if err != nil {
			return err
		}
		same, none, differ := 0, 0, 0
		for c := 0; c < 128; c++ {
			a, m := ours[k][c], mupdf[k][c]
			switch {
			case a == m:
				same++
			case m == "" || m == "\uFFFD":
				none++
			default:
				differ++
				diffs = append(diffs, fmt.Sprintf("%s %3d %-20s crossmem %-8q MuPDF %q", font, c, names[c], a, m))
			}
		}
		fmt.Printf("| %s | 128 | %d | %d | %d |\n", font, same, none, differ)
	}
	fmt.Println()
	for _, d := range diffs {
		fmt.Println(d)
	}
	return nil
}

var label = regexp.MustCompile(`(\d+):`)

// codes reads "<code>: <glyph>" pairs: the glyph is the text up to the
// next space (empty when the page has nothing there).
func codes(text string) map[int]string {
	out := map[int]string{}
	for _, m := range label.FindAllStringSubmatchIndex(text, -1) {
		c, _ := strconv.Atoi(text[m[2]:m[3]])
		rest := strings.TrimLeft(text[m[1]:], " \r\n")
		if i := strings.IndexAny(rest, " \r\n"); i >= 0 {
			rest = rest[:i]
		}
		if m := label.FindStringIndex(rest); m != nil {
			rest = rest[:m[0]] // the next label, with no space before it
		}
		if _, ok := out[c]; !ok && c < 128 {
			out[c] = rest
		}
	}
	return out
}

// glyphNames reads the built-in encoding of TeX Live's Type 1 font.
func glyphNames(font string) (*[256]string, error) {
	p, err := exec.Command("kpsewhich", font+".pfb").Output()
	if err != nil {
		return nil, fmt.Errorf("kpsewhich %s.pfb: %v", font, err)
	}
	data, err := os.ReadFile(strings.TrimSpace(string(p)))
	if err != nil {
		return nil, err
	}
	enc := pdf.BuiltinEncoding(data)
	if enc == nil {
		return nil, fmt.Errorf("%s: no built-in encoding", font)
	}
	return enc, nil
}
