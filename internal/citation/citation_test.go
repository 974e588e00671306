package citation

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/crossmem/crossmem/internal/csl"
	"github.com/crossmem/crossmem/internal/metadata"
)

// formatRecord formats rec as compile does: through csl.FromRecord.
func formatRecord(rec *metadata.Record, key string, st Style) (string, error) {
	return Format(csl.FromRecord(rec, key), st)
}

func TestParseStyle(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Style
	}{
		{"apa", APA}, {"APA", APA}, {" Mla ", MLA}, {"chicago", Chicago}, {"Chicago-17", Chicago17},
		{"chicago-author-date", ChicagoAuthorDate}, {"CHICAGO-AUTHOR-DATE-17", ChicagoAuthorDate17},
		{"IEEE", IEEE}, {"BibTeX", BibTeX}, {"BibLaTeX", BibLaTeX}, {"CSL-JSON", CSLJSON},
	} {
		got, err := ParseStyle(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseStyle(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"harvard", "chicago-18", "csljson", "chicago-notes-bibliography", ""} {
		_, err := ParseStyle(bad)
		if err == nil {
			t.Fatalf("ParseStyle(%q) succeeded", bad)
		}
		msg := err.Error()
		if !strings.Contains(msg, "apa, mla, chicago, chicago-17, chicago-author-date, chicago-author-date-17, ieee, bibtex, biblatex, csl-json") || !strings.Contains(msg, fmt.Sprintf("%q", bad)) {
			t.Errorf("error %q does not name the input and list the valid styles", msg)
		}
	}
	for _, st := range Styles() {
		if got, err := ParseStyle(st.String()); err != nil || got != st {
			t.Errorf("ParseStyle(%q) = %q, %v", st, got, err)
		}
	}
}

func TestStyles(t *testing.T) {
	want := []Style{"apa", "mla", "chicago", "chicago-17", "chicago-author-date", "chicago-author-date-17", "ieee", "bibtex", "biblatex", "csl-json"}
	if diff := cmp.Diff(want, Styles()); diff != "" {
		t.Errorf("Styles() (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Style{"apa", "mla", "chicago", "ieee", "bibtex"}, NoteStyles()); diff != "" {
		t.Errorf("NoteStyles() (-want +got):\n%s", diff)
	}
	s := Styles()
	s[0] = "x"
	n := NoteStyles()
	n[0] = "x"
	if Styles()[0] != APA || NoteStyles()[0] != APA {
		t.Error("Styles() or NoteStyles() returns shared state")
	}
}

func TestFormatErrors(t *testing.T) {
	ok := &metadata.Record{Title: "T", Authors: []metadata.Name{{Family: "Doe", Given: "Jane"}}}
	tests := []struct {
		name  string
		rec   *metadata.Record
		key   string
		style Style
	}{
		{"nil record", nil, "k", APA},
		{"empty record", &metadata.Record{Issued: metadata.Date{Year: 2020}, DOI: "10.1/x"}, "k", APA},
		{"unknown style", ok, "k", Style("harvard")},
		{"empty style", ok, "k", Style("")},
		{"bibtex empty key", ok, "", BibTeX},
		{"bibtex key with space", ok, "a b", BibTeX},
		{"bibtex key with comma", ok, "a,b", BibTeX},
		{"bibtex key with brace", ok, "a}b", BibTeX},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got, err := formatRecord(tc.rec, tc.key, tc.style); err == nil {
				t.Errorf("Format succeeded with %q, want error", got)
			}
		})
	}
	if _, err := formatRecord(ok, "", APA); err != nil {
		t.Errorf("non-BibTeX styles must not need a key: %v", err)
	}
}

