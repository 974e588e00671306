package main

import (
	"index/suffixarray"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/crossmem/crossmem/bench/internal/corpuslib"
	"github.com/crossmem/crossmem/internal/quote"
)

// Variants of a query.
const (
	varVerbatim = "verbatim"    // the sentence as a reader copies it
	varChanged  = "one-word"    // one content word replaced by another corpus word
	varKeywords = "keywords"    // 3–5 of its rarest content words, shuffled
	varTypo     = "typographic" // verbatim with curly quotes, en dashes, ligatures swapped in or out
)

var variants = []string{varVerbatim, varTypo, varChanged, varKeywords}

// item is one (query, expected chunk) pair.
type item struct {
	Variant  string `json:"variant"`
	Query    string `json:"query"`
	CiteKey  string `json:"cite_key"`
	ChunkID  string `json:"chunk_id"`
	Sentence string `json:"sentence"`
}

// srcChunk is a corpus chunk with its paper.
type srcChunk struct {
	paper   int
	citeKey string
	chunkID string
	text    string // reader copy
	key     string // quote.Key of the chunk text
	// furniture: a running head, page footer or margin note, which search
	// leaves out by design; its sentences count for uniqueness but are
	// never queries.
	furniture bool
}

// abbreviations end with a period that does not end a sentence.
var abbreviations = map[string]bool{}

func init() {
	for _, a := range strings.Fields(`e.g. i.e. et al. fig. figs. eq. eqs. sec. secs. tab. vs. cf. etc. dr. mr. mrs. ms.
		no. nos. vol. pp. p. resp. approx. ref. refs. ch. ed. eds. st. inc. ltd. co. jr. sr. prof. dept. univ. min. max. e.g.,
		i.e., al.,`) {
		abbreviations[a] = true
	}
}

// sentences splits text (one line) into sentences: a token ending in ".",
// "!" or "?" (possibly followed by closing quotes or brackets) ends a
// sentence when the next token starts with an upper-case letter, a digit or
// an opening quote or bracket, unless it is a known abbreviation ("e.g.",
// "Fig.", "et al.") or a single-letter initial ("J.").
func sentences(text string) []string {
	toks := strings.Fields(text)
	var out []string
	start := 0
	for i := 0; i < len(toks)-1; i++ {
		t := strings.TrimRight(toks[i], `"')]”’»`)
		if t == "" {
			continue
		}
		last := t[len(t)-1]
		if last != '.' && last != '!' && last != '?' {
			continue
		}
		if last == '.' {
			low := strings.ToLower(t)
			if abbreviations[low] {
				continue
			}
			if r := []rune(t); len(r) == 2 && unicode.IsUpper(r[0]) {
				continue // an initial
			}
		}
		next := []rune(toks[i+1])
		if !(unicode.IsUpper(next[0]) || unicode.IsDigit(next[0]) || strings.ContainsRune(`"'([“‘«`, next[0])) {
			continue
		}
		out = append(out, strings.Join(toks[start:i+1], " "))
		start = i + 1
	}
	if start < len(toks) {
		out = append(out, strings.Join(toks[start:], " "))
	}
	return out
}

// wordCount counts the tokens holding a letter.
func wordCount(s string) int {
	n := 0
	for _, t := range strings.Fields(s) {
		if strings.IndexFunc(t, unicode.IsLetter) >= 0 {
			n++
		}
	}
	return n
}

// uniqueSentences returns, per paper, the sentences of at least minWords
// words that occur (after quote.Key) in exactly one chunk of the library,
// with that chunk.
type candidate struct {
	chunk    *srcChunk
	sentence string
}

func uniqueSentences(chunks []*srcChunk, minWords int) map[int][]candidate {
	// All chunk keys in one text, separated by NUL, for a suffix array.
	var all strings.Builder
	starts := make([]int, len(chunks))
	for i, c := range chunks {
		starts[i] = all.Len()
		all.WriteString(c.key)
		all.WriteByte(0)
	}
	sa := suffixarray.New([]byte(all.String()))
	owner := func(off int) int {
		return sort.Search(len(starts), func(i int) bool { return starts[i] > off }) - 1
	}
	out := map[int][]candidate{}
	seen := map[string]bool{}
	for _, c := range chunks {
		if c.furniture {
			continue
		}
		for _, s := range sentences(c.text) {
			if wordCount(s) < minWords {
				continue
			}
			k := quote.Key(s)
			if seen[k] {
				continue
			}
			seen[k] = true
			owners := map[int]bool{}
			for _, off := range sa.Lookup([]byte(k), -1) {
				owners[owner(off)] = true
			}
			if len(owners) == 1 && chunks[firstKey(owners)] == c {
				out[c.paper] = append(out[c.paper], candidate{chunk: c, sentence: s})
			}
		}
	}
	return out
}

func firstKey(m map[int]bool) int {
	for k := range m {
		return k
	}
	return -1
}

// sample picks up to n candidates, round-robin over the papers in a
// seeded order, each paper's sentences in seeded order.
func sample(byPaper map[int][]candidate, n int, rng *rand.Rand) []candidate {
	var papers []int
	for p := range byPaper {
		papers = append(papers, p)
	}
	slices.Sort(papers)
	rng.Shuffle(len(papers), func(i, j int) { papers[i], papers[j] = papers[j], papers[i] })
	lists := map[int][]candidate{}
	for _, p := range papers {
		l := slices.Clone(byPaper[p])
		rng.Shuffle(len(l), func(i, j int) { l[i], l[j] = l[j], l[i] })
		lists[p] = l
	}
	var out []candidate
	for round := 0; len(out) < n; round++ {
		added := false
		for _, p := range papers {
			if round < len(lists[p]) && len(out) < n {
				out = append(out, lists[p][round])
				added = true
			}
		}
		if !added {
			break
		}
	}
	return out
}

