package citation

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/metadata"
)

// cslString accepts a CSL-JSON string or number.
type cslString string

func (s *cslString) UnmarshalJSON(b []byte) error {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*s = cslString(strings.TrimSpace(fmt.Sprint(v)))
	return nil
}

type cslItem struct {
	ID     string `json:"id"`
	Type   string `json:"type"`
	Title  string `json:"title"`
	Author []struct {
		Family  string `json:"family"`
		Given   string `json:"given"`
		Suffix  string `json:"suffix"`
		Literal string `json:"literal"`
	} `json:"author"`
	Issued struct {
		DateParts [][]int `json:"date-parts"`
	} `json:"issued"`
	DOI            string    `json:"DOI"`
	ContainerTitle string    `json:"container-title"`
	Volume         cslString `json:"volume"`
	Issue          cslString `json:"issue"`
	Page           cslString `json:"page"`
	Publisher      string    `json:"publisher"`
	Number         cslString `json:"number"`
	URL            string    `json:"URL"`
	Note           string    `json:"note"`
}

// record maps a CSL-JSON item onto metadata.Record the way crossmem's
// metadata sources fill it: an arXiv "number" becomes ArxivID, a name
// suffix is written after a comma in the given name.
func (c cslItem) record() *metadata.Record {
	rec := &metadata.Record{
		Type:           c.Type,
		Title:          c.Title,
		ContainerTitle: c.ContainerTitle,
		Volume:         string(c.Volume),
		Issue:          string(c.Issue),
		Page:           string(c.Page),
		Publisher:      c.Publisher,
		DOI:            c.DOI,
		URL:            c.URL,
	}
	if id, ok := strings.CutPrefix(string(c.Number), "arXiv:"); ok {
		rec.ArxivID = id
	}
	if strings.HasPrefix(strings.ToLower(c.DOI), "10.48550/arxiv.") {
		rec.DOIPreprint = c.DOI
	}
	if ref, ok := strings.CutPrefix(c.Note, "Journal reference: "); ok {
		rec.JournalRef = ref
	}
	if len(c.Issued.DateParts) > 0 {
		dp := c.Issued.DateParts[0]
		for i, p := range []*int{&rec.Issued.Year, &rec.Issued.Month, &rec.Issued.Day} {
			if i < len(dp) {
				*p = dp[i]
			}
		}
	}
	for _, a := range c.Author {
		n := metadata.Name{Family: a.Family, Given: a.Given, Literal: a.Literal}
		if a.Suffix != "" {
			n.Given += ", " + a.Suffix
		}
		rec.Authors = append(rec.Authors, n)
	}
	return rec
}

func readGroundTruth(t *testing.T) []cslItem {
	t.Helper()
	b := corpustest.File(t, "api", "GROUNDTRUTH.csl.json")
	var items []cslItem
	if err := json.Unmarshal(b, &items); err != nil {
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
	BibTeX string `json:"bibtex"`
}

func readOracle(t *testing.T) map[string]oracleItem {
	t.Helper()
	b := corpustest.File(t, "api", "oracle_out.json")
	var out struct {
		Items []oracleItem `json:"items"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	m := map[string]oracleItem{}
	for _, it := range out.Items {
		m[it.ID] = it
	}
	return m
}

// oracleStyle maps our styles to the oracle's style names.
var oracleStyle = map[Style]string{
	APA:     "apa",
	MLA:     "mla",
	Chicago: "chicago-notes-bibliography-18",
	IEEE:    "ieee",
}

// oracleFloor is the number of the 36 oracle entries each style must match
// exactly: the counts achieved when this test was written, so that a
// regression fails. APA and Chicago miss gould2006frequency only, where
// citeproc-js prints the arXiv number as "arXiv:astro-Ph/0601001"; crossmem
// keeps the identifier as arXiv writes it. For BibTeX, citation-js's
// conventions differ (field order, every capitalised word braced, @article
// for preprints), so an entry counts as matching when doi, year, volume,
// number and pages agree.
var oracleFloor = map[Style]int{
	APA:     35,
	MLA:     36,
	Chicago: 35,
	IEEE:    36,
	BibTeX:  36,
}

func TestOracleAgreement(t *testing.T) {
	items := readGroundTruth(t)
	oracle := readOracle(t)
	for _, st := range Styles() {
		matched := 0
		for _, c := range items {
			o, ok := oracle[c.ID]
			if !ok {
				t.Fatalf("oracle has no item %q", c.ID)
			}
			got, err := Format(c.record(), c.ID, st)
			if err != nil {
				t.Errorf("%s %s: %v", st, c.ID, err)
				continue
			}
			if st == BibTeX {
				if bibtexAgrees(t, got, o.BibTeX) {
					matched++
				}
				continue
			}
			want := o.Styles[oracleStyle[st]].Bibliography
			if st == IEEE {
				want = strings.TrimPrefix(want, "[1] ")
			}
			if got == want {
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

// bibtexAgrees compares our entry with citation-js's on what both must
// agree on despite different conventions (field order, brace protection,
// @misc vs @article for preprints): doi, year, volume, number and pages.
func bibtexAgrees(t *testing.T, got, want string) bool {
	t.Helper()
	g, w := bibFields(got), bibFields(want)
	for _, f := range []string{"doi", "year", "volume", "number", "pages"} {
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

// TestExtraOracle compares with citeproc-js output for hand-written items
// (book, chapter, corporate and missing authors, quotes in titles, missing
// dates) that the shared corpus lacks; testdata/extra_oracle.json was made
// with ../shared/tools/csl-oracle.js from testdata/extra.csl.json.
func TestExtraOracle(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "extra.csl.json"))
	if err != nil {
		t.Fatal(err)
	}
	var items []cslItem
	if err := json.Unmarshal(b, &items); err != nil {
		t.Fatal(err)
	}
	b, err = os.ReadFile(filepath.Join("testdata", "extra_oracle.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Items []oracleItem `json:"items"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Items) != len(items) {
		t.Fatalf("%d oracle items for %d inputs", len(out.Items), len(items))
	}
	for i, c := range items {
		o := out.Items[i]
		if o.ID != c.ID {
			t.Fatalf("oracle item %d is %q, want %q", i, o.ID, c.ID)
		}
		for _, st := range []Style{APA, MLA, Chicago, IEEE} {
			got, err := Format(c.record(), c.ID, st)
			if err != nil {
				t.Errorf("%s %s: %v", st, c.ID, err)
				continue
			}
			want := o.Styles[oracleStyle[st]].Bibliography
			if st == IEEE {
				want = strings.TrimPrefix(want, "[1] ")
			}
			if got != want {
				t.Errorf("%s %s:\n got: %s\nwant: %s", st, c.ID, got, want)
			}
		}
	}
}
