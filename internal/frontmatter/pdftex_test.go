package frontmatter

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/crossmem/crossmem/internal/pdf/pdftest"
)

// TestReadJournalTitlePages reads title pages set the way journal and
// conference classes set theirs, made at test time by pdfTeX from
// testdata/*.tex (each file says which class it follows and what it
// checks): the title as printed without its marks, and the authors'
// family names (an organisation's literal name), each once, in order.
func TestReadJournalTitlePages(t *testing.T) {
	e := openEngine(t)
	for _, tc := range []struct {
		src      string
		title    string
		families []string
	}{
		// Superscript marks against the title and the names (elsarticle,
		// REVTeX's AIP style): "Linebreaka)", "Migchielsena,1,∗".
		{"marks.tex", "Sample Title with a Forced Linebreak", []string{"Migchielsen", "Radhakrishnan", "Rajagopal"}},
		// A byline with an organisation first (kept by its literal name),
		// line numbers in the margin, the appendix's authors in a sentence
		// over two lines (aomart).
		{"byline.tex", "Sample Paper for the Review Class", []string{"American Mathematical Society", "Veytsman"}},
		// An organisation alone on the line under the title (JPSJ).
		{"organisation.tex", "Instructions for the Preparation of Manuscripts in Physics", []string{"Online-Journal Subcommittee of the Society"}},
		// A title-case subtitle with a word that may name an organisation
		// ("Network") qualifying its noun: no author; the names under it are.
		{"subtitle_network.tex", "Learning to Rank Scientific Documents", []string{"Lovelace", "Babbage"}},
		// A title beginning "Introduction to" under a banner (ejpecp).
		{"introduction.tex", "Introduction to the Sample Class Version 1.11", []string{"Burdzy", "Chafaï"}},
		// E-mail addresses beside the names on their line (PMLR).
		{"emails.tex", "Full Title of Article This Title Has A Line Break", []string{"Lovelace", "Babbage"}},
		// Names in capitals, each followed by its affiliation (acmsmall).
		{"capsaffil.tex", "The Name of the Title Is Hope", []string{"Trovato", "Béranger", "Patel"}},
		// The author named again under "Author Note" at the foot (APA 7).
		{"authornote.tex", "Sample APA-Style Document Using the Package", []string{"Weiss"}},
		// Title and authors in a column beside running text (opteng).
		{"column.tex", "Manuscript submission and page length estimation for Optical Letters journals", []string{"Egan", "Other"}},
		// A bold title at 12 pt over an 11 pt body, under a page number
		// and the journal's line, over a subtitle in lighter type (ptptex).
		{"smalltitle.tex", "Instruction for Making Compuscripts Using the Class", []string{"Tomonaga", "Yukawa"}},
		// A title of one word with the authors at the foot (Texinfo).
		{"oneword.tex", "Libfoo2", []string{"Fiorina", "Josefsson", "Mavrogiannopoulos"}},
		// A name, white space, a subtitle in the same display type.
		{"subtitle.tex", "EncFoo: The Extension of a Typesetter For Input Re-encoding", []string{"Olšák"}},
		// A one-word masthead in larger type over the title.
		{"masthead.tex", "Reading the Front Matter of Papers", []string{"Lovelace", "Babbage"}},
		// A slide title in two sizes alternating with the phrase (tug2005).
		{"slide.tex", "PRACTICAL USE OF SPECIAL COMMANDS IN DVIPDFMX", []string{"Cho"}},
	} {
		t.Run(tc.src, func(t *testing.T) {
			data, err := os.ReadFile(pdftest.PDFTeX(t, filepath.Join("testdata", tc.src)))
			if err != nil {
				t.Fatal(err)
			}
			r := read(t, e, data)
			if r.Title != tc.title {
				t.Errorf("title %q, want %q", r.Title, tc.title)
			}
			var got []string
			for _, n := range r.Authors {
				got = append(got, n.FamilyOrLiteral())
			}
			if !slices.Equal(got, tc.families) {
				t.Errorf("authors %q, want %q", got, tc.families)
			}
		})
	}
}
