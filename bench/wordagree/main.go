// Command wordagree measures how well crossmem's extracted text agrees with
// poppler's pdftotext, word for word, on a folder of PDFs.
//
// For every PDF it runs compile.Extract (the same extraction "crossmem
// compile" uses) and, for every page, "pdftotext -enc UTF-8 -f N -l N file -".
// Both page texts are tokenised the same way: Unicode NFKC; line-end
// hyphenation joined (a "-" followed by whitespace that contains a line
// break and then a lower-case letter is removed together with the
// whitespace, also across our chunk boundaries, which are "\n\n"); words
// are maximal runs of letters and digits. Case is kept.
//
// Per page and per file it reports, as bags of words (multiset
// intersection):
//
//   - strict recall: the share of poppler's words found among ours;
//   - strict precision: the share of our words found among poppler's;
//   - merge-tolerant recall and precision: as strict, but a word that is
//     not matched also counts as found when it equals the concatenation of
//     2-4 consecutive words of the other side's page, or when it belongs to
//     a run of 2-4 consecutive words of its own side whose concatenation is
//     an unmatched word of the other side. poppler splits words where the
//     font size changes (small caps "S CI B ERT" for "SCIBERT", "16t 2" for
//     "16t²"), so this metric shows whether the text is the same apart from
//     such splits.
//
// As an order diagnostic (not part of the pass/fail) it also reports the
// share of our adjacent word pairs that are adjacent in poppler's text and
// lists pages below 80 %: bags of words do not see scrambled or interleaved
// text.
//
// Pages that the extractor marks unquotable (chunk.Result.Unquotable:
// image-only pages, scrambled text layers) are left out on both sides and
// listed with their reason; files with no quotable page are listed as
// excluded.
//
// Usage, from the repository root:
//
//	go run ./bench/wordagree                    # markdown table on stdout
//	go run ./bench/wordagree -json pages.json   # plus per-page data
//	go run ./bench/wordagree -show gr_sample1.pdf:3
//
// -corpus sets the folder (default ../shared/corpus/pdf relative to the
// repository root). The program exits 1 when an included file's tolerant
// recall or precision is below -min (default 0.97), or when a file fails.
// -show prints both texts of one page and the words they disagree on.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/crossmem/crossmem/bench/internal/corpus"
	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/compile"
	"github.com/crossmem/crossmem/internal/pdf"
)

// lowThreshold marks pages listed as "below 90 %" in the table.
const lowThreshold = 0.90

// lowPairs marks pages listed for their word order: fewer than this share
// of our adjacent word pairs are adjacent in poppler's text.
const lowPairs = 0.80

// listWords is how many disagreeing words a page records in the JSON.
const listWords = 40

// WordCount is a word and how often it occurs.
type WordCount struct {
	Word  string `json:"word"`
	Count int    `json:"count"`
}

// Agreement holds the matched word counts of one page or file.
type Agreement struct {
	PopplerWords int `json:"poppler_words"`
	OurWords     int `json:"our_words"`
	// StrictMatched is the size of the multiset intersection.
	StrictMatched int `json:"strict_matched"`
	// TolerantPoppler and TolerantOurs count the words of each side found
	// under the merge-tolerant rule.
	TolerantPoppler int `json:"tolerant_poppler_found"`
	TolerantOurs    int `json:"tolerant_ours_found"`
	// OurPairs counts our adjacent word pairs, PairsMatched those that are
	// also adjacent in poppler's text (multiset intersection). It is an
	// order diagnostic, not part of the agreement metrics: words of one
	// paragraph in the right order keep their pairs, scrambled or
	// interleaved text loses them (on either side: poppler interleaves
	// columns on some pages).
	OurPairs     int `json:"our_pairs"`
	PairsMatched int `json:"pairs_matched"`
}

func (a *Agreement) add(b Agreement) {
	a.PopplerWords += b.PopplerWords
	a.OurWords += b.OurWords
	a.StrictMatched += b.StrictMatched
	a.TolerantPoppler += b.TolerantPoppler
	a.TolerantOurs += b.TolerantOurs
	a.OurPairs += b.OurPairs
	a.PairsMatched += b.PairsMatched
}

// ratio returns n/d, and 1 for an empty denominator (nothing to find).
func ratio(n, d int) float64 {
	if d == 0 {
		return 1
	}
	return float64(n) / float64(d)
}

