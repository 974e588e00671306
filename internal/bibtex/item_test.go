package bibtex

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossmem/crossmem/internal/csl"
)

// one converts a file holding one entry.
func one(t *testing.T, bib string) (csl.Item, []string) {
	t.Helper()
	items, warnings, err := Items([]byte(bib))
	if err != nil {
		t.Fatalf("Items(%q): %v", bib, err)
	}
	if len(items) != 1 {
		t.Fatalf("Items(%q): %d items, want 1", bib, len(items))
	}
	return items[0], warnings
}

func TestItemTypes(t *testing.T) {
	tests := []struct {
		bib, typ, genre string
	}{
		{`@article{k, title={T}, journal={J}}`, "article-journal", ""},
		{`@article{k, title={T}, journaltitle={J}, entrysubtype={magazine}}`, "article-magazine", ""},
		{`@article{k, title={T}, journal={J}, entrysubtype={newspaper}}`, "article-newspaper", ""},
		{`@article{k, title={T}}`, "article", ""},
		{`@inproceedings{k, title={T}}`, "paper-conference", ""},
		{`@conference{k, title={T}}`, "paper-conference", ""},
		{`@proceedings{k, title={T}}`, "book", ""},
		{`@book{k, title={T}}`, "book", ""},
		{`@mvbook{k, title={T}}`, "book", ""},
		{`@collection{k, title={T}}`, "book", ""},
		{`@booklet{k, title={T}}`, "pamphlet", ""},
		{`@incollection{k, title={T}, booktitle={B}}`, "chapter", ""},
		{`@inbook{k, title={T}, booktitle={B}}`, "chapter", ""},
		{`@inbook{k, title={The Book}, chapter={3}}`, "book", ""},
		{`@bookinbook{k, title={T}}`, "chapter", ""},
		{`@techreport{k, title={T}}`, "report", ""},
		{`@report{k, title={T}, type={techreport}}`, "report", "Technical report"},
		{`@manual{k, title={T}}`, "report", ""},
		{`@phdthesis{k, title={T}}`, "thesis", "PhD thesis"},
		{`@mastersthesis{k, title={T}}`, "thesis", "Master's thesis"},
		{`@thesis{k, title={T}, type={mathesis}}`, "thesis", "Master's thesis"},
		{`@thesis{k, title={T}, type={Habilitation}}`, "thesis", "Habilitation"},
		{`@misc{k, title={T}}`, "document", ""},
		{`@online{k, title={T}}`, "webpage", ""},
		{`@electronic{k, title={T}}`, "webpage", ""},
		{`@www{k, title={T}}`, "webpage", ""},
		{`@dataset{k, title={T}}`, "dataset", ""},
		{`@software{k, title={T}}`, "software", ""},
		{`@unpublished{k, title={T}}`, "manuscript", ""},
		{`@patent{k, title={T}}`, "patent", ""},
		{`@standard{k, title={T}}`, "standard", ""},
		{`@InProceedings{k, title={T}}`, "paper-conference", ""},
	}
	for _, tt := range tests {
		it, warnings := one(t, tt.bib)
		if it.Type != tt.typ || it.Genre != tt.genre {
			t.Errorf("%s: type %q genre %q, want %q %q", tt.bib, it.Type, it.Genre, tt.typ, tt.genre)
		}
		if len(warnings) != 0 {
			t.Errorf("%s: warnings %q", tt.bib, warnings)
		}
	}
	it, warnings := one(t, `@strange{k, title={T}}`)
	if it.Type != "document" || len(warnings) != 1 || !strings.Contains(warnings[0], "@strange is not a BibTeX or BibLaTeX type") {
		t.Errorf("@strange: type %q, warnings %q; want document and a warning", it.Type, warnings)
	}
}

