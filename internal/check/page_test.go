package check

import "testing"

// A cited page range holds a page numerically, Arabic or Roman (front
// matter), never across the two; a word made of Roman digits ("civil",
// "mix" is one: 1009) is no page unless it is one of the ends.
func TestInRange(t *testing.T) {
	for _, tc := range []struct {
		p, first, last string
		want           bool
	}{
		{"12", "10", "14", true},
		{"15", "10", "14", false},
		{"iv", "iii", "vi", true},
		{"IV", "iii", "vi", true},
		{"ix", "iii", "vi", false},
		{"4", "iii", "vi", false},   // Arabic 4 is not front-matter iv
		{"iv", "1", "10", false},    // nor the other way round
		{"civil", "c", "d", false},  // not a canonical numeral
		{"iiii", "iii", "v", false}, // nor this
		{"civil", "civil", "d", true},
	} {
		if got := inRange(tc.p, tc.first, tc.last); got != tc.want {
			t.Errorf("inRange(%q, %q, %q) = %v, want %v", tc.p, tc.first, tc.last, got, tc.want)
		}
	}
}