// vaswaniRecord is the seed's example as crossmem's arXiv source fills it:
// no publisher, arXiv id and preprint DOI.
func vaswaniRecord(n int) *metadata.Record {
	names := []metadata.Name{
		{Family: "Vaswani", Given: "Ashish"}, {Family: "Shazeer", Given: "Noam"},
		{Family: "Parmar", Given: "Niki"}, {Family: "Uszkoreit", Given: "Jakob"},
		{Family: "Jones", Given: "Llion"}, {Family: "Gomez", Given: "Aidan N."},
		{Family: "Kaiser", Given: "Łukasz"}, {Family: "Polosukhin", Given: "Illia"},
	}
	return &metadata.Record{
		Type:                 "article",
		Title:                "Attention Is All You Need",
		Authors:              names[:n],
		Issued:               metadata.Date{Year: 2017, Month: 6, Day: 12},
		DOI:                  "10.48550/arXiv.1706.03762",
		DOIPreprint:          "10.48550/arXiv.1706.03762",
		ArxivID:              "1706.03762",
		ArxivVersion:         7,
		ArxivPrimaryCategory: "cs.CL",
		URL:                  "https://arxiv.org/abs/1706.03762v7",
	}
}

func TestFormatArxivPreprint(t *testing.T) {
	rec := vaswaniRecord(2)
	// csl.Item has no variable for the arXiv primary category, so a record
	// converted with csl.FromRecord has no primaryclass / eprintclass (see
	// TestArxivClass for where it is read from).
	want := map[Style]string{
		APA:                 "Vaswani, A., & Shazeer, N. (2017). Attention Is All You Need (arXiv:1706.03762). arXiv. https://doi.org/10.48550/arXiv.1706.03762",
		MLA:                 "Vaswani, Ashish, and Noam Shazeer. “Attention Is All You Need.” arXiv:1706.03762, arXiv, 12 June 2017, https://doi.org/10.48550/arXiv.1706.03762.",
		Chicago:             "Vaswani, Ashish, and Noam Shazeer. “Attention Is All You Need.” arXiv:1706.03762. Preprint, arXiv, June 12, 2017. https://doi.org/10.48550/arXiv.1706.03762.",
		Chicago17:           "Vaswani, Ashish, and Noam Shazeer. “Attention Is All You Need.” arXiv:1706.03762. Preprint, arXiv, June 12, 2017. https://doi.org/10.48550/arXiv.1706.03762.",
		ChicagoAuthorDate:   "Vaswani, Ashish, and Noam Shazeer. 2017. “Attention Is All You Need.” arXiv:1706.03762. Preprint, arXiv, June 12. https://doi.org/10.48550/arXiv.1706.03762.",
		ChicagoAuthorDate17: "Vaswani, Ashish, and Noam Shazeer. 2017. “Attention Is All You Need.” arXiv:1706.03762. Preprint, arXiv, June 12. https://doi.org/10.48550/arXiv.1706.03762.",
		IEEE:                "A. Vaswani and N. Shazeer, “Attention Is All You Need,” Jun. 12, 2017, arXiv: arXiv:1706.03762. doi: 10.48550/arXiv.1706.03762.",
		BibTeX: `@misc{vaswani2017attention,
  title = {Attention Is All You Need},
  author = {Vaswani, Ashish and Shazeer, Noam},
  year = {2017},
  month = jun,
  doi = {10.48550/arXiv.1706.03762},
  eprint = {1706.03762},
  archiveprefix = {arXiv},
  primaryclass = {cs.CL},
  url = {https://arxiv.org/abs/1706.03762v7}
}`,
		BibLaTeX: `@online{vaswani2017attention,
  title = {Attention Is All You Need},
  author = {Vaswani, Ashish and Shazeer, Noam},
  date = {2017-06-12},
  doi = {10.48550/arXiv.1706.03762},
  eprint = {1706.03762},
  eprinttype = {arxiv},
  eprintclass = {cs.CL},
  url = {https://arxiv.org/abs/1706.03762v7}
}`,
		CSLJSON: `{
  "id": "vaswani2017attention",
  "type": "article",
  "title": "Attention Is All You Need",
  "author": [
    {
      "family": "Vaswani",
      "given": "Ashish"
    },
    {
      "family": "Shazeer",
      "given": "Noam"
    }
  ],
  "issued": {
    "date-parts": [
      [
        "2017",
        "6",
        "12"
      ]
    ]
  },
  "number": "arXiv:1706.03762",
  "publisher": "arXiv",
  "DOI": "10.48550/arXiv.1706.03762",
  "URL": "https://arxiv.org/abs/1706.03762v7",
  "note": "arXiv:1706.03762 [cs.CL]"
}`,
	}
	for _, st := range Styles() {
		got, err := formatRecord(rec, "vaswani2017attention", st)
		if err != nil {
			t.Fatal(err)
		}
		if got != want[st] {
			t.Errorf("%s:\n got: %s\nwant: %s", st, got, want[st])
		}
	}
}

