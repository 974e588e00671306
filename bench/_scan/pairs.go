package main

import (
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

var hyphenBreak = regexp.MustCompile(`-[\t\v\f\r \p{Zs}]*\n[\s\p{Zs}]*(\p{Ll})`)

func words(text string) []string {
	text = norm.NFKC.String(text)
	text = hyphenBreak.ReplaceAllString(text, "$1")
	return strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

func count(ws []string) map[string]int {
	m := map[string]int{}
	for _, w := range ws {
		m[w]++
	}
	return m
}

// splits returns runs of a (2-4 words) whose concatenation is an unmatched word of b.
func splits(a, b []string) []string {
	ca, cb := count(a), count(b)
	var out []string
	for i := range a {
		s := a[i]
		for k := 2; k <= 4 && i+k <= len(a); k++ {
			s += a[i+k-1]
			if cb[s] > ca[s] {
				out = append(out, strings.Join(a[i:i+k], " ")+" => "+s)
			}
		}
	}
	return out
}