func TestItemFields(t *testing.T) {
	bib := `@article{Smith:2020/x+1,
  title = {{BERT} and \emph{Friends}},
  subtitle = {A {Survey}},
  author = {Smith, John and {\"O}zt{\"u}rk, Ay{\c s}e},
  editor = {Doe, Jane},
  journal = {J. of {AI} \& Society},
  series = {Lecture Notes},
  volume = {12},
  number = {3--4},
  pages = {101--110},
  edition = {2nd},
  publisher = {Springer},
  address = {Berlin},
  doi = {https://doi.org/10.1000/XYZ\_1},
  url = {https://example.org/~smith/paper\_1.pdf},
  isbn = {978-3-16-148410-0},
  issn = {1234-5678},
  note = {Also at ` + "``ACL''" + `},
  abstract = {First.

Second.},
  language = {english},
  year = {2020},
  month = jun,
}`
	it, warnings := one(t, bib)
	want := csl.Item{
		ID:              "Smith:2020/x+1",
		Type:            "article-journal",
		Title:           "BERT and Friends: A Survey",
		Author:          []csl.Name{{Family: "Smith", Given: "John"}, {Family: "Öztürk", Given: "Ayşe"}},
		Editor:          []csl.Name{{Family: "Doe", Given: "Jane"}},
		Issued:          &csl.Date{DateParts: [][]csl.Number{{"2020", "6"}}},
		ContainerTitle:  "J. of AI & Society",
		CollectionTitle: "Lecture Notes",
		Volume:          "12",
		Issue:           "3-4",
		Page:            "101-110",
		Edition:         "2nd",
		Publisher:       "Springer",
		PublisherPlace:  "Berlin",
		DOI:             "10.1000/XYZ_1",
		URL:             "https://example.org/~smith/paper_1.pdf",
		ISBN:            "978-3-16-148410-0",
		ISSN:            "1234-5678",
		Note:            "Also at “ACL”",
		Abstract:        "First.\n\nSecond.",
		Language:        "en",
	}
	if diff := cmp.Diff(want, it); diff != "" {
		t.Errorf("Item (-want +got):\n%s", diff)
	}
	if len(warnings) != 0 {
		t.Errorf("warnings: %q", warnings)
	}
}

func TestItemFieldRules(t *testing.T) {
	tests := []struct {
		name string
		bib  string
		get  func(csl.Item) any
		want any
	}{
		{"number is the issue of an article", `@article{k, journal={J}, number={7}}`, func(i csl.Item) any { return [2]string{string(i.Issue), string(i.Number)} }, [2]string{"7", ""}},
		{"issue when an article has no number", `@article{k, journal={J}, issue={Spring}}`, func(i csl.Item) any { return string(i.Issue) }, "Spring"},
		{"number stays a number elsewhere", `@techreport{k, number={TR-7}}`, func(i csl.Item) any { return [2]string{string(i.Issue), string(i.Number)} }, [2]string{"", "TR-7"}},
		{"journaltitle and journalsubtitle", `@article{k, journaltitle={Main}, journalsubtitle={Sub}}`, func(i csl.Item) any { return i.ContainerTitle }, "Main: Sub"},
		{"booktitle for a chapter", `@incollection{k, booktitle={Book}, booksubtitle={Sub}}`, func(i csl.Item) any { return i.ContainerTitle }, "Book: Sub"},
		{"no container for a book", `@book{k, booktitle={Book}}`, func(i csl.Item) any { return i.ContainerTitle }, ""},
		{"subtitle after a question mark", `@book{k, title={Why?}, subtitle={Because}}`, func(i csl.Item) any { return i.Title }, "Why? Because"},
		{"institution for a report", `@techreport{k, institution={MIT}, publisher={P}}`, func(i csl.Item) any { return i.Publisher }, "MIT"},
		{"school for a thesis", `@phdthesis{k, school={ETH}}`, func(i csl.Item) any { return i.Publisher }, "ETH"},
		{"organization when no publisher", `@inproceedings{k, organization={ACM}}`, func(i csl.Item) any { return i.Publisher }, "ACM"},
		{"location", `@book{k, location={Paris}}`, func(i csl.Item) any { return i.PublisherPlace }, "Paris"},
		{"pages with an en dash", `@article{k, journal={J}, pages={1–11}}`, func(i csl.Item) any { return string(i.Page) }, "1-11"},
		{"pages with ---", `@article{k, journal={J}, pages={e1---e9}}`, func(i csl.Item) any { return string(i.Page) }, "e1-e9"},
		{"doi: prefix", `@misc{k, doi={doi:10.1/a}}`, func(i csl.Item) any { return i.DOI }, "10.1/a"},
		{"dx.doi.org prefix", `@misc{k, doi={http://dx.doi.org/10.1/a}}`, func(i csl.Item) any { return i.DOI }, "10.1/a"},
		{"url in \\url", `@misc{k, url={\url{https://x.org/a%20b}}}`, func(i csl.Item) any { return i.URL }, "https://x.org/a%20b"},
		{"broken url line", "@misc{k, url={https://x.org/a\n  b}}", func(i csl.Item) any { return i.URL }, "https://x.org/ab"},
		{"howpublished url", `@misc{k, howpublished={\url{https://x.org/~me}}}`, func(i csl.Item) any { return i.URL }, "https://x.org/~me"},
		{"howpublished text", `@misc{k, howpublished={Blog post}}`, func(i csl.Item) any { return i.Publisher }, "Blog post"},
		{"howpublished does not replace url", `@misc{k, url={https://a.org}, howpublished={https://b.org}}`, func(i csl.Item) any { return i.URL }, "https://a.org"},
		{"langid ngerman", `@misc{k, langid={ngerman}}`, func(i csl.Item) any { return i.Language }, "de"},
		{"language code kept", `@misc{k, language={en-GB}}`, func(i csl.Item) any { return i.Language }, "en-GB"},
		{"language name kept", `@misc{k, language={Klingon}}`, func(i csl.Item) any { return i.Language }, "Klingon"},
		{"key kept as given", `@misc{Zotero:ABC/12.x_y-z+1, title={T}}`, func(i csl.Item) any { return i.ID }, "Zotero:ABC/12.x_y-z+1"},
		{"ties become spaces", `@misc{k, title={Fig.~3 of~it}}`, func(i csl.Item) any { return i.Title }, "Fig. 3 of it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			it, _ := one(t, tt.bib)
			if got := tt.get(it); got != tt.want {
				t.Errorf("%s: got %q, want %q", tt.bib, got, tt.want)
			}
		})
	}
}

