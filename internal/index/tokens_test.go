package index

import (
	"math/rand"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// The fast counter agrees with terms(), which the document frequencies
// are computed with.
func TestCounterMatchesTerms(t *testing.T) {
	texts := []string{
		"The Transformer uses multi-head self-attention; attention heads attend to positions.",
		"Müller's state-of-the-art results on ImageNet-1k (top-1: 88.5%) use ConvNets.",
		"Résumé of naïve Bayes classifiers — 3D point clouds, COVID-19 and ﬁne-tuning.",
		"Running runners ran; the runs were running fast. Studies study studying studied.",
		"",
	}
	r := rand.New(rand.NewSource(1))
	for _, text := range texts {
		all := terms(text)
		want := map[string]int{}
		for _, t := range all {
			want[t]++
		}
		// Query terms: every term of the text, and some that are absent.
		qs := append(distinct(all), stem("zebra"), stem("quantum"))
		r.Shuffle(len(qs), func(i, j int) { qs[i], qs[j] = qs[j], qs[i] })
		got := newCounter(qs, []string{"run", "att"}).count(text)
		for i, q := range qs {
			if got[i] != want[q] {
				t.Errorf("%q: term %q counted %d, terms() has %d", text, q, got[i], want[q])
			}
		}
		runs, atts := 0, 0
		for _, w := range words(text) {
			if stopWords[w] {
				continue
			}
			if strings.HasPrefix(w, "run") {
				runs++
			}
			if strings.HasPrefix(w, "att") {
				atts++
			}
		}
		if got[len(qs)] != runs || got[len(qs)+1] != atts {
			t.Errorf("%q: prefixes counted %d, %d; want %d, %d", text, got[len(qs)], got[len(qs)+1], runs, atts)
		}
	}
}

func FuzzCounter(f *testing.F) {
	f.Add("Attention is all you need; ﬁne-tuned Müller résumé 3D", "attention")
	f.Fuzz(func(t *testing.T, text, query string) {
		qs := distinct(terms(query))
		want := map[string]int{}
		for _, x := range terms(text) {
			want[x]++
		}
		got := newCounter(qs, nil).count(text)
		for i, q := range qs {
			if got[i] != want[q] {
				t.Fatalf("text %q term %q: counter %d, terms %d", text, q, got[i], want[q])
			}
		}
	})
}

// The stem cache lives as long as the process: a server fed many distinct
// words (or a hostile note's random ones) keeps at most maxStems of them,
// and never the words that are not stemmed (with a digit, or short). The
// stems are the same with the cache full.
func TestStemCacheBounded(t *testing.T) {
	for i := range maxStems + 5000 {
		w := "zq" + strconv.FormatInt(int64(i), 26)
		w = strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return 'a' + r - '0'
			}
			return r
		}, w) + "ings"
		stem(w)
	}
	stem("model2024")
	n := 0
	stemCache.Range(func(k, _ any) bool {
		n++
		if hasDigit(k.(string)) {
			t.Errorf("%q cached", k)
		}
		return true
	})
	if n > maxStems {
		t.Errorf("%d stems cached, at most %d wanted", n, maxStems)
	}
	if got := stem("running"); got != "run" {
		t.Errorf("stem(running) = %q with the cache full", got)
	}
}

// A remembered word is a copy: the words of a chunk or query are
// substrings of its (lower-cased) text, and a cache entry that shared
// their memory would keep the whole text alive for the life of the
// process. Words longer than maxStemLen are not remembered at all.
func TestStemCacheCopies(t *testing.T) {
	stemCache.Clear()
	stems.Store(0)
	text := strings.Repeat("filler ", 10000) + "quasicrystalline " + strings.Repeat("q", 5000)
	ws := words(text)
	long := ws[len(ws)-1]
	for _, w := range ws[len(ws)-2:] {
		stem(w)
	}
	lo := uintptr(unsafe.Pointer(unsafe.StringData(text)))
	hi := lo + uintptr(len(text))
	found := false
	stemCache.Range(func(k, v any) bool {
		for _, s := range []string{k.(string), v.(string)} {
			if p := uintptr(unsafe.Pointer(unsafe.StringData(s))); p >= lo && p < hi {
				t.Errorf("cached %q shares the text's memory", s)
			}
		}
		for _, w := range ws[len(ws)-2:] {
			if p := uintptr(unsafe.Pointer(unsafe.StringData(k.(string)))); p == uintptr(unsafe.Pointer(unsafe.StringData(w))) {
				t.Errorf("cached key %.20q… is the word's own memory", k)
			}
		}
		if k.(string) == long {
			t.Errorf("a %d-byte word is cached", len(long))
		}
		if k.(string) == "quasicrystalline" {
			found = true
		}
		return true
	})
	if !found {
		t.Error("quasicrystalline not cached")
	}
}
