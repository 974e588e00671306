package citation

// ieeeMaxAuthors: the IEEE Reference Guide lists up to six authors; with
// more, the first followed by "et al.".
const ieeeMaxAuthors = 6

// ieee renders an IEEE reference-list entry without its "[n]" label.
func ieee(it item) string {
	var authors string
	if len(it.authors) > ieeeMaxAuthors {
		authors = it.authors[0].naturalInitials() + " et al."
	} else {
		names := make([]string, 0, len(it.authors))
		for _, p := range it.authors {
			names = append(names, p.naturalInitials())
		}
		authors = list(names, ", ", " and ", ", and ")
	}

	doi := prefixed("doi: ", it.doi)
	online := prefixed("[Online]. Available: ", it.url)
	var rest string
	switch it.kind {
	case kindJournal:
		rest = join(", ", it.container, ieeeVolume(it.volume), ieeeIssue(it.issue),
			ieeePages(it.page), dateIEEE(it.date, false), doi)
		rest = join(" ", sentence(rest), online)
	case kindPreprint:
		where := it.publisher
		if n := it.arxivNumber(); n != "" {
			where = join(": ", where, n)
		}
		rest = join(" ", sentence(join(", ", dateIEEE(it.date, true), where)), sentence(doi), online)
	case kindConference, kindChapter:
		date := dateIEEE(it.date, false)
		if it.kind == kindChapter {
			date = year(it.date)
		}
		rest = join(", ", prefixed("in ", it.container), it.publisher, date, ieeePages(it.page))
		rest = join(" ", sentence(rest), sentence(doi), online)
	case kindDataset:
		rest = join(" ", sentence(it.container), sentence(join(", ", it.publisher, dateIEEE(it.date, true))), sentence(doi), online)
	default: // book, report, thesis: the title is italic and not quoted
		title := sentence(smartQuotes(it.title, false))
		src := join(" ", sentence(join(", ", it.publisher, year(it.date))), sentence(doi), online)
		return join(" ", sentence(join(", ", authors, title)), src)
	}

	title := ""
	if it.title != "" {
		if rest == "" {
			title = quoted(it.title, ".")
		} else {
			title = quoted(it.title, ",")
		}
	}
	if title == "" && authors != "" && rest != "" {
		authors += ","
	}
	if authors != "" && title != "" {
		authors += ","
	}
	return join(" ", authors, title, rest)
}

func ieeeVolume(v string) string { return prefixed("vol. ", v) }

func ieeeIssue(n string) string { return prefixed("no. ", pages(n, rangeExpanded)) }

func ieeePages(p string) string {
	switch {
	case p == "":
		return ""
	case isRange(p):
		return "pp. " + pages(p, rangeExpanded)
	}
	return "p. " + p
}
