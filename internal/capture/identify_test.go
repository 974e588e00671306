package capture

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mozillazg/go-unidecode"

	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/fetch"
	"github.com/crossmem/crossmem/internal/identifier"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/metadata/metadatatest"
	"github.com/crossmem/crossmem/internal/metadata/reconcile"
	"github.com/crossmem/crossmem/internal/metadata/sources"
	"github.com/crossmem/crossmem/internal/pdf/pdftest"
)

// reference is bench/identify/reference.tsv: what each corpus PDF prints,
// read by hand.
type reference struct{ title, author, arxiv, doi, note string }

func readReference(t *testing.T) map[string]reference {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "bench", "identify", "reference.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]reference{}
	sc := bufio.NewScanner(f)
	header := true
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		c := strings.Split(sc.Text(), "\t")
		if header {
			header = false
			continue
		}
		r := reference{title: c[1], author: c[2], arxiv: c[3], doi: c[4]}
		if len(c) > 5 {
			r.note = c[5]
		}
		out[c[0]] = r
	}
	return out
}

// TestIdentifyCorpus reads every corpus PDF with Identify and checks it
// against the hand-made reference: every arXiv id and DOI a PDF prints is
// found; a PDF that prints no title of its own, or whose text layer
// cannot be read, is given none; and the titles and first authors found
// are the printed ones for nearly all (bench/identify has the figures).
func TestIdentifyCorpus(t *testing.T) {
	corpustest.Slow(t, "reads the first pages of every corpus PDF")
	ref := readReference(t)
	dir := corpustest.Dir(t, "pdf")
	files, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
	e := openEngine(t)
	titles, equal, authors, authorsEqual := 0, 0, 0, 0
	for _, f := range files {
		name := filepath.Base(f)
		want, ok := ref[name]
		if !ok {
			t.Errorf("%s is not in the reference", name)
			continue
		}
		data, _ := os.ReadFile(f)
		doc, err := e.OpenBytes(data)
		if err != nil {
			t.Fatal(err)
		}
		id := Identify(doc, data)
		doc.Close()
		got := id.Record
		if want.arxiv != "-" {
			aid, v, _ := identifier.ParseArxivID(want.arxiv)
			if got.ArxivID != aid || got.ArxivVersion != v {
				t.Errorf("%s: arXiv %s v%d, want %s", name, got.ArxivID, got.ArxivVersion, want.arxiv)
			}
		}
		if d := identifier.NormalizeDOI(want.doi); want.doi != "-" && identifier.NormalizeDOI(got.DOI) != d && identifier.NormalizeDOI(got.DOIPublished) != d {
			t.Errorf("%s: DOI %q (published %q), want %s", name, got.DOI, got.DOIPublished, want.doi)
		}
		if got.ArxivID != "" && got.DOIPublished == "" && got.DOI != "" {
			t.Errorf("%s: a preprint (arXiv %s) with DOI %q: a printed DOI of a preprint is its published version's", name, got.ArxivID, got.DOI)
		}
		unreadable := strings.Contains(want.note, "broken text layer") || strings.Contains(want.note, "image-only")
		if (want.title == "-" || unreadable) && got.Title != "" {
			t.Errorf("%s prints no title of its own (or cannot be read), but got %q", name, got.Title)
		}
		if want.title != "-" && !unreadable {
			titles++
			if reconcile.SameTitleWords(got.Title, want.title) {
				equal++
			} else {
				t.Logf("%s: title %q, printed %q", name, got.Title, want.title)
			}
		}
		if want.author != "-" && !unreadable {
			authors++
			if len(got.Authors) > 0 && strings.HasSuffix(" "+strings.ToLower(want.author), " "+strings.ToLower(got.Authors[0].FamilyOrLiteral())) {
				authorsEqual++
			} else {
				t.Logf("%s: first author %+v, printed %q", name, got.Authors, want.author)
			}
		}
	}
	t.Logf("titles %d/%d, first authors %d/%d", equal, titles, authorsEqual, authors)
	if equal*100 < 90*titles || authorsEqual*100 < 90*authors {
		t.Errorf("titles %d/%d, first authors %d/%d: want at least 90%% of each", equal, titles, authorsEqual, authors)
	}
}

// groundTruthWork is a work of ../shared/corpus/api/GROUNDTRUTH.json.
type groundTruthWork struct {
	ID  string `json:"id"`
	IDs struct {
		Arxiv        string `json:"arxiv"`
		PublishedDOI string `json:"published_doi"`
		PreprintDOI  string `json:"preprint_doi"`
	} `json:"ids"`
	CSL struct {
		Title  string `json:"title"`
		Author []struct {
			Family string `json:"family"`
			Given  string `json:"given"`
		} `json:"author"`
	} `json:"canonical_csl"`
}

