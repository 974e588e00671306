package citekey

import (
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/metadata"
)

// checkKey fails the test unless key is what Make promises: it passes
// Valid, holds no path element, is at most MaxMadeLen long and starts with
// an ASCII letter.
func checkKey(t *testing.T, pattern, key string) {
	t.Helper()
	if err := Valid(key); err != nil {
		t.Fatalf("Make(%q) = %q fails Valid: %v", pattern, key, err)
	}
	if strings.ContainsAny(key, `/\`) || strings.Contains(key, "..") {
		t.Fatalf("Make(%q) = %q contains a path element", pattern, key)
	}
	if len(key) > MaxMadeLen {
		t.Fatalf("Make(%q) = %q longer than %d", pattern, key, MaxMadeLen)
	}
	if !isASCIILetter(key[0]) {
		t.Fatalf("Make(%q) = %q does not start with a letter", pattern, key)
	}
}

// FuzzMake runs the default pattern and an arbitrary one over arbitrary
// record fields: Make never panics, the default pattern never fails, and
// every key passes checkKey.
func FuzzMake(f *testing.F) {
	f.Add(Default(), "Attention Is All You Need", "Vaswani", "Ashish", "", "Shazeer", 2017)
	f.Add("[authors:lower]_[year].[title:2]", "../../etc/passwd", `..\x/y`, "", "", "", 0)
	f.Add("[shorttitle:3:upper]", "日本型排外主義をめぐる問い", "宮地", "元彦", "", "", -5)
	f.Add("[title:condense]", "....", ".", "", "OpenAI", "", 99999)
	f.Add("[auth:nopunct]-[year]", "\x00\xff", "Łukasz", "", "", "", 1)
	f.Add("[authors:2:upper]", "x", "de Oliveira", "", "", "van der Putten", 2010)
	f.Add("[auth:lower]", "", "King, Jr.", "", "", "", 1968)
	f.Add("[title:99999999999999999999]", "a b", "", "", "", "", 0)
	f.Add("[shorttitle:1]", "<i><b>x</i>", "", "", "", "", 0)
	// Many tokens over a long title of markup: once cost seconds per key.
	f.Add(strings.Repeat("[title]", 140), strings.Repeat("<", 5000)+">", strings.Repeat("-", 5000), "", "", "", 3)
	f.Fuzz(func(t *testing.T, pattern, title, family, given, literal, editor string, year int) {
		rec := &metadata.Record{
			Title:   title,
			Authors: []metadata.Name{{Family: family, Given: given, Literal: literal}},
			Editors: []metadata.Name{{Family: editor}},
			Issued:  metadata.Date{Year: year},
		}
		if year%2 == 0 {
			rec.Authors = nil // exercise the editor and "anon" fallbacks
		}
		key, err := Make(Default(), rec)
		if err != nil {
			t.Fatalf("Make(Default()) error: %v", err)
		}
		checkKey(t, Default(), key)
		key, err = Make(pattern, rec)
		if err != nil {
			return
		}
		checkKey(t, pattern, key)
		if again, _ := Make(pattern, rec); again != key {
			t.Fatalf("Make(%q) not deterministic: %q then %q", pattern, key, again)
		}
	})
}

// FuzzParse runs the pattern parser over arbitrary patterns: it never
// panics, refuses every pattern that could put a path element or an unsafe
// character into a key, and a pattern it accepts makes a good key from an
// empty record and from a full one.
func FuzzParse(f *testing.F) {
	for _, p := range []string{
		Default(), "[authors:lower][year]", "[auth:lower]_[year]", "[title:condense:lower]",
		"[auth:lower][year][shorttitle:3:nopunct]", "y[year]", "[auth", "auth]", "[[auth]]",
		"[]", "[auth:0]", "[auth:-1]", "[auth]/[year]", `[auth]\[year]`, "[auth]..[year]",
		"../[auth]", "[auth] [year]", "[auth]:[year]", "[Auth]", "[ auth : lower ]", ".[year].",
		"[auth:+1]", "[auth:01]", "[year:9223372036854775808]", "[shorttitle:1:2:3]", "a.[title].b",
		"[auth]\x00", "[auth]é", "[auth::lower]", "[auth:lower:]",
	} {
		f.Add(p)
	}
	full := &metadata.Record{
		Title:   "Attention Is All You Need",
		Authors: []metadata.Name{{Family: "Vaswani", Given: "Ashish"}, {Family: "de Oliveira", Given: "L."}},
		Issued:  metadata.Date{Year: 2017},
	}
	f.Fuzz(func(t *testing.T, pattern string) {
		parts, err := parse(pattern)
		unsafe := strings.ContainsAny(pattern, `/\`) || strings.Contains(pattern, "..")
		if err != nil {
			if _, merr := Make(pattern, full); merr == nil {
				t.Fatalf("parse(%q) failed (%v) but Make succeeded", pattern, err)
			}
			return
		}
		if unsafe {
			t.Fatalf("parse(%q) accepted a pattern with a path element", pattern)
		}
		if len(parts) == 0 {
			t.Fatalf("parse(%q) accepted a pattern with no parts", pattern)
		}
		for _, p := range parts {
			if p.tok != nil {
				if !fields[p.tok.field] {
					t.Fatalf("parse(%q): unknown field %q accepted", pattern, p.tok.field)
				}
				continue
			}
			if err := checkLiteral(p.lit); err != nil || p.lit == "" {
				t.Fatalf("parse(%q): literal %q accepted", pattern, p.lit)
			}
		}
		for _, rec := range []*metadata.Record{{}, full} {
			key, err := Make(pattern, rec)
			if err != nil {
				t.Fatalf("parse(%q) succeeded but Make failed: %v", pattern, err)
			}
			checkKey(t, pattern, key)
		}
	})
}

// FuzzUnique checks Unique over arbitrary keys and a library holding the
// first n candidates in a different letter case: it never panics, never
// returns a taken key, and what it returns passes Valid.
func FuzzUnique(f *testing.F) {
	f.Add("vaswani2017attention", uint8(0))
	f.Add("vaswani2017attention", uint8(27))
	f.Add("Fritz2012", uint8(3))
	f.Add(strings.Repeat("a", MaxLen-1), uint8(1))
	f.Add("../x", uint8(0))
	f.Fuzz(func(t *testing.T, key string, n uint8) {
		taken := map[string]bool{}
		calls := 0
		got, err := Unique(key, func(c string) bool {
			calls++
			if calls <= int(n) {
				taken[strings.ToLower(c)] = true
			}
			return taken[strings.ToLower(c)]
		})
		if err != nil {
			if Valid(key) == nil && len(key)+4 <= MaxLen {
				t.Fatalf("Unique(%q) with %d taken: %v", key, n, err)
			}
			return
		}
		if err := Valid(got); err != nil {
			t.Fatalf("Unique(%q) = %q fails Valid: %v", key, got, err)
		}
		if taken[strings.ToLower(got)] {
			t.Fatalf("Unique(%q) = %q is taken", key, got)
		}
		if !strings.HasPrefix(got, key) {
			t.Fatalf("Unique(%q) = %q does not extend the key", key, got)
		}
	})
}
