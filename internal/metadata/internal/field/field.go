// Package field reads the values metadata APIs write (Crossref, DataCite,
// OpenAlex, Unpaywall): text with inline markup, titles with separate
// subtitles, numbers that arrive as JSON strings or numbers, ISO dates of
// varying precision, and malformed JSON. Each source client maps its own
// JSON; this package holds only the readings they share.
package field

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"

	"github.com/crossmem/crossmem/internal/metadata"
)

// TagRe matches an HTML/XML tag such as <i>, </sub>, </jats:p>,
// <mml:math a="b">; a "<" followed by a space or digit ("p < 0.05") is not
// a tag.
var TagRe = regexp.MustCompile(`</?[A-Za-z][A-Za-z0-9_.-]*(?::[A-Za-z][A-Za-z0-9_.-]*)?(?:\s[^<>]*)?/?>`)

// Clean strips inline markup (TagRe), decodes HTML entities and collapses
// white space: "<i>E. coli</i> &amp;  more" → "E. coli & more".
func Clean(s string) string {
	return Collapse(html.UnescapeString(TagRe.ReplaceAllString(s, "")))
}

// Collapse trims s and replaces each run of white space with one space.
func Collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// JoinSubtitle appends a subtitle as CSL titles carry it: "Title:
// Subtitle", or "Title? Subtitle" after closing punctuation (: ? ! .). A
// subtitle the title already ends with (compared case-insensitively) is
// not repeated; an empty title or subtitle gives the other.
func JoinSubtitle(title, sub string) string {
	switch {
	case sub == "":
		return title
	case title == "":
		return sub
	case strings.HasSuffix(strings.ToLower(title), strings.ToLower(sub)):
		return title
	case strings.ContainsAny(title[len(title)-1:], ":?!."):
		return title + " " + sub
	}
	return title + ": " + sub
}

// FlexString is a JSON string or number ("12", 12), as APIs write volumes,
// issues, pages and years; null leaves it empty. A number is kept as
// written (12.0 stays "12.0"). Other JSON values are an error.
type FlexString string

// UnmarshalJSON implements json.Unmarshaler.
func (f *FlexString) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		return nil
	}
	if b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*f = FlexString(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("want string or number, got %s", b)
	}
	*f = FlexString(n.String())
	return nil
}

// ISODate reads "2019", "2019-02" or "2019-02-07" (surrounding white space
// ignored) with the precision given: a month outside 1-12 leaves month and
// day unknown, a day outside 1-31 leaves the day unknown. ok is false when
// the year is not four digits, a part is not a number, there are more than
// three parts, or the year is not positive; d is then the zero Date.
func ISODate(s string) (d metadata.Date, ok bool) {
	parts := strings.Split(strings.TrimSpace(s), "-")
	if len(parts[0]) != 4 || len(parts) > 3 {
		return metadata.Date{}, false
	}
	var v [3]int
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil {
			return metadata.Date{}, false
		}
		v[i] = n
	}
	if v[0] <= 0 {
		return metadata.Date{}, false
	}
	d = metadata.Date{Year: v[0]}
	if v[1] >= 1 && v[1] <= 12 {
		d.Month = v[1]
		if v[2] >= 1 && v[2] <= 31 {
			d.Day = v[2]
		}
	}
	return d, true
}

// ParseError wraps a json.Unmarshal error of api's response (api names the
// service: "DataCite", "OpenAlex") as "parse <api> JSON: ...", naming the
// byte offset of a syntax error (a truncated or non-JSON answer).
func ParseError(api string, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("parse %s JSON: malformed at byte %d: %w", api, se.Offset, err)
	}
	return fmt.Errorf("parse %s JSON: %w", api, err)
}
