package pdf

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/crossmem/crossmem/internal/corpustest"
)

// TestOutline reads the outline of a corpus PDF with bookmarks and checks
// titles, levels, pages and positions against the values MuPDF's
// "mutool show gr_MullenJSSv18i03.pdf outline" prints (its y is measured
// from the top of the page; the page is A4, 841.89 points high).
func TestOutline(t *testing.T) {
	e := testEngine(t)
	doc, err := e.OpenBytes(corpustest.PDF(t, "gr_MullenJSSv18i03.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	out := doc.Outline()
	if len(out) != 69 {
		t.Fatalf("%d outline entries, want 69", len(out))
	}
	for _, c := range []struct {
		i     int
		title string
		level int
		page  int
		top   float64 // mutool's y, from the top
	}{
		{0, "Introduction", 0, 1, 589.01199},
		{1, "Interactive scientific model-discovery", 1, 2, 271.42475},
		{19, "Specification in TIMP: Weighting", 2, 16, 133.17188},
	} {
		g := out[c.i]
		if g.Title != c.title || g.Level != c.level || g.Page != c.page || !g.HasY || abs(841.89-g.Y-c.top) > 0.01 {
			t.Errorf("entry %d = %+v, want %q level %d page %d y %.2f", c.i, g, c.title, c.level, c.page, 841.89-c.top)
		}
	}
	if doc.PageLabels() != nil {
		t.Errorf("page labels %v for a PDF without /PageLabels", doc.PageLabels())
	}
}

// TestPageLabels reads /PageLabels << /Nums [0 << /S /D /St 45 >>] >>.
func TestPageLabels(t *testing.T) {
	e := testEngine(t)
	doc, err := e.OpenBytes(corpustest.PDF(t, "ol_pdftotext_two_column_issue.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	l := doc.PageLabels()
	if len(l) != doc.NumPages() || l[0] != "45" || l[1] != "46" || l[13] != "58" {
		t.Errorf("labels %q, want 45..58", l)
	}
	if len(doc.Outline()) != 0 {
		t.Errorf("outline %v for a PDF without one", doc.Outline())
	}
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// TestReadStructure: Read's structure, whose outline positions are moved
// to their page's origin only after the pages are read (no page loaded
// twice), equals Structure's, which loads each page a bookmark points to,
// on every corpus PDF; and some of them have an outline with positions.
func TestReadStructure(t *testing.T) {
	corpustest.Slow(t, "reads every corpus PDF")
	e := testEngine(t)
	files, _ := filepath.Glob(filepath.Join(corpustest.Dir(t, "pdf"), "*.pdf"))
	positions := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		_, got, err := e.Read(t.Context(), data, nil)
		if err != nil {
			t.Fatalf("%s: %v", filepath.Base(f), err)
		}
		doc, err := e.OpenBytes(data)
		if err != nil {
			t.Fatal(err)
		}
		want := doc.Structure()
		doc.Close()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Read's structure differs from Structure's:\n got %+v\nwant %+v", filepath.Base(f), got, want)
		}
		for _, o := range want.Outline {
			if o.HasY {
				positions++
			}
		}
	}
	if positions == 0 {
		t.Error("no outline entry with a position: the test compares nothing")
	}
}
