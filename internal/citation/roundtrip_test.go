package citation

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	bibreader "github.com/crossmem/crossmem/internal/bibtex"
	"github.com/crossmem/crossmem/internal/csl"
)

// hostile are strings that once broke out of a BibTeX field or did not
// read back as written (issue 11), and their relatives.
var hostile = []string{
	"Zed}, year = 1999, note = OOPS",
	`}\input{/etc/passwd}`,
	"Unbalanced {{{",
	"}}} closing first",
	`\{ escaped \}`,
	`a \ backslash`,
	`\\ two`,
	`\textbf{bold} and \"a`,
	"100% of $5 & #1 _x_",
	"~tilde^caret",
	"@article{evil, title = {x}}",
	`"quoted" and 'single'`,
	"en -- dash --- em",
	"``open'' quotes",
	"a,b, c",
	"Smith and Jones",
	"{braced}",
	"}{",
	"Ünïcödé Straße — ﬁ ß ł Ø",
	"日本語のタイトル",
	"math $\\alpha$",
	"%comment at start",
	"end with backslash\\",
	"x {y} z",
	"-- leading dashes",
	"!`?`",
	"<B>0",       // an inline tag: the title keeps its text, not the tag (fuzz, 2026-11-25)
	"<i>x</i> <", // a tag and a lone "<"
}

// readBack formats it in st with opt and reads the output with
// internal/bibtex.
func readBack(t *testing.T, it csl.Item, st Style, opt Options) (csl.Item, string) {
	t.Helper()
	out, err := FormatWith(it, st, opt)
	if err != nil {
		t.Fatalf("%s: %v", st, err)
	}
	checkEntry(t, out)
	items, _, err := bibreader.Items([]byte(out))
	if err != nil || len(items) != 1 {
		t.Fatalf("%s output does not read back (%v, %d items):\n%s", st, err, len(items), out)
	}
	return items[0], out
}

// fieldsOf lists the text fields the round trip must keep, white space
// collapsed (the writers collapse it).
func fieldsOf(it csl.Item) map[string]string {
	m := map[string]string{
		"title": it.Title, "container-title": it.ContainerTitle, "publisher": it.Publisher,
		"publisher-place": it.PublisherPlace, "note": it.Note,
	}
	for i, n := range it.Author {
		m["author"+string(rune('0'+i))] = strings.Join([]string{n.Literal, n.Given, n.DroppingParticle, n.NonDroppingParticle, n.Family, n.Suffix}, "|")
	}
	for k, v := range m {
		m[k] = clean(v)
	}
	return m
}

// normName is a name as BibTeX has it: the particles are part of the last
// name (BibTeX finds them by their case), and a literal name is a last
// name in braces.
func normName(n csl.Name) string {
	last := clean(strings.Join([]string{n.Literal, n.DroppingParticle, n.NonDroppingParticle, n.Family}, " "))
	return strings.Join([]string{clean(n.Given), last, clean(n.Suffix)}, "|")
}

func roundTrip(t *testing.T, s string) {
	it := csl.Item{ID: "k", Type: "book", Title: "T " + s, Publisher: s, PublisherPlace: s, Note: s,
		Author: []csl.Name{{Family: "F" + s, Given: "G" + s}}}
	if clean(s) != "" {
		it.Author = append(it.Author, csl.Name{Literal: s})
	}
	for _, st := range []Style{BibTeX, BibLaTeX} {
		for _, opt := range []Options{{}, {Unicode: UnicodeLaTeX}} {
			got, out := readBack(t, it, st, opt)
			for _, f := range []struct{ name, want, got string }{
				// Titles lose the inline markup metadata sources put in
				// them (<i>, <b>, <sub>, …; stripTags), by design.
				{"title", clean(stripTags(it.Title)), got.Title},
				{"publisher", clean(it.Publisher), got.Publisher},
				{"address", clean(it.PublisherPlace), got.PublisherPlace},
				{"note", clean(it.Note), got.Note},
			} {
				if f.want != f.got {
					t.Errorf("%s (unicode %v) %s: wrote %q, read back %q\n%s", st, opt.Unicode, f.name, f.want, f.got, out)
				}
			}
			if len(got.Author) != len(it.Author) {
				t.Errorf("%s: %d authors read back, want %d\n%s", st, len(got.Author), len(it.Author), out)
				continue
			}
			for i := range it.Author {
				// The writer's name rules: "Smith, Jr." gives its suffix to
				// the suffix part, "M.F." is written "M. F.".
				want := it.Author[i]
				if want.Literal == "" {
					f, g, suffix := splitSuffix(clean(want.Family), clean(want.Given))
					want.Family, want.Given, want.Suffix = f, spaceInitials(g), suffix
				}
				if w, g := normName(want), normName(got.Author[i]); w != g {
					t.Errorf("%s (unicode %v) author %d: wrote %q, read back %q\n%s", st, opt.Unicode, i, w, g, out)
				}
			}
		}
	}
	// CSL-JSON
	out, err := FormatWith(it, CSLJSON, Options{})
	if err != nil {
		t.Fatal(err)
	}
	back, err := csl.Decode([]byte(out))
	if err != nil || len(back) != 1 {
		t.Fatalf("CSL-JSON does not decode back: %v\n%s", err, out)
	}
	a, _ := json.Marshal(fieldsOf(it))
	b, _ := json.Marshal(fieldsOf(back[0]))
	if string(a) != string(b) {
		t.Errorf("CSL-JSON round trip:\n wrote %s\n  read %s", a, b)
	}
}

// TestHostileRoundTrip: every hostile string written into BibTeX,
// BibLaTeX (Unicode kept or as LaTeX) and CSL-JSON reads back with
// internal/bibtex or internal/csl as the same fields.
func TestHostileRoundTrip(t *testing.T) {
	for _, s := range hostile {
		roundTrip(t, s)
	}
}

// FuzzRoundTrip is TestHostileRoundTrip over any string.
func FuzzRoundTrip(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// Records hold valid UTF-8 without control or bidi characters
		// (metadata.CleanText); nothing else reaches a writer.
		if !utf8.ValidString(s) || strings.IndexFunc(s, unicode.IsControl) >= 0 {
			t.Skip()
		}
		roundTrip(t, s)
	})
}
