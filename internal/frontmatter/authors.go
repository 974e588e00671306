package frontmatter

import (
	"math"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/crossmem/crossmem/internal/layout"
	"github.com/crossmem/crossmem/internal/metadata"
)

// findAuthors reads the author names from the lines between the title and
// the front matter's end (end, frontEnd), or, when none of those are
// names, from the lines just above the title (some journals set the
// authors over it). Lines of names are kept when they are set in the size
// of the first line of names (within 1.2 points): affiliations and
// addresses are usually smaller, and are left out by their words anyway.
func findAuthors(ls []*line, t *title, end float64) []metadata.Name {
	rows := byTop(ls)
	inTitle := map[*line]bool{}
	for _, l := range t.lines {
		inTitle[l] = true
	}
	var below, above []*line
	for _, l := range rows {
		switch {
		case inTitle[l]:
		case l.Box.Y1 <= t.bottom()+1 && l.Box.Y0 >= end-1:
			below = append(below, l)
		case l.Box.Y0 >= t.top()-1:
			above = append(above, l)
		}
	}
	if names := namesFrom(below, true); len(names) > 0 {
		return names
	}
	// Upwards from the title, as long as the lines follow each other.
	var near []*line
	edge := t.top()
	for i := len(above) - 1; i >= 0; i-- {
		l := above[i]
		if l.Box.Y0-edge > 1.5*l.Size {
			break
		}
		near = append([]*line{l}, near...)
		edge = l.Box.Y1
	}
	return namesFrom(near, false)
}

// namesUnder reports whether the first line under t (below its bottom,
// not rotated) reads as a line of names.
func namesUnder(ls []*line, t *title) bool {
	for _, l := range byTop(ls) {
		if l.Box.Y1 < t.bottom()+1 {
			_, ok := lineNames(l)
			return ok
		}
	}
	return false
}

// namesFrom returns the names on the lines (top to bottom) that read as
// lines of names, in reading order. A line that continues the sentence of
// a refused line right above it is refused with it. With underTitle, the
// names end at a heading that is not names ("Author Note", "Contents"):
// what follows it is another part of the front matter.
func namesFrom(ls []*line, underTitle bool) []metadata.Name {
	var out []metadata.Name
	size := 0.0
	var refused []*line
	var last *line // the last line of names
	continues := func(l *line) bool {
		for _, r := range refused {
			gap := r.Box.Y0 - l.Box.Y1
			if runsOn(r) && gap > -0.3*r.Size && gap < 0.6*r.Size && r.Box.X0 < l.Box.X1 && l.Box.X0 < r.Box.X1 {
				return true
			}
		}
		return false
	}
	for _, l := range ls {
		if continues(l) {
			// The rest of a sentence ("with appendix by A and B and with
			// afterword" / "by C"), not a line of names.
			refused = append(refused, l)
			continue
		}
		names, ok := lineNames(l)
		if !ok && underTitle && last == nil && len(refused) == 0 {
			// The first line under the title naming an organisation
			// alone ("The ATLAS Collaboration"): the author.
			names, ok = orgLine(l)
		}
		if !ok {
			if underTitle && l.kind == layout.Heading && last != nil && l.Box.X0 < last.Box.X1 && last.Box.X0 < l.Box.X1 {
				break // a heading in the names' column
			}
			refused = append(refused, l)
			continue
		}
		if size == 0 {
			size = l.Size
		} else if math.Abs(l.Size-size) > 1.2 {
			continue
		}
		out = append(out, names...)
		last = l
	}
	return out
}

// runsOn reports whether a line's sentence goes on to the next line: it
// ends with a letter (no comma, stop or mark) and starts in lower case.
func runsOn(l *line) bool {
	t := strings.TrimSpace(l.Text)
	first, _ := utf8.DecodeRuneInString(t)
	last, _ := utf8.DecodeLastRuneInString(t)
	return unicode.IsLower(first) && unicode.IsLetter(last)
}

