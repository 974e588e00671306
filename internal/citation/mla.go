package citation

// mla renders an MLA 9 works-cited entry.
func mla(it item) string {
	var authors string
	switch n := len(it.authors); {
	case n == 1:
		authors = it.authors[0].inverted(false)
	case n == 2:
		authors = it.authors[0].inverted(false) + ", and " + it.authors[1].natural()
	case n > 2:
		authors = it.authors[0].inverted(false) + ", et al."
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
	switch it.kind {
	case kindJournal:
		source = join(", ", it.container, mlaVolume(it.volume), mlaIssue(it.issue),
			dateMLA(it.date, false), mlaPages(it.page), it.link())
	case kindPreprint:
		if n := it.arxivNumber(); n != "" {
			source = join(", ", n, it.publisher, dateMLA(it.date, true), it.link())
		} else {
			source = join(" ", "Preprint.", join(", ", it.publisher, dateMLA(it.date, true), it.link()))
		}
	case kindConference:
		source = join(", ", it.container, mlaVolume(it.volume), mlaIssue(it.issue), year(it.date), mlaPages(it.page), it.link())
	case kindChapter:
		source = join(", ", it.container, it.publisher, year(it.date), mlaPages(it.page), it.link())
	case kindDataset:
		source = join(", ", it.container, it.publisher, dateMLA(it.date, true), it.link())
	default: // book, report, thesis
		source = join(", ", it.publisher, year(it.date), it.link())
	}
	return join(" ", sentence(authors), title, sentence(source))
}

func mlaVolume(v string) string {
	if v == "" || !hasDigit(v) {
		return v
	}
	return "vol. " + v
}

func mlaIssue(n string) string {
	switch {
	case n == "":
		return ""
	case isRange(n):
		return "nos. " + pages(n, rangeExpanded)
	case !hasDigit(n):
		return n
	}
	return "no. " + n
}

func mlaPages(p string) string {
	switch {
	case p == "":
		return ""
	case isRange(p):
		return "pp. " + pages(p, rangeMinimal2)
	}
	return "p. " + p
}
