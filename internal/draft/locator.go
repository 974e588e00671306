package draft

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// AuthorYear is an author-year reference written out in a draft's text
// rather than cited by key, as in APA or Chicago author-date prose:
// "(Lo et al., 2020, p. 4970)" or "Lo et al. (2020, p. 4970)". A quotation
// that cites no key is attributed to the one in its sentence
// (AuthorYearFor), and `crossmem check` compares it with the paper the
// quotation is found in.
//
// The narrative form that names the author before the quotation and gives
// the year after it, `Lo et al. write "…" (2020, p. 4970)`, is one too
// (Narrative); so is the page locator of `Lo et al. (2020) write "…"
// (p. 4970)`, which AuthorYearFor gives with the reference before the
// quotation.
type AuthorYear struct {
	// Author is the first author's name as written ("Lo"); Year the year
	// ("2020", a letter suffix dropped); Locator the page locator as
	// written ("p. 4970"), "" when none.
	Author, Year, Locator string
	// Offset and End are the reference's byte offsets (its parentheses
	// included); Line its 1-based line. For a narrative reference they
	// are those of the parenthesis after the quotation.
	Offset, End, Line int
	// Narrative marks a reference whose year is written after the
	// quotation apart from the name before it. Names are then the
	// capitalised names before the quotation in its sentence, nearest
	// first, and Author the first of them; Sure is true when that one is
	// certainly an author ("Lo et al.", "Lo and Wang", "Lo's"), false when
	// it is only a capitalised word ("As Knuth writes", but also "The
	// authors write"), which a checker should not hold against the paper
	// the quotation is found in.
	Narrative bool
	Names     []string
	Sure      bool
}

const (
	ayName = `\p{Lu}[\p{L}'’-]+`
	ayWho  = `(` + ayName + `)(?:\s+et\s+al\.?|\s+(?:and|&|\\&)\s+` + ayName + `)?`
	ayLoc  = `((?:pp?\.|pages?)[\s~]*[0-9ivxlcdmIVXLCDM]+(?:\s*(?:-|–|—|--)\s*[0-9ivxlcdmIVXLCDM]+)?)`
)

// authorYearRefs are the two forms: (Author, Year[, p. N]) and
// Author (Year[, p. N]).
var authorYearRefs = []*regexp.Regexp{
	regexp.MustCompile(`\((?:(?:see|cf\.|e\.g\.,?)\s+)?` + ayWho + `,?\s+(\d{4})[a-z]?(?:,\s*` + ayLoc + `)?\s*\)`),
	regexp.MustCompile(ayWho + `\s+\((\d{4})[a-z]?(?:,\s*` + ayLoc + `)?\s*\)`),
}

// Parentheses after a quotation that complete a reference named before
// it: (Year[, p. N]) and (p. N).
var (
	bareYear    = regexp.MustCompile(`^\((\d{4})[a-z]?(?:,\s*` + ayLoc + `)?\s*\)`)
	bareLocator = regexp.MustCompile(`^\(\s*` + ayLoc + `\s*\)`)
	// narrativeName is a name before a quotation: a capitalised word,
	// with what makes it certainly an author's name (group 2; a
	// possessive "Lo's" is one too).
	narrativeName = regexp.MustCompile(`(` + ayName + `)(\s+et\s+al\.?|\s+(?:and|&|\\&)\s+` + ayName + `)?`)
)

// scanAuthorYears finds the author-year references outside comments,
// code, math and quotations.
func (d *Draft) scanAuthorYears() {
	seen := map[int]bool{}
	for _, re := range authorYearRefs {
		for _, m := range re.FindAllStringSubmatchIndex(d.text, -1) {
			start := m[0]
			if seen[start] {
				continue
			}
			if _, in := regionAt(d.regions, start); in {
				continue
			}
			if k := d.quotationAt(start); k >= 0 && start >= d.Quotations[k].Offset && start < d.Quotations[k].End {
				continue
			}
			seen[start] = true
			ay := AuthorYear{Author: d.text[m[2]:m[3]], Year: d.text[m[4]:m[5]], Offset: start, End: m[1], Line: lineOf(d.lines, start)}
			if m[6] >= 0 {
				ay.Locator = d.text[m[6]:m[7]]
			}
			d.AuthorYears = append(d.AuthorYears, ay)
		}
	}
	sort.Slice(d.AuthorYears, func(i, j int) bool { return d.AuthorYears[i].Offset < d.AuthorYears[j].Offset })
}

