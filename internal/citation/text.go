package citation

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/crossmem/crossmem/internal/metadata"
)

// clean replaces invalid UTF-8 with U+FFFD, collapses runs of whitespace to
// one space and trims the ends.
func clean(s string) string {
	return strings.Join(strings.Fields(strings.ToValidUTF8(s, "\uFFFD")), " ")
}

// stripTags removes the inline markup metadata sources put in titles (<i>,
// <b>, <sub>, <sup>, <sc>, <span …>), keeping the text inside. Other "<"
// characters are kept.
func stripTags(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.IndexByte(s[i:], '>')
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		if k := strings.LastIndexByte(s[i+1:i+j], '<'); k >= 0 {
			// Restart at the last "<" before ">", keeping this linear.
			b.WriteString(s[:i+1+k])
			s = s[i+1+k:]
			continue
		}
		if !isInlineTag(s[i+1 : i+j]) {
			b.WriteString(s[:i+1])
			s = s[i+1:]
			continue
		}
		b.WriteString(s[:i])
		s = s[i+j+1:]
	}
}

func isInlineTag(t string) bool {
	t = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(t)), "/")
	if name, _, ok := strings.Cut(t, " "); ok {
		return name == "span"
	}
	switch t {
	case "i", "b", "em", "strong", "sub", "sup", "sc", "span", "u":
		return true
	}
	return false
}

// typographic turns straight apostrophes into ’ (citeproc-js does this for
// every apostrophe, including the one in "WWW '18").
func typographic(s string) string { return strings.ReplaceAll(s, "'", "’") }

// smartQuotes turns straight double quotes into typographic ones: “ ” at
// the top level, ‘ ’ when the text itself sits inside double quotes.
func smartQuotes(s string, nested bool) string {
	if !strings.Contains(s, `"`) {
		return s
	}
	open, closing := "“", "”"
	if nested {
		open, closing = "‘", "’"
	}
	var b strings.Builder
	prev := ' '
	for _, r := range s {
		if r == '"' {
			if unicode.IsSpace(prev) || strings.ContainsRune("([{-–—/", prev) {
				b.WriteString(open)
			} else {
				b.WriteString(closing)
			}
		} else {
			b.WriteRune(r)
		}
		prev = r
	}
	return b.String()
}

// quoted wraps a title in typographic double quotes with punct (".", ",")
// inside the closing quote. A title ending in ? or ! gets no period, but
// does get a comma (“Is Attention All You Need?,”), as citeproc-js does.
func quoted(title, punct string) string {
	return addPunct("“"+smartQuotes(title, true)+"”", punct, punct == ",")
}

// sentence ends s with a period unless it already ends with . ? or !.
func sentence(s string) string { return addPunct(s, ".", false) }

// addPunct appends punct to s, inside any closing quotation marks at its
// end (American style: “Is.” rather than “Is”.). Nothing is added when s
// already ends with punct, or, unless force, with . ? or !.
func addPunct(s, punct string, force bool) string {
	body := s
	// A trailing ’ closes a quotation only if one was opened; otherwise it
	// is an apostrophe ("Students’").
	singleOpen := strings.Contains(s, "‘")
	for {
		if b, ok := strings.CutSuffix(body, "”"); ok {
			body = b
		} else if b, ok := strings.CutSuffix(body, "’"); ok && singleOpen {
			body = b
		} else {
			break
		}
	}
	closers := s[len(body):]
	if body == "" || strings.HasSuffix(body, punct) || (!force && endsWithAny(body, ".?!")) {
		return s
	}
	return body + punct + closers
}

func endsWithAny(s, chars string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r != utf8.RuneError && strings.ContainsRune(chars, r)
}

// join joins the non-empty parts with sep.
func join(sep string, parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, sep)
}

// prefixed returns prefix+s, or "" when s is empty.
func prefixed(prefix, s string) string {
	if s == "" {
		return ""
	}
	return prefix + s
}

