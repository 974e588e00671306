package metadata

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// CleanText removes from s what no metadata field should carry, whatever
// the source (a PDF's Info dictionary, XMP, an API, an import file): C0
// and C1 control characters other than tab, line feed and carriage return
// (NUL, BEL, ESC, ...), the bidirectional controls (U+061C, U+200E,
// U+200F, U+202A–U+202E, U+2066–U+2069), which can make text display in
// another order than it is stored, and the byte order mark; invalid UTF-8
// becomes U+FFFD. Everything else is kept as it is.
func CleanText(s string) string {
	if isClean(s) {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		if unwanted(r) {
			return -1
		}
		return r
	}, s)
}

func isClean(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f {
			return false
		} else if c >= 0x80 {
			if !utf8.ValidString(s[i:]) {
				return false
			}
			return strings.IndexFunc(s[i:], unwanted) < 0
		}
	}
	return true
}

func unwanted(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return false
	case unicode.IsControl(r): // C0, DEL, C1
		return true
	case r == 0x061C || r == 0x200E || r == 0x200F || (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069) || r == 0xFEFF:
		return true
	}
	return false
}

// clean applies CleanText to every text field of r.
func (r *Record) clean() {
	for _, p := range []*string{&r.Type, &r.Title, &r.ContainerTitle, &r.Volume, &r.Issue, &r.Page, &r.Publisher,
		&r.DOI, &r.DOIPreprint, &r.DOIPublished, &r.ArxivID, &r.ArxivPrimaryCategory, &r.JournalRef, &r.Abstract, &r.URL,
		&r.CollectionTitle, &r.Number, &r.Edition, &r.PublisherPlace, &r.Genre, &r.ISBN, &r.ISSN, &r.Note} {
		*p = CleanText(*p)
	}
	for _, names := range [][]Name{r.Authors, r.Editors} {
		for i := range names {
			names[i].Family, names[i].Given, names[i].Literal = CleanText(names[i].Family), CleanText(names[i].Given), CleanText(names[i].Literal)
		}
	}
	for i := range r.Warnings {
		r.Warnings[i] = CleanText(r.Warnings[i])
	}
}
