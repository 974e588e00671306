package frontmatter

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/crossmem/crossmem/internal/layout"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/pdf"
	"github.com/crossmem/crossmem/internal/pdf/pdftest"
)

func openEngine(t *testing.T) *pdf.Engine {
	t.Helper()
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = t.TempDir()
	}
	e, err := pdf.Open(t.Context(), pdf.Options{CacheDir: dir + "/crossmem-test/wazero", Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func read(t *testing.T, e *pdf.Engine, data []byte) *Result {
	t.Helper()
	d, err := e.OpenBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	p, err := d.Page(1)
	if err != nil {
		t.Fatal(err)
	}
	return Read([]*pdf.Page{p})
}

// TestReadFrontPage reads first pages written at test time: the title in
// the largest type (over two lines), the names under it without their
// marks, the arXiv stamp up the margin, a printed DOI and a banner.
func TestReadFrontPage(t *testing.T) {
	e := openEngine(t)
	page := pdftest.FrontPage{
		Title:   []string{"Reading the Front Matter of Scientific Papers", "from Their Layout Alone"},
		Authors: []string{"Ada B. Lovelace1,2, Charles Babbage2 and Mary van Somerville3*"},
		Small: []string{"1 University of Testing, Example Street 12, 12345 Testville, Germany",
			"Journal of Layout Studies, 2021, 12:345-367", "doi: 10.1234/jls.2021.0042."},
		Stamp: "arXiv:2101.01234v2 [cs.DL] 3 Feb 2021",
		Body:  pdftest.Prose(14),
	}
	r := read(t, e, page.PDF())
	if r.Problem != Readable {
		t.Fatalf("problem %v: %s", r.Problem, r.ProblemDetail)
	}
	if r.Title != "Reading the Front Matter of Scientific Papers from Their Layout Alone" || r.TitleRule != ruleLargest {
		t.Errorf("title %q (%s)", r.Title, r.TitleRule)
	}
	want := []metadata.Name{{Family: "Lovelace", Given: "Ada B."}, {Family: "Babbage", Given: "Charles"}, {Family: "van Somerville", Given: "Mary"}}
	if diff := cmp.Diff(want, r.Authors); diff != "" {
		t.Errorf("authors (-want +got):\n%s", diff)
	}
	if r.Arxiv == nil || r.Arxiv.ID != "2101.01234" || r.Arxiv.Version != 2 || r.Arxiv.Category != "cs.DL" || r.Arxiv.Date != (metadata.Date{Year: 2021, Month: 2, Day: 3}) {
		t.Errorf("arXiv %+v", r.Arxiv)
	}
	if r.OwnDOI() != "10.1234/jls.2021.0042" {
		t.Errorf("DOI %+v", r.DOIs)
	}
	if b := r.Banner; b == nil || b.Container != "Journal of Layout Studies" || b.Volume != "12" || b.Page != "345-367" || b.Year != 2021 {
		t.Errorf("banner %+v", r.Banner)
	}
	rec := r.Record()
	for _, f := range []string{metadata.FieldTitle, metadata.FieldAuthors, metadata.FieldIssued, metadata.FieldDOI, metadata.FieldArxivID, metadata.FieldVolume} {
		if !cmp.Equal(rec.FieldSources[f], []string{metadata.SourcePDFText}) {
			t.Errorf("%s sources %v", f, rec.FieldSources[f])
		}
	}
}

// TestReadWithoutTitle reads pages that print no title of their own: a
// page of running text and a page of table rows. No title is made up.
func TestReadWithoutTitle(t *testing.T) {
	e := openEngine(t)
	prose := read(t, e, pdftest.Doc(pdftest.Text(pdftest.Prose(30)...), false))
	if prose.Title != "" || len(prose.Authors) != 0 {
		t.Errorf("a page of prose: title %q authors %v", prose.Title, prose.Authors)
	}
	rows := read(t, e, pdftest.Doc(pdftest.Text("Model Data Accuracy Recall", "Baseline Web 71.2 60.3", "Ours Web 75.9 66.1",
		"Baseline Books 68.0 59.9", "Ours Books 70.4 61.8"), false))
	if rows.Title != "" {
		t.Errorf("a table: title %q", rows.Title)
	}
}

// TestReadability tells text that reads as words from text whose
// characters are shifted (a broken font encoding) and from no text.
func TestReadability(t *testing.T) {
	prose := strings.Join(pdftest.Prose(8), " ")
	shift := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r >= 'b' && r <= 'z' || r >= 'B' && r <= 'Z' {
				return r - 1
			}
			return r
		}, s)
	}
	german := "Die Ergebnisse der Untersuchung zeigen, dass die Methode für die meisten Dokumente mit einer hohen Genauigkeit arbeitet und dass sie auch bei schwierigen Seiten nicht versagt, wenn der Text in der richtigen Reihenfolge vorliegt und die Schrift eine gültige Zuordnung der Zeichen hat."
	for _, tc := range []struct {
		text string
		want Problem
	}{
		{prose, Readable},
		{german, Readable},
		{shift(prose), Unreadable},
		{"", NoText},
		{"  12  ", NoText},
		{"Short title only", Readable},
		{strings.Repeat("\uE001\uE002 ", 40), Unreadable},
	} {
		if got, detail := readability(tc.text); got != tc.want {
			t.Errorf("readability(%.40q) = %v (%s), want %v", tc.text, got, detail, tc.want)
		}
	}
}

