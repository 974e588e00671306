package citation

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/crossmem/crossmem/internal/csl"
)

// bibtexMonths are BibTeX's predefined month macros.
var bibtexMonths = [...]string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}

// bibEntry is one BibTeX or BibLaTeX entry being built.
type bibEntry struct {
	typ, key string
	fields   [][2]string
}

// add appends a braced field; empty values are left out.
func (e *bibEntry) add(name, value string) {
	if value != "" {
		e.fields = append(e.fields, [2]string{name, "{" + value + "}"})
	}
}

// addRaw appends a field written without braces (a month macro).
func (e *bibEntry) addRaw(name, value string) {
	if value != "" {
		e.fields = append(e.fields, [2]string{name, value})
	}
}

func (e *bibEntry) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "@%s{%s,\n", e.typ, e.key)
	for i, f := range e.fields {
		fmt.Fprintf(&b, "  %s = %s", f[0], f[1])
		if i < len(e.fields)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("}")
	return b.String()
}

// bibtex renders one BibTeX entry.
//
// Entry types: article-journal (and magazine, newspaper) → @article,
// paper-conference → @inproceedings, book → @book, chapter → @incollection,
// report → @techreport, thesis → @phdthesis, or @mastersthesis when the
// genre says master's; preprints (arXiv or not), datasets, web pages and
// anything else → @misc. arXiv identity is carried by eprint,
// archiveprefix and primaryclass on every entry type (arXiv's own export
// uses @misc the same way), so a published article that started on arXiv
// keeps its eprint.
//
// Fields appear in a fixed order: title, author, editor, year, month (an
// unbraced macro), journal or booktitle (howpublished for the container of
// a dataset or preprint), edition (an ordinal word, "Second"), series,
// volume, number (the issue, or a report's number), pages ("--" between
// pages), publisher (institution for @techreport, school for theses; left
// out when an arXiv preprint's publisher is just "arXiv"), address, type
// (a thesis's or report's genre), isbn, issn, doi, eprint, archiveprefix,
// primaryclass, url, note.
func bibtex(it item, opt Options) (string, error) {
	if err := bibtexKey(it.src.ID); err != nil {
		return "", err
	}
	e := &bibEntry{typ: "misc", key: it.src.ID}
	venue := ""
	publisherField := "publisher"
	number := ""
	switch it.kind {
	case kindJournal:
		e.typ, venue, number = "article", "journal", it.issue
	case kindConference:
		e.typ, venue, number = "inproceedings", "booktitle", it.issue
	case kindBook:
		e.typ = "book"
	case kindChapter:
		e.typ, venue = "incollection", "booktitle"
	case kindReport:
		e.typ, publisherField, number = "techreport", "institution", it.number
	case kindThesis:
		e.typ, publisherField = "phdthesis", "school"
		if isMasters(it.genre) {
			e.typ = "mastersthesis"
		}
	}

	e.add("title", bibTitle(clean(stripTags(it.src.Title)), opt))
	e.add("author", bibNames(it.src.Author, opt))
	e.add("editor", bibNames(it.src.Editor, opt))
	e.add("year", year(it.date))
	if it.date.Month > 0 {
		e.addRaw("month", bibtexMonths[it.date.Month-1])
	}
	container := texEscape(clean(stripTags(it.src.ContainerTitle)), opt)
	if venue != "" {
		e.add(venue, container)
	} else if it.kind == kindDataset || it.kind == kindPreprint || it.kind == kindWeb {
		e.add("howpublished", container)
	}
	e.add("edition", texEscape(editionWord(it.edition), opt))
	e.add("series", texEscape(clean(stripTags(it.src.CollectionTitle)), opt))
	e.add("volume", texEscape(it.volume, opt))
	e.add("number", texEscape(number, opt))
	e.add("pages", bibtexPages(it.page, opt))
	e.add(publisherField, texEscape(bibPublisher(it), opt))
	e.add("address", texEscape(clean(it.src.PublisherPlace), opt))
	if it.kind == kindThesis || it.kind == kindReport {
		e.add("type", texEscape(clean(it.src.Genre), opt))
	}
	if it.kind == kindBook || it.kind == kindChapter || it.kind == kindConference {
		e.add("isbn", texEscape(clean(it.src.ISBN), opt))
	}
	if it.kind == kindJournal {
		e.add("issn", texEscape(clean(it.src.ISSN), opt))
	}
	e.add("doi", verbatim(it.doi))
	if it.arxivID != "" {
		e.add("eprint", texEscape(it.arxivID, opt))
		e.add("archiveprefix", "arXiv")
		e.add("primaryclass", texEscape(it.arxivClass, opt))
	}
	e.add("url", verbatim(clean(it.src.URL)))
	e.add("note", texEscape(it.bibNote, opt))
	return e.String(), nil
}

