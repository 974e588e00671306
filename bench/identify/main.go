// Command identify measures how crossmem identifies PDFs from what they
// say about themselves (issue 14): it captures every PDF of a folder with
// no flags into a fresh library while the metadata sources cannot be
// reached (their URLs point at a closed local port, as offline), exactly as
// "crossmem capture <folder>" does, and compares what each capture stored
// with an independent reference:
//
//   - ../shared/corpus/api/GROUNDTRUTH.json for works it holds (matched by
//     arXiv id or DOI, or by title);
//   - otherwise bench/identify/reference.tsv: what each corpus PDF prints
//     (its title and first author as printed, its own arXiv id and DOI),
//     read by hand from the PDFs, not from crossmem's output.
//
// It prints one line per PDF: captured or refused (and why), the cite key,
// whether the title and the first author's family name equal the
// reference, which printed identifiers were found, and the time taken;
// then the totals: PDFs captured, printed identifiers found, titles and
// first authors equal (over the PDFs that print them), and what became of
// the PDFs whose text cannot identify them (image-only, broken fonts, no
// title printed): refused, or captured with no title under a key made from
// the file name and a warning saying why — never with a title that is not
// theirs.
//
// Titles compare after folding case, diacritics, punctuation and white
// space; family names the same way, a compound family name matching its
// last word ("Rodriguez Montoya" = "Montoya").
//
// With -online the sources are not offline but the recorded responses of
// ../shared/corpus/api (internal/metadata/metadatatest), and the table
// says for each PDF how it was looked up and what it resolved to.
//
// Usage, from the repository root:
//
//	go run ./bench/identify                 # the table and the totals
//	go run ./bench/identify -online         # the same against the recorded responses
//	go run ./bench/identify -corpus DIR -reference FILE
//
// It exits 1 when a PDF cannot be read or the reference lacks a PDF of the
// folder.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/crossmem/crossmem/bench/internal/corpus"
	"github.com/crossmem/crossmem/bench/internal/fold"
	"github.com/crossmem/crossmem/internal/capture"
	"github.com/crossmem/crossmem/internal/fetch"
	"github.com/crossmem/crossmem/internal/identifier"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/metadata/metadatatest"
	"github.com/crossmem/crossmem/internal/metadata/sources"
	"github.com/crossmem/crossmem/internal/pdf"
	"github.com/crossmem/crossmem/internal/render"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// expected is what a PDF prints, by the reference.
type expected struct {
	title, author, arxiv, doi, note string
	fromGroundTruth                 bool
}

