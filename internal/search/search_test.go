package search

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// words returns n distinct words "w<from>" … separated by spaces.
func words(from, n int) string {
	ws := make([]string, n)
	for i := range ws {
		ws[i] = fmt.Sprintf("w%d", from+i)
	}
	return strings.Join(ws, " ")
}

func TestLocation(t *testing.T) {
	if got := (Hit{Page: 4, Section: "3.2 Attention"}).Location(); got != "p.4 §3.2 Attention" {
		t.Errorf("Location = %q", got)
	}
	if got := (Hit{Page: 1}).Location(); got != "p.1" {
		t.Errorf("Location without section = %q", got)
	}
	if got := (Hit{Page: 2, PageLabel: "46", Section: "Growth"}).Location(); got != "p. 46 §Growth" {
		t.Errorf("Location with a page label = %q", got)
	}
}

func TestExcerpt(t *testing.T) {
	long := words(0, 100) + " needle " + words(100, 100)
	for _, tc := range []struct {
		name       string
		text       string
		tokens     []string
		max        int
		lead, tail bool // "..." expected at the start / end
	}{
		{"middle", long, []string{"needle"}, MaxExcerpt, true, true},
		{"start", "needle " + words(0, 200), []string{"needle"}, MaxExcerpt, false, true},
		{"end", words(0, 200) + " needle", []string{"needle"}, MaxExcerpt, true, false},
		{"no match", words(0, 200), []string{"absent"}, MaxExcerpt, false, true},
		{"line breaks", strings.ReplaceAll(long, " ", "\n"), []string{"needle"}, MaxExcerpt, true, true},
		{"multibyte", strings.Repeat("äöü ßéè ", 60) + "needle " + strings.Repeat("ñøå ", 100), []string{"needle"}, MaxExcerpt, true, true},
		{"small max", long, []string{"needle"}, 60, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Excerpt(tc.text, tc.tokens, tc.max)
			if n := utf8.RuneCountInString(got); n > tc.max {
				t.Errorf("excerpt has %d characters; max %d", n, tc.max)
			}
			if n := utf8.RuneCountInString(got); n < tc.max/2 {
				t.Errorf("excerpt has only %d characters of %d allowed: %q", n, tc.max, got)
			}
			if strings.HasPrefix(got, "...") != tc.lead || strings.HasSuffix(got, "...") != tc.tail {
				t.Errorf("ellipses: got %q…%q; want lead %v tail %v", first(got, 10), last(got, 10), tc.lead, tc.tail)
			}
			if tc.tokens[0] == "needle" && !strings.Contains(got, "needle") {
				t.Errorf("excerpt does not contain the match: %q", got)
			}
			flat := " " + strings.Join(strings.Fields(tc.text), " ") + " "
			inner := strings.TrimSuffix(strings.TrimPrefix(got, "..."), "...")
			// Cut at word boundaries: the inner text is a run of whole words.
			if !strings.Contains(flat, " "+inner+" ") {
				t.Errorf("excerpt is not a run of whole words of the text: %q", got)
			}
		})
	}

	short := "  Short   text\nwith breaks. "
	if got := Excerpt(short, []string{"text"}, MaxExcerpt); got != "Short text with breaks." {
		t.Errorf("short text = %q", got)
	}
}

func TestExcerptWithoutSpaces(t *testing.T) {
	// Text without spaces (CJK, long URLs or formulas) has no word
	// boundaries; the excerpt must still show the match instead of
	// collapsing to nothing or to an unrelated word.
	for name, text := range map[string]string{
		"no spaces":        strings.Repeat("注意力机制", 100) + "变换器" + strings.Repeat("神经网络", 100),
		"one word before":  strings.Repeat("注意力机制", 40) + " x " + strings.Repeat("注意", 25) + "变换器" + strings.Repeat("神经网络", 100),
		"spaces far ahead": "a b " + strings.Repeat("注意力机制", 60) + "变换器" + strings.Repeat("神经网络", 100),
	} {
		t.Run(name, func(t *testing.T) {
			got := Excerpt(text, []string{"变换器"}, MaxExcerpt)
			if n := utf8.RuneCountInString(got); n > MaxExcerpt || n < MaxExcerpt/2 {
				t.Errorf("excerpt has %d characters; want at most %d and not much less", n, MaxExcerpt)
			}
			if !strings.Contains(got, "变换器") {
				t.Errorf("excerpt does not contain the match: %q", got)
			}
			if !strings.HasPrefix(got, "...") || !strings.HasSuffix(got, "...") {
				t.Errorf("excerpt lacks ellipses: %q", got)
			}
		})
	}
}

func first(s string, n int) string {
	r := []rune(s)
	return string(r[:min(n, len(r))])
}

func last(s string, n int) string {
	r := []rune(s)
	return string(r[max(0, len(r)-n):])
}

func TestClock(t *testing.T) {
	for ms, want := range map[int64]string{0: "0:00", 65_000: "1:05", 65_999: "1:05", 3_599_000: "59:59", 3_725_000: "1:02:05"} {
		if got := Clock(ms); got != want {
			t.Errorf("Clock(%d) = %q, want %q", ms, got, want)
		}
	}
}
