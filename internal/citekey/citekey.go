// Package citekey makes cite keys: the short, stable, file-name-safe names
// (vaswani2017attention) that identify a captured work in the library, in
// wiki notes and in the crossmem_cite MCP tool.
//
// It is pure: it takes a *metadata.Record, does no I/O and keeps no state.
// It never decides whether a key is free; Unique asks the caller through a
// callback, so the library stays the one owner of the set of taken keys.
//
// # Pattern DSL
//
// Make evaluates crossmem's pattern DSL, the seed's "cite_key Pattern DSL".
// It is crossmem's own language, inspired by Better BibTeX's legacy bracket
// formulas but not compatible with them (":N" is a crossmem extension;
// docs/cite-keys.md has the full description and the differences). A
// pattern is literal text with tokens in brackets:
//
//	[field:modifier1:modifier2]literal_text[field2]
//
// Fields:
//
//	auth        the first author's name (see Names)
//	authors     every author's name, separated by spaces, which the final
//	            clean-up removes: "VaswaniShazeer"
//	year        the issued year
//	shorttitle  the first N significant title words, lower-cased (N from a
//	            numeric modifier, 3 when none is given)
//	title       the whole title
//
// Modifiers, applied left to right:
//
//	lower       lower-case
//	upper       upper-case
//	nopunct     remove every character that is not an ASCII letter or digit
//	            (spaces too)
//	condense    remove whitespace
//	N           (a positive integer) keep the first N whitespace-delimited
//	            words; for shorttitle that is the number of significant words
//
// shorttitle splits the title at whitespace, "/" and ":", transliterates each
// word, deletes everything but letters and digits inside it ("Pre-training"
// → "pretraining", "Don't" → "dont"), then drops skip-words and one-character
// words other than digits, as Better BibTeX does. The skip-words are Better
// BibTeX's default list plus "are", "was", "all" and "you", which the seed's
// example needs ([shorttitle:3] of "Attention Is All You Need" is
// "attentionneed"). Unlike Better BibTeX, shorttitle is always lower case and
// ":1" is a crossmem word-count modifier, not Better BibTeX syntax.
//
// # Names
//
// auth and authors use the authors, or the editors when there is no author
// (an edited volume). A person's name is the family name as stored,
// particles included ("de Oliveira" → deOliveira, "van der Putten" →
// vanderPutten), without a generational suffix written after a comma
// ("King, Jr." → King); a single-name or corporate author (a literal name,
// or a family name alone) is used whole ("OECD", "World Health
// Organization" → WorldHealthOrganization); a name with only a given name
// uses it. Each name is transliterated and loses everything but A–Z a–z
// 0–9 _ -, so it is one word: [authors:2] is the first two names and
// [auth:1] the whole name. A name that leaves nothing is skipped.
//
// # Safety and fallbacks
//
// Every metadata value is normalised to NFC and transliterated to ASCII with
// go-unidecode (Müller → Muller, Łukasz → Lukasz, ø → o, ß → ss, Достоевский
// → Dostoevskii; Chinese characters, Japanese kanji included, become
// toneless pinyin, kana and Hangul are romanised: 宮地 → GongDi, 김철수 →
// gimceolsu) before the modifiers run; afterwards only A–Z, a–z, 0–9, "_"
// and "-" survive from it. Literal text in a pattern may only use those
// characters and "." (":" is refused: it is not portable in file names); a
// pattern with "/", "\" or ".." is an error, so no metadata and no pattern
// can put a path separator into a key.
//
// Missing values have fixed fallbacks: no author or editor name → "anon"; no
// year → "nd"; no title → nothing for shorttitle and title. After assembly,
// runs of "." are collapsed, trailing dots removed, and a key that is empty
// or does not start with an ASCII letter gets the prefix "key" ("[year]" →
// "key2017"). Keys are cut to MaxMadeLen characters so that Unique's
// suffixes still fit under MaxLen. A key from Make therefore always passes
// Valid. Make reads only the first 4,096 bytes of a title or name and the
// first 1,000 authors or editors, which no 80-character key can exceed, so
// a key costs little whatever the metadata holds.
//
// Make is deterministic; crossmem calls it once, at capture, and pins the
// key in the paper's sidecar, so a later pattern change or metadata refresh
// never changes an existing key.
package citekey

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mozillazg/go-unidecode"
	"golang.org/x/text/unicode/norm"

	"github.com/crossmem/crossmem/internal/metadata"
)

// MaxLen is the longest cite key Valid accepts.
const MaxLen = 100