// vocabulary is the corpus's content words with their document
// frequencies (chunks containing them) and, with repeats, the word stream.
type vocabulary struct {
	df     map[string]int
	stream []string
}

func newVocabulary(chunks []*srcChunk) *vocabulary {
	v := &vocabulary{df: map[string]int{}}
	for _, c := range chunks {
		seen := map[string]bool{}
		for _, w := range corpuslib.Words(c.text) {
			if !corpuslib.ContentWord(w) {
				continue
			}
			v.stream = append(v.stream, w)
			if !seen[w] {
				seen[w] = true
				v.df[w]++
			}
		}
	}
	return v
}

// changeWord replaces one content word of s (4+ letters, a–z only) by a
// different corpus word of 4+ letters (drawn by frequency), keeping the
// punctuation around it and an initial capital. ok is false when s has no
// such word.
func changeWord(s string, v *vocabulary, rng *rand.Rand) (string, bool) {
	toks := strings.Fields(s)
	var cands []int
	for i, t := range toks {
		core := strings.TrimFunc(t, func(r rune) bool { return !unicode.IsLetter(r) })
		if len(core) >= 4 && corpuslib.ContentWord(strings.ToLower(core)) {
			cands = append(cands, i)
		}
	}
	if len(cands) == 0 {
		return "", false
	}
	i := cands[rng.IntN(len(cands))]
	t := toks[i]
	core := strings.TrimFunc(t, func(r rune) bool { return !unicode.IsLetter(r) })
	var w string
	for {
		w = v.stream[rng.IntN(len(v.stream))]
		if len(w) >= 4 && w != strings.ToLower(core) {
			break
		}
	}
	if unicode.IsUpper([]rune(core)[0]) {
		w = strings.ToUpper(w[:1]) + w[1:]
	}
	toks[i] = strings.Replace(t, core, w, 1)
	return strings.Join(toks, " "), true
}

// keywords returns 3–5 of the sentence's rarest distinct content words (by
// corpus document frequency), shuffled; ok is false with fewer than 3.
func keywords(s string, v *vocabulary, rng *rand.Rand) (string, bool) {
	var ws []string
	seen := map[string]bool{}
	for _, w := range corpuslib.Words(s) {
		if corpuslib.ContentWord(w) && !seen[w] {
			seen[w] = true
			ws = append(ws, w)
		}
	}
	if len(ws) < 3 {
		return "", false
	}
	sort.SliceStable(ws, func(i, j int) bool { return v.df[ws[i]] < v.df[ws[j]] })
	k := min(len(ws), 3+rng.IntN(3))
	ws = ws[:k]
	rng.Shuffle(len(ws), func(i, j int) { ws[i], ws[j] = ws[j], ws[i] })
	return strings.Join(ws, " "), true
}

// typographic swaps the typography of s both ways: straight quotes and
// apostrophes become curly ones and curly ones straight, hyphens become en
// dashes and en or em dashes hyphens, "fi", "fl", "ff" become ligatures
// and ligatures letters. ok is false when nothing changed.
func typographic(s string) (string, bool) {
	var b strings.Builder
	rs := []rune(s)
	open := true
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		next := rune(0)
		if i+1 < len(rs) {
			next = rs[i+1]
		}
		switch {
		case r == '\'':
			b.WriteRune('’')
		case r == '’' || r == '‘':
			b.WriteRune('\'')
		case r == '"':
			if open {
				b.WriteRune('“')
			} else {
				b.WriteRune('”')
			}
			open = !open
		case r == '“' || r == '”':
			b.WriteRune('"')
		case r == '-':
			b.WriteRune('–')
		case r == '–' || r == '—':
			b.WriteRune('-')
		case r == 'f' && next == 'i':
			b.WriteRune('ﬁ')
			i++
		case r == 'f' && next == 'l':
			b.WriteRune('ﬂ')
			i++
		case r == 'f' && next == 'f':
			b.WriteRune('ﬀ')
			i++
		case r == 'ﬁ':
			b.WriteString("fi")
		case r == 'ﬂ':
			b.WriteString("fl")
		case r == 'ﬀ':
			b.WriteString("ff")
		default:
			b.WriteRune(r)
		}
	}
	out := b.String()
	return out, out != s
}

// makeQueries builds the query set: the sampled sentences verbatim, with a
// word changed and as keywords, and up to nTypo of them with their
// typography swapped.
func makeQueries(cands []candidate, v *vocabulary, nTypo int, rng *rand.Rand) []item {
	var out []item
	typo := 0
	for _, c := range cands {
		base := item{CiteKey: c.chunk.citeKey, ChunkID: c.chunk.chunkID, Sentence: c.sentence}
		it := base
		it.Variant, it.Query = varVerbatim, c.sentence
		out = append(out, it)
		if q, ok := typographic(c.sentence); ok && typo < nTypo {
			it = base
			it.Variant, it.Query = varTypo, q
			out = append(out, it)
			typo++
		}
		if q, ok := changeWord(c.sentence, v, rng); ok {
			it = base
			it.Variant, it.Query = varChanged, q
			out = append(out, it)
		}
		if q, ok := keywords(c.sentence, v, rng); ok {
			it = base
			it.Variant, it.Query = varKeywords, q
			out = append(out, it)
		}
	}
	return out
}
