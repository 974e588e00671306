package search

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCheckText(t *testing.T) {
	if err := CheckText(strings.Repeat("é", MaxQueryChars)); err != nil {
		t.Errorf("%d two-byte characters: %v", MaxQueryChars, err)
	}
	err := CheckText(strings.Repeat("word ", 2_000_000))
	var le *LimitError
	if !errors.As(err, &le) || le.Got != 10_000_000 || le.Limit != MaxQueryChars {
		t.Errorf("10 MB query: want a LimitError with 10000000 characters, got %v", err)
	}
}

func TestClip(t *testing.T) {
	long := strings.Repeat("abcdefghij ", 1000)
	for _, n := range []int{1, 64, 5000} {
		c := Clip(long, n)
		if w := len(strings.Fields(c)); w > n || w == 0 {
			t.Errorf("Clip(_, %d): %d words", n, w)
		}
		if CheckText(c) != nil || !strings.HasPrefix(long, c) {
			t.Errorf("Clip(_, %d) = %d characters, not a prefix within the limit", n, utf8.RuneCountInString(c))
		}
	}
	if c := Clip(strings.Repeat("x", 3*MaxQueryChars), 10); utf8.RuneCountInString(c) != MaxQueryChars {
		t.Errorf("one long word: %d characters", utf8.RuneCountInString(c))
	}
}