// MaxMadeLen is the longest key Make returns, leaving room under MaxLen for
// the suffixes Unique appends.
const MaxMadeLen = 80

// Make reads at most maxFieldBytes of a title or a name and the first
// maxNames authors or editors: no key can show more, and the bound keeps the
// cost of a key small whatever the metadata holds.
const (
	maxFieldBytes = 4096
	maxNames      = 1000
)

// MaxPatternLen is the longest pattern Make accepts, in bytes; it bounds
// the work one key can cost.
const MaxPatternLen = 1000

// Fallback values used by Make when the record lacks a value.
const (
	FallbackAuthor = "anon" // auth and authors when there is no author or editor name
	FallbackYear   = "nd"   // year when the year is unknown ("no date")
	FallbackPrefix = "key"  // prefixed when a key is empty or starts with a non-letter
)

// defaultShortTitleWords is the shorttitle word count when the token has no
// numeric modifier (Better BibTeX's shorttitle default).
const defaultShortTitleWords = 3

// Default returns the seed's default pattern,
// "[auth:lower][year][shorttitle:1:nopunct]".
func Default() string { return "[auth:lower][year][shorttitle:1:nopunct]" }

// Make evaluates pattern (see the package doc) over rec and returns the cite
// key. The key is never empty, starts with an ASCII letter, is at most
// MaxMadeLen characters and passes Valid. Make returns an error, and no
// key, when rec is nil or the pattern is malformed: empty or longer than
// MaxPatternLen, an unknown field or modifier, unbalanced or nested
// brackets, a zero word count, or literal text with characters other than
// A–Z a–z 0–9 _ - . (in particular "/", "\" or "..").
func Make(pattern string, rec *metadata.Record) (string, error) {
	if rec == nil {
		return "", errors.New("make cite key: nil record")
	}
	parts, err := parse(pattern)
	if err != nil {
		return "", err
	}
	fv := fieldValues{rec: rec, cache: map[string]string{}}
	var b strings.Builder
	kept := 0 // characters other than "." written: finish keeps all of them
	for _, p := range parts {
		if kept > MaxMadeLen {
			break // finish would cut whatever came next
		}
		v := p.lit
		if p.tok != nil {
			v = safe(p.tok.eval(fv))
		}
		b.WriteString(v)
		kept += len(v) - strings.Count(v, ".")
	}
	return finish(b.String()), nil
}

// part is one piece of a parsed pattern: literal text or a token.
type part struct {
	lit string
	tok *token
}

type token struct {
	field string
	mods  []string
}

var fields = map[string]bool{"auth": true, "authors": true, "year": true, "shorttitle": true, "title": true}

var modifiers = map[string]bool{"lower": true, "upper": true, "nopunct": true, "condense": true}

