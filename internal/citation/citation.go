// Package citation renders a work's metadata as a reference-list entry in a
// fixed set of styles: APA 7, MLA 9, Chicago (18th edition,
// notes-bibliography, bibliography entry), IEEE, and a BibTeX entry. These
// are the five subsections of a wiki note's "## Citations" section and the
// formats of the crossmem_cite MCP tool.
//
// It is pure and deterministic: Format reads a *metadata.Record, does no I/O
// and keeps no state, so the same record always gives the same bytes.
//
// The styles are written by hand in Go (no CSL processor exists for Go) and
// are measured against citeproc-js running the official CSL styles
// (../shared/corpus/api/oracle_out.json). They cover the common item types:
// article-journal, article (a preprint, arXiv or other), paper-conference,
// book and chapter, plus dataset; any other type is rendered as a journal
// article when it has a container title and as a book otherwise.
//
// Output is plain text: titles and container titles that the styles
// italicise are not marked up, inline markup in titles (<i>, <sub>, …) is
// removed, straight apostrophes become ’ and straight double quotes become
// typographic quotes (single ones inside a quoted title), as citeproc-js
// does. MLA and Chicago convert titles to title case with CSL's rules
// (capitalise lower-case words except CSL's stop words; words with any
// capital letter are left alone); APA and IEEE print titles as stored.
//
// Names follow CSL conventions over metadata.Name: a name with only a family
// name (or only Literal) is printed whole and never abbreviated; a leading
// lower-case particle of the family name ("dos Santos", "van der Putten") is
// kept in front except in Chicago's inverted first name ("Santos, Valérie
// dos"); a suffix is read from the given name after a comma ("Amos B., III")
// or from the family name after a comma ("Smith, Jr."); CJK names print as
// family+given with no space and no initials.
//
// DOIs render as https://doi.org/<doi> (IEEE: "doi: <doi>", as the IEEE CSL
// style does); without a DOI the record's URL is used, for arXiv preprints
// without either https://arxiv.org/abs/<id>.
package citation

import (
	"errors"
	"fmt"
	"strings"

	"github.com/crossmem/crossmem/internal/metadata"
)

// Style names one citation format.
type Style string

// The supported styles, by the names users type (crossmem_cite's format).
const (
	APA     Style = "apa"     // APA 7th edition reference-list entry
	MLA     Style = "mla"     // MLA Handbook 9th edition works-cited entry
	Chicago Style = "chicago" // Chicago Manual of Style 18th edition, notes-bibliography, bibliography entry
	IEEE    Style = "ieee"    // IEEE reference-list entry, without the "[1]" label
	BibTeX  Style = "bibtex"  // one BibTeX entry
)

// Styles returns every supported style in the order apa, mla, chicago,
// ieee, bibtex. The slice is new on each call.
func Styles() []Style { return []Style{APA, MLA, Chicago, IEEE, BibTeX} }

// String returns the style's name.
func (s Style) String() string { return string(s) }

// ParseStyle returns the style named s, ignoring case and surrounding
// space. An unknown name is an error that lists the valid names.
func ParseStyle(s string) (Style, error) {
	want := Style(strings.ToLower(strings.TrimSpace(s)))
	for _, st := range Styles() {
		if st == want {
			return st, nil
		}
	}
	names := make([]string, 0, 5)
	for _, st := range Styles() {
		names = append(names, string(st))
	}
	return "", fmt.Errorf("unknown citation style %q (valid: %s)", s, strings.Join(names, ", "))
}

// Format renders rec in style. key is the cite key; only BibTeX uses it (as
// the entry key) and it must then be non-empty and free of whitespace and
// the characters , { } ( ) " ' # % = ~ \. The result is one line of plain
// text, or for BibTeX a multi-line entry without a trailing newline.
//
// Format returns an error for a nil record, a record with no title, no
// author and no container title, an unknown style, or an unusable BibTeX
// key. Missing fields are left out without leaving empty brackets or
// doubled punctuation behind.
func Format(rec *metadata.Record, key string, style Style) (string, error) {
	if rec == nil {
		return "", errors.New("format citation: nil record")
	}
	it := newItem(rec)
	if it.title == "" && len(it.authors) == 0 && it.container == "" {
		return "", errors.New("format citation: record has no title, author or container title")
	}
	switch style {
	case APA:
		return apa(it), nil
	case MLA:
		return mla(it), nil
	case Chicago:
		return chicago(it), nil
	case IEEE:
		return ieee(it), nil
	case BibTeX:
		return bibtex(rec, it, key)
	}
	_, err := ParseStyle(string(style))
	return "", err
}