// byline matches the word that opens a line of names ("By A and B",
// "Revised by C").
var byline = regexp.MustCompile(`(?i)^(?:(?:revised|edited|compiled|written|prepared)\s+)?by\s+`)

// lineNames splits a line into author names. ok is false when the line
// does not read as a line of names: fewer than 60 % of its pieces are
// names.
func lineNames(l *line) ([]metadata.Name, bool) {
	segs := segments(l)
	text := strings.Join(segs, " ")
	by := byline.MatchString(text)
	if by {
		segs[0] = byline.ReplaceAllString(segs[0], "")
	}
	if strings.ContainsAny(text, "@{}/:") || strings.Contains(strings.ToLower(text), "http") || numbers.MatchString(text) {
		return nil, false
	}
	var pieces []string
	for _, seg := range segs {
		pieces = append(pieces, splitNames(seg)...)
	}
	var names, withOrgs []metadata.Name
	bad, affiliations := 0, 0
	firstIsName := false
	for i, p := range pieces {
		if n, ok := parseName(p); ok {
			names = append(names, n)
			withOrgs = append(withOrgs, n)
			firstIsName = firstIsName || i == 0
			continue
		}
		bad++
		if affiliationLike(p) {
			affiliations++
		}
		if orgName(p) {
			withOrgs = append(withOrgs, metadata.Name{Literal: p})
		}
	}
	names = sameCase(names, pieces)
	switch {
	case by && len(withOrgs) == len(pieces):
		// "by The NTS Team": a byline of names and organisations.
		return withOrgs, true
	case len(names) == 0:
		return nil, false
	case by && affiliations == bad:
		// "By American Mathematical Society and Boris Veytsman": a byline
		// says the line is of authors; an organisation among them is an
		// author too, kept by its literal name.
		return withOrgs, true
	case len(names)*5 >= 3*len(pieces):
		// Mostly names.
	case firstIsName && affiliations == bad:
		// "TAL AUGUST, University of Washington, USA": a name, then where
		// its bearer works.
	default:
		return nil, false
	}
	return names, true
}

// orgWords are the words that name a body of people which signs a paper
// as its author: a collaboration, a committee, a team, a society.
var orgWords = map[string]bool{
	"collaboration": true, "consortium": true, "team": true, "committee": true, "subcommittee": true,
	"group": true, "society": true, "association": true, "council": true, "alliance": true,
	"initiative": true, "project": true, "taskforce": true, "force": true, "board": true, "panel": true,
	"working": true, "network": true,
}

// orgName reports whether a piece of a line names an organisation that
// can sign as an author ("American Mathematical Society", "The ATLAS
// Collaboration", "Online-Journal Subcommittee of JPSJ"): two to eight
// words, no digits, each capitalised or a small word of names (of, for,
// the, on, and, in), one of them an orgWord (or the plural of one) that
// heads the name: its last word, or one followed by "of", "for", "on" or
// "in" ("Society for Industrial and Applied Mathematics"). A title-case
// subtitle whose orgWord qualifies another noun ("A Graph Neural Network
// Approach") names no organisation.
func orgName(p string) bool {
	ws := strings.Fields(p)
	if len(ws) < 2 || len(ws) > 8 || strings.IndexFunc(p, unicode.IsDigit) >= 0 {
		return false
	}
	lower := make([]string, len(ws))
	for i, w := range ws {
		lower[i] = strings.ToLower(strings.Trim(w, ".,"))
	}
	org := false
	for i, w := range ws {
		lw := lower[i]
		switch r, _ := utf8.DecodeRuneInString(w); {
		case lw == "of" || lw == "for" || lw == "the" || lw == "on" || lw == "and" || lw == "in":
		case !unicode.IsUpper(r):
			return false
		}
		head := i == len(ws)-1
		if !head {
			switch lower[i+1] {
			case "of", "for", "on", "in":
				head = true
			}
		}
		if head && (orgWords[lw] || len(lw) > 3 && orgWords[strings.TrimSuffix(lw, "s")]) {
			org = true
		}
	}
	return org
}

