package citation

// apaMaxAuthors is APA 7's limit: up to 20 authors are listed; beyond that
// the first 19, an ellipsis, and the last.
const apaMaxAuthors = 20

// apa renders an APA 7 reference-list entry.
func apa(it item) string {
	people := it.authors
	if it.editorsOnly() {
		people = it.editors
	}
	names := make([]string, 0, len(people))
	for _, p := range people {
		names = append(names, p.invertedInitials())
	}
	var authors string
	if len(names) > apaMaxAuthors {
		authors = join(", ", names[:apaMaxAuthors-1]...) + ", … " + names[len(names)-1]
	} else {
		authors = list(names, ", ", ", & ", ", & ")
	}
	if authors != "" && it.editorsOnly() {
		authors += " " + plural(len(people), "(Ed.)", "(Eds.)")
	}

	date := "(n.d.)."
	if y := year(it.date); y != "" {
		date = "(" + y + ")."
	}

	title := smartQuotes(it.title, false)
	switch it.kind {
	case kindPreprint:
		if it.number != "" {
			title = join(" ", title, "("+it.number+")")
		} else {
			title = join(" ", title, "[Preprint]")
		}
	case kindDataset:
		title = join(" ", title, "[Dataset]")
	case kindReport:
		if it.number != "" {
			title = join(" ", title, "("+join(" ", it.genre, "No. "+it.number)+")")
		}
	case kindThesis:
		title = join(" ", title, "["+join(", ", firstNonEmpty(it.genre, "Thesis"), it.publisher)+"]")
	case kindBook, kindOther:
		if ed := editionShort(it.edition); ed != "" {
			title = join(" ", title, "("+ed+")")
		}
	}
	title = sentence(title)

	var source string
	switch it.kind {
	case kindJournal, kindConference:
		vol := it.volume
		if it.issue != "" {
			vol += "(" + pages(it.issue, rangeExpanded) + ")"
		}
		source = sentence(join(", ", it.container, vol, pages(it.page, rangeExpanded)))
	case kindChapter:
		in := it.container
		var eds []string
		for _, p := range it.editors {
			eds = append(eds, p.naturalInitials())
		}
		if len(eds) > 0 {
			in = join(", ", list(eds, ", ", " & ", ", & ")+" "+plural(len(eds), "(Ed.)", "(Eds.)"), in)
		}
		var paren []string
		if ed := editionShort(it.edition); ed != "" {
			paren = append(paren, ed)
		}
		switch {
		case isRange(it.page):
			paren = append(paren, "pp. "+pages(it.page, rangeExpanded))
		case it.page != "":
			paren = append(paren, "p. "+it.page)
		}
		if len(paren) > 0 {
			in = join(" ", in, "("+join(", ", paren...)+")")
		}
		source = join(" ", sentence(prefixed("In ", in)), sentence(it.publisher))
	case kindDataset:
		source = join(" ", sentence(prefixed("In ", it.container)), sentence(it.publisher))
	case kindThesis:
		source = ""
	default: // preprint, book, report
		source = sentence(it.publisher)
	}

	if authors == "" {
		// No author: the title moves to the author position.
		return join(" ", title, date, source, it.link())
	}
	return join(" ", sentence(authors), date, title, source, it.link())
}