// biblatex renders one BibLaTeX entry (biblatex's data model, as biber
// validates it).
//
// Entry types: article-journal (and magazine, newspaper) → @article,
// paper-conference → @inproceedings, book → @book (@collection when it has
// editors and no authors), chapter → @incollection, report → @report,
// thesis → @thesis, dataset → @dataset, preprints and web pages →
// @online, anything else → @misc.
//
// Fields appear in a fixed order: title, author, editor, date (ISO 8601:
// 2017-06-12, 2017-06 or 2017), journaltitle or booktitle, edition (a
// number as given), series, volume, number, pages, publisher (institution
// for @report and @thesis, organization for @online), location, type
// (@thesis: phdthesis, mathesis or the genre; @report: techreport or the
// genre), isbn, issn, doi, eprint, eprinttype (arxiv), eprintclass, url,
// note. A field the data model does not allow for the entry type is left
// out (publisher of an @article, isbn of an @article, …).
func biblatex(it item, opt Options) (string, error) {
	if err := bibtexKey(it.src.ID); err != nil {
		return "", err
	}
	e := &bibEntry{typ: "misc", key: it.src.ID}
	var venue, publisherField, number, typeField string
	edition, series, isbn, location := true, true, false, true
	switch it.kind {
	case kindJournal:
		e.typ, venue, number = "article", "journaltitle", it.issue
		edition, location = false, false
	case kindConference:
		e.typ, venue, publisherField, number, isbn = "inproceedings", "booktitle", "publisher", it.issue, true
	case kindBook:
		e.typ, publisherField, isbn = "book", "publisher", true
		if it.editorsOnly() {
			e.typ = "collection"
		}
	case kindChapter:
		e.typ, venue, publisherField, isbn = "incollection", "booktitle", "publisher", true
	case kindReport:
		e.typ, publisherField, number = "report", "institution", it.number
		typeField = firstNonEmpty(clean(it.src.Genre), "techreport")
		edition, series = false, false
	case kindThesis:
		e.typ, publisherField = "thesis", "institution"
		switch {
		case isMasters(it.genre):
			typeField = "mathesis"
		case it.genre == "" || isPhD(it.genre):
			typeField = "phdthesis"
		default:
			typeField = clean(it.src.Genre)
		}
		edition, series = false, false
	case kindDataset:
		e.typ, publisherField = "dataset", "publisher"
	case kindPreprint, kindWeb:
		e.typ, publisherField = "online", "organization"
		edition, series, location = false, false, false
	default:
		publisherField = "organization"
		edition, series = false, false
	}

	e.add("title", bibTitle(clean(stripTags(it.src.Title)), opt))
	e.add("author", bibNames(it.src.Author, opt))
	if e.typ != "report" && e.typ != "thesis" {
		e.add("editor", bibNames(it.src.Editor, opt))
	}
	e.add("date", isoDate(it))
	container := texEscape(clean(stripTags(it.src.ContainerTitle)), opt)
	note := it.bibNote
	if venue != "" {
		e.add(venue, container)
	} else if container != "" && !strings.EqualFold(clean(it.src.ContainerTitle), clean(it.src.Publisher)) {
		note = join("; ", clean(stripTags(it.src.ContainerTitle)), note)
	}
	if edition {
		e.add("edition", texEscape(it.edition, opt))
	}
	if series {
		e.add("series", texEscape(clean(stripTags(it.src.CollectionTitle)), opt))
	}
	if e.typ != "online" && e.typ != "misc" && e.typ != "thesis" {
		e.add("volume", texEscape(it.volume, opt))
	}
	e.add("number", texEscape(number, opt))
	if e.typ != "online" && e.typ != "misc" && e.typ != "dataset" {
		e.add("pages", bibtexPages(it.page, opt))
	}
	if publisherField != "" {
		e.add(publisherField, texEscape(bibPublisher(it), opt))
	}
	if location {
		e.add("location", texEscape(clean(it.src.PublisherPlace), opt))
	}
	e.add("type", texEscape(typeField, opt))
	if isbn {
		e.add("isbn", texEscape(clean(it.src.ISBN), opt))
	}
	if e.typ == "article" {
		e.add("issn", texEscape(clean(it.src.ISSN), opt))
	}
	e.add("doi", verbatim(it.doi))
	if it.arxivID != "" {
		e.add("eprint", texEscape(it.arxivID, opt))
		e.add("eprinttype", "arxiv")
		e.add("eprintclass", texEscape(it.arxivClass, opt))
	}
	e.add("url", verbatim(clean(it.src.URL)))
	e.add("note", texEscape(note, opt))
	return e.String(), nil
}

