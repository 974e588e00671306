// Package csl defines the CSL-JSON item: the one shape every citation
// formatter reads, `crossmem cite --format csl-json` writes and `crossmem
// import` accepts (a JSON array of items, as Zotero, Better BibTeX,
// citation-js and pandoc exchange them).
//
// The field names and value shapes follow the CSL-JSON schema
// (https://github.com/citation-style-language/schema, csl-data.json):
// names split into family / given / particles / suffix, dates as
// date-parts. Numbers that CSL allows as strings or numbers (volume, issue,
// page, number, edition) are read from either and kept as strings.
//
// arXiv has no CSL variable of its own; crossmem follows arXiv's and
// Zotero's convention: type "article", number "arXiv:<id>", publisher
// "arXiv" and the DataCite DOI 10.48550/arXiv.<id>.
//
// FromRecord and (Item).Record convert between an Item and crossmem's
// metadata.Record; they are inverses on the fields both carry.
package csl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/crossmem/crossmem/internal/identifier"
	"github.com/crossmem/crossmem/internal/metadata"
)

// Item is one CSL-JSON item. ID is the cite key. Empty fields are left out
// of the JSON encoding.
type Item struct {
	ID              string `json:"id"`
	Type            string `json:"type"`
	Title           string `json:"title,omitempty"`
	Author          []Name `json:"author,omitempty"`
	Editor          []Name `json:"editor,omitempty"`
	Issued          *Date  `json:"issued,omitempty"`
	ContainerTitle  string `json:"container-title,omitempty"`
	CollectionTitle string `json:"collection-title,omitempty"`
	Volume          Number `json:"volume,omitempty"`
	Issue           Number `json:"issue,omitempty"`
	Page            Number `json:"page,omitempty"`
	Number          Number `json:"number,omitempty"`
	Edition         Number `json:"edition,omitempty"`
	Publisher       string `json:"publisher,omitempty"`
	PublisherPlace  string `json:"publisher-place,omitempty"`
	Genre           string `json:"genre,omitempty"`
	DOI             string `json:"DOI,omitempty"`
	URL             string `json:"URL,omitempty"`
	ISBN            string `json:"ISBN,omitempty"`
	ISSN            string `json:"ISSN,omitempty"`
	Abstract        string `json:"abstract,omitempty"`
	Note            string `json:"note,omitempty"`
	Language        string `json:"language,omitempty"`
	// Accessed is when an online source was retrieved; Dimensions a
	// recording's running time ("18:39", "1:56:20").
	Accessed   *Date  `json:"accessed,omitempty"`
	Dimensions string `json:"dimensions,omitempty"`
}

// Name is a CSL name. A person has Family (without particles) and usually
// Given; an organisation or a single-name person has only Literal (or only
// Family, as Crossref writes single names).
type Name struct {
	Family              string `json:"family,omitempty"`
	Given               string `json:"given,omitempty"`
	DroppingParticle    string `json:"dropping-particle,omitempty"`
	NonDroppingParticle string `json:"non-dropping-particle,omitempty"`
	Suffix              string `json:"suffix,omitempty"`
	Literal             string `json:"literal,omitempty"`
}

// IsZero reports whether n has no part at all.
func (n Name) IsZero() bool { return n == Name{} }

// FullFamily returns the family name with its particles: "van der Putten".
func (n Name) FullFamily() string {
	return strings.TrimSpace(strings.Join(strings.Fields(n.DroppingParticle+" "+n.NonDroppingParticle+" "+n.Family), " "))
}

// Date is a CSL date. Only the first element of DateParts is used (ranges
// keep their start); a date given only as Raw ("2017-06-12", "2017") or
// Literal is parsed when read with Start.
type Date struct {
	DateParts [][]Number `json:"date-parts,omitempty"`
	Raw       string     `json:"raw,omitempty"`
	Literal   string     `json:"literal,omitempty"`
	Season    Number     `json:"season,omitempty"`
	Circa     any        `json:"circa,omitempty"`
}

// Start returns the date's first year, month and day (0 when absent or not
// a number). Parts out of range (month > 12, day > 31) are dropped with the
// parts after them.
func (d *Date) Start() metadata.Date {
	if d == nil {
		return metadata.Date{}
	}
	var parts []int
	if len(d.DateParts) > 0 {
		for _, p := range d.DateParts[0] {
			v, err := strconv.Atoi(strings.TrimSpace(string(p)))
			if err != nil {
				break
			}
			parts = append(parts, v)
		}
	} else {
		parts = parseRawDate(firstNonEmpty(d.Raw, d.Literal))
	}
	var out metadata.Date
	if len(parts) > 0 && parts[0] != 0 {
		out.Year = parts[0]
	} else {
		return out
	}
	if len(parts) > 1 && parts[1] >= 1 && parts[1] <= 12 {
		out.Month = parts[1]
		if len(parts) > 2 && parts[2] >= 1 && parts[2] <= 31 {
			out.Day = parts[2]
		}
	}
	return out
}

