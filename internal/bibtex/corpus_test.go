package bibtex

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/csl"
)

// groundTruth reads ../shared/corpus/api/GROUNDTRUTH.csl.json keyed by
// lower-cased DOI.
func groundTruth(t *testing.T) map[string]csl.Item {
	t.Helper()
	items, err := csl.Decode(corpustest.File(t, "api", "GROUNDTRUTH.csl.json"))
	if err != nil {
		t.Fatalf("GROUNDTRUTH.csl.json: %v", err)
	}
	byDOI := map[string]csl.Item{}
	for _, it := range items {
		if it.DOI != "" {
			byDOI[strings.ToLower(it.DOI)] = it
		}
	}
	return byDOI
}

// differences returns the names of the fields of got that differ from
// the ground truth (title, DOI, year, first author: family name with
// particles or literal name, and type when withType), and a description of
// each.
func differences(got, want csl.Item, withType bool) (fields []string, details string) {
	var b strings.Builder
	check := func(field, g, w string) {
		if g != w {
			fields = append(fields, field)
			fmt.Fprintf(&b, "\n  %s %q, ground truth %q", field, g, w)
		}
	}
	check("title", got.Title, strings.Join(strings.Fields(want.Title), " "))
	check("DOI", strings.ToLower(got.DOI), strings.ToLower(want.DOI))
	check("year", fmt.Sprint(got.Issued.Start().Year), fmt.Sprint(want.Issued.Start().Year))
	if withType {
		check("type", got.Type, want.Type)
	}
	check("author", firstAuthor(got), firstAuthor(want))
	return fields, b.String()
}

func firstAuthor(it csl.Item) string {
	if len(it.Author) == 0 {
		return ""
	}
	a := it.Author[0]
	if a.Literal != "" {
		return a.Literal
	}
	return a.FullFamily()
}

// TestCrossrefBibTeX parses every BibTeX record Crossref returned
// (../shared/corpus/api/crossref-bibtex, read in place) and compares the
// works that are in GROUNDTRUTH.csl.json on title, DOI, year and first
// author. The differences that are in Crossref's data are listed in
// knownCrossref; any other difference fails.
func TestCrossrefBibTeX(t *testing.T) {
	dir := corpustest.Dir(t, "api", "crossref-bibtex")
	truth := groundTruth(t)
	files, err := filepath.Glob(filepath.Join(dir, "*.bib"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no .bib files in %s: %v", dir, err)
	}
	knownCrossref := map[string][]string{
		// Crossref's record of this Reactions Weekly note has no title.
		"10.1007/s40278-023-41815-2": {"title"},
		// Crossref splits "Andres M. Bran" as family "M. Bran".
		"10.1038/s42256-024-00832-8": {"author"},
	}
	var parsed, compared, matching int
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		items, warnings, err := Items(data)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
			continue
		}
		parsed++
		if len(items) != 1 {
			t.Errorf("%s: %d items, want 1", filepath.Base(f), len(items))
			continue
		}
		it := items[0]
		if it.DOI == "" || it.Title == "" && len(warnings) == 0 {
			t.Errorf("%s: no DOI, or no title and no warning: %+v %q", filepath.Base(f), it, warnings)
		}
		want, ok := truth[strings.ToLower(it.DOI)]
		if !ok {
			continue // Crossref answered for a DOI that is not a ground-truth work
		}
		compared++
		fields, details := differences(it, want, false)
		if len(fields) == 0 {
			matching++
		} else {
			t.Logf("%s:%s", it.DOI, details)
		}
		if strings.Join(fields, ",") != strings.Join(knownCrossref[it.DOI], ",") {
			t.Errorf("%s: fields %q differ from the ground truth, want %q:%s", it.DOI, fields, knownCrossref[it.DOI], details)
		}
	}
	t.Logf("crossref-bibtex: %d of %d .bib files parsed; %d are ground-truth works; %d of them match on title, DOI, year and first author", parsed, len(files), compared, matching)
}

