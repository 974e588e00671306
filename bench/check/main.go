// Command check is the mutation benchmark of `crossmem check`: does the
// draft checker catch every quotation that is not the cited source's
// text, and pass every faithful one?
//
// From the compiled corpus library (36 papers) it samples -n real
// sentences (seeded), each found in exactly one chunk of the library, and
// writes them as quotations, with a citation of their paper, into
// generated drafts — one LaTeX and one pandoc markdown draft per variant
// family, in the markup forms a writer uses (“...” + \citep, \enquote +
// \autocite, \begin{quote} + \citep after it, \textcquote; "..." + [@key],
// > blockquotes + [@key]). Each sentence is quoted in these variants:
//
// Faithful (a false alarm is any status but verified or repaired):
//   - exact: the chunk's text (white space collapsed) → verified;
//   - whitespace: its spaces replaced by line breaks and double spaces →
//     verified (white space never counts);
//   - ligature: "fi", "fl", "ff" written as the ligatures U+FB01 … → repaired;
//   - hyphen: as a reader copies it, line-end hyphens joined ("exam- ple"
//     → "example") when the sentence has one → verified (a line-end hyphen
//     reads joined or kept);
//   - dash: hyphens between letters written as U+2010 or en dashes → repaired;
//   - quote-style: straight quotes and apostrophes written typographic
//     (or the reverse) when the sentence has some → repaired.
//
// Mutations (caught when unverified or misattributed):
//   - substitute: one content word replaced by another corpus word;
//   - insert: a corpus word inserted;
//   - drop: one word removed;
//   - number: one digit of a number changed (sentences with a number);
//   - other-paper: a sentence of another paper, cited as this one's → must
//     be misattributed and name the right paper;
//   - invented: the sentence's words shuffled → unverified.
//
// And unknown keys: faithful quotations cited with a key the library does
// not have (a near miss of the real key) → the key must be unknown.
//
// For each kind it reports the number of quotations, the statuses got,
// recall (mutations caught ÷ mutations; for unknown keys, keys reported
// unknown ÷ unknown keys) and false alarms (faithful flagged); overall
// precision (flagged that were mutations ÷ flagged) and recall; and
// throughput (quotations checked per second, check.Checker.Draft on the
// generated drafts, index warm). Exits 1 when a mutation is missed or a
// faithful quotation is flagged, so it can serve as a check.
//
// Run from the repository root:
//
//	go run ./bench/check                 # compiles the corpus into bench/out/check/corpus on first use
//	go run ./bench/check -corpuslib DIR  # a library home holding the compiled corpus
//	go run ./bench/check -v              # list every miss and false alarm with the checker's report
//
// The drafts are written to <out>/drafts (they hold corpus text: do not
// commit them); `crossmem check` runs on them as well.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
	"unicode"

	"github.com/crossmem/crossmem/bench/internal/corpuslib"
	"github.com/crossmem/crossmem/internal/check"
	"github.com/crossmem/crossmem/internal/cite"
	"github.com/crossmem/crossmem/internal/draft"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/quote"
	"github.com/crossmem/crossmem/internal/render"
)

// kinds, in report order, with whether they are mutations.
var kinds = []struct {
	name     string
	mutation bool
	want     string // the status expected ("" = unverified or misattributed)
}{
	{"exact", false, check.Verified},
	{"whitespace", false, check.Verified},
	{"ligature", false, check.Repaired},
	{"hyphen", false, check.Verified},
	{"dash", false, check.Repaired},
	{"quote-style", false, check.Repaired},
	{"substitute", true, ""},
	{"insert", true, ""},
	{"drop", true, ""},
	{"number", true, ""},
	{"other-paper", true, check.Misattributed},
	{"invented", true, check.Unverified},
	{"unknown-key", true, check.CiteUnknown},
}

func isMutation(kind string) bool {
	for _, k := range kinds {
		if k.name == kind {
			return k.mutation
		}
	}
	panic("unknown kind " + kind)
}