// bibPublisher is the publisher, left out when an arXiv preprint's
// publisher is just "arXiv" (eprint says so).
func bibPublisher(it item) string {
	p := clean(it.src.Publisher)
	if it.arxivID != "" && it.kind == kindPreprint && strings.EqualFold(p, "arXiv") {
		return ""
	}
	return p
}

// isoDate renders the issued date as 2017-06-12, 2017-06 or 2017.
func isoDate(it item) string {
	d := it.date
	switch {
	case d.Year <= 0:
		return ""
	case d.Month == 0:
		return fmt.Sprintf("%04d", d.Year)
	case d.Day == 0:
		return fmt.Sprintf("%04d-%02d", d.Year, d.Month)
	}
	return fmt.Sprintf("%04d-%02d-%02d", d.Year, d.Month, d.Day)
}

func isMasters(genre string) bool {
	g := strings.ToLower(genre)
	return strings.Contains(g, "master") || strings.HasPrefix(g, "m.a") || strings.HasPrefix(g, "m.s") ||
		strings.HasPrefix(g, "msc") || strings.HasPrefix(g, "ma ") || g == "ma"
}

func isPhD(genre string) bool {
	g := strings.ToLower(genre)
	return strings.Contains(g, "phd") || strings.Contains(g, "ph.d") || strings.Contains(g, "doctor")
}

// editionWord writes a numeric edition as BibTeX styles expect it before
// " edition": "Second", …, "Tenth", then "11th"; other editions are kept.
func editionWord(e string) string {
	words := [...]string{"First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth", "Ninth", "Tenth"}
	n, err := strconv.Atoi(e)
	switch {
	case err != nil:
		return e
	case n >= 1 && n <= len(words):
		return words[n-1]
	}
	return ordinal(e)
}

