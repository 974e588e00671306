package layout

import (
	"regexp"
	"strings"
	"unicode"
)

// Run-in headings.
//
// A run-in heading starts a paragraph and the paragraph's text goes on on
// the same line: "9.1. Multiple integral signs. \iint, \iiint, and …"
// (AMS, ASME, LaTeX's \paragraph). It is set off from the text by its
// closing punctuation (a period, a colon or a dash) or by a change of font
// (bold, italic or small capitals for the head, roman for the text). Such
// a heading becomes a heading chunk of its own, and the text after it on
// its line a paragraph chunk with the lines that follow: both are
// verbatim, each line of each chunk a contiguous stretch of the PDF's
// line, so quotations and word counts are the same as for the paragraph
// whole.

// runInDelims are the characters that close a run-in heading.
const runInDelims = ".:—–"

// splitRunIn cuts line l of page p after a run-in heading whose title —
// the part of it on this line, reduced by titleKey — is rem: the head runs
// from the line's start to the end of the first word whose key completes
// rem, with the punctuation that closes it ("Dots." of "9.3. Dots.
// Normally …"); the rest is the paragraph's text. It reports false, and
// cuts nothing, when the title does not end at a word boundary, nothing
// follows it on the line, or the head is not set off from the text by a
// closing period, colon or dash or by a change of font (a sentence that
// merely starts with the title's words is no heading). Lines of a rotated
// frame or set vertically are not cut.
func splitRunIn(p *Page, l *Line, rem string) (head, rest *Line, ok bool) {
	if rem == "" || l.quarter != 0 || l.Vertical {
		return nil, nil, false
	}
	cs := l.chars
	for j := 1; j < len(cs); j++ {
		if !endsAlnum(cs[j-1]) {
			continue
		}
		h := newLine(cs[:j], p.fonts)
		if h == nil || !strings.HasPrefix(titleKey(h.Text), rem) {
			continue
		}
		e := j
		for e < len(cs) && isMark(cs[e]) {
			e++ // combining accents drawn after their letter
		}
		if e < len(cs) && startsAlnum(cs[e]) {
			return nil, nil, false // the title ends inside a word
		}
		punct := ""
		for e < len(cs) && !isSpace(cs[e].Rune) && !startsAlnum(cs[e]) {
			punct += cs[e].text()
			e++
		}
		head, rest = newLine(cs[:e], p.fonts), newLine(cs[e:], p.fonts)
		if head == nil || rest == nil {
			return nil, nil, false
		}
		setOff := strings.ContainsAny(punct, runInDelims) ||
			head.Bold != rest.Bold || head.Italic != rest.Italic || head.SmallCaps != rest.SmallCaps
		if !setOff {
			return nil, nil, false
		}
		head.seq, rest.seq = l.seq, l.seq
		return head, rest, true
	}
	return nil, nil, false
}

func endsAlnum(c char) bool {
	r := []rune(c.text())
	return len(r) > 0 && alnum(r[len(r)-1])
}

func startsAlnum(c char) bool {
	r := []rune(c.text())
	return len(r) > 0 && alnum(r[0])
}

func isMark(c char) bool {
	t := c.text()
	if t == "" {
		return false
	}
	for _, r := range t {
		if !unicode.Is(unicode.Mn, r) {
			return false
		}
	}
	return true
}

// runInMatch checks a match m of the outline's title key that ends inside
// a line (m.runIn) of the lines from block bi of p on: the line is cut
// where the heading ends (splitRunIn) and m records the two parts. When
// fewer than three words follow the title on the line (a citation or a
// note mark after a heading: "Appendix A: Incomplete Zeta Function [27]"),
// the whole line is the heading and m is no longer run-in. It reports
// false when the title's words are not set off from the text after them:
// a sentence that starts with them is no heading.
func runInMatch(p *Page, bi int, m outlineMatch, key string) (outlineMatch, bool) {
	b, acc := p.Blocks[bi+m.extra], ""
	for k := bi; k < bi+m.extra; k++ {
		from := 0
		if k == bi {
			from = m.first
		}
		for _, l := range p.Blocks[k].Lines[from:] {
			acc += titleKey(l.Text)
		}
	}
	from := 0
	if m.extra == 0 {
		from = m.first
	}
	for _, l := range b.Lines[from:m.last] {
		acc += titleKey(l.Text)
	}
	if !strings.HasPrefix(key, acc) {
		return m, false
	}
	head, rest, ok := splitRunIn(p, b.Lines[m.last], key[len(acc):])
	if !ok {
		return m, false
	}
	if !strings.ContainsFunc(rest.Text, unicode.IsLetter) {
		m.runIn = false
		return m, true
	}
	m.head, m.rest = head, rest
	return m, true
}

