package citation

// apaMaxAuthors is APA 7's limit: up to 20 authors are listed; beyond that
// the first 19, an ellipsis, and the last.
const apaMaxAuthors = 20

// apa renders an APA 7 reference-list entry.
func apa(it item) string {
	names := make([]string, 0, len(it.authors))
	for _, p := range it.authors {
		names = append(names, p.invertedInitials())
	}
	var authors string
	if len(names) > apaMaxAuthors {
		authors = join(", ", names[:apaMaxAuthors-1]...) + ", … " + names[len(names)-1]
	} else {
		authors = list(names, ", ", ", & ", ", & ")
	}

	date := "(n.d.)."
	if y := year(it.date); y != "" {
		date = "(" + y + ")."
	}

	title := smartQuotes(it.title, false)
	switch it.kind {
	case kindPreprint:
		if n := it.arxivNumber(); n != "" {
			title = join(" ", title, "("+n+")")
		} else {
			title = join(" ", title, "[Preprint]")
		}
	case kindDataset:
		title = join(" ", title, "[Dataset]")
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
		switch {
		case isRange(it.page):
			in = join(" ", in, "(pp. "+pages(it.page, rangeExpanded)+")")
		case it.page != "":
			in = join(" ", in, "(p. "+it.page+")")
		}
		source = join(" ", sentence(prefixed("In ", in)), sentence(it.publisher))
	case kindDataset:
		source = join(" ", sentence(prefixed("In ", it.container)), sentence(it.publisher))
	default: // preprint, book, report, thesis
		source = sentence(it.publisher)
	}

	if authors == "" {
		// No author: the title moves to the author position.
		return join(" ", title, date, source, it.link())
	}
	return join(" ", sentence(authors), date, title, source, it.link())
}
