package main

import (
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/crossmem/crossmem/bench/internal/corpuslib"
	"github.com/crossmem/crossmem/internal/chunk"
)

// Query kinds of the mix, in equal shares.
const (
	kindWord   = "word"   // one content word, sampled by corpus frequency
	kindMulti  = "multi"  // 2–4 content words of one chunk, in chunk order
	kindPhrase = "phrase" // 6–12 consecutive words of a chunk, quoted
	kindPrefix = "prefix" // the first 3 letters of a content word + "*"
)

var kinds = []string{kindWord, kindMulti, kindPhrase, kindPrefix}

// benchQuery is one query of the mix.
type benchQuery struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// queryMix makes n queries (rounded up to a multiple of 4) from the corpus
// chunks, a quarter of each kind, in seeded random order. Words are drawn
// from the corpus's content words (3+ letters a–z, not stop words) with
// repeats, so a word's chance is its frequency; prefixes come from words of
// 4+ letters.
func queryMix(src []chunk.Chunk, n int, seed uint64) []benchQuery {
	rng := rand.New(rand.NewPCG(seed, 0x9e7))
	type chunkWords struct {
		content []string // distinct content words, in order
		tokens  []string // the reader-copied text split at white space
	}
	var stream []string
	var cws []chunkWords
	for _, c := range src {
		text := corpuslib.ReaderCopy(c.Text)
		var cw chunkWords
		seen := map[string]bool{}
		for _, w := range corpuslib.Words(text) {
			if corpuslib.ContentWord(w) {
				stream = append(stream, w)
				if !seen[w] {
					seen[w] = true
					cw.content = append(cw.content, w)
				}
			}
		}
		cw.tokens = strings.Fields(text)
		cws = append(cws, cw)
	}
	per := (n + len(kinds) - 1) / len(kinds)
	var out []benchQuery
	for i := 0; i < per; i++ {
		out = append(out, benchQuery{kindWord, stream[rng.IntN(len(stream))]})
		for {
			cw := cws[rng.IntN(len(cws))]
			if len(cw.content) < 4 {
				continue
			}
			k := 2 + rng.IntN(3)
			idx := rng.Perm(len(cw.content))[:k]
			slices.Sort(idx)
			ws := make([]string, k)
			for j, x := range idx {
				ws[j] = cw.content[x]
			}
			out = append(out, benchQuery{kindMulti, strings.Join(ws, " ")})
			break
		}
		for {
			cw := cws[rng.IntN(len(cws))]
			if len(cw.tokens) < 12 {
				continue
			}
			k := 6 + rng.IntN(7)
			start := rng.IntN(len(cw.tokens) - k + 1)
			phrase := strings.Join(cw.tokens[start:start+k], " ")
			out = append(out, benchQuery{kindPhrase, `"` + phrase + `"`})
			break
		}
		for {
			w := stream[rng.IntN(len(stream))]
			if len(w) < 4 {
				continue
			}
			out = append(out, benchQuery{kindPrefix, w[:3] + "*"})
			break
		}
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}