func textLine(s string) *line {
	return &line{Line: &layout.Line{Text: s, Size: 10}, kind: layout.Paragraph}
}

// TestLineNames splits lines of names and refuses lines that are not.
func TestLineNames(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string // family names; nil: not a line of names
	}{
		{"Krzysztof Bolejko1,2 and Lars Andersson3,4", []string{"Bolejko", "Andersson"}},
		{"YING SHEN,1 HAU-SAN WONG,2,4 SHAOHONG ZHANG,3 and LIN ZHANG1", []string{"Shen", "Wong", "Zhang", "Zhang"}},
		{"Yu.A.Pusep1*, L.Fernandes dos Santos1, D.Smirnov2, A.K.Bakarov3, and A.I.Toropov3", []string{"Pusep", "dos Santos", "Smirnov", "Bakarov", "Toropov"}},
		{"Kyle Lo†∗ Lucy Lu Wang†∗ Mark Neumann†", []string{"Lo", "Wang", "Neumann"}},
		{"Kyle Loα∗ Zejiang Shenα,τ∗", []string{"Lo", "Shen"}},
		{"Sheila Ruswandi · Keiji Kitani · Kazuya Akimitsu", []string{"Ruswandi", "Kitani", "Akimitsu"}},
		{"TAL AUGUST, University of Washington, USA", []string{"August"}},
		{"Dr. Saeed Murtaza", []string{"Murtaza"}},
		{"Ivo H. M. van Stokkum", []string{"van Stokkum"}},
		{"John H. Lienhard V", []string{"Lienhard"}},
		{"A. N. Other, MEMBER SPIE", []string{"Other"}},
		{"Revised by David M. Jones", []string{"Jones"}},
		{"County Limerick", nil},
		{"3 AAS Journals Associate Editor-in-Chief", nil},
		{"Second Version", nil},
		{"Allen Institute for AI", nil},
		{"Rueschlikon, Switzerland", nil},
		{"Z. Naturforsch. 54 a, 272-273 (1999);", nil},
		{"Implement roles and separation", nil},
		{"{kylel, lucyw}@allenai.org", nil},
		{"We present a new method for the problem of reading papers", nil},
		{"1 School of Physics, University of Melbourne, VIC 3010, Australia", nil},
	} {
		names, ok := lineNames(textLine(tc.line))
		var got []string
		for _, n := range names {
			got = append(got, n.Family)
		}
		if !ok {
			got = nil
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("lineNames(%q) (-want +got):\n%s", tc.line, diff)
		}
	}
}