// titleStopWords are the single words of citeproc-js's CSL.SKIP_WORDS: the
// words CSL title case leaves in lower case unless they start the title or
// follow a colon.
var titleStopWords = map[string]bool{
	"about": true, "above": true, "across": true, "afore": true, "after": true,
	"against": true, "along": true, "alongside": true, "amid": true,
	"amidst": true, "among": true, "amongst": true, "anenst": true,
	"apropos": true, "apud": true, "around": true, "as": true, "aside": true,
	"astride": true, "at": true, "athwart": true, "atop": true,
	"barring": true, "before": true, "behind": true, "below": true,
	"beneath": true, "beside": true, "besides": true, "between": true,
	"beyond": true, "but": true, "by": true, "circa": true, "despite": true,
	"down": true, "during": true, "except": true, "for": true,
	"forenenst": true, "from": true, "given": true, "in": true,
	"inside": true, "into": true, "lest": true, "like": true, "modulo": true,
	"near": true, "next": true, "notwithstanding": true, "of": true,
	"off": true, "on": true, "onto": true, "out": true, "over": true,
	"per": true, "plus": true, "pro": true, "qua": true, "sans": true,
	"since": true, "than": true, "through": true, "thru": true,
	"throughout": true, "thruout": true, "till": true, "to": true,
	"toward": true, "towards": true, "under": true, "underneath": true,
	"until": true, "unto": true, "up": true, "upon": true, "versus": true,
	"vs.": true, "v.": true, "vs": true, "v": true, "via": true,
	"vis-à-vis": true, "with": true, "within": true, "without": true,
	"or": true, "yet": true, "so": true, "and": true, "nor": true, "a": true,
	"an": true, "the": true, "de": true, "d’": true, "von": true, "van": true,
	"c": true, "et": true, "ca": true,
}

// titleCase applies CSL title case as citeproc-js does for English: each
// word (words are separated by spaces, "-" and "/") that has no capital
// letter gets its first letter capitalised, except stop words and
// one-letter words that neither start nor end the title nor follow ":",
// "?" or "!". Words with any capital letter ("eLife", "CO2", "BERT") are
// kept.
func titleCase(s string) string {
	var b strings.Builder
	first := true
	afterPunct := false
	lastNonSpace := rune(0)
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == ' ' || r == '-' || r == '/' {
			b.WriteRune(r)
			if r == ' ' && strings.ContainsRune(":?!", lastNonSpace) {
				afterPunct = true
			}
			if r != ' ' {
				lastNonSpace = r
			}
			i += size
			continue
		}
		j := i
		for j < len(s) {
			r2, sz := utf8.DecodeRuneInString(s[j:])
			if r2 == ' ' || r2 == '-' || r2 == '/' {
				break
			}
			j += sz
		}
		w := s[i:j]
		last := strings.TrimSpace(s[j:]) == ""
		b.WriteString(titleWord(w, first || last, afterPunct))
		first, afterPunct = false, false
		lastNonSpace, _ = utf8.DecodeLastRuneInString(w)
		i = j
	}
	return b.String()
}

func titleWord(w string, first, afterPunct bool) string {
	for _, r := range w {
		if unicode.IsUpper(r) {
			return w
		}
	}
	core := strings.TrimRight(strings.TrimLeft(w, `"‘“([`), `,.;:?!"’”)]`)
	if !first && !afterPunct {
		if titleStopWords[strings.ToLower(core)] || utf8.RuneCountInString(core) <= 1 {
			return w
		}
	}
	// Capitalise the first letter after any opening quote or bracket.
	for k, r := range w {
		if strings.ContainsRune(`"‘“([`, r) {
			continue
		}
		if unicode.IsLower(r) {
			return w[:k] + string(unicode.ToUpper(r)) + w[k+len(string(r)):]
		}
		return w
	}
	return w
}

// Page-range formats (CSL page-range-format).
const (
	rangeExpanded  = iota // 1386–1399
	rangeMinimal2         // 1386–99 (MLA)
	rangeChicago16        // CMOS 16+ rules (Chicago)
)

// pages renders a page field: hyphens between page numbers become en
// dashes, and ranges are abbreviated per format. Equal endpoints ("145-145")
// are kept as citeproc-js does.
func pages(p string, format int) string {
	if p == "" {
		return ""
	}
	parts := strings.Split(p, ",")
	for i, part := range parts {
		parts[i] = pageRange(strings.TrimSpace(part), format)
	}
	return strings.Join(parts, ", ")
}

func pageRange(p string, format int) string {
	p = strings.ReplaceAll(p, "--", "–")
	start, end, ok := strings.Cut(strings.ReplaceAll(p, "-", "–"), "–")
	if !ok {
		return p
	}
	start, end = strings.TrimSpace(start), strings.TrimSpace(end)
	if start == "" || end == "" || strings.Contains(end, "–") {
		return start + "–" + end
	}
	if format == rangeExpanded || start == end {
		return start + "–" + end
	}
	sp, sn := splitNumber(start)
	ep, en := splitNumber(end)
	if sn == "" || en == "" || (ep != "" && ep != sp) || len(sn) != len(en) || en <= sn {
		return start + "–" + end
	}
	mode := format
	if format == rangeChicago16 {
		n, _ := strconv.Atoi(sn)
		switch {
		case n < 100 || n%100 == 0:
			return start + "–" + end
		case n%100 < 10:
			mode = -1 // minimal
		default:
			mode = rangeMinimal2
		}
	}
	c := 0
	for c < len(sn) && sn[c] == en[c] {
		c++
	}
	keep := en[c:]
	if mode == rangeMinimal2 && len(keep) < 2 && len(en) >= 2 {
		keep = en[len(en)-2:]
	}
	return start + "–" + keep
}

