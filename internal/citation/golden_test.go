package citation

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossmem/crossmem/internal/csl"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// goldenItems are the GROUNDTRUTH.csl.json items followed by the
// hand-written testdata/extra.csl.json items (books, chapters, reports,
// theses, editors, particles).
func goldenItems(t testing.TB) []csl.Item {
	t.Helper()
	items := readGroundTruth(t)
	b, err := os.ReadFile(filepath.Join("testdata", "extra.csl.json"))
	if err != nil {
		t.Fatal(err)
	}
	extra, err := csl.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	return append(items, extra...)
}

// TestGolden renders every golden item in every style and compares with
// testdata/<style>.golden (and the BibTeX and BibLaTeX entries with
// Unicode escaped as LaTeX with testdata/<style>-latex.golden); run with
// -update to rewrite them.
func TestGolden(t *testing.T) {
	items := goldenItems(t)
	type variant struct {
		name  string
		style Style
		opt   Options
	}
	var variants []variant
	for _, st := range Styles() {
		variants = append(variants, variant{string(st), st, Options{}})
	}
	variants = append(variants,
		variant{"bibtex-latex", BibTeX, Options{Unicode: UnicodeLaTeX}},
		variant{"biblatex-latex", BibLaTeX, Options{Unicode: UnicodeLaTeX}})
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			var b strings.Builder
			for _, c := range items {
				got, err := FormatWith(c, v.style, v.opt)
				if err != nil {
					t.Fatalf("%s: %v", c.ID, err)
				}
				b.WriteString("# " + c.ID + "\n" + got + "\n\n")
			}
			path := filepath.Join("testdata", v.name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), b.String()); diff != "" {
				t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
			}
		})
	}
}