// orgLine returns the organisation a line names alone, as a literal
// author name: every piece of it is an orgName.
func orgLine(l *line) ([]metadata.Name, bool) {
	text := l.Text // not segments: a raised letter of a logo ("LATEX") is no mark
	if strings.ContainsAny(text, "@{}/:") || strings.Contains(strings.ToLower(text), "http") {
		return nil, false
	}
	var out []metadata.Name
	for _, p := range splitNames(text) {
		if !orgName(p) {
			return nil, false
		}
		out = append(out, metadata.Name{Literal: p})
	}
	return out, len(out) > 0
}

// affiliationLike reports whether a piece of a line that is not a name
// reads as (part of) an affiliation: it holds an institution's or a
// place's word (notNames), or it is a single word (a city, a country).
func affiliationLike(p string) bool {
	ws := strings.Fields(p)
	if len(ws) == 1 {
		return true
	}
	for _, w := range ws {
		if notNames[strings.ToLower(strings.Trim(w, ".,"))] {
			return true
		}
	}
	return false
}

// segments splits a line where its words stand far apart (names set side
// by side with space alone between them). Superscripts (affiliation and
// footnote marks: "Migchielsen" + "a,1,∗") become commas, which separate
// names; e-mail addresses set beside the names are left out.
func segments(l *line) []string {
	var ws []layout.Word
	for _, r := range l.Runs() {
		text := r.Text
		if r.Raised {
			text = ","
		}
		if n := len(ws); n > 0 && !r.Space {
			ws[n-1].Text += text
			ws[n-1].Box = ws[n-1].Box.Union(r.Box)
			continue
		}
		ws = append(ws, layout.Word{Text: text, Box: r.Box})
	}
	if len(ws) == 0 {
		// A line without characters (built in a test): its words, with no
		// measured gaps.
		for _, w := range strings.Fields(l.Text) {
			ws = append(ws, layout.Word{Text: w})
		}
	}
	kept := ws[:0]
	for _, w := range ws {
		if !email.MatchString(w.Text) {
			kept = append(kept, w)
		}
	}
	ws = kept
	if len(ws) == 0 {
		return []string{""}
	}
	if len(ws) < 2 {
		return []string{ws[0].Text}
	}
	var gaps []float64
	for i := 1; i < len(ws); i++ {
		gaps = append(gaps, ws[i].Box.X0-ws[i-1].Box.X1)
	}
	typical := median(gaps)
	limit := math.Max(0.6*l.Size, 2.5*typical)
	var out []string
	cur := []string{ws[0].Text}
	for i := 1; i < len(ws); i++ {
		if gaps[i-1] > limit {
			out = append(out, strings.Join(cur, " "))
			cur = nil
		}
		cur = append(cur, ws[i].Text)
	}
	return append(out, strings.Join(cur, " "))
}

// email matches a word that is an e-mail address ("abc@sample.com",
// "{a,b}@x.org", "<a@b.c>").
var email = regexp.MustCompile(`^[<({\[]?[\w.+,{}-]+@[\w-]+(?:\.[\w-]+)+[>)\]},;.]*$`)

// sameCase keeps, of a line whose names are set in capitals ("VALERIE
// BÉRANGER, Inria Paris-Rocquencourt, France"), only the names in
// capitals: the others are the affiliation written after each name. The
// names are those parseName read from pieces (title-cased).
func sameCase(names []metadata.Name, pieces []string) []metadata.Name {
	var caps []bool
	upper := 0
	for _, p := range pieces {
		if _, ok := parseName(p); !ok {
			continue
		}
		u := isUpper(p) && strings.IndexFunc(p, unicode.IsLetter) >= 0 && len(strings.Fields(p)) > 1 && hasLowerFree(p)
		caps = append(caps, u)
		if u {
			upper++
		}
	}
	if upper == 0 || upper == len(caps) || !caps[0] || len(caps) != len(names) {
		return names
	}
	var out []metadata.Name
	for i, n := range names {
		if caps[i] {
			out = append(out, n)
		}
	}
	return out
}

