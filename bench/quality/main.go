// Command quality measures the search index's retrieval quality on the
// real corpus. From the compiled corpus library (36 papers) it makes a set
// of (query, expected chunk) pairs and reports recall@1, recall@5 and MRR
// (over the top 10) per query variant and per configuration:
//
//   - bm25: BM25 alone (index.Index.NoPhraseLane);
//   - bm25+phrase: BM25 with the exact-phrase lane (what crossmem runs);
//   - hybrid: bm25+phrase fused with the vector lane, when an Ollama
//     embedding server answers (OLLAMA_HOST, model -embed-model); the chunks
//     are embedded first. Otherwise reported as not available.
//
// The set: every chunk's text is joined as a reader copies it (line-end
// hyphens joined, lines joined with spaces) and split into sentences (a
// simple splitter, see sentences); sentences of at least -min-words words
// that occur, after quote.Key, in exactly one chunk of the library are
// candidates, and -n of them are sampled (seeded) round-robin across the
// papers. Variants of each: verbatim; one content word replaced by another
// corpus word; a keyword query of 3–5 of its rarest content words,
// shuffled; and, for -typo of them, the verbatim sentence with its
// typography swapped (curly quotes, en dashes, ligatures). The set holds
// corpus text, so it is regenerated every run and never committed (-save
// writes it, with every result, to a file of your choice).
//
// The program exits 1 when recall@1 of verbatim or typographic queries is
// below -min (default 0.99) in a configuration with the phrase lane, so it
// can serve as a check. Queries whose expected chunk is not first are
// listed (all of them for verbatim and typographic, and with -v for the
// other variants too).
//
// Run from the repository root:
//
//	go run ./bench/quality                 # compiles the corpus into bench/out/quality/corpus on first use
//	go run ./bench/quality -corpuslib DIR  # a library home holding the compiled corpus
//	go run ./bench/quality -v -save quality.json
//	go run ./bench/quality -bin /tmp/crossmem  # compile the corpus with a prebuilt CLI
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
	"regexp"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode"

	"github.com/crossmem/crossmem/bench/internal/corpuslib"
	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/llm"
	"github.com/crossmem/crossmem/internal/quote"
	"github.com/crossmem/crossmem/internal/search"
)

const topK = 10

// config is one way of searching.
type config struct {
	Name      string `json:"name"`
	Available bool   `json:"available"`
	Reason    string `json:"reason,omitempty"`
}

// metrics are the scores of one variant in one configuration.
type metrics struct {
	N       int     `json:"n"`
	Recall1 float64 `json:"recall_at_1"`
	Recall5 float64 `json:"recall_at_5"`
	MRR     float64 `json:"mrr"`
}

// outcome is one query's result in one configuration.
type outcome struct {
	Rank     int    `json:"rank"` // 1-based in the top 10, 0 = not there
	TopKey   string `json:"top_cite_key"`
	TopChunk string `json:"top_chunk_id"`
	TopText  string `json:"top_excerpt"`
	Phrase   bool   `json:"top_phrase"`
}

type report struct {
	Date      string                         `json:"date"`
	Command   string                         `json:"command"`
	Library   string                         `json:"library"`
	Papers    int                            `json:"papers"`
	Chunks    int                            `json:"chunks"`
	MinWords  int                            `json:"min_words"`
	Sentences int                            `json:"candidate_sentences"`
	Sampled   int                            `json:"sampled"`
	Configs   []config                       `json:"configs"`
	Metrics   map[string]map[string]metrics  `json:"metrics"` // config → variant → metrics
	Items     []item                         `json:"items"`
	Outcomes  map[string][]outcome           `json:"outcomes"` // config → per item
	Failures  map[string]map[string][]string `json:"-"`
	Top5      map[string]top5Audit           `json:"keyword_top5"` // config → audit
}

// top5Audit describes the top 5 results of the keyword queries: how many
// are page furniture (a furniture chunk type, a chunk that is its page's
// number or printed label alone, or text that is a chunk on 3 or more
// pages of its paper once digits are left out, has a letter and is not
// on its first page:
// running heads, page numbers, stamps),
// headings, and fragments under 40 characters.
type top5Audit struct {
	Hits      int      `json:"hits"`
	Furniture int      `json:"furniture"`
	Headings  int      `json:"headings"`
	Short     int      `json:"under_40_chars"`
	Examples  []string `json:"furniture_examples,omitempty"`
}

