package citation

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/crossmem/crossmem/internal/metadata"
)

// FuzzFormat checks that every style renders arbitrary metadata without
// error and that BibTeX entries keep their braces balanced.
func FuzzFormat(f *testing.F) {
	f.Add("article-journal", "BERT: {x} 50% $^3$ \\ ~", "O'Neil", "Amos B., III", "J & Co", "1-2", "10.1/a{b}", "https://x.org/a b")
	f.Add("article", "<i>T</i>", "宮地", "元彦", "", "e1", "", "")
	f.Add("", "}", "{", "}", "\\", "--", "%", "#")
	f.Fuzz(func(t *testing.T, typ, title, family, given, container, page, doi, url string) {
		rec := &metadata.Record{
			Type: typ, Title: "T" + title, ContainerTitle: container, Page: page, DOI: doi, URL: url,
			Authors: []metadata.Name{{Family: family, Given: given}},
			Issued:  metadata.Date{Year: 2020, Month: 13, Day: 40},
		}
		for _, st := range Styles() {
			got, err := Format(rec, "k", st)
			if err != nil {
				t.Fatalf("%s: %v", st, err)
			}
			if !utf8.ValidString(got) {
				t.Fatalf("%s: invalid UTF-8 output %q", st, got)
			}
			if st != BibTeX {
				continue
			}
			depth := 0
			for i := 0; i < len(got); i++ {
				switch got[i] {
				case '\\':
					i++ // an escaped character
				case '{':
					depth++
				case '}':
					depth--
					if depth < 0 {
						t.Fatalf("unbalanced braces in %q", got)
					}
				}
			}
			if depth != 0 {
				t.Fatalf("unbalanced braces in %q", got)
			}
			if strings.Count(got, "\n}") != 1 || !strings.HasSuffix(got, "\n}") {
				t.Fatalf("entry does not end with one closing brace line: %q", got)
			}
		}
	})
}
