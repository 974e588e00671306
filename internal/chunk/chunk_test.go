package chunk

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossmem/crossmem/internal/layout"
	"github.com/crossmem/crossmem/internal/pdf"
)

// Synthetic pages: blocks built by hand, as layout.Analyze returns them,
// so that every rule of Build is tested without a PDF.

// block makes a block of kind with one line per text line, its box
// [x0, y0, x1, y1].
func block(kind layout.Kind, text string, box [4]float64) *layout.Block {
	b := &layout.Block{Kind: kind, Box: pdf.Rect{X0: box[0], Y0: box[1], X1: box[2], Y1: box[3]}}
	for _, l := range strings.Split(text, "\n") {
		b.Lines = append(b.Lines, &layout.Line{Text: l, Size: 10})
	}
	return b
}

// heading makes a heading block that opens a section of level.
func heading(text string, level int) *layout.Block {
	b := block(layout.Heading, text, [4]float64{72, 700, 300, 712})
	b.Section = &layout.Section{Title: text, Level: level}
	return b
}

// page makes a page with a text layer of the blocks' characters.
func page(n int, label string, blocks ...*layout.Block) *layout.Page {
	p := &layout.Page{Number: n, Label: label, Blocks: blocks, Width: 612, Height: 792}
	for _, b := range blocks {
		p.Chars += len([]rune(b.Text()))
	}
	return p
}

// prose is enough real English for the trust check to judge (more than
// minJudgedLetters letters).
const prose = "The dominant sequence transduction models are based on complex recurrent or convolutional neural networks that include an encoder and a decoder. The best performing models also connect the encoder and decoder through an attention mechanism. We propose a new simple network architecture, the Transformer, based solely on attention mechanisms."

