// Package citation renders one work, given as a CSL-JSON item (csl.Item),
// as a reference-list entry in a fixed set of styles: APA 7, MLA 9, Chicago
// 18th and 17th editions (notes-bibliography bibliography entry and
// author-date reference-list entry), IEEE, a BibTeX entry, a BibLaTeX entry,
// and the item itself as CSL-JSON. NoteStyles are the five subsections of a
// wiki note's "## Citations" section; Styles lists every style, by the
// names users type. docs/citations.md describes every style, the rules and
// the known differences from citeproc-js.
//
// It is pure and deterministic: Format reads a csl.Item, does no I/O and
// keeps no state, so the same item always gives the same bytes. A crossmem
// metadata.Record is cited through csl.FromRecord(rec, key).
//
// The styles are written by hand in Go (no CSL processor exists for Go) and
// are measured against citeproc-js running the official CSL styles
// (../shared/corpus/api/oracle_out.json). They cover the common item types:
// article-journal, article (a preprint, arXiv or other), paper-conference,
// book, chapter, report, thesis and dataset; any other type is rendered as
// a journal article when it has a container title and as a book otherwise.
//
// Output is plain text: titles and container titles that the styles
// italicise are not marked up, inline markup in titles (<i>, <sub>, …) is
// removed, straight apostrophes become ’ and straight double quotes become
// typographic quotes (single ones inside a quoted title), as citeproc-js
// does. MLA and Chicago convert titles to title case with CSL's rules
// (capitalise lower-case words except CSL's stop words; words with any
// capital letter are left alone); APA and IEEE print titles as stored.
//
// Names follow CSL: a name with only a family name (or only a literal) is
// printed whole and never abbreviated; particles come from the name's
// dropping-particle and non-dropping-particle, or, when both are empty, from
// the leading lower-case words of the family name ("dos Santos", "van der
// Putten"), as citeproc-js parses them; Chicago demotes the non-dropping
// particle in the inverted first name ("Santos, Valérie dos"); the suffix
// ("Jr.", "III") comes from the suffix field or from a comma in the given
// or family name; CJK names print as family+given with no space and no
// initials.
//
// DOIs render as https://doi.org/<doi> (IEEE: "doi: <doi>", as the IEEE CSL
// style does); without a DOI the item's URL is used, for arXiv preprints
// without either https://arxiv.org/abs/<id>.
package citation

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/crossmem/crossmem/internal/csl"
	"github.com/crossmem/crossmem/internal/metadata"
)

// Style names one citation format.
type Style string

// The supported styles, by the names users type (`crossmem cite --format`,
// crossmem_cite's format).
const (
	// APA is an APA Publication Manual 7th edition reference-list entry.
	APA Style = "apa"
	// MLA is an MLA Handbook 9th edition works-cited entry.
	MLA Style = "mla"
	// Chicago is a Chicago Manual of Style 18th edition
	// notes-bibliography style bibliography entry.
	Chicago Style = "chicago"
	// Chicago17 is a Chicago Manual of Style 17th edition
	// notes-bibliography style bibliography entry.
	Chicago17 Style = "chicago-17"
	// ChicagoAuthorDate is a Chicago Manual of Style 18th edition
	// author-date style reference-list entry.
	ChicagoAuthorDate Style = "chicago-author-date"
	// ChicagoAuthorDate17 is a Chicago Manual of Style 17th edition
	// author-date style reference-list entry.
	ChicagoAuthorDate17 Style = "chicago-author-date-17"
	// IEEE is an IEEE Reference Guide reference-list entry, without the
	// "[1]" label.
	IEEE Style = "ieee"
	// BibTeX is one BibTeX entry for the classic bibtex program and its
	// standard styles (plain, abbrv, alpha, unsrt, natbib's).
	BibTeX Style = "bibtex"
	// BibLaTeX is one entry for biblatex and biber: date instead of
	// year/month, journaltitle, location, eprint/eprinttype/eprintclass.
	BibLaTeX Style = "biblatex"
	// CSLJSON is the item itself as one pretty-printed CSL-JSON object, for
	// pandoc, Zotero and any CSL processor.
	CSLJSON Style = "csl-json"
)

