package citation

// chicagoMaxAuthors: CMOS 18 (14.76) lists up to six authors; with more, the
// first three followed by "et al.".
const (
	chicagoMaxAuthors = 6
	chicagoEtAlAfter  = 3
)

// chicago renders a Chicago 18th-edition notes-bibliography bibliography
// entry.
func chicago(it item) string {
	names := make([]string, 0, len(it.authors))
	for i, p := range it.authors {
		if i == 0 {
			names = append(names, p.inverted(true))
		} else {
			names = append(names, p.natural())
		}
	}
	var authors string
	if len(names) > chicagoMaxAuthors {
		authors = join(", ", names[:chicagoEtAlAfter]...) + ", et al."
	} else {
		authors = list(names, ", ", ", and ", ", and ")
	}

	title := ""
	if it.title != "" {
		t := titleCase(it.title)
		if it.kind == kindBook || it.kind == kindReport || it.kind == kindThesis {
			title = sentence(smartQuotes(t, false)) // italic in print
		} else {
			title = quoted(t, ".")
		}
	}

	var source string
	kind := it.kind
	if kind == kindConference && it.volume != "" {
		kind = kindJournal // proceedings published as a numbered series
	}
	switch kind {
	case kindJournal:
		if it.volume == "" && it.issue == "" && it.page == "" {
			source = join(", ", it.container, "ahead of print", dateLong(it.date, true))
			break
		}
		s := join(" ", it.container, it.volume)
		if it.issue != "" {
			label := "no. "
			if isRange(it.issue) {
				label = "nos. "
			}
			s = join(", ", s, label+pages(it.issue, rangeExpanded))
		}
		// With volume and issue the year suffices; otherwise the month
		// helps find the issue.
		d := dateLong(it.date, false)
		if it.volume != "" && it.issue != "" {
			d = year(it.date)
		}
		if d == "" {
			d = "n.d."
		}
		s = join(" ", s, "("+d+")")
		if p := pages(it.page, rangeChicago16); p != "" {
			s = join(": ", s, p)
		}
		source = s
	case kindPreprint:
		if n := it.arxivNumber(); n != "" {
			source = join(" ", sentence(n), join(", ", "Preprint", it.publisher, dateLong(it.date, true)))
		} else {
			source = join(" ", "Preprint.", join(", ", it.publisher, dateLong(it.date, true)))
		}
	case kindConference:
		source = join(", ", it.container, dateLong(it.date, true), pages(it.page, rangeChicago16))
	case kindChapter:
		// CMOS 18 gives no page range for a chapter in the bibliography.
		source = join(" ", sentence(prefixed("In ", it.container)), join(", ", it.publisher, year(it.date)))
	case kindDataset:
		source = join(" ", sentence(prefixed("In ", it.container)), join(", ", it.publisher, dateLong(it.date, true)))
	default: // book, report, thesis
		source = join(", ", it.publisher, year(it.date))
	}
	return join(" ", sentence(authors), title, sentence(source), sentence(it.link()))
}