func groundTruth(t *testing.T) []groundTruthWork {
	t.Helper()
	var doc struct {
		Papers []groundTruthWork `json:"papers"`
	}
	if err := json.Unmarshal(corpustest.File(t, "api", "GROUNDTRUTH.json"), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Papers
}

// frontPage prints a work's first page: its title and authors (ASCII),
// and its identifier as papers print it: the arXiv id as a labelled line,
// the DOI as "doi: …".
func frontPage(w groundTruthWork, printID string) []byte {
	title := unidecode.Unidecode(strings.Join(strings.Fields(w.CSL.Title), " "))
	var names []string
	for _, a := range w.CSL.Author {
		names = append(names, unidecode.Unidecode(strings.TrimSpace(a.Given+" "+a.Family)))
		if len(names) == 4 {
			break
		}
	}
	fp := pdftest.FrontPage{Body: pdftest.Prose(12)}
	for len(title) > 60 {
		i := strings.LastIndex(title[:60], " ")
		if i < 0 {
			break
		}
		fp.Title = append(fp.Title, title[:i])
		title = title[i+1:]
	}
	fp.Title = append(fp.Title, title)
	if len(names) > 0 {
		fp.Authors = []string{strings.Join(names, ", ")}
	}
	fp.Small = []string{"Department of Examples, University of Testing", printID}
	return fp.PDF()
}

// TestPrintedIdentifierResolvesAsTyped captures, with no flags, a first
// page printing the arXiv id or DOI of each GROUNDTRUTH.json work that the
// recordings know, and checks that it resolves exactly as the identifier
// typed: the same record (title, DOI, arXiv id, reconciled), with the
// PDF's agreeing fields added as sources and its disagreements as
// warnings.
func TestPrintedIdentifierResolvesAsTyped(t *testing.T) {
	corpustest.Slow(t, "captures a page for every ground-truth work")
	srv := metadatatest.NewServer(t)
	resolved := 0
	for _, w := range groundTruth(t) {
		var q reconcile.Query
		var printed string
		doi := ""
		if f := strings.Fields(w.IDs.PublishedDOI); len(f) > 0 {
			doi = f[0] // "10.18653/v1/N19-1423 (unverified here)"
		}
		switch {
		case doi != "":
			q, printed = reconcile.Query{DOI: doi}, "doi: "+doi
		case w.IDs.Arxiv != "":
			q, printed = reconcile.Query{ArxivID: w.IDs.Arxiv}, "arXiv:"+w.IDs.Arxiv
		case w.IDs.PreprintDOI != "":
			q, printed = reconcile.Query{DOI: w.IDs.PreprintDOI}, "doi: "+w.IDs.PreprintDOI
		default:
			continue
		}
		t.Run(w.ID, func(t *testing.T) {
			fo := metadatatest.FetchOptions()
			src := sources.New(replayConfig(srv.BaseURL, fetch.New(fo)))
			typed, err := reconcile.Resolve(t.Context(), q, src)
			if err != nil {
				t.Skipf("the recordings do not resolve %s as typed: %v", printed, err)
			}
			resolved++
			lib, _ := library.Open(t.TempDir())
			path := filepath.Join(t.TempDir(), "paper.pdf")
			os.WriteFile(path, frontPage(w, printed), 0o644)
			o := replayOptions(t, srv, "", false)
			res, err := Run(t.Context(), lib, path, o)
			if err != nil {
				t.Fatal(err)
			}
			if typed.Record.Title == "" {
				// No title anywhere: the PDF is kept under its file name's
				// key, identified all the same.
				if got := res.Paper; got.CiteKey != "paper" || got.Metadata.DOI != typed.Record.DOI || !slices.ContainsFunc(got.Metadata.Warnings, func(w string) bool { return strings.HasPrefix(w, "no title: ") }) {
					t.Errorf("a work without a title: key %q, DOI %q, warnings %q", got.CiteKey, got.Metadata.DOI, got.Metadata.Warnings)
				}
				return
			}
			got := res.Paper.Metadata
			if got.Title != typed.Record.Title || got.DOI != typed.Record.DOI || got.ArxivID != typed.Record.ArxivID || got.Reconciled != typed.Record.Reconciled {
				t.Errorf("captured %q %q %q reconciled %v; typed %q %q %q reconciled %v", got.Title, got.DOI, got.ArxivID, got.Reconciled,
					typed.Record.Title, typed.Record.DOI, typed.Record.ArxivID, typed.Record.Reconciled)
			}
			if res.Pending || res.Identified == "" || !strings.Contains(res.Identified, "printed on the first page") {
				t.Errorf("pending %v, identified by %q", res.Pending, res.Identified)
			}
			field := metadata.FieldDOI
			if q.ArxivID != "" {
				field = metadata.FieldArxivID
			}
			if !slices.Contains(got.FieldSources[field], metadata.SourcePDFText) {
				t.Errorf("%s sources %v lack %s", field, got.FieldSources[field], metadata.SourcePDFText)
			}
			// The printed title is the canonical one transliterated: where
			// it agrees, the PDF is a source; where not, a warning says so.
			agrees := slices.Contains(got.FieldSources[metadata.FieldTitle], metadata.SourcePDFText)
			warned := slices.ContainsFunc(got.Warnings, func(s string) bool { return strings.HasPrefix(s, "the PDF's title (") })
			if agrees == warned {
				t.Errorf("title from the PDF agrees %v, warned %v: want exactly one (%q)", agrees, warned, got.Warnings)
			}
		})
	}
	if resolved < 10 {
		t.Errorf("only %d ground-truth works resolve from the recordings", resolved)
	}
}

// TestHangingSourcesDeadline is issue 14's fault test: every metadata
// source accepts the connection and never answers. The capture of a PDF
// with no flags finishes within the deadline, with the PDF stored and the
// lookup pending; a refresh of the pending paper against the replayed
// sources then completes it, keeping the cite key.
func TestHangingSourcesDeadline(t *testing.T) {
	srv := metadatatest.NewServer(t)
	var bran groundTruthWork
	for _, w := range groundTruth(t) {
		if w.ID == "bran2024augmenting" {
			bran = w
		}
	}
	if bran.ID == "" {
		t.Fatal("bran2024augmenting is not in GROUNDTRUTH.json")
	}
	for _, s := range metadatatest.Sources() {
		srv.Fail(s, metadatatest.Hang)
	}
	lib, _ := library.Open(t.TempDir())
	path := filepath.Join(t.TempDir(), "bran.pdf")
	os.WriteFile(path, frontPage(bran, "doi: "+branDOI), 0o644)
	fo := fetch.Options{UserAgent: "crossmem-test"} // production timeouts (30 s per attempt) and retries
	hc := fetch.New(fo)
	const deadline = 2 * time.Second
	o := Options{Engine: openEngine(t), HTTP: hc, Sources: sources.New(replayConfig(srv.BaseURL, hc)), MetadataTimeout: deadline}
	start := time.Now()
	res, err := Run(t.Context(), lib, path, o)
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("capture with hanging sources finished in %v (deadline %v)", took, deadline)
	// Without the deadline the capture would wait for fetch's 30 s per
	// attempt; the margin is for pdfium under the race detector.
	if took > 20*time.Second {
		t.Errorf("capture took %v; the deadline is %v", took, deadline)
	}
	p := res.Paper
	if !res.Pending || !res.Unreachable || !p.LookupPending || p.CiteKey != "bran2023augmenting" && p.CiteKey != "bran2024augmenting" && !strings.HasPrefix(p.CiteKey, "bran") {
		t.Errorf("pending %v unreachable %v lookup_pending %v key %q", res.Pending, res.Unreachable, p.LookupPending, p.CiteKey)
	}
	if _, err := os.Stat(p.PDFPath); err != nil {
		t.Errorf("PDF not stored: %v", err)
	}

	for _, s := range metadatatest.Sources() {
		srv.Fail(s, metadatatest.NoFault)
	}
	ro := replayOptions(t, srv, "", true)
	rr, err := Refresh(t.Context(), lib, p.CiteKey, ro)
	if err != nil {
		t.Fatal(err)
	}
	after := rr.Paper
	if after.CiteKey != p.CiteKey || after.LookupPending || after.Metadata.DOI != branDOI || !slices.Contains(after.Metadata.Sources, metadata.SourceCrossref) {
		t.Errorf("after refresh: key %q pending %v DOI %q sources %v", after.CiteKey, after.LookupPending, after.Metadata.DOI, after.Metadata.Sources)
	}
	if !slices.Contains(after.Metadata.FieldSources[metadata.FieldDOI], metadata.SourcePDFText) {
		t.Errorf("the printed DOI is not a source of the refreshed record: %v", after.Metadata.FieldSources)
	}
}

// TestRecaptureWithOtherKey captures a PDF, then the same PDF with another
// --cite-key: nothing is written and the result says the key asked for was
// not applied.
func TestRecaptureWithOtherKey(t *testing.T) {
	env := newEnv(t)
	path := copyPDF(t, "gr_sample1.pdf")
	first, err := Run(t.Context(), env.lib, path, env.opts)
	if err != nil {
		t.Fatal(err)
	}
	o := env.opts
	o.CiteKey = "dutot2004scheduling"
	again, err := Run(t.Context(), env.lib, path, o)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Existing || again.Paper.CiteKey != first.Paper.CiteKey || again.KeyIgnored != "dutot2004scheduling" {
		t.Errorf("existing %v key %q ignored %q", again.Existing, again.Paper.CiteKey, again.KeyIgnored)
	}
	o.CiteKey = first.Paper.CiteKey
	if same, _ := Run(t.Context(), env.lib, path, o); same == nil || same.KeyIgnored != "" {
		t.Errorf("the same key reported as ignored: %+v", same)
	}
}

// TestHTTPPDFURL captures a PDF from a plain http:// URL: accepted, and
// the result says the download was not protected.
func TestHTTPPDFURL(t *testing.T) {
	env := newEnv(t)
	u := env.srv.Serve("/files/sample.pdf", 200, "application/pdf", corpustest.PDF(t, "gr_sample1.pdf"))
	if !strings.HasPrefix(u, "http://") {
		t.Fatalf("server URL %s", u)
	}
	res, err := Run(t.Context(), env.lib, u, env.opts)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Insecure || res.Paper.Metadata.Title != "Bi-criteria Algorithm for Scheduling Jobs on Cluster Platforms" {
		t.Errorf("insecure %v title %q", res.Insecure, res.Paper.Metadata.Title)
	}
}
