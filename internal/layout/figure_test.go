package layout

import (
	"slices"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/corpustest"
)

// The one caption rule: the forms publishers print, and running text or a
// table's row that only opens with a float's name.
func TestCaptionKind(t *testing.T) {
	for _, c := range []struct {
		text  string
		kind  Kind
		label string
	}{
		{"Figure 3: Results on the test set", Figure, "Figure 3"},
		{"Fig. 2 A figure of the set-up", Figure, "Fig. 2"},
		{"FIGURE 4. Distribution", Figure, "FIGURE 4"},
		{"Figure 1-2 Overview", Figure, "Figure 1-2"},
		{"Table IV | Scores", Table, "Table IV"},
		{"Table S3. Supplementary results", Table, "Table S3"},
		{"Tab. 3 Timing", Table, "Tab. 3"},
		{"Listing 1: Simple JavaScript Program", Caption, "Listing 1"},
		{"Algorithm 2", Caption, "Algorithm 2"},
		{"Figure 3 shows the results of the run", "", ""},
		{"Figure 0.0 0.0 0.0 88.9 82.3", "", ""},
		{"Example 2.\nline two\nline three\nline four", "", ""},
		{"Figures are drawn by pdfium", "", ""},
	} {
		k, label := captionKind(c.text)
		if k != c.kind || label != c.label {
			t.Errorf("captionKind(%q) = %q, %q; want %q, %q", c.text, k, label, c.kind, c.label)
		}
		if captionText(c.text) != (c.kind != "") {
			t.Errorf("captionText(%q) = %v, want %v", c.text, c.kind == "", c.kind != "")
		}
	}
}

// pageOf returns page number of a laid-out document, nil when it has none.
func pageOf(pages []*Page, number int) *Page {
	for _, p := range pages {
		if p.Number == number {
			return p
		}
	}
	return nil
}

// captionFloat returns the float linked to the caption block of page p
// whose text starts with prefix, and whether that caption was found.
func captionFloat(p *Page, prefix string) (*Float, bool) {
	for _, b := range p.Blocks {
		if isCaption(b.Kind) && strings.HasPrefix(b.Text(), prefix) {
			return b.Float, true
		}
	}
	return nil, false
}

// Figure captions that find their figures on real corpus pages:
//   - a scanned page (gr_ZFN p. 2: one image under an OCR text layer):
//     Fig. 2's figure is the image area above its caption, with the tick
//     labels as its text;
//   - a table of words captioned as a figure (ol_overrun p. 25, "Fig.
//     4"): the caption's figure is the table, its text figure text;
//   - a page shown inside a figure (pm_papermage p. 4) whose own
//     "Figure 1." caption (in picture type) is the figure's text: the real
//     caption below, "Figure 3:", takes the figure;
//   - an empty white frame box (dl_redp5110 p. 5) is no figure.
func TestFiguresFoundByCaption(t *testing.T) {
	corpustest.Slow(t, "lays out corpus PDFs")
	zfn := pageOf(corpusDocument(t, "gr_ZFN-A-054-0304-0272.pdf"), 2)
	f, ok := captionFloat(zfn, "Fig. 2.")
	if !ok || f == nil || f.Kind != Figure || f.Box.Height() < 100 {
		t.Errorf("gr_ZFN p. 2: Fig. 2 caption found %v, float %+v; want a figure above it", ok, f)
	} else if f.Text == nil || !strings.Contains(f.Text.Text(), "-100") {
		t.Errorf("gr_ZFN p. 2: Fig. 2's figure text %v, want its tick labels", f.Text)
	}

	overrun := pageOf(corpusDocument(t, "ol_overrun_on_pg8.pdf"), 25)
	f, ok = captionFloat(overrun, "Fig. 4.")
	if !ok || f == nil || f.Text == nil || f.Text.Kind != FigureText || !strings.Contains(f.Text.Text(), "Identity") {
		t.Errorf("ol_overrun p. 25: Fig. 4 caption found %v, float %+v; want the table of monoids as its figure text", ok, f)
	}
	for _, b := range overrun.Blocks {
		if b.Kind == Equation && strings.Contains(b.Text(), "Operation") {
			t.Errorf("ol_overrun p. 25: the table of monoids is still an equation: %q", b.Text())
		}
	}

	pm := pageOf(corpusDocument(t, "pm_papermage.pdf"), 4)
	if _, ok := captionFloat(pm, "Figure 1."); ok {
		t.Errorf("pm_papermage p. 4: the shown page's \"Figure 1.\" is a caption of the document")
	}
	f, ok = captionFloat(pm, "Figure 3:")
	if !ok || f == nil || f.Kind != Figure || f.Text == nil || !strings.Contains(f.Text.Text(), "Figure 1. Revolt") {
		t.Errorf("pm_papermage p. 4: Figure 3 caption found %v, float %+v; want the figure with the shown page's caption in its text", ok, f)
	}

	redp := pageOf(corpusDocument(t, "dl_redp5110_sampled.pdf"), 5)
	for _, f := range redp.Floats {
		if f.Box.X0 > 60 && f.Box.X1 < 135 && f.Box.Y0 > 470 && f.Box.Y1 < 545 {
			t.Errorf("dl_redp5110 p. 5: the white frame box %v is a figure", f.Box)
		}
	}
}

