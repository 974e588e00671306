package frontmatter

import (
	"math"
	"regexp"
	"strings"
	"unicode"

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
	if names := namesFrom(below); len(names) > 0 {
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
	return namesFrom(near)
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
// lines of names, in reading order.
func namesFrom(ls []*line) []metadata.Name {
	var out []metadata.Name
	size := 0.0
	for _, l := range ls {
		names, ok := lineNames(l)
		if !ok {
			continue
		}
		if size == 0 {
			size = l.Size
		} else if math.Abs(l.Size-size) > 1.2 {
			continue
		}
		out = append(out, names...)
	}
	return out
}

// lineNames splits a line into author names. ok is false when the line
// does not read as a line of names: fewer than 60 % of its pieces are
// names.
func lineNames(l *line) ([]metadata.Name, bool) {
	text := strings.TrimSpace(l.Text)
	if strings.ContainsAny(text, "@{}/:") || strings.Contains(strings.ToLower(text), "http") || numbers.MatchString(text) {
		return nil, false
	}
	var pieces []string
	for _, seg := range segments(l) {
		pieces = append(pieces, splitNames(seg)...)
	}
	var names []metadata.Name
	bad, affiliations := 0, 0
	firstIsName := false
	for i, p := range pieces {
		if n, ok := parseName(p); ok {
			names = append(names, n)
			firstIsName = firstIsName || i == 0
			continue
		}
		bad++
		if affiliationLike(p) {
			affiliations++
		}
	}
	switch {
	case len(names) == 0:
		return nil, false
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
// by side with space alone between them).
func segments(l *line) []string {
	ws := l.Words()
	if len(ws) < 2 {
		return []string{l.Text}
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
	`) {
		m[w] = true
	}
	return m
}()

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
		case notNames[lw]:
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