// hasLowerFree reports whether a word of p other than an initial has two
// or more letters (all in capitals, as isUpper checked): a name set in
// capitals, not a run of initials.
func hasLowerFree(p string) bool {
	for _, w := range strings.Fields(p) {
		if !initial.MatchString(w) && utf8.RuneCountInString(strings.Trim(w, ".,")) > 1 {
			return true
		}
	}
	return false
}

var (
	// numbers matches a number standing on its own (a year, a volume, a
	// postal code, a page range), which lines of names do not hold; marks
	// written against a name ("Bolejko1,2") are not on their own.
	numbers = regexp.MustCompile(`(?:^|[\s(])\d{2,}(?:[\s).,;:–-]|$)`)
	// nameSeparators split a run of names: commas, semicolons, "and",
	// "&", middle dots and bullets.
	nameSeparators = regexp.MustCompile(`\s*(?:[,;·•|]|\band\b|&)\s*`)
	honorific      = regexp.MustCompile(`(?i)^(?:dr|prof|professor|mr|mrs|ms|sir)\.?\s+`)
	degree         = regexp.MustCompile(`(?i)\s+(?:ph\.?\s?d|m\.?\s?d|m\.?\s?sc|b\.?\s?sc|mba|jr|sr)\.?$`)
	// generation matches a generational suffix after a given name, an
	// initial or two and the family name ("John H. Lienhard V"); with
	// fewer words "V" may be an initial written after the family name.
	generation = regexp.MustCompile(`^(\S+\s+\S+\s+\S+.*?),?\s+(?:II|III|IV|V|VI)$`)
	// gluedInitials reads "Yu.A.Pusep" and "L.Fernandes": initials
	// written against the family name.
	gluedInitials = regexp.MustCompile(`^((?:\p{Lu}\p{Ll}?\.)+)(\p{Lu}[\p{L}\p{M}'’-]+)$`)
	initial       = regexp.MustCompile(`^(?:\p{Lu}\p{Ll}?\.)+(?:-\p{Lu}\.?)?$|^\p{Lu}$`)
	nameWord      = regexp.MustCompile(`^\p{Lu}[\p{L}\p{M}'’.-]*$`)
)

// particles are the lower-case words a name may hold.
var particles = map[string]bool{
	"van": true, "von": true, "de": true, "der": true, "den": true, "del": true, "della": true, "di": true, "da": true,
	"dos": true, "das": true, "do": true, "du": true, "la": true, "le": true, "ten": true, "ter": true, "bin": true,
	"ibn": true, "al": true, "el": true, "y": true, "zu": true, "af": true, "av": true,
}

