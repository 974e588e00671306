package bibtex

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/crossmem/crossmem/internal/csl"
	"github.com/crossmem/crossmem/internal/latex"
)

// Items parses data (see Parse) and converts every entry to a CSL item
// (see Entry.Item), in file order. An entry with a crossref field first
// inherits the fields it lacks from the entry that field names (see
// Inherit). Each warning starts with the entry's line and cite key:
// "line 12: smith2020: ...". On any syntax error Items returns no items,
// no warnings and Parse's error.
func Items(data []byte) ([]csl.Item, []string, error) {
	entries, err := Parse(data)
	if err != nil {
		return nil, nil, err
	}
	entries, warnings := Inherit(entries)
	items := make([]csl.Item, 0, len(entries))
	for _, e := range entries {
		it, ws := e.Item()
		for _, w := range ws {
			warnings = append(warnings, fmt.Sprintf("line %d: %s: %s", e.Line, e.Key, w))
		}
		items = append(items, it)
	}
	return items, warnings, nil
}

// Inherit returns entries with BibTeX's crossref inheritance applied: an
// entry whose crossref field names another entry of the list (by key,
// compared case-insensitively as BibTeX does) gets every field of that
// entry it does not have itself, except the parent's title, subtitle and
// shorttitle, which become booktitle and booksubtitle when the child has
// none, and the parent's crossref, xref, ids and key. Only one level is
// followed. A crossref to a key not in the list is a warning ("line N:
// key: ..."). The input is not modified.
func Inherit(entries []Entry) ([]Entry, []string) {
	byKey := make(map[string]int, len(entries))
	for i, e := range entries {
		k := strings.ToLower(e.Key)
		if _, ok := byKey[k]; !ok {
			byKey[k] = i
		}
	}
	var warnings []string
	out := make([]Entry, len(entries))
	for i, e := range entries {
		out[i] = e
		ref := strings.TrimSpace(strings.Trim(e.Get("crossref"), "{}"))
		if ref == "" {
			continue
		}
		j, ok := byKey[strings.ToLower(ref)]
		if !ok {
			warnings = append(warnings, fmt.Sprintf("line %d: %s: crossref %q names no entry in this file; nothing inherited", e.Line, e.Key, ref))
			continue
		}
		fields := append([]Field(nil), e.Fields...)
		has := func(name string) bool {
			for _, f := range fields {
				if f.Name == name {
					return true
				}
			}
			return false
		}
		for _, f := range entries[j].Fields {
			name := f.Name
			switch name {
			case "crossref", "xref", "ids", "key", "shorttitle":
				continue
			case "title":
				name = "booktitle"
			case "subtitle":
				name = "booksubtitle"
			}
			if !has(name) {
				fields = append(fields, Field{Name: name, Value: f.Value, Line: f.Line})
			}
		}
		out[i].Fields = fields
	}
	return out, warnings
}

// entryTypes maps BibTeX and BibLaTeX entry types to CSL types.
var entryTypes = map[string]string{
	"article":       "article-journal",
	"inproceedings": "paper-conference", "conference": "paper-conference",
	"proceedings": "book", "mvproceedings": "book",
	"book": "book", "mvbook": "book", "collection": "book", "mvcollection": "book",
	"reference": "book", "mvreference": "book",
	"booklet":      "pamphlet",
	"incollection": "chapter", "inbook": "chapter", "bookinbook": "chapter",
	"suppbook": "chapter", "suppcollection": "chapter",
	"inreference": "entry-encyclopedia",
	"techreport":  "report", "report": "report", "manual": "report",
	"phdthesis": "thesis", "mastersthesis": "thesis", "thesis": "thesis",
	"misc": "document", "online": "webpage", "electronic": "webpage", "www": "webpage",
	"dataset": "dataset", "software": "software", "unpublished": "manuscript",
	"preprint": "article", "patent": "patent", "periodical": "periodical",
	"standard": "standard", "artwork": "graphic", "image": "graphic",
	"audio": "song", "music": "song", "video": "motion_picture", "movie": "motion_picture",
	"letter": "personal_communication", "legislation": "legislation",
	"jurisdiction": "legal_case", "review": "review", "performance": "performance",
}

