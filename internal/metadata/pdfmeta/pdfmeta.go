// Package pdfmeta turns a PDF's own metadata — the document information
// dictionary (Title, Author, CreationDate) and the XMP packet — into a
// metadata.Record with every field attributed to its source:
// metadata.SourcePDFInfo for the Info dictionary, metadata.SourcePDFXMP for
// the XMP packet.
//
// It is pure: it reads no files and makes no network calls. The caller
// (capture, with internal/pdf) supplies the Info strings, already decoded
// to UTF-8, and the PDF bytes for XMP.
//
// PDF metadata is often junk written by the authoring tool: file names
// ("p020-dutot.dvi", "Microsoft Word - draft.doc"), "untitled", a single
// character, or the login of whoever made the file ("Administrator",
// "dalandon"). Such values are dropped with a warning rather than passed on
// as a title or an author.
package pdfmeta

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"

	"github.com/crossmem/crossmem/internal/identifier"
	"github.com/crossmem/crossmem/internal/metadata"
)

// FromInfo maps the document information dictionary: title, author (one
// string, possibly several names separated by ";", " and " or ","), and
// creationDate in PDF date form ("D:20230214123456+01'00'"; ISO 8601 is also
// accepted). Junk values are dropped with a warning. The creation date
// becomes Issued, with a warning that it is the file's date, not
// necessarily the publication date. A title that is a DOI ("doi:10.1016/…",
// as some publishers write it) sets DOI instead. The result is normalised
// (empty, non-nil slices) and never nil.
func FromInfo(title, author, creationDate string) *metadata.Record {
	r := &metadata.Record{}
	// Control and bidi characters go first (metadata.CleanText), as from
	// XMP, so the junk checks see the text a reader would.
	setTitle(r, metadata.CleanText(decodePDFString(title)), metadata.SourcePDFInfo)
	setAuthors(r, []string{metadata.CleanText(decodePDFString(author))}, metadata.SourcePDFInfo)
	if d, ok := parseDate(decodePDFString(creationDate)); ok && plausibleCreation(d) {
		r.Issued = d
		r.SetSource(metadata.FieldIssued, metadata.SourcePDFInfo)
		r.Warn(creationWarning(d))
	}
	r.Normalize()
	return r
}

// Merge combines the Info record (from FromInfo; may be nil) with the XMP
// packet (may be nil), preferring XMP for title and authors, and XMP's
// prism:publicationDate over the creation date. A value both give alike
// keeps both sources. Warnings about values that were replaced are
// dropped. Neither argument is modified.
func Merge(info *metadata.Record, x *XMP) *metadata.Record {
	out := &metadata.Record{}
	if info != nil {
		out = cloneRecord(info)
	}
	if x == nil {
		out.Normalize()
		return out
	}
	xr := x.Record()
	if xr.Title != "" {
		if !strings.EqualFold(collapse(out.Title), collapse(xr.Title)) {
			resetSources(out, metadata.FieldTitle)
		}
		out.Title = xr.Title
		out.SetSource(metadata.FieldTitle, metadata.SourcePDFXMP)
		out.Warnings = dropPrefixed(out.Warnings, titleWarnPrefix)
	}
	if len(xr.Authors) > 0 {
		if !sameNames(out.Authors, xr.Authors) {
			resetSources(out, metadata.FieldAuthors)
		}
		out.Authors = xr.Authors
		out.SetSource(metadata.FieldAuthors, metadata.SourcePDFXMP)
		out.Warnings = dropPrefixed(out.Warnings, authorWarnPrefix)
	}
	if d, ok := parseDate(x.PublicationDate); ok {
		if out.Issued != d {
			resetSources(out, metadata.FieldIssued)
		}
		out.Issued = d
		out.SetSource(metadata.FieldIssued, metadata.SourcePDFXMP)
		out.Warnings = dropPrefixed(out.Warnings, creationWarnPrefix)
	} else if out.Issued.IsZero() && !xr.Issued.IsZero() {
		out.Issued = xr.Issued
		out.SetSource(metadata.FieldIssued, metadata.SourcePDFXMP)
	}
	if xr.DOI != "" && (out.DOI == "" || strings.EqualFold(out.DOI, xr.DOI)) {
		out.DOI = xr.DOI
		out.SetSource(metadata.FieldDOI, metadata.SourcePDFXMP)
	}
	if xr.ArxivID != "" {
		out.ArxivID, out.ArxivVersion = xr.ArxivID, xr.ArxivVersion
		out.SetSource(metadata.FieldArxivID, metadata.SourcePDFXMP)
	}
	pruneSources(out)
	for _, w := range xr.Warnings {
		switch {
		case strings.HasPrefix(w, titleWarnPrefix) && out.Title != "",
			strings.HasPrefix(w, authorWarnPrefix) && len(out.Authors) > 0,
			strings.HasPrefix(w, creationWarnPrefix) && out.FieldSources[metadata.FieldIssued] != nil && out.Issued != xr.Issued:
			continue
		}
		out.Warn(w)
	}
	out.Normalize()
	return out
}