// sentence is a sampled source sentence.
type sentence struct {
	paper   int
	key     string // cite key
	chunkID string
	text    string // the chunk's text of the sentence, white space collapsed
	raw     string // the same span with the chunk's line breaks
}

// item is one quotation of a draft.
type item struct {
	Kind    string `json:"kind"`
	Quote   string `json:"quote"`
	Cites   string `json:"cites"`  // the key the draft cites
	Source  string `json:"source"` // the paper the words are from ("" = none)
	ChunkID string `json:"chunk_id"`
	Format  string `json:"format"`
	Form    string `json:"form"`
	Line    int    `json:"line"`
	// outcome
	Status     string `json:"status"`
	CiteStatus string `json:"cite_status,omitempty"`
	Found      string `json:"found,omitempty"` // the source named by the checker
	Report     string `json:"-"`
}

func main() {
	out := flag.String("out", "", "working folder (default bench/out/check in the repository)")
	corpusLib := flag.String("corpuslib", "", "library home holding the compiled corpus (default <out>/corpus, built on first use)")
	corpusDir := flag.String("corpus", "", "folder of corpus PDFs for building the corpus library (default ../shared/corpus/pdf)")
	n := flag.Int("n", 500, "sentences to sample")
	minWords := flag.Int("min-words", 8, "shortest sentence, in words")
	maxWords := flag.Int("max-words", 60, "longest sentence, in words")
	seed := flag.Uint64("seed", 1, "random seed")
	verbose := flag.Bool("v", false, "list every miss and false alarm with the checker's verdict")
	jsonOut := flag.String("json", "", "write every item and its outcome as JSON to this file (it holds corpus text: do not commit it)")
	flag.Parse()
	ok, err := run(*out, *corpusLib, *corpusDir, *n, *minWords, *maxWords, *seed, *verbose, *jsonOut)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench/check:", err)
		os.Exit(1)
	}
	if !ok {
		os.Exit(1)
	}
}

