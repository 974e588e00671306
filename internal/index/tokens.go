package index

import (
	"strings"
	"sync"
	"unicode"

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

// stemCache memoizes stems: a corpus has far fewer distinct words than
// words.
var stemCache sync.Map // string → string

func stem(w string) string {
	if s, ok := stemCache.Load(w); ok {
		return s.(string)
	}
	s := w
	if len(w) > 2 && !hasDigit(w) {
		s = english.Stem(w, false)
	}
	stemCache.Store(w, s)
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
