// Command frontmatter measures the title and the authors crossmem reads
// from a PDF's first pages when it has no identifier to look up (or is
// offline): internal/frontmatter's reading of the printed page alone
// ("page"), and what capture keeps once the page is combined with the
// PDF's document information and XMP ("capture", capture.Identify).
//
// The reference is bench/frontmatter/reference.tsv, written by hand from
// each PDF's rendered first page (a viewer, mutool draw, pdftotext), not
// from crossmem's output: the title as printed and every author's name as
// printed. It is independent of both readings. The PDF's own /Title and
// /Author (document information or XMP, hyperref's pdftitle/pdfauthor) are
// shown beside it where the class sets them, and counted: they are often
// missing or wrong in journal classes' samples ("apssamp.dvi", a banner
// as /Title), which is why the reference is written by hand.
//
// Per PDF it prints, for the page and for capture: the title compared
// with the reference (= the same text; ≈ the same after folding case,
// diacritics, punctuation and white space; ≠ another; "missed" none where
// one is printed; "none ok" none where none is printed; "fake" a title
// where none is printed) and the authors as found/printed (family names
// folded, a compound family name matching its last word) with the names
// found that are not printed authors ("+n"). Totals: title exact and
// folded rates, author-name recall and precision.
//
// Usage, from the repository root:
//
//	sh bench/journals.sh /tmp/journals && go run ./bench/frontmatter -corpus /tmp/journals
//	sh bench/unseen.sh /tmp/unseen && go run ./bench/frontmatter -corpus /tmp/unseen
//	go run ./bench/frontmatter -v ...     # also what was read, name by name
//
// It exits 1 when a PDF cannot be read or the reference lacks a PDF of the
// folder.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"golang.org/x/text/unicode/norm"

	"github.com/crossmem/crossmem/bench/internal/corpus"
	"github.com/crossmem/crossmem/bench/internal/fold"
	"github.com/crossmem/crossmem/internal/capture"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/metadata/pdfmeta"
	"github.com/crossmem/crossmem/internal/pdf"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// expected is what a PDF prints, by the reference: title "" when none is
// printed; authors empty when none are.
type expected struct {
	title   string
	authors []metadata.Name
	// unprinted: the first page prints neither; title and authors are the
	// document's from elsewhere, which only capture can give.
	unprinted bool
}

// onPage is what the first page itself prints.
func (e expected) onPage() expected {
	if e.unprinted {
		return expected{}
	}
	return e
}

func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("frontmatter", flag.ContinueOnError)
	fl.SetOutput(stderr)
	corpusFlag := fl.String("corpus", "", "folder of PDFs (default ../shared/corpus/pdf)")
	refFlag := fl.String("reference", filepath.Join("bench", "frontmatter", "reference.tsv"), "what each PDF prints (tab-separated)")
	verbose := fl.Bool("v", false, "print what was read beside the reference")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	dir, err := corpus.Dir(*corpusFlag)
	if err != nil {
		fmt.Fprintln(stderr, "frontmatter:", err)
		return 1
	}
	files, err := corpus.PDFs(dir)
	if err != nil {
		fmt.Fprintln(stderr, "frontmatter:", err)
		return 1
	}
	ref, err := readReference(*refFlag)
	if err != nil {
		fmt.Fprintln(stderr, "frontmatter:", err)
		return 1
	}
	engine, err := pdf.Open(context.Background(), pdf.Options{CacheDir: corpus.WazeroCache()})
	if err != nil {
		fmt.Fprintln(stderr, "frontmatter:", err)
		return 1
	}
	defer engine.Close()

	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "file\tpage title\tpage authors\tcapture title\tcapture authors\t/Title\t/Author")
	var page, capt, info score
	var details []string
	for _, f := range files {
		name := filepath.Base(f)
		want, ok := ref[name]
		if !ok {
			fmt.Fprintf(stderr, "frontmatter: %s is not in %s\n", name, *refFlag)
			return 1
		}
		data, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintln(stderr, "frontmatter:", err)
			return 1
		}
		doc, err := engine.OpenBytes(data)
		if err != nil {
			fmt.Fprintf(stderr, "frontmatter: %s: %v\n", name, err)
			return 1
		}
		id := capture.Identify(doc, data)
		di := doc.Info()
		meta := pdfmeta.FromInfo(di.Title, di.Author, di.CreationDate)
		if x, ok := pdfmeta.ParseXMP(data); ok {
			meta = pdfmeta.Merge(meta, x)
		}
		doc.Close()

		pt, pa := page.add(want.onPage(), id.Text.Title, id.Text.Authors)
		ct, ca := capt.add(want, id.Record.Title, id.Record.Authors)
		it, ia := "-", "-"
		if meta.Title != "" {
			it = info.titleOnly(want, meta.Title)
		}
		if len(meta.Authors) > 0 {
			f, _ := matchNames(want.authors, meta.Authors)
			ia = fmt.Sprintf("%d/%d", f, len(want.authors))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", name, pt, pa, ct, ca, it, ia)
		if *verbose {
			details = append(details, fmt.Sprintf("%s\n  reference: %q — %s\n  page:      %q — %s\n  capture:   %q — %s\n  /Title:    %q — %s",
				name, want.title, names(want.authors), id.Text.Title, names(id.Text.Authors),
				id.Record.Title, names(id.Record.Authors), meta.Title, names(meta.Authors)))
		}
	}
	tw.Flush()
	fmt.Fprintln(stdout)
	page.print(stdout, "page (internal/frontmatter)")
	capt.print(stdout, "capture (page + document information + XMP)")
	fmt.Fprintf(stdout, "PDF's own /Title (info or XMP): set in %d of %d PDFs, equal to the printed title (folded) in %d\n", info.titled, len(files), info.titleFold)
	for _, d := range details {
		fmt.Fprintln(stdout)
		fmt.Fprintln(stdout, d)
	}
	return 0
}

