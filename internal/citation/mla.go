package citation

import "strings"

// mla renders an MLA 9 works-cited entry.
func mla(it item) string {
	people := it.authors
	if it.editorsOnly() {
		people = it.editors
	}
	var authors string
	switch n := len(people); {
	case n == 1:
		authors = people[0].inverted(false)
	case n == 2:
		authors = people[0].inverted(false) + ", and " + people[1].natural()
	case n > 2:
		authors = people[0].inverted(false) + ", et al."
	}
	if authors != "" && it.editorsOnly() {
		authors += ", " + plural(len(people), "editor", "editors")
	}

	title := ""
	if it.title != "" {
		t := titleCase(it.title)
		if it.bookLike() || it.kind == kindThesis {
			title = sentence(smartQuotes(t, false)) // italic in print
		} else {
			title = quoted(t, ".")
		}
	}

	edited := ""
	if !it.editorsOnly() && len(it.editors) > 0 {
		var eds []string
		for _, p := range it.editors {
			eds = append(eds, p.natural())
		}
		if len(eds) > 2 {
			eds = []string{eds[0] + " et al."}
		}
		edited = "edited by " + list(eds, ", ", " and ", ", and ")
	}
	edition := editionShort(it.edition)
	container := titleCase(it.container)

	var source string
	switch it.kind {
	case kindJournal:
		source = join(", ", container, mlaVolume(it.volume), mlaIssue(it.issue),
			dateMLA(it.date, false), mlaPages(it.page), it.link())
	case kindPreprint:
		if it.number != "" {
			source = join(", ", it.number, it.publisher, dateMLA(it.date, true), it.link())
		} else {
			source = join(" ", "Preprint.", join(", ", it.publisher, dateMLA(it.date, true), it.link()))
		}
	case kindConference:
		source = join(", ", container, edited, mlaVolume(it.volume), mlaIssue(it.issue), year(it.date), mlaPages(it.page), it.link())
	case kindChapter:
		source = join(", ", container, edited, edition, it.publisher, year(it.date), mlaPages(it.page), it.link())
	case kindDataset:
		source = join(", ", container, it.publisher, dateMLA(it.date, true), it.link())
	case kindReport:
		source = join(", ", prefixed("no. ", it.number), it.publisher, dateMLA(it.date, false), it.link())
	case kindThesis:
		source = join(", ", year(it.date), it.link())
		source = join(" ", sentence(source), join(", ", it.publisher, it.genre))
	default: // book
		source = join(", ", edited, edition, it.publisher, year(it.date), it.link())
		if e, ok := strings.CutPrefix(source, "edited by "); ok {
			source = "Edited by " + e
		}
	}
	return join(" ", sentence(authors), title, sentence(source), sentence(it.collection))
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