// Styles returns every supported style in the order apa, mla, chicago,
// chicago-17, chicago-author-date, chicago-author-date-17, ieee, bibtex,
// biblatex, csl-json. The slice is new on each call.
func Styles() []Style {
	return []Style{APA, MLA, Chicago, Chicago17, ChicagoAuthorDate, ChicagoAuthorDate17, IEEE, BibTeX, BibLaTeX, CSLJSON}
}

// NoteStyles returns the styles a wiki note's "## Citations" section shows,
// in its order: apa, mla, chicago, ieee, bibtex. The slice is new on each
// call.
func NoteStyles() []Style { return []Style{APA, MLA, Chicago, IEEE, BibTeX} }

// String returns the style's name.
func (s Style) String() string { return string(s) }

// Title is the style's display name as a note's "### " heading and the
// viewer show it: "APA", "MLA", "Chicago", "IEEE", "BibTeX"; any other
// style's name in upper case.
func (s Style) Title() string {
	switch s {
	case APA:
		return "APA"
	case MLA:
		return "MLA"
	case Chicago:
		return "Chicago"
	case IEEE:
		return "IEEE"
	case BibTeX:
		return "BibTeX"
	}
	return strings.ToUpper(string(s))
}

// ParseStyle returns the style named s, ignoring case and surrounding
// space. An unknown name is an error that lists the valid names.
func ParseStyle(s string) (Style, error) {
	want := Style(strings.ToLower(strings.TrimSpace(s)))
	for _, st := range Styles() {
		if st == want {
			return st, nil
		}
	}
	var names []string
	for _, st := range Styles() {
		names = append(names, string(st))
	}
	return "", fmt.Errorf("unknown format %q: use one of %s", s, strings.Join(names, ", "))
}

// Unicode selects how BibTeX and BibLaTeX entries write characters outside
// ASCII.
type Unicode int

const (
	// UnicodeKeep writes them as they are (UTF-8), which biber, bibtex8,
	// bibtexu and LaTeX since 2018 read. This is the default.
	UnicodeKeep Unicode = iota
	// UnicodeLaTeX writes accented Latin letters as LaTeX accent commands
	// in braces ({\"u}, {\'e}, {\c{c}}, {\v{s}}, {\'\i}), special letters
	// as commands ({\ss}, {\o}, {\l}, {\ae}), Greek letters as math
	// ({$\delta$}), dashes as -- and ---, typographic quotes as ` ' `` ''
	// and the ellipsis as {\ldots}, for the classic 7-bit bibtex. Other
	// characters (CJK, for instance) are kept as they are.
	UnicodeLaTeX
)

// Options adjusts Format. The zero value is the default.
type Options struct {
	// Unicode selects the handling of non-ASCII characters in BibTeX and
	// BibLaTeX entries; the other styles always write Unicode.
	Unicode Unicode
}

// Format renders it in style with the default Options.
func Format(it csl.Item, style Style) (string, error) {
	return FormatWith(it, style, Options{})
}

