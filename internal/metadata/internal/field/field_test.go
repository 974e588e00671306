package field

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/metadata"
)

func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		"<i>E. coli</i> &amp;\n  <jats:sub>2</jats:sub> more": "E. coli & 2 more",
		"p < 0.05 and <mml:math a=\"b\">x</mml:math>":         "p < 0.05 and x",
		"  ": "",
	} {
		if got := Clean(in); got != want {
			t.Errorf("Clean(%q) = %q; want %q", in, got, want)
		}
	}
}

func TestJoinSubtitle(t *testing.T) {
	for _, c := range []struct{ title, sub, want string }{
		{"Deep learning", "a review", "Deep learning: a review"},
		{"Why now?", "A history", "Why now? A history"},
		{"Deep learning: A review", "a review", "Deep learning: A review"},
		{"", "Only", "Only"},
		{"Only", "", "Only"},
	} {
		if got := JoinSubtitle(c.title, c.sub); got != c.want {
			t.Errorf("JoinSubtitle(%q, %q) = %q; want %q", c.title, c.sub, got, c.want)
		}
	}
}

func TestFlexString(t *testing.T) {
	var v struct{ A, B, C FlexString }
	if err := json.Unmarshal([]byte(`{"A": "12a", "B": 12, "C": null}`), &v); err != nil {
		t.Fatal(err)
	}
	if v.A != "12a" || v.B != "12" || v.C != "" {
		t.Errorf("got %+v", v)
	}
	if err := json.Unmarshal([]byte(`{"A": [1]}`), &v); err == nil {
		t.Error("a list was accepted")
	}
}

func TestISODate(t *testing.T) {
	for in, want := range map[string]metadata.Date{
		"2019":        {Year: 2019},
		" 2019-02 ":   {Year: 2019, Month: 2},
		"2019-02-07":  {Year: 2019, Month: 2, Day: 7},
		"2019-13-07":  {Year: 2019},
		"2019-02-32":  {Year: 2019, Month: 2},
		"2019-02-07T": {},
		"19-02-07":    {},
		"2019-1-2-3":  {},
		"0000":        {},
		"":            {},
	} {
		got, ok := ISODate(in)
		if got != want || ok != !want.IsZero() {
			t.Errorf("ISODate(%q) = %+v, %v; want %+v", in, got, ok, want)
		}
	}
}

func TestParseError(t *testing.T) {
	var v any
	err := ParseError("OpenAlex", json.Unmarshal([]byte(`{"a": `), &v))
	if !strings.HasPrefix(err.Error(), "parse OpenAlex JSON: malformed at byte ") {
		t.Errorf("syntax error: %v", err)
	}
	var n int
	err = ParseError("DataCite", json.Unmarshal([]byte(`"x"`), &n))
	if !strings.HasPrefix(err.Error(), "parse DataCite JSON: json: ") {
		t.Errorf("type error: %v", err)
	}
}