// notNames are words that appear on title pages, capitalised, in lines
// that are not names: institutions, places, roles, and the small words of
// titles and sentences.
var notNames = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		university universiteit université universidad universidade universität università universitat univ
		institute institut instituto istituto department dept departamento département laboratory laboratories
		lab labs laboratoire center centre centro school college faculty inc ltd llc gmbh corporation corp
		company group research sciences science engineering technology technologies ai email e-mail
		correspondence corresponding received accepted published keywords abstract introduction journal vol
		volume issue press society hospital clinic foundation street avenue road campus division unit program
		programme project national international conference proceedings workshop symposium chapter section
		table figure dataset data model models system systems network networks learning analysis
		usa uk china japan germany france india korea canada italy spain brazil australia switzerland
		netherlands russia pakistan mexico sweden norway denmark finland israel singapore taiwan austria
		belgium portugal poland greece turkey iran egypt
		google microsoft ibm amazon meta facebook deepmind openai nvidia apple intel adobe mozilla
		the of for on in with via by using towards toward from to an is are we our this these
		contents preface foreword editor editors edited appendix
		note notes member fellow senior student county province state city district version edition
	`) {
		m[w] = true
	}
	return m
}()

// notNameWord reports whether a word (lower case) is one of notNames, in
// the plural ("journals"), or holds one between hyphens
// ("editor-in-chief", "max-planck-institut").
func notNameWord(w string) bool {
	if notNames[w] || len(w) > 3 && strings.HasSuffix(w, "s") && notNames[strings.TrimSuffix(w, "s")] {
		return true
	}
	if strings.Contains(w, "-") {
		for _, p := range strings.Split(w, "-") {
			if len(p) > 2 && notNames[p] {
				return true
			}
		}
	}
	return false
}

// splitNames turns one segment of a line into name candidates: footnote
// and affiliation marks (symbols, digits, Greek letters written against a
// name) separate names, as do commas, "and", "&" and middle dots.
func splitNames(seg string) []string {
	var b strings.Builder
	prev := rune(0)
	for _, r := range seg {
		switch {
		case unicode.IsDigit(r) || isMark(r) && r != '&':
			b.WriteString(",")
		case unicode.Is(unicode.Greek, r) && prev != 0 && unicode.Is(unicode.Latin, prev):
			b.WriteString(",")
			r = ','
		case r == '"' || r == '\'' && (prev == '\'' || prev == ' ' || prev == 0):
			b.WriteString(",")
		default:
			b.WriteRune(r)
		}
		if r != ',' {
			prev = r
		}
	}
	var out []string
	for _, p := range nameSeparators.Split(b.String(), -1) {
		p = strings.Trim(strings.TrimSpace(p), "'’.,-")
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// parseName reads one candidate as a person's name: two to five words,
// each an initial, a capitalised word or a particle, none a word of
// institutions or sentences (notNames). Names set in capitals are
// title-cased ("YING SHEN" → Ying Shen).
func parseName(p string) (metadata.Name, bool) {
	p = honorific.ReplaceAllString(p, "")
	p = degree.ReplaceAllString(p, "")
	p = generation.ReplaceAllString(p, "$1")
	var toks []string
	for _, w := range strings.Fields(p) {
		if m := gluedInitials.FindStringSubmatch(w); m != nil {
			toks = append(toks, m[1], m[2])
			continue
		}
		toks = append(toks, w)
	}
	if len(toks) < 2 || len(toks) > 5 {
		return metadata.Name{}, false
	}
	caps := 0
	for _, w := range toks {
		lw := strings.ToLower(strings.Trim(w, ".,"))
		switch {
		case notNameWord(lw):
			return metadata.Name{}, false
		case particles[w]:
		case initial.MatchString(w):
		case nameWord.MatchString(w):
			if isUpper(w) && len([]rune(w)) > 1 {
				caps++
			}
		default:
			return metadata.Name{}, false
		}
	}
	if particles[toks[len(toks)-1]] {
		return metadata.Name{}, false // a name ends with its family name
	}
	if caps == len(toks) || caps > 0 && caps+countInitials(toks) == len(toks) {
		for i, w := range toks {
			if !initial.MatchString(w) {
				toks[i] = titleCase(w)
			}
		}
	}
	n := metadata.ParseName(metadataText(strings.Join(toks, " ")))
	if n == (metadata.Name{}) {
		return n, false
	}
	return n, true
}

func countInitials(toks []string) int {
	n := 0
	for _, w := range toks {
		if initial.MatchString(w) {
			n++
		}
	}
	return n
}

func isUpper(s string) bool {
	for _, r := range s {
		if unicode.IsLower(r) {
			return false
		}
	}
	return true
}

// titleCase writes a word set in capitals with only its first letter (and
// the first letter after a hyphen or an apostrophe) in capitals.
func titleCase(w string) string {
	var b strings.Builder
	up := true
	for _, r := range w {
		if up {
			b.WriteRune(unicode.ToUpper(r))
		} else {
			b.WriteRune(unicode.ToLower(r))
		}
		up = r == '-' || r == '\'' || r == '’'
	}
	return b.String()
}