// genres are the standard values of the type field and the thesis entry
// types, as CSL genres.
var genres = map[string]string{
	"phdthesis": "PhD thesis", "mastersthesis": "Master's thesis", "mathesis": "Master's thesis",
	"candthesis": "Candidate thesis", "bathesis": "Bachelor's thesis",
	"techreport": "Technical report", "resreport": "Research report",
	"software": "Software", "datacd": "Data CD", "audiocd": "Audio CD",
}

// langids maps babel/polyglossia language names (biblatex's langid) to
// BCP 47 codes.
var langids = map[string]string{
	"english": "en", "american": "en-US", "usenglish": "en-US", "british": "en-GB",
	"ukenglish": "en-GB", "canadian": "en-CA", "australian": "en-AU",
	"newzealand": "en-NZ", "german": "de", "ngerman": "de", "austrian": "de-AT",
	"naustrian": "de-AT", "swissgerman": "de-CH", "nswissgerman": "de-CH",
	"french": "fr", "spanish": "es", "italian": "it", "portuguese": "pt",
	"portuges": "pt", "brazil": "pt-BR", "brazilian": "pt-BR", "dutch": "nl",
	"russian": "ru", "japanese": "ja", "chinese": "zh", "polish": "pl",
	"czech": "cs", "slovak": "sk", "swedish": "sv", "danish": "da",
	"norwegian": "nb", "norsk": "nb", "nynorsk": "nn", "finnish": "fi",
	"greek": "el", "turkish": "tr", "korean": "ko", "catalan": "ca",
	"hungarian": "hu", "latin": "la", "ukrainian": "uk", "hebrew": "he",
	"arabic": "ar", "croatian": "hr", "serbian": "sr", "slovene": "sl",
	"romanian": "ro", "bulgarian": "bg", "estonian": "et", "latvian": "lv",
	"lithuanian": "lt", "icelandic": "is", "irish": "ga", "welsh": "cy",
	"basque": "eu", "galician": "gl", "indonesian": "id", "vietnamese": "vi",
	"thai": "th", "hindi": "hi", "persian": "fa",
}