func TestItemDates(t *testing.T) {
	tests := []struct {
		fields  string
		want    *csl.Date
		warning string
	}{
		{`year={2020}`, parts("2020"), ""},
		{`year=2020, month=jun`, parts("2020", "6"), ""},
		{`year=2020, month={June}`, parts("2020", "6"), ""},
		{`year=2020, month={Sept.}`, parts("2020", "9"), ""},
		{`year=2020, month={09}`, parts("2020", "9"), ""},
		{`year=2020, month={jun 12}`, parts("2020", "6", "12"), ""},
		{`year=2020, month={5}, day={17}`, parts("2020", "5", "17"), ""},
		{`year=2020, month={jan--feb}`, parts("2020", "1"), ""},
		{`year=2020, month={Spring}`, parts("2020"), `month "Spring" is not a month`},
		{`year={2020a}`, parts("2020"), `year "2020a" read as 2020`},
		{`year={in press}`, &csl.Date{Literal: "in press"}, `no four-digit year`},
		{`month=jun`, nil, `without a year`},
		{`date={2017}`, parts("2017"), ""},
		{`date={2017-06}`, parts("2017", "6"), ""},
		{`date={2017-06-12}`, parts("2017", "6", "12"), ""},
		{`date={2017-06-12/2017-06-15}`, parts("2017", "6", "12"), ""},
		{`date={2017/2018}`, parts("2017"), ""},
		{`date={/2018}`, parts("2018"), ""},
		{`date={2017-06-12T10:00:00}`, parts("2017", "6", "12"), ""},
		{`date={2004?}`, parts("2004"), ""},
		{`date={2004-22}`, parts("2004"), ""},
		{`date={2017-06-12}, year={2016}`, parts("2017", "6", "12"), `disagree`},
		{`date={June 2017}`, &csl.Date{Literal: "June 2017"}, `kept as a literal`},
	}
	for _, tt := range tests {
		it, warnings := one(t, "@misc{k, title={T}, "+tt.fields+"}")
		if diff := cmp.Diff(tt.want, it.Issued); diff != "" {
			t.Errorf("%s: issued (-want +got):\n%s", tt.fields, diff)
		}
		switch {
		case tt.warning == "" && len(warnings) > 0:
			t.Errorf("%s: unexpected warnings %q", tt.fields, warnings)
		case tt.warning != "" && (len(warnings) != 1 || !strings.Contains(warnings[0], tt.warning)):
			t.Errorf("%s: warnings %q, want one containing %q", tt.fields, warnings, tt.warning)
		}
	}
}

func parts(p ...csl.Number) *csl.Date { return &csl.Date{DateParts: [][]csl.Number{p}} }

