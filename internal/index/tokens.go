package index

import (
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
	"golang.org/x/text/unicode/norm"
)

// Terms are what BM25 counts: words split at every character that is not
// a letter or digit, lower-cased, diacritics removed, English stop words
// dropped, Porter2 (Snowball English) stemmed. SQLite's FTS5 table uses its
// own tokenizer (porter unicode61 remove_diacritics 2) to find candidate
// chunks; the scores are computed over these terms.

// stopWords are left out of BM25 scoring and document frequencies: they
// match most chunks and carry almost no weight. They are still indexed by
// FTS5 and still count for the exact-phrase lane.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a about above after again against all am an and any are as at be because
		been before being below between both but by can could did do does doing down during each few for from
		further had has have having he her here hers herself him himself his how i if in into is it its itself
		just me more most my myself no nor not now of off on once only or other our ours ourselves out over own
		same she should so some such than that the their theirs them themselves then there these they this
		those through to too under until up very was we were what when where which while who whom why will with
		would you your yours yourself yourselves also et al may might must shall via`) {
		stopWords[w] = true
	}
}

// IsStopWord reports whether w (lower case) is one of the English stop
// words BM25 leaves out.
func IsStopWord(w string) bool { return stopWords[w] }

// stemCache memoizes stems: a corpus has far fewer distinct words than
// words. It lives as long as the process (the MCP server, serve), so it
// holds at most maxStems words of at most maxStemLen bytes each, copied
// (a word is a substring of the text it was read from: kept as it is, it
// would keep that whole chunk or query in memory); past that, stems are
// computed each time.
var (
	stemCache sync.Map // string → string
	stems     atomic.Int64
)

const (
	maxStems   = 1 << 18
	maxStemLen = 64 // bytes; longer "words" (a hash, a run of letters) are not remembered
)

func stem(w string) string {
	if len(w) <= 2 || hasDigit(w) {
		return w // not stemmed: nothing to remember
	}
	if s, ok := stemCache.Load(w); ok {
		return s.(string)
	}
	s := english.Stem(w, false)
	if len(w) <= maxStemLen && stems.Load() < maxStems {
		if _, loaded := stemCache.LoadOrStore(strings.Clone(w), strings.Clone(s)); !loaded {
			stems.Add(1)
		}
	}
	return s
}

func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			return true
		}
	}
	return false
}

// words splits s into lower-case words of letters and digits with
// diacritics removed, in order, stop words included.
func words(s string) []string {
	if !isASCII(s) {
		s = foldDiacritics(s)
	}
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// terms returns the BM25 terms of s, in order, with repeats.
func terms(s string) []string {
	ws := words(s)
	out := ws[:0]
	for _, w := range ws {
		if stopWords[w] {
			continue
		}
		out = append(out, stem(w))
	}
	return out
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// foldDiacritics removes combining marks after canonical decomposition
// ("Müller" → "Muller") and expands compatibility forms (ligatures).
func foldDiacritics(s string) string {
	d := norm.NFKD.String(s)
	var b strings.Builder
	b.Grow(len(d))
	for _, r := range d {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// counter counts, in a text, the occurrences of a query's terms and
// prefixes without tokenizing and stemming every word: a word is stemmed
// only when its first letters are those of a query term (stemming changes
// endings, not beginnings), and a prefix is compared with the word itself.
type counter struct {
	terms    map[string]int // term → index in counts
	heads    map[string]bool
	prefixes []string
	cache    map[string]string // word → stem, for this query
	buf      []byte
}

const headLen = 3

func head(s string) string {
	if len(s) > headLen {
		return s[:headLen]
	}
	return s
}

func newCounter(terms, prefixes []string) *counter {
	c := &counter{terms: map[string]int{}, heads: map[string]bool{}, prefixes: prefixes, cache: map[string]string{}}
	for i, t := range terms {
		c.terms[t] = i
		c.heads[head(t)] = true
	}
	return c
}

// count returns the number of occurrences of each term (in the order
// given to newCounter) followed by each prefix, in the texts.
func (c *counter) count(texts ...string) []int {
	out := make([]int, len(c.terms)+len(c.prefixes))
	for _, s := range texts {
		c.scan(s, out)
	}
	return out
}

func (c *counter) scan(s string, out []int) {
	i := 0
	for i < len(s) {
		// Skip to the next letter or digit.
		r, size := rune(s[i]), 1
		if r >= 0x80 {
			r, size = decodeRune(s[i:])
		}
		if isBoundary(r) {
			i += size
			continue
		}
		start := i
		ascii := true
		for i < len(s) {
			r, size = rune(s[i]), 1
			if r >= 0x80 {
				r, size = decodeRune(s[i:])
				ascii = false
			}
			if isBoundary(r) {
				break
			}
			i += size
		}
		w := s[start:i]
		var word string
		if ascii {
			c.buf = c.buf[:0]
			for j := 0; j < len(w); j++ {
				b := w[j]
				if b >= 'A' && b <= 'Z' {
					b += 'a' - 'A'
				}
				c.buf = append(c.buf, b)
			}
			if stopWords[string(c.buf)] {
				continue
			}
			hd := c.buf
			if len(hd) > headLen {
				hd = hd[:headLen]
			}
			if !c.heads[string(hd)] && len(c.prefixes) == 0 {
				continue
			}
			word = string(c.buf)
		} else {
			ws := words(w)
			if len(ws) != 1 {
				for _, x := range ws {
					c.add(x, out)
				}
				continue
			}
			word = ws[0]
			if stopWords[word] {
				continue
			}
		}
		c.add(word, out)
	}
}

func (c *counter) add(word string, out []int) {
	if stopWords[word] {
		return
	}
	for k, p := range c.prefixes {
		if strings.HasPrefix(word, p) {
			out[len(c.terms)+k]++
		}
	}
	if !c.heads[head(word)] {
		return
	}
	st, ok := c.cache[word]
	if !ok {
		st = stem(word)
		c.cache[word] = st
	}
	if k, ok := c.terms[st]; ok {
		out[k]++
	}
}

// isBoundary reports whether r always separates words: ASCII characters
// other than letters and digits, and white space. Runs with other
// non-ASCII characters go through words(), exactly as terms() sees them
// (combining marks vanish, compatibility forms expand).
func isBoundary(r rune) bool {
	if r < 0x80 {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}
	return unicode.IsSpace(r)
}

func decodeRune(s string) (rune, int) {
	r, size := utf8.DecodeRuneInString(s)
	return r, size
}
