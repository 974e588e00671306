package bibtex

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

var errorLine = regexp.MustCompile(`^line [1-9][0-9]*: `)

// FuzzParse checks that Parse and the conversion never panic or hang,
// that a failed parse returns no entries and only errors with a line
// number, and that a successful one returns entries with keys and lines.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.bib"))
	for _, s := range seeds {
		if data, err := os.ReadFile(s); err == nil {
			f.Add(data)
		}
	}
	for _, s := range []string{
		"@article{a, title = {T}}",
		"@string{x = {X}} @misc(b, note = x # \"y\" # 12)",
		"@article{a,\n title = {Foo,\n}\n@book{b, title={B}}",
		"@comment{x} % c\n@preamble{\"p\"}",
		"@misc{k, author = {van der Berg, Jr, J. and {ACME} and others}, date = {2020-01/2021}}",
		"@misc{k, title = {\\\"{u} {\\'E} $\\delta$ \\url{x} \\foo{bar} -- ``q''}}",
		"@misc{k, title = \"a{\"}b\"}",
		"@",
		"@a{",
		"@a{k,t={",
		"@a{k,t=\"",
		"@a{k,t=}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := Parse(data)
		if err != nil {
			if entries != nil {
				t.Fatalf("Parse returned %d entries with error %v", len(entries), err)
			}
			lines := strings.Split(err.Error(), "\n")
			for i, l := range lines {
				if !errorLine.MatchString(l) && !(i == len(lines)-1 && strings.HasPrefix(l, "more errors")) {
					t.Fatalf("error line %q has no line number", l)
				}
			}
			return
		}
		for _, e := range entries {
			if e.Key == "" || e.Type == "" || e.Line < 1 {
				t.Fatalf("entry without key, type or line: %+v", e)
			}
			for _, fl := range e.Fields {
				if fl.Name == "" || fl.Line < e.Line {
					t.Fatalf("field without name or before its entry: %+v in %+v", fl, e)
				}
			}
			it, _ := e.Item()
			if it.ID != e.Key {
				t.Fatalf("item id %q, key %q", it.ID, e.Key)
			}
			if !utf8.ValidString(it.Title) {
				t.Fatalf("title %q is not UTF-8", it.Title)
			}
		}
		if _, _, err := Items(data); err != nil {
			t.Fatalf("Items failed where Parse succeeded: %v", err)
		}
	})
}