// splitNumber splits "E4832" into ("E", "4832"); the number is "" unless the
// rest is all ASCII digits.
func splitNumber(s string) (prefix, num string) {
	i := strings.IndexFunc(s, func(r rune) bool { return r >= '0' && r <= '9' })
	if i < 0 {
		return s, ""
	}
	for _, r := range s[i:] {
		if r < '0' || r > '9' {
			return s, ""
		}
	}
	return s[:i], s[i:]
}

// isRange reports whether a page or issue field names more than one page
// or issue (so the label is plural).
func isRange(s string) bool { return strings.ContainsAny(s, "-–,&") }

// hasDigit reports whether s contains an ASCII digit (CSL's "numeric" test
// for volume labels, roughly).
func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

var monthsLong = [...]string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}

var monthsMLA = [...]string{"Jan.", "Feb.", "Mar.", "Apr.", "May", "June", "July", "Aug.", "Sept.", "Oct.", "Nov.", "Dec."}

var monthsIEEE = [...]string{"Jan.", "Feb.", "Mar.", "Apr.", "May", "Jun.", "Jul.", "Aug.", "Sep.", "Oct.", "Nov.", "Dec."}

func year(d metadata.Date) string {
	if d.Year <= 0 {
		return ""
	}
	return strconv.Itoa(d.Year)
}

// dateLong renders "June 12, 2017", "June 2017" or "2017" (Chicago).
func dateLong(d metadata.Date, withDay bool) string {
	switch {
	case d.Year <= 0:
		return ""
	case d.Month == 0:
		return year(d)
	case d.Day == 0 || !withDay:
		return monthsLong[d.Month-1] + " " + year(d)
	}
	return monthsLong[d.Month-1] + " " + strconv.Itoa(d.Day) + ", " + year(d)
}

// dateMLA renders "12 June 2017", "June 2017" or "2017".
func dateMLA(d metadata.Date, withDay bool) string {
	switch {
	case d.Year <= 0:
		return ""
	case d.Month == 0:
		return year(d)
	case d.Day == 0 || !withDay:
		return monthsMLA[d.Month-1] + " " + year(d)
	}
	return strconv.Itoa(d.Day) + " " + monthsMLA[d.Month-1] + " " + year(d)
}

// dateIEEE renders "Jun. 12, 2017" (day zero-padded), "Jun. 2017" or "2017".
func dateIEEE(d metadata.Date, withDay bool) string {
	switch {
	case d.Year <= 0:
		return ""
	case d.Month == 0:
		return year(d)
	case d.Day == 0 || !withDay:
		return monthsIEEE[d.Month-1] + " " + year(d)
	}
	day := strconv.Itoa(d.Day)
	if d.Day < 10 {
		day = "0" + day
	}
	return monthsIEEE[d.Month-1] + " " + day + ", " + year(d)
}

// plural returns one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// ordinal returns "1st", "2nd", "3rd", "4th", … for a number, or "" when s
// is not a positive integer.
func ordinal(s string) string {
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return ""
	}
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return s + suffix
}

// editionShort renders an edition as "2nd ed." (numeric) or as given
// ("Revised edition"); "" for none.
func editionShort(e string) string {
	if e == "" {
		return ""
	}
	if o := ordinal(e); o != "" {
		return o + " ed."
	}
	return e
}

// monthDay renders "June 12", "June" or "" (a date whose year is given
// elsewhere, Chicago author-date).
func monthDay(d metadata.Date) string {
	switch {
	case d.Year <= 0 || d.Month == 0:
		return ""
	case d.Day == 0:
		return monthsLong[d.Month-1]
	}
	return monthsLong[d.Month-1] + " " + strconv.Itoa(d.Day)
}

// monthName renders "June" or "".
func monthName(d metadata.Date) string {
	if d.Year <= 0 || d.Month == 0 {
		return ""
	}
	return monthsLong[d.Month-1]
}