// Rates are the recall and precision of an Agreement.
type Rates struct {
	// StrictRecall is the share of poppler's words found among ours,
	// StrictPrecision the share of ours found among poppler's.
	StrictRecall    float64 `json:"strict_recall"`
	StrictPrecision float64 `json:"strict_precision"`
	// TolerantRecall and TolerantPrecision are the same shares under the
	// merge-tolerant rule.
	TolerantRecall    float64 `json:"tolerant_recall"`
	TolerantPrecision float64 `json:"tolerant_precision"`
	// PairAgreement is the share of our adjacent word pairs that are
	// adjacent in poppler's text too.
	PairAgreement float64 `json:"pair_agreement"`
}

// rates computes the rates of a.
func (a Agreement) rates() Rates {
	return Rates{
		StrictRecall:      ratio(a.StrictMatched, a.PopplerWords),
		StrictPrecision:   ratio(a.StrictMatched, a.OurWords),
		TolerantRecall:    ratio(a.TolerantPoppler, a.PopplerWords),
		TolerantPrecision: ratio(a.TolerantOurs, a.OurWords),
		PairAgreement:     ratio(a.PairsMatched, a.OurPairs),
	}
}

// PageResult is the agreement of one quotable page.
type PageResult struct {
	Page int `json:"page"`
	Agreement
	Rates
	// Missing are poppler's words not in ours (strict), Extra our words
	// not in poppler's; most frequent first, at most listWords each.
	Missing []WordCount `json:"missing"`
	Extra   []WordCount `json:"extra"`
}

// Unquotable is a page left out of the comparison.
type Unquotable struct {
	Page   int    `json:"page"`
	Reason string `json:"reason"`
}

// FileResult is the agreement of one PDF.
type FileResult struct {
	File  string `json:"file"`
	Pages int    `json:"pages"`
	Agreement
	Rates
	Unquotable []Unquotable  `json:"unquotable"`
	PageData   []*PageResult `json:"page_data"`
	// Excluded is set when no page is quotable.
	Excluded bool   `json:"excluded"`
	Error    string `json:"error,omitempty"`
}

// lowPages lists the pages whose strict recall or precision is below
// lowThreshold.
func (f *FileResult) lowPages() []int {
	var out []int
	for _, p := range f.PageData {
		if min(p.StrictRecall, p.StrictPrecision) < lowThreshold {
			out = append(out, p.Page)
		}
	}
	return out
}

func main() {
	corpusFlag := flag.String("corpus", "", "folder of PDFs (default ../shared/corpus/pdf relative to the repository root)")
	jsonOut := flag.String("json", "", "write the per-page data as JSON to this file")
	minAgree := flag.Float64("min", 0.97, "exit 1 when an included file's tolerant recall or precision is below this")
	cacheDir := flag.String("cache", corpus.WazeroCache(), "wazero compilation cache folder")
	show := flag.String("show", "", "FILE.pdf:PAGE: print our text and poppler's for one page and the words they disagree on")
	flag.Parse()

	if err := run(*corpusFlag, *jsonOut, *minAgree, *cacheDir, *show); err != nil {
		fmt.Fprintln(os.Stderr, "wordagree:", err)
		os.Exit(1)
	}
}

// errBelowMin reports that the agreement threshold was not met; the
// details have already been printed.
var errBelowMin = errors.New("agreement below -min")