// parse splits pattern into literals and tokens and validates both.
func parse(pattern string) ([]part, error) {
	if strings.TrimSpace(pattern) == "" {
		return nil, errors.New("cite key pattern is empty")
	}
	if len(pattern) > MaxPatternLen {
		return nil, fmt.Errorf("cite key pattern is %d bytes long, more than %d", len(pattern), MaxPatternLen)
	}
	if strings.ContainsAny(pattern, `/\`) || strings.Contains(pattern, "..") {
		return nil, fmt.Errorf("cite key pattern %q: must not contain \"/\", \"\\\" or \"..\"", pattern)
	}
	var parts []part
	rest := pattern
	for rest != "" {
		open := strings.IndexByte(rest, '[')
		closing := strings.IndexByte(rest, ']')
		if closing >= 0 && (open < 0 || closing < open) {
			return nil, fmt.Errorf("cite key pattern %q: \"]\" without \"[\"", pattern)
		}
		if open < 0 {
			open = len(rest)
		}
		if lit := rest[:open]; lit != "" {
			if err := checkLiteral(lit); err != nil {
				return nil, fmt.Errorf("cite key pattern %q: %w", pattern, err)
			}
			parts = append(parts, part{lit: lit})
		}
		rest = rest[open:]
		if rest == "" {
			break
		}
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return nil, fmt.Errorf("cite key pattern %q: \"[\" without \"]\"", pattern)
		}
		body := rest[1:end]
		if strings.ContainsRune(body, '[') {
			return nil, fmt.Errorf("cite key pattern %q: nested \"[\"", pattern)
		}
		tok, err := parseToken(body)
		if err != nil {
			return nil, fmt.Errorf("cite key pattern %q: %w", pattern, err)
		}
		parts = append(parts, part{tok: tok})
		rest = rest[end+1:]
	}
	return parts, nil
}

func parseToken(body string) (*token, error) {
	items := strings.Split(body, ":")
	field := strings.TrimSpace(items[0])
	if !fields[field] {
		return nil, fmt.Errorf("unknown field %q in [%s] (fields: auth, authors, year, shorttitle, title)", field, body)
	}
	t := &token{field: field}
	for _, m := range items[1:] {
		m = strings.TrimSpace(m)
		if n, err := strconv.Atoi(m); err == nil {
			if n < 1 {
				return nil, fmt.Errorf("word count %d in [%s] must be at least 1", n, body)
			}
		} else if !modifiers[m] {
			return nil, fmt.Errorf("unknown modifier %q in [%s] (modifiers: lower, upper, nopunct, condense, or a word count)", m, body)
		}
		t.mods = append(t.mods, m)
	}
	return t, nil
}

func checkLiteral(lit string) error {
	for _, r := range lit {
		if !isSafeRune(r) && r != '.' {
			return fmt.Errorf("literal text %q has %q: use only A-Z a-z 0-9 _ - and dots", lit, r)
		}
	}
	return nil
}

// eval returns the token's value with its modifiers applied; the caller
// removes unsafe characters.
func (t *token) eval(fv fieldValues) string {
	v := fv.get(t.field)
	mods := t.mods
	if t.field == "shorttitle" && !hasCount(mods) {
		mods = append([]string{strconv.Itoa(defaultShortTitleWords)}, mods...)
	}
	for _, m := range mods {
		v = apply(m, v)
	}
	return v
}

// fieldValues computes each field's value for one Make call, before
// modifiers, at most once however many tokens use it.
type fieldValues struct {
	rec   *metadata.Record
	cache map[string]string
}

func (fv fieldValues) get(field string) string {
	if v, ok := fv.cache[field]; ok {
		return v
	}
	rec := fv.rec
	var v string
	switch field {
	case "auth":
		v = FallbackAuthor
		if names := keyNames(rec); len(names) > 0 {
			v = names[0]
		}
	case "authors":
		v = FallbackAuthor
		if names := keyNames(rec); len(names) > 0 {
			v = strings.Join(names, " ")
		}
	case "year":
		v = FallbackYear
		if rec.Issued.Year > 0 {
			v = strconv.Itoa(rec.Issued.Year)
		}
	case "shorttitle":
		v = strings.Join(titleWords(clip(rec.Title)), " ")
	case "title":
		v = fold(stripTags(clip(rec.Title)))
	}
	fv.cache[field] = v
	return v
}

// keyNames returns the names the auth and authors tokens use: one per
// author, else (a work with no author, such as an edited volume) one per
// editor, skipping names that leave nothing once transliterated. Each is
// one word: the surname folded to ASCII with its inner whitespace removed
// ("de Oliveira" → "deOliveira", 魏笑 → "WeiXiao"), so that a word count
// counts names.
func keyNames(rec *metadata.Record) []string {
	for _, list := range [][]metadata.Name{rec.Authors, rec.Editors} {
		if len(list) > maxNames {
			list = list[:maxNames]
		}
		var out []string
		for _, n := range list {
			if s := safe(fold(clip(surname(n)))); s != "" {
				out = append(out, s)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

// surname is the name a key uses for a person: the family name as stored,
// particles included ("de Oliveira", "van der Putten"), without a
// generational suffix written after a comma ("King, Jr." → "King"); else
// the literal name of a single-name or corporate author, whole; else a lone
// given name.
func surname(n metadata.Name) string {
	if f := strings.TrimSpace(n.Family); f != "" {
		if i := strings.LastIndexByte(f, ','); i > 0 && nameSuffixes[strings.ToLower(strings.TrimSpace(f[i+1:]))] {
			f = strings.TrimSpace(f[:i])
		}
		return f
	}
	if l := strings.TrimSpace(n.Literal); l != "" {
		return l
	}
	return n.Given
}

// nameSuffixes are the generational suffixes surname drops after a comma.
var nameSuffixes = map[string]bool{
	"jr": true, "jr.": true, "sr": true, "sr.": true,
	"ii": true, "iii": true, "iv": true, "v": true, "vi": true,
}

func hasCount(mods []string) bool {
	for _, m := range mods {
		if _, err := strconv.Atoi(m); err == nil {
			return true
		}
	}
	return false
}

func apply(mod, v string) string {
	switch mod {
	case "lower":
		return strings.ToLower(v)
	case "upper":
		return strings.ToUpper(v)
	case "nopunct":
		return strings.Map(func(r rune) rune {
			if isASCIIAlnum(r) {
				return r
			}
			return -1
		}, v)
	case "condense":
		return strings.Map(func(r rune) rune {
			if unicode.IsSpace(r) {
				return -1
			}
			return r
		}, v)
	}
	n, _ := strconv.Atoi(mod) // parseToken accepted only numbers and known names
	words := strings.Fields(v)
	if len(words) > n {
		words = words[:n]
	}
	return strings.Join(words, " ")
}

// titleWords returns the significant words of title, lower-cased ASCII.
func titleWords(title string) []string {
	title = strings.NewReplacer("/", " ", ":", " ", `"`, " ").Replace(stripTags(title))
	var out []string
	for _, w := range strings.Fields(title) {
		w = strings.ToLower(strings.Map(func(r rune) rune {
			if isASCIIAlnum(r) {
				return r
			}
			return -1
		}, fold(w)))
		if w == "" || skipWords[w] {
			continue
		}
		if len(w) == 1 && !(w[0] >= '0' && w[0] <= '9') {
			continue
		}
		out = append(out, w)
	}
	return out
}

// stripTags removes the inline markup metadata sources put in titles
// (<i>, <b>, <sub>, <sup>, <sc>, <span ...>), keeping the text inside.
func stripTags(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.IndexByte(s[i:], '>')
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		if k := strings.LastIndexByte(s[i+1:i+j], '<'); k >= 0 {
			// Restart at the last "<" before ">", keeping this linear.
			b.WriteString(s[:i+1+k])
			s = s[i+1+k:]
			continue
		}
		if !isInlineTag(s[i+1 : i+j]) {
			b.WriteString(s[:i+1])
			s = s[i+1:]
			continue
		}
		b.WriteString(s[:i])
		s = s[i+j+1:]
	}
}

