package citation

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/csl"
)

func readGroundTruth(t testing.TB) []csl.Item {
	t.Helper()
	b := corpustest.File(t, "api", "GROUNDTRUTH.csl.json")
	items, err := csl.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) == 0 {
		t.Fatal("GROUNDTRUTH.csl.json has no items")
	}
	return items
}

type oracleItem struct {
	ID     string `json:"id"`
	Styles map[string]struct {
		Bibliography string `json:"bibliography"`
	} `json:"styles"`
	BibTeX   string `json:"bibtex"`
	BibLaTeX string `json:"biblatex"`
}

func readOracleFile(t *testing.T, b []byte) []oracleItem {
	t.Helper()
	var out struct {
		Items []oracleItem `json:"items"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out.Items
}

// oracleStyle maps our styles to the oracle's style names.
var oracleStyle = map[Style]string{
	APA:                 "apa",
	MLA:                 "mla",
	Chicago:             "chicago-notes-bibliography-18",
	Chicago17:           "chicago-notes-bibliography-17",
	ChicagoAuthorDate:   "chicago-author-date-18",
	ChicagoAuthorDate17: "chicago-author-date-17",
	IEEE:                "ieee",
}

// oracleFloor is the number of the 36 oracle entries each style must match
// exactly: the counts achieved when this test was written, so that a
// regression fails. Every miss is listed in docs/citations.md
// ("Differences from citeproc-js"): all CSL styles miss
// gould2006frequency, where citeproc-js prints the arXiv number as
// "arXiv:astro-Ph/0601001" (its title case reaches into the number);
// crossmem keeps the identifier as arXiv writes it. For BibTeX,
// citation-js's conventions differ (field order, every capitalised word
// braced, @article for preprints), so an entry counts as matching when
// doi, year, volume, number and pages agree; for BibLaTeX doi, date,
// volume, number and pages.
var oracleFloor = map[Style]int{
	APA:                 35,
	MLA:                 36,
	Chicago:             35,
	Chicago17:           35,
	ChicagoAuthorDate:   35,
	ChicagoAuthorDate17: 35,
	IEEE:                36,
	BibTeX:              36,
	BibLaTeX:            36,
}

// oracleText is the oracle's bibliography entry for st, without IEEE's
// "[1] " label.
func oracleText(o oracleItem, st Style) string {
	want := o.Styles[oracleStyle[st]].Bibliography
	if st == IEEE {
		want = strings.TrimPrefix(want, "[1] ")
	}
	return want
}

func TestOracleAgreement(t *testing.T) {
	items := readGroundTruth(t)
	oracle := map[string]oracleItem{}
	for _, o := range readOracleFile(t, corpustest.File(t, "api", "oracle_out.json")) {
		oracle[o.ID] = o
	}
	for _, st := range []Style{APA, MLA, Chicago, Chicago17, ChicagoAuthorDate, ChicagoAuthorDate17, IEEE, BibTeX, BibLaTeX} {
		matched := 0
		for _, c := range items {
			o, ok := oracle[c.ID]
			if !ok {
				t.Fatalf("oracle has no item %q", c.ID)
			}
			got, err := Format(c, st)
			if err != nil {
				t.Errorf("%s %s: %v", st, c.ID, err)
				continue
			}
			if st == BibTeX {
				if bibAgrees(t, got, o.BibTeX, "doi", "year", "volume", "number", "pages") {
					matched++
				}
				continue
			}
			if st == BibLaTeX {
				if bibAgrees(t, got, o.BibLaTeX, "doi", "date", "volume", "number", "pages") {
					matched++
				}
				continue
			}
			if want := oracleText(o, st); got == want {
				matched++
			} else if testing.Verbose() {
				t.Logf("%s %s:\n got: %s\nwant: %s", st, c.ID, got, want)
			}
		}
		t.Logf("%s: %d of %d oracle entries match", st, matched, len(items))
		if matched < oracleFloor[st] {
			t.Errorf("%s: %d oracle matches, want at least %d", st, matched, oracleFloor[st])
		}
	}
}

// bibAgrees compares our entry with citation-js's on the fields both must
// agree on despite different conventions (field order, brace protection,
// @misc vs @article for preprints).
func bibAgrees(t *testing.T, got, want string, fields ...string) bool {
	t.Helper()
	g, w := bibFields(got), bibFields(want)
	for _, f := range fields {
		if g[f] != w[f] {
			if testing.Verbose() {
				t.Logf("bibtex field %s: got %q, want %q", f, g[f], w[f])
			}
			return false
		}
	}
	return true
}

func bibFields(entry string) map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(entry, "\n") {
		name, value, ok := strings.Cut(strings.TrimSpace(line), "=")
		if !ok {
			continue
		}
		value = strings.TrimSuffix(strings.TrimSpace(value), ",")
		value = strings.NewReplacer("{", "", "}", "").Replace(value)
		m[strings.TrimSpace(name)] = value
	}
	return m
}

// extraKnown lists the hand-written items on which a style knowingly
// differs from citeproc-js, with the reason (docs/citations.md repeats
// them).
var extraKnown = map[Style]map[string]string{}

// TestExtraOracle compares with citeproc-js output for hand-written items
// (book, edited book, chapter with editors, report, thesis, corporate and
// missing authors, particles and suffixes, eleven authors, quotes in
// titles, missing dates) that the shared corpus lacks.
// testdata/extra_oracle.json was made from testdata/extra.csl.json with
// ../shared/tools/csl-oracle.js, keeping only the bibliography entries:
//
//	node csl-oracle.js extra.csl.json full.json --csl-dir ../shared/corpus/csl
//	node -e '…' (see docs/citations.md, "Regenerating the oracle")
func TestExtraOracle(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "extra.csl.json"))
	if err != nil {
		t.Fatal(err)
	}
	items, err := csl.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	b, err = os.ReadFile(filepath.Join("testdata", "extra_oracle.json"))
	if err != nil {
		t.Fatal(err)
	}
	out := readOracleFile(t, b)
	if len(out) != len(items) {
		t.Fatalf("%d oracle items for %d inputs", len(out), len(items))
	}
	for _, st := range []Style{APA, MLA, Chicago, Chicago17, ChicagoAuthorDate, ChicagoAuthorDate17, IEEE} {
		matched := 0
		for i, c := range items {
			o := out[i]
			if o.ID != c.ID {
				t.Fatalf("oracle item %d is %q, want %q", i, o.ID, c.ID)
			}
			got, err := Format(c, st)
			if err != nil {
				t.Errorf("%s %s: %v", st, c.ID, err)
				continue
			}
			want := oracleText(o, st)
			_, known := extraKnown[st][c.ID]
			switch {
			case got == want && known:
				t.Errorf("%s %s now matches the oracle: remove it from extraKnown", st, c.ID)
			case got == want:
				matched++
			case !known:
				t.Errorf("%s %s:\n got: %s\nwant: %s", st, c.ID, got, want)
			case testing.Verbose():
				t.Logf("%s %s (known: %s):\n got: %s\nwant: %s", st, c.ID, extraKnown[st][c.ID], got, want)
			}
		}
		t.Logf("%s: %d of %d extra oracle entries match", st, matched, len(items))
	}
}
