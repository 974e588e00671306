package citekey

import (
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/metadata"
)

func FuzzMake(f *testing.F) {
	f.Add(Default(), "Attention Is All You Need", "Vaswani", "Ashish", "", 2017)
	f.Add("[authors:lower]_[year].[title:2]", "../../etc/passwd", `..\x/y`, "", "", 0)
	f.Add("[shorttitle:3:upper]", "日本型排外主義をめぐる問い", "宮地", "元彦", "", -5)
	f.Add("[title:condense]", "....", ".", "", "OpenAI", 99999)
	f.Add("[auth:nopunct]-[year]", "\x00\xff", "Łukasz", "", "", 1)
	f.Fuzz(func(t *testing.T, pattern, title, family, given, literal string, year int) {
		rec := &metadata.Record{
			Title:   title,
			Authors: []metadata.Name{{Family: family, Given: given, Literal: literal}},
			Issued:  metadata.Date{Year: year},
		}
		for _, p := range []string{Default(), pattern} {
			key, err := Make(p, rec)
			if err != nil {
				if p == Default() {
					t.Fatalf("Make(Default()) error: %v", err)
				}
				continue
			}
			if err := Valid(key); err != nil {
				t.Fatalf("Make(%q) = %q fails Valid: %v", p, key, err)
			}
			if strings.ContainsAny(key, `/\`) || strings.Contains(key, "..") {
				t.Fatalf("Make(%q) = %q contains a path element", p, key)
			}
			if len(key) > MaxMadeLen {
				t.Fatalf("Make(%q) = %q longer than %d", p, key, MaxMadeLen)
			}
			if c := key[0]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
				t.Fatalf("Make(%q) = %q does not start with a letter", p, key)
			}
		}
	})
}