// TestArxivClass reads the arXiv primary category from arXiv's
// recommended reference form "arXiv:<id> [class]" in number or note; a
// note that is only that reference is not repeated in the entry's note.
func TestArxivClass(t *testing.T) {
	base := csl.Item{ID: "k", Type: "article", Title: "T", Number: "arXiv:1706.03762"}
	for _, tc := range []struct {
		name         string
		number, note string
		doi          string
		class, bnote string
	}{
		{"number with class", "arXiv:1706.03762 [cs.CL]", "", "", "cs.CL", ""},
		{"note with class", "arXiv:1706.03762", "arXiv:1706.03762 [cs.CL]", "", "cs.CL", ""},
		{"note about another id", "arXiv:1706.03762", "arXiv:1111.11111 [hep-th]", "", "", "arXiv:1111.11111 [hep-th]"},
		{"DOI only", "", "arXiv:1706.03762 [cs.CL]", "10.48550/arXiv.1706.03762", "cs.CL", ""},
		{"journal reference", "arXiv:1706.03762", "Journal reference: Nature 1 (2020)", "", "", "Journal reference: Nature 1 (2020)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			it := base
			it.Number, it.Note, it.DOI = csl.Number(tc.number), tc.note, tc.doi
			bib, err := Format(it, BibTeX)
			if err != nil {
				t.Fatal(err)
			}
			blx, err := Format(it, BibLaTeX)
			if err != nil {
				t.Fatal(err)
			}
			bf, lf := bibFields(bib), bibFields(blx)
			if bf["eprint"] != "1706.03762" || lf["eprint"] != "1706.03762" || lf["eprinttype"] != "arxiv" {
				t.Errorf("eprint missing:\n%s\n%s", bib, blx)
			}
			if bf["primaryclass"] != tc.class || lf["eprintclass"] != tc.class {
				t.Errorf("class = %q / %q, want %q", bf["primaryclass"], lf["eprintclass"], tc.class)
			}
			if bf["note"] != tc.bnote || lf["note"] != tc.bnote {
				t.Errorf("note = %q / %q, want %q", bf["note"], lf["note"], tc.bnote)
			}
		})
	}
}

func TestFormatArxivWithoutDOI(t *testing.T) {
	rec := vaswaniRecord(1)
	rec.DOI, rec.DOIPreprint, rec.URL = "", "", ""
	want := map[Style]string{
		APA:     "Vaswani, A. (2017). Attention Is All You Need (arXiv:1706.03762). arXiv. https://arxiv.org/abs/1706.03762",
		MLA:     "Vaswani, Ashish. “Attention Is All You Need.” arXiv:1706.03762, arXiv, 12 June 2017, https://arxiv.org/abs/1706.03762.",
		Chicago: "Vaswani, Ashish. “Attention Is All You Need.” arXiv:1706.03762. Preprint, arXiv, June 12, 2017. https://arxiv.org/abs/1706.03762.",
		IEEE:    "A. Vaswani, “Attention Is All You Need,” Jun. 12, 2017, arXiv: arXiv:1706.03762. [Online]. Available: https://arxiv.org/abs/1706.03762",
	}
	for st, w := range want {
		got, err := formatRecord(rec, "k", st)
		if err != nil {
			t.Fatal(err)
		}
		if got != w {
			t.Errorf("%s:\n got: %s\nwant: %s", st, got, w)
		}
	}
}