// FormatWith renders it in style. The result is one line of plain text,
// for BibTeX and BibLaTeX a multi-line entry and for CSL-JSON an indented
// JSON object, without a trailing newline.
//
// it.ID is the cite key; BibTeX and BibLaTeX use it as the entry key, and
// it must then be non-empty and free of whitespace and the characters
// , { } ( ) " ' # % = ~ \.
//
// FormatWith returns an error for an item with no title, no author or
// editor and no container title, an unknown style, or an unusable BibTeX
// key. Missing fields are left out without leaving empty brackets or
// doubled punctuation behind.
func FormatWith(src csl.Item, style Style, opt Options) (string, error) {
	it := newItem(src)
	if it.title == "" && len(it.authors) == 0 && len(it.editors) == 0 && it.container == "" {
		return "", errors.New("format citation: item has no title, author, editor or container title")
	}
	if it.kind == kindVideo {
		switch style {
		case APA:
			return videoAPA(it), nil
		case MLA:
			return videoMLA(it), nil
		case Chicago, Chicago17:
			return videoChicago(it, false), nil
		case ChicagoAuthorDate, ChicagoAuthorDate17:
			return videoChicago(it, true), nil
		case IEEE:
			return videoIEEE(it), nil
		case BibTeX:
			return videoBibTeX(it, opt)
		case BibLaTeX:
			return videoBibLaTeX(it, opt)
		}
	}
	switch style {
	case APA:
		return apa(it), nil
	case MLA:
		return mla(it), nil
	case Chicago:
		return chicago(it, 18, false), nil
	case Chicago17:
		return chicago(it, 17, false), nil
	case ChicagoAuthorDate:
		return chicago(it, 18, true), nil
	case ChicagoAuthorDate17:
		return chicago(it, 17, true), nil
	case IEEE:
		return ieee(it), nil
	case BibTeX:
		return bibtex(it, opt)
	case BibLaTeX:
		return biblatex(it, opt)
	case CSLJSON:
		return cslJSON(src)
	}
	_, err := ParseStyle(string(style))
	return "", err
}