const (
	titleWarnPrefix    = "PDF title "
	authorWarnPrefix   = "PDF author "
	creationWarnPrefix = "year taken from the PDF's creation date"
)

func creationWarning(d metadata.Date) string {
	return fmt.Sprintf("%s (%d); the publication year may differ", creationWarnPrefix, d.Year)
}

func setTitle(r *metadata.Record, raw, source string) {
	t := collapse(raw)
	if t == "" {
		return
	}
	if d, ok := identifier.ParseDOI(t); ok {
		r.DOI = d
		r.SetSource(metadata.FieldDOI, source)
		r.Warn(fmt.Sprintf("%s%q is a DOI, not a title; ignored", titleWarnPrefix, t))
		return
	}
	if why := junkTitle(t); why != "" {
		r.Warn(fmt.Sprintf("%s%q %s; ignored", titleWarnPrefix, t, why))
		return
	}
	r.Title = t
	r.SetSource(metadata.FieldTitle, source)
}

func setAuthors(r *metadata.Record, raws []string, source string) {
	for _, raw := range raws {
		for _, piece := range SplitAuthors(raw) {
			if why := junkAuthor(piece); why != "" {
				r.Warn(fmt.Sprintf("%s%q %s; ignored", authorWarnPrefix, piece, why))
				continue
			}
			if n := metadata.ParseName(piece); n != (metadata.Name{}) {
				r.Authors = append(r.Authors, n)
			}
		}
	}
	if len(r.Authors) > 0 {
		r.SetSource(metadata.FieldAuthors, source)
	}
}

// sameNames reports whether two author lists name the same people in the
// same order (display forms compared case-insensitively).
func sameNames(a, b []metadata.Name) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !strings.EqualFold(a[i].Display(), b[i].Display()) {
			return false
		}
	}
	return true
}

// resetSources forgets the sources of field (its value is being replaced).
func resetSources(r *metadata.Record, field string) {
	delete(r.FieldSources, field)
}

// pruneSources drops empty FieldSources entries and keeps in Sources only
// the sources some field still names.
func pruneSources(r *metadata.Record) {
	used := map[string]bool{}
	for f, ss := range r.FieldSources {
		if len(ss) == 0 {
			delete(r.FieldSources, f)
			continue
		}
		for _, s := range ss {
			used[s] = true
		}
	}
	var keep []string
	for _, s := range r.Sources {
		if used[s] {
			keep = append(keep, s)
		}
	}
	r.Sources = keep
}

// SplitAuthors splits an author string into names: on ";" and " and " /
// " & "; then, when there is no ";", on "," only when every
// comma-separated piece has at least two words (so "Smith, John" stays one
// inverted name while "Ann Lee, Bo Chen" is two). A leading or trailing
// "and" is removed from each piece, and white space is collapsed.
func SplitAuthors(s string) []string {
	s = collapse(s)
	if s == "" {
		return nil
	}
	var parts []string
	if strings.Contains(s, ";") {
		for _, p := range strings.Split(s, ";") {
			parts = append(parts, andRe.Split(p, -1)...)
		}
	} else {
		for _, p := range andRe.Split(s, -1) {
			parts = append(parts, splitCommas(p)...)
		}
	}
	var out []string
	for _, p := range parts {
		p = strings.Trim(collapse(p), " ,")
		p = strings.TrimSpace(strings.TrimPrefix(p, "and "))
		p = strings.TrimSpace(strings.TrimSuffix(p, " and"))
		if p != "" && p != "and" {
			out = append(out, p)
		}
	}
	return out
}

var andRe = regexp.MustCompile(`(?i)\s+(?:and|&)\s+|,\s*(?:and|&)\s+`)

func splitCommas(s string) []string {
	if !strings.Contains(s, ",") {
		return []string{s}
	}
	var pieces []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			pieces = append(pieces, p)
		}
	}
	for _, p := range pieces {
		if len(strings.Fields(p)) < 2 {
			return []string{s}
		}
	}
	return pieces
}

// webAddress matches a URL or a bare web host in metadata text.
var webAddress = regexp.MustCompile(`(?i)\bhttps?://|\bwww\.|\bdoi\.org/`)

var fileExtRe = regexp.MustCompile(`(?i)\.(pdf|dvi|tex|docx?|rtf|odt|ps|eps|pptx?|xlsx?|txt|indd|qxd|wpd)$`)

