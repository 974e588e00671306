package citation

// chicagoEtAl returns the Chicago bibliography et-al rule of an edition:
// with at least min names, the first use are listed followed by "et al."
// CMOS 18 (13.76): more than six authors, the first three; CMOS 17
// (14.76): more than ten authors, the first seven.
func chicagoEtAl(edition int) (min, use int) {
	if edition == 17 {
		return 11, 7
	}
	return 7, 3
}

// chicago renders a Chicago Manual of Style bibliography entry of the
// 17th or 18th edition: the notes-bibliography style's bibliography entry,
// or with authorDate the author-date style's reference-list entry (the
// year right after the authors).
//
// The editions differ (as the official CSL styles do): 17 lists up to ten
// authors (seven and "et al." beyond), gives the month of a journal issue
// ("6, no. 5 (May 2024)"), the page range of a chapter and the place of
// publication ("Leipzig: Breitkopf & Härtel"); 18 lists up to six authors
// (three and "et al." beyond), gives only the year with volume and issue,
// and neither chapter pages nor place. In author-date the date in the
// source part leaves out the year already given after the authors (18,
// and preprints and datasets in 17), and a journal's issue is written
// "6 (5): 525–35".
func chicago(it item, edition int, authorDate bool) string {
	people := it.authors
	if it.editorsOnly() {
		people = it.editors
	}
	names := make([]string, 0, len(people))
	for i, p := range people {
		if i == 0 {
			names = append(names, p.inverted(true))
		} else {
			names = append(names, p.natural())
		}
	}
	var authors string
	if min, use := chicagoEtAl(edition); len(names) >= min {
		authors = join(", ", names[:use]...) + ", et al."
	} else {
		authors = list(names, ", ", ", and ", ", and ")
	}
	if authors != "" && it.editorsOnly() {
		authors += ", " + plural(len(people), "ed.", "eds.")
	}

	title := ""
	if it.title != "" {
		t := titleCase(it.title)
		if it.bookLike() {
			title = sentence(smartQuotes(t, false)) // italic in print
		} else {
			title = quoted(t, ".")
		}
	}
	container := titleCase(it.container)

	// full is the date where the notes-bibliography style prints the
	// whole date; the author-date styles drop the year there (18) or keep
	// it (17, except for preprints and datasets).
	full := func(keepIn17 bool) string {
		if !authorDate || (edition == 17 && keepIn17) {
			return dateLong(it.date, true)
		}
		return monthDay(it.date)
	}
	// pubYear is the year after the publisher (notes-bibliography only).
	pubYear := ""
	if !authorDate {
		pubYear = year(it.date)
	}
	publisher := it.publisher
	if edition == 17 && it.place != "" {
		publisher = join(": ", it.place, publisher)
	}
	editors := ""
	if !it.editorsOnly() {
		var eds []string
		for _, p := range it.editors {
			eds = append(eds, p.natural())
		}
		editors = list(eds, ", ", " and ", ", and ")
	}
	edited := prefixed("edited by ", editors)

	var source string
	kind := it.kind
	if kind == kindConference && it.volume != "" {
		kind = kindJournal // proceedings published as a numbered series
	}
	switch kind {
	case kindJournal:
		if it.volume == "" && it.issue == "" && it.page == "" {
			source = join(", ", container, "ahead of print", full(true))
			break
		}
		s := join(" ", container, it.volume)
		if authorDate && it.volume != "" && it.issue != "" {
			s += " (" + pages(it.issue, rangeExpanded) + ")"
		} else {
			if it.issue != "" {
				label := "no. "
				if isRange(it.issue) {
					label = "nos. "
				}
				s = join(", ", s, label+pages(it.issue, rangeExpanded))
			}
			var d string
			switch {
			case authorDate && edition == 17:
				d = dateLong(it.date, false)
			case authorDate:
				d = monthName(it.date)
			case edition == 17:
				d = dateLong(it.date, false)
				if d == "" {
					d = "n.d."
				}
			default:
				// With volume and issue the year suffices; otherwise the
				// month helps find the issue.
				d = dateLong(it.date, false)
				if it.volume != "" && it.issue != "" {
					d = year(it.date)
				}
				if d == "" {
					d = "n.d."
				}
			}
			if d != "" {
				s = join(" ", s, "("+d+")")
			}
		}
		if p := pages(it.page, rangeChicago16); p != "" {
			s = join(": ", s, p)
		}
		source = s
	case kindPreprint:
		if it.number != "" {
			source = join(" ", sentence(it.number), join(", ", "Preprint", it.publisher, full(false)))
		} else {
			source = join(" ", "Preprint.", join(", ", it.publisher, full(false)))
		}
	case kindConference:
		source = join(", ", container, edited, full(true), pages(it.page, rangeChicago16))
	case kindChapter:
		in := join(", ", container, editionShort(it.edition), edited)
		if edition == 17 {
			// CMOS 18 gives no page range for a chapter in the bibliography.
			in = join(", ", in, pages(it.page, rangeChicago16))
		}
		source = join(" ", sentence(prefixed("In ", in)), join(", ", publisher, pubYear))
	case kindDataset:
		source = join(" ", sentence(prefixed("In ", container)), join(", ", it.publisher, full(false)))
	case kindThesis:
		source = join(", ", it.genre, it.publisher, pubYear)
	case kindReport:
		number := ""
		if it.number != "" {
			number = join(" ", it.genre, "No. "+it.number)
		} else {
			number = it.genre
		}
		source = join(" ", sentence(number), join(", ", publisher, pubYear))
	default: // book
		source = join(" ", sentence(prefixed("Edited by ", editors)), sentence(editionShort(it.edition)),
			sentence(it.collection), join(", ", publisher, pubYear))
	}
	if !authorDate {
		return join(" ", sentence(authors), title, sentence(source), sentence(it.link()))
	}
	date := "n.d."
	if y := year(it.date); y != "" {
		date = y
	}
	if authors == "" {
		return join(" ", title, sentence(date), sentence(source), sentence(it.link()))
	}
	return join(" ", sentence(authors), sentence(date), title, sentence(source), sentence(it.link()))
}
