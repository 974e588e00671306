package editdist

import "testing"

func TestLevenshtein(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "", 3},
		{"kitten", "sitting", 3},
		{"vaswani2017attention", "vaswany2017attention", 1},
		{"flaw", "lawn", 2},
		{"Lála", "Lala", 1}, // runes, not bytes
	} {
		if got := Levenshtein([]rune(tc.a), []rune(tc.b)); got != tc.want {
			t.Errorf("Levenshtein(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := Levenshtein([]rune(tc.b), []rune(tc.a)); got != tc.want {
			t.Errorf("Levenshtein(%q, %q) = %d, want %d (not symmetric)", tc.b, tc.a, got, tc.want)
		}
	}
}