// TestIdentifiers reads arXiv ids and DOIs in their printed forms and
// leaves those of bibliography entries alone.
func TestIdentifiers(t *testing.T) {
	ls := []*line{
		textLine("arXiv:2206.10883v3 [cs.CL] 22 Jul 2022"),
		textLine("British Medical Bulletin, 2015, 113:45–58"),
		textLine("doi: 10.1093/bmb/ldu038"),
		textLine("Knowledge Discovery and Data Mining (KDD ’22). ACM, 9 pages. https://doi.org/10.1145/"),
		textLine("3534678.3539043"),
		textLine("Article and publication date are at http://www.rnajournal.org/cgi/doi/10.1261/rna.037648.112."),
		textLine("RNA 19:1183–1191; © 2013"),
	}
	ref := textLine("[3] A. Author. 2021. A paper. arXiv preprint arXiv:2104.08809. https://doi.org/10.5555/ref.2021")
	ref.kind = layout.Reference
	ls = append(ls, ref, textLine("as shown by arXiv preprint arXiv:2104.08809 (2021)"))
	a := findArxiv(ls)
	if a == nil || a.ID != "2206.10883" || a.Version != 3 || a.Category != "cs.CL" {
		t.Errorf("arXiv %+v", a)
	}
	var got []string
	for _, d := range findDOIs(ls, 800) {
		got = append(got, d.DOI)
	}
	want := []string{"10.1093/bmb/ldu038", "10.1145/3534678.3539043", "10.1261/rna.037648.112"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("DOIs (-want +got):\n%s", diff)
	}
	if l := findArxiv([]*line{textLine("ArXiv ePrint: 0807.3577")}); l == nil || l.ID != "0807.3577" {
		t.Errorf("labelled id: %+v", l)
	}
	if l := findArxiv([]*line{textLine("as shown by arXiv preprint arXiv:2104.08809 (2021)")}); l != nil {
		t.Errorf("an arXiv id cited in running text was taken: %+v", l)
	}
	for text, want := range map[string]Banner{
		"J Gen Plant Pathol (2005) 71:107–116":       {Container: "J Gen Plant Pathol", Year: 2005, Volume: "71", Page: "107-116"},
		"Tobacco Control 2004;13:447–453.":           {Container: "Tobacco Control", Year: 2004, Volume: "13", Page: "447-453"},
		"Z. Naturforsch. 54 a, 272-273 (1999);":      {Container: "Z. Naturforsch.", Year: 1999, Volume: "54", Page: "272-273"},
		"Phys. Rev. B 85, 115117 (2012)":             {Container: "Phys. Rev. B", Year: 2012, Volume: "85", Page: "115117"},
		"January 2007, Volume 18, Issue 3.":          {Year: 2007, Volume: "18", Issue: "3"},
		"2010 International Conference on Databases": {Container: "International Conference on Databases", Year: 2010},
	} {
		b := findBanner([]*line{textLine(text)})
		if b == nil {
			t.Errorf("%q: no banner", text)
			continue
		}
		b.Line = ""
		if diff := cmp.Diff(want, *b); diff != "" {
			t.Errorf("%q (-want +got):\n%s", text, diff)
		}
	}
}

