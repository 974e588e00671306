package frontmatter

import (
	"math"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/crossmem/crossmem/internal/layout"
)

// Title rules (Result.TitleRule).
const (
	ruleLargest   = "largest type"
	ruleFirstLine = "first line"
	// RuleRunningHead is the rule of a title read from the running head
	// of a page without a title block (a page from inside a paper); such a
	// title may be a short form of the paper's.
	RuleRunningHead = "running head"
)

// titleScale is how much larger than the body text a title is set at
// least; below it, only the first-line rule can find a title.
const titleScale = 1.15

// runningScale bounds the size of running text relative to the body: a
// block of long lines set larger is a title, not prose.
const runningScale = 1.3

// endMarker matches the lines that end the front matter: the abstract's or
// the introduction's heading, alone or running into its text after
// punctuation ("Abstract.", "Abstract—", "1 Introduction"), and keywords.
// A title that begins with the word ("Introduction to …", "Abstract
// Syntax Notation One …") is not a heading; a heading run into its text
// with a space alone ("ABSTRACT This paper …") is one when it is set in
// bold and its text is not (Line.RunIn, see isEndMarker).
var endMarker = regexp.MustCompile(`(?i)^(?:(?:abstract|a\s*b\s*s\s*t\s*r\s*a\s*c\s*t|summary)(?:\s*$|\s*[.:—–-])|(?:keywords|key\s*words|index\s+terms)\b|(?:§\s*)?(?:(?:\d+|[ivx]+)\.?\s*)?introduction(?:\s*$|\s*[.:—–-]))`)

// runInAbstract matches the abstract's heading run into its text.
var runInAbstract = regexp.MustCompile(`(?i)^(?:abstract|a\s*b\s*s\s*t\s*r\s*a\s*c\s*t|summary)\s`)

// isEndMarker reports whether l is a line endMarker describes.
func isEndMarker(l *line) bool {
	t := strings.TrimSpace(l.Text)
	return endMarker.MatchString(t) || l.RunIn && runInAbstract.MatchString(t)
}

// frontEnd returns the top (y, points) of the first running text or
// abstract heading on the page that starts below y = below: the front
// matter lies above it. 0 when the page has neither.
func frontEnd(ls []*line, body, width, below float64) float64 {
	return frontEndIn(ls, body, width, below, math.Inf(-1), math.Inf(1))
}

// frontEndIn is frontEnd counting only the lines that overlap x0..x1 (a
// title's width): a column of text beside a title and authors set in a
// column of their own does not end them.
func frontEndIn(ls []*line, body, width, below, x0, x1 float64) float64 {
	end := 0.0
	blocks := map[int][]*line{}
	for _, l := range ls {
		if l.rotated || l.Box.X1 < x0 || l.Box.X0 > x1 {
			continue
		}
		blocks[l.block] = append(blocks[l.block], l)
		if l.Box.Y1 < below && isEndMarker(l) {
			end = math.Max(end, l.Box.Y1)
		}
	}
	for _, bl := range blocks {
		if bl[0].Box.Y1 < below && running(bl, body, width) && !besideLarge(ls, bl, body) {
			end = math.Max(end, bl[0].Box.Y1)
		}
	}
	return end
}

// besideLarge reports whether a line set in title type (titleScale times
// the body size or more) stands beside the block, at its height and clear
// of it sideways: the block is a column of text next to the title block
// (a class that sets the title and the authors in a column of their own),
// which does not end the front matter.
func besideLarge(ls []*line, bl []*line, body float64) bool {
	top, bottom := bl[0].Box.Y1, bl[len(bl)-1].Box.Y0
	x0, x1 := math.Inf(1), math.Inf(-1)
	for _, l := range bl {
		x0, x1 = math.Min(x0, l.Box.X0), math.Max(x1, l.Box.X1)
	}
	for _, l := range ls {
		if l.rotated || l.block == bl[0].block || l.Size < titleScale*body {
			continue
		}
		if l.Box.Y1 > bottom && l.Box.Y0 < top && (l.Box.X1 < x0 || l.Box.X0 > x1) {
			return true
		}
	}
	return false
}