// associateAuthorYears attributes each quotation that cites no key to the
// nearest author-year reference after it in its sentence (for a display
// quotation, one at the start of the text after the block), else the
// nearest before it in its sentence.
func (d *Draft) associateAuthorYears() {
	d.ayOf = make([]int, len(d.Quotations))
	d.ayLoc = make([]string, len(d.Quotations))
	for i, q := range d.Quotations {
		d.ayOf[i] = -1
		if len(d.cited[i]) > 0 {
			continue
		}
		para := d.paraAt(q.MarkupEnd - 1)
		var from, to int
		if q.Kind.Display() {
			from = d.afterBlock(q.MarkupEnd, len(d.text))
			to = from + 1
		} else {
			from, to = q.MarkupEnd, d.sentenceEnd(q.MarkupEnd, para.end)
		}
		// A reference right after the quotation is its own even when the
		// quotation ends the sentence: "…limitations." (Lo et al., 2020, p. 2)
		next := q.MarkupEnd + len(d.text[q.MarkupEnd:]) - len(strings.TrimLeft(d.text[q.MarkupEnd:], " \t\u00a0~"))
		for k, ay := range d.AuthorYears {
			if ay.Offset == next || ay.Offset >= from && ay.Offset < to {
				d.ayOf[i] = k
				break
			}
		}
		if d.ayOf[i] >= 0 {
			continue
		}
		before := d.paraAt(q.MarkupOffset)
		start := d.sentenceStart(q.MarkupOffset, before.start)
		for k := len(d.AuthorYears) - 1; k >= 0; k-- {
			if ay := d.AuthorYears[k]; ay.End <= q.MarkupOffset && ay.Offset >= start {
				d.ayOf[i] = k
				break
			}
		}
		// What follows the quotation completes a reference: its page
		// ("Lo et al. (2020) write "…" (p. 4970)"), or its year when the
		// name came before ("Lo et al. write "…" (2020, p. 4970)").
		rest := d.text[next:]
		if _, in := regionAt(d.regions, next); in || d.quotationAt(next) >= 0 {
			continue
		}
		if k := d.ayOf[i]; k >= 0 {
			if m := bareLocator.FindStringSubmatch(rest); m != nil && d.AuthorYears[k].Locator == "" {
				d.ayLoc[i] = m[1]
			}
			continue
		}
		m := bareYear.FindStringSubmatchIndex(rest)
		if m == nil {
			continue
		}
		ay := AuthorYear{Year: rest[m[2]:m[3]], Offset: next, End: next + m[1], Line: lineOf(d.lines, next), Narrative: true}
		if m[4] >= 0 {
			ay.Locator = rest[m[4]:m[5]]
		}
		names := narrativeName.FindAllStringSubmatchIndex(d.text[start:q.MarkupOffset], -1)
		for j := len(names) - 1; j >= 0; j-- {
			n := names[j]
			if _, in := regionAt(d.regions, start+n[0]); in {
				continue
			}
			name := d.text[start+n[2] : start+n[3]]
			base := strings.TrimSuffix(strings.TrimSuffix(name, "'s"), "’s")
			if len(ay.Names) == 0 {
				ay.Sure = n[4] >= 0 || base != name
			}
			ay.Names = append(ay.Names, base)
		}
		if len(ay.Names) == 0 {
			continue
		}
		ay.Author = ay.Names[0]
		d.ayOf[i] = len(d.AuthorYears)
		d.AuthorYears = append(d.AuthorYears, ay)
	}
}

// Locator returns the locator of the citation quotation i (an index in
// d.Quotations) is attributed to (the first given among its keys), or of
// its author-year reference; "" when there is none.
func (d *Draft) Locator(i int) string {
	if i < 0 || i >= len(d.locs) {
		return ""
	}
	if d.locs[i] != "" {
		return d.locs[i]
	}
	if ay, ok := d.AuthorYearFor(i); ok {
		if ay.Locator == "" {
			return d.ayLoc[i]
		}
		return ay.Locator
	}
	return ""
}

// AuthorYearFor returns the author-year reference quotation i is
// attributed to: only a quotation that cites no key has one.
func (d *Draft) AuthorYearFor(i int) (AuthorYear, bool) {
	if i < 0 || i >= len(d.ayOf) || d.ayOf[i] < 0 {
		return AuthorYear{}, false
	}
	return d.AuthorYears[d.ayOf[i]], true
}

var pageLocator = regexp.MustCompile(`^(?:(?:pp?|pages?|s)\.?\s*)?([0-9]+|[ivxlcdm]+)(?:\s*-+\s*([0-9]+|[ivxlcdm]+))?\s*(?:f{1,2}\.?)?$`)

// Pages reads a page locator as written — "p.~11", "p. 11", "pp. 3--4",
// "pp.\,3–4", "page 11", "11", "xii", "11f." — and returns its first and
// last page ("11", "11"; "3", "4"), lower case. ok is false for anything
// else (a chapter, section, figure or note locator, or several page
// ranges), which is not a page locator to check.
func Pages(locator string) (first, last string, ok bool) {
	s := strings.ToLower(locator)
	s = strings.NewReplacer("~", " ", `\,`, " ", `\ `, " ", "\u00a0", " ", "\u202f", " ", "–", "-", "—", "-", `\textendash{}`, "-", `\textendash`, "-").Replace(s)
	s = strings.TrimSpace(s)
	m := pageLocator.FindStringSubmatch(s)
	if m == nil {
		return "", "", false
	}
	first, last = m[1], m[2]
	if last == "" {
		last = first
	}
	// "123-45" means 123-145 (an abbreviated range).
	if a, err1 := strconv.Atoi(first); err1 == nil {
		if b, err2 := strconv.Atoi(last); err2 == nil && b < a && len(last) < len(first) {
			last = first[:len(first)-len(last)] + last
		}
	}
	return first, last, true
}