// DateOf returns a CSL date for d, or nil when d has no year.
func DateOf(d metadata.Date) *Date {
	if d.Year == 0 {
		return nil
	}
	parts := []Number{Number(strconv.Itoa(d.Year))}
	if d.Month > 0 {
		parts = append(parts, Number(strconv.Itoa(d.Month)))
		if d.Day > 0 {
			parts = append(parts, Number(strconv.Itoa(d.Day)))
		}
	}
	return &Date{DateParts: [][]Number{parts}}
}

// parseRawDate reads "YYYY", "YYYY-MM", "YYYY-MM-DD" (also with / or .).
func parseRawDate(s string) []int {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '/' || r == '.' || r == ' ' })
	var out []int
	for _, f := range fields {
		v, err := strconv.Atoi(f)
		if err != nil {
			break
		}
		out = append(out, v)
	}
	if len(out) > 0 && (out[0] < 100 || out[0] > 9999) {
		return nil
	}
	return out
}

// Number is a CSL "number or string" variable, kept as its string form.
type Number string

// UnmarshalJSON accepts a JSON string or number.
func (n *Number) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*n = Number(strings.TrimSpace(s))
		return nil
	}
	if string(b) == "null" {
		*n = ""
		return nil
	}
	var f json.Number
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("want a string or a number, got %s", truncate(string(b), 40))
	}
	*n = Number(f.String())
	return nil
}

// MarshalJSON writes a string (CSL accepts strings for every number
// variable).
func (n Number) MarshalJSON() ([]byte, error) { return json.Marshal(string(n)) }

// ErrNotArray is returned by Decode when the input is not a JSON array of
// objects (a single object is accepted).
var ErrNotArray = errors.New("CSL-JSON input must be an array of items")

// Decode reads a CSL-JSON array of items (or a single item object). Errors
// name the item index and the line.
func Decode(data []byte) ([]Item, error) {
	items, _, err := DecodeLines(data)
	return items, err
}

// DecodeLines is Decode that also returns, for each item, the 1-based line
// of the input on which the item's object starts.
func DecodeLines(data []byte) ([]Item, []int, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, nil, fmt.Errorf("%w: the input is empty", ErrNotArray)
	}
	if trimmed[0] == '{' {
		var it Item
		if err := strictUnmarshal(data, &it); err != nil {
			return nil, nil, err
		}
		return []Item{it}, []int{lineOf(data, bytes.IndexByte(data, '{'))}, nil
	}
	if trimmed[0] != '[' {
		return nil, nil, fmt.Errorf("%w: it starts with %q", ErrNotArray, truncate(string(trimmed), 20))
	}
	var raw []json.RawMessage
	if err := strictUnmarshal(data, &raw); err != nil {
		return nil, nil, err
	}
	// The input is valid JSON: walk it again for the items' offsets.
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // '['
		return nil, nil, err
	}
	items := make([]Item, 0, len(raw))
	lines := make([]int, 0, len(raw))
	for i := 0; dec.More(); i++ {
		off := int(dec.InputOffset())
		for off < len(data) && (data[off] == ',' || data[off] == ' ' || data[off] == '\t' || data[off] == '\n' || data[off] == '\r') {
			off++
		}
		line := lineOf(data, off)
		var r json.RawMessage
		if err := dec.Decode(&r); err != nil {
			return nil, nil, fmt.Errorf("item %d (line %d): %w", i+1, line, err)
		}
		if t := bytes.TrimSpace(r); len(t) == 0 || t[0] != '{' {
			return nil, nil, fmt.Errorf("item %d (line %d): want an object, got %s", i+1, line, truncate(string(t), 20))
		}
		var it Item
		if err := json.Unmarshal(r, &it); err != nil {
			return nil, nil, fmt.Errorf("item %d (line %d): %w", i+1, line, err)
		}
		items = append(items, it)
		lines = append(lines, line)
	}
	return items, lines, nil
}

func strictUnmarshal(data []byte, v any) error {
	err := json.Unmarshal(data, v)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("line %d: invalid JSON: %v", lineOf(data, int(se.Offset)), se)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Errorf("line %d: field %q: want %s, got %s", lineOf(data, int(te.Offset)), te.Field, te.Type, te.Value)
	}
	return err
}

