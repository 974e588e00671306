package capture

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/csl"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/metadata"
)

func importEntries(t *testing.T, data string) []ImportEntry {
	t.Helper()
	items, lines, err := csl.DecodeLines([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]ImportEntry, len(items))
	for i := range items {
		out[i] = ImportEntry{Item: items[i], Line: lines[i]}
	}
	return out
}

func importOpts() ImportOptions {
	return ImportOptions{File: "refs.json", Now: func() time.Time { return time.Unix(1776000000, 0) }}
}

func openLibrary(t *testing.T) *library.Library {
	t.Helper()
	lib, err := library.Open(filepath.Join(t.TempDir(), "home"))
	if err != nil {
		t.Fatal(err)
	}
	return lib
}

func TestImportGroundTruth(t *testing.T) {
	data := corpustest.File(t, "api", "GROUNDTRUTH.csl.json")
	items, lines, err := csl.DecodeLines(data)
	if err != nil {
		t.Fatal(err)
	}
	var entries []ImportEntry
	for i := range items {
		entries = append(entries, ImportEntry{Item: items[i], Line: lines[i]})
	}
	lib := openLibrary(t)
	out, err := Import(t.Context(), lib, entries, importOpts())
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(items) {
		t.Fatalf("%d outcomes for %d items", len(out), len(items))
	}
	for i, oc := range out {
		if oc.Status != ImportAdded || oc.CiteKey != items[i].ID {
			t.Errorf("item %s: %+v, want added under its own key", items[i].ID, oc)
		}
	}
	papers, errs := lib.Papers()
	if len(errs) > 0 || len(papers) != len(items) {
		t.Fatalf("%d papers, errors %v", len(papers), errs)
	}
	for _, p := range papers {
		if p.HasPDF() || p.Source.Kind != "import" || p.Imported == nil {
			t.Errorf("%s: has PDF %v, source %+v, imported %v", p.CiteKey, p.HasPDF(), p.Source, p.Imported != nil)
		}
		if p.Title != "" && !slices.Equal(p.Metadata.FieldSources[metadata.FieldTitle], []string{metadata.SourceImport}) {
			t.Errorf("%s: title sources %v", p.CiteKey, p.Metadata.FieldSources[metadata.FieldTitle])
		}
	}
	v, err := lib.Find("vaswani2017attention")
	if err != nil {
		t.Fatal(err)
	}
	if v.Metadata.ArxivID != "1706.03762" || v.Year != 2017 || len(v.Authors) != 8 {
		t.Errorf("vaswani entry: %+v", v.Sidecar)
	}

	// Importing again changes nothing.
	before := dirNames(t, lib.RawDir())
	out, err = Import(t.Context(), lib, entries, importOpts())
	if err != nil {
		t.Fatal(err)
	}
	for _, oc := range out {
		if oc.Status != ImportExists {
			t.Errorf("re-import: %+v", oc)
		}
	}
	if after := dirNames(t, lib.RawDir()); !slices.Equal(before, after) {
		t.Errorf("re-import wrote files: %v → %v", before, after)
	}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

const twoWorks = `[
  {"id": "turing1950", "type": "article-journal", "title": "Computing Machinery and Intelligence",
   "author": [{"family": "Turing", "given": "A. M."}], "issued": {"date-parts": [[1950]]},
   "DOI": "10.1093/mind/LIX.236.433"},
  {"type": "book", "title": "The Art of Computer Programming", "author": [{"family": "Knuth", "given": "Donald E."}],
   "issued": {"date-parts": [[1968]]}, "publisher": "Addison-Wesley"}
]`

func TestImportKeysAndAliases(t *testing.T) {
	lib := openLibrary(t)
	out, err := Import(t.Context(), lib, importEntries(t, twoWorks), importOpts())
	if err != nil {
		t.Fatal(err)
	}
	if out[0].CiteKey != "turing1950" || out[1].Status != ImportAdded || out[1].CiteKey != "knuth1968art" || !strings.Contains(out[1].Note, "no key") {
		t.Errorf("outcomes %+v", out)
	}
	// The same work under another key becomes an alias of the paper.
	again := strings.Replace(twoWorks, `"turing1950"`, `"Turing:Mind:1950"`, 1)
	out, err = Import(t.Context(), lib, importEntries(t, again), importOpts())
	if err != nil {
		t.Fatal(err)
	}
	if out[0].Status != ImportAlias || out[0].CiteKey != "turing1950" || out[0].FileKey != "Turing:Mind:1950" {
		t.Errorf("alias outcome %+v", out[0])
	}
	if out[1].Status != ImportExists || out[1].CiteKey != "knuth1968art" {
		t.Errorf("keyless re-import %+v", out[1])
	}
	p, err := lib.Find("Turing:Mind:1950")
	if err != nil || p.CiteKey != "turing1950" {
		t.Fatalf("alias lookup: %v %v", p, err)
	}
}

func TestImportIsAllOrNothing(t *testing.T) {
	lib := openLibrary(t)
	if _, err := Import(t.Context(), lib, importEntries(t, twoWorks), importOpts()); err != nil {
		t.Fatal(err)
	}
	before := dirNames(t, lib.RawDir())
	bad := `[
  {"id": "fresh2020", "type": "article-journal", "title": "A New Paper", "issued": {"date-parts": [[2020]]}},
  {"id": "TURING1950", "type": "book", "title": "A Different Work", "issued": {"date-parts": [[1999]]}},
  {"id": "dup", "title": "One"},
  {"id": "dup", "title": "Two"},
  {"id": "empty"}
]`
	_, err := Import(t.Context(), lib, importEntries(t, bad), importOpts())
	if err == nil {
		t.Fatal("import with problems succeeded")
	}
	for _, want := range []string{
		`line 3: cite key "TURING1950" is already used in the library by a different work`,
		`line 5: cite key "dup" is used twice in the file (first on line 4)`,
		`line 6: entry "empty" has no title, author or container title`,
		"nothing imported",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if after := dirNames(t, lib.RawDir()); !slices.Equal(before, after) {
		t.Errorf("a failed import wrote files: %v → %v", before, after)
	}
	// A dry run reports and writes nothing.
	o := importOpts()
	o.DryRun = true
	out, err := Import(t.Context(), lib, importEntries(t, `[{"id":"fresh2020","title":"A New Paper"}]`), o)
	if err != nil || len(out) != 1 || out[0].Status != ImportAdded {
		t.Fatalf("dry run: %+v %v", out, err)
	}
	if after := dirNames(t, lib.RawDir()); !slices.Equal(before, after) {
		t.Errorf("a dry run wrote files")
	}
}

// An imported entry gets its PDF from a later capture --cite-key, which
// finds the DOI in the entry, keeps the pinned key and reports where the
// sources disagree with the imported record.
func TestCaptureAttachesToImportedEntry(t *testing.T) {
	env := newEnv(t)
	const doi = "10.1016/j.tcs.2015.06.001"
	env.srv.work(doi, response{body: corpustest.File(t, "api", "crossref/10.1016_j.tcs.2015.06.001.json")})
	entry := `[{"id": "Dennunzio:RS", "type": "article-journal", "title": "Reaction systems and extremal combinatorics properties",
	  "author": [{"family": "Dennunzio", "given": "Alberto"}], "issued": {"date-parts": [[2014]]}, "DOI": "` + doi + `"}]`
	if _, err := Import(t.Context(), env.lib, importEntries(t, entry), importOpts()); err != nil {
		t.Fatal(err)
	}
	path := copyPDF(t, "gr_dehypenisation1.pdf")
	orig, _ := os.ReadFile(path)
	o := env.opts
	o.CiteKey = "Dennunzio:RS"
	res, err := Run(t.Context(), env.lib, path, o)
	if err != nil {
		t.Fatal(err)
	}
	p := res.Paper
	if res.Existing || p.CiteKey != "Dennunzio:RS" || !p.HasPDF() {
		t.Fatalf("attach: existing %v key %q has PDF %v", res.Existing, p.CiteKey, p.HasPDF())
	}
	if got := dirNames(t, env.lib.RawDir()); !slices.Equal(got, []string{"1776000000_Dennunzio:RS.meta.json", "1776000000_Dennunzio:RS.pdf"}) {
		t.Errorf("raw/ = %v", got)
	}
	saved, _ := os.ReadFile(p.PDFPath)
	if !bytes.Equal(saved, orig) {
		t.Error("attached PDF is not a byte-identical copy")
	}
	sc := readSidecar(t, p.SidecarPath)
	if sc.PDFSHA256 != sha(orig) || sc.Imported == nil || sc.Imported.Year() != 2014 {
		t.Errorf("sidecar: sha %q imported %+v", sc.PDFSHA256, sc.Imported)
	}
	if !slices.Contains(sc.Sources, metadata.SourceCrossref) || sc.Year != 2015 {
		t.Errorf("metadata not from the sources: %v year %d", sc.Sources, sc.Year)
	}
	if !slices.ContainsFunc(sc.Warnings, func(w string) bool {
		return strings.Contains(w, "imported entry's year 2014 differs from the sources' 2015")
	}) {
		t.Errorf("no warning about the imported year: %v", sc.Warnings)
	}
	if !strings.Contains(env.logs.String(), "using the DOI of the imported entry") {
		t.Errorf("log:\n%s", env.logs)
	}
	// Capturing the same PDF again is idempotent.
	res, err = Run(t.Context(), env.lib, path, o)
	if err != nil || !res.Existing {
		t.Errorf("re-capture: %v existing %v", err, res != nil && res.Existing)
	}
}

// Without --cite-key, a capture of a work the library has as a
// metadata-only entry attaches to it instead of making a second entry.
func TestCaptureAttachesToSameWork(t *testing.T) {
	env := newEnv(t)
	const doi = "10.1016/j.tcs.2015.06.001"
	env.srv.work(doi, response{body: corpustest.File(t, "api", "crossref/10.1016_j.tcs.2015.06.001.json")})
	entry := `[{"id": "rs2015", "title": "Reaction systems and extremal combinatorics properties", "DOI": "` + strings.ToUpper(doi) + `"}]`
	if _, err := Import(t.Context(), env.lib, importEntries(t, entry), importOpts()); err != nil {
		t.Fatal(err)
	}
	o := env.opts
	o.DOI = doi
	res, err := Run(t.Context(), env.lib, copyPDF(t, "gr_dehypenisation1.pdf"), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Paper.CiteKey != "rs2015" || !res.Paper.HasPDF() {
		t.Errorf("captured as %q (has PDF %v), want attached to rs2015", res.Paper.CiteKey, res.Paper.HasPDF())
	}
	papers, _ := env.lib.Papers()
	if len(papers) != 1 {
		t.Errorf("%d papers, want 1", len(papers))
	}
}

func TestParseImportBibTeX(t *testing.T) {
	bib := `% exported from DBLP
@inproceedings{DBLP:conf/sigmod/PandeyCDBFJ21,
  author    = {Prashant Pandey and Alex Conway and others},
  title     = {Vector Quotient Filters},
  booktitle = {{SIGMOD} '21},
  year      = {2021},
  doi       = {10.1145/3448016.3452841}
}

@article{mueller2020,
  author = {M{\"u}ller, J{\"o}rg and de la Cruz, Ana},
  title = {On {B}ayesian Things},
  journal = {J. Stat.},
  year = 2020, month = mar
}
`
	entries, format, err := ParseImport("refs.bib", []byte(bib))
	if err != nil || format != FormatBibTeX || len(entries) != 2 {
		t.Fatalf("ParseImport: %v, %s, %d entries", err, format, len(entries))
	}
	if entries[0].Line != 2 || entries[1].Line != 10 {
		t.Errorf("lines %d, %d; want 2, 10", entries[0].Line, entries[1].Line)
	}
	if len(entries[0].Warnings) == 0 || !strings.Contains(strings.Join(entries[0].Warnings, " "), "others") {
		t.Errorf("no warning about \"and others\": %v", entries[0].Warnings)
	}
	lib := openLibrary(t)
	out, err := Import(t.Context(), lib, entries, importOpts())
	if err != nil {
		t.Fatal(err)
	}
	if out[0].CiteKey != "pandey2021vector" || !strings.Contains(out[0].Note, "kept as an alias") || len(out[0].Warnings) == 0 {
		t.Errorf("DBLP entry: %+v", out[0])
	}
	if out[1].CiteKey != "mueller2020" || out[1].Status != ImportAdded {
		t.Errorf("second entry: %+v", out[1])
	}
	p, err := lib.Find("DBLP:conf/sigmod/PandeyCDBFJ21")
	if err != nil || p.CiteKey != "pandey2021vector" {
		t.Fatalf("DBLP key does not resolve: %v %v", p, err)
	}
	if !slices.ContainsFunc(p.Warnings, func(w string) bool { return strings.HasPrefix(w, "import: ") }) {
		t.Errorf("reader warnings not kept in the record: %v", p.Warnings)
	}
	m := out[1]
	q, err := lib.Find(m.CiteKey)
	if err != nil {
		t.Fatal(err)
	}
	if a := q.Metadata.Authors; len(a) != 2 || a[0].Family != "Müller" || a[1].Family != "de la Cruz" || q.Metadata.Issued.Month != 3 {
		t.Errorf("decoded record: %+v %+v", a, q.Metadata.Issued)
	}

	// Malformed BibTeX: the line and the reason, nothing imported.
	_, _, err = ParseImport("bad.bib", []byte("@article{a,\n  title = {T},\n  year = {2020\n}\n\n@misc{b, title = {U}}\n"))
	if err == nil || !strings.Contains(err.Error(), "bad.bib: ") || !strings.Contains(err.Error(), "line 1: entry \"a\" is not closed") {
		t.Errorf("malformed BibTeX: %v", err)
	}
}

// TestImportDistinctWorks: works whose titles differ in one character (a
// number) are distinct, whatever their similarity; the same title with
// other punctuation and case is the same work. Keys that start with "-"
// are replaced and never kept, even as aliases.
func TestImportDistinctWorks(t *testing.T) {
	lib := openLibrary(t)
	series := `[{"id":"smith2020series0","title":"A study of things, number 0 of many","author":[{"family":"Smith","given":"A"}],"issued":{"date-parts":[[2020]]}},
{"id":"smith2020series1","title":"A study of things, number 1 of many","author":[{"family":"Smith","given":"A"}],"issued":{"date-parts":[[2020]]}},
{"id":"--help","title":"Options are not keys","author":[{"family":"Doe","given":"J"}],"issued":{"date-parts":[[2021]]}}]`
	out, err := Import(t.Context(), lib, importEntries(t, series), importOpts())
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 3 || out[0].Status != ImportAdded || out[1].Status != ImportAdded || out[2].Status != ImportAdded {
		t.Fatalf("outcomes: %+v", out)
	}
	if strings.HasPrefix(out[2].CiteKey, "-") || out[2].FileKey != "--help" {
		t.Errorf("--help: %+v", out[2])
	}
	papers, _ := lib.Papers()
	for _, p := range papers {
		for _, a := range p.Aliases {
			if strings.HasPrefix(a, "-") {
				t.Errorf("alias %q kept", a)
			}
		}
	}
	again := `[{"title":"A STUDY OF THINGS: NUMBER 1 OF MANY.","author":[{"family":"Smith","given":"A."}],"issued":{"date-parts":[[2020]]}}]`
	out, err = Import(t.Context(), lib, importEntries(t, again), importOpts())
	if err != nil || len(out) != 1 || out[0].Status != ImportExists || out[0].CiteKey != "smith2020series1" {
		t.Errorf("same title, other case and punctuation: %+v %v", out, err)
	}
}
