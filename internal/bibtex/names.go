package bibtex

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/crossmem/crossmem/internal/csl"
	"github.com/crossmem/crossmem/internal/latex"
)

// names converts a BibTeX name list by BibTeX's rules:
//
//   - names are separated by "and" outside braces; "and others" is
//     dropped with a warning (CSL has no "et al." name);
//   - "First von Last": the von part runs from the first to the last word
//     that starts with a lower-case letter, not counting the last word;
//   - "von Last, First" and "von Last, Jr, First": von is everything up to
//     the last lower-case word before the last word of the first part;
//   - a word's case is that of its first letter outside braces, or of the
//     special character in a {\x ...} group; other braced text is caseless,
//     so "{van Gogh}, Vincent" has the family name "van Gogh";
//   - a name that is one braced group, "{World Health Organization}", is a
//     Literal;
//   - biblatex's "family=Smith, given=John, prefix=van, suffix=Jr" form is
//     read by its keys;
//   - von becomes NonDroppingParticle, Jr becomes Suffix; a name with only
//     a first part keeps it as Family.
func (c *conv) names(field string) []csl.Name {
	raw, ok := c.e.Lookup(field)
	if !ok {
		return nil
	}
	var out []csl.Name
	var cur []string
	flush := func() {
		if len(cur) == 0 {
			return
		}
		ws := cur
		cur = nil
		if len(ws) == 1 && strings.EqualFold(ws[0], "others") {
			c.warnf("%s list ends with \"and others\"; the unnamed %ss are left out", field, field)
			return
		}
		if n, ok := c.name(ws); ok {
			out = append(out, n)
		} else {
			c.warnf("an empty name in the %s list is left out", field)
		}
	}
	for _, w := range nameWords(raw) {
		if strings.EqualFold(w, "and") {
			flush()
			continue
		}
		cur = append(cur, w)
	}
	flush()
	return out
}

// name converts one name given as its words; ok is false when it is empty.
func (c *conv) name(ws []string) (csl.Name, bool) {
	whole := strings.Join(ws, " ")
	parts := splitTopLevel(whole, ',')
	empty := true
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
		if parts[i] != "" {
			empty = false
		}
	}
	if empty {
		return csl.Name{}, false
	}
	if n, ok := c.keyValueName(parts); ok {
		return n, !n.IsZero()
	}
	var first, von, last, jr []string
	switch len(parts) {
	case 1:
		words := nameWords(parts[0])
		if len(words) == 1 && isBracedGroup(words[0]) {
			return csl.Name{Literal: c.decode(words[0])}, true
		}
		first, von, last = splitFirstVonLast(words)
	case 2:
		von, last = splitVonLast(nameWords(parts[0]))
		first = nameWords(parts[1])
	default:
		von, last = splitVonLast(nameWords(parts[0]))
		jr = nameWords(parts[1])
		if len(parts) > 3 {
			c.warnf("name %q has more than two commas; the parts after the second comma are read as the given name", c.decode(whole))
		}
		first = nameWords(strings.Join(parts[2:], ", "))
	}
	n := csl.Name{
		Family:              c.decode(strings.Join(last, " ")),
		Given:               c.decode(strings.Join(first, " ")),
		NonDroppingParticle: c.decode(strings.Join(von, " ")),
		Suffix:              c.decode(strings.Join(jr, " ")),
	}
	if n.Family == "" && n.NonDroppingParticle == "" {
		n.Family, n.Given = n.Given, ""
	}
	return n, !n.IsZero()
}

// keyValueName reads biblatex's extended name format.
func (c *conv) keyValueName(parts []string) (csl.Name, bool) {
	var n csl.Name
	known := false
	for _, p := range parts {
		if p == "" {
			continue
		}
		k, v, ok := strings.Cut(p, "=")
		if !ok {
			return csl.Name{}, false
		}
		k = strings.ToLower(strings.TrimSpace(k))
		for _, r := range k {
			if !(r >= 'a' && r <= 'z' || r == '-') {
				return csl.Name{}, false
			}
		}
		switch k {
		case "family":
			n.Family = c.decode(v)
		case "given":
			n.Given = c.decode(v)
		case "prefix":
			n.NonDroppingParticle = c.decode(v)
		case "suffix":
			n.Suffix = c.decode(v)
		default:
			continue // useprefix, given-i, ...
		}
		known = true
	}
	return n, known
}

func splitFirstVonLast(ws []string) (first, von, last []string) {
	n := len(ws)
	if n <= 1 {
		return nil, nil, ws
	}
	start := -1
	for i := 0; i < n-1; i++ {
		if isLowerWord(ws[i]) {
			start = i
			break
		}
	}
	if start < 0 {
		return ws[:n-1], nil, ws[n-1:]
	}
	end := start
	for i := n - 2; i > start; i-- {
		if isLowerWord(ws[i]) {
			end = i
			break
		}
	}
	return ws[:start], ws[start : end+1], ws[end+1:]
}

func splitVonLast(ws []string) (von, last []string) {
	for i := len(ws) - 2; i >= 0; i-- {
		if isLowerWord(ws[i]) {
			return ws[:i+1], ws[i+1:]
		}
	}
	return nil, ws
}

// isLowerWord reports whether a name word starts with a lower-case letter
// by BibTeX's rule (see names).
func isLowerWord(w string) bool {
	for i := 0; i < len(w); {
		switch w[i] {
		case '{':
			end := latex.MatchBrace(w, i)
			if end < 0 {
				return false
			}
			if i+1 < len(w) && w[i+1] == '\\' {
				return startsLower(latex.Decode(w[i : end+1]))
			}
			i = end + 1
		case '\\':
			return startsLower(latex.Decode(w[i:]))
		default:
			r, size := utf8.DecodeRuneInString(w[i:])
			if unicode.IsLetter(r) {
				return unicode.IsLower(r)
			}
			i += size
		}
	}
	return false
}

func startsLower(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return unicode.IsLower(r)
		}
	}
	return false
}

// isBracedGroup reports whether w is one {group} that is not a special
// character ({\"u}).
func isBracedGroup(w string) bool {
	return len(w) >= 2 && w[0] == '{' && w[1] != '\\' && latex.MatchBrace(w, 0) == len(w)-1
}

// nameWords splits s at white space and ~ outside braces.
func nameWords(s string) []string {
	var out []string
	depth, start := 0, -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		if depth == 0 && (isSpace(c) || c == '~') {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
		switch c {
		case '{':
			depth++
		case '}':
			if depth > 0 {
				depth--
			}
		case '\\':
			i++ // \~ and "\ " belong to the word
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// splitTopLevel splits s at sep outside braces.
func splitTopLevel(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			if depth > 0 {
				depth--
			}
		case sep:
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}
