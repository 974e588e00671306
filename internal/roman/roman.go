// Package roman reads Roman numerals, as books number their front matter
// pages (i, ii, … xiv) and papers their sections (I, II, … IV.B).
package roman

import "strings"

// Value returns the value of s, a Roman numeral in its canonical form
// (the one Format writes: "iv", not "iiii"; "xlix", not "il"), in lower
// or upper case; 0 when s is not one. Thousands are any number of m's.
func Value(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		v := digit(s[i])
		if v == 0 {
			return 0
		}
		if i+1 < len(s) && digit(s[i+1]) > v {
			n -= v
		} else {
			n += v
		}
	}
	if n <= 0 || Format(n) != strings.ToLower(s) {
		return 0
	}
	return n
}

// digit is the value of one Roman digit in either case, 0 for any other
// byte.
func digit(b byte) int {
	switch b | 0x20 { // lower case
	case 'i':
		return 1
	case 'v':
		return 5
	case 'x':
		return 10
	case 'l':
		return 50
	case 'c':
		return 100
	case 'd':
		return 500
	case 'm':
		return 1000
	}
	return 0
}

// Format writes n > 0 as a lower-case Roman numeral in canonical form
// (subtractive pairs: iv, ix, xl, xc, cd, cm; thousands as m's); "" for
// n <= 0.
func Format(n int) string {
	var b strings.Builder
	for _, x := range [...]struct {
		v int
		s string
	}{{1000, "m"}, {900, "cm"}, {500, "d"}, {400, "cd"}, {100, "c"}, {90, "xc"}, {50, "l"}, {40, "xl"}, {10, "x"}, {9, "ix"}, {5, "v"}, {4, "iv"}, {1, "i"}} {
		for n >= x.v {
			b.WriteString(x.s)
			n -= x.v
		}
	}
	return b.String()
}
