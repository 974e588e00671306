package layout

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/crossmem/crossmem/internal/pdf"
)

// Numbered section titles set at the body size in caps and small caps
// (cmcsc10), as the AMS styles set them, open sections in a PDF with no
// outline: a PDF made at test time by pdfTeX from
// testdata/smallcaps_sections.tex.
func TestSmallCapsSections(t *testing.T) {
	tex, err := exec.LookPath("pdftex")
	if err != nil {
		t.Skip("pdftex (texlive-binaries, installed with texlive-base by .ci/run) is not on PATH")
	}
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "smallcaps_sections.tex"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "t.tex"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tex, "-interaction=nonstopmode", "t.tex")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pdftex: %v\n%s", err, out)
	}
	pages := Document(readPages(t, filepath.Join(dir, "t.pdf")), pdf.Structure{})
	var heads, paras []string
	for _, p := range pages {
		for _, b := range p.Blocks {
			switch b.Kind {
			case Heading:
				heads = append(heads, b.Text())
			case Paragraph:
				paras = append(paras, b.Text())
			}
		}
	}
	// The title, alone at the top of a one-page document in display type,
	// is no running head either.
	want := []string{"Numbered sections in small capitals", "1. Introduction", "2. Main results", "A.1. Proofs of the lemmas"}
	if !slices.Equal(heads, want) {
		t.Errorf("headings %q, want %q", heads, want)
	}
	if len(paras) != 5 { // the author line and four paragraphs
		t.Errorf("%d paragraphs, want 5: %q", len(paras), paras)
	}
}

// A document whose outline lists its sections but not their numbered
// subsections (a bookmark depth of 1): the outline governs, and the
// subsections whose numbers extend its sections' ("1.1" in "1
// Introduction") open sections below them. A PDF made at test time by
// pdfTeX from testdata/shallow_outline.tex.
func TestShallowOutlineSubsections(t *testing.T) {
	tex, err := exec.LookPath("pdftex")
	if err != nil {
		t.Skip("pdftex (texlive-binaries, installed with texlive-base by .ci/run) is not on PATH")
	}
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "shallow_outline.tex"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "t.tex"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tex, "-interaction=nonstopmode", "t.tex")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pdftex: %v\n%s", err, out)
	}
	data, err := os.ReadFile(filepath.Join(dir, "t.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	pages, st, err := openEngine(t).Read(t.Context(), data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Outline) != 2 {
		t.Fatalf("outline %+v, want the two sections", st.Outline)
	}
	type sec struct {
		title string
		level int
	}
	var got []sec
	for _, p := range Document(pages, st) {
		for _, b := range p.Blocks {
			if b.Section != nil {
				got = append(got, sec{b.Section.Title, b.Section.Level})
			}
		}
	}
	want := []sec{{"1 Introduction", 1}, {"1.1 Background", 2}, {"1.2 Scope", 2}, {"2 Methods", 1}, {"2.1 Data", 2}}
	if !slices.Equal(got, want) {
		t.Errorf("sections %v, want %v", got, want)
	}
}
