package layout

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/pdf"
)

// The document steps (furniture, sections, kinds, floats, equation
// numbers) regroup and retype lines but never lose one: on every corpus
// PDF the lines of Document's blocks are the lines of Analyze's blocks,
// but for a numbered run-in head cut from its line, whose two parts
// joined by a space are the line.
// An equation number joined to a display line split out of a paragraph
// once deleted the display line instead of the number.
func TestDocumentKeepsEveryLine(t *testing.T) {
	corpustest.Slow(t, "lays out every corpus PDF twice")
	files, _ := filepath.Glob(filepath.Join(corpustest.Dir(t, "pdf"), "*.pdf"))
	if len(files) < 30 {
		t.Fatalf("expected the 36 corpus PDFs, found %d", len(files))
	}
	for _, f := range files {
		pages := readPages(t, f)
		st := DocumentStats(pages)
		var want []string
		for _, p := range pages {
			for _, b := range Analyze(p, st).Blocks {
				for _, l := range b.Lines {
					want = append(want, l.Text)
				}
			}
		}
		var got []string
		for _, p := range Document(pages, pdf.Structure{}) {
			for _, b := range p.Blocks {
				for _, l := range b.Lines {
					got = append(got, l.Text)
				}
			}
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			var lost []string
			for _, w := range want {
				if i, ok := slices.BinarySearch(got, w); ok {
					got = slices.Delete(got, i, i+1)
				} else {
					lost = append(lost, w)
				}
			}
			// A numbered run-in head cut from its line (numberedRunIns)
			// leaves the line in two: the head and the text after it.
			lost = slices.DeleteFunc(lost, func(w string) bool {
				for i, h := range got {
					last, _ := utf8.DecodeLastRuneInString(h)
					if r := strings.TrimPrefix(w, h+" "); r != w && strings.ContainsRune(runInDelims, last) {
						if k := slices.Index(got, r); k >= 0 {
							got = slices.Delete(got, max(i, k), max(i, k)+1)
							got = slices.Delete(got, min(i, k), min(i, k)+1)
							return true
						}
					}
				}
				return false
			})
			if len(lost) == 0 && len(got) == 0 {
				continue
			}
			t.Errorf("%s: lines lost: %q; lines new: %q", filepath.Base(f), head(lost), head(got))
		}
	}
}

func head(s []string) string {
	if len(s) > 5 {
		s = s[:5]
	}
	return strings.Join(s, " | ")
}

// at moves the pen to a new line at (x, y), ending the current one the
// way pdfium does.
func (p *pen) at(x, y float64) *pen {
	p.newline(x)
	p.y = y
	return p
}

// A display set in pieces — a left-hand side, a fraction whose numerator
// and denominator are lines of their own, a trailing comma, the number
// at the margin — between two lines of running text is one equation
// chunk labelled with its number, and the running text stays paragraphs.
func TestDisplayPiecesJoin(t *testing.T) {
	p := newPen(72, 700, 10).text("The Einstein equations reduce in this case to the following two equations of motion:")
	p.at(130, 660).text("κρ(r, t) =")
	p.at(190, 667).text("2M(r)")
	p.at(190, 653).text("R2(r, t)")
	p.at(240, 660).text(",")
	p.at(500, 660).text("(6)")
	p.at(72, 630).text("where M is another arbitrary function of the radius and of the time coordinate.")
	page := &pdf.Page{Number: 1, Width: 612, Height: 792, Chars: p.chars}
	lp := Document([]*pdf.Page{page}, pdf.Structure{})
	var eqs []*Block
	for _, b := range lp[0].Blocks {
		if b.Kind == Equation {
			eqs = append(eqs, b)
		} else if strings.Contains(b.Text(), "κρ") || strings.Contains(b.Text(), "2M") {
			t.Errorf("a piece of the display is %s: %q", b.Kind, b.Text())
		}
	}
	if len(eqs) != 1 {
		t.Fatalf("%d equation blocks, want 1: %v", len(eqs), blockTexts(eqs))
	}
	for _, piece := range []string{"κρ(r, t) =", "2M(r)", "R2(r, t)", "(6)"} {
		if !strings.Contains(eqs[0].Text(), piece) {
			t.Errorf("equation %q lacks %q", eqs[0].Text(), piece)
		}
	}
	if eqs[0].Label != "(6)" {
		t.Errorf("label %q, want (6)", eqs[0].Label)
	}
}

// Two displays one below the other, each with its number (an align's
// rows), are two equation blocks, each labelled with its own number; a
// line of running text that opens with words ("and thus σ² ≡ …") after a
// display stays a paragraph however much mathematics it holds.
func TestNumberedRowsSplit(t *testing.T) {
	p := newPen(72, 700, 10).text("If the averaging procedure is applied to the Einstein equations, then we obtain:")
	p.at(130, 670).text("3ä/a = −4πGρ + Q,")
	p.at(500, 670).text("(1)")
	p.at(130, 652).text("3ȧ²/a² = 8πGρ − R/2 − Q/2,")
	p.at(500, 652).text("(2)")
	p.at(72, 630).text("and thus σ² ≡ (1/2)σαβσαβ = (1/3)(Ṙ/R − Ṙ/R)².")
	page := &pdf.Page{Number: 1, Width: 612, Height: 792, Chars: p.chars}
	lp := Document([]*pdf.Page{page}, pdf.Structure{})
	var labels []string
	for _, b := range lp[0].Blocks {
		switch {
		case b.Kind == Equation:
			labels = append(labels, b.Label)
			if strings.Contains(b.Text(), "and thus") {
				t.Errorf("running text in an equation: %q", b.Text())
			}
		case strings.Contains(b.Text(), "and thus") && b.Kind != Paragraph:
			t.Errorf("%q is %s, want paragraph", b.Text(), b.Kind)
		}
	}
	if strings.Join(labels, "|") != "(1)|(2)" {
		t.Errorf("equation labels %q, want (1) and (2)", labels)
	}
}

func blockTexts(bs []*Block) []string {
	var out []string
	for _, b := range bs {
		out = append(out, b.Text())
	}
	return out
}

// A code listing drawn in a frame (dl_code_and_formula.pdf, "Listing 1:
// Simple JavaScript Program" above a boxed JavaScript function) is one
// Code block with its line breaks, linked to its caption, and no figure.
func TestFramedListingIsCode(t *testing.T) {
	path := filepath.Join(corpustest.Dir(t, "pdf"), "dl_code_and_formula.pdf")
	pages := Document(readPages(t, path), pdf.Structure{})
	p := pages[0]
	var code *Block
	for _, b := range p.Blocks {
		if strings.Contains(b.Text(), "function add(a, b) {") {
			if b.Kind != Code {
				t.Fatalf("the listing is %s, want code: %q", b.Kind, b.Text())
			}
			code = b
		}
	}
	if code == nil {
		t.Fatal("no block holds the listing")
	}
	if got := strings.Split(code.Text(), "\n"); len(got) != 4 || got[1] != "return a + b;" {
		t.Errorf("listing lines %q, want its 4 lines", got)
	}
	for _, f := range p.Floats {
		if f.Kind == Figure {
			t.Errorf("a figure at %v: the frame around the listing is no figure", f.Box)
		}
	}
	for _, b := range p.Blocks {
		if strings.HasPrefix(b.Text(), "Listing 1") && (b.Float == nil || b.Float.Text != code) {
			t.Errorf("the caption %q is not linked to the listing", b.Text())
		}
	}
}
