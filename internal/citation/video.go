package citation

import (
	"strings"

	"github.com/crossmem/crossmem/internal/metadata"
)

// kindVideo is a recording: an online video or talk (CSL motion_picture,
// the type the CSL styles and Zotero use for videos).
const kindVideo = "motion_picture"

// Videos are rendered as citeproc-js renders a CSL motion_picture item
// with the official styles: the channel as author, genre "Video" (the
// medium in brackets or after the title), publisher the platform
// ("YouTube"), issued the upload date, dimensions the running time,
// accessed the capture date (printed by APA, MLA and Chicago only for a
// video without a date, by IEEE always). The seed's examples differ in
// places (APA's "[Channel]" alias, MLA's "uploaded by"); docs/citations.md
// lists them.

// videoAPA: Author. (2017, October 5). Title [Video]. YouTube. URL
func videoAPA(it item) string {
	names := make([]string, 0, len(it.authors))
	for _, p := range it.authors {
		names = append(names, p.invertedInitials())
	}
	authors := list(names, ", ", ", & ", ", & ")
	date := "(n.d.)."
	if y := year(it.date); y != "" {
		date = "(" + join(", ", y, monthDay(it.date)) + ")."
	}
	title := smartQuotes(it.title, false)
	genre := ""
	if it.genre != "" {
		genre = "[" + it.genre + "]"
	}
	retrieved := it.url
	if it.date.Year == 0 && it.accessed.Year > 0 && it.url != "" {
		retrieved = "Retrieved " + dateLong(it.accessed, true) + ", from " + it.url
	}
	if authors == "" {
		// The title takes the author's place.
		return join(" ", sentence(title), date, sentence(genre), sentence(it.publisher), retrieved)
	}
	return join(" ", sentence(authors), date, sentence(join(" ", title, genre)), sentence(it.publisher), retrieved)
}

// videoAuthors renders the author list of MLA and Chicago: the first name
// inverted, as the styles do for people (a channel is one literal name).
func videoAuthors(it item, demote bool) string {
	names := make([]string, 0, len(it.authors))
	for i, p := range it.authors {
		if i == 0 {
			names = append(names, p.inverted(demote))
		} else {
			names = append(names, p.natural())
		}
	}
	return list(names, ", ", ", and ", ", and ")
}

// accessedIfUndated is the access date the styles print for an undated
// online video.
func (it item) accessedIfUndated(format func(metadata.Date, bool) string, prefix string) string {
	if it.date.Year > 0 || it.accessed.Year == 0 || it.url == "" {
		return ""
	}
	return prefix + format(it.accessed, true)
}

// videoMLA: Author. Title. Video. YouTube, 2017, URL.
func videoMLA(it item) string {
	title := sentence(smartQuotes(titleCase(it.title), false))
	where := sentence(join(", ", it.publisher, year(it.date), it.url))
	return join(" ", sentence(videoAuthors(it, false)), title, sentence(it.genre), where,
		sentence(it.accessedIfUndated(dateMLA, "Accessed ")))
}

// videoChicago: notes-bibliography "Author. Title. Video. YouTube, 2017.
// 18:39. URL." and author-date "Author. 2017. Title. Video. YouTube. 18:39.
// URL." (the same in the 17th and 18th editions).
func videoChicago(it item, authorDate bool) string {
	authors := sentence(videoAuthors(it, true))
	title := sentence(smartQuotes(titleCase(it.title), false))
	y := year(it.date)
	if y == "" {
		y = "n.d."
	}
	tail := join(" ", sentence(it.dimensions), sentence(it.accessedIfUndated(dateLong, "Accessed ")), sentence(it.url))
	if authorDate {
		if authors == "" {
			return join(" ", title, sentence(y), sentence(it.genre), sentence(it.publisher), tail)
		}
		return join(" ", authors, sentence(y), title, sentence(it.genre), sentence(it.publisher), tail)
	}
	return join(" ", authors, title, sentence(it.genre), sentence(join(", ", it.publisher, y)), tail)
}

// videoIEEE: Author, Title, (Oct. 05, 2017). Accessed: Apr. 16, 2026.
// [Online Video]. Available: URL
func videoIEEE(it item) string {
	head := join(", ", ieeeNames(it.authors), smartQuotes(it.title, false))
	if d := dateIEEE(it.date, true); d != "" {
		head = join(", ", head, "("+d+")")
	}
	parts := []string{sentence(head)}
	if it.accessed.Year > 0 {
		parts = append(parts, "Accessed: "+dateIEEE(it.accessed, true)+".")
	}
	if it.url != "" {
		parts = append(parts, "[Online Video]. Available: "+it.url)
	}
	return strings.Join(parts, " ")
}

// videoBibTeX is the seed's @misc entry for an online video:
//
//	@misc{key,
//	  author = {{Channel}},
//	  title = {{Title}},
//	  year = {2017},
//	  month = oct,
//	  howpublished = {\url{https://www.youtube.com/watch?v=…}},
//	  note = {[Video]. YouTube. Accessed: 2026-04-16}
//	}
func videoBibTeX(it item, opt Options) (string, error) {
	if err := bibtexKey(it.src.ID); err != nil {
		return "", err
	}
	e := &bibEntry{typ: "misc", key: it.src.ID}
	e.add("author", bibNames(it.src.Author, opt))
	e.add("title", bibTitle(it.title, opt))
	if y := year(it.date); y != "" {
		e.add("year", y)
		if it.date.Month > 0 {
			e.addRaw("month", bibtexMonths[it.date.Month-1])
		}
	}
	if it.url != "" {
		e.addRaw("howpublished", `{\url{`+verbatim(it.url)+`}}`)
	}
	note := join(". ", bracketed(it.genre), it.publisher)
	if it.accessed.Year > 0 {
		note = join(". ", note, "Accessed: "+isoDateOf(it.accessed))
	}
	if it.dimensions != "" {
		note = join(". ", note, "Duration: "+it.dimensions)
	}
	e.add("note", texEscape(note, opt))
	return e.String(), nil
}

// videoBibLaTeX is a BibLaTeX @video entry (biblatex's type for
// recordings): author, title, date, url, urldate, organization (the
// platform), note (the running time).
func videoBibLaTeX(it item, opt Options) (string, error) {
	if err := bibtexKey(it.src.ID); err != nil {
		return "", err
	}
	e := &bibEntry{typ: "video", key: it.src.ID}
	e.add("author", bibNames(it.src.Author, opt))
	e.add("title", bibTitle(it.title, opt))
	if d := isoDateOf(it.date); d != "" {
		e.add("date", d)
	}
	e.add("organization", texEscape(it.publisher, opt))
	if it.url != "" {
		e.addRaw("url", "{"+verbatim(it.url)+"}")
	}
	if it.accessed.Year > 0 {
		e.add("urldate", isoDateOf(it.accessed))
	}
	if it.dimensions != "" {
		e.add("note", texEscape("Duration: "+it.dimensions, opt))
	}
	return e.String(), nil
}

func bracketed(s string) string {
	if s == "" {
		return ""
	}
	return "[" + s + "]"
}

// isoDateOf renders YYYY-MM-DD, YYYY-MM or YYYY ("" without a year).
func isoDateOf(d metadata.Date) string { return isoDate(item{date: d}) }