func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("identify", flag.ContinueOnError)
	fl.SetOutput(stderr)
	corpusFlag := fl.String("corpus", "", "folder of PDFs (default ../shared/corpus/pdf)")
	refFlag := fl.String("reference", filepath.Join("bench", "identify", "reference.tsv"), "what each PDF prints (tab-separated)")
	gtFlag := fl.String("groundtruth", "", "GROUNDTRUTH.json (default ../shared/corpus/api/GROUNDTRUTH.json)")
	online := fl.Bool("online", false, "replay the recorded responses of ../shared/corpus/api instead of being offline")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	dir, err := corpus.Dir(*corpusFlag)
	if err != nil {
		fmt.Fprintln(stderr, "identify:", err)
		return 1
	}
	files, err := corpus.PDFs(dir)
	if err != nil {
		fmt.Fprintln(stderr, "identify:", err)
		return 1
	}
	ref, err := readReference(*refFlag)
	if err != nil {
		fmt.Fprintln(stderr, "identify:", err)
		return 1
	}
	gtPath := *gtFlag
	if gtPath == "" {
		gtPath = filepath.Join(dir, "..", "api", "GROUNDTRUTH.json")
	}
	gt, err := readGroundTruth(gtPath)
	if err != nil {
		fmt.Fprintln(stderr, "identify:", err)
		return 1
	}

	ctx := context.Background()
	engine, err := pdf.Open(ctx, pdf.Options{CacheDir: corpus.WazeroCache()})
	if err != nil {
		fmt.Fprintln(stderr, "identify:", err)
		return 1
	}
	defer engine.Close()
	home, err := os.MkdirTemp("", "crossmem-identify-")
	if err != nil {
		fmt.Fprintln(stderr, "identify:", err)
		return 1
	}
	defer os.RemoveAll(home)
	lib, err := library.Open(home)
	if err != nil {
		fmt.Fprintln(stderr, "identify:", err)
		return 1
	}
	// Offline: every source at a local port nothing listens on.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(stderr, "identify:", err)
		return 1
	}
	dead := "http://" + ln.Addr().String()
	ln.Close()
	hc := fetch.New(fetch.Options{UserAgent: "crossmem-bench", RetryMax: -1})
	sc := sources.Config{HTTP: hc, ArxivAPI: dead + "/api/query", ArxivPDF: dead + "/pdf", CrossrefAPI: dead,
		OpenAlexAPI: dead, DataCiteAPI: dead, UnpaywallAPI: dead}
	if *online {
		srv, err := metadatatest.Start(filepath.Join(dir, "..", "api"))
		if err != nil {
			fmt.Fprintln(stderr, "identify:", err)
			return 1
		}
		defer srv.Stop()
		hc = fetch.New(metadatatest.FetchOptions())
		sc = sources.Config{HTTP: hc, ArxivAPI: srv.BaseURL(metadata.SourceArxiv), CrossrefAPI: srv.BaseURL(metadata.SourceCrossref),
			OpenAlexAPI: srv.BaseURL(metadata.SourceOpenAlex), DataCiteAPI: srv.BaseURL(metadata.SourceDataCite),
			UnpaywallAPI: srv.BaseURL(metadata.SourceUnpaywall), UnpaywallEmail: "bench@example.org"}
	}

	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	header := "file\toutcome\tcite key\ttitle\tfirst author\tids printed→found\tseconds\tnote"
	if *online {
		header += "\tlooked up by\tresolved to"
	}
	fmt.Fprintln(tw, header)
	var t totals
	for _, f := range files {
		name := filepath.Base(f)
		want, ok := ref[name]
		if !ok {
			fmt.Fprintf(stderr, "identify: %s is not in %s\n", name, *refFlag)
			return 1
		}
		if g, ok := gt.match(want); ok {
			want.title, want.author, want.fromGroundTruth = g.title, g.author, true
		}
		start := time.Now()
		res, err := capture.Run(ctx, lib, f, capture.Options{Engine: engine, Sources: sources.New(sc), HTTP: hc, MetadataTimeout: 5 * time.Second})
		secs := time.Since(start).Seconds()
		t.files++
		row := []string{name}
		var rec, own *metadata.Record
		if err != nil {
			msg, _ := render.Error(err)
			row = append(row, "refused", "-")
			t.refusedWhy = append(t.refusedWhy, name+": "+msg)
		} else {
			t.captured++
			rec, own = &res.Paper.Metadata, res.Paper.PDFMetadata
			row = append(row, "captured", res.Paper.CiteKey)
		}
		row = append(row, t.title(want, rec), t.author(want, rec), t.ids(want, own), fmt.Sprintf("%.1f", secs), note(want, err, rec))
		if *online {
			row = append(row, lookedUp(res), resolvedTo(res, gt))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	tw.Flush()
	t.print(stdout)
	return 0
}

// totals counts the comparisons.
type totals struct {
	files, captured                 int
	titles, titlesEqual             int // PDFs with a known title; equal
	titlesCaptured, titlesCapEqual  int // of those, captured; equal
	authors, authorsEqual           int
	authorsCaptured, authorsCapEq   int
	idsPrinted, idsFound            int
	untitled, untitledWithTitle     int // PDFs that print no title of their own (or cannot be read)
	untitledWarned, untitledRefused int // of those, captured with no title and a warning saying why; refused
	refusedWhy                      []string
	wrongTitles, missedIDs          []string
	unreadable, unreadableOK        int
}

func (t *totals) title(want expected, rec *metadata.Record) string {
	if want.title == "-" || isUnreadable(want) {
		t.untitled++
		warned := rec != nil && rec.Title == "" && slices.ContainsFunc(rec.Warnings, func(w string) bool { return strings.HasPrefix(w, "no title: ") })
		switch {
		case rec == nil:
			t.untitledRefused++
		case warned:
			t.untitledWarned++
		}
		if isUnreadable(want) {
			t.unreadable++
			if rec == nil || warned || fold.String(rec.Title) == fold.String(want.title) {
				t.unreadableOK++
			}
		}
		if rec != nil && rec.Title != "" && fold.String(rec.Title) != fold.String(want.title) {
			t.untitledWithTitle++
			t.wrongTitles = append(t.wrongTitles, fmt.Sprintf("%q where none is printed", rec.Title))
			return "≠ (none printed)"
		}
		return "-"
	}
	t.titles++
	if rec == nil {
		return "missed"
	}
	t.titlesCaptured++
	if fold.String(rec.Title) == fold.String(want.title) {
		t.titlesEqual++
		t.titlesCapEqual++
		return "="
	}
	t.wrongTitles = append(t.wrongTitles, fmt.Sprintf("%q, not %q", rec.Title, want.title))
	return "≠"
}

func (t *totals) author(want expected, rec *metadata.Record) string {
	if want.author == "-" || isUnreadable(want) {
		return "-"
	}
	t.authors++
	if rec == nil {
		return "missed"
	}
	t.authorsCaptured++
	if len(rec.Authors) > 0 && fold.SameFamily(rec.Authors[0].FamilyOrLiteral(), want.author) {
		t.authorsEqual++
		t.authorsCapEq++
		return "="
	}
	got := "none"
	if len(rec.Authors) > 0 {
		got = rec.Authors[0].FamilyOrLiteral()
	}
	return "≠ " + got
}

func (t *totals) ids(want expected, own *metadata.Record) string {
	var printed, found []string
	check := func(kind, v string, ok bool) {
		if v == "-" || v == "" {
			return
		}
		t.idsPrinted++
		printed = append(printed, kind)
		if ok {
			t.idsFound++
			found = append(found, kind)
		} else {
			t.missedIDs = append(t.missedIDs, kind+" "+v)
		}
	}
	if want.arxiv != "-" {
		id, v, _ := identifier.ParseArxivID(want.arxiv)
		check("arXiv", want.arxiv, own != nil && own.ArxivID == id && (v == 0 || own.ArxivVersion == v))
	}
	if want.doi != "-" {
		d := identifier.NormalizeDOI(want.doi)
		check("DOI", want.doi, own != nil && (identifier.NormalizeDOI(own.DOI) == d || identifier.NormalizeDOI(own.DOIPublished) == d))
	}
	if len(printed) == 0 {
		return "-"
	}
	f := strings.Join(found, "+")
	if f == "" {
		f = "none"
	}
	return strings.Join(printed, "+") + "→" + f
}

// lookedUp says how a capture looked its paper up.
func lookedUp(res *capture.Result) string {
	switch {
	case res == nil:
		return "-"
	case res.Identified != "":
		return res.Identified
	case len(res.Consulted) > 0:
		return res.Consulted[0].Query + " (not found)"
	}
	return "-"
}

// resolvedTo says what the sources resolved a capture to: a ground-truth
// work, another recorded work (its title and sources), or nothing.
func resolvedTo(res *capture.Result, gt groundTruth) string {
	if res == nil || res.Identified == "" {
		return "nothing recorded"
	}
	m := res.Paper.Metadata
	for _, w := range gt {
		if fold.String(w.title) == fold.String(m.Title) {
			return fmt.Sprintf("GROUNDTRUTH %q (reconciled %v)", w.title, m.Reconciled)
		}
	}
	return fmt.Sprintf("%q (%s; reconciled %v)", m.Title, strings.Join(m.Sources, ", "), m.Reconciled)
}

func note(want expected, err error, rec *metadata.Record) string {
	var parts []string
	if want.fromGroundTruth {
		parts = append(parts, "GROUNDTRUTH.json")
	}
	if err != nil {
		msg, _ := render.Error(err)
		if i := strings.Index(msg, ": "); i >= 0 {
			msg = msg[i+2:]
		}
		if len(msg) > 70 {
			msg = msg[:70] + "…"
		}
		parts = append(parts, msg)
	} else if rec != nil && len(rec.Warnings) > 0 {
		parts = append(parts, render.Count(len(rec.Warnings), "warning"))
	}
	return strings.Join(parts, "; ")
}

func (t *totals) print(w io.Writer) {
	pct := func(a, b int) string {
		if b == 0 {
			return "-"
		}
		return fmt.Sprintf("%.0f%%", 100*float64(a)/float64(b))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "captured with no flags:              %d of %d PDFs\n", t.captured, t.files)
	fmt.Fprintf(w, "printed identifiers found:           %d of %d\n", t.idsFound, t.idsPrinted)
	fmt.Fprintf(w, "titles equal, PDFs with a title:     %d of %d (%s); of those captured %d of %d (%s)\n",
		t.titlesEqual, t.titles, pct(t.titlesEqual, t.titles), t.titlesCapEqual, t.titlesCaptured, pct(t.titlesCapEqual, t.titlesCaptured))
	fmt.Fprintf(w, "first authors equal, PDFs with one:  %d of %d (%s); of those captured %d of %d (%s)\n",
		t.authorsEqual, t.authors, pct(t.authorsEqual, t.authors), t.authorsCapEq, t.authorsCaptured, pct(t.authorsCapEq, t.authorsCaptured))
	fmt.Fprintf(w, "image-only or broken text layer:     %d of %d refused, or captured with no title and a warning saying why\n", t.unreadableOK, t.unreadable)
	fmt.Fprintf(w, "no title of their own, given a title: %d of %d (%d captured with no title and a warning saying why, %d refused)\n", t.untitledWithTitle, t.untitled, t.untitledWarned, t.untitledRefused)
	for _, s := range t.wrongTitles {
		fmt.Fprintln(w, "  title:", s)
	}
	for _, s := range t.missedIDs {
		fmt.Fprintln(w, "  identifier not found:", s)
	}
}

func isUnreadable(want expected) bool {
	n := strings.ToLower(want.note)
	return strings.Contains(n, "broken text layer") || strings.Contains(n, "image-only")
}

func readReference(path string) (map[string]expected, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]expected{}
	sc := bufio.NewScanner(f)
	header := true
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		cols := strings.Split(line, "\t")
		if header {
			header = false
			continue
		}
		if len(cols) < 5 {
			return nil, fmt.Errorf("%s:%d: want file, title, first_author, arxiv, doi[, note]", path, n)
		}
		e := expected{title: cols[1], author: cols[2], arxiv: cols[3], doi: cols[4]}
		if len(cols) > 5 {
			e.note = cols[5]
		}
		out[cols[0]] = e
	}
	return out, sc.Err()
}