func run(out, corpusLib, corpusDir string, n, minWords, maxWords int, seed uint64, verbose bool, jsonOut string) (bool, error) {
	ctx := context.Background()
	root, err := corpuslib.ModuleRoot()
	if err != nil {
		return false, err
	}
	if out == "" {
		out = filepath.Join(root, "bench", "out", "check")
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return false, err
	}
	corpusLib, err = corpuslib.Ensure(ctx, out, corpusLib, corpusDir, "", os.Stderr)
	if err != nil {
		return false, err
	}
	notes, err := corpuslib.Load(corpusLib)
	if err != nil {
		return false, err
	}
	lib, err := library.Open(corpusLib)
	if err != nil {
		return false, err
	}
	papers, _ := lib.Papers()

	// A fresh index of the corpus library, beside it.
	ix, err := corpuslib.FreshIndex(ctx, out, corpusLib)
	if err != nil {
		return false, err
	}
	defer ix.Close()
	ck := &check.Checker{Index: ix, Citer: &cite.Citer{Lib: lib}}

	// Sentences, each in exactly one chunk of the library.
	var keys []string // normalized text of every chunk
	for _, nt := range notes {
		for _, c := range nt.Note.Chunks {
			keys = append(keys, quote.Key(c.Text))
		}
	}
	byPaper := make([][]sentence, len(notes))
	total := 0
	for i, nt := range notes {
		for _, c := range nt.Note.Chunks {
			if c.Type == "table" || c.Type == "equation" || c.Type == "code" {
				continue
			}
			for _, s := range splitSentences(c.Text) {
				text := strings.Join(strings.Fields(s), " ")
				if w := len(strings.Fields(text)); w < minWords || w > maxWords || !prose(text) {
					continue
				}
				k := quote.Key(text)
				hits := 0
				for _, ck := range keys {
					if strings.Contains(ck, k) {
						if hits++; hits > 1 {
							break
						}
					}
				}
				if hits == 1 {
					byPaper[i] = append(byPaper[i], sentence{paper: i, key: nt.Note.Front.CiteKey, chunkID: c.ID, text: text, raw: s})
					total++
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0xc4ec))
	sample := sampleRoundRobin(byPaper, n, rng)
	vocab := vocabulary(notes)
	fmt.Fprintf(os.Stderr, "%d papers, %d candidate sentences, %d sampled\n", len(notes), total, len(sample))

	// The items.
	var items []*item
	add := func(kind, q, cites, source, chunkID string) {
		items = append(items, &item{Kind: kind, Quote: q, Cites: cites, Source: source, ChunkID: chunkID})
	}
	known := map[string]bool{}
	for _, p := range papers {
		known[p.CiteKey] = true
		for _, a := range p.Aliases {
			known[a] = true
		}
	}
	for i, s := range sample {
		add("exact", s.text, s.key, s.key, s.chunkID)
		add("whitespace", whitespaceVariant(s.text, rng), s.key, s.key, s.chunkID)
		if v, ok := ligatureVariant(s.text); ok {
			add("ligature", v, s.key, s.key, s.chunkID)
		}
		if v, ok := hyphenVariant(s.raw); ok {
			add("hyphen", v, s.key, s.key, s.chunkID)
		}
		if v, ok := dashVariant(s.text, rng); ok {
			add("dash", v, s.key, s.key, s.chunkID)
		}
		if v, ok := quoteStyleVariant(s.text); ok {
			add("quote-style", v, s.key, s.key, s.chunkID)
		}
		add("substitute", substitute(s.text, vocab, rng), s.key, "", "")
		add("insert", insert(s.text, vocab, rng), s.key, "", "")
		add("drop", drop(s.text, rng), s.key, "", "")
		if v, ok := changeNumber(s.text, rng); ok {
			add("number", v, s.key, "", "")
		}
		// A sentence of another paper, cited as this one's.
		other := sample[(i+1+rng.IntN(len(sample)-1))%len(sample)]
		for other.paper == s.paper {
			other = sample[rng.IntN(len(sample))]
		}
		add("other-paper", other.text, s.key, other.key, other.chunkID)
		add("invented", shuffle(s.text, rng), s.key, "", "")
		if i%5 == 0 {
			add("unknown-key", s.text, nearMiss(s.key, known, rng), s.key, s.chunkID)
		}
	}

	// The drafts: faithful quotations in one draft, mutations in another,
	// each in both markups.
	draftDir := filepath.Join(out, "drafts")
	if err := os.MkdirAll(draftDir, 0o755); err != nil {
		return false, err
	}
	var all []*item
	var runs []timing
	for _, format := range []string{"latex", "markdown"} {
		for _, group := range []string{"faithful", "mutations"} {
			var batch []*item
			for _, it := range items {
				if isMutation(it.Kind) == (group == "mutations") {
					c := *it
					c.Format = format
					batch = append(batch, &c)
				}
			}
			text := writeDraft(batch, format)
			name := filepath.Join(draftDir, group+map[string]string{"latex": ".tex", "markdown": ".md"}[format])
			if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
				return false, err
			}
			start := time.Now()
			d := draft.Scan(name, []byte(text))
			rep, err := ck.Draft(ctx, d, check.DraftOptions{})
			if err != nil {
				return false, err
			}
			runs = append(runs, timing{group: group, format: format, quotations: len(rep.Quotations), elapsed: time.Since(start)})
			if err := score(batch, rep); err != nil {
				return false, fmt.Errorf("%s: %w", name, err)
			}
			all = append(all, batch...)
		}
	}

	ok := printReport(os.Stdout, all, runs, len(notes), total, len(sample), verbose)
	if jsonOut != "" {
		data, err := json.MarshalIndent(all, "", "  ")
		if err != nil {
			return false, err
		}
		if err := os.WriteFile(jsonOut, data, 0o644); err != nil {
			return false, err
		}
	}
	return ok, nil
}

// score fills each item's outcome from the report, matching quotations by
// their first line; a quotation whose text the draft reader got wrong (not
// the quoted text, after quote.Key) is "misread" and counts as a failure.
func score(items []*item, rep *check.Report) error {
	byLine := map[int]*check.QuoteResult{}
	for i := range rep.Quotations {
		q := &rep.Quotations[i]
		byLine[q.Line] = q
	}
	cites := map[string]string{}
	for _, c := range rep.Citations {
		cites[c.Key] = c.Status
	}
	for _, it := range items {
		q, ok := byLine[it.Line]
		if !ok {
			it.Status = "not found"
			continue
		}
		if quote.Key(q.Quote) != quote.Key(it.Quote) {
			// The draft reader did not read the quotation as written.
			it.Status = "misread"
			it.Report = fmt.Sprintf("read as %q\n", q.Quote)
			continue
		}
		it.Status = q.Status
		if q.Source != nil {
			it.Found = q.Source.CiteKey
		}
		it.CiteStatus = cites[it.Cites]
		it.Report = render.Quote(q)
	}
	if len(rep.Quotations) != len(items) {
		return fmt.Errorf("the checker found %d quotations, the draft has %d", len(rep.Quotations), len(items))
	}
	return nil
}

// caught reports whether the checker flagged a mutation as it should.
func caught(it *item) bool {
	switch it.Kind {
	case "unknown-key":
		return it.CiteStatus == check.CiteUnknown
	case "other-paper":
		return it.Status == check.Misattributed && it.Found == it.Source
	}
	return it.Status == check.Unverified || it.Status == check.Misattributed
}

// flagged reports whether the checker rejected a quotation.
func flagged(it *item) bool {
	if it.Kind == "unknown-key" {
		return it.CiteStatus != check.CiteOK
	}
	return it.Status != check.Verified && it.Status != check.Repaired
}

// timing is one draft's check.
type timing struct {
	group, format string
	quotations    int
	elapsed       time.Duration
}

func printReport(w io.Writer, items []*item, runs []timing, papers, cands, sampled int, verbose bool) bool {
	fmt.Fprintf(w, "mutation benchmark: %d papers, %d candidate sentences, %d sampled; %d quotations in LaTeX and markdown drafts\n\n", papers, cands, sampled, len(items))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "kind\tn\texpected\tverified\trepaired\tmisattributed\tunverified\tmisread\tcaught / passed\t")
	ok := true
	var tp, fp, fn int
	var problems []*item
	for _, k := range kinds {
		var n, good int
		st := map[string]int{}
		for _, it := range items {
			if it.Kind != k.name {
				continue
			}
			n++
			st[it.Status]++
			if k.mutation {
				if caught(it) {
					good++
					tp++
				} else {
					fn++
					problems = append(problems, it)
				}
			} else {
				if flagged(it) {
					fp++
					problems = append(problems, it)
				} else {
					good++
				}
				if k.want != "" && it.Status != k.want {
					st["other-than-expected"]++
				}
			}
		}
		if n == 0 {
			continue
		}
		if good != n {
			ok = false
		}
		want := k.want
		if want == "" {
			want = "unverified|misattributed"
		}
		if k.name == "unknown-key" {
			want = "key unknown"
		}
		other := n - st[check.Verified] - st[check.Repaired] - st[check.Misattributed] - st[check.Unverified]
		fmt.Fprintf(tw, "%s\t%d\t%s\t%d\t%d\t%d\t%d\t%d\t%d/%d (%.1f %%)\t\n", k.name, n, want,
			st[check.Verified], st[check.Repaired], st[check.Misattributed], st[check.Unverified], other, good, n, 100*float64(good)/float64(n))
	}
	tw.Flush()
	prec, rec := 1.0, 1.0
	if tp+fp > 0 {
		prec = float64(tp) / float64(tp+fp)
	}
	if tp+fn > 0 {
		rec = float64(tp) / float64(tp+fn)
	}
	fmt.Fprintf(w, "\nmutations caught (recall): %d/%d = %.2f %%; false alarms on faithful quotations: %d; precision %.2f %%\n", tp, tp+fn, 100*rec, fp, 100*prec)
	// Faithful quotations with another status than expected (verified
	// where repaired was expected, or the reverse) are not false alarms.
	var off int
	for _, it := range items {
		for _, k := range kinds {
			if k.name == it.Kind && !k.mutation && !flagged(it) && it.Status != k.want {
				off++
			}
		}
	}
	if off > 0 {
		fmt.Fprintf(w, "faithful quotations passed with the other passing status than expected: %d\n", off)
	}
	fmt.Fprintln(w, "throughput (draft.Scan + check.Checker.Draft, warm index):")
	var n int
	var el time.Duration
	for _, r := range runs {
		fmt.Fprintf(w, "  %-9s %-8s %5d quotations in %6.2f s = %5.0f quotations/s\n", r.group, r.format, r.quotations, r.elapsed.Seconds(), float64(r.quotations)/r.elapsed.Seconds())
		n += r.quotations
		el += r.elapsed
	}
	fmt.Fprintf(w, "  all                %5d quotations in %6.2f s = %5.0f quotations/s\n", n, el.Seconds(), float64(n)/el.Seconds())
	if len(problems) > 0 {
		fmt.Fprintf(w, "\n%d misses and false alarms:\n", len(problems))
		sort.SliceStable(problems, func(i, j int) bool { return problems[i].Kind < problems[j].Kind })
		for i, it := range problems {
			if !verbose && i >= 20 {
				fmt.Fprintf(w, "... %d more (-v lists all)\n", len(problems)-i)
				break
			}
			fmt.Fprintf(w, "- %s %s line %d, cites %s (words from %q): %s", it.Kind, it.Format, it.Line, it.Cites, it.Source, it.Report)
			if it.Report == "" {
				fmt.Fprintf(w, "%s: %q\n", it.Status, it.Quote)
			}
		}
	}
	return ok
}