// TestOracleBibTeX reads the BibTeX and BibLaTeX that citation-js wrote
// for every ground-truth work (../shared/corpus/api/oracle_out.json) and
// compares title, DOI, year, first author and type with the ground truth
// they were made from. The differences that citation-js's export makes
// are listed in knownOracle; any other difference fails.
func TestOracleBibTeX(t *testing.T) {
	var oracle struct {
		Items []struct {
			ID       string `json:"id"`
			BibTeX   string `json:"bibtex"`
			BibLaTeX string `json:"biblatex"`
		} `json:"items"`
	}
	if err := json.Unmarshal(corpustest.File(t, "api", "oracle_out.json"), &oracle); err != nil {
		t.Fatal(err)
	}
	items, err := csl.Decode(corpustest.File(t, "api", "GROUNDTRUTH.csl.json"))
	if err != nil {
		t.Fatal(err)
	}
	truth := map[string]csl.Item{}
	for _, it := range items {
		truth[it.ID] = it
	}
	knownOracle := map[string][]string{
		// The ground truth keeps Crossref's HTML (<sub>, <i>); citation-js
		// writes \textsubscript and \textit, which read back as plain text.
		"fems2013co2 bibtex": {"title"}, "fems2013co2 biblatex": {"title"},
		"joyce2020identification bibtex": {"title"}, "joyce2020identification biblatex": {"title"},
		// arXiv's title has a literal "--", which BibTeX reads as an en dash.
		"heibi2019crowdsourcing bibtex": {"title"}, "heibi2019crowdsourcing biblatex": {"title"},
		// BibTeX has no dataset type: citation-js writes @misc.
		"fermi1984crystal bibtex": {"type"},
		// citation-js loses family-only CJK names: author = {,  and , }.
		"jspfsm2007 bibtex": {"author"}, "jspfsm2007 biblatex": {"author"},
	}
	var total, matching int
	for _, o := range oracle.Items {
		want, ok := truth[o.ID]
		if !ok {
			t.Errorf("oracle item %q is not in the ground truth", o.ID)
			continue
		}
		for _, flavour := range []string{"bibtex", "biblatex"} {
			src := o.BibTeX
			if flavour == "biblatex" {
				src = o.BibLaTeX
			}
			got, _, err := Items([]byte(src))
			if err != nil {
				t.Errorf("%s %s: %v", o.ID, flavour, err)
				continue
			}
			total++
			name := o.ID + " " + flavour
			fields, details := differences(got[0], want, true)
			if len(fields) == 0 {
				matching++
			} else {
				t.Logf("%s:%s", name, details)
			}
			if strings.Join(fields, ",") != strings.Join(knownOracle[name], ",") {
				t.Errorf("%s: fields %q differ from the ground truth, want %q:%s", name, fields, knownOracle[name], details)
			}
		}
	}
	t.Logf("oracle: %d of %d citation-js BibTeX/BibLaTeX exports match the ground truth on title, DOI, year, first author and type", matching, total)
}

// zoteroTypes maps Zotero item types to CSL types, as Zotero's own CSL
// export does.
var zoteroTypes = map[string]string{
	"journalArticle": "article-journal", "conferencePaper": "paper-conference",
	"preprint": "article", "book": "book", "bookSection": "chapter", "thesis": "thesis",
	"report": "report", "dataset": "dataset", "manuscript": "manuscript", "webpage": "webpage",
}

// TestZoteroExpected compares the conversion of citation-js's BibLaTeX for
// the ground-truth works with what Zotero's translators expect for the same
// DOIs (../shared/corpus/api/zotero-expected, read in place): the CSL type
// and the first creator's last name must agree.
func TestZoteroExpected(t *testing.T) {
	dir := corpustest.Dir(t, "api", "zotero-expected")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no zotero-expected files in %s: %v", dir, err)
	}
	type zoteroItem struct {
		ItemType string `json:"itemType"`
		DOI      string `json:"DOI"`
		Creators []struct {
			LastName string `json:"lastName"`
		} `json:"creators"`
	}
	expected := map[string][]zoteroItem{}
	for _, f := range files {
		var translator struct {
			Cases []struct {
				Items json.RawMessage `json:"expected_items"`
			} `json:"cases"`
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &translator); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, c := range translator.Cases {
			var items []zoteroItem
			if json.Unmarshal(c.Items, &items) != nil { // "multiple" cases hold no item list
				continue
			}
			for _, it := range items {
				if it.DOI != "" {
					expected[strings.ToLower(it.DOI)] = append(expected[strings.ToLower(it.DOI)], it)
				}
			}
		}
	}
	var oracle struct {
		Items []struct {
			BibLaTeX string `json:"biblatex"`
		} `json:"items"`
	}
	if err := json.Unmarshal(corpustest.File(t, "api", "oracle_out.json"), &oracle); err != nil {
		t.Fatal(err)
	}
	var compared int
	for _, o := range oracle.Items {
		items, _, err := Items([]byte(o.BibLaTeX))
		if err != nil {
			t.Fatal(err)
		}
		it := items[0]
		for _, z := range expected[strings.ToLower(it.DOI)] {
			compared++
			if want := zoteroTypes[z.ItemType]; it.Type != want {
				t.Errorf("%s: type %q, Zotero's %s is %q", it.DOI, it.Type, z.ItemType, want)
			}
			if len(z.Creators) > 0 && firstAuthor(it) != z.Creators[0].LastName {
				t.Errorf("%s: first author %q, Zotero's %q", it.DOI, firstAuthor(it), z.Creators[0].LastName)
			}
		}
	}
	if compared == 0 {
		t.Fatal("no zotero-expected item shares a DOI with the ground truth")
	}
	t.Logf("zotero-expected: %d Zotero items share a DOI with the ground truth; type and first author agree", compared)
}