// FuzzLine reads arbitrary text as a line of names, identifiers and a
// banner: never a panic, and every name found has a family name.
func FuzzLine(f *testing.F) {
	for _, s := range []string{"Krzysztof Bolejko1,2 and Lars Andersson3,4", "arXiv:2206.10883v3 [cs.CL] 22 Jul 2022",
		"doi: 10.1093/bmb/ldu038", "British Medical Bulletin, 2015, 113:45–58", "Yu.A.Pusep1*, L.Fernandes dos Santos1",
		"Kyle Loα∗ Zejiang Shenα,τ∗", "ı̈ ı\u0308 ‡†", "Z. Naturforsch. 54 a, 272-273 (1999);"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l := textLine(s)
		names, _ := lineNames(l)
		for _, n := range names {
			if n.FamilyOrLiteral() == "" {
				t.Errorf("%q: a name without a family name: %+v", s, n)
			}
		}
		findArxiv([]*line{l})
		findDOIs([]*line{l, textLine(s)}, 800)
		findBanner([]*line{l})
		findYear([]*line{l})
		readability(s)
		if m := trimMarks(s); len(m) > len(s) {
			t.Errorf("trimMarks(%q) = %q grew", s, m)
		}
		if metadataText(s) == "" && strings.TrimSpace(s) != "" && utf8.ValidString(s) {
			t.Errorf("metadataText(%q) lost everything", s)
		}
	})
}

// TestReadMasthead reads a page whose journal name is set larger than the
// title: the title is the large block with names under it.
func TestReadMasthead(t *testing.T) {
	e := openEngine(t)
	var b strings.Builder
	b.WriteString("BT /F1 30 Tf 1 0 0 1 72 730 Tm (Applied Examples Today) Tj ET\n")
	b.WriteString("BT /F1 18 Tf 1 0 0 1 72 670 Tm (A Study of Titles Set Smaller than Mastheads) Tj ET\n")
	b.WriteString("BT /F1 12 Tf 1 0 0 1 72 645 Tm (Grace Hopper and Alan Turing) Tj ET\n")
	y := 600
	for _, l := range pdftest.Prose(14) {
		b.WriteString("BT /F1 10 Tf 1 0 0 1 72 " + strconv.Itoa(y) + " Tm (" + l + ") Tj ET\n")
		y -= 13
	}
	r := read(t, e, pdftest.Doc([]byte(b.String()), false))
	if r.Title != "A Study of Titles Set Smaller than Mastheads" || len(r.Authors) != 2 || r.Authors[0].Family != "Hopper" {
		t.Errorf("title %q authors %+v", r.Title, r.Authors)
	}
}

// TestReadRunningHead reads pages from inside a paper, written at test
// time: no title block, a running head at the top with the page number
// beside it. A head that reads as a title gives the title (RuleRunningHead);
// a head of names, a chapter label, or a top line without a page number
// gives none.
func TestReadRunningHead(t *testing.T) {
	e := openEngine(t)
	page := func(head, number string) []byte {
		var b strings.Builder
		esc := strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`)
		fmt.Fprintf(&b, "BT /F1 9 Tf 1 0 0 1 140 750 Tm (%s) Tj ET\n", esc.Replace(head))
		if number != "" {
			fmt.Fprintf(&b, "BT /F1 9 Tf 1 0 0 1 500 750 Tm (%s) Tj ET\n", number)
		}
		y := 720.0
		for _, l := range pdftest.Prose(30) {
			fmt.Fprintf(&b, "BT /F1 10 Tf 1 0 0 1 72 %g Tm (%s) Tj ET\n", y, esc.Replace(l))
			y -= 12.5
		}
		return pdftest.Doc([]byte(b.String()), true)
	}
	for _, c := range []struct{ head, number, want string }{
		{"Reading Titles from the Margins of Pages", "9", "Reading Titles from the Margins of Pages"},
		{"Reading Titles from the Margins of Pages", "", ""},
		{"M. Lovelace, C. Babbage and M. Somerville", "10", ""},
		{"Lovelace et al.", "10", ""},
		{"Chapter 3 | Derivatives", "273", ""},
		{"Journal of Layout Studies 12 (2021)", "345", ""},
	} {
		r := read(t, e, page(c.head, c.number))
		if r.Title != c.want {
			t.Errorf("head %q, page number %q: title %q, want %q", c.head, c.number, r.Title, c.want)
		}
		if c.want != "" && r.TitleRule != RuleRunningHead {
			t.Errorf("head %q: rule %q", c.head, r.TitleRule)
		}
	}
}