// splitSentences splits chunk text at ". ", "? ", "! " (and line breaks
// after them) followed by an upper-case letter; the pieces keep the
// chunk's line breaks.
func splitSentences(text string) []string {
	var out []string
	start := 0
	rs := []rune(text)
	for i := 0; i < len(rs)-2; i++ {
		if (rs[i] == '.' || rs[i] == '?' || rs[i] == '!') && unicode.IsSpace(rs[i+1]) {
			j := i + 1
			for j < len(rs) && unicode.IsSpace(rs[j]) {
				j++
			}
			if j < len(rs) && unicode.IsUpper(rs[j]) {
				out = append(out, strings.TrimSpace(string(rs[start:i+1])))
				start = j
			}
		}
	}
	out = append(out, strings.TrimSpace(string(rs[start:])))
	return out
}

// prose reports whether s reads as a sentence: it starts with an upper-case
// letter, ends with . ? or !, and is mostly letters.
func prose(s string) bool {
	rs := []rune(s)
	if len(rs) == 0 || !unicode.IsUpper(rs[0]) || !strings.ContainsRune(".?!", rs[len(rs)-1]) {
		return false
	}
	letters := 0
	for _, r := range rs {
		if unicode.IsLetter(r) || r == ' ' {
			letters++
		}
	}
	return float64(letters) >= 0.85*float64(len(rs))
}