// groundTruth holds GROUNDTRUTH.json's works: canonical title and first
// author, arXiv id and DOIs.
type groundTruth []gtWork

type gtWork struct {
	title, author string
	arxiv         string
	dois          []string
}

func readGroundTruth(path string) (groundTruth, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Papers []struct {
			IDs struct {
				Arxiv        string `json:"arxiv"`
				PreprintDOI  string `json:"preprint_doi"`
				PublishedDOI string `json:"published_doi"`
			} `json:"ids"`
			CSL struct {
				Title  string `json:"title"`
				Author []struct {
					Family  string `json:"family"`
					Literal string `json:"literal"`
				} `json:"author"`
			} `json:"canonical_csl"`
		} `json:"papers"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out groundTruth
	for _, p := range doc.Papers {
		w := gtWork{title: p.CSL.Title, arxiv: p.IDs.Arxiv}
		if len(p.CSL.Author) > 0 {
			w.author = p.CSL.Author[0].Family
			if w.author == "" {
				w.author = p.CSL.Author[0].Literal
			}
		}
		for _, d := range []string{p.IDs.PreprintDOI, p.IDs.PublishedDOI} {
			if f := strings.Fields(d); len(f) == 0 {
				continue
			} else if d, ok := identifier.ParseDOI(f[0]); ok {
				w.dois = append(w.dois, d)
			}
		}
		out = append(out, w)
	}
	return out, nil
}

// match finds the reference's work in the ground truth: by arXiv id, by
// DOI, or by title.
func (g groundTruth) match(want expected) (gtWork, bool) {
	aid, _, _ := identifier.ParseArxivID(want.arxiv)
	for _, w := range g {
		if aid != "" && w.arxiv == aid {
			return w, true
		}
		for _, d := range w.dois {
			if want.doi != "-" && identifier.NormalizeDOI(d) == identifier.NormalizeDOI(want.doi) {
				return w, true
			}
		}
		if want.title != "-" && w.title != "" && fold.String(w.title) == fold.String(want.title) {
			return w, true
		}
	}
	return gtWork{}, false
}
