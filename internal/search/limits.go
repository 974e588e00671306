package search

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Limits of one query (docs/limits.md). A query over them is refused with
// a *LimitError before any work is done: the cost of a search grows with
// its terms and prefixes, and nobody types more.
const (
	// MaxQueryChars bounds a query's text: 4,000 characters (a long block
	// quotation fits).
	MaxQueryChars = 4000
	// MaxQueryTerms bounds the distinct words and prefixes of a query: 256.
	MaxQueryTerms = 256
	// MaxQueryPrefixes bounds the prefix terms (att*) of a query: 8. Each
	// is asked of the full-text index as up to 50 words.
	MaxQueryPrefixes = 8
)

// LimitError is a request over one of crossmem's input limits.
type LimitError struct {
	What  string // "query", "quote", "cite_key", ...
	Unit  string // "characters", "distinct terms", "bytes", ...
	Got   int
	Limit int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("%s has %d %s; the limit is %d (docs/limits.md): shorten it", e.What, e.Got, e.Unit, e.Limit)
}

// CheckText returns a *LimitError when text is longer than MaxQueryChars
// characters (counted without reading past the limit).
func CheckText(text string) error {
	if len(text) <= MaxQueryChars {
		return nil
	}
	if n := utf8.RuneCountInString(text); n > MaxQueryChars {
		return &LimitError{What: "query", Unit: "characters", Got: n, Limit: MaxQueryChars}
	}
	return nil
}

// Clip shortens text to at most MaxQueryChars characters and n
// white-space separated words, cutting between words, for callers that
// search with text they did not choose (the nearest passages to a long
// quotation).
func Clip(text string, n int) string {
	fields := strings.Fields(text)
	if len(fields) > n {
		fields = fields[:n]
	}
	out := strings.Join(fields, " ")
	for utf8.RuneCountInString(out) > MaxQueryChars && len(fields) > 1 {
		fields = fields[:len(fields)/2]
		out = strings.Join(fields, " ")
	}
	if utf8.RuneCountInString(out) > MaxQueryChars {
		out = string([]rune(out)[:MaxQueryChars])
	}
	return out
}