func sampleRoundRobin(byPaper [][]sentence, n int, rng *rand.Rand) []sentence {
	for _, l := range byPaper {
		rng.Shuffle(len(l), func(i, j int) { l[i], l[j] = l[j], l[i] })
	}
	var out []sentence
	for round := 0; len(out) < n; round++ {
		added := false
		for _, l := range byPaper {
			if round < len(l) && len(out) < n {
				out = append(out, l[round])
				added = true
			}
		}
		if !added {
			break
		}
	}
	return out
}

// vocabulary returns the corpus's content words.
func vocabulary(notes []corpuslib.Note) []string {
	seen := map[string]bool{}
	var out []string
	for _, nt := range notes {
		for _, c := range nt.Note.Chunks {
			for _, w := range corpuslib.Words(c.Text) {
				if corpuslib.ContentWord(w) && len(w) >= 5 && !seen[w] {
					seen[w] = true
					out = append(out, w)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

func whitespaceVariant(s string, rng *rand.Rand) string {
	f := strings.Fields(s)
	var b strings.Builder
	for i, w := range f {
		if i > 0 {
			switch rng.IntN(3) {
			case 0:
				b.WriteString("\n")
			case 1:
				b.WriteString("  ")
			default:
				b.WriteString(" ")
			}
		}
		b.WriteString(w)
	}
	return b.String()
}

func ligatureVariant(s string) (string, bool) {
	r := strings.NewReplacer("ffi", "ﬃ", "ffl", "ﬄ", "ff", "ﬀ", "fi", "ﬁ", "fl", "ﬂ").Replace(s)
	return r, r != s
}

// hyphenVariant joins the line-end hyphens of raw as a reader copies the
// text; it reports false when raw has none.
func hyphenVariant(raw string) (string, bool) {
	joined := corpuslib.ReaderCopy(raw)
	flat := strings.Join(strings.Fields(raw), " ")
	return joined, joined != flat
}

func dashVariant(s string, rng *rand.Rand) (string, bool) {
	rs := []rune(s)
	changed := false
	for i := 1; i < len(rs)-1; i++ {
		if rs[i] == '-' && unicode.IsLetter(rs[i-1]) && unicode.IsLetter(rs[i+1]) {
			rs[i] = []rune{'‐', '–'}[rng.IntN(2)]
			changed = true
		}
	}
	return string(rs), changed
}

func quoteStyleVariant(s string) (string, bool) {
	if strings.ContainsAny(s, "\"'") {
		// straight → typographic
		var b strings.Builder
		open := true
		for _, r := range s {
			switch r {
			case '"':
				if open {
					b.WriteRune('“')
				} else {
					b.WriteRune('”')
				}
				open = !open
			case '\'':
				b.WriteRune('’')
			default:
				b.WriteRune(r)
			}
		}
		return b.String(), true
	}
	r := strings.NewReplacer("“", `"`, "”", `"`, "‘", "'", "’", "'").Replace(s)
	return r, r != s
}

// contentIndexes returns the indexes of the words of f that are content
// words.
func contentIndexes(f []string) []int {
	var out []int
	for i, w := range f {
		if t := strings.ToLower(strings.Trim(w, ".,;:!?()[]\"'")); corpuslib.ContentWord(t) {
			out = append(out, i)
		}
	}
	return out
}

func substitute(s string, vocab []string, rng *rand.Rand) string {
	f := strings.Fields(s)
	idx := contentIndexes(f)
	if len(idx) == 0 {
		idx = []int{rng.IntN(len(f))}
	}
	i := idx[rng.IntN(len(idx))]
	old := strings.ToLower(strings.Trim(f[i], ".,;:!?()[]\"'"))
	w := vocab[rng.IntN(len(vocab))]
	for w == old {
		w = vocab[rng.IntN(len(vocab))]
	}
	f[i] = strings.Replace(f[i], strings.Trim(f[i], ".,;:!?()[]\"'"), w, 1)
	return strings.Join(f, " ")
}

func insert(s string, vocab []string, rng *rand.Rand) string {
	f := strings.Fields(s)
	i := 1 + rng.IntN(len(f)-1)
	f = append(f[:i], append([]string{vocab[rng.IntN(len(vocab))]}, f[i:]...)...)
	return strings.Join(f, " ")
}

func drop(s string, rng *rand.Rand) string {
	f := strings.Fields(s)
	i := 1 + rng.IntN(len(f)-2) // keep the first and last words
	return strings.Join(append(f[:i:i], f[i+1:]...), " ")
}

func changeNumber(s string, rng *rand.Rand) (string, bool) {
	rs := []rune(s)
	var digits []int
	for i, r := range rs {
		if r >= '0' && r <= '9' {
			digits = append(digits, i)
		}
	}
	if len(digits) == 0 {
		return "", false
	}
	i := digits[rng.IntN(len(digits))]
	rs[i] = '0' + (rs[i]-'0'+1+rune(rng.IntN(8)))%10
	return string(rs), true
}

func shuffle(s string, rng *rand.Rand) string {
	f := strings.Fields(s)
	orig := strings.Join(f, " ")
	for range 10 {
		rng.Shuffle(len(f), func(i, j int) { f[i], f[j] = f[j], f[i] })
		if out := strings.Join(f, " "); out != orig {
			return out
		}
	}
	return orig + " indeed"
}

// nearMiss returns a key the library does not have, one edit from key.
func nearMiss(key string, known map[string]bool, rng *rand.Rand) string {
	for {
		rs := []rune(key)
		i := rng.IntN(len(rs))
		switch rng.IntN(3) {
		case 0:
			rs = append(rs[:i:i], rs[i+1:]...)
		case 1:
			rs[i] = rune('a' + rng.IntN(26))
		default:
			rs = append(rs[:i:i], append([]rune{rune('a' + rng.IntN(26))}, rs[i:]...)...)
		}
		if k := string(rs); k != "" && !known[k] && unicode.IsLetter(rs[0]) {
			return k
		}
	}
}

// latexEscape writes s so that LaTeX (and latex.Decode) reads it back; two
// apostrophes or backquotes in a row are split with {} so that they do not
// close or open a quotation.
var latexEscape = strings.NewReplacer("''", "'{}'", "``", "`{}`", `\`, `\textbackslash{}`, "{", `\{`, "}", `\}`, "%", `\%`, "&", `\&`, "#", `\#`,
	"$", `\$`, "_", `\_`, "~", `\textasciitilde{}`, "^", `\textasciicircum{}`)

// markdownEscape backslash-escapes the characters pandoc markdown would
// read as markup.
var markdownEscape = strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`, "<", `\<`,
	">", `\>`, "@", `\@`, "$", `\$`, "~", `\~`, "^", `\^`, "#", `\#`)

// writeDraft writes the items as one draft of the format, one paragraph
// per quotation, cycling through the markup forms, and sets each item's
// Form and Line (the line its quoted text starts on).
func writeDraft(items []*item, format string) string {
	var b strings.Builder
	line := 1
	write := func(s string) {
		b.WriteString(s)
		line += strings.Count(s, "\n")
	}
	if format == "latex" {
		write("\\documentclass{article}\n\\usepackage{csquotes}\n\\begin{document}\n\\section{Related work}\n\n")
	} else {
		write("---\ntitle: Mutation benchmark draft\n---\n\n# Related work\n\n")
	}
	for i, it := range items {
		q := it.Quote
		if format == "latex" {
			q = latexEscape.Replace(q)
			switch i % 4 {
			case 0:
				it.Form = "``...'' \\citep"
				write("Earlier work states that ``")
				it.Line = line
				write(q + "'' \\citep{" + it.Cites + "}.\n\n")
			case 1:
				it.Form = "\\enquote \\autocite"
				write("\\enquote{")
				it.Line = line
				write(q + "}~\\autocite[3]{" + it.Cites + "}.\n\n")
			case 2:
				it.Form = "quote environment"
				write("As \\textcite{" + it.Cites + "} put it:\n\\begin{quote}\n")
				it.Line = line
				write(q + "\n\\end{quote}\n\n")
			default:
				it.Form = "\\textcquote"
				write("\\textcquote[4]{" + it.Cites + "}{")
				it.Line = line
				write(q + "}\n\n")
			}
			continue
		}
		q = markdownEscape.Replace(q)
		form := i % 3
		if form != 2 && strings.ContainsAny(it.Quote, `"“”`) {
			form = 2
		}
		switch form {
		case 0:
			it.Form = `"..." [@key]`
			write(`Earlier work states that "`)
			it.Line = line
			write(q + `" [@` + it.Cites + "].\n\n")
		case 1:
			it.Form = "“...” [see @key, p. 3]"
			write("“")
			it.Line = line
			write(q + "” [see @" + it.Cites + ", p. 3].\n\n")
		default:
			it.Form = "> blockquote [@key]"
			write("> ")
			it.Line = line
			write(strings.ReplaceAll(q, "\n", "\n> ") + "\n> [@" + it.Cites + "]\n\n")
		}
	}
	if format == "latex" {
		write("\\end{document}\n")
	}
	return b.String()
}