// Item kinds after normalising metadata.Record.Type.
const (
	kindJournal    = "article-journal"
	kindPreprint   = "article"
	kindConference = "paper-conference"
	kindBook       = "book"
	kindChapter    = "chapter"
	kindDataset    = "dataset"
	kindReport     = "report"
	kindThesis     = "thesis"
)

// item is a Record cleaned for rendering: markup removed, whitespace
// collapsed, names parsed.
type item struct {
	kind      string
	title     string // markup removed, apostrophes typographic; quotes left straight
	authors   []person
	date      metadata.Date
	container string
	volume    string
	issue     string
	page      string
	publisher string
	doi       string // bare DOI, no resolver prefix
	url       string // used only when there is no DOI
	arxivID   string
}

func newItem(rec *metadata.Record) item {
	it := item{
		kind:      kind(rec),
		title:     typographic(clean(stripTags(rec.Title))),
		date:      rec.Issued,
		container: typographic(clean(stripTags(rec.ContainerTitle))),
		volume:    clean(rec.Volume),
		issue:     clean(rec.Issue),
		page:      clean(rec.Page),
		publisher: typographic(clean(rec.Publisher)),
		doi:       bareDOI(firstNonEmpty(rec.DOI, rec.DOIPublished, rec.DOIPreprint)),
		arxivID:   clean(rec.ArxivID),
	}
	if it.date.Year <= 0 {
		it.date = metadata.Date{}
	}
	if it.date.Month < 1 || it.date.Month > 12 {
		it.date.Month, it.date.Day = 0, 0
	}
	if it.date.Day < 1 || it.date.Day > 31 {
		it.date.Day = 0
	}
	if it.doi == "" {
		it.url = clean(rec.URL)
		if it.url == "" && it.arxivID != "" {
			it.url = "https://arxiv.org/abs/" + it.arxivID
		}
	}
	if it.kind == kindPreprint && it.arxivID != "" && it.publisher == "" {
		it.publisher = "arXiv"
	}
	for _, n := range rec.Authors {
		if p, ok := parseName(n); ok {
			it.authors = append(it.authors, p)
		}
	}
	return it
}

// kind maps a CSL (or Crossref) type to one of the kinds the styles know.
func kind(rec *metadata.Record) string {
	switch strings.ToLower(strings.TrimSpace(rec.Type)) {
	case "article-journal", "journal-article", "article-magazine", "article-newspaper", "review", "review-book":
		return kindJournal
	case "article", "preprint", "posted-content", "manuscript":
		return kindPreprint
	case "paper-conference", "proceedings-article":
		return kindConference
	case "book", "monograph", "edited-book", "reference-book":
		return kindBook
	case "chapter", "book-chapter", "book-section", "entry-encyclopedia", "entry-dictionary":
		return kindChapter
	case "dataset":
		return kindDataset
	case "report":
		return kindReport
	case "thesis", "dissertation":
		return kindThesis
	}
	switch {
	case rec.ContainerTitle != "":
		return kindJournal
	case rec.ArxivID != "":
		return kindPreprint
	}
	return kindBook
}

// link returns the DOI as a URL, else the URL, else "".
func (it item) link() string {
	if it.doi != "" {
		return "https://doi.org/" + it.doi
	}
	return it.url
}

// arxivNumber returns "arXiv:<id>" for arXiv preprints, else "".
func (it item) arxivNumber() string {
	if it.arxivID == "" {
		return ""
	}
	return "arXiv:" + it.arxivID
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			return s
		}
	}
	return ""
}

// bareDOI strips resolver prefixes ("https://doi.org/", "doi:").
func bareDOI(d string) string {
	d = clean(d)
	lower := strings.ToLower(d)
	for _, p := range []string{"https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "http://dx.doi.org/", "doi:"} {
		if strings.HasPrefix(lower, p) {
			return strings.TrimSpace(d[len(p):])
		}
	}
	return d
}
