package citation

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/crossmem/crossmem/internal/csl"
)

// FuzzFormat checks that every style renders arbitrary CSL item content
// without panicking, with an error only for an unusable cite key, that the
// output is valid UTF-8, that BibTeX and BibLaTeX entries (Unicode kept or
// escaped) keep their braces balanced and hold exactly one entry, and that
// the CSL-JSON output decodes back.
func FuzzFormat(f *testing.F) {
	f.Add("k", "article-journal", "BERT: {x} 50% $^3$ \\ ~", "O'Neil", "Amos B., III", "van", "Jr.", "J & Co", "1-2", "10.1/a{b}", "https://x.org/a b", "arXiv:1706.03762 [cs.CL]", "2")
	f.Add("k", "article", "<i>T</i>", "宮地", "元彦", "", "", "", "e1", "", "", "", "")
	f.Add("k", "", "}", "{", "}", "\\", "}", "\\", "--", "%", "#", "{", "}")
	f.Add("k", "thesis", "Ünïcödé Straße and ß", "Müller and Sons", "Jürgen, Jr", "de la", "III", "Ω", "", "", "", "", "x")
	f.Add("a b", "book", "T", "F", "G", "", "", "", "", "", "", "", "")
	f.Add("k", "report", "\u0301a\u0308", "ı̇", "i\u0301", "", "", "", "", "", "", "arXiv:", "")
	f.Fuzz(func(t *testing.T, key, typ, title, family, given, particle, suffix, container, page, doi, url, number, edition string) {
		it := csl.Item{
			ID: key, Type: typ, Title: "T" + title, ContainerTitle: container, CollectionTitle: container,
			Page: csl.Number(page), DOI: doi, URL: url, Number: csl.Number(number), Edition: csl.Number(edition),
			Volume: csl.Number(page), Issue: csl.Number(edition), Publisher: family, PublisherPlace: given,
			Genre: suffix, Note: number, ISBN: edition, ISSN: page,
			Author: []csl.Name{
				{Family: family, Given: given, NonDroppingParticle: particle, Suffix: suffix},
				{Literal: family + given},
				{Given: given, DroppingParticle: particle},
			},
			Editor: []csl.Name{{Family: given, Given: family}},
			Issued: &csl.Date{DateParts: [][]csl.Number{{"2020", csl.Number(page), csl.Number(edition)}}},
		}
		keyErr := bibtexKey(key)
		for _, st := range Styles() {
			for _, opt := range []Options{{}, {Unicode: UnicodeLaTeX}} {
				got, err := FormatWith(it, st, opt)
				if st == BibTeX || st == BibLaTeX {
					if (err != nil) != (keyErr != nil) {
						t.Fatalf("%s with key %q: error %v, key check %v", st, key, err, keyErr)
					}
					if err != nil {
						continue
					}
				} else if err != nil {
					t.Fatalf("%s: %v", st, err)
				}
				if !utf8.ValidString(got) {
					t.Fatalf("%s: invalid UTF-8 output %q", st, got)
				}
				switch st {
				case BibTeX, BibLaTeX:
					checkEntry(t, got)
				case CSLJSON:
					back, err := csl.Decode([]byte(got))
					if err != nil || len(back) != 1 || (back[0].ID != it.ID && utf8.ValidString(it.ID)) {
						t.Fatalf("CSL-JSON output does not decode back: %v\n%s", err, got)
					}
				default:
					if strings.Contains(got, "\n") {
						t.Fatalf("%s: output has a newline: %q", st, got)
					}
				}
			}
		}
	})
}

// checkEntry fails unless entry is one BibTeX entry whose braces balance
// as BibTeX counts them (every brace counts, \{ and \} included) and
// whose only top-level closing brace is the last line.
func checkEntry(t *testing.T, entry string) {
	t.Helper()
	depth := 0
	for i := 0; i < len(entry); i++ {
		switch entry[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth < 0 || (depth == 0 && i != len(entry)-1) {
				t.Fatalf("unbalanced braces in %q", entry)
			}
		}
	}
	if depth != 0 {
		t.Fatalf("unbalanced braces in %q", entry)
	}
	if strings.Count(entry, "\n}") != 1 || !strings.HasSuffix(entry, "\n}") || strings.Count(entry, "\n@") != 0 {
		t.Fatalf("entry does not end with one closing brace line: %q", entry)
	}
}
