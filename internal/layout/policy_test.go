package layout

import (
	"math"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/pdf"
)

// pen writes synthetic characters the way pdfium reports them: loose boxes
// of width 0.5 em from 0.2 em below the baseline to 0.8 em above it.
type pen struct {
	chars []pdf.Char
	x, y  float64 // current position on the baseline
	size  float64
}

func newPen(x, y, size float64) *pen { return &pen{x: x, y: y, size: size} }

func (p *pen) char(r rune) pdf.Char {
	w := 0.5 * p.size
	c := pdf.Char{Rune: r, Font: -1, Size: p.size,
		Box: pdf.Rect{X0: p.x, Y0: p.y - 0.2*p.size, X1: p.x + w, Y1: p.y + 0.8*p.size}}
	p.x += w
	return c
}

// text writes s; a space in s becomes a real space glyph of width 0.25 em.
func (p *pen) text(s string) *pen {
	for _, r := range s {
		if r == ' ' {
			c := pdf.Char{Rune: ' ', Font: -1, Box: pdf.Rect{X0: p.x, Y0: p.y, X1: p.x + 0.25*p.size, Y1: p.y}}
			p.x += 0.25 * p.size
			p.chars = append(p.chars, c)
			continue
		}
		p.chars = append(p.chars, p.char(r))
	}
	return p
}

// gen writes a space pdfium generated, after moving right by gap em.
func (p *pen) gen(gap float64) *pen {
	p.x += gap * p.size
	p.chars = append(p.chars, pdf.Char{Rune: ' ', Generated: true, Font: -1, Box: pdf.Rect{X0: p.x, Y0: p.y, X1: p.x, Y1: p.y}})
	return p
}

// move skips gap em without any character.
func (p *pen) move(gap float64) *pen { p.x += gap * p.size; return p }

// newline ends the line the way pdfium does and starts the next one.
func (p *pen) newline(x float64) *pen {
	p.chars = append(p.chars,
		pdf.Char{Rune: '\r', Generated: true, Font: -1}, pdf.Char{Rune: '\n', Generated: true, Font: -1})
	p.x, p.y = x, p.y-1.2*p.size
	return p
}

func (p *pen) add(c pdf.Char) *pen { p.chars = append(p.chars, c); return p }

func layoutText(t *testing.T, chars []pdf.Char) []string {
	t.Helper()
	page := &pdf.Page{Number: 1, Width: 612, Height: 792, Chars: chars}
	lp := Analyze(page, DocumentStats([]*pdf.Page{page}))
	var out []string
	for _, b := range lp.Blocks {
		out = append(out, b.Text())
	}
	return out
}