func main() {
	out := flag.String("out", "", "working folder (default bench/out/quality in the repository)")
	corpusLib := flag.String("corpuslib", "", "library home holding the compiled corpus (default <out>/corpus, built on first use)")
	corpusDir := flag.String("corpus", "", "folder of corpus PDFs for building the corpus library (default ../shared/corpus/pdf)")
	binFlag := flag.String("bin", "", "compile the corpus with this crossmem binary instead of building ./cmd/crossmem")
	n := flag.Int("n", 300, "sentences to sample")
	nTypo := flag.Int("typo", 60, "sentences to also query with swapped typography")
	minWords := flag.Int("min-words", 8, "shortest sentence, in words")
	seed := flag.Uint64("seed", 1, "random seed")
	minR1 := flag.Float64("min", 0.99, "exit 1 when verbatim or typographic recall@1 (phrase lane on) is below this")
	embedModel := flag.String("embed-model", "", "Ollama embedding model for the hybrid configuration (default "+llm.DefaultEmbedModel+")")
	verbose := flag.Bool("v", false, "list the queries not ranked first for every variant")
	save := flag.String("save", "", "write the query set and every result as JSON to this file (it holds corpus text: do not commit it)")
	jsonOut := flag.Bool("json", false, "print the metrics as JSON instead of tables")
	flag.Parse()
	ok, err := run(*out, *binFlag, *corpusLib, *corpusDir, *n, *nTypo, *minWords, *seed, *minR1, *embedModel, *verbose, *save, *jsonOut)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench/quality:", err)
		os.Exit(1)
	}
	if !ok {
		os.Exit(1)
	}
}

func run(out, binFlag, corpusLib, corpusDir string, n, nTypo, minWords int, seed uint64, minR1 float64, embedModel string, verbose bool, save string, jsonOut bool) (bool, error) {
	ctx := context.Background()
	root, err := corpuslib.ModuleRoot()
	if err != nil {
		return false, err
	}
	if out == "" {
		out = filepath.Join(root, "bench", "out", "quality")
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return false, err
	}
	corpusLib, err = corpuslib.Ensure(ctx, out, corpusLib, corpusDir, binFlag, os.Stderr)
	if err != nil {
		return false, err
	}
	notes, err := corpuslib.Load(corpusLib)
	if err != nil {
		return false, err
	}
	var chunks []*srcChunk
	for i, nt := range notes {
		for _, c := range nt.Note.Chunks {
			text := corpuslib.ReaderCopy(c.Text)
			chunks = append(chunks, &srcChunk{paper: i, citeKey: nt.Note.Front.CiteKey, chunkID: c.ID, text: text, key: quote.Key(c.Text), furniture: chunk.IsFurniture(c.Type)})
		}
	}
	rep := &report{Date: time.Now().Format("2006-01-02"), Command: "go run ./bench/quality " + strings.Join(os.Args[1:], " "),
		Library: corpusLib, Papers: len(notes), Chunks: len(chunks), MinWords: minWords,
		Metrics: map[string]map[string]metrics{}, Outcomes: map[string][]outcome{}, Top5: map[string]top5Audit{}}
	kinds := chunkKinds(notes)

	// The query set.
	rng := rand.New(rand.NewPCG(seed, 0x9a1))
	byPaper := uniqueSentences(chunks, minWords)
	for _, l := range byPaper {
		rep.Sentences += len(l)
	}
	cands := sample(byPaper, n, rng)
	rep.Sampled = len(cands)
	rep.Items = makeQueries(cands, newVocabulary(chunks), nTypo, rng)

	// A fresh index of the corpus library, beside it.
	ix, err := corpuslib.FreshIndex(ctx, out, corpusLib)
	if err != nil {
		return false, err
	}
	defer ix.Close()

	emb := llm.NewEmbedder(os.Getenv("OLLAMA_HOST"), embedModel)
	hybrid := config{Name: "hybrid"}
	if err := emb.Check(ctx); err != nil {
		hybrid.Reason = fmt.Sprintf("not available: %v", err)
	} else {
		hybrid.Available = true
	}
	rep.Configs = []config{{Name: "bm25", Available: true}, {Name: "bm25+phrase", Available: true}, hybrid}

	for _, cfg := range rep.Configs {
		if !cfg.Available {
			continue
		}
		ix.NoPhraseLane = cfg.Name == "bm25"
		ix.Embedder = nil
		if cfg.Name == "hybrid" {
			ix.Embedder = emb
			fmt.Fprintf(os.Stderr, "embedding the corpus chunks with %s at %s\n", emb.Model(), emb.Host)
			if _, err := ix.EmbedMissing(ctx, nil); err != nil {
				return false, err
			}
		}
		outs := make([]outcome, len(rep.Items))
		var audit top5Audit
		for i, it := range rep.Items {
			res, err := ix.Search(ctx, search.Query{Text: it.Query, Limit: topK, Explain: true})
			if err != nil {
				return false, fmt.Errorf("%s: query %q: %w", cfg.Name, it.Query, err)
			}
			o := outcome{}
			for r, h := range res.Hits {
				if h.CiteKey == it.CiteKey && h.ChunkID == it.ChunkID {
					o.Rank = r + 1
					break
				}
			}
			if it.Variant == varKeywords {
				for _, h := range res.Hits[:min(5, len(res.Hits))] {
					audit.add(kinds[h.CiteKey+"/"+h.ChunkID], h.CiteKey+"/"+h.ChunkID)
				}
			}
			if len(res.Hits) > 0 {
				h := res.Hits[0]
				o.TopKey, o.TopChunk, o.TopText = h.CiteKey, h.ChunkID, h.Excerpt
				o.Phrase = h.Explain != nil && h.Explain.Phrase
			}
			outs[i] = o
		}
		rep.Outcomes[cfg.Name] = outs
		rep.Top5[cfg.Name] = audit
		rep.Metrics[cfg.Name] = score(rep.Items, outs)
	}

	pass := true
	for _, cfg := range []string{"bm25+phrase", "hybrid"} {
		m, ok := rep.Metrics[cfg]
		if !ok {
			continue
		}
		for _, v := range []string{varVerbatim, varTypo} {
			if m[v].N > 0 && m[v].Recall1 < minR1 {
				pass = false
			}
		}
	}

	if save != "" {
		data, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return false, err
		}
		if err := os.WriteFile(save, append(data, '\n'), 0o644); err != nil {
			return false, err
		}
	}
	if jsonOut {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		err := enc.Encode(struct {
			Date      string                        `json:"date"`
			Papers    int                           `json:"papers"`
			Chunks    int                           `json:"chunks"`
			Sentences int                           `json:"candidate_sentences"`
			Sampled   int                           `json:"sampled"`
			Configs   []config                      `json:"configs"`
			Metrics   map[string]map[string]metrics `json:"metrics"`
			Pass      bool                          `json:"pass"`
		}{rep.Date, rep.Papers, rep.Chunks, rep.Sentences, rep.Sampled, rep.Configs, rep.Metrics, pass})
		return pass, err
	}
	printReport(os.Stdout, rep, verbose, minR1, pass)
	return pass, nil
}

