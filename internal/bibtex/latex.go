package bibtex

import "github.com/crossmem/crossmem/internal/latex"

// DecodeLaTeX turns a BibTeX field value into Unicode text: accents,
// letters and symbols, escaped specials, ties (~ becomes U+00A0), dashes,
// TeX's quotes, braces and formatting commands, Crossref's HTML character
// references; math is kept as written except a lone Greek letter or
// symbol; white space runs become one space (a blank line "\n\n"); unknown
// commands are kept as written. It is latex.Decode, whose doc gives the
// rules in full.
func DecodeLaTeX(s string) string {
	return latex.Decode(s)
}

// decodeLaTeX is DecodeLaTeX that also returns the unknown commands it
// kept (without duplicates).
func decodeLaTeX(s string) (string, []string) {
	return latex.DecodeUnknown(s)
}

// matchBrace returns the index of the } closing the { at i, or -1.
func matchBrace(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}
