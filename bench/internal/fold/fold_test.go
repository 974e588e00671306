package fold

import "testing"

func TestString(t *testing.T) {
	for in, want := range map[string]string{
		"  Ünïcödé — Straße, ı!": "unicode straße i", // ß has no decomposition,
		"The Name of the Title":  "the name of the title",
		"—":                      "",
	} {
		if got := String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSameFamily(t *testing.T) {
	for _, c := range []struct {
		got, want string
		same      bool
	}{
		{"Elst", "van Elst", true},
		{"VAN ELST", "Elst", true},
		{"Béranger", "Beranger", true},
		{"Elst", "Welst", false},
		{"", "", false},
	} {
		if SameFamily(c.got, c.want) != c.same {
			t.Errorf("SameFamily(%q, %q) = %v, want %v", c.got, c.want, !c.same, c.same)
		}
	}
}