// Item converts e to a CSL item; it never fails, and the warnings say
// what it left out or guessed (no cite key or line: Items adds them).
//
// ID is e.Key unchanged. The CSL type comes from the entry type: article →
// article-journal (article-magazine / article-newspaper by entrysubtype;
// "article", a preprint, when it has no journal), inproceedings and
// conference → paper-conference, book and its biblatex variants → book,
// incollection, inbook (with a booktitle; else book) and bookinbook →
// chapter, techreport, report and manual → report, phdthesis,
// mastersthesis and thesis → thesis with genre "PhD thesis" / "Master's
// thesis" or the type field, misc → document, online, electronic and www →
// webpage, dataset, software, unpublished → manuscript, booklet → pamphlet,
// patent, standard and a few more; an unknown type is a document, with a
// warning.
//
// arXiv: an article, misc, online, unpublished or preprint entry with an
// arXiv id — eprint with eprinttype or archiveprefix arXiv (or an eprint
// that is an arXiv id), a journal or howpublished such as "arXiv preprint
// arXiv:1706.03762", "CoRR abs/1706.03762" or "ArXiv", a DOI
// 10.48550/arXiv.<id> or an arxiv.org URL — and no other journal is a
// preprint: type "article",
// number "arXiv:<id>", publisher "arXiv", no container title (and DBLP's
// volume "abs/<id>" dropped). Any other entry with an arXiv eprint gets
// number "arXiv:<id>" when its number is free.
//
// Fields: every text field is decoded (latex.Decode) with white space
// collapsed to single spaces (so ~ becomes a space); the abstract keeps
// its paragraph breaks. title (+ ": " + subtitle); author and editor (see
// names); date (biblatex: YYYY, YYYY-MM, YYYY-MM-DD, a range's start,
// EDTF's ? and ~ ignored) or else year (the first four-digit run, with a
// warning when there is more) with month (jan … dec, 1–12, English names
// and abbreviations, "jun 12" with a day) and day; journal / journaltitle
// (+ journalsubtitle), else booktitle (+ booksubtitle) except for books →
// container-title; series → collection-title; volume; number → issue for
// articles (issue when there is no number) and number otherwise; pages
// with -- and – written as "-" (CSL-JSON's convention, "46-51"), also in
// volume and issue; edition; publisher, or for reports and theses
// institution / school first, then organization, institution, school;
// address / location → publisher-place; type → genre; doi without its
// resolver prefix (https://doi.org/, doi:); url; howpublished → URL when
// it is a URL, else publisher when there is none; isbn; issn; note;
// abstract; langid / language → language (babel names such as ngerman
// become BCP 47 codes). doi, url, eprint and howpublished URLs are read
// verbatim: \url{} unwrapped, braces and white space removed, \_ \% \& \#
// \~{} unescaped, no dash or tie conversion.
func (e Entry) Item() (csl.Item, []string) {
	c := &conv{e: e}
	c.duplicates()
	it := csl.Item{ID: e.Key}
	typ, ok := entryTypes[e.Type]
	if !ok {
		typ = "document"
		c.warnf("entry type @%s is not a BibTeX or BibLaTeX type; imported as a document", e.Type)
	}
	journal := joinTitle(c.text("journal", "journaltitle"), c.text("journalsubtitle"))
	switch e.Type {
	case "article":
		switch strings.ToLower(c.text("entrysubtype")) {
		case "magazine":
			typ = "article-magazine"
		case "newspaper":
			typ = "article-newspaper"
		}
		if journal == "" {
			typ = "article"
		}
	case "inbook":
		if c.text("booktitle") == "" {
			typ = "book"
		}
	}
	it.Type = typ

	it.Title = joinTitle(c.text("title"), c.text("subtitle"))
	if it.Title == "" {
		c.warnf("no title")
	}
	it.Author = c.names("author")
	it.Editor = c.names("editor")
	it.Issued = c.issued()

	container := journal
	if container == "" && typ != "book" {
		container = joinTitle(c.text("booktitle"), c.text("booksubtitle"))
	}
	it.ContainerTitle = container
	it.CollectionTitle = c.text("series")
	it.Volume = csl.Number(c.number("volume"))
	number, issue := c.number("number"), c.number("issue")
	if strings.HasPrefix(typ, "article") {
		it.Issue = csl.Number(firstNonEmpty(number, issue))
	} else {
		it.Number, it.Issue = csl.Number(number), csl.Number(issue)
	}
	it.Page = csl.Number(c.number("pages"))
	it.Edition = csl.Number(c.text("edition"))

	switch typ {
	case "report", "thesis":
		it.Publisher = firstNonEmpty(c.text("institution"), c.text("school"), c.text("publisher"), c.text("organization"))
	default:
		it.Publisher = firstNonEmpty(c.text("publisher"), c.text("organization"), c.text("institution"), c.text("school"))
	}
	it.PublisherPlace = c.text("address", "location")
	if g := c.text("type"); g != "" {
		if std, ok := genres[strings.ToLower(g)]; ok {
			g = std
		}
		it.Genre = g
	} else if typ == "thesis" {
		it.Genre = genres[e.Type]
	}
	it.DOI = csl.BareDOI(verbatim(e.Get("doi")))
	it.URL = verbatim(e.Get("url"))
	if hp, ok := e.Lookup("howpublished"); ok {
		if u := verbatim(hp); hasURLScheme(u) {
			if it.URL == "" {
				it.URL = u
			}
		} else if it.Publisher == "" {
			it.Publisher = c.decode(hp)
		}
	}
	it.ISBN = c.text("isbn")
	it.ISSN = c.text("issn")
	it.Note = c.text("note")
	if a, ok := e.Lookup("abstract"); ok {
		it.Abstract = c.decodeKeep(a)
	}
	it.Language = c.language()
	c.arxiv(&it, journal)

	if len(c.unknown) > 0 {
		c.warnf("LaTeX commands kept as written: %s", strings.Join(c.unknown, ", "))
	}
	return it, c.warnings
}

