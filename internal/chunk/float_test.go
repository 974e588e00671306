package chunk

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossmem/crossmem/internal/layout"
	"github.com/crossmem/crossmem/internal/pdf"
)

func TestBuildFloats(t *testing.T) {
	// A figure with its caption, a figure without one, a table with its
	// caption above, an equation with its number.
	fig := &layout.Float{Kind: layout.Figure, Box: pdf.Rect{X0: 72, Y0: 400, X1: 540, Y1: 650}}
	figCap := block(layout.Figure, "Figure 1: The model.", [4]float64{72, 380, 540, 392})
	figCap.Float, figCap.Label = fig, "Figure 1"
	fig.Caption = figCap
	figText := block(layout.FigureText, "encoder\ndecoder", [4]float64{100, 500, 200, 600})
	figText.Float = fig
	fig.Text = figText
	bare := &layout.Float{Kind: layout.Figure, Box: pdf.Rect{X0: 72, Y0: 300, X1: 200, Y1: 370}}
	tab := &layout.Float{Kind: layout.Table, Box: pdf.Rect{X0: 72, Y0: 100, X1: 540, Y1: 250},
		Cells: [][]string{{"Model", "BLEU"}, {"Transformer", "28.4"}, {"", "n/a"}}}
	tabCap := block(layout.Table, "Table 1: Scores.", [4]float64{72, 260, 540, 272})
	tabCap.Float, tabCap.Label = tab, "Table 1"
	tab.Caption = tabCap
	tabText := block(layout.TableText, "Model BLEU\nTransformer 28.4\nn/a", [4]float64{72, 100, 540, 250})
	tabText.Float = tab
	tab.Text = tabText
	eq := block(layout.Equation, "E = mc2\n(3)", [4]float64{72, 50, 540, 70})
	eq.Label = "(3)"
	p := page(1, "", block(layout.Paragraph, prose, [4]float64{72, 660, 540, 760}), figText, figCap, tabCap, tabText, eq)
	p.Floats = []*layout.Float{fig, bare, tab}
	res := Build([]*layout.Page{p})
	type row struct{ ID, Type, Text, Label, CaptionOf, Float, Caption string }
	var got []row
	for _, c := range res.Chunks {
		got = append(got, row{c.ID, c.Type, c.Text, c.Label, c.CaptionOf, c.Float, c.Caption})
		if Hash(c.Text) != c.TextSHA256 || c.ByteRange[1]-c.ByteRange[0] != len(c.Text) {
			t.Errorf("%s: hash or byte range wrong", c.ID)
		}
	}
	want := []row{
		{"p1s0c1", TypeParagraph, prose, "", "", "", ""},
		// The figure at the first of its text and its caption, with the
		// caption's text.
		{"p1s0c2", TypeFigure, "Figure 1: The model.", "Figure 1", "", "", ""},
		{"p1s0c3", TypeFigureText, "encoder\ndecoder", "", "", "p1s0c2", ""},
		{"p1s0c4", TypeCaption, "Table 1: Scores.", "Table 1", "table", "p1s0c5", ""},
		{"p1s0c5", TypeTable, "Model\tBLEU\nTransformer\t28.4\n\tn/a", "", "", "", "p1s0c4"},
		{"p1s0c6", TypeEquation, "E = mc2", "(3)", "", "", ""},
		// A figure without a caption: no text, at the end of its page.
		{"p1s0c7", TypeFigure, "", "", "", "", ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("chunks (-want +got):\n%s", diff)
	}
	if c := res.Chunks[1]; c.BBox != [4]float64{72, 400, 540, 650} {
		t.Errorf("figure bbox %v, want its region", c.BBox)
	}
}

func TestBuildFigureCaptionFirst(t *testing.T) {
	fig := &layout.Float{Kind: layout.Figure, Box: pdf.Rect{X0: 72, Y0: 400, X1: 540, Y1: 650}}
	figCap := block(layout.Figure, "Figure 2. A plot.", [4]float64{72, 380, 540, 392})
	figCap.Float, figCap.Label = fig, "Figure 2"
	fig.Caption = figCap
	p := page(1, "", block(layout.Paragraph, prose, [4]float64{72, 660, 540, 760}), figCap)
	p.Floats = []*layout.Float{fig}
	res := Build([]*layout.Page{p})
	if len(res.Chunks) != 2 {
		t.Fatalf("%d chunks, want 2", len(res.Chunks))
	}
	c := res.Chunks[1]
	if c.Type != TypeFigure || c.Text != "Figure 2. A plot." || c.Label != "Figure 2" || c.BBox != [4]float64{72, 400, 540, 650} ||
		c.CaptionBBox == nil || *c.CaptionBBox != [4]float64{72, 380, 540, 392} {
		t.Errorf("figure chunk %+v, want the caption's text with the figure's region", c)
	}
}

func TestTableMarkdownRoundTrip(t *testing.T) {
	for _, text := range []string{
		"a\tb\nc\td",
		"Model\t\tBLEU\n\t|x|\t\\",
		"one",
		"a | b\t\\|\n\t",
		"\t\n\t",
	} {
		md := TableMarkdown(text)
		got, ok := ParseTableMarkdown(md)
		if !ok || got != text {
			t.Errorf("%q → %q → %q, %v", text, md, got, ok)
		}
	}
	if _, ok := ParseTableMarkdown([]string{"Table 1: a caption"}); ok {
		t.Error("a caption read as a table")
	}
}

// captionedTables returns n pages, each with a table and its caption
// above it (Table k), for BenchmarkBuildCaptions and
// TestBuildLinksManyCaptions.
func captionedTables(n int) []*layout.Page {
	var pages []*layout.Page
	for i := 1; i <= n; i++ {
		tab := &layout.Float{Kind: layout.Table, Box: pdf.Rect{X0: 72, Y0: 100, X1: 540, Y1: 250}, Cells: [][]string{{"Model", "BLEU"}, {"Ours", "28.4"}}}
		label := "Table " + strconv.Itoa(i)
		capBlock := block(layout.Table, label+": Scores.", [4]float64{72, 260, 540, 272})
		capBlock.Float, capBlock.Label = tab, label
		tab.Caption = capBlock
		text := block(layout.TableText, "Model BLEU\nOurs 28.4", [4]float64{72, 100, 540, 250})
		text.Float = tab
		tab.Text = text
		p := page(i, "", block(layout.Paragraph, prose, [4]float64{72, 660, 540, 760}), capBlock, text)
		p.Floats = []*layout.Float{tab}
		pages = append(pages, p)
	}
	return pages
}

// TestBuildLinksManyCaptions: each of 300 captions is linked to its own
// table and back.
func TestBuildLinksManyCaptions(t *testing.T) {
	res := Build(captionedTables(300))
	byID := map[string]Chunk{}
	for _, c := range res.Chunks {
		byID[c.ID] = c
	}
	n := 0
	for _, c := range res.Chunks {
		if c.Type != TypeCaption {
			continue
		}
		n++
		tab, ok := byID[c.Float]
		if !ok || tab.Type != TypeTable || tab.Page != c.Page || tab.Caption != c.ID {
			t.Fatalf("caption %s (%q) linked to %q (%+v)", c.ID, c.Text, c.Float, tab)
		}
	}
	if n != 300 {
		t.Errorf("%d captions, want 300", n)
	}
}

// BenchmarkBuildCaptions chunks 2,000 pages with a captioned table each:
// linking captions to their floats is linear in their number.
func BenchmarkBuildCaptions(b *testing.B) {
	pages := captionedTables(2000)
	for b.Loop() {
		Build(pages)
	}
}