// score counts the comparisons of one reading with the reference.
type score struct {
	titles, titleExact, titleFold int // PDFs that print a title; equal; equal folded
	untitled, untitledOK          int // PDFs that print none; given none
	titled                        int // titles given (for /Title)
	names, namesFound, namesGiven int // printed author names; found; names given
	namesRight                    int // names given that are printed authors
	filesAuthors, filesAllAuthors int // PDFs printing authors; all found, none extra
}

func (s *score) add(want expected, title string, authors []metadata.Name) (string, string) {
	t := s.titleOnly(want, title)
	if len(want.authors) == 0 && len(authors) == 0 {
		return t, "-"
	}
	found, right := matchNames(want.authors, authors)
	s.names += len(want.authors)
	s.namesFound += found
	s.namesGiven += len(authors)
	s.namesRight += right
	if len(want.authors) > 0 {
		s.filesAuthors++
		if found == len(want.authors) && right == len(authors) {
			s.filesAllAuthors++
		}
	}
	a := fmt.Sprintf("%d/%d", found, len(want.authors))
	if extra := len(authors) - right; extra > 0 {
		a += fmt.Sprintf(" +%d", extra)
	}
	return t, a
}

func (s *score) titleOnly(want expected, title string) string {
	if title != "" {
		s.titled++
	}
	if want.title == "" {
		s.untitled++
		if title == "" {
			s.untitledOK++
			return "none ok"
		}
		return "fake"
	}
	s.titles++
	switch {
	case title == "":
		return "missed"
	case plain(title) == plain(want.title):
		s.titleExact++
		s.titleFold++
		return "="
	case fold.String(title) == fold.String(want.title):
		s.titleFold++
		return "≈"
	}
	return "≠"
}

func (s *score) print(w io.Writer, what string) {
	pct := func(a, b int) string {
		if b == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", 100*float64(a)/float64(b))
	}
	fmt.Fprintf(w, "%s:\n", what)
	fmt.Fprintf(w, "  titles exact %d of %d (%s), equal folded %d (%s); no title printed and none given %d of %d\n",
		s.titleExact, s.titles, pct(s.titleExact, s.titles), s.titleFold, pct(s.titleFold, s.titles), s.untitledOK, s.untitled)
	fmt.Fprintf(w, "  author names: recall %d of %d (%s), precision %d of %d (%s); PDFs with every author and no other %d of %d\n",
		s.namesFound, s.names, pct(s.namesFound, s.names), s.namesRight, s.namesGiven, pct(s.namesRight, s.namesGiven), s.filesAllAuthors, s.filesAuthors)
}

// matchNames returns how many of want are among got (found) and how many
// of got are among want (right), by family name folded, each name used
// once.
func matchNames(want, got []metadata.Name) (found, right int) {
	defer func() { right = found }()
	used := make([]bool, len(got))
	for _, w := range want {
		for i, g := range got {
			if !used[i] && fold.SameFamily(g.FamilyOrLiteral(), w.FamilyOrLiteral()) {
				used[i] = true
				found++
				break
			}
		}
	}
	return found, found
}

func names(ns []metadata.Name) string {
	if len(ns) == 0 {
		return "(none)"
	}
	var s []string
	for _, n := range ns {
		s = append(s, n.Display())
	}
	return strings.Join(s, "; ")
}

// plain is s NFC-composed with its white space runs made one space.
func plain(s string) string {
	return norm.NFC.String(strings.Join(strings.Fields(s), " "))
}

// readReference reads the tab-separated reference: file, title ("-" when
// none), authors (names as printed, "Given Family", separated by ";", an
// organisation in braces; "-" when none), printed ("yes", or "no" when the
// first page prints neither and they are the document's from elsewhere),
// note.
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
		if header {
			header = false
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) < 4 || cols[3] != "yes" && cols[3] != "no" {
			return nil, fmt.Errorf("%s:%d: want file, title, authors, printed (yes or no)[, note]", path, n)
		}
		e := expected{unprinted: cols[3] == "no"}
		if cols[1] != "-" {
			e.title = cols[1]
		}
		if cols[2] != "-" {
			for _, a := range strings.Split(cols[2], ";") {
				a = strings.TrimSpace(a)
				if strings.HasPrefix(a, "{") && strings.HasSuffix(a, "}") {
					e.authors = append(e.authors, metadata.Name{Literal: a[1 : len(a)-1]})
				} else if nm := metadata.ParseName(a); nm != (metadata.Name{}) {
					e.authors = append(e.authors, nm)
				}
			}
		}
		if _, dup := out[cols[0]]; dup {
			return nil, fmt.Errorf("%s:%d: %s twice", path, n, cols[0])
		}
		out[cols[0]] = e
	}
	return out, sc.Err()
}