// conv holds one conversion's warnings.
type conv struct {
	e        Entry
	warnings []string
	unknown  []string
}

func (c *conv) warnf(format string, args ...any) {
	c.warnings = append(c.warnings, fmt.Sprintf(format, args...))
}

// duplicates warns about fields given twice.
func (c *conv) duplicates() {
	first := map[string]int{}
	for _, f := range c.e.Fields {
		if l, ok := first[f.Name]; ok {
			c.warnf("field %q is given twice (lines %d and %d); the first is used", f.Name, l, f.Line)
			continue
		}
		first[f.Name] = f.Line
	}
}

// text returns the decoded value of the first of names that is present
// and not empty, white space collapsed.
func (c *conv) text(names ...string) string {
	for _, n := range names {
		if raw, ok := c.e.Lookup(n); ok {
			if s := c.decode(raw); s != "" {
				return s
			}
		}
	}
	return ""
}

// decode decodes raw LaTeX and collapses white space.
func (c *conv) decode(raw string) string {
	return strings.Join(strings.Fields(c.decodeKeep(raw)), " ")
}

// decodeKeep decodes raw LaTeX, keeping paragraph breaks, and records the
// unknown commands.
func (c *conv) decodeKeep(raw string) string {
	s, unknown := latex.DecodeUnknown(raw)
	for _, u := range unknown {
		seen := false
		for _, v := range c.unknown {
			seen = seen || u == v
		}
		if !seen {
			c.unknown = append(c.unknown, u)
		}
	}
	return s
}

// number returns a number-like field (volume, issue, pages) with en and em
// dashes as "-".
func (c *conv) number(name string) string {
	return dashes.Replace(c.text(name))
}

var dashes = strings.NewReplacer("–", "-", "—", "-", "‐", "-", "‑", "-", "−", "-")

func (c *conv) language() string {
	l := c.text("langid", "language")
	if l == "" {
		return ""
	}
	if code, ok := langids[strings.ToLower(l)]; ok {
		return code
	}
	return l
}

// issued reads date, or year with month and day.
func (c *conv) issued() *csl.Date {
	year := c.text("year")
	if d := c.text("date"); d != "" {
		parts, ok := isoDate(d)
		if !ok {
			c.warnf("date %q is not YYYY, YYYY-MM or YYYY-MM-DD; kept as a literal date", d)
			return &csl.Date{Literal: d}
		}
		if year != "" && year != strconv.Itoa(parts[0]) {
			c.warnf("date %q and year %q disagree; the date is used", d, year)
		}
		return datePartsOf(parts)
	}
	if year == "" {
		if m := c.text("month"); m != "" {
			c.warnf("month %q without a year is left out", m)
		}
		return nil
	}
	y, exact := parseYear(year)
	if y == 0 {
		c.warnf("year %q has no four-digit year; kept as a literal date", year)
		return &csl.Date{Literal: year}
	}
	if !exact {
		c.warnf("year %q read as %d", year, y)
	}
	parts := []int{y}
	if m := c.text("month"); m != "" {
		month, day := parseMonth(m)
		if month == 0 {
			c.warnf("month %q is not a month; only the year is kept", m)
		} else {
			parts = append(parts, month)
			if d := c.text("day"); d != "" && day == 0 {
				if v, err := strconv.Atoi(d); err == nil && v >= 1 && v <= 31 {
					day = v
				}
			}
			if day > 0 {
				parts = append(parts, day)
			}
		}
	}
	return datePartsOf(parts)
}

