package citekey

// skipWords are the words the shorttitle token leaves out, compared in lower
// case after transliteration and punctuation removal.
//
// The first block is Better BibTeX's default skip-word list (122 entries,
// "dell" listed twice upstream), copied from
// retorquere/zotero-better-bibtex content/Preferences/preferences.yaml
// (skipWords default) at commit 73dd6799831d1c11f0186bd44bbb26c43b95e521, as
// recorded in ../shared/corpus/citekeys/skipwords_default.txt.
//
// The second block is crossmem's own addition. The seed's shorttitle
// description filters "a, an, the, is, are, was, for, of, with, …" and its
// example "Attention Is All You Need" → [shorttitle:3] → "attentionneed"
// drops "All" and "You", which the Better BibTeX list keeps. Only the words
// the seed names or needs are added, so every other title keys as in Better
// BibTeX.
var skipWords = map[string]bool{
	// Better BibTeX default skipWords.
	"a": true, "ab": true, "aboard": true, "about": true, "above": true,
	"across": true, "after": true, "against": true, "al": true, "along": true,
	"amid": true, "among": true, "an": true, "and": true, "anti": true,
	"around": true, "as": true, "at": true, "before": true, "behind": true,
	"below": true, "beneath": true, "beside": true, "besides": true,
	"between": true, "beyond": true, "but": true, "by": true, "d": true,
	"da": true, "das": true, "de": true, "del": true, "dell": true,
	"dello": true, "dei": true, "degli": true, "della": true, "delle": true,
	"dem": true, "den": true, "der": true, "des": true, "despite": true,
	"die": true, "do": true, "down": true, "du": true, "during": true,
	"ein": true, "eine": true, "einem": true, "einen": true, "einer": true,
	"eines": true, "el": true, "en": true, "et": true, "except": true,
	"for": true, "from": true, "gli": true, "i": true, "il": true, "in": true,
	"inside": true, "into": true, "is": true, "l": true, "la": true,
	"las": true, "le": true, "les": true, "like": true, "lo": true,
	"los": true, "near": true, "nor": true, "of": true, "off": true,
	"on": true, "onto": true, "or": true, "over": true, "past": true,
	"per": true, "plus": true, "round": true, "save": true, "since": true,
	"so": true, "some": true, "sur": true, "than": true, "the": true,
	"through": true, "to": true, "toward": true, "towards": true, "un": true,
	"una": true, "unas": true, "under": true, "underneath": true, "une": true,
	"unlike": true, "uno": true, "unos": true, "until": true, "up": true,
	"upon": true, "versus": true, "via": true, "von": true, "while": true,
	"with": true, "within": true, "without": true, "yet": true, "zu": true,
	"zum": true,

	// crossmem additions required by the seed (see above).
	"are": true, "was": true, "all": true, "you": true,
}