func score(items []item, outs []outcome) map[string]metrics {
	m := map[string]metrics{}
	for i, it := range items {
		x := m[it.Variant]
		x.N++
		r := outs[i].Rank
		if r == 1 {
			x.Recall1++
		}
		if r >= 1 && r <= 5 {
			x.Recall5++
		}
		if r > 0 {
			x.MRR += 1 / float64(r)
		}
		m[it.Variant] = x
	}
	for v, x := range m {
		x.Recall1 /= float64(x.N)
		x.Recall5 /= float64(x.N)
		x.MRR /= float64(x.N)
		m[v] = x
	}
	return m
}

func printReport(w io.Writer, rep *report, verbose bool, minR1 float64, pass bool) {
	counts := map[string]int{}
	for _, it := range rep.Items {
		counts[it.Variant]++
	}
	fmt.Fprintf(w, "Corpus library: %d papers, %d chunks; %d candidate sentences (≥ %d words, in exactly one chunk); %d sampled\n",
		rep.Papers, rep.Chunks, rep.Sentences, rep.MinWords, rep.Sampled)
	fmt.Fprintf(w, "Queries: %d verbatim, %d typographic, %d one word changed, %d keywords; top %d\n\n",
		counts[varVerbatim], counts[varTypo], counts[varChanged], counts[varKeywords], topK)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "variant\tn\t")
	for _, c := range rep.Configs {
		fmt.Fprintf(tw, "%s R@1\tR@5\tMRR\t", c.Name)
	}
	fmt.Fprintln(tw)
	for _, v := range variants {
		fmt.Fprintf(tw, "%s\t%d\t", v, counts[v])
		for _, c := range rep.Configs {
			if !c.Available {
				fmt.Fprint(tw, "n/a\tn/a\tn/a\t")
				continue
			}
			m := rep.Metrics[c.Name][v]
			fmt.Fprintf(tw, "%.1f %%\t%.1f %%\t%.3f\t", 100*m.Recall1, 100*m.Recall5, m.MRR)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	for _, c := range rep.Configs {
		if !c.Available {
			fmt.Fprintf(w, "\n%s: %s\n", c.Name, c.Reason)
		}
	}
	fmt.Fprintln(w)
	for _, c := range rep.Configs {
		a, ok := rep.Top5[c.Name]
		if !ok || a.Hits == 0 {
			continue
		}
		fmt.Fprintf(w, "%s, keywords, top 5: %d results; furniture %d, headings %d (%.1f %%), under 40 characters %d (%.1f %%)\n",
			c.Name, a.Hits, a.Furniture, a.Headings, 100*float64(a.Headings)/float64(a.Hits), a.Short, 100*float64(a.Short)/float64(a.Hits))
		for _, e := range a.Examples {
			fmt.Fprintf(w, "  furniture: %s\n", e)
		}
	}
	for _, c := range rep.Configs {
		if !c.Available {
			continue
		}
		for _, v := range variants {
			if !verbose && v != varVerbatim && v != varTypo {
				continue
			}
			var lines []string
			for i, it := range rep.Items {
				o := rep.Outcomes[c.Name][i]
				if it.Variant != v || o.Rank == 1 {
					continue
				}
				rank := "not in top 10"
				if o.Rank > 0 {
					rank = fmt.Sprintf("rank %d", o.Rank)
				}
				phrase := ""
				if o.Phrase {
					phrase = " (phrase hit)"
				}
				lines = append(lines, fmt.Sprintf("- %q\n  expected %s/%s, %s; first: %s/%s%s %q", it.Query, it.CiteKey, it.ChunkID, rank, o.TopKey, o.TopChunk, phrase, excerpt(o.TopText)))
			}
			if len(lines) > 0 {
				fmt.Fprintf(w, "\n%s, %s: %d not ranked first\n%s\n", c.Name, v, len(lines), strings.Join(lines, "\n"))
			}
		}
	}
	verdict := "PASS"
	if !pass {
		verdict = "FAIL"
	}
	fmt.Fprintf(w, "\n%s: verbatim and typographic recall@1 with the phrase lane ≥ %.0f %%\n", verdict, 100*minR1)
}

func excerpt(s string) string {
	r := []rune(s)
	if len(r) > 120 {
		return string(r[:120]) + "..."
	}
	return s
}

// chunkKind is what the top-5 audit needs to know of a chunk.
type chunkKind struct {
	typ       string
	text      string
	repeated  bool // its text, digits left out, is a chunk on 3 or more pages of its paper, not its first page
	numberish bool // its page's number or printed label alone
}

var (
	digitRun  = regexp.MustCompile(`[0-9]+`)
	pageWord  = regexp.MustCompile(`^(?i:page\s+)`)
	spaceRuns = regexp.MustCompile(`\s+`)
)

// chunkKinds indexes every chunk of the notes by "citekey/chunkid".
func chunkKinds(notes []corpuslib.Note) map[string]chunkKind {
	m := map[string]chunkKind{}
	for _, nt := range notes {
		pages := map[string]map[int]bool{}
		norm := func(t string) string {
			return strings.TrimSpace(spaceRuns.ReplaceAllString(digitRun.ReplaceAllString(strings.ToLower(t), "#"), " "))
		}
		for _, c := range nt.Note.Chunks {
			k := norm(c.Text)
			if pages[k] == nil {
				pages[k] = map[int]bool{}
			}
			pages[k][c.Page] = true
		}
		for _, c := range nt.Note.Chunks {
			t := strings.TrimSpace(spaceRuns.ReplaceAllString(c.Text, " "))
			n := pageWord.ReplaceAllString(t, "")
			numberish := n == strconv.Itoa(c.Page) || c.PageLabel != "" && strings.EqualFold(n, c.PageLabel)
			m[nt.Note.Front.CiteKey+"/"+c.ID] = chunkKind{typ: c.Type, text: t, repeated: c.Page > 1 && len(pages[norm(c.Text)]) >= 3 && strings.IndexFunc(c.Text, unicode.IsLetter) >= 0, numberish: numberish}
		}
	}
	return m
}

func (a *top5Audit) add(k chunkKind, id string) {
	a.Hits++
	switch {
	case chunk.IsFurniture(k.typ) || k.repeated || k.numberish:
		a.Furniture++
		if len(a.Examples) < 20 {
			a.Examples = append(a.Examples, fmt.Sprintf("%s (%s) %q", id, k.typ, excerpt(k.text)))
		}
	case k.typ == "heading":
		a.Headings++
	}
	if len([]rune(k.text)) < 40 {
		a.Short++
	}
}
