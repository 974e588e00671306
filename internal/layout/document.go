package layout

import (
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/crossmem/crossmem/internal/editdist"
	"github.com/crossmem/crossmem/internal/pdf"
)

// Document lays out every page of a PDF and decides what needs the whole
// document:
//
//  1. page furniture, by position and repetition (furniture);
//  2. sections: from the PDF's outline where it has one that matches the
//     headings on the pages (applyOutline), else from typography with
//     rejection rules (typographicSections);
//  3. bibliography entries, footnotes and list items (kinds);
//     on tagged pages the structure tree's headings and block types where
//     it can be trusted (applyTags);
//  4. paragraphs that a column or page break interrupts (continuations).
//
// s is what the PDF says about itself (pdf.Document.Structure); its page
// labels are copied to the pages. Pages are laid out in parallel (Analyze
// is pure), the document steps after, so the result does not depend on
// the number of cores.
func Document(pages []*pdf.Page, s pdf.Structure) []*Page {
	st := DocumentStats(pages)
	out := make([]*Page, len(pages))
	eachPage(len(pages), func(i int) { out[i] = Analyze(pages[i], st) })
	for i := range out {
		if i < len(s.Labels) {
			out[i].Label = s.Labels[i]
		}
	}
	furniture(out, st)
	outlined := applyOutline(out, s.Outline)
	if !outlined {
		typographicSections(out, st)
	}
	if len(out) > 0 {
		frontMatter(out[0], st)
	}
	kinds(out, st)
	applyTags(out, pages, outlined)
	continuations(out)
	linkFloats(out, st)
	return out
}

// ---------------------------------------------------------------- furniture

// Furniture zones: the share of the page height at the top and bottom, and
// of the width at each side, where running heads, page numbers and stamps
// are looked for.
const (
	furnitureZone = 0.12
	sideZone      = 0.09
)

var (
	// publicationLine is a line of a journal's or publisher's banner: a
	// DOI, an arXiv or ISSN number, a copyright or licence notice, the
	// dates of a paper's history, a volume and issue, a preprint notice.
	publicationLine = regexp.MustCompile(`(?i)(\bdoi\b[:\s]|\b10\.[0-9]{4,9}/\S|\bissn\b|©|\bcopyright\b|\breceived\b.*\b(accepted|revised)\b|\bvol(ume|\.)\s*[0-9]+.*\b(issue|no\.)|\bpreprint\.?\s*under review\b|\bonline at\b|\barxiv\s*e?print\s*:)`)
	pageNumberText  = regexp.MustCompile(`^(?i:(page|p\.|s\.|seite)\s*)?[-–—(]?\s*([0-9]{1,4}|[ivxlcdm]{1,7})\s*[-–—)]?(\s*(of|/|von)\s*[0-9]{1,4})?$`)
	digitsRe        = regexp.MustCompile(`[0-9]+`)
)

// furnitureKey is a block's text with white space collapsed, lower case
// and digits masked, so that "Page 3" and "Page 4" or a running head with
// its page number compare equal.
func furnitureKey(text string) string {
	return digitsRe.ReplaceAllString(strings.ToLower(strings.Join(strings.Fields(text), " ")), "#")
}

// furniture marks page furniture:
//
//   - a short block (at most two lines) in the top or bottom 12 % of the
//     page whose text, digits masked, recurs in the same zone on at least
//     two pages (three in documents of more than four pages): running
//     heads, journal banners, footers with page numbers;
//   - a block in those zones that is a page number ("12", "xii", "- 3 -",
//     "Page 3 of 9"), or on the first page a line of a publisher's banner
//     in body size or smaller (a DOI, an ISSN, a copyright notice, the
//     paper's history, volume and issue, an arXiv e-print, a preprint
//     notice), that lies above or below the rest of its column;
//   - rotated text wholly in a side margin, outside the horizontal extent
//     of the page's body text (the arXiv stamp, "Downloaded from …"), and
//     any block whose text recurs at the same place on at least three
//     pages and half the document;
//   - a block the page-level pass put in the header or footer (a single
//     line above or below everything else) on a one-page document, where
//     repetition cannot be seen, unless it is set in display type (larger
//     than 1.2 times the body text: a title alone at the top).
//
// Blocks the page-level pass put in the header or footer that none of
// these confirm are body text again. Confirmed furniture is moved to the
// start (headers) or end (footers, margin notes) of the page's blocks.
func furniture(pages []*Page, st Stats) {
	type zoneKey struct {
		zone int // 0 top, 1 bottom
		key  string
	}
	inZone := func(p *Page, b *Block) int {
		if p.Height <= 0 || len(b.Lines) > 2 || len(strings.Fields(b.Text())) > 25 || b.Rotated {
			return -1
		}
		return zone(p, b.Box, blockQuarter(b))
	}
	zonePages := map[zoneKey]map[int]bool{}
	placePages := map[string]map[int]bool{}
	place := func(b *Block) string {
		return furnitureKey(b.Text()) + "@" + itoa(int(b.Box.X0/12)) + "," + itoa(int(b.Box.Y0/12))
	}
	for _, p := range pages {
		for _, b := range p.Blocks {
			if z := inZone(p, b); z >= 0 {
				keys := []string{furnitureKey(b.Text())}
				if len(b.Lines) == 2 {
					// Each line too, to find a running head's line taken
					// into a float at the top of a page.
					keys = append(keys, "\n"+furnitureKey(b.Lines[0].Text), "\n"+furnitureKey(b.Lines[1].Text))
				}
				for _, key := range keys {
					k := zoneKey{z, key}
					if zonePages[k] == nil {
						zonePages[k] = map[int]bool{}
					}
					zonePages[k][p.Number] = true
				}
			}
			k := place(b)
			if placePages[k] == nil {
				placePages[k] = map[int]bool{}
			}
			placePages[k][p.Number] = true
		}
	}
	n := len(pages)
	minRepeat := 3
	if n <= 4 {
		minRepeat = 2
	}
	// Lines of a running head or a page number that a table or figure at
	// the top or foot of a page took in are furniture blocks again.
	for _, p := range pages {
		var blocks []*Block
		for _, b := range p.Blocks {
			if b.Kind != TableText && b.Kind != FigureText || b.Rotated || p.Height <= 0 {
				blocks = append(blocks, b)
				continue
			}
			var keep, out []*Line
			zoneOf := func(l *Line) int { return zone(p, l.Box, l.quarter) }
			isOut := map[*Line]bool{}
			for _, l := range b.Lines {
				z := zoneOf(l)
				text := strings.Join(strings.Fields(l.Text), " ")
				key := furnitureKey(text)
				if strings.IndexFunc(key, unicode.IsLetter) < 0 {
					continue // a number: only on a running head's row (below)
				}
				if z >= 0 && (len(zonePages[zoneKey{z, "\n" + key}]) >= minRepeat || len(zonePages[zoneKey{z, key}]) >= minRepeat) {
					isOut[l] = true
				}
			}
			// A page number on a running head's row goes with it.
			for _, l := range b.Lines {
				if isOut[l] || zoneOf(l) < 0 || !pageNumberText.MatchString(strings.TrimSpace(l.Text)) {
					continue
				}
				for o := range isOut {
					if math.Abs(o.Base-l.Base) < 2 {
						isOut[l] = true
						break
					}
				}
			}
			for _, l := range b.Lines {
				if isOut[l] {
					out = append(out, l)
				} else {
					keep = append(keep, l)
				}
			}
			if len(out) == 0 {
				blocks = append(blocks, b)
				continue
			}
			for _, l := range out {
				kind := PageHeader
				if zoneOf(l) == 1 {
					kind = PageFooter
				}
				blocks = append(blocks, newBlock(kind, []*Line{l}))
			}
			if len(keep) > 0 {
				nb := newBlock(b.Kind, keep)
				nb.Float = b.Float
				if f := b.Float; f != nil && f.src != nil {
					// Its cells without the furniture.
					f.src.lines = slices.DeleteFunc(f.src.lines, func(l *Line) bool { return isOut[l] })
					f.readCells()
				}
				blocks = append(blocks, nb)
			}
		}
		p.Blocks = blocks
	}
	for _, p := range pages {
		x0, x1 := bodyExtent(p, -1)
		var head, body, foot, margin []*Block
		for _, b := range p.Blocks {
			kind := Kind("")
			z := inZone(p, b)
			text := strings.Join(strings.Fields(b.Text()), " ")
			// The side margins and the halves of the page as the block's
			// own text runs: a page printed turned (a landscape table with
			// its running head) has them turned too.
			q := blockQuarter(b)
			fb, ext := rotateRect(b.Box, q), rotateRect(pdf.Rect{X1: p.Width, Y1: p.Height}, q)
			fx0, fx1 := bodyExtent(p, q)
			switch {
			case b.Kind == MarginNote:
				// Line numbers, set apart by the layout (linenumbers.go).
				kind = MarginNote
			case z >= 0 && (len(zonePages[zoneKey{z, furnitureKey(text)}]) >= minRepeat || len(b.Lines) == 1 && len(zonePages[zoneKey{z, "\n" + furnitureKey(text)}]) >= minRepeat) && !captionText(text):
				kind = []Kind{PageHeader, PageFooter}[z]
			case z >= 0 && pageNumberText.MatchString(text) && clearOf(p, b, z):
				kind = []Kind{PageHeader, PageFooter}[z]
			case len(b.Lines) == 1 && pageNumberText.MatchString(text) && outerRow(p, b, st) >= 0:
				kind = []Kind{PageHeader, PageFooter}[outerRow(p, b, st)]
			case z >= 0 && p.Number == 1 && publicationLine.MatchString(text) && !refStart.MatchString(text) && b.Size() <= 1.05*st.BodySize && clearOf(p, b, z):
				kind = []Kind{PageHeader, PageFooter}[z]
			case b.Rotated && x1 > x0 && (b.Box.X1 <= x0+1 || b.Box.X0 >= x1-1):
				kind = MarginNote
			case !b.Rotated && fx1 > fx0 && p.Width > 0 && (fb.X1 <= ext.X0+ext.Width()*sideZone || fb.X0 >= ext.X1-ext.Width()*sideZone) && (fb.X1 <= fx0+1 || fb.X0 >= fx1-1) && !rowCell(p, b):
				kind = MarginNote
			case n >= 3 && len(placePages[place(b)]) >= max(3, (n+1)/2) && len(b.Lines) <= 2 && len([]rune(text)) > 3:
				if fb.Y0 > ext.Y0+ext.Height()/2 {
					kind = PageHeader
				} else {
					kind = PageFooter
				}
			case (b.Kind == PageHeader || b.Kind == PageFooter) && n == 1 && b.Size() <= 1.2*st.BodySize:
				// Not display type: a title alone at the top is no running head.
				kind = b.Kind
			}
			switch {
			case kind == PageHeader:
				b.Kind = kind
				head = append(head, b)
			case kind == PageFooter:
				b.Kind = kind
				foot = append(foot, b)
			case kind == MarginNote:
				b.Kind = kind
				margin = append(margin, b)
			default:
				if b.Kind == PageHeader || b.Kind == PageFooter {
					b.Kind = Paragraph
					classify(b, st)
				}
				body = append(body, b)
			}
		}
		// A short line on the row of a page number found by outerRow is
		// its running head.
		var rest []*Block
		for _, b := range body {
			moved := false
			if !b.Rotated && len(b.Lines) == 1 && len(strings.Fields(b.Text())) <= 15 {
				for _, f := range append(append([]*Block(nil), head...), foot...) {
					if len(f.Lines) == 1 && pageNumberText.MatchString(strings.TrimSpace(f.Text())) && math.Abs(f.Lines[0].Base-b.Lines[0].Base) < 0.3*b.Size() && outerRow(p, f, st) >= 0 {
						b.Kind = f.Kind
						if f.Kind == PageHeader {
							head = append(head, b)
						} else {
							foot = append(foot, b)
						}
						moved = true
						break
					}
				}
			}
			if !moved {
				rest = append(rest, b)
			}
		}
		body = rest
		p.Blocks = append(append(append(head, body...), foot...), margin...)
	}
}