func TestBuildProvenance(t *testing.T) {
	p1 := page(1, "i",
		block(layout.Paragraph, "A title page line\nwith two lines", [4]float64{72.004, 600.005, 540.123, 640}),
		block(layout.PageFooter, "i", [4]float64{300, 20, 310, 30}),
	)
	p2 := page(2, "1",
		heading("1 Introduction", 1),
		block(layout.Paragraph, prose, [4]float64{72, 500, 540, 690}),
		heading("1.1 Background", 2),
		block(layout.Paragraph, "Related work.", [4]float64{72, 400, 540, 480}),
		heading("2 Method", 1),
		block(layout.Figure, "Figure 1: The model.", [4]float64{72, 100, 540, 120}),
	)
	res := Build([]*layout.Page{p1, p2})
	if res.Pages != 2 || len(res.Unquotable) != 0 {
		t.Fatalf("pages %d, unquotable %+v", res.Pages, res.Unquotable)
	}
	type row struct {
		ID, Type, Page, Label, Section, Path string
	}
	var got []row
	for _, c := range res.Chunks {
		got = append(got, row{c.ID, c.Type, string(rune('0' + c.Page)), c.PageLabel, c.Section, strings.Join(c.SectionPath, " > ")})
	}
	want := []row{
		{"p1s0c1", "paragraph", "1", "i", "", ""},
		{"p1s0c2", TypePageFooter, "1", "i", "", ""},
		{"p2s1c1", "heading", "2", "1", "1 Introduction", "1 Introduction"},
		{"p2s1c2", "paragraph", "2", "1", "1 Introduction", "1 Introduction"},
		{"p2s11c1", "heading", "2", "1", "1.1 Background", "1 Introduction > 1.1 Background"},
		{"p2s11c2", "paragraph", "2", "1", "1.1 Background", "1 Introduction > 1.1 Background"},
		{"p2s2c1", "heading", "2", "1", "2 Method", "2 Method"},
		{"p2s2c2", "caption", "2", "1", "2 Method", "2 Method"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("chunks (-want +got):\n%s", diff)
	}

	c := res.Chunks[0]
	if c.Text != "A title page line\nwith two lines" {
		t.Errorf("text %q: not the block's lines joined by \\n", c.Text)
	}
	if c.BBox != [4]float64{72, 600.01, 540.12, 640} {
		t.Errorf("bbox %v, want the block's box rounded to 0.01 pt", c.BBox)
	}
	sum := sha256.Sum256([]byte(c.Text))
	if c.TextSHA256 != hex.EncodeToString(sum[:]) || c.TextSHA256 != Hash(c.Text) {
		t.Errorf("text_sha256 %s is not the SHA-256 of the text", c.TextSHA256)
	}

	// Byte ranges index the page text: the page's chunk texts joined by
	// PageSeparator.
	for _, pn := range []int{1, 2} {
		var texts []string
		var chunks []Chunk
		for _, c := range res.Chunks {
			if c.Page == pn {
				texts = append(texts, c.Text)
				chunks = append(chunks, c)
			}
		}
		pageText := strings.Join(texts, PageSeparator)
		for _, c := range chunks {
			if got := pageText[c.ByteRange[0]:c.ByteRange[1]]; got != c.Text {
				t.Errorf("%s: page text[%d:%d] = %q, want its text", c.ID, c.ByteRange[0], c.ByteRange[1], got)
			}
		}
		if chunks[0].ByteRange[0] != 0 {
			t.Errorf("page %d starts at byte %d", pn, chunks[0].ByteRange[0])
		}
	}
}

func TestBuildIDsAreUniqueAndStable(t *testing.T) {
	pages := func() []*layout.Page {
		return []*layout.Page{page(1, "",
			block(layout.Paragraph, "One.", [4]float64{0, 0, 1, 1}),
			block(layout.Paragraph, "Two.", [4]float64{0, 0, 1, 1}),
			heading("Unnumbered heading", 1),
			block(layout.Paragraph, "Three.", [4]float64{0, 0, 1, 1}),
			heading("Another unnumbered", 1),
			block(layout.Paragraph, "Four.", [4]float64{0, 0, 1, 1}),
		)}
	}
	a, b := Build(pages()), Build(pages())
	if diff := cmp.Diff(a, b); diff != "" {
		t.Fatalf("two builds of the same pages differ:\n%s", diff)
	}
	seen := map[string]bool{}
	for _, c := range a.Chunks {
		if seen[c.ID] {
			t.Errorf("duplicate id %s", c.ID)
		}
		seen[c.ID] = true
	}
	// Unnumbered sections share the label 0: the counter goes on.
	if got := a.Chunks[len(a.Chunks)-1].ID; got != "p1s0c6" {
		t.Errorf("last id %s, want p1s0c6", got)
	}
}

func TestSectionLabels(t *testing.T) {
	for _, tc := range []struct {
		headings []string // one after another, each a level deeper than the one before
		label    string   // the label of the last
	}{
		{[]string{"3.2 Scaled Dot-Product Attention"}, "32"},
		{[]string{"3 Model Architecture"}, "3"},
		{[]string{"IV. Experiments"}, "4"},
		{[]string{"III. Method", "A. Setup"}, "3a"},
		{[]string{"V. Validation", "V.I Results", "V.I.II Model Implementation"}, "512"},
		{[]string{"Appendix B Proofs"}, "b"},
		{[]string{"A.1 Extra results"}, "a1"},
		{[]string{"References", "A Additional experiments"}, "a"}, // inside the back matter
		{[]string{"Introduction"}, "0"},
		{[]string{"A Survey of Things"}, "0"}, // a title, not an appendix, in the front matter
	} {
		var blocks []*layout.Block
		for i, h := range tc.headings {
			blocks = append(blocks, heading(h, i+1), block(layout.Paragraph, "Text.", [4]float64{0, 0, 1, 1}))
		}
		res := Build([]*layout.Page{page(1, "", blocks...)})
		last := res.Chunks[len(res.Chunks)-1]
		if want := "p1s" + tc.label + "c2"; last.ID != want {
			t.Errorf("%q: id %s, want %s", tc.headings, last.ID, want)
		}
	}
}

func TestContinues(t *testing.T) {
	first := block(layout.Paragraph, "A paragraph cut by the column", [4]float64{72, 100, 300, 200})
	furniture := block(layout.PageFooter, "7", [4]float64{300, 20, 310, 30})
	rest := block(layout.Paragraph, "break goes on here.", [4]float64{320, 600, 540, 700})
	rest.Continues = true
	stray := block(layout.Paragraph, "continues nothing", [4]float64{0, 0, 1, 1})
	stray.Continues = true

	res := Build([]*layout.Page{page(1, "", first, furniture), page(2, "", rest)})
	if got := res.Chunks[2].Continues; got != res.Chunks[0].ID {
		t.Errorf("continuation of %s across a footer: Continues = %q", res.Chunks[0].ID, got)
	}
	// After an unquotable page there is nothing to continue.
	res = Build([]*layout.Page{page(1, "", first), page(2, ""), page(3, "", stray)})
	if got := res.Chunks[len(res.Chunks)-1].Continues; got != "" {
		t.Errorf("continuation across an image-only page: Continues = %q", got)
	}
}

func TestUnquotableBlocksAndPages(t *testing.T) {
	res := Build([]*layout.Page{
		page(1, "", block(layout.Paragraph, ".", [4]float64{0, 0, 1, 1}), block(layout.Paragraph, "Real text.", [4]float64{0, 0, 1, 1})),
		page(2, ""), // no text layer
		page(3, "", block(layout.Paragraph, strings.Repeat("Xq zxcv bnm qwrt pls ", 20), [4]float64{0, 0, 1, 1})),
	})
	if len(res.Chunks) != 1 || res.Chunks[0].Text != "Real text." || res.Chunks[0].ID != "p1s0c1" {
		t.Errorf("chunks %+v, want only the quotable block of page 1", res.Chunks)
	}
	want := []Unquotable{{Page: 2, Reason: ReasonNoTextLayer}, {Page: 3, Reason: ReasonScrambled}}
	if diff := cmp.Diff(want, res.Unquotable); diff != "" {
		t.Errorf("unquotable (-want +got):\n%s", diff)
	}
}

func TestQuotable(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"word", true}, {"42", true}, {"∑", true}, {"é", true},
		{".", false}, {"....", false}, {" ( ) ", false}, {"\ue000", false}, {"", false},
	} {
		if got := Quotable(tc.text); got != tc.want {
			t.Errorf("Quotable(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

func TestAssess(t *testing.T) {
	short := page(1, "", block(layout.Paragraph, "Xq zx", [4]float64{0, 0, 1, 1}))
	if ok, _ := Assess(short); !ok {
		t.Error("a page with few letters is judged")
	}
	for _, lang := range []string{
		prose,
		strings.Repeat("Der Text ist mit einer Methode für die Analyse von Daten und nicht nur auf dem Papier geschrieben. ", 4),
		strings.Repeat("Le texte est une analyse des données et de la méthode pour les lecteurs qui sont dans la salle. ", 4),
	} {
		if ok, reason := Assess(page(1, "", block(layout.Paragraph, lang, [4]float64{0, 0, 1, 1}))); !ok {
			t.Errorf("real prose rejected (%s): %.40q", reason, lang)
		}
	}
	// A broken ToUnicode map: every letter drawn as some consonant.
	shifted := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' {
			return rune("bcdfghjklmnpqrstvwxzbcdfgh"[r-'a'])
		}
		return r
	}, strings.ToLower(prose))
	if ok, reason := Assess(page(1, "", block(layout.Paragraph, shifted, [4]float64{0, 0, 1, 1}))); ok || reason != ReasonScrambled {
		t.Errorf("scrambled text accepted: ok %v, reason %q (%s)", ok, reason, Diagnose(page(1, "", block(layout.Paragraph, shifted, [4]float64{0, 0, 1, 1}))))
	}
}

