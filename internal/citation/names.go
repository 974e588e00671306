package citation

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/crossmem/crossmem/internal/csl"
)

// person is a csl.Name split the way CSL styles need it.
type person struct {
	literal  string // whole name for single-name, corporate and CJK authors
	family   string // family name without particles or suffix
	particle string // non-dropping particle ("dos", "van der"), kept before the family name
	dropping string // dropping particle ("van" of Ludwig van Beethoven), after the given name when inverted
	given    string
	suffix   string // "Jr.", "III"
}

// nameSuffixes are the generational suffixes recognised after a comma.
var nameSuffixes = map[string]bool{
	"jr": true, "jr.": true, "sr": true, "sr.": true,
	"ii": true, "iii": true, "iv": true, "v": true, "vi": true,
}

// parseName splits n for display; ok is false when the name is empty.
// When n has no particle fields, leading lower-case words of a multi-word
// family name become the non-dropping particle, as citeproc-js parses
// them.
func parseName(n csl.Name) (person, bool) {
	lit := typographic(clean(n.Literal))
	if lit != "" {
		return person{literal: lit}, true
	}
	var p person
	family, given, suffix := splitSuffix(typographic(clean(n.Family)), typographic(clean(n.Given)))
	if s := typographic(clean(n.Suffix)); s != "" {
		suffix = s
	}
	p.suffix = suffix
	p.particle = typographic(clean(n.NonDroppingParticle))
	p.dropping = typographic(clean(n.DroppingParticle))
	switch {
	case family == "" && given == "":
		if p.particle == "" && p.dropping == "" {
			return person{}, false
		}
		return person{literal: join(" ", p.dropping, p.particle, p.suffix)}, true
	case family == "" || given == "":
		p.literal = join(" ", p.dropping, p.particle, family+given, p.suffix)
		return p, true
	case isCJK(family) || isCJK(given):
		return person{literal: join("", p.dropping, p.particle, family, given)}, true
	}
	p.given = spaceInitials(given)
	p.family = family
	if p.particle == "" && p.dropping == "" {
		if words := strings.Fields(family); len(words) > 1 {
			k := 0
			for k < len(words)-1 && startsLower(words[k]) {
				k++
			}
			if k > 0 {
				p.particle = strings.Join(words[:k], " ")
				p.family = strings.Join(words[k:], " ")
			}
		}
	}
	return p, true
}

// spaceInitials puts a space between run-together initials, "M.F." →
// "M. F.", as citeproc-js does.
func spaceInitials(given string) string {
	var b strings.Builder
	prev := rune(0)
	for _, r := range given {
		if prev == '.' && unicode.IsUpper(r) {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
		prev = r
	}
	return b.String()
}

// splitSuffix moves a generational suffix written after a comma in the
// given name ("Amos B., III") or the family name ("Smith, Jr.") out of both.
func splitSuffix(family, given string) (f, g, suffix string) {
	if i := strings.LastIndex(given, ","); i >= 0 && nameSuffixes[strings.ToLower(strings.TrimSpace(given[i+1:]))] {
		suffix = strings.TrimSpace(given[i+1:])
		given = strings.TrimSpace(given[:i])
	}
	if i := strings.LastIndex(family, ","); i >= 0 && nameSuffixes[strings.ToLower(strings.TrimSpace(family[i+1:]))] {
		suffix = strings.TrimSpace(family[i+1:])
		family = strings.TrimSpace(family[:i])
	}
	return family, given, suffix
}

func startsLower(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsLower(r)
}

func isCJK(s string) bool {
	for _, r := range s {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
			return true
		}
	}
	return false
}

// fullFamily is the family name with its non-dropping particle: "dos
// Santos".
func (p person) fullFamily() string { return join(" ", p.particle, p.family) }

// inverted renders "Family, Given[, Suffix]" with the dropping particle
// after the given name ("Beethoven, Ludwig van"); with demote the
// non-dropping particle moves there too ("Santos, Valérie dos", Chicago).
func (p person) inverted(demote bool) string {
	if p.literal != "" {
		return p.literal
	}
	s := p.fullFamily() + ", " + join(" ", p.given, p.dropping)
	if demote {
		s = p.family + ", " + join(" ", p.given, p.dropping, p.particle)
	}
	return join(", ", s, p.suffix)
}

// natural renders "Given Family[ Suffix]".
func (p person) natural() string {
	if p.literal != "" {
		return p.literal
	}
	return join(" ", p.given, p.dropping, p.fullFamily(), p.suffix)
}

// invertedInitials renders "Family, I. I.[, Suffix]" (APA).
func (p person) invertedInitials() string {
	if p.literal != "" {
		return p.literal
	}
	return join(", ", p.fullFamily(), join(" ", initials(p.given), p.dropping), p.suffix)
}

// naturalInitials renders "I. I. Family[ Suffix]" (IEEE, APA's editors).
func (p person) naturalInitials() string {
	if p.literal != "" {
		return p.literal
	}
	return join(" ", initials(p.given), p.dropping, p.fullFamily(), p.suffix)
}

// initials abbreviates given names as citeproc-js does with
// initialize-with ". ": "Aidan N." → "A. N.", "Ming-Wei" → "M.-W.",
// "Ken-ichi" → "K.", "M.F." → "M. F."; lower-case particles stay ("Jéssica
// da C." → "J. da C.").
func initials(given string) string {
	var out []string
	for _, word := range strings.Fields(given) {
		if startsLower(word) {
			out = append(out, word)
			continue
		}
		for _, piece := range strings.Split(word, ".") {
			if piece == "" {
				continue
			}
			var b strings.Builder
			for i, part := range strings.Split(piece, "-") {
				r, _ := utf8.DecodeRuneInString(part)
				if r == utf8.RuneError {
					continue
				}
				if i > 0 {
					if !unicode.IsUpper(r) {
						continue
					}
					b.WriteString("-")
				}
				b.WriteRune(unicode.ToUpper(r))
				b.WriteString(".")
			}
			if b.Len() > 0 {
				out = append(out, b.String())
			}
		}
	}
	return strings.Join(out, " ")
}

// list joins names as "A, B, and C" style lists: sep between items, last
// before the final item when there are more than two, pair between exactly
// two.
func list(names []string, sep, pair, last string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	case 2:
		return names[0] + pair + names[1]
	}
	return strings.Join(names[:len(names)-1], sep) + last + names[len(names)-1]
}