func isInlineTag(t string) bool {
	t = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(t)), "/")
	if name, _, ok := strings.Cut(t, " "); ok {
		return name == "span"
	}
	switch t {
	case "i", "b", "em", "strong", "sub", "sup", "sc", "span", "u":
		return true
	}
	return false
}

// clip returns s cut to at most maxFieldBytes, at a UTF-8 boundary.
func clip(s string) string {
	if len(s) <= maxFieldBytes {
		return s
	}
	n := maxFieldBytes
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// fold normalises s to NFC and transliterates it to ASCII.
func fold(s string) string {
	return strings.TrimSpace(unidecode.Unidecode(norm.NFC.String(s)))
}

// safe keeps only A–Z a–z 0–9 _ -.
func safe(s string) string {
	return strings.Map(func(r rune) rune {
		if isSafeRune(r) {
			return r
		}
		return -1
	}, s)
}

func isSafeRune(r rune) bool {
	return isASCIIAlnum(r) || r == '_' || r == '-'
}

func isASCIIAlnum(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

func isASCIILetter(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// finish applies the documented fallbacks to an assembled key.
func finish(k string) string {
	for strings.Contains(k, "..") {
		k = strings.ReplaceAll(k, "..", ".")
	}
	k = strings.TrimRight(k, ".")
	if k == "" || !isASCIILetter(k[0]) {
		k = FallbackPrefix + k
	}
	if len(k) > MaxMadeLen {
		k = strings.TrimRight(k[:MaxMadeLen], ".")
	}
	return k
}

// FromFileName makes a cite key from the name of a file (a PDF that gives
// no title to make one with Make): the name without its directory and its
// ".pdf" extension (any case), transliterated to ASCII as metadata values
// are, lower-cased, with every run of characters other than a–z 0–9 and
// "_" turned into one "-" and leading and trailing "-" dropped; then
// Make's fallbacks (prefix "key" when it does not start with a letter, at
// most MaxMadeLen characters). "paper 2 (final).pdf" → "paper-2-final",
// "2305.03393v1-pg9.pdf" → "key2305-03393v1-pg9". It returns "" when the
// name has no letter or digit. The result passes Valid.
func FromFileName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	if n := len(name); n >= 4 && strings.EqualFold(name[n-4:], ".pdf") {
		name = name[:n-4]
	}
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(fold(clip(name))) {
		if isASCIIAlnum(r) || r == '_' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	k := strings.Trim(b.String(), "_")
	if !strings.ContainsFunc(k, isASCIIAlnum) {
		return ""
	}
	k = finish(k)
	return strings.TrimRight(k, "-_")
}