func TestAppendixAfterReferences(t *testing.T) {
	// "A Title" at the level of the references, after them, numbers an
	// appendix; before them it is a title.
	res := Build([]*layout.Page{page(1, "",
		heading("A Survey of Things", 1), block(layout.Paragraph, "Text.", [4]float64{0, 0, 1, 1}),
		heading("References", 1), block(layout.Reference, "A. Author. A paper. 2020.", [4]float64{0, 0, 1, 1}),
		heading("A Proofs", 1), block(layout.Paragraph, "Text.", [4]float64{0, 0, 1, 1}),
		heading("B More Results", 1), block(layout.Paragraph, "Text.", [4]float64{0, 0, 1, 1}),
	)})
	var got []string
	for _, c := range res.Chunks {
		got = append(got, c.ID)
	}
	want := []string{"p1s0c1", "p1s0c2", "p1s0c3", "p1s0c4", "p1sac1", "p1sac2", "p1sbc1", "p1sbc2"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
}

func TestAssessSymbolFont(t *testing.T) {
	// A font that maps letters to dingbats sets one block of a page of
	// otherwise sound prose: the block is not quotable, the page is.
	mapped := strings.Repeat("P❡♥❛❧✐③❡❞ ❧❡❛st sq✉❛r❡s ❛r❡ ✉s❡❞ ❤❡r❡. ", 3)
	bad := block(layout.Paragraph, mapped, [4]float64{72, 300, 540, 340})
	p := page(1, "", block(layout.Paragraph, prose, [4]float64{0, 0, 1, 1}), bad)
	if ok, reason := Assess(p); !ok {
		t.Errorf("page with one dingbat-mapped block rejected: %s", reason)
	}
	if ok, reason := AssessBlock(bad); ok || reason != ReasonSymbolFont {
		t.Errorf("dingbat-mapped block accepted: ok %v, reason %q", ok, reason)
	}
	res := Build([]*layout.Page{p})
	want := []Unquotable{{Page: 1, Reason: ReasonSymbolFont, BBox: &[4]float64{72, 300, 540, 340}}}
	if diff := cmp.Diff(want, res.Unquotable); diff != "" {
		t.Errorf("unquotable (-want +got):\n%s", diff)
	}
	for _, c := range res.Chunks {
		if strings.ContainsRune(c.Text, '❡') {
			t.Errorf("mapped text quoted: %q", c.Text)
		}
	}
	if len(res.Chunks) != 1 {
		t.Errorf("%d chunks, want the prose alone", len(res.Chunks))
	}
	// A short heading in such a font.
	if ok, _ := AssessBlock(block(layout.Heading, "P❡♥❛❧✐③❡❞ ❧❡❛st", [4]float64{0, 0, 1, 1})); ok {
		t.Error("dingbat-mapped heading accepted")
	}
	// Most of the page in such a font: the page goes.
	if ok, reason := Assess(page(1, "", bad, block(layout.Paragraph, "A short line.", [4]float64{0, 0, 1, 1}))); ok || reason != ReasonSymbolFont {
		t.Errorf("dingbat-mapped page accepted: ok %v, reason %q", ok, reason)
	}
	// Mapped words scattered over the page, in no run: the page goes.
	var scattered []*layout.Block
	for range 6 {
		scattered = append(scattered, block(layout.Paragraph, "The ❧❡❛st value is", [4]float64{0, 0, 1, 1}))
	}
	if ok, _ := Assess(page(1, "", scattered...)); ok {
		t.Error("page of scattered mapped words accepted")
	}
	// Private-use code points (a symbol font without Unicode values).
	pua := strings.Repeat("\uf06e\uf03d1 \uf061\uf062\uf063 ", 4)
	if ok, _ := Assess(page(1, "", block(layout.Paragraph, prose+" "+pua, [4]float64{0, 0, 1, 1}))); ok {
		if ok, _ := AssessBlock(block(layout.Paragraph, prose+" "+pua, [4]float64{0, 0, 1, 1})); ok {
			t.Error("private-use-mapped words accepted")
		}
	}
	// Ticks and crosses set on their own, symbols in running text, and
	// symbol-font labels in a figure, are no mapped font.
	ticks := block(layout.Paragraph, prose+" Check header ✅ absent ❌ ✓ ✓ ✗ ✓ ✓ ❖ bullets, with α = \uf061 and \uf062\uf03d2 here.", [4]float64{0, 0, 1, 1})
	fig := block(layout.FigureText, strings.Repeat("\uf06eSL\uf03d1 \uf06eD\uf03d1 ", 5), [4]float64{0, 0, 1, 1})
	if ok, reason := Assess(page(1, "", ticks, fig)); !ok {
		t.Errorf("page with ticks and a figure's symbol labels rejected: %s", reason)
	}
	// An equation set in a symbol font whose spaces, parentheses and
	// digits are private-use code points (U+F020 its space).
	eq := block(layout.Paragraph, "\uf020\uf020\uf020\uf020 \uf020e' > 0\uf020\uf020\uf020\uf028\uf031\uf029", [4]float64{0, 0, 1, 1})
	for _, b := range []*layout.Block{ticks, fig, eq} {
		if ok, _ := AssessBlock(b); !ok {
			t.Errorf("block rejected: %q", b.Text())
		}
	}
}

// A figure's caption set in a font mapped to dingbats is not the figure
// chunk's text: the figure is given without it, the caption is listed
// unquotable.
func TestMappedCaption(t *testing.T) {
	f := &layout.Float{Kind: layout.Figure, Box: pdf.Rect{X0: 72, Y0: 400, X1: 540, Y1: 700}}
	capt := block(layout.Figure, "F✐❣✉r❡ 1: ❚❤❡ ♠♦❞❡❧ ✇❡ ✉s❡.", [4]float64{72, 380, 540, 392})
	capt.Float, f.Caption = f, capt
	p := page(1, "", block(layout.Paragraph, prose, [4]float64{72, 100, 540, 300}), capt)
	p.Floats = []*layout.Float{f}
	res := Build([]*layout.Page{p})
	for _, c := range res.Chunks {
		if strings.ContainsRune(c.Text, '❣') {
			t.Errorf("%s chunk quotes the mapped caption: %q", c.Type, c.Text)
		}
	}
	if len(res.Unquotable) != 1 || res.Unquotable[0].BBox == nil {
		t.Errorf("unquotable %+v, want the caption's block", res.Unquotable)
	}
}
