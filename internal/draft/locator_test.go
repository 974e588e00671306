package draft

import (
	"errors"
	"strings"
	"testing"
)

func TestLocators(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       string // key=locator, space-separated
	}{
		{"x.tex", `\cite[p.~11]{a}`, "a=p.~11"},
		{"x.tex", `\citep[see][pp.~3--4]{a,b}`, "a=pp.~3--4 b=pp.~3--4"},
		{"x.tex", `\textcite[chap.~2]{a} \cite{b}`, "a=chap.~2 b="},
		{"x.tex", `\parencite[11]{a}`, "a=11"},
		{"x.tex", `\cites[p.~3]{a}[p.~5]{b}`, "a=p.~3 b=p.~5"},
		{"x.tex", `\volcite{2}[45]{a}`, "a=45"},
		{"x.md", `[@a, p. 11]`, "a=p. 11"},
		{"x.md", `[see @a, pp. 33-35; also @b, chap. 1]`, "a=pp. 33-35 b=chap. 1"},
		{"x.md", `[@a]`, "a="},
		{"x.md", `@a [p. 33] says`, "a=p. 33"},
		{"x.md", `@a [see @b] says`, "a= b="},
	} {
		var got []string
		for _, c := range Scan(tc.name, []byte(tc.text)).Citations {
			got = append(got, c.Key+"="+c.Locator)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s %q: %v, want %s", tc.name, tc.text, got, tc.want)
		}
	}
}

func TestPages(t *testing.T) {
	for in, want := range map[string]string{
		"p.~11":           "11-11",
		"p. 11":           "11-11",
		"11":              "11-11",
		"pp. 3--4":        "3-4",
		`pp.\,3–4`:        "3-4",
		"pp. 123-45":      "123-145",
		"page 7":          "7-7",
		"p. xii":          "xii-xii",
		"S. 12f.":         "12-12",
		"chap. 2":         "",
		"fig. 3":          "",
		"p. 11, n. 3":     "",
		"pp. 3-4, 7-9":    "",
		"":                "",
		"section 4, p. 5": "",
	} {
		first, last, ok := Pages(in)
		got := ""
		if ok {
			got = first + "-" + last
		}
		if got != want {
			t.Errorf("Pages(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAuthorYear(t *testing.T) {
	md := `As they write, "existing corpora are not without their limitations" (Lo et al., 2020, p. 4970).

Lo and Wang (2020, pp. 4970–4971) say "existing corpora are not without their limitations".

"A quotation with a key of its own here" [@k2020, p. 3] (Smith, 2019, p. 4).

(Nobody, 2019) has no quotation near.
`
	d := Scan("x.md", []byte(md))
	if len(d.AuthorYears) != 4 {
		t.Fatalf("author-year references %+v, want 4", d.AuthorYears)
	}
	if len(d.Quotations) != 3 {
		t.Fatalf("quotations %+v, want 3", d.Quotations)
	}
	ay, ok := d.AuthorYearFor(0)
	if !ok || ay.Author != "Lo" || ay.Year != "2020" || ay.Locator != "p. 4970" || d.Locator(0) != "p. 4970" {
		t.Errorf("quotation 1: %+v %v, locator %q", ay, ok, d.Locator(0))
	}
	ay, ok = d.AuthorYearFor(1)
	if !ok || ay.Author != "Lo" || ay.Locator != "pp. 4970–4971" {
		t.Errorf("quotation 2 (narrative, before it): %+v %v", ay, ok)
	}
	// A quotation that cites a key keeps its key's locator.
	if _, ok := d.AuthorYearFor(2); ok || d.Locator(2) != "p. 3" {
		t.Errorf("quotation 3: author-year %v, locator %q", ok, d.Locator(2))
	}
	// A reference right after a quotation that ends its sentence is still
	// the quotation's; one after the next sentence starts is not.
	end := Scan("x.md", []byte(`As written, "Existing corpora are not without their limitations." (Lo et al., 2020, p. 4970)

"Existing corpora are not without their limitations." Then Lo and Wang (2020) came.
`))
	if ay, ok := end.AuthorYearFor(0); !ok || ay.Locator != "p. 4970" {
		t.Errorf("reference right after a quotation ending its sentence: %+v %v", ay, ok)
	}
	if ay, ok := end.AuthorYearFor(1); ok {
		t.Errorf("reference in the next sentence attributed: %+v", ay)
	}
	tex := "As \\citet{x} note, ``words of a quotation with many words here'' (Lo et al., 2020, p.~4970).\n"
	if ay, ok := Scan("x.tex", []byte(tex)).AuthorYearFor(0); ok {
		t.Errorf("a quotation with a key has an author-year reference: %+v", ay)
	}
}

// TestNarrativeAuthorYear: the name before a quotation, the year or the
// page after it.
func TestNarrativeAuthorYear(t *testing.T) {
	md := `Lo et al. write "existing corpora are not without their limitations" (2020, p. 4970).

As Knuth writes, "premature optimization is the root of all evil" (1974, p. 268).

Lo and Wang (2020) say "existing corpora are not without their limitations" (p. 4970).

The authors write "a quotation with enough words in it" (2021).

"A quotation with no name before it at all" (2019, p. 2).

Lo's survey says "existing corpora are not without their limitations" (2020) and "a second quotation in the same sentence".
`
	d := Scan("x.md", []byte(md))
	type want struct {
		author, year, locator string
		narrative, sure       bool
		names                 int
	}
	for i, w := range []*want{
		{"Lo", "2020", "p. 4970", true, true, 1},
		{"Knuth", "1974", "p. 268", true, false, 2},
		{"Lo", "2020", "p. 4970", false, false, 0},
		{"The", "2021", "", true, false, 1},
		nil,
		{"Lo", "2020", "", true, true, 1},
		{"Lo", "2020", "", true, true, 1},
	} {
		ay, ok := d.AuthorYearFor(i)
		if w == nil {
			if ok {
				t.Errorf("quotation %d: %+v, want none", i+1, ay)
			}
			continue
		}
		if !ok || ay.Author != w.author || ay.Year != w.year || d.Locator(i) != w.locator || ay.Narrative != w.narrative || ay.Sure != w.sure || len(ay.Names) != w.names {
			t.Errorf("quotation %d: %+v %v, locator %q; want %+v", i+1, ay, ok, d.Locator(i), *w)
		}
	}
	// The only reference of a draft.
	if ay, ok := Scan("x.md", []byte(`Lo et al. write "existing corpora are not without their limitations" (2020).`)).AuthorYearFor(0); !ok || ay.Author != "Lo" {
		t.Errorf("the only reference: %+v %v", ay, ok)
	}
}

func TestCheckText(t *testing.T) {
	var nt *NotTextError
	for in, what := range map[string]string{
		"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n":     "a PDF",
		"PK\x03\x04\x14\x00\x06\x00":        "a ZIP archive (.docx, .odt, .epub)",
		"text with a NUL \x00 byte":         "binary data",
		strings.Repeat("\xff\xfe\xfd", 100): "binary data (not UTF-8 text)",
	} {
		err := CheckText("d", []byte(in))
		if !errors.As(err, &nt) || nt.What != what {
			t.Errorf("%.20q: %v, want %s", in, err, what)
		}
	}
	for _, in := range []string{"", "\\section{Intro}\nText ``quoted''.\n", "# Notes\n\nCaf\xe9 in Latin-1 once.\n", "Ünïcödé — “quotes”"} {
		if err := CheckText("d", []byte(in)); err != nil {
			t.Errorf("%q: %v", in, err)
		}
	}
}
