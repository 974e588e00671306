package citation

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/crossmem/crossmem/internal/metadata"
)

// bibtexMonths are BibTeX's predefined month macros.
var bibtexMonths = [...]string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}

// bibtex renders one BibTeX entry.
//
// Entry types: article-journal → @article, paper-conference →
// @inproceedings, book → @book, chapter → @incollection, report →
// @techreport, thesis → @phdthesis; preprints (arXiv or not), datasets and
// anything else → @misc. arXiv identity is carried by eprint,
// archiveprefix and primaryclass on every entry type (arXiv's own export
// uses @misc the same way), so a published article that started on arXiv
// keeps its eprint.
//
// Fields appear in a fixed order: title, author, year, month (an unbraced
// macro), journal or booktitle, volume, number, pages ("--" between
// pages), publisher (institution for @techreport, school for @phdthesis;
// left out when an arXiv preprint's publisher is just "arXiv"), doi, eprint,
// archiveprefix, primaryclass, url. Values keep Unicode as is; the LaTeX
// specials & % $ # _ { } ~ ^ \ are escaped, except in doi and url, which
// biblatex and the url package read verbatim (there "{", "}", "\" and
// whitespace are percent-encoded instead). Datasets and non-journal
// preprints with a container title get it as howpublished. Title words with
// a capital letter after their first letter are braced (see bibtexTitle).
func bibtex(rec *metadata.Record, it item, key string) (string, error) {
	if err := bibtexKey(key); err != nil {
		return "", err
	}
	typ := "misc"
	venue := ""
	publisherField := "publisher"
	switch it.kind {
	case kindJournal:
		typ, venue = "article", "journal"
	case kindConference:
		typ, venue = "inproceedings", "booktitle"
	case kindBook:
		if strings.TrimSpace(rec.Type) != "" {
			typ = "book"
		} // a work of unknown type (a PDF's own metadata) stays @misc
	case kindChapter:
		typ, venue = "incollection", "booktitle"
	case kindReport:
		typ, publisherField = "techreport", "institution"
	case kindThesis:
		typ, publisherField = "phdthesis", "school"
	}

	var fields [][2]string
	add := func(name, value string) {
		if value != "" {
			fields = append(fields, [2]string{name, value})
		}
	}
	add("title", bibtexTitle(clean(stripTags(rec.Title))))
	var authors []string
	for _, n := range rec.Authors {
		if a := bibtexName(n); a != "" {
			authors = append(authors, a)
		}
	}
	add("author", strings.Join(authors, " and "))
	add("year", year(it.date))
	if it.date.Month > 0 {
		fields = append(fields, [2]string{"month", bibtexMonths[it.date.Month-1]})
	}
	if venue != "" {
		add(venue, bibtexEscape(clean(stripTags(rec.ContainerTitle))))
	} else if it.kind == kindDataset || it.kind == kindPreprint {
		add("howpublished", bibtexEscape(clean(stripTags(rec.ContainerTitle))))
	}
	add("volume", bibtexEscape(it.volume))
	add("number", bibtexEscape(it.issue))
	add("pages", bibtexEscape(bibtexPages(it.page)))
	publisher := clean(rec.Publisher)
	if it.arxivID != "" && it.kind == kindPreprint && strings.EqualFold(publisher, "arXiv") {
		publisher = ""
	}
	add(publisherField, bibtexEscape(publisher))
	add("doi", verbatim(it.doi))
	if it.arxivID != "" {
		add("eprint", bibtexEscape(it.arxivID))
		add("archiveprefix", "arXiv")
		add("primaryclass", bibtexEscape(clean(rec.ArxivPrimaryCategory)))
	}
	add("url", verbatim(clean(rec.URL)))

	var b strings.Builder
	fmt.Fprintf(&b, "@%s{%s,\n", typ, key)
	for i, f := range fields {
		value := "{" + f[1] + "}"
		if f[0] == "month" {
			value = f[1]
		}
		fmt.Fprintf(&b, "  %s = %s", f[0], value)
		if i < len(fields)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("}")
	return b.String(), nil
}

// bibtexKey checks that key can stand as a BibTeX entry key.
func bibtexKey(key string) error {
	if key == "" {
		return fmt.Errorf("bibtex: empty cite key")
	}
	for _, r := range key {
		if unicode.IsSpace(r) || unicode.IsControl(r) || strings.ContainsRune(`,{}()"'#%=~\`, r) {
			return fmt.Errorf("bibtex: cite key %q contains %q, which BibTeX does not allow in keys", key, r)
		}
	}
	return nil
}

// bibtexName renders "Family, Given", "Family, Suffix, Given", or a braced
// single name ("{OpenAI}") that BibTeX must not split.
func bibtexName(n metadata.Name) string {
	if lit := clean(n.Literal); lit != "" {
		return "{" + bibtexEscape(lit) + "}"
	}
	family, given, suffix := splitSuffix(clean(n.Family), clean(n.Given))
	switch {
	case family == "" && given == "":
		return ""
	case family == "" || given == "":
		return "{" + bibtexEscape(join(" ", family+given, suffix)) + "}"
	}
	return join(", ", bibtexEscape(family), bibtexEscape(suffix), bibtexEscape(given))
}

// bibtexTitle escapes a title and braces the words, or the parts of
// hyphenated and slashed words, that have a capital letter anywhere but in
// first position ({BERT}, {PaperQA}, {CO2}, {56Gb}, {DL}-Learner), so that BibTeX styles
// which lower-case titles keep them.
func bibtexTitle(title string) string {
	var b strings.Builder
	start := 0
	for i, r := range title {
		if r == ' ' || r == '-' || r == '/' {
			b.WriteString(bibtexWord(title[start:i]))
			b.WriteRune(r)
			start = i + 1
		}
	}
	b.WriteString(bibtexWord(title[start:]))
	return b.String()
}

func bibtexWord(w string) string {
	isWordRune := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	start := strings.IndexFunc(w, isWordRune)
	if start < 0 {
		return bibtexEscape(w)
	}
	end := strings.LastIndexFunc(w, isWordRune)
	_, size := utf8.DecodeRuneInString(w[end:])
	end += size
	lead, core, trail := w[:start], w[start:end], w[end:]
	for i, r := range core {
		if i > 0 && unicode.IsUpper(r) {
			return bibtexEscape(lead) + "{" + bibtexEscape(core) + "}" + bibtexEscape(trail)
		}
	}
	return bibtexEscape(w)
}

// bibtexEscape escapes the LaTeX special characters & % $ # _ { } ~ ^ \.
func bibtexEscape(s string) string {
	if !strings.ContainsAny(s, `&%$#_{}~^\`) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '&', '%', '$', '#', '_', '{', '}':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '~':
			b.WriteString(`\textasciitilde{}`)
		case '^':
			b.WriteString(`\textasciicircum{}`)
		case '\\':
			b.WriteString(`\textbackslash{}`)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
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

// bibtexPages writes page ranges with "--".
func bibtexPages(p string) string {
	if p == "" {
		return ""
	}
	p = strings.ReplaceAll(p, "–", "-")
	p = strings.ReplaceAll(p, "—", "-")
	for strings.Contains(p, "--") {
		p = strings.ReplaceAll(p, "--", "-")
	}
	return strings.ReplaceAll(p, "-", "--")
}