// outerRow reports whether a block lies on the top row of its page (0) or
// the bottom row (1) — no other block of the page's main orientation
// reaches above its top, or below its bottom — within the outer 18 % of
// the page height, a little deeper than the furniture zone, set no larger
// than 1.2 times the body text (not a chapter number in display type): a
// page number there is one even where the zone's edge cuts it or no repetition shows
// it (a one-page document). -1 otherwise.
func outerRow(p *Page, b *Block, st Stats) int {
	if b.Rotated || p.Height <= 0 || b.Size() > 1.2*st.BodySize {
		return -1
	}
	top, bottom := b.Box.Y0 >= p.Height*(1-outerZone), b.Box.Y1 <= p.Height*outerZone
	for _, o := range p.Blocks {
		if o == b || o.Rotated {
			continue
		}
		if o.Box.Y1 > b.Box.Y1+1 {
			top = false
		}
		if o.Box.Y0 < b.Box.Y0-1 {
			bottom = false
		}
	}
	switch {
	case top:
		return 0
	case bottom:
		return 1
	}
	return -1
}

// outerZone is the share of the page height at the top and bottom where
// outerRow looks for page numbers.
const outerZone = 0.18

// rowCell reports whether b, a block with letters, shares its row with
// another block of its frame close beside it (within eight times its
// size): the first cell of a table row, not a note set apart in the
// margin. Line numbers beside the text are digits and stay notes.
func rowCell(p *Page, b *Block) bool {
	if strings.IndexFunc(b.Text(), unicode.IsLetter) < 0 {
		return false
	}
	q := blockQuarter(b)
	bb := rotateRect(b.Box, q)
	gap := 8 * b.Size()
	for _, o := range p.Blocks {
		if o == b || o.Rotated || blockQuarter(o) != q {
			continue
		}
		ob := rotateRect(o.Box, q)
		overlap := math.Min(bb.Y1, ob.Y1) - math.Max(bb.Y0, ob.Y0)
		if overlap < 0.5*math.Min(bb.Height(), ob.Height()) {
			continue
		}
		if math.Max(ob.X0-bb.X1, bb.X0-ob.X1) <= gap {
			return true
		}
	}
	return false
}

// blockQuarter is the frame b was laid out in: the quarter turn of its
// text's baseline (0 for upright text).
func blockQuarter(b *Block) int {
	if len(b.Lines) == 0 {
		return 0
	}
	return b.Lines[0].quarter
}

// zone returns 0 when r lies in the top furniture zone of the page as
// text of frame q reads it, 1 in the bottom zone, -1 in neither.
func zone(p *Page, r pdf.Rect, q int) int {
	r, ext := rotateRect(r, q), rotateRect(pdf.Rect{X1: p.Width, Y1: p.Height}, q)
	switch {
	case r.Y0 >= ext.Y1-ext.Height()*furnitureZone:
		return 0
	case r.Y1 <= ext.Y0+ext.Height()*furnitureZone:
		return 1
	}
	return -1
}

// clearOf reports whether b lies above (zone 0) or below (zone 1) every
// other unrotated block of the page that overlaps it horizontally, as
// b's text reads.
func clearOf(p *Page, b *Block, zone int) bool {
	q := blockQuarter(b)
	bb := rotateRect(b.Box, q)
	for _, o := range p.Blocks {
		if o == b || o.Rotated {
			continue
		}
		ob := rotateRect(o.Box, q)
		if ob.X1 < bb.X0 || ob.X0 > bb.X1 {
			continue
		}
		if zone == 0 && ob.Y1 > bb.Y0+1 || zone == 1 && ob.Y0 < bb.Y1-1 {
			return false
		}
	}
	return true
}

// bodyExtent returns the horizontal extent, in frame q (see
// orientations), of the page's unrotated blocks of at least two lines laid
// out in that frame (its text columns), or with q = -1 of all its
// unrotated blocks of at least two lines in page coordinates; 0, 0 when
// there are none.
func bodyExtent(p *Page, q int) (x0, x1 float64) {
	x0, x1 = math.Inf(1), math.Inf(-1)
	for _, b := range p.Blocks {
		if b.Rotated || len(b.Lines) < 2 || q >= 0 && blockQuarter(b) != q {
			continue
		}
		r := b.Box
		if q > 0 {
			r = rotateRect(r, q)
		}
		x0, x1 = math.Min(x0, r.X0), math.Max(x1, r.X1)
	}
	if x0 > x1 {
		return 0, 0
	}
	return x0, x1
}

