// Package quote defines how crossmem compares a quotation with the text of
// a source: the one normalization function used by the search index's
// exact-phrase lane, by `crossmem check` and by the MCP tool
// crossmem_verify_quote. docs/verification.md states the rules.
//
// Normalization never produces text for a reader: it makes comparison keys.
// What crossmem shows and quotes is always the chunk text as the PDF's text
// layer gave it.
package quote

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Normalize returns the comparison form of s:
//
//  1. invisible characters removed: soft hyphen U+00AD, pdfium's
//     hyphenation marks U+0002 and U+FFFE, zero-width spaces and joiners,
//     the byte-order mark, invalid UTF-8;
//  2. Unicode NFKC, which also expands the ligatures U+FB00–FB06 (ﬁ → fi),
//     full-width forms and the ellipsis (… → ...);
//  3. typographic quotes and apostrophes folded to ASCII (‘ ’ ‚ ‛ ′ ` → ',
//     “ ” „ ‟ ″ « » and LaTeX's double backquote and double apostrophe
//     → "), no-break spaces to spaces;
//  4. hyphens and dashes (-, U+2010–U+2015, U+2212, U+FE58, U+FE63): a run
//     of them with the spaces and line breaks around it disappears between
//     two letters, so that line-end hyphenation, compounds and dashes
//     compare equal however they were typed ("dehyphen-\nation" →
//     "dehyphenation", "state-of-the-art" → "stateoftheart", "word — word"
//     and "word--word" → "wordword"); elsewhere it becomes one "-" without
//     spaces ("10 – 12" → "10-12");
//  5. every run of white space (line breaks included) becomes one space,
//     and leading and trailing space is removed.
//
// Case is kept; Key folds it too. Normalize is idempotent.
func Normalize(s string) string {
	s = strings.Map(func(r rune) rune {
		if fold(r) < 0 {
			return -1
		}
		return r
	}, s)
	rs := []rune(norm.NFKC.String(s))
	var b strings.Builder
	b.Grow(len(s))
	var last rune // the last rune written, 0 at the start
	space := false
	for i := 0; i < len(rs); i++ {
		r := fold(rs[i])
		switch {
		case r == '-':
			// The run of dashes and spaces starting here.
			j := i
			for j < len(rs) && (fold(rs[j]) == '-' || unicode.IsSpace(fold(rs[j]))) {
				j++
			}
			var next rune
			if j < len(rs) {
				next = fold(rs[j])
			}
			i = j - 1
			space = false
			if unicode.IsLetter(last) && unicode.IsLetter(next) {
				continue // joined
			}
			b.WriteByte('-')
			last = '-'
			continue
		case unicode.IsSpace(r):
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
		last = r
	}
	// LaTeX's quotation marks `` and '' (after folding, two ') are one
	// double quote.
	return strings.ReplaceAll(norm.NFKC.String(b.String()), "''", `"`)
}

// Key is Normalize with case folded (lower case): the form the index's
// phrase lane compares, so that an agent's lower-cased query still finds
// its sentence.
func Key(s string) string { return strings.ToLower(Normalize(s)) }

// fold maps one rune to its comparison form, or -1 to drop it.
func fold(r rune) rune {
	switch r {
	case 0x00AD, 0x0002, 0xFFFE, 0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0xFFFD:
		return -1
	case '‘', '’', '‚', '‛', '′', '`':
		return '\''
	case '“', '”', '„', '‟', '″', '«', '»':
		return '"'
	case '-', 0x2010, 0x2011, 0x2012, 0x2013, 0x2014, 0x2015, 0x2212, 0xFE58, 0xFE63:
		return '-'
	case 0x00A0, 0x2007, 0x202F:
		return ' '
	}
	return r
}

// Locate finds q in source as Key compares them and returns the shortest
// span source[start:end] whose Key contains Key(q), not starting inside a
// word of source: the source's own text for a quotation
// that matched only after normalization. ok is false when Key(source) does
// not contain Key(q) (or q normalizes to nothing).
func Locate(source, q string) (start, end int, ok bool) {
	kq := Key(q)
	if kq == "" || !strings.Contains(Key(source), kq) {
		return 0, 0, false
	}
	// Rune boundaries of source, and the word starts among them.
	var bounds []int
	for i := range source {
		bounds = append(bounds, i)
	}
	bounds = append(bounds, len(source))
	contains := func(s, e int) bool { return strings.Contains(Key(source[s:e]), kq) }
	// The latest word start from which the rest of source still contains q.
	best := -1
	lo, hi := 0, len(bounds)-1 // search over indexes into bounds
	for lo <= hi {
		mid := (lo + hi) / 2
		if contains(bounds[mid], len(source)) {
			best = mid
			lo = mid + 1
		} else {
			hi = mid - 1
		}
	}
	if best < 0 {
		return 0, 0, false
	}
	// Move back to the start of the word containing that position.
	s := bounds[best]
	for s > 0 {
		r, size := utf8.DecodeLastRuneInString(source[:s])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r) {
			break
		}
		s -= size
	}
	if !contains(s, len(source)) {
		s = bounds[best] // normalization depends on context; keep what matched
	}
	// The shortest end.
	lo, hi = best, len(bounds)-1
	e := len(source)
	for lo <= hi {
		mid := (lo + hi) / 2
		if contains(s, bounds[mid]) {
			e = bounds[mid]
			hi = mid - 1
		} else {
			lo = mid + 1
		}
	}
	if !contains(s, e) {
		return s, len(source), true
	}
	return s, e, true
}