// bibtexKey checks that key can stand as a BibTeX entry key.
func bibtexKey(key string) error {
	if key == "" {
		return fmt.Errorf("bibtex: empty cite key")
	}
	for _, r := range key {
		if unicode.IsSpace(r) || unicode.IsControl(r) || strings.ContainsRune(`,{}()"'#%=~\`, r) || r == utf8.RuneError {
			return fmt.Errorf("bibtex: cite key %q contains %q, which BibTeX does not allow in keys", key, r)
		}
	}
	return nil
}

// bibNames joins names with " and ".
func bibNames(names []csl.Name, opt Options) string {
	var out []string
	for _, n := range names {
		if s := bibName(n, opt); s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, " and ")
}

// bibName renders a name the BibTeX way, "von Last, Jr, First": particles
// (dropping and non-dropping) lead the last name, where BibTeX finds them
// by their lower case; the suffix sits between last and first names.
// Organisations and single names are braced ("{World Health
// Organization}", "{Sheherazade}") so that BibTeX does not split them. A
// part holding a comma or the word "and" is braced too. Run-together
// initials are spaced ("M. F.") so that BibTeX abbreviates each.
func bibName(n csl.Name, opt Options) string {
	if lit := clean(n.Literal); lit != "" {
		return "{" + texEscape(lit, opt) + "}"
	}
	family, given, suffix := splitSuffix(clean(n.Family), clean(n.Given))
	if s := clean(n.Suffix); s != "" {
		suffix = s
	}
	last := join(" ", clean(n.DroppingParticle), clean(n.NonDroppingParticle), family)
	switch {
	case last == "" && given == "":
		return ""
	case family == "" || given == "":
		return "{" + texEscape(join(" ", given, last, suffix), opt) + "}"
	}
	return join(", ", bibNamePart(last, opt), bibNamePart(suffix, opt), bibNamePart(spaceInitials(given), opt))
}

func bibNamePart(s string, opt Options) string {
	if s == "" {
		return ""
	}
	out := texEscape(s, opt)
	if strings.Contains(s, ",") {
		return "{" + out + "}"
	}
	for _, w := range strings.Fields(s) {
		if strings.EqualFold(w, "and") {
			return "{" + out + "}"
		}
	}
	return out
}

// bibTitle escapes a title and protects capitals with braces so that
// BibTeX styles which lower-case titles keep them:
//
//   - a word, or a part of a hyphenated or slashed word, with a capital
//     letter anywhere but in first position is braced: {BERT}, {PaperQA},
//     {CO2}, {56Gb}, {DL}-Learner;
//   - in a part of the title written in sentence case, every other word
//     that begins with a capital is braced too, as a proper noun: "Letter
//     from {Birmingham} jail", "Penisverletzung durch eine {Moulinette}".
//     The parts are the title's main title and subtitles, separated by a
//     colon, question mark, exclamation mark or a dash between spaces; a
//     part is in sentence case when at most half of its words, leaving out
//     its first word and CSL's stop words, begin with a capital. The first
//     word of a part is not braced (BibTeX styles keep the first letter
//     and the one after a colon). In a part written in title case
//     capitals carry no such information and are left to the style.
func bibTitle(title string, opt Options) string {
	words := strings.Split(title, " ")
	// segment start flags and the sentence-case flag of each word's part
	starts := make([]bool, len(words))
	sentence := make([]bool, len(words))
	for i := range words {
		if i == 0 || endsSegment(words[i-1]) || isDash(words[i]) {
			starts[i] = true
		}
		if starts[i] && i > 0 && isDash(words[i]) && i+1 < len(words) {
			starts[i+1] = true
		}
	}
	for i := 0; i < len(words); {
		j := i + 1
		for j < len(words) && !starts[j] {
			j++
		}
		sc := isSentenceCase(words[i:j])
		for k := i; k < j; k++ {
			sentence[k] = sc
		}
		i = j
	}
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		first := true
		start := 0
		for k, r := range w {
			if r == '-' || r == '/' {
				writeTeX(&b, bibtexWord(w[start:k], sentence[i] && !(starts[i] && first), opt))
				writeTeX(&b, string(r))
				if k > start {
					first = false
				}
				start = k + 1
			}
		}
		writeTeX(&b, bibtexWord(w[start:], sentence[i] && !(starts[i] && first), opt))
	}
	return b.String()
}

// endsSegment reports whether a title word ends a main title or subtitle.
func endsSegment(w string) bool {
	w = strings.TrimRight(w, `"”’)]`)
	return strings.HasSuffix(w, ":") || strings.HasSuffix(w, "?") || strings.HasSuffix(w, "!")
}

func isDash(w string) bool { return w == "-" || w == "--" || w == "---" || w == "–" || w == "—" }

// isSentenceCase reports whether at most half of the words, leaving out
// the first, stop words and words not starting with a letter, begin with a
// capital letter. A part with no such word is not in sentence case.
func isSentenceCase(words []string) bool {
	caps, n := 0, 0
	for i, w := range words {
		w = strings.TrimLeft(w, `"“‘([`)
		r, _ := utf8.DecodeRuneInString(w)
		if i == 0 || !unicode.IsLetter(r) || titleStopWords[strings.ToLower(strings.TrimRight(w, ",.;:?!\"”’)]"))] {
			continue
		}
		n++
		if unicode.IsUpper(r) {
			caps++
		}
	}
	return n > 0 && caps*2 <= n
}

// bibtexWord escapes one word and braces it when it has a capital letter
// after its first letter, or, with properNoun, when it starts with one.
func bibtexWord(w string, properNoun bool, opt Options) string {
	isWordRune := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	start := strings.IndexFunc(w, isWordRune)
	if start < 0 {
		return texEscape(w, opt)
	}
	end := strings.LastIndexFunc(w, isWordRune)
	_, size := utf8.DecodeRuneInString(w[end:])
	end += size
	lead, core, trail := w[:start], w[start:end], w[end:]
	brace := false
	for i, r := range core {
		if unicode.IsUpper(r) && (i > 0 || properNoun) {
			brace = true
			break
		}
	}
	if brace {
		return texEscape(lead, opt) + "{" + texEscape(core, opt) + "}" + texEscape(trail, opt)
	}
	return texEscape(w, opt)
}

// verbatim prepares a doi or url value: braces, backslashes, whitespace and
// control characters are percent-encoded so the field stays balanced and on
// one line.
func verbatim(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '{' || r == '}' || r == '\\' || unicode.IsSpace(r) || unicode.IsControl(r):
			for _, c := range []byte(string(r)) {
				fmt.Fprintf(&b, "%%%02X", c)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// bibtexPages escapes a page range and writes its dashes as "--".
func bibtexPages(p string, opt Options) string {
	if p == "" {
		return ""
	}
	p = strings.ReplaceAll(p, "–", "-")
	p = strings.ReplaceAll(p, "—", "-")
	for strings.Contains(p, "--") {
		p = strings.ReplaceAll(p, "--", "-")
	}
	return strings.ReplaceAll(texEscape(p, opt), "-", "--")
}