// runInNumber is a multi-level section number opening a line, the space
// after it optional (ASME sets "1.1Essential" with a kern).
var runInNumber = regexp.MustCompile(`^(\d{1,2}(?:\.\d{1,2})+)\.?\s*[^\s\d.]`)

// numberedRunIns cuts, where no outline names the sections, the numbered
// run-in heads of subsections from their paragraphs, as the AMS and ASME
// classes set them ("9.1. *Multiple integral signs.* \iint …", "**1.1
// Essential Initial Commands.** To begin …"): a paragraph whose first line
// opens with a multi-level section number, then a title of at most twelve
// words set in a face of its own (every letter bold, italic or in small
// capitals) closed by a period, colon or dash, then text in the text face
// (neither that face nor italic throughout, which a theorem's statement
// is). The number must go on the numbering of the headings before it (its
// first part the latest numbered heading's, no heading numbered so
// before): "2.1" under "2 Methods". The head becomes a heading block, the
// rest of the line with the lines below a paragraph (splitRunIn), so
// typographicSections opens a section at it.
func numberedRunIns(pages []*Page) {
	last := ""
	used := map[string]bool{}
	for _, p := range pages {
		for i := 0; i < len(p.Blocks); i++ {
			b := p.Blocks[i]
			if b.Kind == Heading {
				if n := headNumber(b.Text()); n != "" {
					last, used[n] = n, true
				}
				continue
			}
			if b.Kind != Paragraph || b.Rotated || len(b.Lines) == 0 {
				continue
			}
			l := b.Lines[0]
			m := runInNumber.FindStringSubmatch(l.Text)
			if m == nil || last == "" || used[m[1]] || strings.Split(m[1], ".")[0] != strings.Split(last, ".")[0] {
				continue
			}
			rem, ok := runInTitle(p, l)
			if !ok {
				continue
			}
			head, rest, ok := splitRunIn(p, l, rem)
			if !ok || rest.Italic || len(strings.Fields(head.Text)) > 13 {
				continue
			}
			h := newBlock(Heading, []*Line{head})
			body := newBlock(Paragraph, append([]*Line{rest}, b.Lines[1:]...))
			h.Rotated, body.Rotated = b.Rotated, b.Rotated
			body.Continues = b.Continues
			p.Blocks = append(p.Blocks[:i], append([]*Block{h, body}, p.Blocks[i+1:]...)...)
			last, used[m[1]] = m[1], true
			i++
		}
	}
}

// runInTitle returns the title key (titleKey) of the run-in head that
// opens line l after its section number: from the first letter on, the
// letters that share its bold, italic or small-capitals face, with the
// mathematics, monospaced words, digits and punctuation among them ("9.10.
// The \text command", "7.7 Archivability: PDF/A"), up to a period, colon or
// dash followed by a letter without that face. It reports false when the
// first letter has none of those faces or no such end follows on the line.
func runInTitle(p *Page, l *Line) (string, bool) {
	const faces = boldFont | italicFont | smallCapsFont
	flags := func(c char) fontFlags {
		if c.Font >= 0 && c.Font < len(p.fonts) {
			return p.fonts[c.Font]
		}
		return 0
	}
	cs := l.chars
	var want fontFlags
	end, delim, neutralEnd := -1, false, -1
	for j, c := range cs {
		if isSpace(c.Rune) {
			continue
		}
		f := flags(c)
		letter := unicode.IsLetter(c.Rune) && f&(mathFont|monoFont) == 0
		closing := strings.ContainsRune(runInDelims, c.Rune)
		switch {
		case want == 0 && letter:
			if want = f & faces; want == 0 {
				return "", false
			}
			end = j
		case want == 0:
			// the number and its punctuation
		case letter && f&want == want:
			end, delim, neutralEnd = j, false, -1 // the title goes on (past a colon inside it)
		case letter:
			if !delim {
				return "", false
			}
			h := newLine(cs[:end+1], p.fonts)
			if h == nil || titleKey(h.Text) == "" {
				return "", false
			}
			return titleKey(h.Text), true
		case closing:
			if neutralEnd > end {
				end = neutralEnd // mathematics before the closing period belongs to the title
			}
			delim = true
		default:
			if delim {
				neutralEnd = j
			} else {
				end = j
			}
		}
	}
	return "", false
}