// markPair is a kind of quote marks: the opening mark, the closing marks
// that may end it, and whether a closing mark between two letters is an
// apostrophe (don't, it’s) rather than the end of the quotation.
type markPair struct {
	open       string
	closes     []string
	apostrophe bool
}

// markPairs are the quote marks TrimMarks removes, tried in this order.
var markPairs = []markPair{
	{"``", []string{"''"}, false},
	{"“", []string{"”"}, false},
	{"„", []string{"“", "”"}, false},
	{"«", []string{"»"}, false},
	{`"`, []string{`"`}, false},
	{"‘", []string{"’"}, true},
	{"'", []string{"'"}, true},
}

// TrimMarks returns s without the pair of quote marks that wraps the whole
// of it, and without the white space around it and inside the marks:
// “Words.” → Words. The pairs are " ", “ ”, „ “ (or „ ”), « », LaTeX's
// double backquote and double apostrophe, ' ' and ‘ ’. Up to two of the
// punctuation marks .,;:!? after the closing mark are kept: “Words”. →
// Words. s is returned trimmed but otherwise unchanged when the opening
// mark is closed before the end (“A” and “B”), when nothing is between
// the marks, or when s is not wrapped in marks. Pairs with distinct
// opening and closing marks nest; a single closing quote between two
// letters is an apostrophe.
func TrimMarks(s string) string {
	s = strings.TrimSpace(s)
	for _, m := range markPairs {
		if !strings.HasPrefix(s, m.open) {
			continue
		}
		body := s[len(m.open):]
		tail := ""
		for len(body) > 0 && len(tail) < 2 && strings.IndexByte(".,;:!?", body[len(body)-1]) >= 0 {
			tail = body[len(body)-1:] + tail
			body = body[:len(body)-1]
		}
		c := ""
		for _, x := range m.closes {
			if strings.HasSuffix(body, x) {
				c = x
				break
			}
		}
		if c == "" {
			return s
		}
		inner := body[:len(body)-len(c)]
		if closesEarly(inner, m) {
			return s
		}
		if inner = strings.TrimSpace(inner); inner == "" {
			return s
		}
		return inner + tail
	}
	return s
}

// closesEarly reports whether inner, the text between the marks of m,
// closes the opening mark: holds a closing mark at nesting depth 0.
func closesEarly(inner string, m markPair) bool {
	nests := m.open != m.closes[0]
	depth := 0
	for i := 0; i < len(inner); {
		if nests && strings.HasPrefix(inner[i:], m.open) {
			depth++
			i += len(m.open)
			continue
		}
		c := ""
		for _, x := range m.closes {
			if strings.HasPrefix(inner[i:], x) {
				c = x
				break
			}
		}
		if c == "" {
			_, size := utf8.DecodeRuneInString(inner[i:])
			i += size
			continue
		}
		before, _ := utf8.DecodeLastRuneInString(inner[:i])
		after, _ := utf8.DecodeRuneInString(inner[i+len(c):])
		switch {
		case m.apostrophe && unicode.IsLetter(before) && unicode.IsLetter(after):
			// an apostrophe
		case depth == 0:
			return true
		default:
			depth--
		}
		i += len(c)
	}
	return false
}