func run(corpusFlag, jsonOut string, minAgree float64, cacheDir, show string) error {
	if _, err := exec.LookPath("pdftotext"); err != nil {
		return fmt.Errorf("pdftotext not found (apt-get install -y poppler-utils): %w", err)
	}
	dir, err := corpus.Dir(corpusFlag)
	if err != nil {
		return err
	}
	ctx := context.Background()
	engine, err := pdf.Open(ctx, pdf.Options{CacheDir: cacheDir})
	if err != nil {
		return err
	}
	defer engine.Close()

	if show != "" {
		return showPage(ctx, engine, dir, show)
	}

	files, err := corpus.PDFs(dir)
	if err != nil {
		return err
	}
	var results []*FileResult
	for _, f := range files {
		fmt.Fprintf(os.Stderr, "%s\n", filepath.Base(f))
		results = append(results, compareFile(ctx, engine, f))
	}

	printTable(os.Stdout, results)
	if jsonOut != "" {
		data, err := json.MarshalIndent(results, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(jsonOut, append(data, '\n'), 0o644); err != nil {
			return err
		}
	}

	var failed []string
	for _, r := range results {
		switch {
		case r.Error != "":
			failed = append(failed, fmt.Sprintf("%s: %s", r.File, r.Error))
		case r.Excluded:
		case min(r.TolerantRecall, r.TolerantPrecision) < minAgree:
			failed = append(failed, fmt.Sprintf("%s: tolerant recall %.4f, precision %.4f (min %.2f)",
				r.File, r.TolerantRecall, r.TolerantPrecision, minAgree))
		}
	}
	if len(failed) > 0 {
		fmt.Fprintln(os.Stderr, "files below -min or failing:")
		for _, s := range failed {
			fmt.Fprintln(os.Stderr, "  "+s)
		}
		return errBelowMin
	}
	return nil
}

// compareFile extracts one PDF and compares every quotable page with
// pdftotext's text of that page.
func compareFile(ctx context.Context, engine *pdf.Engine, path string) *FileResult {
	res := &FileResult{File: filepath.Base(path), Unquotable: []Unquotable{}, PageData: []*PageResult{}}
	data, err := os.ReadFile(path)
	if err != nil {
		res.Error = err.Error()
		return res
	}
	built, err := compile.Extract(ctx, engine, data, nil)
	if err != nil {
		res.Error = err.Error()
		return res
	}
	res.Pages = built.Pages
	skip := map[int]bool{}
	for _, u := range built.Unquotable {
		skip[u.Page] = true
		res.Unquotable = append(res.Unquotable, Unquotable{Page: u.Page, Reason: u.Reason})
	}
	if len(skip) == built.Pages {
		res.Excluded = true
		return res
	}
	ours := pageTexts(built)

	var pages []int
	for p := 1; p <= built.Pages; p++ {
		if !skip[p] {
			pages = append(pages, p)
		}
	}
	theirs, err := popplerPages(ctx, path, pages)
	if err != nil {
		res.Error = err.Error()
		return res
	}
	for i, p := range pages {
		pr := comparePage(theirs[i], ours[p])
		pr.Page = p
		res.PageData = append(res.PageData, pr)
		res.add(pr.Agreement)
	}
	res.Rates = res.rates()
	return res
}

// pageTexts returns the page texts of an extraction: each page's chunk
// texts in note order joined by chunk.PageSeparator.
func pageTexts(r chunk.Result) map[int]string {
	parts := map[int][]string{}
	for _, c := range r.Chunks {
		parts[c.Page] = append(parts[c.Page], c.Text)
	}
	out := make(map[int]string, len(parts))
	for p, texts := range parts {
		out[p] = strings.Join(texts, chunk.PageSeparator)
	}
	return out
}

// popplerPages runs pdftotext once per page, a few processes at a time.
func popplerPages(ctx context.Context, path string, pages []int) ([]string, error) {
	out := make([]string, len(pages))
	errs := make([]error, len(pages))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, p := range pages {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			out[i], errs[i] = popplerPage(ctx, path, p)
		}()
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// popplerPage returns pdftotext's text of one page.
func popplerPage(ctx context.Context, path string, page int) (string, error) {
	n := strconv.Itoa(page)
	cmd := exec.CommandContext(ctx, "pdftotext", "-enc", "UTF-8", "-f", n, "-l", n, path, "-")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	text, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("pdftotext page %d of %s: %v: %s", page, filepath.Base(path), err, strings.TrimSpace(stderr.String()))
	}
	return string(text), nil
}

// comparePage computes the agreement of poppler's and our text of a page.
func comparePage(poppler, ours string) *PageResult {
	pw, ow := Words(poppler), Words(ours)
	pc, oc := counts(pw), counts(ow)
	matched := 0
	for w, n := range pc {
		matched += min(n, oc[w])
	}
	a := Agreement{
		PopplerWords:    len(pw),
		OurWords:        len(ow),
		StrictMatched:   matched,
		TolerantPoppler: tolerantFound(pw, ow, pc, oc),
		TolerantOurs:    tolerantFound(ow, pw, oc, pc),
	}
	op, pp := counts(pairs(ow)), counts(pairs(pw))
	for w, n := range op {
		a.OurPairs += n
		a.PairsMatched += min(n, pp[w])
	}
	return &PageResult{
		Agreement: a,
		Rates:     a.rates(),
		Missing:   difference(pc, oc),
		Extra:     difference(oc, pc),
	}
}

// hyphenBreak matches a line-end hyphen: "-", whitespace containing a line
// break, then a lower-case letter (captured, to be kept).
var hyphenBreak = regexp.MustCompile(`-[\t\v\f\r \p{Zs}]*\n[\s\p{Zs}]*(\p{Ll})`)

// Words tokenises text: NFKC, line-end hyphenation joined, maximal runs of
// letters and digits.
func Words(text string) []string {
	text = norm.NFKC.String(text)
	text = hyphenBreak.ReplaceAllString(text, "$1")
	return strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// pairs returns the adjacent word pairs of words, each as "a b".
func pairs(words []string) []string {
	var out []string
	for i := 1; i < len(words); i++ {
		out = append(out, words[i-1]+" "+words[i])
	}
	return out
}

func counts(words []string) map[string]int {
	m := make(map[string]int, len(words))
	for _, w := range words {
		m[w]++
	}
	return m
}

// tolerantFound counts the words of a found in b under the merge-tolerant
// rule: the strict multiset intersection, plus each word of a left
// unmatched that equals the concatenation of 2-4 consecutive words of b,
// or that lies in a run of 2-4 consecutive words of a whose concatenation
// is a word of b left unmatched. Per word, no more occurrences are credited
// than were left unmatched.
func tolerantFound(a, b []string, ca, cb map[string]int) int {
	found := 0
	unA, unB := map[string]int{}, map[string]int{}
	for w, n := range ca {
		m := min(n, cb[w])
		found += m
		if n > m {
			unA[w] = n - m
		}
	}
	if len(unA) == 0 {
		return found
	}
	for w, n := range cb {
		if m := min(n, ca[w]); n > m {
			unB[w] = n - m
		}
	}

	credit := map[string]int{}
	// An unmatched word of a that is a concatenation of b's words.
	for i := range b {
		s := b[i]
		for k := 2; k <= 4 && i+k <= len(b); k++ {
			s += b[i+k-1]
			if n := unA[s]; n > 0 {
				credit[s] = n
			}
		}
	}
	// Unmatched words of a that together form an unmatched word of b.
	covered := make([]bool, len(a))
	for i := range a {
		s := a[i]
		for k := 2; k <= 4 && i+k <= len(a); k++ {
			s += a[i+k-1]
			if unB[s] > 0 {
				for j := i; j < i+k; j++ {
					covered[j] = true
				}
			}
		}
	}
	for i, c := range covered {
		if w := a[i]; c && credit[w] < unA[w] {
			credit[w]++
		}
	}
	for _, n := range credit {
		found += n
	}
	return found
}

// difference returns the words of a in excess of b, most frequent first.
func difference(a, b map[string]int) []WordCount {
	out := []WordCount{}
	for w, n := range a {
		if d := n - b[w]; d > 0 {
			out = append(out, WordCount{w, d})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Word < out[j].Word
	})
	if len(out) > listWords {
		out = out[:listWords]
	}
	return out
}

func printTable(w io.Writer, results []*FileResult) {
	fmt.Fprintln(w, "| file | pages | poppler words | strict recall | strict precision | tolerant recall | tolerant precision | pages < 90 % strict |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---|")
	var total Agreement
	totalPages, included := 0, 0
	var excluded, failed []*FileResult
	var unquotable []string
	for _, r := range results {
		totalPages += r.Pages
		for _, u := range r.Unquotable {
			unquotable = append(unquotable, fmt.Sprintf("- %s p%d: %s", r.File, u.Page, u.Reason))
		}
		switch {
		case r.Error != "":
			failed = append(failed, r)
			continue
		case r.Excluded:
			excluded = append(excluded, r)
			continue
		}
		total.add(r.Agreement)
		pages := strconv.Itoa(r.Pages)
		if n := len(r.Unquotable); n > 0 {
			pages = fmt.Sprintf("%d (%d unquotable)", r.Pages, n)
		}
		included += len(r.PageData)
		fmt.Fprintf(w, "| %s | %s | %d | %s | %s | %s | %s | %s |\n", r.File, pages, r.PopplerWords,
			pct(r.StrictRecall), pct(r.StrictPrecision), pct(r.TolerantRecall), pct(r.TolerantPrecision),
			joinInts(r.lowPages()))
	}
	tr := total.rates()
	fmt.Fprintf(w, "| **all included** | %d of %d | %d | %s | %s | %s | %s | |\n", included, totalPages, total.PopplerWords,
		pct(tr.StrictRecall), pct(tr.StrictPrecision), pct(tr.TolerantRecall), pct(tr.TolerantPrecision))

	var order []string
	for _, r := range results {
		for _, p := range r.PageData {
			if p.OurPairs > 0 && p.PairAgreement < lowPairs {
				order = append(order, fmt.Sprintf("- %s p%d: %s of %d pairs", r.File, p.Page, pct(p.PairAgreement), p.OurPairs))
			}
		}
	}
	fmt.Fprintf(w, "\nWord order (diagnostic): %s of our adjacent word pairs are adjacent in poppler's text too.\n", pct(tr.PairAgreement))
	if len(order) > 0 {
		fmt.Fprintf(w, "Pages below %.0f %% (scrambled or interleaved text on one of the two sides):\n\n", 100*lowPairs)
		for _, s := range order {
			fmt.Fprintln(w, s)
		}
	}

	if len(unquotable) > 0 {
		fmt.Fprintln(w, "\nPages excluded as unquotable by the extractor:")
		fmt.Fprintln(w)
		for _, s := range unquotable {
			fmt.Fprintln(w, s)
		}
	}
	if len(excluded) > 0 {
		fmt.Fprintln(w, "\nFiles excluded (no quotable page):")
		fmt.Fprintln(w)
		for _, r := range excluded {
			fmt.Fprintf(w, "- %s (%s)\n", r.File, plural(r.Pages, "page"))
		}
	}
	if len(failed) > 0 {
		fmt.Fprintln(w, "\nFiles that failed:")
		fmt.Fprintln(w)
		for _, r := range failed {
			fmt.Fprintf(w, "- %s: %s\n", r.File, r.Error)
		}
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func pct(f float64) string { return fmt.Sprintf("%.2f %%", 100*f) }

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}

// showPage prints both texts of one page ("file.pdf:N") and the words they
// disagree on.
func showPage(ctx context.Context, engine *pdf.Engine, dir, spec string) error {
	name, num, ok := strings.Cut(spec, ":")
	page, err := strconv.Atoi(num)
	if !ok || err != nil || page < 1 {
		return fmt.Errorf("-show wants FILE.pdf:PAGE, got %q", spec)
	}
	path := name
	if _, err := os.Stat(path); err != nil {
		path = filepath.Join(dir, name)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	built, err := compile.Extract(ctx, engine, data, nil)
	if err != nil {
		return err
	}
	if page > built.Pages {
		return fmt.Errorf("%s has %d pages", name, built.Pages)
	}
	for _, u := range built.Unquotable {
		if u.Page == page {
			fmt.Printf("page %d is unquotable: %s\n", page, u.Reason)
		}
	}
	fmt.Printf("==== crossmem, page %d (chunks separated by a line of dashes)\n", page)
	for _, c := range built.Chunks {
		if c.Page == page {
			fmt.Printf("---- %s %s\n%s\n", c.ID, c.Type, c.Text)
		}
	}
	theirs, err := popplerPage(ctx, path, page)
	if err != nil {
		return err
	}
	fmt.Printf("==== pdftotext, page %d\n%s\n", page, theirs)
	pr := comparePage(theirs, pageTexts(built)[page])
	fmt.Printf("==== agreement: strict recall %s precision %s, tolerant recall %s precision %s, pairs %s (%d poppler words, %d ours)\n",
		pct(pr.StrictRecall), pct(pr.StrictPrecision), pct(pr.TolerantRecall), pct(pr.TolerantPrecision),
		pct(pr.PairAgreement), pr.PopplerWords, pr.OurWords)
	fmt.Printf("missing (poppler only): %v\n", pr.Missing)
	fmt.Printf("extra (ours only): %v\n", pr.Extra)
	return nil
}