func TestTextPolicy(t *testing.T) {
	cases := []struct {
		name  string
		chars func() []pdf.Char
		want  string
	}{
		{"whitespace runs collapse and lines are trimmed", func() []pdf.Char {
			return newPen(72, 700, 10).gen(0.1).text("one  two").gen(0.3).gen(0).text("three ").chars
		}, "one two three"},
		{"lines of a paragraph join with a line break", func() []pdf.Char {
			return newPen(72, 700, 10).text("first line of text").newline(72).text("second line").chars
		}, "first line of text\nsecond line"},
		{"line-end hyphen kept, line ends there", func() []pdf.Char {
			p := newPen(72, 700, 10).text("We test the dehypenisa")
			h := p.char('-')
			h.Hyphen = true
			p.add(h)
			p.x, p.y = 72, 688 // pdfium drops the line break after the hyphen
			return p.text("tion of a short text.").chars
		}, "We test the dehypenisa-\ntion of a short text."},
		{"word gap without a space becomes a space", func() []pdf.Char {
			return newPen(72, 700, 10).text("notified").gen(0.3).text("about").move(0.28).text("the").gen(0.3).text("data").chars
		}, "notified about the data"},
		{"kerning inside a word is no space", func() []pdf.Char {
			return newPen(72, 700, 10).text("wo").move(0.02).text("rd").gen(0.3).text("gap").chars
		}, "word gap"},
		{"letter-spaced word joined", func() []pdf.Char {
			p := newPen(72, 700, 10)
			for i, r := range "INSTRUCTION" {
				if i > 0 {
					p.gen(0.12)
				}
				p.text(string(r))
			}
			return p.chars
		}, "INSTRUCTION"},
		{"one-letter words stay words", func() []pdf.Char {
			return newPen(72, 700, 10).text("c").gen(0.3).text("is").gen(0.3).text("a").gen(0.3).text("character").chars
		}, "c is a character"},
		{"accent drawn over a letter is attached", func() []pdf.Char {
			p := newPen(72, 700, 10).text("Fa")
			a := p.chars[len(p.chars)-1]
			acc := pdf.Char{Rune: '¨', Font: -1, Size: 10, Box: a.Box,
				Ink: pdf.Rect{X0: a.Box.X0 + 1, Y0: 706, X1: a.Box.X1 - 1, Y1: 707.5}}
			return p.add(acc).text("rber").chars
		}, "Färber"},
		{"characters without Unicode are dropped", func() []pdf.Char {
			return newPen(72, 700, 10).text("ab").add(pdf.Char{Rune: 0, Font: -1, Size: 10, Box: pdf.Rect{X0: 82, Y0: 698, X1: 87, Y1: 708}}).text("c").chars
		}, "abc"},
		{"overprinted copy kept once", func() []pdf.Char {
			p := newPen(72, 700, 10).text("ENFORCED")
			q := newPen(72.3, 700, 10).text("ENFORCED")
			return append(p.chars, q.chars...)
		}, "ENFORCED"},
		{"ligature letters sharing a box are kept", func() []pdf.Char {
			p := newPen(72, 700, 10).text("e")
			lig := p.char('f')
			p.add(lig)
			lig.Rune = 'f'
			p.add(lig)
			lig.Rune = 'i'
			p.add(lig)
			return p.text("cient").chars
		}, "efficient"},
		{"interleaved drawing passes merge in x order", func() []pdf.Char {
			p := newPen(72, 700, 10)
			a := p.char('P')
			b := p.char('r')
			c := p.char('o')
			d := p.char('c')
			e := p.char('1')
			f := p.char(':')
			nl := func() []pdf.Char {
				return []pdf.Char{{Rune: '\r', Generated: true, Font: -1}, {Rune: '\n', Generated: true, Font: -1}}
			}
			out := []pdf.Char{a, e}
			out = append(out, nl()...)
			return append(out, b, c, d, f)
		}, "Proc1:"},
		{"footnote marker separated from its text", func() []pdf.Char {
			p := newPen(72, 700, 10)
			m := pdf.Char{Rune: '8', Font: -1, Size: 6, Box: pdf.Rect{X0: 72, Y0: 703, X1: 75, Y1: 709}}
			p.add(m)
			p.x = 75
			return p.text("The papers").chars
		}, "8 The papers"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Join(layoutText(t, tc.chars()), "\n\n")
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestRotatedText(t *testing.T) {
	// A word reading up the page (pdfium angle 3π/2), as the arXiv stamp
	// in a margin: stacked characters, x fixed, y growing.
	var chars []pdf.Char
	y := 200.0
	for _, r := range "arXiv:2302.07302v1" {
		chars = append(chars, pdf.Char{Rune: r, Font: -1, Size: 10, Angle: 3 * math.Pi / 2,
			Box: pdf.Rect{X0: 22, Y0: y, X1: 32, Y1: y + 5}})
		y += 5
	}
	// A horizontal paragraph that is the main text of the page.
	p := newPen(72, 700, 10).text("The main text of the page comes first.")
	got := layoutText(t, append(p.chars, chars...))
	want := []string{"The main text of the page comes first.", "arXiv:2302.07302v1"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
	page := &pdf.Page{Number: 1, Width: 612, Height: 792, Chars: chars}
	lp := Analyze(page, Stats{BodySize: 10})
	if len(lp.Blocks) != 1 {
		t.Fatalf("blocks = %d", len(lp.Blocks))
	}
	box := lp.Blocks[0].Box
	if box.X0 != 22 || box.X1 != 32 || box.Y0 != 200 || box.Y1 < 285 {
		t.Errorf("rotated block bbox %+v not mapped back to page coordinates", box)
	}
}

func TestQuarter(t *testing.T) {
	for _, tc := range []struct {
		angle float64
		want  int
	}{{0, 0}, {2 * math.Pi, 0}, {3 * math.Pi / 2, 1}, {math.Pi, 2}, {math.Pi / 2, 3}, {0.05, 0}, {6.25, 0}} {
		if got := pdf.Quarter(tc.angle); got != tc.want {
			t.Errorf("Quarter(%v) = %d, want %d", tc.angle, got, tc.want)
		}
	}
}

// TestPageMargins checks that a single line above all else in the top
// margin is a page header and one below all else in the bottom margin a
// page footer, while the body keeps its kinds.
func TestPageMargins(t *testing.T) {
	head := newPen(72, 760, 9).text("Journal of Examples, Vol. 3").chars
	body := newPen(72, 600, 10).text("The body of the page is a paragraph of").newline(72).
		text("several lines that run across the column").newline(72).text("and end here.").chars
	foot := newPen(300, 40, 9).text("12").chars
	chars := append(append(append([]pdf.Char{}, body...), head...), foot...)
	page := &pdf.Page{Number: 1, Width: 612, Height: 792, Chars: chars}
	lp := Analyze(page, DocumentStats([]*pdf.Page{page}))
	var got []string
	for _, b := range lp.Blocks {
		got = append(got, string(b.Kind)+": "+strings.ReplaceAll(b.Text(), "\n", " "))
	}
	want := []string{
		"page_header: Journal of Examples, Vol. 3",
		"paragraph: The body of the page is a paragraph of several lines that run across the column and end here.",
		"page_footer: 12",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("blocks\n got %q\nwant %q", got, want)
	}
}