func authorsN(n int) []metadata.Name {
	out := make([]metadata.Name, n)
	for i := range out {
		out[i] = metadata.Name{Family: fmt.Sprintf("Fam%02d", i+1), Given: "Given"}
	}
	return out
}

// authorPart formats a journal article by n authors and returns the text
// before the title (the title is "T").
func authorPart(t *testing.T, st Style, n int) string {
	t.Helper()
	rec := &metadata.Record{Type: "article-journal", Title: "T", Authors: authorsN(n), Issued: metadata.Date{Year: 2020}, ContainerTitle: "J"}
	got, err := formatRecord(rec, "k", st)
	if err != nil {
		t.Fatal(err)
	}
	for _, marker := range []string{" (2020). T.", " “T.”", " “T,”"} {
		if i := strings.Index(got, marker); i >= 0 {
			return got[:i]
		}
	}
	t.Fatalf("%s: cannot find the title in %q", st, got)
	return ""
}

func TestAuthorLists(t *testing.T) {
	tests := []struct {
		style Style
		n     int
		want  string
	}{
		{APA, 1, "Fam01, G."},
		{APA, 2, "Fam01, G., & Fam02, G."},
		{APA, 3, "Fam01, G., Fam02, G., & Fam03, G."},
		{APA, 20, "Fam01, G., Fam02, G., Fam03, G., Fam04, G., Fam05, G., Fam06, G., Fam07, G., Fam08, G., Fam09, G., Fam10, G., Fam11, G., Fam12, G., Fam13, G., Fam14, G., Fam15, G., Fam16, G., Fam17, G., Fam18, G., Fam19, G., & Fam20, G."},
		{APA, 21, "Fam01, G., Fam02, G., Fam03, G., Fam04, G., Fam05, G., Fam06, G., Fam07, G., Fam08, G., Fam09, G., Fam10, G., Fam11, G., Fam12, G., Fam13, G., Fam14, G., Fam15, G., Fam16, G., Fam17, G., Fam18, G., Fam19, G., … Fam21, G."},
		{MLA, 1, "Fam01, Given."},
		{MLA, 2, "Fam01, Given, and Given Fam02."},
		{MLA, 3, "Fam01, Given, et al."},
		{Chicago, 2, "Fam01, Given, and Given Fam02."},
		{Chicago, 6, "Fam01, Given, Given Fam02, Given Fam03, Given Fam04, Given Fam05, and Given Fam06."},
		{Chicago, 7, "Fam01, Given, Given Fam02, Given Fam03, et al."},
		{IEEE, 1, "G. Fam01,"},
		{IEEE, 2, "G. Fam01 and G. Fam02,"},
		{IEEE, 3, "G. Fam01, G. Fam02, and G. Fam03,"},
		{IEEE, 6, "G. Fam01, G. Fam02, G. Fam03, G. Fam04, G. Fam05, and G. Fam06,"},
		{IEEE, 7, "G. Fam01 et al.,"},
	}
	for _, tc := range tests {
		if got := authorPart(t, tc.style, tc.n); got != tc.want {
			t.Errorf("%s with %d authors:\n got: %s\nwant: %s", tc.style, tc.n, got, tc.want)
		}
	}
}

