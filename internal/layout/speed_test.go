package layout

import "testing"

// FuzzNumberToken: isNumberToken, which skips the regular expression for
// long tokens without a digit, agrees with numberToken on any token.
func FuzzNumberToken(f *testing.F) {
	for _, s := range []string{"12", "(3.5%)", "−2,5", "n/a", "N/A", "na", "nA", "×", "✓", "—", "-", "word", "abcd", "1a", "±0.5†", "[12]", "x", "ab", "n/aa", "((((", "✗✗✗✗"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isNumberToken(s), numberToken.MatchString(s); got != want {
			t.Fatalf("isNumberToken(%q) = %v, numberToken matches: %v", s, got, want)
		}
	})
}