// running reports whether a block's lines are running text: three or more
// lines of at least 40 characters on average, set near the body size,
// across a column of at least 30 % of the page, a quarter or more of them
// continuing a sentence (starting in lower case), as prose does and lists
// of affiliations and addresses do not, three quarters of those after the
// first flush with the block's left edge (not a centred byline).
func running(bl []*line, body, width float64) bool {
	if len(bl) < 3 || bl[0].kind == layout.Heading {
		return false
	}
	chars, lower, x0, x1 := 0, 0, math.Inf(1), math.Inf(-1)
	var sizes []float64
	for i, l := range bl {
		chars += len([]rune(l.Text))
		x0, x1 = math.Min(x0, l.Box.X0), math.Max(x1, l.Box.X1)
		sizes = append(sizes, l.Size)
		if r, _ := utf8.DecodeRuneInString(l.Text); i > 0 && unicode.IsLower(r) {
			lower++
		}
	}
	// Running text is set flush left (the first line may be indented); a
	// centred byline over three lines ("By … and …, / with appendix by …")
	// is not.
	flush := 0
	for _, l := range bl[1:] {
		if l.Box.X0 <= x0+1 {
			flush++
		}
	}
	return chars >= 40*len(bl) && median(sizes) < runningScale*body && x1-x0 >= 0.3*width && 4*lower >= len(bl)-1 && 4*flush >= 3*(len(bl)-1)
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

// notTitle matches lines that are never a paper's title: journal and
// proceedings banners, article-type labels, identifiers, addresses,
// dates, section headings and captions.
var notTitle = []*regexp.Regexp{
	regexp.MustCompile(`(?i)^(?:the\s+)?(?:journal|proceedings|transactions|annals|bulletin|letters|archives|acta|advances|reports|review)s?\s+(?:of|on|in|for)\b`),
	regexp.MustCompile(`(?i)\bjournal$`),
	regexp.MustCompile(`(?i)^(?:front cover|back cover|research article|original (?:research )?article|review article|technical report|tech report|preprint|draft|working paper|letter|brief communication|short communication|notes?|editorial|commentary|perspective|article|full paper|short paper|regular paper|extended abstract|invited paper|poster|demo(?:nstration)?)$`),
	regexp.MustCompile(`(?i)https?:|www\.|@|\.(?:com|org|edu|net)\b`),
	regexp.MustCompile(`(?i)\bdoi\b|arxiv:|\bissn\b|\bisbn\b`),
	regexp.MustCompile(`(?i)^(?:vol\.?|volume|pp\.?|pages|received|accepted|published|available online|copyright|©|submitted|revised|citation|cite this|to cite)\b`),
	regexp.MustCompile(`(?i)^(?:january|february|march|april|may|june|july|august|september|october|november|december)\s+\d`),
	// A section heading is the whole line ("2 Related Work", "Results and
	// Discussion", "Abstract."); a title may begin with one of its words
	// ("Introduction to the … Class").
	regexp.MustCompile(`(?i)^(?:§\s*)?(?:(?:\d+(?:\.\d+)*|[ivx]+)\.?\s+)?(?:introduction|background|related work|methods?|materials|results|discussion|conclusions?|exercises|problems|experiments?|evaluation|appendix|references|bibliography|acknowledg\w*|preliminaries|overview|abstract|contents|table of contents|keywords|index terms)(?:\s+and\s+\w+(?:\s+\w+)?)?\s*(?:$|[.:—–-])`),
	regexp.MustCompile(`(?i)^(?:keywords|key\s*words|index\s+terms)\b`),
	regexp.MustCompile(`^\d+\.\d+\.\d+`),
	regexp.MustCompile(`(?i)^(?:fig(?:ure)?|table|listing|algorithm|scheme|chart|plate)\s*\.?\s*[0-9ivx]`),
	regexp.MustCompile(`(?i)^(?:chapter|part|section|unit|lecture|lesson|module|appendix)\s+(?:\d+|[ivxlc]+|[a-z])\b`),
}

// titleCandidate reports whether a line may be part of a title.
func titleCandidate(l *line) bool {
	t := strings.TrimSpace(l.Text)
	letters, other := 0, 0
	for _, r := range t {
		switch {
		case unicode.IsLetter(r):
			letters++
		case unicode.IsSpace(r):
		default:
			other++
		}
	}
	if letters < 3 || letters < 2*other {
		return false
	}
	for _, re := range notTitle {
		if re.MatchString(t) {
			return false
		}
	}
	return true
}

// title is the title block found on a page.
type title struct {
	text  string
	rule  string
	lines []*line
	bold  bool
	size  float64
	// joinAfter is 1 when the first line is a prefix (see prefix) to join
	// to the rest with ": ".
	joinAfter int
	// subAt is the index of the first line of a subtitle (see subtitle),
	// joined with ": "; 0 when there is none.
	subAt int
}

func (t *title) top() float64 { return t.lines[0].Box.Y1 }

// xRange returns the left and right edges of the title's lines.
func (t *title) xRange() (x0, x1 float64) {
	x0, x1 = math.Inf(1), math.Inf(-1)
	for _, m := range t.lines {
		x0, x1 = math.Min(x0, m.Box.X0), math.Max(x1, m.Box.X1)
	}
	return x0, x1
}
func (t *title) bottom() float64 { return t.lines[len(t.lines)-1].Box.Y0 }

// atTop reports whether nothing but the page's top margin (running heads,
// banners, labels in the top 15 %) and line numbers in the side margin
// (a reviewing copy's) is set above the title.
func (t *title) atTop(ls []*line, height float64) bool {
	for _, l := range ls {
		if !l.rotated && l.Box.Y0 > t.top() && l.Box.Y0 < 0.85*height && !lineNumber(l, t) {
			return false
		}
	}
	return true
}

// lineNumber reports whether l is a number alone set outside the title's
// width: a line number in the margin of a reviewing copy.
func lineNumber(l *line, t *title) bool {
	x0, x1 := t.xRange()
	return pageNumber.MatchString(l.Text) && (l.Box.X1 < x0 || l.Box.X0 > x1)
}

// maxTitleGroups is how many size classes findTitles offers.
const maxTitleGroups = 3

// findTitles finds the title blocks among the lines above end (the front
// matter's end, frontEnd) and not in the page's bottom third: the block of
// each size class set at least titleScale times the body size, largest
// first (a masthead or a label may be set larger than the title; the
// caller prefers the one with names under it); or, when nothing is set
// that large, the first line of the page (ruleFirstLine).
func findTitles(ls []*line, end, body, height float64) []*title {
	var cands []*line
	for _, l := range byTop(ls) {
		if l.Box.Y0 >= end-1 && l.Box.Y1 >= 0.35*height && (titleCandidate(l) || functionWords[strings.ToLower(strings.TrimSpace(l.Text))]) {
			cands = append(cands, l)
		}
	}
	if len(cands) == 0 {
		return nil
	}
	var out []*title
	done := map[*line]bool{}
	for len(out) < maxTitleGroups {
		largest := 0.0
		for _, l := range cands {
			if !done[l] {
				largest = math.Max(largest, l.Size)
			}
		}
		if largest < titleScale*body {
			break
		}
		var first *line
		for _, l := range cands {
			if !done[l] && l.Size >= largest-0.6 {
				first = l
				break
			}
		}
		for _, l := range cands {
			if math.Abs(l.Size-largest) <= 0.6 {
				done[l] = true
			}
		}
		t := grow(cands, first, largest)
		lead(ls, t)
		subtitle(ls, cands, t)
		prefix(cands, t, body)
		// A title of one word ("BIBTEXing", "Libtasn1") only in display
		// type; Read takes it only with names under it (oneWord).
		if t.words() >= 2 || t.words() == 1 && largest >= runningScale*body {
			out = append(out, t.finish(ruleLargest))
		}
	}
	if len(out) > 0 {
		return out
	}
	if t := firstLine(ls, body, height); t != nil {
		return []*title{t}
	}
	return nil
}

// firstLine is the title when nothing is set larger than the body: the
// first line of the page, when it stands alone in bold or in the body's
// size or larger, on top of a block of at most three lines that does not
// end a sentence.
func firstLine(ls []*line, body, height float64) *title {
	for _, l := range byTop(ls) {
		if l.Box.Y1 < 0.35*height {
			break
		}
		if l.Size < body-0.3 && !l.Bold || l.Box.Y1 > 0.95*height && l.Size < body ||
			(l.kind == layout.PageHeader || l.kind == layout.PageFooter) && !l.Bold || pageNumber.MatchString(l.Text) {
			continue // running heads, page numbers, stamps above the title
		}
		if !titleCandidate(l) || l.Size < body-0.3 || sharesRow(ls, l) {
			return nil
		}
		var bl []*line
		for _, m := range ls {
			if m.block == l.block && !m.rotated {
				bl = append(bl, m)
			}
		}
		if len(bl) > 3 || strings.HasSuffix(strings.TrimSpace(bl[len(bl)-1].Text), ".") {
			return nil
		}
		// The title is the block's lines set in the first one's type; a
		// subtitle under it in another (lighter, smaller) stays out.
		for i, m := range bl {
			if i > 0 && (m.Bold != l.Bold || math.Abs(m.Size-l.Size) > 0.6) {
				bl = bl[:i]
				break
			}
		}
		t := &title{lines: bl, size: l.Size}
		if t.words() < 2 || t.words() > 30 {
			return nil
		}
		return t.finish(ruleFirstLine)
	}
	return nil
}

// grow collects the title block from its top line: the candidates below
// it set in the same size and weight and at most one line's height apart.
func grow(cands []*line, first *line, size float64) *title {
	t := &title{lines: []*line{first}, size: size}
	last := first
	after := false
	for _, l := range cands {
		if l == first {
			after = true
			continue
		}
		if !after {
			continue
		}
		if (math.Abs(l.Size-first.Size) > 0.6 || l.Bold != first.Bold) && !connects(last, l, l) {
			if l.Box.Y1 < last.Box.Y0 {
				break // something else set under the title (a subtitle in lighter type)
			}
			continue
		}
		if math.Abs(l.Box.Y1-last.Box.Y1) < 0.5*size {
			// Beside the last line: a title line broken in two at one
			// height.
			if l.Box.X0 > last.Box.X1 {
				t.lines = append(t.lines, l)
				last = l
			}
			continue
		}
		if last.Box.Y0-l.Box.Y1 > 0.9*size {
			break
		}
		t.lines = append(t.lines, l)
		last = l
	}
	return t
}

// functionWords are the words a phrase does not end with: a title line
// ending with one ("PRACTICAL USE OF") or made of one ("IN") goes on to
// the next line, whatever its size.
var functionWords = map[string]bool{
	"of": true, "in": true, "for": true, "and": true, "the": true, "on": true, "to": true, "a": true, "an": true,
	"with": true, "from": true, "by": true, "at": true, "via": true, "or": true, "into": true,
}

// endsInFunctionWord reports whether a line's last word is a function word.
func endsInFunctionWord(l *line) bool {
	ws := strings.Fields(l.Text)
	return len(ws) > 0 && functionWords[strings.ToLower(ws[len(ws)-1])]
}

// connects reports whether the line below (under above, a title line)
// continues the title's phrase though set in another size: one of the two
// ends with a function word (above does, or below is one: "IN" between
// "COMMANDS" and "DVIPDFMx"), the line in the other size (short: four
// words at most) has the title's weight and is centred on the same axis,
// and the gap is at most a line of the smaller type. small is the line set
// in the other size.
func connects(above, below, small *line) bool {
	if !endsInFunctionWord(above) && !(below == small && endsInFunctionWord(below) && len(strings.Fields(below.Text)) == 1) {
		return false
	}
	other := above
	if small == above {
		other = below
	}
	if small.Bold != other.Bold || len(strings.Fields(small.Text)) > 4 {
		return false
	}
	axis := func(l *line) float64 { return (l.Box.X0 + l.Box.X1) / 2 }
	gap := above.Box.Y0 - below.Box.Y1
	return math.Abs(axis(small)-axis(other)) < 0.1*math.Max(other.Box.Width(), small.Box.Width()) &&
		gap > -0.3*small.Size && gap <= math.Min(above.Size, below.Size)
}

// lead joins to the title a line right above it, in another size, whose
// phrase runs into it ("PRACTICAL USE OF" over "SPECIAL COMMANDS").
func lead(ls []*line, t *title) {
	top := t.lines[0]
	var above *line
	for _, l := range byTop(ls) {
		if l.Box.Y0 > top.Box.Y1-1 && !l.rotated {
			above = l
		}
	}
	if above != nil && above != top && titleCandidate(above) && connects(above, top, above) {
		t.lines = append([]*line{above}, t.lines...)
		if t.subAt > 0 {
			t.subAt++
		}
	}
}

// subtitle joins to the title the block set in the same type right under
// it, with white space alone between (up to three lines' height), as a
// subtitle ("EncTEX" over "The Extension of TEX For Input Re-encoding"):
// the same size and weight, nothing else between, and not a line of names.
func subtitle(ls, cands []*line, t *title) {
	last := t.lines[len(t.lines)-1]
	var next *line
	for _, l := range cands {
		if l.Box.Y1 < last.Box.Y0 && (next == nil || l.Box.Y1 > next.Box.Y1) {
			next = l
		}
	}
	if next == nil || math.Abs(next.Size-t.lines[0].Size) > 0.6 || next.Bold != t.lines[0].Bold {
		return
	}
	if gap := last.Box.Y0 - next.Box.Y1; gap <= 0.9*t.size || gap > 3*t.size {
		return
	}
	for _, l := range ls {
		if !l.rotated && l.Box.Y1 < last.Box.Y0 && l.Box.Y0 > next.Box.Y1 {
			return // something set between them
		}
	}
	if _, names := lineNames(next); names {
		return
	}
	sub := grow(cands, next, t.size)
	t.subAt = len(t.lines)
	t.lines = append(t.lines, sub.lines...)
}

// prefix joins a short line set just above the title in large type (a
// title over a subtitle set larger, "olmOCR 2" over "Unit Test Rewards for
// Document OCR") as "<prefix>: <title>". A label in capitals over a title
// that is not is a section's or a column's name and stays out.
func prefix(cands []*line, t *title, body float64) {
	var above *line
	for _, l := range cands {
		if l.Box.Y0 > t.top() {
			above = l
		}
	}
	if above == nil || above.Size < runningScale*body || len(strings.Fields(above.Text)) > 6 {
		return
	}
	if isUpper(above.Text) && !isUpper(t.lines[0].Text) {
		return // a section or column label set in capitals ("INDUSTRY WATCH")
	}
	if gap := above.Box.Y0 - t.top(); gap > 0.9*t.size {
		return
	}
	t.lines = append([]*line{above}, t.lines...)
	t.joinAfter = 1
	if t.subAt > 0 {
		t.subAt++
	}
}

// sharesRow reports whether two or more other lines of ls stand beside l
// at its height: l is a cell of a table row, not a title (one line beside
// it may be the other column of the page).
func sharesRow(ls []*line, l *line) bool {
	n := 0
	for _, m := range ls {
		if m == l || m.rotated {
			continue
		}
		if math.Abs(m.Base-l.Base) < 0.3*l.Size && (m.Box.X0 > l.Box.X1 || m.Box.X1 < l.Box.X0) {
			n++
		}
	}
	return n >= 2
}

func (t *title) words() int {
	n := 0
	for _, l := range t.lines {
		n += len(strings.Fields(l.Text))
	}
	return n
}

// finish sets the title's text: its lines joined by spaces (a line-end
// hyphen pdfium marked as such joins the halves of a word), footnote marks
// at the end removed.
func (t *title) finish(rule string) *title {
	var b strings.Builder
	bold := 0
	for i, l := range t.lines {
		s := trimRaised(l)
		if i == 0 && t.joinAfter > 0 {
			b.WriteString(strings.TrimSuffix(s, ":"))
			b.WriteString(": ")
			continue
		}
		if l.Bold {
			bold++
		}
		if i > 0 && i == t.subAt {
			if prev := strings.TrimSpace(b.String()); prev != "" && !strings.ContainsRune(".:?!", rune(prev[len(prev)-1])) {
				b.Reset()
				b.WriteString(prev + ": ")
			}
		}
		if l.Hyphenated && strings.HasSuffix(s, "-") {
			b.WriteString(strings.TrimSuffix(s, "-"))
			continue
		}
		b.WriteString(s)
		if i < len(t.lines)-1 {
			b.WriteString(" ")
		}
	}
	t.text = metadataText(strings.Join(strings.Fields(trimMarks(b.String())), " "))
	t.rule = rule
	t.bold = bold*2 > len(t.lines)
	return t
}

// trimRaised returns the line's text without the superscripts that end it
// (footnote marks: "Linebreak" + "a)", "title" + "⋆,⋆⋆"), trimmed.
func trimRaised(l *line) string {
	s := strings.TrimSpace(l.Text)
	runs := l.Runs()
	var tail []rune
	for i := len(runs) - 1; i >= 0 && runs[i].Raised; i-- {
		tail = append([]rune(runs[i].Text), tail...)
	}
	if len(tail) == 0 || len(tail) == len([]rune(strings.Join(strings.Fields(s), ""))) {
		return s
	}
	rs := []rune(s)
	j := len(rs)
	for k := len(tail) - 1; k >= 0; k-- {
		for j > 0 && unicode.IsSpace(rs[j-1]) {
			j--
		}
		if j == 0 || rs[j-1] != tail[k] {
			return s // the text does not end with the marks as drawn
		}
		j--
	}
	return strings.TrimSpace(string(rs[:j]))
}

// trimMarks removes footnote marks at the end of a title ("Platforms ∗",
// "Architecture⋆", "Title*,†").
func trimMarks(s string) string {
	return strings.TrimRightFunc(s, func(r rune) bool {
		return isMark(r) || r == ',' || unicode.IsSpace(r)
	})
}

// isMark reports whether r is a footnote or affiliation mark.
func isMark(r rune) bool {
	switch r {
	case '*', '∗', '†', '‡', '§', '¶', '‖', '#', '⋆', '★', '☆', '♠', '♣', '♥', '♦', '♢', '♡', '♤', '♧', '□', '■', '◇', '◆', '○', '●', '⋄', '✉', '+', '$', '&', '⊥', '⊤', '∥', '⁎':
		return true
	}
	return unicode.In(r, unicode.Sk) || r >= '\u2070' && r <= '\u209f' || r == '¹' || r == '²' || r == '³'
}

// metadataText writes text read from a page as metadata writes it: a
// dotless i under a separately drawn accent (TeX's \"{\i}) becomes an i,
// and the text is NFC-composed ("Aı̈t-Kaci" → "Aït-Kaci"). Only metadata
// (titles, names) is normalised; quotable text never is.
func metadataText(s string) string {
	rs := []rune(s)
	for i := 0; i+1 < len(rs); i++ {
		if rs[i] == 'ı' && unicode.Is(unicode.Mn, rs[i+1]) {
			rs[i] = 'i'
		}
	}
	return norm.NFC.String(string(rs))
}

// headNames matches what a running head of names has and a title does not:
// an initial ("M. Lysak"), "et al.", "and others".
var headNames = regexp.MustCompile(`(?:^|[\s,])\p{Lu}\.(?:\s|-|$)|\bet\s+al\b|\band\s+others\b`)

// pageNumber matches a page number set on its own ("9", "xii", "- 9 -").
var pageNumber = regexp.MustCompile(`(?i)^[-–—\s]*(?:\d{1,5}|[ivxlc]{1,6})[-–—\s]*$`)

// runningHead returns the title a page without a title block gives in its
// running head: the top row of the page, in its top margin, set no larger
// than the body and clear of the text below by a line's height, made of a
// page number and one line that reads as a title (three words or more, no
// names, no chapter or section label, nothing titleCandidate refuses). nil
// when the top row is not such a running head.
func runningHead(ls []*line, body, height float64) *title {
	rows := byTop(ls)
	if len(rows) < 3 {
		return nil
	}
	top := rows[0].Box.Y1
	var row, below []*line
	for _, l := range rows {
		if math.Abs(l.Box.Y1-top) <= 3 {
			row = append(row, l)
		} else {
			below = append(below, l)
		}
	}
	if len(row) != 2 || len(below) == 0 || top < 0.85*height {
		return nil
	}
	var head *line
	numbered := false
	for _, l := range row {
		if pageNumber.MatchString(l.Text) {
			numbered = true
		} else {
			head = l
		}
	}
	if !numbered || head == nil || head.Size > body+0.5 || head.Box.Y0-below[0].Box.Y1 < head.Size {
		return nil
	}
	text := strings.TrimSpace(head.Text)
	if len(strings.Fields(text)) < 3 || headNames.MatchString(text) || !titleCandidate(head) {
		return nil
	}
	t := &title{lines: []*line{head}, size: head.Size}
	return t.finish(RuleRunningHead)
}