func TestNames(t *testing.T) {
	tests := []struct {
		name csl.Name
		apa  string // APA inverted with initials
		ieee string // IEEE initials first
		chi  string // Chicago first-author form
	}{
		{csl.NameOf(metadata.Name{Family: "Vaswani", Given: "Ashish"}), "Vaswani, A.", "A. Vaswani", "Vaswani, Ashish"},
		{csl.NameOf(metadata.Name{Family: "Chang", Given: "Ming-Wei"}), "Chang, M.-W.", "M.-W. Chang", "Chang, Ming-Wei"},
		{csl.NameOf(metadata.Name{Family: "Iwata", Given: "Ken-ichi"}), "Iwata, K.", "K. Iwata", "Iwata, Ken-ichi"},
		{csl.NameOf(metadata.Name{Family: "Perutz", Given: "M.F."}), "Perutz, M. F.", "M. F. Perutz", "Perutz, M. F."},
		{csl.NameOf(metadata.Name{Family: "Mendonça", Given: "Jéssica da C."}), "Mendonça, J. da C.", "J. da C. Mendonça", "Mendonça, Jéssica da C."},
		{csl.NameOf(metadata.Name{Family: "dos Santos", Given: "Valérie"}), "dos Santos, V.", "V. dos Santos", "Santos, Valérie dos"},
		{csl.NameOf(metadata.Name{Family: "van der Putten", Given: "Joost"}), "van der Putten, J.", "J. van der Putten", "Putten, Joost van der"},
		{csl.NameOf(metadata.Name{Family: "Del Maestro", Given: "Adrian"}), "Del Maestro, A.", "A. Del Maestro", "Del Maestro, Adrian"},
		{csl.NameOf(metadata.Name{Family: "Smith", Given: "Amos B., III"}), "Smith, A. B., III", "A. B. Smith III", "Smith, Amos B., III"},
		{csl.NameOf(metadata.Name{Family: "King, Jr.", Given: "Martin Luther"}), "King, M. L., Jr.", "M. L. King Jr.", "King, Martin Luther, Jr."},
		{csl.NameOf(metadata.Name{Family: "O'Donoghue", Given: "Odhran"}), "O’Donoghue, O.", "O. O’Donoghue", "O’Donoghue, Odhran"},
		{csl.NameOf(metadata.Name{Family: "Sheherazade"}), "Sheherazade", "Sheherazade", "Sheherazade"},
		{csl.NameOf(metadata.Name{Literal: "OpenAI"}), "OpenAI", "OpenAI", "OpenAI"},
		{csl.NameOf(metadata.Name{Family: "宮地", Given: "元彦"}), "宮地元彦", "宮地元彦", "宮地元彦"},
		{csl.NameOf(metadata.Name{Family: "Kupče", Given: "Ēriks"}), "Kupče, Ē.", "Ē. Kupče", "Kupče, Ēriks"},
		{csl.Name{Family: "Beethoven", Given: "Ludwig", DroppingParticle: "van"}, "Beethoven, L. van", "L. van Beethoven", "Beethoven, Ludwig van"},
		{csl.Name{Family: "Gogh", Given: "Vincent", NonDroppingParticle: "van"}, "van Gogh, V.", "V. van Gogh", "Gogh, Vincent van"},
		{csl.Name{Family: "Gaulle", Given: "Charles", NonDroppingParticle: "De"}, "De Gaulle, C.", "C. De Gaulle", "Gaulle, Charles De"},
		{csl.Name{Family: "King", Given: "Martin Luther", Suffix: "Jr."}, "King, M. L., Jr.", "M. L. King Jr.", "King, Martin Luther, Jr."},
		{csl.Name{Family: "dos Santos", Given: "Valérie"}, "dos Santos, V.", "V. dos Santos", "Santos, Valérie dos"},
		{csl.Name{Given: "Sheherazade"}, "Sheherazade", "Sheherazade", "Sheherazade"},
	}
	for _, tc := range tests {
		p, ok := parseName(tc.name)
		if !ok {
			t.Fatalf("parseName(%+v) not ok", tc.name)
		}
		if got := p.invertedInitials(); got != tc.apa {
			t.Errorf("APA name of %+v = %q, want %q", tc.name, got, tc.apa)
		}
		if got := p.naturalInitials(); got != tc.ieee {
			t.Errorf("IEEE name of %+v = %q, want %q", tc.name, got, tc.ieee)
		}
		if got := p.inverted(true); got != tc.chi {
			t.Errorf("Chicago name of %+v = %q, want %q", tc.name, got, tc.chi)
		}
	}
	if _, ok := parseName(csl.Name{Family: "  "}); ok {
		t.Error("blank name parsed as a person")
	}
}

