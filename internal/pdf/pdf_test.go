package pdf

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/crossmem/crossmem/internal/corpustest"
)

var (
	engineOnce sync.Once
	engine     *Engine
	engineErr  error
)

func testEngine(t testing.TB) *Engine {
	t.Helper()
	engineOnce.Do(func() {
		engine, engineErr = Open(t.Context(), Options{CacheDir: filepath.Join(os.TempDir(), "crossmem-test-wazero"), Workers: 2})
	})
	if engineErr != nil {
		t.Fatal(engineErr)
	}
	return engine
}

func TestNotPDF(t *testing.T) {
	e := testEngine(t)
	for _, data := range [][]byte{nil, []byte("hello"), []byte("<html><body>login</body></html>"), []byte("%PDF-1.4\ngarbage")} {
		_, err := e.OpenBytes(data)
		if !errors.Is(err, ErrNotPDF) {
			t.Errorf("OpenBytes(%.20q) = %v, want ErrNotPDF", data, err)
		}
	}
	if !IsPDF([]byte("   \n%PDF-1.7")) || IsPDF([]byte("PDF-1.7")) {
		t.Error("IsPDF wrong")
	}
}

func TestPageAndInfo(t *testing.T) {
	e := testEngine(t)
	doc, err := e.OpenBytes(corpustest.PDF(t, "gr_test_Grobid_2_05982691.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	if doc.NumPages() != 6 {
		t.Errorf("NumPages = %d, want 6", doc.NumPages())
	}
	info := doc.Info()
	if info.Title != "Energy Efficient Routing Protocol for Zone based Mobile Sensor Networks" || !strings.Contains(info.Author, "Usama Ahmed") {
		t.Errorf("Info = %+v", info)
	}
	p, err := doc.Page(1)
	if err != nil {
		t.Fatal(err)
	}
	if p.Number != 1 || p.Width < 500 || p.Height < 700 || len(p.Chars) < 1000 || len(p.Fonts) == 0 {
		t.Errorf("page 1: %v x %v, %d chars, %d fonts", p.Width, p.Height, len(p.Chars), len(p.Fonts))
	}
	inked := 0
	for _, c := range p.Chars {
		if c.Generated || c.Rune == ' ' {
			continue
		}
		inked++
		if c.Box.X0 < 0 || c.Box.X1 > p.Width || c.Box.Y0 < 0 || c.Box.Y1 > p.Height || c.Box.Width() <= 0 {
			t.Fatalf("char %q box %+v outside the %vx%v page", c.Rune, c.Box, p.Width, p.Height)
		}
		if c.Size < 4 || c.Size > 40 {
			t.Fatalf("char %q size %v", c.Rune, c.Size)
		}
	}
	if inked < 1000 {
		t.Errorf("%d inked characters", inked)
	}
	if _, err := doc.Page(7); err == nil {
		t.Error("Page(7) of 6 pages succeeded")
	}
	text, err := doc.PageText(1)
	if err != nil || !strings.Contains(text, "Energy Efficient Routing") {
		t.Errorf("PageText: %v %.60q", err, text)
	}
}

// TestPagesParallel checks that reading pages on several workers gives the
// same result as reading them one by one.
func TestPagesParallel(t *testing.T) {
	e := testEngine(t)
	data := corpustest.PDF(t, "pm_2304.02623v1.pdf")
	var done []int
	pages, err := e.Pages(t.Context(), data, func(d, n int) { done = append(done, d) })
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != 4 || len(done) != 4 || done[3] != 4 {
		t.Fatalf("%d pages, progress %v", len(pages), done)
	}
	doc, err := e.OpenBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	for i, p := range pages {
		seq, err := doc.Page(i + 1)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(seq, p) {
			t.Errorf("page %d differs between Pages and Page", i+1)
		}
	}
}

func TestHyphenMarker(t *testing.T) {
	e := testEngine(t)
	pages, err := e.Pages(t.Context(), corpustest.PDF(t, "gr_dehypenisation1.pdf"), nil)
	if err != nil {
		t.Fatal(err)
	}
	var hyphens []rune
	for _, c := range pages[0].Chars {
		if c.Hyphen {
			hyphens = append(hyphens, c.Rune)
		}
	}
	if string(hyphens) != "-" {
		t.Errorf("line-end hyphens = %q, want one '-'", string(hyphens))
	}
}

func TestFontNames(t *testing.T) {
	for _, tc := range []struct {
		f    Font
		bold bool
	}{
		{Font{Name: "NimbusRomNo9L-Medi"}, true},
		{Font{Name: "LinLibertineTB"}, false}, // weight decides for this one (see layout)
		{Font{Name: "Times-Bold"}, true},
		{Font{Name: "CMBX10"}, true},
		{Font{Name: "AdvOT3bf1a849.B"}, true},
		{Font{Name: "AdvOTbc475f09", Weight: 736}, false},
		{Font{Name: "CMR10"}, false},
	} {
		if got := tc.f.NameBold(); got != tc.bold {
			t.Errorf("%q NameBold = %v, want %v", tc.f.Name, got, tc.bold)
		}
	}
	if stripSubset("ABCDEF+Times-Roman") != "Times-Roman" || stripSubset("Times-Roman") != "Times-Roman" || stripSubset("abcdef+X") != "abcdef+X" {
		t.Error("stripSubset")
	}
}

// FuzzPages feeds mutated PDFs to pdfium: every input must give pages or
// an error, never a crash or a hang.
func FuzzPages(f *testing.F) {
	f.Add(corpustest.PDF(f, "gr_dehypenisation1.pdf"))
	f.Add([]byte("%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF"))
	f.Fuzz(func(t *testing.T, data []byte) {
		pages, err := testEngine(t).Pages(t.Context(), data, nil)
		if err == nil {
			for _, p := range pages {
				if p == nil {
					t.Fatal("nil page without error")
				}
			}
		}
	})
}