func itoa(i int) string {
	if i < 0 {
		return "-" + itoa(-i)
	}
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// ---------------------------------------------------------------- outline

// titleKey reduces a heading or outline title for matching: a leading
// section number removed, Unicode decomposed without marks, TeX markup
// left in bookmark strings dropped, lower case, letters and digits only.
func titleKey(s string) string {
	s = leadingSectionNumber.ReplaceAllString(strings.TrimSpace(s), "")
	var b strings.Builder
	for _, r := range norm.NFKD.String(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

var leadingSectionNumber = regexp.MustCompile(`^((\d+|[A-Z]|[IVXL]+)(\.\d+)*\.?|(?i:appendix|chapter|section)\s+([A-Z]|\d+)\.?:?)\s+`)

// similar reports whether two title keys agree: equal, or within an edit
// distance of a tenth of the longer (math or markup rendered differently
// in the bookmark).
func similar(a, b string) bool {
	if a == b {
		return a != ""
	}
	la, lb := len([]rune(a)), len([]rune(b))
	if la == 0 || lb == 0 || la*10 < lb*8 || lb*10 < la*8 {
		return false
	}
	return editdist.Levenshtein([]rune(a), []rune(b))*10 <= max(la, lb)
}

// outlineMatch is where an outline entry's heading was found.
type outlineMatch struct {
	page, block int
	first, last int  // heading lines: first in the block, last in the block extra blocks on
	extra       int  // further blocks the heading runs into
	runIn       bool // the heading's last line continues with body text
	// fuzzy is true when the lines' key only resembles the title's
	// (similar) rather than equal it or start with it.
	fuzzy bool
	// after is true when the heading starts at or after the entry's
	// destination in reading order (afterDestination); dist is how far
	// its top lies from the destination's, in points.
	after bool
	dist  float64
	// head and rest are the heading's last line cut where a run-in
	// heading ends, and the text after it (see runInMatch).
	head, rest *Line
}

// applyOutline finds each outline entry's heading on the pages and marks
// it. An entry is looked for on its destination page and the next one
// (after the previous entry's heading), or, when its destination names no
// usable page, on the pages after the previous entry's; among the lines
// whose text starts with the entry's title (titleKey, similar) the one
// nearest the destination's position wins, a line that carries the title
// exactly before one that only resembles it. An entry that matches no line
// but has a position opens its section at the first block below that
// position. It returns false, and changes nothing, when fewer than two
// entries or fewer than half of them are placed: then typography decides.
//
// When it returns true the outline governs: headings it does not name are
// body text again, except before the first outline section (front matter
// such as "Abstract") and named back-matter headings (References,
// Acknowledgements, Appendix), which open top-level sections.
func applyOutline(pages []*Page, outline []pdf.OutlineEntry) bool {
	if len(outline) < 2 {
		return false
	}
	type placed struct {
		e     pdf.OutlineEntry
		m     outlineMatch
		byPos bool
	}
	var found []placed
	lastPage, lastBlock := 1, -1
	// lastLine is the last line of the previous entry's heading when the
	// lines after it in its block may hold the next one (headings set one
	// right under the other: "5 Tables" / "5.1 Mechanism"); -1 otherwise.
	lastLine := -1
	for _, e := range outline {
		key := titleKey(e.Title)
		if key == "" {
			continue
		}
		from, to := lastPage, min(lastPage+3, len(pages))
		if e.Page >= lastPage && e.Page <= len(pages) {
			from, to = e.Page, min(e.Page+1, len(pages))
		}
		best := outlineMatch{page: -1}
		for pn := from; pn <= to && best.page < 0; pn++ {
			p := pages[pn-1]
			for bi, b := range p.Blocks {
				if pn == lastPage && (bi < lastBlock || bi == lastBlock && lastLine < 0) || b.Kind.Furniture() {
					continue
				}
				for li := range b.Lines {
					if pn == lastPage && bi == lastBlock && li <= lastLine {
						continue
					}
					m, ok := matchTitle(p, bi, li, key)
					if ok && m.runIn {
						m, ok = runInMatch(p, bi, m, key)
					}
					if !ok {
						continue
					}
					m.page, m.block, m.after = pn, bi, true
					if pn == e.Page && e.HasY {
						l := b.Lines[li]
						m.dist = math.Abs(l.Box.Y1 - e.Y)
						m.after = afterDestination(l, e, p.Width)
					}
					if betterMatch(m, best) {
						best = m
					}
					break
				}
			}
		}
		if best.page < 0 && e.HasY && e.Page >= lastPage && e.Page <= len(pages) {
			// No line carries the title: open the section where the
			// destination points.
			p := pages[e.Page-1]
			for bi, b := range p.Blocks {
				if e.Page == lastPage && bi <= lastBlock || b.Kind.Furniture() || b.Box.Y1 > e.Y+2 {
					continue
				}
				if e.HasX && b.Box.X1 <= e.X+2 {
					continue // an earlier column than the destination's
				}
				best = outlineMatch{page: e.Page, block: bi, first: -1}
				break
			}
			if best.page >= 0 {
				found = append(found, placed{e, best, true})
				// The block may hold the next entry's heading: an
				// "Appendices" entry with no heading of its own, right
				// above "Appendix A: …".
				lastPage, lastBlock, lastLine = best.page, best.block-1, -1
			}
			continue
		}
		if best.page < 0 {
			continue
		}
		found = append(found, placed{e, best, false})
		lastPage, lastBlock, lastLine = best.page, best.block, -1
		if best.extra == 0 && !best.runIn {
			lastLine = best.last
		}
	}
	if len(found) < 2 || len(found)*2 < len(outline) {
		return false
	}
	// Cut the blocks at the headings, last first so that indexes stay
	// valid, and mark them.
	minLevel := math.MaxInt
	for _, f := range found {
		minLevel = min(minLevel, f.e.Level)
	}
	opened := map[*Block]bool{}
	outlineTitles := map[*Block]string{}
	for i := len(found) - 1; i >= 0; i-- {
		f := found[i]
		p := pages[f.m.page-1]
		b := p.Blocks[f.m.block]
		level := f.e.Level - minLevel + 1
		if f.byPos {
			if b.Section == nil {
				b.Section = &Section{Title: strings.Join(strings.Fields(f.e.Title), " "), Level: level, FromOutline: true}
				opened[b] = true
				outlineTitles[b] = f.e.Title
			}
			continue
		}
		if f.m.extra > 0 {
			// Join the blocks the heading runs into.
			lines := append([]*Line(nil), b.Lines...)
			for _, o := range p.Blocks[f.m.block+1 : f.m.block+1+f.m.extra] {
				lines = append(lines, o.Lines...)
			}
			f.m.last += len(lines) - len(p.Blocks[f.m.block+f.m.extra].Lines)
			nb := newBlock(b.Kind, lines)
			nb.Rotated = b.Rotated
			p.Blocks = append(p.Blocks[:f.m.block], append([]*Block{nb}, p.Blocks[f.m.block+1+f.m.extra:]...)...)
			b = nb
		}
		parts := []*Block{}
		if f.m.first > 0 {
			parts = append(parts, newBlock(Paragraph, b.Lines[:f.m.first]))
		}
		var head *Block
		if f.m.runIn && f.m.head != nil {
			// A run-in heading: the heading on its own, the paragraph's
			// text after it.
			head = newBlock(Heading, append(append([]*Line(nil), b.Lines[f.m.first:f.m.last]...), f.m.head))
			parts = append(parts, head, newBlock(Paragraph, append([]*Line{f.m.rest}, b.Lines[f.m.last+1:]...)))
		} else if f.m.runIn || f.m.last == len(b.Lines)-1 {
			head = newBlock(b.Kind, b.Lines[f.m.first:])
			if f.m.last == len(b.Lines)-1 && !f.m.runIn {
				head.Kind = Heading
			} else if head.Kind == Heading {
				head.Kind = Paragraph
			}
			parts = append(parts, head)
		} else {
			head = newBlock(Heading, b.Lines[f.m.first:f.m.last+1])
			parts = append(parts, head, newBlock(Paragraph, b.Lines[f.m.last+1:]))
		}
		title := strings.Join(strings.Fields(head.Text()), " ")
		if head.Kind != Heading {
			title = strings.Join(strings.Fields(f.e.Title), " ")
		}
		head.Section = &Section{Title: title, Level: level, FromOutline: true}
		head.Rotated = b.Rotated
		opened[head] = true
		outlineTitles[head] = f.e.Title
		p.Blocks = append(p.Blocks[:f.m.block], append(parts, p.Blocks[f.m.block+1:]...)...)
	}
	// The outline's sections with outline sections below them.
	deeper := map[*Block]bool{}
	var stack []*Block
	for _, p := range pages {
		for _, b := range p.Blocks {
			if !opened[b] {
				continue
			}
			for len(stack) > 0 && stack[len(stack)-1].Section.Level >= b.Section.Level {
				stack = stack[:len(stack)-1]
			}
			for _, a := range stack {
				deeper[a] = true
			}
			stack = append(stack, b)
		}
	}
	// Headings the outline does not name.
	first := true
	demoted := map[*Block]bool{}
	var parent *Block // the latest section the outline opened
	for _, p := range pages {
		for _, b := range p.Blocks {
			if opened[b] {
				first, parent = false, b
				continue
			}
			if b.Kind != Heading {
				continue
			}
			text := strings.Join(strings.Fields(b.Text()), " ")
			switch {
			case backMatter(text):
				b.Section = &Section{Title: text, Level: 1}
			case first && namedHeadings[bareHeading(text)]:
				b.Section = &Section{Title: text, Level: 1}
			case parent != nil && !deeper[parent] && !strings.HasSuffix(text, ".") && subsectionLevel(text, parent, outlineTitles[parent]) > 0:
				// The outline stops above this depth: a numbered
				// subsection of its section ("A.1" in "Appendix A") is
				// one, as the outline would have said had it gone deeper.
				// A title ending in a period is a run-in heading's that a
				// line end cut from its paragraph; its siblings run into
				// theirs, so none opens a section.
				b.Section = &Section{Title: text, Level: subsectionLevel(text, parent, outlineTitles[parent])}
			default:
				b.Kind = Paragraph
				demoted[b] = true
			}
		}
	}
	for _, p := range pages {
		labelsIntoText(p, demoted)
	}
	return true
}

// betterMatch reports whether outline match m beats best (page -1: none
// yet) for an entry: the title's own words beat a resemblance wherever
// they lie ("Section title …" is not "Subsection title …", one edit per
// tenth of the letters apart); then a heading at or after the destination
// in reading order beats one before it, the first of those in reading
// order winning (a title repeated further on names a later section); among
// headings before it the nearest wins.
func betterMatch(m, best outlineMatch) bool {
	switch {
	case best.page < 0:
		return true
	case m.fuzzy != best.fuzzy:
		return !m.fuzzy
	case m.after != best.after:
		return m.after
	case m.after:
		return false // best comes first in reading order
	}
	return m.dist < best.dist
}

// afterDestination reports whether line l, on the page of outline entry
// e's destination (page width w, points), starts at or after the
// destination in reading order: not in an earlier column (ending left of
// the destination's x), and in a later column (starting a quarter of the
// page or more right of it) or with its top no higher than a line above
// the destination's. A destination set at the foot of a column for a
// heading that went on to the next column's top is thus before it.
func afterDestination(l *Line, e pdf.OutlineEntry, w float64) bool {
	if e.HasX {
		if l.Box.X1 <= e.X+2 {
			return false
		}
		if l.Box.X0 >= e.X+0.25*w {
			return true
		}
	}
	return l.Box.Y1 <= e.Y+2+l.Size
}

var (
	// headNumberNamed and headNumberPlain find a heading's number:
	// "Appendix A. …" → "A", "Chapter 3 …" → "3"; "2.1 …", "A.1. …" →
	// "2.1", "A.1".
	headNumberNamed = regexp.MustCompile(`^(?i:appendix|chapter|part)\s+([A-Z]|\d{1,2})\b`)
	headNumberPlain = regexp.MustCompile(`^((?:\d{1,2}|[A-Z])(?:\.\d{1,2})*)\.?\s+\S`)
)

func headNumber(text string) string {
	flat := strings.Join(strings.Fields(text), " ")
	if m := headNumberNamed.FindStringSubmatch(flat); m != nil {
		return m[1]
	}
	if m := headNumberPlain.FindStringSubmatch(flat); m != nil {
		return m[1]
	}
	return ""
}

// subsectionLevel returns the level of heading text as a subsection of
// the outline's section opened by parent (whose outline entry is titled
// title): its number extends the section's ("2.1" or "2.1.3" under
// "2 History", "A.1" under "Appendix A. Installation"), one level per
// added part. 0 when it does not.
func subsectionLevel(text string, parent *Block, title string) int {
	n := headNumber(text)
	p := headNumber(parent.Text())
	if p == "" {
		p = headNumber(title)
	}
	if n == "" || p == "" || !strings.HasPrefix(n, p+".") {
		return 0
	}
	return parent.Section.Level + strings.Count(n, ".") - strings.Count(p, ".")
}

// labelsIntoText joins each label of a page (a one-line block of at most
// four words in capitals or ending with a colon, set as a heading that
// opens no section, such as "KEYWORDS" or "CCS CONCEPTS" where the
// outline does not name them) to the
// paragraph right below it — the next block in reading order, starting
// within two lines of the label in the same column at its left edge — as
// one paragraph that opens with the label: the label belongs to that text
// and is no paragraph of its own.
func labelsIntoText(p *Page, labels map[*Block]bool) {
	var out []*Block
	for i := 0; i < len(p.Blocks); i++ {
		b := p.Blocks[i]
		t := strings.TrimSpace(b.Text())
		label := isUpper(t) || strings.HasSuffix(t, ":")
		if labels[b] && label && len(b.Lines) == 1 && len(strings.Fields(t)) <= 4 && i+1 < len(p.Blocks) {
			n := p.Blocks[i+1]
			s := b.Size()
			if n.Kind == Paragraph && !n.Rotated && n.Section == nil &&
				n.Box.Y1 <= b.Box.Y0+0.5*s && b.Box.Y0-n.Box.Y1 <= 2*s &&
				math.Abs(n.Box.X0-b.Box.X0) <= s {
				m := newBlock(Paragraph, append(append([]*Line(nil), b.Lines...), n.Lines...))
				out = append(out, m)
				i++
				continue
			}
		}
		out = append(out, b)
	}
	p.Blocks = out
}

// matchTitle reports whether the heading with title key starts at line li
// of block bi of p: the keys of the lines from there (at most four, on into
// the next blocks when each starts right below the one before, as the lines
// of a heading broken over several blocks do) joined start with key. The
// heading may end inside a line (a run-in heading) only when the line goes
// on with body text.
func matchTitle(p *Page, bi, li int, key string) (outlineMatch, bool) {
	acc := ""
	b, k, extra := p.Blocks[bi], li, 0
	// fallback is a resemblance found on lines that carry only the start
	// of the title, kept while the next lines may carry the rest ("… -
	// subsection" resembles "… - subsection head", whose last word the
	// next line holds); fallbackDist is its edit distance to the title.
	var fallback *outlineMatch
	fallbackDist := 0
	for n := 0; n < 4; n++ {
		if k == len(b.Lines) {
			// Continue into the next block if it sits right below.
			if bi+extra+1 >= len(p.Blocks) {
				break
			}
			nb := p.Blocks[bi+extra+1]
			last := b.Lines[len(b.Lines)-1]
			if nb.Kind.Furniture() || nb.Rotated || nb.Lines[0].Base > last.Base || last.Base-nb.Lines[0].Base > 2.5*math.Max(last.Size, nb.Lines[0].Size) {
				break
			}
			extra++
			b, k = nb, 0
		}
		acc += titleKey(b.Lines[k].Text)
		switch {
		case acc == key:
			return outlineMatch{first: li, last: k, extra: extra}, true
		case similar(acc, key) && strings.HasPrefix(key, acc):
			// More of the title's start: closer than the lines before.
			fallback = &outlineMatch{first: li, last: k, extra: extra, fuzzy: true}
			fallbackDist = len([]rune(key)) - len([]rune(acc))
		case similar(acc, key):
			// The lines resemble the whole title; the start kept before
			// wins only when it is closer (the next line is body text
			// rather than the title's end set differently: "β-sampler"
			// for a bookmark's "-sampler").
			if fallback != nil && fallbackDist < editdist.Levenshtein([]rune(acc), []rune(key)) {
				return *fallback, true
			}
			return outlineMatch{first: li, last: k, extra: extra, fuzzy: true}, true
		case strings.HasPrefix(acc, key) && len(key) >= 4:
			// The title ends inside line k: a run-in heading.
			return outlineMatch{first: li, last: k, extra: extra, runIn: true}, true
		case !strings.HasPrefix(key, acc) && !(len(acc) >= 8 && similar(acc, key[:min(len(key), len(acc))])):
			if fallback != nil {
				return *fallback, true
			}
			return outlineMatch{}, false
		}
		k++
	}
	if fallback != nil {
		return *fallback, true
	}
	return outlineMatch{}, false
}

func newBlock(k Kind, lines []*Line) *Block {
	b := &Block{Kind: k, Lines: lines}
	for _, l := range lines {
		b.Box = b.Box.Union(l.Box)
	}
	return b
}

// backMatter reports whether a heading names a part of the back matter
// that outlines often leave out: references, acknowledgements, appendix.
func backMatter(text string) bool {
	t := bareHeading(text)
	for _, p := range []string{"references", "bibliography", "acknowledg", "appendi", "literature cited", "works cited"} {
		if strings.HasPrefix(t, p) && len(t) < len(p)+12 {
			return true
		}
	}
	return false
}

// bareHeading is a heading's text in lower case without its number and
// trailing colon or period.
func bareHeading(text string) string {
	t := leadingSectionNumber.ReplaceAllString(strings.TrimSpace(text), "")
	return strings.ToLower(strings.TrimRight(strings.TrimSpace(t), ".:"))
}

// ---------------------------------------------------------------- typography

var sectionNumber = regexp.MustCompile(`^(\d{1,2}(\.\d{1,2})*|[A-Z](\.\d{1,2})+|[IVX]{1,5}(\.[IVX]{1,5})*)\.?\s+\S`)

// typographicSections decides sections where the outline does not: the
// headings classify found, minus text that recurs on several pages
// (running heads that escaped the furniture pass), each with a level from
// its numbering ("3.2" → 2) or, unnumbered, from its style: the level of
// numbered headings of the same size and weight, else 1 when it is at
// least as large as every numbered heading, else one below the deepest.
func typographicSections(pages []*Page, st Stats) {
	for i, p := range pages {
		var title *Block
		if i == 0 {
			title = documentTitle(p)
		}
		spacedSubheads(p, st)
		splitNumberedStacks(p)
		headingsNeedText(p, st.BodySize, title)
		headingStacks(p)
	}
	numberedRunIns(pages)
	count := map[string]int{}
	for _, p := range pages {
		seen := map[string]bool{}
		for _, b := range p.Blocks {
			if b.Kind == Heading {
				k := furnitureKey(b.Text())
				if !seen[k] {
					count[k]++
					seen[k] = true
				}
			}
		}
	}
	type style struct {
		size int
		bold bool
	}
	styleOf := func(b *Block) style { return style{int(math.Round(b.Size() * 2)), b.Lines[0].Bold} }
	levels := map[style]int{}
	maxNumbered, deepest := 0, 1
	var heads []*Block
	for _, p := range pages {
		for _, b := range p.Blocks {
			if b.Kind != Heading {
				continue
			}
			if count[furnitureKey(b.Text())] >= 3 && len(pages) >= 3 {
				b.Kind = Paragraph
				continue
			}
			heads = append(heads, b)
			text := strings.Join(strings.Fields(b.Text()), " ")
			if m := sectionNumber.FindStringSubmatch(text); m != nil {
				num := strings.Fields(text)[0]
				depth := strings.Count(strings.TrimSuffix(num, "."), ".") + 1
				s := styleOf(b)
				if l, ok := levels[s]; !ok || depth < l {
					levels[s] = depth
				}
				maxNumbered = max(maxNumbered, s.size)
				deepest = max(deepest, depth)
			}
		}
	}
	// Without numbered headings, the styles that two or more headings
	// share rank by prominence (larger first, then bold before regular):
	// the first is level 1, the next level 2 ("Materials and methods" in
	// bold, "DNA manipulations" in roman under it). A style used once (a
	// title, an author line) is placed below the shared styles more
	// prominent than it.
	var shared []style
	if maxNumbered == 0 {
		uses := map[style]int{}
		for _, b := range heads {
			uses[styleOf(b)]++
		}
		for s, n := range uses {
			if n >= 2 {
				shared = append(shared, s)
			}
		}
	}
	above := func(a, b style) bool { return a.size > b.size || a.size == b.size && a.bold && !b.bold }
	for _, b := range heads {
		text := strings.Join(strings.Fields(b.Text()), " ")
		level := 0
		if len(shared) > 1 && !sectionNumber.MatchString(text) && !namedHeadings[bareHeading(text)] && !backMatter(text) {
			level = 1
			for _, s := range shared {
				if above(s, styleOf(b)) {
					level++
				}
			}
			b.Section = &Section{Title: text, Level: level}
			continue
		}
		if sectionNumber.MatchString(text) {
			num := strings.Fields(text)[0]
			level = strings.Count(strings.TrimSuffix(num, "."), ".") + 1
		} else if l, ok := levels[styleOf(b)]; ok {
			level = l
		} else if styleOf(b).size >= maxNumbered || namedHeadings[bareHeading(text)] || backMatter(text) {
			level = 1
		} else {
			level = deepest + 1
		}
		b.Section = &Section{Title: text, Level: level}
	}
}

// headingsNeedText turns back into paragraphs the headings that no text
// follows. A heading is supported by a block on its page that is not
// furniture and
//
//   - starts below it, within three of its lines, and not to the right of
//     its end by more than four (the section's text, an indented epigraph,
//     or a subheading that is itself supported, which may start left of
//     a centred heading), or
//   - is a block of running text (its first line prose) that starts beside
//     it, to its right, its top within three lines of the heading's top (a
//     side head in the margin).
//
// Bold labels of a sidebar, a table's header row and the words of a cover
// page are set like headings but open no section. A heading at the foot of
// its page (not in display type) is left alone (its text may start the
// next page), and so is the
// document's title (documentTitle), which authors, not text, may follow.
func headingsNeedText(p *Page, body float64, title *Block) {
	var blocks []*Block
	for _, b := range p.Blocks {
		if !b.Kind.Furniture() && !b.Rotated {
			blocks = append(blocks, b)
		}
	}
	supported := map[*Block]bool{}
	supports := func(h, b *Block) bool {
		// A heading below supports one above it when it is supported and
		// not larger (a subsection under its section); a small label above
		// a larger title is not a heading.
		if b == h || b.Kind == Heading && (!supported[b] || b.Size() > 1.1*h.Size()) {
			return false
		}
		// A line of the heading, but display type no more than one and a
		// half body lines: a logo in huge letters is not followed at a
		// distance by its text.
		s := math.Min(h.Size(), 1.5*body)
		// A subheading set flush left under a centred heading (APA's
		// levels 1 and 2) lies below it though left of its start.
		under := b.Box.X1 >= h.Box.X0 || b.Kind == Heading && b.Box.X0 <= h.Box.X0
		below := b.Box.Y1 <= h.Box.Y0+0.5*s && h.Box.Y0-b.Box.Y1 <= 3*s && b.Box.X0 <= h.Box.X1+4*s && under
		beside := b.Kind != Heading && b.Box.X0 >= h.Box.X1-s && math.Abs(b.Box.Y1-h.Box.Y1) <= 3*s && prose(b.Lines[0])
		return below || beside
	}
	for changed := true; changed; {
		changed = false
		for _, h := range blocks {
			if h.Kind != Heading || supported[h] {
				continue
			}
			if h == title {
				supported[h] = true
				changed = true
				continue
			}
			last := true // nothing below it on the page
			for _, b := range blocks {
				if b.Box.Y1 < h.Box.Y0 {
					last = false
				}
				if supports(h, b) {
					supported[h] = true
					changed = true
					break
				}
			}
			if last && !supported[h] && h.Size() <= 1.5*body {
				supported[h] = true
				changed = true
			}
		}
	}
	for _, h := range blocks {
		if h.Kind == Heading && !supported[h] {
			h.Kind = Paragraph
		}
	}
}

// spacedSubheads makes headings of the subheads that only space sets
// apart: a one-line paragraph in the body font (up to 30 % larger) and
// weight, of one to ten words, that starts with a capital and ends
// without punctuation, is mostly letters and no mathematics, with visibly
// more space above it than between the lines of the text below (or the
// top of its column above it) and more below it too, followed right below
// by a paragraph of running text of two lines or more that starts at its
// left edge or indented from it ("Cosmid and plasmids" in a journal that
// sets its third-level heads in roman). A paragraph's last line stays with
// its paragraph, so such a line is one on its own.
// sentenceThenMark matches a text that ends a sentence before a footnote
// mark ("… of names and sorts.13").
var sentenceThenMark = regexp.MustCompile(`[.,;:!?][0-9*†‡]+$`)

func spacedSubheads(p *Page, st Stats) {
	var body []*Block
	for _, b := range p.Blocks {
		if !b.Kind.Furniture() && !b.Rotated {
			body = append(body, b)
		}
	}
	for i, b := range body {
		if b.Kind != Paragraph || len(b.Lines) != 1 || b.Float != nil || i+1 >= len(body) {
			continue
		}
		l := b.Lines[0]
		s := l.Size
		text := strings.TrimSpace(l.Text)
		words := strings.Fields(text)
		if len(words) == 0 || len(words) > 10 || l.Math > 0 || l.Mono || s < 0.95*st.BodySize || s > 1.3*st.BodySize {
			continue
		}
		first, last := []rune(text)[0], []rune(text)[len([]rune(text))-1]
		if !unicode.IsUpper(first) || strings.ContainsRune(".,;:!-–", last) || strings.Contains(text, ". ") || sentenceThenMark.MatchString(text) {
			continue
		}
		letters, ink := 0, 0
		for _, r := range text {
			if !unicode.IsSpace(r) {
				ink++
				if unicode.IsLetter(r) {
					letters++
				}
			}
		}
		if letters*10 < ink*6 {
			continue
		}
		n := body[i+1]
		if n.Kind != Paragraph && n.Kind != ListItem || len(n.Lines) < 2 || !prose(n.Lines[0]) {
			continue
		}
		pitch := n.Lines[0].Base - n.Lines[1].Base
		below := l.Base - n.Lines[0].Base
		if n.Box.Y1 > b.Box.Y0+0.5*s || below < pitch+0.5*s || below > 4*s || n.Box.X0 < b.Box.X0-s || n.Box.X0 > b.Box.X0+3*s {
			continue
		}
		if i > 0 {
			pr := body[i-1]
			above := pr.Box.Y0 >= b.Box.Y1-0.5*s && pr.Box.X0 < b.Box.X1 && pr.Box.X1 > b.Box.X0
			if above && pr.Lines[len(pr.Lines)-1].Base-l.Base < pitch+0.8*s {
				continue
			}
		}
		b.Kind = Heading
	}
}

// splitNumberedStacks cuts a heading block before each line whose number
// extends the number its first line opens with ("A.1 Part One" under "A
// RESEARCH METHODS", "2.1 Data" under "2 Methods"): a section's heading and
// its first subsection's, set one right under the other, are two headings,
// not one title broken over two lines.
func splitNumberedStacks(p *Page) {
	for i := 0; i < len(p.Blocks); i++ {
		b := p.Blocks[i]
		if b.Kind != Heading || len(b.Lines) < 2 {
			continue
		}
		n0 := headNumber(b.Lines[0].Text)
		if n0 == "" {
			continue
		}
		for k := 1; k < len(b.Lines); k++ {
			if n := headNumber(b.Lines[k].Text); strings.HasPrefix(n, n0+".") {
				top, rest := newBlock(Heading, b.Lines[:k]), newBlock(Heading, b.Lines[k:])
				top.Rotated, rest.Rotated = b.Rotated, b.Rotated
				p.Blocks = append(p.Blocks[:i], append([]*Block{top, rest}, p.Blocks[i+1:]...)...)
				break
			}
		}
	}
}

// headingStacks turns back into paragraphs the runs of three or more
// headings in a row, in reading order, set in one style (size within 5 %,
// same weight), none of them numbered or named like a section, with no
// text between them: consecutive headings open nested sections and so
// differ in style; a stack of equal ones is a list of labels (a cover's
// highlights, a sidebar's menu).
func headingStacks(p *Page) {
	var run []*Block
	flush := func() {
		if len(run) >= 3 {
			for _, h := range run {
				h.Kind = Paragraph
			}
		}
		run = run[:0]
	}
	for _, b := range p.Blocks {
		if b.Kind.Furniture() || b.Rotated || b.Kind == FigureText || b.Kind == TableText {
			continue
		}
		if b.Kind != Heading || sectionLike(b.Text()) {
			flush()
			continue
		}
		if n := len(run); n > 0 {
			h := run[n-1]
			if math.Abs(h.Size()-b.Size()) > 0.05*math.Max(h.Size(), b.Size()) || h.Lines[0].Bold != b.Lines[0].Bold {
				flush()
			}
		}
		run = append(run, b)
	}
	flush()
}

// documentTitle returns the first page's title: its heading in the largest
// size, when that heading is in the top half of the page; nil otherwise.
func documentTitle(p *Page) *Block {
	var best *Block
	for _, b := range p.Blocks {
		if b.Kind == Heading && !b.Rotated && b.Box.Y0 > p.Height/2 && (best == nil || b.Size() > best.Size()) {
			best = b
		}
	}
	return best
}

// ---------------------------------------------------------------- front matter

// frontMatter joins into one paragraph the short blocks of the first page
// that follow a title-like block (set at least 1.2 times the body size,
// at most four lines, in the top 60 % of the page, not a heading that
// names a section such as "1 Introduction"): the names,
// affiliations, addresses and e-mail addresses of the authors, or a
// journal banner's issue line, which a title page sets as a scatter of
// short lines. A run ends at a heading that names a section (Abstract,
// 1 Introduction) or one the outline places, at a float or caption, at
// another title-like block, at a block of running text (three lines or
// more, most of them prose, more than six lines, or a prose line in
// sentences: see runningSentence) and where more than
// six body lines of white space separate a block from the run (an author
// note at the foot of a title page is no part of the author block).
// Nothing is joined unless a run has at least two blocks.
//
// A title set at the body size counts too when it is the page's first
// heading (or first paragraph set bold or larger), centred on the page's
// text in the top half of the page (AASTeX and APA set the title bold at the body size). A title-like block set smaller than the
// title right under it, whose words are names (no word in lower case but
// "and" and name particles such as "van" or "de"), is the authors' line,
// set large (MNRAS, OUP): it opens the run rather than a new one.
func frontMatter(p *Page, st Stats) {
	// The page's first heading, or first paragraph set as one (bold or
	// larger: applyOutline makes a heading the outline does not name a
	// paragraph).
	var firstHeading *Block
	for _, b := range p.Blocks {
		if b.Rotated || b.Kind != Heading && b.Kind != Paragraph {
			continue
		}
		headingLike := b.Kind == Heading
		if b.Kind == Paragraph && len(b.Lines) <= 3 {
			headingLike = true
			for _, l := range b.Lines {
				headingLike = headingLike && lineIsHeadingLike(l, st)
			}
		}
		if headingLike {
			firstHeading = b
			break
		}
	}
	// The horizontal extent of the page's text.
	left, right := math.Inf(1), math.Inf(-1)
	for _, b := range p.Blocks {
		if !b.Kind.Furniture() && !b.Rotated {
			left, right = math.Min(left, b.Box.X0), math.Max(right, b.Box.X1)
		}
	}
	titleLike := func(b *Block) bool {
		if b.Kind.Furniture() || b.Rotated || len(b.Lines) > 4 || b.Box.Y0 <= 0.4*p.Height ||
			b.Kind == Heading && sectionLike(b.Text()) { // "1 Introduction" opens the body, not a title page
			return false
		}
		if b.Size() >= 1.2*st.BodySize {
			return true
		}
		centre := (b.Box.X0 + b.Box.X1) / 2
		return b == firstHeading && b.Box.Y0 > 0.5*p.Height && math.Abs(centre-(left+right)/2) <= 0.03*(right-left)
	}
	candidate := func(b *Block) bool {
		proseLines := 0
		for _, l := range b.Lines {
			if prose(l) {
				proseLines++
			}
		}
		return !(b.Kind == Heading && (b.Section != nil && b.Section.FromOutline || sectionLike(b.Text())) ||
			b.Kind != Paragraph && b.Kind != Heading && b.Kind != Equation && b.Kind != Code ||
			captionText(b.Text()) ||
			len(b.Lines) >= 3 && proseLines*2 > len(b.Lines) || len(b.Lines) > 6 ||
			proseLines >= 1 && runningSentence(b.Text()))
	}
	var runs [][]int
	var run []int
	used := map[int]bool{}
	var title *Block
	// flush ends a run at stop (nil at the end of the page): the blocks of
	// other columns in the same band, between the title and the stop,
	// join it (an author grid set across the columns).
	flush := func(stop *Block) {
		if title != nil && stop != nil && len(run) > 0 {
			for i, b := range p.Blocks {
				if used[i] || slices.Contains(run, i) || b == title || b.Kind.Furniture() || b.Rotated || titleLike(b) {
					continue
				}
				if b.Box.Y0 >= stop.Box.Y1-1 && b.Box.Y1 <= title.Box.Y0+1 && candidate(b) && b.Box.Y0 > 0.4*p.Height {
					run = append(run, i)
				}
			}
			slices.Sort(run)
		}
		if len(run) >= 2 {
			runs = append(runs, run)
			for _, i := range run {
				used[i] = true
			}
		}
		run = nil
	}
	for i, b := range p.Blocks {
		if b.Kind.Furniture() || b.Rotated || used[i] {
			continue
		}
		if titleLike(b) {
			if title != nil && len(run) == 0 && b.Size() < 0.9*title.Size() && b.Box.Y1 <= title.Box.Y0+1 && nameLine(b.Text()) {
				run = append(run, i) // the authors' line, set large under the title
				continue
			}
			flush(b)
			title = b
			continue
		}
		if title == nil {
			continue
		}
		if len(run) > 0 && p.Blocks[run[len(run)-1]].Box.Y0-b.Box.Y1 > 6*st.BodySize || !candidate(b) {
			flush(b)
			title = nil
			continue
		}
		run = append(run, i)
	}
	flush(nil)
	if len(runs) == 0 {
		return
	}
	first := map[int]*Block{}
	drop := map[int]bool{}
	for _, r := range runs {
		var lines []*Line
		for _, i := range r {
			lines = append(lines, p.Blocks[i].Lines...)
			drop[i] = true
		}
		first[r[0]] = newBlock(Paragraph, lines)
	}
	var out []*Block
	for i, b := range p.Blocks {
		if j, ok := first[i]; ok {
			out = append(out, j)
			continue
		}
		if !drop[i] {
			out = append(out, b)
		}
	}
	p.Blocks = out
}

// runningSentence reports whether a text reads as sentences of running
// text rather than names, affiliations and addresses (which capitalise
// most of their words): eight words or more, at least 40 % of them in
// lower case, ending with a full stop.
func runningSentence(text string) bool {
	words, lower := 0, 0
	for _, w := range strings.Fields(text) {
		r := []rune(w)[0]
		if !unicode.IsLetter(r) {
			continue
		}
		words++
		if unicode.IsLower(r) {
			lower++
		}
	}
	t := strings.TrimRight(text, " \"'”’)]")
	return words >= 8 && lower*10 >= words*4 && strings.HasSuffix(t, ".")
}

// nameParticles are the lower-case words a line of personal names holds:
// the conjunction and the particles of family names.
var nameParticles = map[string]bool{
	"and": true, "&": true, "van": true, "von": true, "der": true, "den": true, "de": true, "du": true,
	"da": true, "del": true, "della": true, "di": true, "dos": true, "la": true, "le": true, "y": true, "zu": true, "ter": true,
}

// nameLine reports whether a text reads as a line of personal names: it
// has a word, and every word that starts with a letter starts in upper
// case or is a name particle ("Ada Lovelace and Charles Babbage").
func nameLine(text string) bool {
	words := 0
	for _, w := range strings.Fields(text) {
		r := []rune(w)[0]
		if !unicode.IsLetter(r) {
			continue
		}
		words++
		if unicode.IsLower(r) && !nameParticles[strings.TrimRight(w, ",;")] {
			return false
		}
	}
	return words > 0
}

// sectionLike reports whether a heading's text names a section: numbered
// ("1 Introduction", "II. Methods") or a named part (Abstract, Keywords,
// References).
func sectionLike(text string) bool {
	flat := strings.Join(strings.Fields(text), " ")
	return numberedHeading.MatchString(flat) || namedHeadings[bareHeading(flat)] || backMatter(flat) ||
		strings.HasPrefix(strings.ToLower(flat), "abstract") || strings.HasPrefix(strings.ToLower(flat), "keywords")
}

// ---------------------------------------------------------------- kinds

var (
	bulletStart = regexp.MustCompile(`^([•◦▪▫■□●○‣⁃∙·\-–—*►▶✓✔]|\(?[0-9]{1,2}[.)]|\(?[a-z][.)]|\(?[ivx]{1,4}[.)]|\([0-9a-z]{1,3}\))\s+\S`)
	refStart    = regexp.MustCompile(`^(\[[0-9A-Za-z+.\- ]{1,12}\]|[0-9]{1,3}[.)]|\([0-9]{1,3}\))\s*\S`)
)

// kinds types bibliography entries, footnotes and list items:
//
//   - in a section whose title names the references or bibliography, every
//     paragraph is a Reference, and a paragraph is cut before each line
//     that starts an entry ("[12]", "12.") or, in hanging-indent lists,
//     before each line set out to the left of the lines around it;
//   - a paragraph at the foot of its column, set smaller than the body
//     text, below all other body text of that column, whose first line
//     starts with a footnote mark (digits, *, †, ‡, §, ¶), is a Footnote;
//   - a paragraph is cut before each line that starts with a bullet or an
//     enumerator ("•", "1.", "(a)", "iv)") when at least two lines of it
//     do, and the pieces that start so are ListItems.
func kinds(pages []*Page, st Stats) {
	inRefs := false
	for _, p := range pages {
		var out []*Block
		for _, b := range p.Blocks {
			if b.Section != nil {
				inRefs = IsBibliographyTitle(b.Section.Title)
			}
			if inRefs && b.Kind == Code && b.Float == nil && b.Section == nil {
				// Entries whose URLs are set in typewriter type look
				// monospaced; a bibliography holds no code listings.
				b.Kind = Paragraph
			}
			if b.Kind != Paragraph || b.Section != nil {
				out = append(out, b)
				continue
			}
			if inRefs {
				if n := len(out); n > 0 && refFootnote(p, out, b, st) {
					if out[n-1].Kind == Footnote && !footnoteMark.MatchString(b.Lines[0].Text) {
						out[n-1] = newBlock(Footnote, append(append([]*Line(nil), out[n-1].Lines...), b.Lines...))
					} else {
						b.Kind = Footnote
						out = append(out, b)
					}
					continue
				}
				if n := len(out); n > 0 && out[n-1].Kind == Reference && continuesEntry(out[n-1], b) {
					// The rest of the entry before, cut off as if it were
					// a paragraph of its own: rejoin, then cut at entries.
					prev := out[n-1]
					out = out[:n-1]
					b = newBlock(Paragraph, append(append([]*Line(nil), prev.Lines...), b.Lines...))
				}
				for _, e := range splitEntries(b) {
					e.Kind = Reference
					e.Continues = false
					out = append(out, e)
				}
				continue
			}
			if isFootnote(p, b, st) {
				b.Kind = Footnote
				out = append(out, b)
				continue
			}
			out = append(out, splitList(b)...)
		}
		p.Blocks = out
		listRuns(p)
	}
}

// listRuns types as list items the paragraphs of a page that start with a
// bullet or an enumerator when the paragraph before or after them (in
// reading order, furniture aside) starts with a marker of the same kind at
// the same indentation: a list whose items are set apart as paragraphs.
func listRuns(p *Page) {
	var body []*Block
	for _, b := range p.Blocks {
		if !b.Kind.Furniture() {
			body = append(body, b)
		}
	}
	marker := func(b *Block) string {
		if b.Kind != Paragraph && b.Kind != ListItem || len(b.Lines) == 0 {
			return ""
		}
		m := bulletStart.FindString(b.Lines[0].Text)
		if m == "" {
			return ""
		}
		return markerKind(strings.TrimSpace(m))
	}
	for i, b := range body {
		k := marker(b)
		if k == "" || b.Kind != Paragraph {
			continue
		}
		for _, j := range []int{i - 1, i + 1} {
			if j < 0 || j >= len(body) || marker(body[j]) != k {
				continue
			}
			if math.Abs(body[j].Box.X0-b.Box.X0) < b.Size() {
				b.Kind = ListItem
				break
			}
		}
	}
}

// markerKind names the kind of a list marker: the bullet itself, or
// "digit", "letter", "roman" with its punctuation ("a." and "b." agree,
// "a." and "1." do not).
func markerKind(m string) string {
	m = strings.TrimRight(m, " \t")
	if m == "" {
		return ""
	}
	// Drop the first character of the item's text that bulletStart
	// includes.
	rs := []rune(m)
	rs = rs[:len(rs)-1]
	m = strings.TrimSpace(string(rs))
	var b strings.Builder
	for _, r := range m {
		switch {
		case r >= '0' && r <= '9':
			if !strings.HasSuffix(b.String(), "9") {
				b.WriteRune('9')
			}
		case r >= 'a' && r <= 'z':
			if !strings.HasSuffix(b.String(), "a") {
				b.WriteRune('a')
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// splitEntries cuts a bibliography paragraph into entries: before each
// line that starts with the list's label form, unless its number is out of
// sequence (outOfSequence), or, in a list set with a hanging indent,
// before each line set out to the left.
func splitEntries(b *Block) []*Block {
	if len(b.Lines) < 2 {
		return []*Block{b}
	}
	// The list's label form is the one most lines start with; a line
	// starting with a label of another form ("379. [astro-ph/…]" in a
	// "[12]" list) is the rest of an entry.
	forms := map[string]int{}
	style, marked := "", 0
	for _, l := range b.Lines {
		if f := entryLabel(l.Text); f != "" {
			forms[f]++
			if forms[f] > marked || forms[f] == marked && f < style {
				style, marked = f, forms[f]
			}
		}
	}
	var lefts []float64
	for _, l := range b.Lines {
		lefts = append(lefts, l.Box.X0)
	}
	s := b.Size()
	left := lefts[0]
	for _, x := range lefts {
		left = math.Min(left, x)
	}
	hanging := 0
	for _, x := range lefts {
		if x > left+0.6*s && x < left+4*s {
			hanging++
		}
	}
	var out []*Block
	var cur []*Line
	entry := "" // the text of the last line that started an entry
	for i, l := range b.Lines {
		start := false
		switch {
		case marked >= 2:
			start = entryLabel(l.Text) == style && !outOfSequence(entry, l.Text)
			if start {
				entry = l.Text
			}
		case hanging >= 1:
			start = l.Box.X0 < left+0.3*s && i > 0 && b.Lines[i-1].Box.X0 > left+0.6*s || i > 0 && l.Box.X0 < left+0.3*s && b.Lines[i-1].Box.X0 < left+0.3*s && endsSentence(b.Lines[i-1].Text)
		}
		if start && len(cur) > 0 {
			out = append(out, newBlock(b.Kind, cur))
			cur = nil
		}
		cur = append(cur, l)
	}
	out = append(out, newBlock(b.Kind, cur))
	if len(out) > 0 {
		out[0].Continues = b.Continues
	}
	return out
}

var footnoteMark = regexp.MustCompile(`^([0-9]{1,3}|[*†‡§¶∗⋆]+|[a-z])\s*\S`)

// isFootnote reports whether b is a footnote: smaller than the body text,
// in the bottom half of the page, with no larger body text below it in its
// column, starting with a footnote mark.
func isFootnote(p *Page, b *Block, st Stats) bool {
	if b.Size() > st.BodySize*0.92 || b.Box.Y1 > p.Height*0.5 || !footnoteMark.MatchString(b.Lines[0].Text) {
		return false
	}
	bullets := 0
	for _, l := range b.Lines {
		if l.Bullet {
			bullets++
		}
	}
	if bullets >= 2 {
		return false // a list whose bullet glyph reads as a letter
	}
	for _, o := range p.Blocks {
		if o == b || o.Kind.Furniture() || o.Rotated || o.Box.Y1 > b.Box.Y0 {
			continue
		}
		if o.Box.X1 < b.Box.X0 || o.Box.X0 > b.Box.X1 {
			continue
		}
		if o.Size() > st.BodySize*0.95 && o.Kind == Paragraph {
			return false
		}
	}
	return true
}

// splitList cuts a paragraph before each line that starts with a bullet or
// enumerator, when at least two of its lines do or its first line does and
// the paragraph is indented like a list.
func splitList(b *Block) []*Block {
	marked := 0
	for _, l := range b.Lines {
		if itemStart(l) {
			marked++
		}
	}
	if marked == 0 || marked == 1 && !itemStart(b.Lines[0]) {
		return []*Block{b}
	}
	if marked == 1 && !b.Lines[0].AfterGlyph && !strings.ContainsAny(string([]rune(b.Lines[0].Text)[0]), "•◦▪▫■□●○‣⁃∙·►▶✓✔") {
		// One enumerated line ("1. ...", "a) ...") alone is not a list.
		return []*Block{b}
	}
	var out []*Block
	var cur []*Line
	textX := math.Inf(-1) // where the current item's text starts, after its marker
	for _, l := range b.Lines {
		marker := itemStart(l)
		// A line set out to the left of the item's text after a sentence
		// ends leaves the item (the paragraph after a list).
		leaves := !marker && len(cur) > 0 && !math.IsInf(textX, -1) && l.Box.X0 < textX-0.5*l.Size && endsSentence(cur[len(cur)-1].Text)
		if (marker || leaves) && len(cur) > 0 {
			out = append(out, newBlock(Paragraph, cur))
			cur = nil
		}
		switch {
		case marker && l.AfterGlyph:
			textX = l.Box.X0
		case marker:
			textX = itemTextStart(l)
		case leaves:
			textX = math.Inf(-1)
		}
		cur = append(cur, l)
	}
	out = append(out, newBlock(Paragraph, cur))
	for i, o := range out {
		if itemStart(o.Lines[0]) {
			o.Kind = ListItem
		}
		if i == 0 {
			o.Continues = b.Continues
		}
	}
	return out
}

// itemStart reports whether a line starts a list item: with a bullet or
// an enumerator, or right after a glyph without a Unicode value (an
// unmapped bullet).
func itemStart(l *Line) bool {
	return bulletStart.MatchString(l.Text) || l.AfterGlyph || l.Bullet
}

// itemTextStart returns where a list item's text starts: the left edge of
// its first character after the marker and the space after it.
func itemTextStart(l *Line) float64 {
	space := false
	for _, c := range l.chars {
		if isSpace(c.Rune) {
			space = true
			continue
		}
		if space {
			return c.Box.X0
		}
	}
	return l.Box.X0
}

// ---------------------------------------------------------------- continuations

// continuations marks body blocks that continue the previous body block
// across a column or page break: the previous one (a paragraph, list item,
// footnote or reference, skipping furniture, captions and headings' absence)
// ends without sentence punctuation or with a hyphen, this one starts with
// a lower-case letter, the two are set in about the same font size (within
// 15 %; blocks of another size in between, such as a footnote, are
// skipped) and they are not on one column one below the other (that would
// be a paragraph break).
func continuations(pages []*Page) {
	// recent are the body blocks since the last heading, latest last, with
	// their pages: a block continues the latest of them in its font size
	// (a footnote or a copyright box set smaller at the foot of a column
	// lies between the two halves of a paragraph).
	type placed struct {
		b    *Block
		page int
	}
	var recent []placed
	for _, p := range pages {
		for _, b := range p.Blocks {
			if b.Kind.Furniture() || b.Rotated || b.Kind == Figure || b.Kind == Table {
				continue
			}
			if b.Kind == Heading {
				recent = recent[:0]
				continue
			}
			var prev *Block
			prevPage := 0
			for i := len(recent) - 1; i >= 0 && i >= len(recent)-3; i-- {
				o := recent[i].b
				if math.Abs(b.Size()-o.Size()) <= 0.15*math.Max(b.Size(), o.Size()) {
					prev, prevPage = o, recent[i].page
					break
				}
			}
			if prev != nil && prev.Kind == b.Kind {
				first := []rune(b.Lines[0].Text)[0]
				open := !endsSentence(prev.Lines[len(prev.Lines)-1].Text)
				newColumn := prevPage != p.Number || b.Box.Y1 > prev.Box.Y0+1 || b.Box.X0 > prev.Box.X1
				if newColumn && (open && unicode.IsLower(first) || b.Kind == Reference && (restOfEntry(prev, b, open || unicode.IsLower(first)) || atHangingIndent(p, b))) {
					b.Continues, b.Prev = true, prev
				}
			}
			recent = append(recent, placed{b, p.Number})
		}
	}
}
