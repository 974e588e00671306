package draft

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// FuzzScan checks that scanning never panics, that every citation has a
// non-empty key without white space, found at its offset, line and column,
// and that the quotations keep their invariants (checkQuotations: offsets
// in order and in the text, Raw is text[Offset:End], Text not empty,
// sorted and not overlapping, lines right, CitedKeys and ProvenanceFor
// safe for every index), whichever kind the text is read as.
func FuzzScan(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*"))
	for _, s := range seeds {
		if data, err := os.ReadFile(s); err == nil {
			f.Add(data)
		}
	}
	for _, s := range []string{
		`\citep[see][p.~3]{a,` + "\n" + ` b}`,
		`\cites(a)(b)[c]{d}[e]{f}`,
		`\volcites{1}[2]{k}`,
		"\\begin{verbatim}\\cite{x}",
		`\verb|x`,
		"[see @a; -@b] @{c d} @{e} user@x.org `@f`",
		"---\nnocite: |\n  @a\n---\n",
		"```\n@a\n```",
		"<!-- @a",
		"[x](@y",
		"\\begin{quote}``a'' \\cite{k}\\end{quote}\n% crossmem: k c sha256=0",
		"\\textcquote[p]{k}[.]{a \\textelp{} b} \\enquote{x} \\blockquote{\"y\"}",
		"``a b c d e f'' $\"x\"$ \\verb|\"| \"g\" \\cite{k}",
		"> a [@k]\n> — [@j]\n<!-- crossmem: k c -->\n\"x\" [@k]",
		"“a „b“ «c» d”\n\n> \n>",
		"Lo et al. write \"a b c d e f\" (2020, p. 3) and \"g\" (p. 4).\nAs Lo's (2019) \"x\" (pp. 1–2)",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		text := string(data)
		for _, name := range []string{"d.tex", "d.md", "d"} {
			d := Scan(name, data)
			if d.Kind == Unknown {
				t.Fatalf("%s: kind Unknown", name)
			}
			for _, c := range d.Citations {
				if c.Key == "" || strings.IndexFunc(c.Key, unicode.IsSpace) >= 0 {
					t.Fatalf("%s: key %q is empty or has white space", name, c.Key)
				}
				if c.Offset < 0 || c.Offset+len(c.Key) > len(text) || text[c.Offset:c.Offset+len(c.Key)] != c.Key {
					t.Fatalf("%s: %+v: key not at its offset", name, c)
				}
				line := strings.Count(text[:c.Offset], "\n") + 1
				col := c.Offset - (strings.LastIndex(text[:c.Offset], "\n") + 1) + 1
				if c.Line != line || c.Col != col {
					t.Fatalf("%s: %+v: offset is line %d column %d", name, c, line, col)
				}
				if c.Command == "" {
					t.Fatalf("%s: %+v: no command", name, c)
				}
			}
			checkQuotations(t, text, d)
		}
	})
}
