package compile

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/note"
	"github.com/crossmem/crossmem/internal/pdf"
)

func newEngine(t *testing.T) *pdf.Engine {
	t.Helper()
	e, err := pdf.Open(t.Context(), pdf.Options{CacheDir: filepath.Join(os.TempDir(), "crossmem-test-wazero")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// inkOnly reduces text to the characters that carry ink, for comparing our
// chunk text with pdfium's page text modulo the text policy: whitespace is
// removed (the policy decides where spaces and line breaks go), U+FFFE
// (pdfium's line-end hyphen) becomes "-", control characters are dropped,
// and diacritics are removed from both sides (the policy attaches spacing
// accents to their letters; pdfium reports them as separate characters).
func inkOnly(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		switch {
		case r == 0xFFFE:
			b.WriteRune('-')
		case unicode.IsSpace(r), r == 0xA0, unicode.IsControl(r), unicode.Is(unicode.Mn, r):
		case strings.ContainsRune("¨´`^ˆ~˜¯ˉ˘˙˚˝ˇ¸˛", r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// subMultiset reports whether every character of a occurs in b at least as
// often.
func subMultiset(a, b string) bool {
	count := map[rune]int{}
	for _, r := range b {
		count[r]++
	}
	for _, r := range a {
		if count[r]--; count[r] < 0 {
			return false
		}
	}
	return true
}

// TestCorpus compiles every PDF of the corpus and checks the acceptance
// rules of the chunk text: every chunk's text occurs in pdfium's page text
// (modulo the text policy), each page's chunks are numbered uniquely, the
// hash and byte range are consistent, image-only pages and broken text
// layers produce no chunks.
func TestCorpus(t *testing.T) {
	corpustest.Slow(t, "compiles every corpus PDF")
	pdfDir := corpustest.Dir(t, "pdf")
	e := newEngine(t)
	files, _ := filepath.Glob(filepath.Join(pdfDir, "*.pdf"))
	if len(files) < 30 {
		t.Fatalf("expected the 36 corpus PDFs, found %d", len(files))
	}
	wantUnquotable := map[string]map[int]string{
		"dl_ocr_test.pdf":         {1: chunk.ReasonNoTextLayer},
		"dl_redp5110_sampled.pdf": {17: chunk.ReasonNoTextLayer},
		"ol_dolma-page-1.pdf":     {1: chunk.ReasonScrambled},
		"ol_olmo-page-1.pdf":      {1: chunk.ReasonScrambled},
	}
	var totalChunks, contiguous, lineChecked, body, floatReordered int
	var reordered []string
	for _, f := range files {
		name := filepath.Base(f)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Extract(t.Context(), e, data, nil)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		got := map[int]string{}
		for _, u := range res.Unquotable {
			if u.BBox != nil {
				t.Errorf("%s: a block of page %d at %v is unquotable (%s); no corpus PDF sets text in a font mapped to symbols", name, u.Page, *u.BBox, u.Reason)
				continue
			}
			got[u.Page] = u.Reason
		}
		want := wantUnquotable[name]
		if len(got) != len(want) {
			t.Errorf("%s: unquotable pages %v, want %v", name, got, want)
		}
		for p, r := range want {
			if got[p] != r {
				t.Errorf("%s: page %d reason %q, want %q", name, p, got[p], r)
			}
		}
		doc, err := e.OpenBytes(data)
		if err != nil {
			t.Fatal(err)
		}
		pageInk := map[int]string{}
		ids := map[string]bool{}
		offsets := map[int]int{}
		for _, c := range res.Chunks {
			totalChunks++
			if got[c.Page] != "" {
				t.Errorf("%s: chunk %s on unquotable page %d", name, c.ID, c.Page)
			}
			if ids[c.ID] {
				t.Errorf("%s: duplicate chunk id %s", name, c.ID)
			}
			ids[c.ID] = true
			if c.Text == "" && c.Type != chunk.TypeFigure || chunk.Hash(c.Text) != c.TextSHA256 {
				t.Errorf("%s %s: empty text or hash mismatch", name, c.ID)
			}
			if c.ByteRange[0] != offsets[c.Page] || c.ByteRange[1]-c.ByteRange[0] != len(c.Text) {
				t.Errorf("%s %s: byte_range %v, want [%d, %d]", name, c.ID, c.ByteRange, offsets[c.Page], offsets[c.Page]+len(c.Text))
			}
			offsets[c.Page] = c.ByteRange[1] + len(chunk.PageSeparator)
			// A table's text is its cells; a figure's may be empty (no
			// caption on its page).
			units := strings.Split(c.Text, "\n")
			switch {
			case c.Type == chunk.TypeTable:
				units = nil
				for _, row := range chunk.Cells(c.Text) {
					for _, cell := range row {
						if cell != "" {
							units = append(units, cell)
						}
					}
				}
			case c.Text == "":
				units = nil
			}
			for _, l := range units {
				if l == "" || l != strings.TrimSpace(l) || strings.Contains(l, "  ") || strings.ContainsAny(l, "\t\n") {
					t.Errorf("%s %s: line %q breaks the whitespace policy", name, c.ID, l)
				}
			}
			if c.BBox[0] > c.BBox[2] || c.BBox[1] > c.BBox[3] {
				t.Errorf("%s %s: bbox %v not [x0 y0 x1 y1]", name, c.ID, c.BBox)
			}
			ink, ok := pageInk[c.Page]
			if !ok {
				txt, err := doc.PageText(c.Page)
				if err != nil {
					t.Fatal(err)
				}
				ink = inkOnly(txt)
				pageInk[c.Page] = ink
			}
			// A table's or figure's text is read row by row, which the
			// content stream rarely is, and an equation or a listing is
			// joined from its pieces: their lines are checked one by one.
			float := c.Type == chunk.TypeTable || c.Type == chunk.TypeTableText || c.Type == chunk.TypeFigureText || c.Type == chunk.TypeEquation || c.Type == chunk.TypeCode
			if !float {
				body++
			}
			if !float && strings.Contains(ink, inkOnly(c.Text)) {
				contiguous++
				continue
			}
			// The content stream may interrupt a paragraph (a float placed
			// in the middle); then each line (a table's each cell) must
			// still be verbatim.
			for _, l := range units {
				lineChecked++
				if strings.Contains(ink, inkOnly(l)) {
					continue
				}
				// A line the PDF draws in interleaved passes is merged in x
				// order: its characters must all be pdfium's, and such
				// lines must stay rare.
				if !subMultiset(inkOnly(l), ink) {
					t.Errorf("%s %s (page %d): line has characters pdfium does not report: %q", name, c.ID, c.Page, l)
				}
				if float {
					// Mathematics, tables and figures: scripts and
					// pieces joined in x order are the norm.
					floatReordered++
					continue
				}
				reordered = append(reordered, fmt.Sprintf("%s p%d %s %q", name, c.Page, c.Type, l))
			}
		}
		doc.Close()
	}
	t.Logf("%d chunks; %d found whole in pdfium's page text, the rest line by line (%d lines)", totalChunks, contiguous, lineChecked)
	t.Logf("%d lines of running text merged from interleaved drawing passes or with scripts set apart: %v", len(reordered), reordered)
	t.Logf("%d lines of equations, tables, figures and code joined from pieces in x order", floatReordered)
	if len(reordered) > 10 {
		t.Errorf("%d lines of running text are not stretches of pdfium's page text (want at most 10)", len(reordered))
	}
	// Chunks not found whole are multi-line table cells whose content
	// stream runs row by row; keep them rare.
	if float64(contiguous) < 0.99*float64(body) {
		t.Errorf("only %d of %d chunks (tables and figures aside) are whole stretches of pdfium's page text", contiguous, body)
	}
	if totalChunks < 3000 {
		t.Errorf("only %d chunks from the corpus", totalChunks)
	}
}

// TestHyphenPolicy checks the documented line-end hyphen policy on the
// corpus fixture made for it: pdfium's U+FFFE marker becomes "-" at the end
// of a line, followed by the line break pdfium dropped.
func TestHyphenPolicy(t *testing.T) {
	data := corpustest.PDF(t, "gr_dehypenisation1.pdf")
	res, err := Extract(t.Context(), newEngine(t), data, nil)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, c := range res.Chunks {
		texts = append(texts, c.Text)
	}
	sort.Strings(texts)
	want := "We test the dehypenisa-\ntion of a short text."
	if len(texts) != 1 || texts[0] != want {
		t.Errorf("chunks = %q, want [%q]", texts, want)
	}
}

// TestPageLabels compiles the corpus PDF that declares page labels
// starting at 45: every chunk of page 2 records the printed label "46",
// and the note keeps it through Format and Parse.
func TestPageLabels(t *testing.T) {
	data := corpustest.PDF(t, "ol_pdftotext_two_column_issue.pdf")
	res, err := Extract(t.Context(), newEngine(t), data, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range res.Chunks {
		if want := fmt.Sprint(44 + c.Page); c.PageLabel != want {
			t.Fatalf("chunk %s on page %d has page_label %q, want %q", c.ID, c.Page, c.PageLabel, want)
		}
		if c.Page == 2 {
			n++
		}
	}
	if n == 0 {
		t.Fatal("no chunks on page 2")
	}
	out, err := note.Format(&note.Note{Front: note.Frontmatter{CiteKey: "x"}, Chunks: res.Chunks})
	if err != nil {
		t.Fatal(err)
	}
	back, err := note.Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range back.Chunks {
		if c.PageLabel != res.Chunks[i].PageLabel || strings.Join(c.SectionPath, "|") != strings.Join(res.Chunks[i].SectionPath, "|") {
			t.Fatalf("chunk %s after Parse: label %q path %q, want %q %q", c.ID, c.PageLabel, c.SectionPath, res.Chunks[i].PageLabel, res.Chunks[i].SectionPath)
		}
	}
}