func TestItemArxiv(t *testing.T) {
	type out struct{ Type, Container, Number, Publisher, Volume string }
	tests := []struct {
		name string
		bib  string
		want out
	}{
		{"biblatex eprinttype", `@article{k, eprint={1706.03762}, eprinttype={arxiv}}`, out{"article", "", "arXiv:1706.03762", "arXiv", ""}},
		{"bibtex archiveprefix on misc", `@misc{k, eprint={1706.03762v2}, archivePrefix={arXiv}, primaryClass={cs.CL}}`, out{"article", "", "arXiv:1706.03762v2", "arXiv", ""}},
		{"old-style id", `@misc{k, eprint={astro-ph/0601001}, archiveprefix={arXiv}}`, out{"article", "", "arXiv:astro-ph/0601001", "arXiv", ""}},
		{"eprint with arXiv: prefix", `@online{k, eprint={arXiv:2104.12255}, eprinttype={arXiv}}`, out{"article", "", "arXiv:2104.12255", "arXiv", ""}},
		{"bare eprint that is an arXiv id", `@misc{k, eprint={2104.12255}}`, out{"article", "", "arXiv:2104.12255", "arXiv", ""}},
		{"Google Scholar journal", `@article{k, journal={arXiv preprint arXiv:1810.04805}}`, out{"article", "", "arXiv:1810.04805", "arXiv", ""}},
		{"Google Scholar misc", `@misc{k, howpublished={arXiv preprint arXiv:2104.12255}}`, out{"article", "", "arXiv:2104.12255", "arXiv", ""}},
		{"DBLP CoRR", `@article{k, journal={CoRR}, volume={abs/2104.12255}, eprinttype={arXiv}, eprint={2104.12255}}`, out{"article", "", "arXiv:2104.12255", "arXiv", ""}},
		{"citation-js: arXiv DOI, no journal", `@article{k, doi={10.48550/arXiv.1706.03762}, publisher={arXiv}}`, out{"article", "", "arXiv:1706.03762", "arXiv", ""}},
		{"Zotero misc with arXiv DOI", `@misc{k, doi={10.48550/arXiv.1902.02534}, publisher={arXiv}}`, out{"article", "", "arXiv:1902.02534", "arXiv", ""}},
		{"arxiv.org URL, no journal", `@misc{k, url={https://arxiv.org/abs/2201.00738}}`, out{"article", "", "arXiv:2201.00738", "arXiv", ""}},
		{"published version keeps its journal", `@article{k, journal={Nature}, volume={5}, eprint={2201.00738}, archiveprefix={arXiv}}`, out{"article-journal", "Nature", "arXiv:2201.00738", "", "5"}},
		{"arxiv.org URL of a journal article is not used", `@article{k, journal={Nature}, url={https://arxiv.org/abs/2201.00738}}`, out{"article-journal", "Nature", "", "", ""}},
		{"pubmed eprint is not arXiv", `@article{k, journal={J}, eprint={12345678}, eprinttype={pubmed}}`, out{"article-journal", "J", "", "", ""}},
		{"a book is never a preprint", `@book{k, eprint={1706.03762}, eprinttype={arxiv}}`, out{"book", "", "arXiv:1706.03762", "", ""}},
		{"no arXiv, no journal", `@article{k, publisher={Cold Spring Harbor Laboratory}}`, out{"article", "", "", "Cold Spring Harbor Laboratory", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			it, _ := one(t, tt.bib)
			got := out{it.Type, it.ContainerTitle, string(it.Number), it.Publisher, string(it.Volume)}
			if got != tt.want {
				t.Errorf("%s:\ngot  %+v\nwant %+v", tt.bib, got, tt.want)
			}
		})
	}
	// The item's record carries the arXiv id (csl's convention).
	it, _ := one(t, `@misc{k, eprint={1706.03762v5}, archiveprefix={arXiv}}`)
	if rec := it.Record(); rec.ArxivID != "1706.03762" || rec.ArxivVersion != 5 {
		t.Errorf("Record: arXiv %q v%d, want 1706.03762 v5", rec.ArxivID, rec.ArxivVersion)
	}
}

func TestItemWarnings(t *testing.T) {
	_, warnings := one(t, "@article{k,\n journal = {J},\n title = {T \\foo{x} \\foo},\n year = 2001,\n year = 2002,\n author = {A and others}}")
	want := []string{
		`line 1: k: field "year" is given twice (lines 4 and 5); the first is used`,
		`line 1: k: author list ends with "and others"; the unnamed authors are left out`,
		`line 1: k: LaTeX commands kept as written: \foo`,
	}
	if diff := cmp.Diff(want, warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	_, warnings = one(t, "@article{k, journal = {J}}")
	if diff := cmp.Diff([]string{"line 1: k: no title"}, warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

func TestInherit(t *testing.T) {
	bib := `@inproceedings{child, title = {Paper}, author = {A, B}, crossref = {Proc}, pages = {1--2}, year = 2021}
@proceedings{proc, title = {Proceedings of X}, subtitle = {Sub}, editor = {E, F}, publisher = {P}, year = 2020, shorttitle = {PX}}
@inproceedings{orphan, title = {Lost}, crossref = {nowhere}}`
	items, warnings, err := Items([]byte(bib))
	if err != nil {
		t.Fatal(err)
	}
	c := items[0]
	if c.Title != "Paper" || c.ContainerTitle != "Proceedings of X: Sub" || c.Publisher != "P" ||
		len(c.Editor) != 1 || c.Editor[0].Family != "E" || c.Issued.Start().Year != 2021 {
		t.Errorf("child did not inherit as it should: %+v", c)
	}
	if items[1].ContainerTitle != "" || items[1].Title != "Proceedings of X: Sub" {
		t.Errorf("parent changed: %+v", items[1])
	}
	want := []string{`line 3: orphan: crossref "nowhere" names no entry in this file; nothing inherited`}
	if diff := cmp.Diff(want, warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}
