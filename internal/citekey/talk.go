package citekey

import (
	"strconv"
	"strings"
	"unicode"
)

// MaxChannelSlug is the longest channel slug of a talk's key (the seed's
// 20 characters).
const MaxChannelSlug = 20

// Talk returns the seed's cite key of a recorded talk:
// {channel_slug}{year}{first noun of title}. The channel slug is the
// channel's name transliterated to ASCII, lower-cased, with everything but
// letters and digits removed, cut to MaxChannelSlug characters; the year
// is left out when 0. The "first noun" is found without a dictionary of
// nouns: it is the first title word, lower-cased ASCII letters and digits,
// that is not a skip-word of shorttitle, not one of the function words,
// question words, auxiliaries and imperative verbs that open talk titles
// ("what", "is", "let's", "build", "how", "why", "introducing"), and not a
// brand written with an inner capital ("OpenAI", "DeepMind", "YouTube")
// when a later word qualifies. So "But what is a neural network?" gives
// "neural", "Let's build GPT from scratch" "gpt", "OpenAI Sora" "sora".
// Without any such word the first word is used; without a title, "talk".
// The key passes Valid (it may start with a digit, as "3blue1brown2017neural"
// does) and is at most MaxMadeLen characters.
func Talk(channel string, year int, title string) string {
	slug := strings.ToLower(strings.Map(func(r rune) rune {
		if isASCIIAlnum(r) {
			return r
		}
		return -1
	}, fold(clip(channel))))
	if len(slug) > MaxChannelSlug {
		slug = slug[:MaxChannelSlug]
	}
	k := slug
	if year > 0 {
		k += strconv.Itoa(year)
	}
	k += firstNoun(title)
	if len(k) > MaxMadeLen {
		k = k[:MaxMadeLen]
	}
	if Valid(k) != nil {
		k = finish(k)
	}
	return k
}

// talkOpeners are words that open talk titles without naming their
// subject: question words, pronouns, auxiliaries and the imperative verbs
// of tutorials.
var talkOpeners = map[string]bool{
	"what": true, "how": true, "why": true, "who": true, "when": true, "where": true, "which": true, "whats": true,
	"is": true, "are": true, "was": true, "were": true, "be": true, "been": true, "do": true, "does": true, "did": true,
	"can": true, "could": true, "will": true, "would": true, "should": true, "shall": true, "may": true, "might": true, "must": true,
	"i": true, "we": true, "you": true, "it": true, "its": true, "this": true, "that": true, "these": true, "those": true,
	"my": true, "our": true, "your": true, "their": true, "his": true, "her": true, "there": true, "here": true,
	"lets": true, "let": true, "build": true, "make": true, "making": true, "building": true, "learn": true, "learning": true,
	"understand": true, "understanding": true, "introducing": true, "introduction": true, "intro": true,
	"explained": true, "explaining": true, "part": true, "episode": true, "ep": true, "lecture": true, "talk": true,
	"new": true, "really": true, "actually": true, "just": true, "not": true, "no": true, "yes": true, "all": true,
	"more": true, "most": true, "very": true, "so": true, "why's": true, "hows": true,
}

func firstNoun(title string) string {
	words := strings.Fields(strings.NewReplacer("/", " ", ":", " ", "|", " ", "—", " ", "–", " ").Replace(stripTags(title)))
	type cand struct {
		w     string
		brand bool
	}
	var cands []cand
	first := ""
	for _, raw := range words {
		w := strings.ToLower(strings.Map(func(r rune) rune {
			if isASCIIAlnum(r) {
				return r
			}
			return -1
		}, fold(raw)))
		if w == "" {
			continue
		}
		if first == "" {
			first = w
		}
		if skipWords[w] || talkOpeners[w] || (len(w) == 1 && !(w[0] >= '0' && w[0] <= '9')) {
			continue
		}
		cands = append(cands, cand{w, innerCapital(raw)})
	}
	for _, c := range cands {
		if !c.brand {
			return c.w
		}
	}
	if len(cands) > 0 {
		return cands[0].w
	}
	if first != "" {
		return first
	}
	return "talk"
}

// innerCapital reports whether a word has a capital letter after a
// lower-case one (camel case: OpenAI, DeepMind, YouTube, iPhone).
func innerCapital(w string) bool {
	lower := false
	for _, r := range w {
		if unicode.IsUpper(r) && lower {
			return true
		}
		lower = unicode.IsLower(r)
	}
	return false
}
