package roman

import (
	"strings"
	"testing"
)

func TestValue(t *testing.T) {
	for s, want := range map[string]int{
		"i": 1, "iv": 4, "ix": 9, "xiv": 14, "xl": 40, "xlix": 49, "xc": 90, "cd": 400, "mcmxcix": 1999, "mmxxvi": 2026, "mmmm": 4000,
		"I": 1, "IV": 4, "XII": 12, "LX": 60, "CCCXC": 390, "MCMXCIX": 1999,
		// Not canonical, or not numerals at all.
		"": 0, "iiii": 0, "il": 0, "ic": 0, "vx": 0, "vv": 0, "IIII": 0, "IL": 0, "VX": 0, "xm": 0, "civil": 0, "mix ": 0, "a": 0, "1": 0, "ⅰ": 0,
	} {
		if got := Value(s); got != want {
			t.Errorf("Value(%q) = %d, want %d", s, got, want)
		}
	}
}

// Every number Format writes reads back, in either case.
func TestRoundTrip(t *testing.T) {
	for n := 1; n <= 4999; n++ {
		s := Format(n)
		if Value(s) != n || Value(strings.ToUpper(s)) != n {
			t.Fatalf("Format(%d) = %q reads back as %d, %d", n, s, Value(s), Value(strings.ToUpper(s)))
		}
	}
	if Format(0) != "" || Format(-3) != "" {
		t.Errorf("Format(0), Format(-3) = %q, %q, want empty", Format(0), Format(-3))
	}
}