func TestTitleCase(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Augmenting large language models with chemistry tools", "Augmenting Large Language Models with Chemistry Tools"},
		{"BERT: pre-training of deep bidirectional transformers", "BERT: Pre-Training of Deep Bidirectional Transformers"},
		{"a study of the effect: a reactive model", "A Study of the Effect: A Reactive Model"},
		{"following off-label use", "Following off-Label Use"},
		{"convalescent-anti-sars-cov-2-plasma/immune-globulin", "Convalescent-Anti-Sars-Cov-2-Plasma/Immune-Globulin"},
		{"eLife and CO2 stay; mRNA too", "eLife and CO2 Stay; mRNA Too"},
		{"THE CRYSTAL STRUCTURE OF HUMAN", "THE CRYSTAL STRUCTURE OF HUMAN"},
		{"Twenty Years of Organic Letters, A Look Back...and Forward", "Twenty Years of Organic Letters, A Look Back...and Forward"},
		{"40nm CMOS in a $^3$helium cell", "40nm CMOS in a $^3$helium Cell"},
		{"vitamin d in “quoted” words", "Vitamin d in “Quoted” Words"},
		{"0", "0"},
	}
	for _, tc := range tests {
		if got := titleCase(tc.in); got != tc.want {
			t.Errorf("titleCase(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestPages(t *testing.T) {
	tests := []struct {
		in                     string
		expanded, mla, chicago string
	}{
		{"525-535", "525–535", "525–35", "525–35"},
		{"1386-1399", "1386–1399", "1386–99", "1386–99"},
		{"110-111", "110–111", "110–11", "110–11"},
		{"101-109", "101–109", "101–09", "101–9"},
		{"1-11", "1–11", "1–11", "1–11"},
		{"71-72", "71–72", "71–72", "71–72"},
		{"100-104", "100–104", "100–04", "100–104"},
		{"1100-1113", "1100–1113", "1100–13", "1100–1113"},
		{"1496-1504", "1496–1504", "1496–504", "1496–504"},
		{"E4832-E4841", "E4832–E4841", "E4832–41", "E4832–41"},
		{"145-145", "145–145", "145–145", "145–145"},
		{"98-102", "98–102", "98–102", "98–102"},
		{"e01567", "e01567", "e01567", "e01567"},
		{"12--34", "12–34", "12–34", "12–34"},
		{"5-7, 9-11", "5–7, 9–11", "5–7, 9–11", "5–7, 9–11"},
		{"321-28", "321–28", "321–28", "321–28"},
	}
	for _, tc := range tests {
		for _, f := range []struct {
			format int
			want   string
		}{{rangeExpanded, tc.expanded}, {rangeMinimal2, tc.mla}, {rangeChicago16, tc.chicago}} {
			if got := pages(tc.in, f.format); got != f.want {
				t.Errorf("pages(%q, %d) = %q, want %q", tc.in, f.format, got, f.want)
			}
		}
	}
}

// TestMissingFields formats sparse records in every plain-text style and
// checks that no empty brackets or doubled punctuation are left behind.
func TestMissingFields(t *testing.T) {
	base := metadata.Record{
		Type:            "article-journal",
		Title:           "A title",
		Authors:         []metadata.Name{{Family: "Doe", Given: "Jane"}},
		Editors:         []metadata.Name{{Family: "Roe", Given: "Rick"}, {Family: "Poe", Given: "Pam"}},
		Issued:          metadata.Date{Year: 2020, Month: 3, Day: 4},
		ContainerTitle:  "Journal",
		CollectionTitle: "Series",
		Volume:          "3",
		Issue:           "2",
		Page:            "10-20",
		Number:          "TR-7",
		Edition:         "2",
		Publisher:       "Pub",
		PublisherPlace:  "Place",
		Genre:           "PhD thesis",
		DOI:             "10.1234/x",
	}
	drops := []func(*metadata.Record){
		func(r *metadata.Record) { r.Authors = nil },
		func(r *metadata.Record) { r.Title = "" },
		func(r *metadata.Record) { r.Issued = metadata.Date{} },
		func(r *metadata.Record) { r.Issued.Month, r.Issued.Day = 0, 0 },
		func(r *metadata.Record) { r.ContainerTitle = "" },
		func(r *metadata.Record) { r.Volume = "" },
		func(r *metadata.Record) { r.Issue = "" },
		func(r *metadata.Record) { r.Page = "" },
		func(r *metadata.Record) { r.Publisher = "" },
		func(r *metadata.Record) { r.DOI = "" },
		func(r *metadata.Record) { r.Editors = nil },
		func(r *metadata.Record) { r.Number, r.Genre = "", "" },
		func(r *metadata.Record) { r.Edition, r.CollectionTitle = "", "" },
		func(r *metadata.Record) { r.PublisherPlace = "" },
	}
	// Every subset of the first ten drops, each with a subset of the last
	// four (cycling through all sixteen).
	var masks []int
	for mask := 0; mask < 1<<10; mask++ {
		masks = append(masks, mask|(mask*7%16)<<10)
	}
	types := []string{"article-journal", "article", "paper-conference", "book", "chapter", "dataset", "report", "thesis", "webpage", ""}
	bad := []string{"()", "( )", "[]", ", ,", ",,", " ,", " .", "..", ",.", "  ", ": .", "“”", "“.”", ", :", ":,"}
	// ".," is bad except after an abbreviation: "Eds.,", "2nd ed.,", "R.,".
	periodComma := regexp.MustCompile(`(\S*)\.,`)
	abbrev := map[string]bool{"ed": true, "eds": true, "Ed": true, "Eds": true, "al": true, "Jr": true}
	for _, typ := range types {
		for _, mask := range masks {
			rec := base
			rec.Type = typ
			for i, drop := range drops {
				if mask&(1<<i) != 0 {
					drop(&rec)
				}
			}
			for _, st := range []Style{APA, MLA, Chicago, Chicago17, ChicagoAuthorDate, ChicagoAuthorDate17, IEEE} {
				got, err := formatRecord(&rec, "k", st)
				if err != nil {
					if rec.Title == "" && len(rec.Authors) == 0 && len(rec.Editors) == 0 && rec.ContainerTitle == "" {
						continue
					}
					t.Fatalf("%s type %q mask %b: %v", st, typ, mask, err)
				}
				if got != strings.TrimSpace(got) {
					t.Errorf("%s type %q mask %b: surrounding space in %q", st, typ, mask, got)
				}
				for _, b := range bad {
					if strings.Contains(got, b) {
						t.Errorf("%s type %q mask %b: %q contains %q", st, typ, mask, got, b)
						break
					}
				}
				for _, m := range periodComma.FindAllStringSubmatch(got, -1) {
					w := strings.TrimLeft(m[1], "(")
					if !abbrev[w] && utf8.RuneCountInString(w) != 1 {
						t.Errorf("%s type %q mask %b: %q has %q", st, typ, mask, got, m[0])
					}
				}
			}
		}
	}
}

func TestBibTeX(t *testing.T) {
	tests := []struct {
		name string
		rec  *metadata.Record
		want string
	}{
		{
			name: "journal article with everything",
			rec: &metadata.Record{
				Type:           "journal-article",
				Title:          "BERT and CO<sub>2</sub>: 50% of R&D costs $5 #1 in_situ {x} ~ ^ \\",
				Authors:        []metadata.Name{{Family: "Smith", Given: "Amos B., III"}, {Family: "Müller", Given: "Jürgen"}, {Literal: "World Health Organization"}, {Family: "Sheherazade"}},
				Issued:         metadata.Date{Year: 2018, Month: 12, Day: 5},
				ContainerTitle: "Organic Letters & Co",
				Volume:         "20",
				Issue:          "1",
				Page:           "1–3",
				Publisher:      "ACS",
				DOI:            "https://doi.org/10.1021/acs_x{y}",
				ArxivID:        "1801.00001",
				URL:            "https://example.org/a b%20c",
			},
			want: `@article{smith2018bert,
  title = {{BERT} and {CO2}: 50\% of {R\&D} costs \$5 \#1 in\_situ \textbraceleft{}x\textbraceright{} \textasciitilde{} \textasciicircum{} \textbackslash{}},
  author = {Smith, III, Amos B. and Müller, Jürgen and {World Health Organization} and {Sheherazade}},
  year = {2018},
  month = dec,
  journal = {Organic Letters \& Co},
  volume = {20},
  number = {1},
  pages = {1--3},
  publisher = {ACS},
  doi = {10.1021/acs_x%7By%7D},
  eprint = {1801.00001},
  archiveprefix = {arXiv},
  url = {https://example.org/a%20b%20c}
}`,
		},
		{
			name: "conference paper",
			rec: &metadata.Record{
				Type: "paper-conference", Title: "Vector Quotient Filters", ContainerTitle: "Proc. SIGMOD",
				Authors: []metadata.Name{{Family: "Pandey", Given: "Prashant"}}, Issued: metadata.Date{Year: 2021}, Page: "1386-1399",
			},
			want: "@inproceedings{k,\n  title = {Vector Quotient Filters},\n  author = {Pandey, Prashant},\n  year = {2021},\n  booktitle = {Proc. SIGMOD},\n  pages = {1386--1399}\n}",
		},
		{
			name: "book",
			rec:  &metadata.Record{Type: "book", Title: "Deep Learning", Publisher: "MIT Press", Issued: metadata.Date{Year: 2016}},
			want: "@book{k,\n  title = {Deep Learning},\n  year = {2016},\n  publisher = {MIT Press}\n}",
		},
		{
			name: "chapter",
			rec:  &metadata.Record{Type: "chapter", Title: "A guide", ContainerTitle: "Tricks of the Trade", Page: "599-619"},
			want: "@incollection{k,\n  title = {A guide},\n  booktitle = {Tricks of the Trade},\n  pages = {599--619}\n}",
		},
		{
			name: "non-arXiv preprint keeps its publisher",
			rec:  &metadata.Record{Type: "article", Title: "Preprint", Publisher: "bioRxiv", Issued: metadata.Date{Year: 2020, Month: 1}},
			want: "@misc{k,\n  title = {Preprint},\n  year = {2020},\n  month = jan,\n  publisher = {bioRxiv}\n}",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			key := "k"
			if strings.HasPrefix(tc.want, "@article{smith") {
				key = "smith2018bert"
			}
			got, err := formatRecord(tc.rec, key, BibTeX)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestBibTeXTitleProtection(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Attention Is All You Need", "Attention Is All You Need"},
		{"PaperQA: Retrieval-Augmented Generative Agent", "{PaperQA}: Retrieval-Augmented Generative Agent"},
		{"the eLife and (ISSCC) papers", "the {eLife} and ({ISSCC}) papers"},
		{"OGLE-III transits", "{OGLE}-{III} transits"},
		{"DL-Learner on PAM-4/NRZ", "{DL}-Learner on {PAM}-4/{NRZ}"},
		{"BERT: Pre-training", "{BERT}: Pre-training"},
		{"a 56Gb/s link", "a {56Gb}/s link"},
		{"Ünïcödé Straße", "Ünïcödé Straße"},
		{"ÉCOLE normale", "{ÉCOLE} normale"},
	}
	for _, tc := range tests {
		if got := bibTitle(tc.in, Options{}); got != tc.want {
			t.Errorf("bibTitle(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestAPAChapterPageLabel(t *testing.T) {
	for page, want := range map[string]string{"3": "(p. 3)", "3-9": "(pp. 3–9)"} {
		rec := &metadata.Record{Type: "chapter", Title: "Ch", ContainerTitle: "Book", Page: page}
		got, err := formatRecord(rec, "k", APA)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(got, "In Book "+want+".") {
			t.Errorf("APA chapter with page %q = %q, want %q", page, got, want)
		}
	}
}

func TestFormatDeterministic(t *testing.T) {
	rec := vaswaniRecord(8)
	for _, st := range Styles() {
		a, err := formatRecord(rec, "k", st)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := formatRecord(rec, "k", st)
		if a != b {
			t.Errorf("%s output differs between calls", st)
		}
		if strings.ContainsAny(a, "<>*") && st != BibTeX {
			t.Errorf("%s output has markup: %q", st, a)
		}
	}
}