func datePartsOf(parts []int) *csl.Date {
	ns := make([]csl.Number, len(parts))
	for i, p := range parts {
		ns[i] = csl.Number(strconv.Itoa(p))
	}
	return &csl.Date{DateParts: [][]csl.Number{ns}}
}

// isoDate reads biblatex's date: YYYY, YYYY-MM, YYYY-MM-DD, or a range
// (its start; an open start uses the end), with EDTF's ? ~ % ignored.
// Seasons (months 21-24) and out-of-range parts are dropped.
func isoDate(s string) ([]int, bool) {
	start, end, _ := strings.Cut(s, "/")
	if strings.Trim(start, " .") == "" {
		start = end
	}
	start = strings.TrimSpace(start)
	if i := strings.IndexByte(start, 'T'); i > 0 {
		start = start[:i]
	}
	start = strings.Trim(start, "?~% ")
	fields := strings.Split(start, "-")
	if len(fields) > 3 || len(fields[0]) != 4 {
		return nil, false
	}
	var parts []int
	for i, f := range fields {
		v, err := strconv.Atoi(f)
		if err != nil || v < 0 {
			return nil, false
		}
		switch {
		case i == 1 && (v < 1 || v > 12):
			return parts, len(parts) > 0 && v >= 21 && v <= 24
		case i == 2 && (v < 1 || v > 31):
			return parts, true
		}
		parts = append(parts, v)
	}
	return parts, parts[0] > 0
}

var fourDigits = regexp.MustCompile(`\d{4}`)

// parseYear returns the year and whether s was only that year.
func parseYear(s string) (int, bool) {
	s = strings.TrimSpace(s)
	if v, err := strconv.Atoi(s); err == nil && v > 0 && v <= 9999 {
		return v, true
	}
	if m := fourDigits.FindString(s); m != "" {
		v, _ := strconv.Atoi(m)
		return v, false
	}
	return 0, false
}

var monthNames = []string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"}

// parseMonth reads "6", "06", "June", "jun", "Jun.", "jun 12" (with a
// day) or a range's start ("jan--feb", "June/July").
func parseMonth(s string) (month, day int) {
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return unicode.IsSpace(r) || r == '-' || r == '–' || r == '—' || r == '/' || r == ','
	})
	if len(words) == 0 {
		return 0, 0
	}
	w := strings.TrimSuffix(words[0], ".")
	if v, err := strconv.Atoi(w); err == nil {
		if v >= 1 && v <= 12 {
			month = v
		}
	} else if len(w) >= 3 {
		for i, name := range monthNames {
			if strings.HasPrefix(name, w) || w == "sept" && i == 8 {
				month = i + 1
				break
			}
		}
	}
	if month > 0 && len(words) > 1 {
		if v, err := strconv.Atoi(strings.TrimSuffix(words[1], ".")); err == nil && v >= 1 && v <= 31 {
			day = v
		}
	}
	return month, day
}

// joinTitle joins a title and a subtitle with ": " (or " " when the title
// ends in punctuation).
func joinTitle(title, sub string) string {
	switch {
	case sub == "":
		return title
	case title == "":
		return sub
	case strings.ContainsAny(title[len(title)-1:], ":?!.;"):
		return title + " " + sub
	}
	return title + ": " + sub
}

var verbatimUnescape = strings.NewReplacer(
	`\_`, "_", `\%`, "%", `\&`, "&", `\#`, "#", `\$`, "$",
	`\~{}`, "~", `{\textasciitilde}`, "~", `\textasciitilde{}`, "~", `\textasciitilde`, "~",
	`{\_}`, "_", `\textunderscore{}`, "_", `\textunderscore`, "_",
)