// Captions whose floats are drawn in pieces or parted from them by a page
// break:
//   - gr_test_Grobid_2 p. 3, Figure 7: a grid of boxes drawn border piece by
//     border piece (a vertical piece too short to be a rule), whose rows
//     read as one line each: a table, linked to its caption;
//   - gr_test_Grobid_1 p. 4, "Table 3" opens the page; its matrix ends
//     page 3's right column (the document sets table captions below
//     tables): linked to that matrix, not to the larger table beside it;
//     and the image behind its page numbers is no figure.
func TestCaptionsOfDrawnGridsAndBrokenPages(t *testing.T) {
	corpustest.Slow(t, "lays out corpus PDFs")
	g2 := pageOf(corpusDocument(t, "gr_test_Grobid_2_05982691.pdf"), 3)
	f, ok := captionFloat(g2, "Figure 7.")
	if !ok || f == nil || f.Kind != Table || len(f.Cells) != 2 || len(f.Cells[0]) != 4 {
		t.Errorf("gr_test_Grobid_2 p. 3: Figure 7 caption found %v, float %+v; want a table of 2 rows of 4 cells", ok, f)
	}

	g1 := corpusDocument(t, "gr_test_Grobid_1_05452615.pdf")
	f, ok = captionFloat(pageOf(g1, 4), "Table 3")
	if !ok || f == nil || f.Kind != Table || f.Box.X0 < 300 || f.Box.Y1 > 200 {
		t.Errorf("gr_test_Grobid_1 p. 4: Table 3 caption found %v, float %+v; want the matrix at the foot of page 3's right column", ok, f)
	}
	// The image behind the page number, repeated on pages 2 to 8, is page
	// decoration, not a figure.
	for _, p := range g1[1:] {
		for _, f := range p.Floats {
			if f.Box.Y1 < 70 {
				t.Errorf("gr_test_Grobid_1 p. %d: a float %v at the foot of the page (the page number's image)", p.Number, f.Box)
			}
		}
	}
	if ts := tablesOf(g1, 3); len(ts) != 4 {
		t.Errorf("gr_test_Grobid_1 p. 3: %d tables, want 4 (Table 1's two column parts, Table 2, the matrix)", len(ts))
	}
}

// Side captions: ol_repeating_references sets its figures' captions in a
// narrow column beside them; each caption names the figure of its own
// page (they had been crossed over to the adjacent pages' figures).
func TestSideCaptions(t *testing.T) {
	corpustest.Slow(t, "lays out corpus PDFs")
	doc := corpusDocument(t, "ol_repeating_references_on_pg9_pg10.pdf")
	for _, c := range []struct {
		page  int
		label string
	}{{7, "Fig. 5."}, {8, "Fig. 6."}} {
		p := pageOf(doc, c.page)
		f, ok := captionFloat(p, c.label)
		if !ok || f == nil || !slices.Contains(p.Floats, f) {
			t.Errorf("ol_repeating_references p. %d: %s found %v, float %+v; want the figure beside it on its page", c.page, c.label, ok, f)
		}
	}
}