// cslJSON writes the item as one CSL-JSON object indented by two spaces,
// fields in csl.Item's order, HTML characters not escaped.
func cslJSON(it csl.Item) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(it); err != nil {
		return "", fmt.Errorf("format citation as CSL-JSON: %w", err)
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// Item kinds after normalising the CSL type.
const (
	kindJournal    = "article-journal"
	kindPreprint   = "article"
	kindConference = "paper-conference"
	kindBook       = "book"
	kindChapter    = "chapter"
	kindDataset    = "dataset"
	kindReport     = "report"
	kindThesis     = "thesis"
	kindWeb        = "webpage"
	// kindVideo (video.go) is a recording: motion_picture.
	kindOther = "document" // no or an unknown type, no container: rendered as a book
)

// item is a csl.Item cleaned for rendering: markup removed, whitespace
// collapsed, names parsed.
type item struct {
	src        csl.Item // as given, for BibTeX and BibLaTeX
	typ        string   // the CSL type, lower case
	kind       string
	title      string // markup removed, apostrophes typographic; quotes left straight
	authors    []person
	editors    []person
	date       metadata.Date
	container  string
	collection string
	volume     string
	issue      string
	page       string
	number     string
	edition    string
	publisher  string
	place      string
	genre      string
	doi        string // bare DOI, no resolver prefix
	url        string // used only when there is no DOI
	arxivID    string // from number "arXiv:<id>" or a DOI 10.48550/arXiv.<id>
	arxivClass string // from "arXiv:<id> [class]" in number or note
	note       string
	bibNote    string // note for BibTeX and BibLaTeX: "" when it only repeats the arXiv reference
	accessed   metadata.Date
	dimensions string
}

func newItem(src csl.Item) item {
	it := item{
		src:        src,
		typ:        strings.ToLower(strings.TrimSpace(src.Type)),
		title:      typographic(clean(stripTags(src.Title))),
		date:       src.Issued.Start(),
		container:  typographic(clean(stripTags(src.ContainerTitle))),
		collection: typographic(clean(stripTags(src.CollectionTitle))),
		volume:     clean(string(src.Volume)),
		issue:      clean(string(src.Issue)),
		page:       clean(string(src.Page)),
		number:     clean(string(src.Number)),
		edition:    clean(string(src.Edition)),
		publisher:  typographic(clean(src.Publisher)),
		place:      typographic(clean(src.PublisherPlace)),
		genre:      typographic(clean(src.Genre)),
		doi:        csl.BareDOI(clean(src.DOI)),
		note:       clean(src.Note),
		accessed:   src.Accessed.Start(),
		dimensions: clean(src.Dimensions),
	}
	if it.accessed.Year <= 0 {
		it.accessed = metadata.Date{}
	}
	if it.date.Year <= 0 {
		it.date = metadata.Date{}
	}
	it.arxivID, it.arxivClass = arxivOf(it.number, it.note, it.doi)
	it.bibNote = it.note
	if id, cls, ok := arxivRef(it.note); ok && id == it.arxivID {
		ref := "arXiv:" + id
		if cls != "" {
			ref += " [" + cls + "]"
		}
		if strings.EqualFold(it.note, ref) {
			it.bibNote = ""
		}
	}
	it.kind = kind(it.typ, it.container, it.arxivID)
	if it.doi == "" {
		it.url = clean(src.URL)
		if it.url == "" && it.arxivID != "" {
			it.url = "https://arxiv.org/abs/" + it.arxivID
		}
	}
	if it.kind == kindPreprint && it.arxivID != "" && it.publisher == "" {
		it.publisher = "arXiv"
	}
	for _, n := range src.Author {
		if p, ok := parseName(n); ok {
			it.authors = append(it.authors, p)
		}
	}
	for _, n := range src.Editor {
		if p, ok := parseName(n); ok {
			it.editors = append(it.editors, p)
		}
	}
	return it
}

// arxivOf finds an arXiv identifier: number "arXiv:<id>" (optionally
// followed by " [class]", arXiv's recommended form), else a note holding
// that form (Zotero writes it to Extra), else a DataCite DOI
// 10.48550/arXiv.<id>.
func arxivOf(number, note, doi string) (id, class string) {
	parse := arxivRef
	if strings.HasPrefix(strings.ToLower(number), "arxiv:") {
		if id, cls, ok := parse(number); ok {
			if cls == "" {
				if nid, ncls, ok := parse(note); ok && nid == id {
					cls = ncls
				}
			}
			return id, cls
		}
	}
	if rest, ok := cutPrefixFold(doi, "10.48550/arXiv."); ok && rest != "" {
		if nid, ncls, ok := parse(note); ok && nid == rest {
			return rest, ncls
		}
		return rest, ""
	}
	return "", ""
}

// arxivRef reads "arXiv:<id>" or "arXiv:<id> [class]" at the start of s.
func arxivRef(s string) (id, class string, ok bool) {
	rest, ok := cutPrefixFold(strings.TrimSpace(s), "arxiv:")
	if !ok {
		return "", "", false
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return "", "", false
	}
	if len(fields) > 1 && strings.HasPrefix(fields[1], "[") && strings.HasSuffix(fields[1], "]") {
		class = strings.Trim(fields[1], "[]")
	}
	return fields[0], class, true
}

// kind maps a CSL (or Crossref) type to one of the kinds the styles know.
func kind(typ, container, arxivID string) string {
	switch typ {
	case "article-journal", "journal-article", "article-magazine", "article-newspaper", "review", "review-book":
		return kindJournal
	case "article", "preprint", "posted-content", "manuscript":
		return kindPreprint
	case "paper-conference", "proceedings-article":
		return kindConference
	case "book", "monograph", "edited-book", "reference-book", "classic":
		return kindBook
	case "chapter", "book-chapter", "book-section", "entry-encyclopedia", "entry-dictionary", "entry":
		return kindChapter
	case "dataset":
		return kindDataset
	case "report":
		return kindReport
	case "thesis", "dissertation":
		return kindThesis
	case "webpage", "post", "post-weblog":
		return kindWeb
	case "motion_picture", "video", "broadcast":
		return kindVideo
	}
	switch {
	case container != "":
		return kindJournal
	case arxivID != "":
		return kindPreprint
	}
	return kindOther
}

// bookLike reports whether the title is the whole work (italic in print,
// not quoted).
func (it item) bookLike() bool {
	switch it.kind {
	case kindBook, kindReport, kindOther:
		return true
	}
	return false
}

// link returns the DOI as a URL, else the URL, else "".
func (it item) link() string {
	if it.doi != "" {
		return "https://doi.org/" + it.doi
	}
	return it.url
}

// editorsOnly reports whether the item has editors and no authors: the
// editors then stand in the author position.
func (it item) editorsOnly() bool { return len(it.authors) == 0 && len(it.editors) > 0 }

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			return s
		}
	}
	return ""
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}