// lineOf returns the 1-based line of byte offset off in data.
func lineOf(data []byte, off int) int {
	if off < 0 {
		return 0
	}
	if off > len(data) {
		off = len(data)
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// nameSuffixes are generational suffixes recognised after a comma.
var nameSuffixes = map[string]bool{
	"jr": true, "jr.": true, "sr": true, "sr.": true,
	"ii": true, "iii": true, "iv": true, "v": true, "vi": true,
}

// NameOf splits a metadata.Name into CSL parts: a generational suffix
// written after a comma in the given name ("Amos B., III") or the family
// name ("Smith, Jr.") moves to Suffix; leading lower-case words of a
// multi-word family name ("dos Santos", "van der Putten") move to
// NonDroppingParticle; a name with only a family or only a given name is
// kept as Family, as Crossref writes single names. Whitespace is collapsed.
func NameOf(n metadata.Name) Name {
	if lit := collapse(n.Literal); lit != "" {
		return Name{Literal: lit}
	}
	family, given := collapse(n.Family), collapse(n.Given)
	var out Name
	if i := strings.LastIndex(given, ","); i >= 0 && nameSuffixes[strings.ToLower(strings.TrimSpace(given[i+1:]))] {
		out.Suffix = strings.TrimSpace(given[i+1:])
		given = strings.TrimSpace(given[:i])
	}
	if i := strings.LastIndex(family, ","); i >= 0 && nameSuffixes[strings.ToLower(strings.TrimSpace(family[i+1:]))] {
		out.Suffix = strings.TrimSpace(family[i+1:])
		family = strings.TrimSpace(family[:i])
	}
	if family == "" {
		family, given = given, ""
	}
	out.Family, out.Given = family, given
	if words := strings.Fields(family); len(words) > 1 && given != "" {
		k := 0
		for k < len(words)-1 && startsLower(words[k]) {
			k++
		}
		if k > 0 {
			out.NonDroppingParticle = strings.Join(words[:k], " ")
			out.Family = strings.Join(words[k:], " ")
		}
	}
	return out
}

// MetadataName is the inverse of NameOf: particles join the family name,
// a suffix is written after a comma in the given name.
func (n Name) MetadataName() metadata.Name {
	if lit := collapse(n.Literal); lit != "" {
		return metadata.Name{Literal: lit}
	}
	family := collapse(n.FullFamily())
	given := collapse(n.Given)
	if s := collapse(n.Suffix); s != "" {
		if given == "" && family != "" {
			family += ", " + s
		} else {
			given += ", " + s
		}
	}
	return metadata.Name{Family: family, Given: given}
}

// arxivNote matches arXiv's reference form "arXiv:<id> [<primary class>]".
var arxivNote = regexp.MustCompile(`^arXiv:(\S+) \[([A-Za-z.-]+)\]$`)

// FromRecord returns rec as a CSL item with ID key. The DOI is rec.DOI, else
// the published DOI, else the preprint DOI; an arXiv preprint without a
// publisher gets publisher "arXiv" and number "arXiv:<id>"; a journal
// reference becomes the note "Journal reference: …" as arXiv exports it,
// else an arXiv primary category the note "arXiv:<id> [<class>]".
func FromRecord(rec *metadata.Record, key string) Item {
	if rec == nil {
		return Item{ID: key}
	}
	it := Item{
		ID:              key,
		Type:            rec.Type,
		Title:           rec.Title,
		Issued:          DateOf(rec.Issued),
		ContainerTitle:  rec.ContainerTitle,
		CollectionTitle: rec.CollectionTitle,
		Volume:          Number(rec.Volume),
		Issue:           Number(rec.Issue),
		Page:            Number(rec.Page),
		Number:          Number(rec.Number),
		Edition:         Number(rec.Edition),
		Publisher:       rec.Publisher,
		PublisherPlace:  rec.PublisherPlace,
		Genre:           rec.Genre,
		DOI:             firstNonEmpty(rec.DOI, rec.DOIPublished, rec.DOIPreprint),
		URL:             rec.URL,
		ISBN:            rec.ISBN,
		ISSN:            rec.ISSN,
		Abstract:        rec.Abstract,
		Note:            rec.Note,
		Dimensions:      rec.Dimensions,
	}
	if rec.Accessed != nil && !rec.Accessed.IsZero() {
		it.Accessed = DateOf(*rec.Accessed)
	}
	if it.Type == "" {
		it.Type = guessType(rec)
	}
	for _, a := range rec.Authors {
		if n := NameOf(a); !n.IsZero() {
			it.Author = append(it.Author, n)
		}
	}
	for _, e := range rec.Editors {
		if n := NameOf(e); !n.IsZero() {
			it.Editor = append(it.Editor, n)
		}
	}
	if rec.ArxivID != "" {
		if it.Number == "" {
			it.Number = Number("arXiv:" + rec.ArxivID)
		}
		if it.Type == "article" && it.Publisher == "" {
			it.Publisher = "arXiv"
		}
	}
	switch {
	case it.Note != "":
	case rec.JournalRef != "":
		it.Note = "Journal reference: " + rec.JournalRef
	case rec.ArxivID != "" && rec.ArxivPrimaryCategory != "":
		it.Note = "arXiv:" + rec.ArxivID + " [" + rec.ArxivPrimaryCategory + "]"
	}
	return it
}

// guessType picks a CSL type for a record without one: a journal article
// when it has a container title, a preprint ("article") when it has an
// arXiv id, else "document".
func guessType(rec *metadata.Record) string {
	switch {
	case rec.ContainerTitle != "":
		return "article-journal"
	case rec.ArxivID != "":
		return "article"
	}
	return "document"
}

// Record returns the item as a metadata.Record (no sources, not
// reconciled). number "arXiv:<id>" or a DOI 10.48550/arXiv.<id> set
// ArxivID (with a version suffix "vN" split off into ArxivVersion); an arXiv
// DOI is also DOIPreprint; a note "Journal reference: …" sets JournalRef,
// a note "arXiv:<id> [<class>]" ArxivPrimaryCategory.
func (it Item) Record() *metadata.Record {
	rec := &metadata.Record{
		Type:            strings.TrimSpace(it.Type),
		Title:           collapse(it.Title),
		Issued:          it.Issued.Start(),
		ContainerTitle:  collapse(it.ContainerTitle),
		CollectionTitle: collapse(it.CollectionTitle),
		Volume:          collapse(string(it.Volume)),
		Issue:           collapse(string(it.Issue)),
		Page:            collapse(string(it.Page)),
		Number:          collapse(string(it.Number)),
		Edition:         collapse(string(it.Edition)),
		Publisher:       collapse(it.Publisher),
		PublisherPlace:  collapse(it.PublisherPlace),
		Genre:           collapse(it.Genre),
		DOI:             BareDOI(it.DOI),
		URL:             strings.TrimSpace(it.URL),
		ISBN:            collapse(it.ISBN),
		ISSN:            collapse(it.ISSN),
		Abstract:        strings.TrimSpace(it.Abstract),
		Note:            strings.TrimSpace(it.Note),
		Dimensions:      collapse(it.Dimensions),
	}
	if it.Accessed != nil {
		if d := it.Accessed.Start(); !d.IsZero() {
			rec.Accessed = &d
		}
	}
	if id, ok := cutPrefixFold(rec.Number, "arXiv:"); ok {
		rec.ArxivID = strings.TrimSpace(id)
		rec.Number = ""
	}
	if id, ok := identifier.ArxivIDFromDOI(rec.DOI); ok {
		rec.DOIPreprint = rec.DOI
		if rec.ArxivID == "" {
			rec.ArxivID = id
		}
	}
	if id, v, ok := identifier.ParseArxivID(rec.ArxivID); ok {
		rec.ArxivID, rec.ArxivVersion = id, v
	}
	if ref, ok := strings.CutPrefix(rec.Note, "Journal reference: "); ok {
		rec.JournalRef = strings.TrimSpace(ref)
		rec.Note = ""
	}
	if m := arxivNote.FindStringSubmatch(rec.Note); m != nil && (rec.ArxivID == "" || strings.HasPrefix(m[1], rec.ArxivID)) {
		if rec.ArxivID == "" {
			rec.ArxivID = m[1]
		}
		rec.ArxivPrimaryCategory = m[2]
		rec.Note = ""
	}
	for _, a := range it.Author {
		if n := a.MetadataName(); n != (metadata.Name{}) {
			rec.Authors = append(rec.Authors, n)
		}
	}
	for _, e := range it.Editor {
		if n := e.MetadataName(); n != (metadata.Name{}) {
			rec.Editors = append(rec.Editors, n)
		}
	}
	rec.Normalize()
	return rec
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

// BareDOI returns the bare DOI ("10.1093/mind/LIX.236.433") of a DOI
// written bare, as a doi.org URL or with a "doi:" prefix, as
// identifier.ParseDOI reads it (URL forms percent-decoded, trailing
// sentence punctuation dropped, case kept). A value that is not a DOI is
// returned trimmed, without a resolver prefix ("https://doi.org/",
// "http://dx.doi.org/", "doi.org/", "doi:", compared case-insensitively).
func BareDOI(d string) string {
	if doi, ok := identifier.ParseDOI(d); ok {
		return doi
	}
	d = strings.TrimSpace(d)
	for _, p := range []string{"https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "http://dx.doi.org/", "doi.org/", "dx.doi.org/", "doi:"} {
		if rest, ok := cutPrefixFold(d, p); ok {
			return strings.TrimSpace(rest)
		}
	}
	return d
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

func startsLower(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsLower(r)
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			return s
		}
	}
	return ""
}