// junkTitle says why t is not a real title, or "" when it may be one.
func junkTitle(t string) string {
	lower := strings.ToLower(t)
	switch lower {
	case "untitled", "untitled document", "no title", "title", "unknown", "none", "document", "microsoft word":
		return "is a placeholder"
	}
	for _, p := range []string{"microsoft word - ", "microsoft powerpoint - ", "microsoft excel - ", "untitled-"} {
		if strings.HasPrefix(lower, p) {
			return "was written by the authoring tool"
		}
	}
	if fileExtRe.MatchString(t) {
		return "looks like a file name"
	}
	if webAddress.MatchString(t) {
		// "Electron. Commun. Probab. 0 (2020), article no. 0,
		// https://doi.org/…": a class writing the journal's citation.
		return "holds a web address (a citation or a banner, not a title)"
	}
	letters := 0
	for _, r := range t {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	if letters == 0 {
		return "has no letters"
	}
	if len([]rune(t)) == 1 {
		return "is a single character"
	}
	return ""
}

// junkAuthor says why a (split) author string is not a person or an
// organisation, or "" when it may be one.
func junkAuthor(a string) string {
	lower := strings.ToLower(a)
	switch lower {
	case "administrator", "admin", "user", "owner", "author", "unknown", "default", "guest",
		"root", "windows user", "microsoft office user", "standard", "anonymous":
		return "is a placeholder account"
	}
	if strings.Contains(a, "@") {
		return "is an e-mail address"
	}
	if webAddress.MatchString(a) {
		return "holds a web address, not a name" // "Please see https://doi.org/…"
	}
	letters := 0
	for _, r := range a {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	if letters < 2 {
		return "is not a name"
	}
	if !strings.Contains(a, " ") && isLoginName(a) {
		return "looks like a login name"
	}
	return ""
}

// isLoginName reports whether a single token is all lower-case ASCII
// letters and digits ("dalandon", "jsmith2"); real single-name authors are
// capitalised.
func isLoginName(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

// parseDate reads a PDF date ("D:YYYYMMDDHHmmSSOHH'mm'", any prefix of the
// date part) or an ISO 8601 date ("2023-02-17T19:58:53Z", "2023-02",
// "2023") as a calendar date.
func parseDate(s string) (metadata.Date, bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "D:")
	if len(s) < 4 {
		return metadata.Date{}, false
	}
	var parts []string
	if len(s) >= 5 && s[4] == '-' {
		// ISO 8601: YYYY[-MM[-DD[Thh:mm...]]]
		d := s
		if i := strings.IndexAny(d, "T "); i >= 0 {
			d = d[:i]
		}
		parts = strings.Split(d, "-")
	} else {
		digits := s
		for i, r := range s {
			if r < '0' || r > '9' {
				digits = s[:i]
				break
			}
		}
		for i := 0; i+2 <= len(digits) && len(parts) < 3; {
			n := 2
			if i == 0 {
				n = 4
			}
			if i+n > len(digits) {
				break
			}
			parts = append(parts, digits[i:i+n])
			i += n
		}
	}
	if len(parts) == 0 {
		return metadata.Date{}, false
	}
	var v [3]int
	for i := 0; i < len(parts) && i < 3; i++ {
		n, err := strconv.Atoi(parts[i])
		if err != nil {
			break
		}
		v[i] = n
	}
	if v[0] < 1000 || v[0] > 9999 {
		return metadata.Date{}, false
	}
	d := metadata.Date{Year: v[0]}
	if v[1] >= 1 && v[1] <= 12 {
		d.Month = v[1]
		if v[2] >= 1 && v[2] <= 31 {
			d.Day = v[2]
		}
	}
	return d, true
}

// plausibleCreation rejects creation dates no PDF can have: before PDF
// existed (1993) or absurdly far in the future.
func plausibleCreation(d metadata.Date) bool {
	return d.Year >= 1993 && d.Year <= 2100
}

// decodePDFString decodes a text string still in its PDF byte form: UTF-16BE
// with a byte-order mark. Anything else is returned unchanged.
func decodePDFString(s string) string {
	if len(s) >= 2 && s[0] == 0xFE && s[1] == 0xFF {
		b := []byte(s[2:])
		u := make([]uint16, 0, len(b)/2)
		for i := 0; i+1 < len(b); i += 2 {
			u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
		}
		return string(utf16.Decode(u))
	}
	return s
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

func dropPrefixed(ws []string, prefix string) []string {
	var out []string
	for _, w := range ws {
		if !strings.HasPrefix(w, prefix) {
			out = append(out, w)
		}
	}
	return out
}

func cloneRecord(r *metadata.Record) *metadata.Record {
	c := *r
	c.Authors = append([]metadata.Name(nil), r.Authors...)
	c.Sources = append([]string(nil), r.Sources...)
	c.Warnings = append([]string(nil), r.Warnings...)
	if r.FieldSources != nil {
		c.FieldSources = make(map[string][]string, len(r.FieldSources))
		for k, v := range r.FieldSources {
			c.FieldSources[k] = append([]string(nil), v...)
		}
	}
	return &c
}
