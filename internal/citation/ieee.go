package citation

// ieeeMaxAuthors: the IEEE Reference Guide lists up to six authors; with
// more, the first followed by "et al.".
const ieeeMaxAuthors = 6

// ieeeNames renders a name list: "A. B", "A. B and C. D", "A. B, C. D, and
// E. F", or "A. B et al." beyond six names.
func ieeeNames(people []person) string {
	if len(people) > ieeeMaxAuthors {
		return people[0].naturalInitials() + " et al."
	}
	names := make([]string, 0, len(people))
	for _, p := range people {
		names = append(names, p.naturalInitials())
	}
	return list(names, ", ", " and ", ", and ")
}

// ieee renders an IEEE reference-list entry without its "[n]" label.
func ieee(it item) string {
	var authors string
	if it.editorsOnly() {
		authors = ieeeNames(it.editors) + ", " + plural(len(it.editors), "Ed.", "Eds.")
	} else {
		authors = ieeeNames(it.authors)
	}
	editors := ""
	if !it.editorsOnly() && len(it.editors) > 0 {
		editors = ieeeNames(it.editors) + ", " + plural(len(it.editors), "Ed.", "Eds.")
	}
	publisher := join(": ", it.place, it.publisher)

	doi := prefixed("doi: ", it.doi)
	online := prefixed("[Online]. Available: ", it.url)
	var rest string
	switch it.kind {
	case kindJournal:
		rest = join(", ", it.container, ieeeVolume(it.volume), ieeeIssue(it.issue),
			ieeePages(it.page), dateIEEE(it.date, false), doi)
		rest = join(" ", sentence(rest), online)
	case kindPreprint:
		where := join(": ", it.publisher, it.number)
		rest = join(" ", sentence(join(", ", dateIEEE(it.date, true), where)), sentence(doi), online)
	case kindConference, kindChapter:
		date := dateIEEE(it.date, false)
		if it.kind == kindChapter {
			date = year(it.date)
		}
		rest = join(", ", prefixed("in ", it.container), editionShort(it.edition), editors, publisher, date, ieeePages(it.page))
		rest = join(" ", sentence(rest), sentence(doi), online)
	case kindDataset:
		rest = join(" ", sentence(it.container), sentence(join(", ", it.publisher, dateIEEE(it.date, true))), sentence(doi), online)
	case kindReport:
		rest = join(", ", it.publisher, it.place, join(" ", it.genre, it.number), dateIEEE(it.date, false))
		rest = join(" ", sentence(rest), sentence(doi), online)
	case kindThesis:
		rest = join(", ", it.genre, it.publisher, it.place, year(it.date))
		rest = join(" ", sentence(rest), sentence(doi), online)
	default: // book: the title is italic and not quoted
		head := join(", ", authors, smartQuotes(it.title, false), editors, editionShort(it.edition))
		if it.collection != "" {
			head = join(" ", head, "in "+it.collection)
		}
		src := join(" ", sentence(join(", ", publisher, year(it.date))), sentence(doi), online)
		return join(" ", sentence(head), src)
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