var noBraces = strings.NewReplacer("{", "", "}", "")

// verbatim reads a URL-like value: \url{...} unwrapped, escapes undone,
// braces and white space removed.
func verbatim(raw string) string {
	s := strings.TrimSpace(raw)
	for _, cmd := range []string{`\url{`, `\nolinkurl{`, `\href{`} {
		if strings.HasPrefix(s, cmd) {
			if end := latex.MatchBrace(s, len(cmd)-1); end > 0 {
				s = s[len(cmd):end]
			}
		}
	}
	s = verbatimUnescape.Replace(s)
	s = noBraces.Replace(s)
	return strings.Join(strings.Fields(s), "")
}

func hasURLScheme(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "ftp://") || strings.HasPrefix(l, "mailto:")
}

var (
	arxivIDRe     = regexp.MustCompile(`(?i)(?:arxiv:\s*|abs/)?(\d{4}\.\d{4,5}(?:v\d+)?|[a-z][a-z-]*(?:\.[a-z]{2})?/\d{7}(?:v\d+)?)`)
	arxivOnlyRe   = regexp.MustCompile(`(?i)^(?:arxiv:)?(\d{4}\.\d{4,5}(?:v\d+)?|[a-z][a-z-]*(?:\.[a-z]{2})?/\d{7}(?:v\d+)?)$`)
	arxivURLRe    = regexp.MustCompile(`(?i)arxiv\.org/(?:abs|pdf)/(\d{4}\.\d{4,5}(?:v\d+)?|[a-z][a-z-]*(?:\.[a-z]{2})?/\d{7}(?:v\d+)?)`)
	preprintTypes = map[string]bool{"article": true, "misc": true, "online": true, "electronic": true, "www": true, "unpublished": true, "preprint": true}
)

// arxiv applies the arXiv conventions (see Item).
func (c *conv) arxiv(it *csl.Item, journal string) {
	id := ""
	eprint := verbatim(c.e.Get("eprint"))
	kind := strings.ToLower(firstNonEmpty(c.text("eprinttype"), c.text("archiveprefix")))
	switch {
	case eprint == "":
	case kind == "arxiv":
		id = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(eprint, "arXiv:"), "arxiv:"))
	case kind == "":
		if m := arxivOnlyRe.FindStringSubmatch(eprint); m != nil {
			id = m[1]
		}
	}
	placeholder := isArxivJournal(journal)
	for _, where := range []string{journal, c.text("howpublished")} {
		if id == "" && placeholder && where != "" && isArxivJournal(where) {
			if m := arxivIDRe.FindStringSubmatch(where); m != nil {
				id = m[1]
			}
		}
	}
	if id == "" && placeholder {
		if rest, ok := cutPrefixFold(it.DOI, "10.48550/arXiv."); ok {
			id = rest
		} else if m := arxivURLRe.FindStringSubmatch(it.URL); m != nil {
			id = m[1]
		}
	}
	if id == "" {
		return
	}
	if placeholder && preprintTypes[c.e.Type] {
		it.Type = "article"
		it.ContainerTitle = ""
		it.Publisher = "arXiv"
		it.Number = csl.Number("arXiv:" + id)
		if v := string(it.Volume); strings.HasPrefix(strings.ToLower(v), "abs/") || v == id {
			it.Volume = ""
		}
		return
	}
	if it.Number == "" {
		it.Number = csl.Number("arXiv:" + id)
	}
}

// isArxivJournal reports whether a journal name is empty or only says
// arXiv ("arXiv preprint arXiv:1706.03762", "CoRR", "ArXiv e-prints").
func isArxivJournal(j string) bool {
	l := strings.ToLower(strings.TrimSpace(j))
	return l == "" || strings.HasPrefix(l, "arxiv") || l == "corr" || strings.HasPrefix(l, "corr ") ||
		l == "computing research repository"
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
