package draft

import (
	"html"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// scanMarkdownRegions finds the front matter, code blocks and spans,
// HTML comments (and the provenance comments among them and among lines
// starting with %), autolinks, link destinations and $ math of a markdown
// draft.
func scanMarkdownRegions(d *Draft) {
	t := d.text
	b := []byte(t)
	add := func(start, end int, kind regionKind, inner span) {
		d.regions = append(d.regions, region{span{start, end}, kind, inner})
	}
	start := frontMatterEnd(b)
	if start > 0 {
		add(0, start, regSkip, span{0, start})
	}
	for line := start; line < len(t); {
		le := endOfLine(b, line)
		if ch, n, ok := fence(b[line:le]); ok {
			end := skipFenced(b, le, ch, n)
			add(line, end, regCode, span{le, end})
			line = end
			continue
		}
		segEnd := le
		for segEnd < len(t) {
			next := endOfLine(b, segEnd)
			if _, _, ok := fence(b[segEnd:next]); ok {
				break
			}
			segEnd = next
		}
		d.markdownInlineRegions(b[:segEnd], line, add)
		line = segEnd
	}
}

func (d *Draft) markdownInlineRegions(b []byte, from int, add func(int, int, regionKind, span)) {
	t := d.text[:len(b)]
	to := len(b)
	for i := from; i < to; {
		c := t[i]
		switch {
		case c == '%' && (i == 0 || t[i-1] == '\n'):
			e := lineEnd(t, i)
			end := e
			if end > i && t[end-1] == '\r' {
				end--
			}
			if p, ok := parseProvenance(t[i+1 : end]); ok {
				p.Offset, p.End = i, end
				d.Provenance = append(d.Provenance, p)
				add(i, end, regComment, span{i, end})
			}
			i = max(e, i+1)
		case c == '\\':
			i += 2
		case c == '`':
			n := 0
			for i+n < to && t[i+n] == '`' {
				n++
			}
			e := skipCodeSpan(b, i)
			if e > i+n {
				add(i, e, regCode, span{i + n, e - n})
			}
			i = e
		case strings.HasPrefix(t[i:], "<!--"):
			e := to
			if k := strings.Index(t[i+4:to], "-->"); k >= 0 {
				e = i + 4 + k + 3
				if p, ok := parseProvenance(t[i+4 : e-3]); ok {
					p.Offset, p.End = i, e
					d.Provenance = append(d.Provenance, p)
				}
			}
			add(i, e, regComment, span{i, e})
			i = e
		case c == '<':
			e := skipAutolink(b, i)
			if e > i+1 {
				add(i, e, regSkip, span{i + 1, e - 1})
			}
			i = e
		case c == ']' && i+1 < to && t[i+1] == '(':
			e := skipParens(b, i+1)
			if e > i+2 {
				add(i+1, e, regSkip, span{i + 1, i + 1})
			}
			i = max(e, i+1)
		case c == '$':
			delim := "$"
			if strings.HasPrefix(t[i:], "$$") {
				delim = "$$"
			}
			if e := d.mdMathEnd(i, delim, to); e > 0 {
				add(i, e, regMath, span{i, e})
				i = e
			} else {
				i += len(delim)
			}
		default:
			i++
		}
	}
}

// mdMathEnd returns the offset after pandoc $ math opened at i, or -1: the
// opening $ is followed by a non-space, the closing $ follows a non-space
// and is not followed by a digit, in the same paragraph.
func (d *Draft) mdMathEnd(i int, delim string, to int) int {
	t := d.text[:to]
	from := i + len(delim)
	if delim == "$" && (from >= len(t) || isSpaceByte(t[from])) {
		return -1
	}
	for j := from; j < len(t); j++ {
		switch {
		case t[j] == '\\':
			j++
		case strings.HasPrefix(t[j:], delim) && j > from:
			if delim == "$" && (isSpaceByte(t[j-1]) || j+1 < len(t) && t[j+1] >= '0' && t[j+1] <= '9') {
				continue
			}
			return j + len(delim)
		case t[j] == '\n' && blankAt(t, j+1):
			return -1
		}
	}
	return -1
}

// bqMarkers returns the offset after the blockquote markers (up to three
// spaces, then > and an optional space, repeated) at the line start i, and
// whether there is one.
func bqMarkers(t string, i int) (int, bool) {
	j := i
	for j < len(t) && j-i < 3 && t[j] == ' ' {
		j++
	}
	if j >= len(t) || t[j] != '>' {
		return i, false
	}
	for j < len(t) && t[j] == '>' {
		j++
		for j < len(t) && (t[j] == ' ' || t[j] == '\t') {
			j++
		}
	}
	return j, true
}

// scanMarkdownQuotes finds the quotations and provenance comments of a
// markdown draft (see Quotation and Provenance).
func scanMarkdownQuotes(d *Draft) {
	t := d.text
	scanMarkdownRegions(d)
	// blockquotes: runs of lines starting with >
	var bqs []Quotation
	for line := 0; line < len(t); {
		le := lineEnd(t, line)
		if _, ok := regionAt(d.regions, line); ok {
			line = le + 1
			continue
		}
		if _, ok := bqMarkers(t, line); !ok {
			line = le + 1
			continue
		}
		first, last, lastContent := line, line, -1
		for line < len(t) {
			le := lineEnd(t, line)
			if _, in := regionAt(d.regions, line); in && line != first {
				break
			}
			m, ok := bqMarkers(t, line)
			if !ok {
				break
			}
			if !isBlank(t[m:le]) {
				lastContent = line
			}
			last = line
			line = le + 1
		}
		markupEnd := lineEnd(t, last)
		if markupEnd > last && t[markupEnd-1] == '\r' {
			markupEnd--
		}
		mo := strings.IndexByte(t[first:], '>') + first
		from, to := mo, mo
		if lastContent >= 0 {
			from, to = d.trimSpan(mo, lineEnd(t, lastContent), true)
		}
		q := Quotation{Kind: Blockquote, Command: ">", Offset: from, End: to, MarkupOffset: mo, MarkupEnd: markupEnd}
		q.Text = d.mdText(from, to, true)
		bqs = append(bqs, q)
	}
	// spans in double quotes, outside blockquotes
	d.marks = map[int]span{}
	k := 0
	for _, p := range d.paras {
		from := p.start
		for ; k < len(bqs) && bqs[k].MarkupOffset < p.end; k++ {
			d.matchMarks(from, max(from, bqs[k].MarkupOffset))
			from = max(from, bqs[k].MarkupEnd)
		}
		d.matchMarks(from, max(from, p.end))
	}
	k = 0 // the next blockquote
	for i := 0; i < len(t); {
		for k < len(bqs) && bqs[k].MarkupEnd <= i {
			k++
		}
		if k < len(bqs) && bqs[k].MarkupOffset <= i {
			i = bqs[k].MarkupEnd
			continue
		}
		if r, ok := regionAt(d.regions, i); ok {
			i = r.end
			continue
		}
		if t[i] == '\\' {
			i += 2
			continue
		}
		m := openMark(t, i)
		if m == "" {
			i++
			continue
		}
		cs, ce, ok := d.closeMark(i)
		if !ok {
			i += len(m)
			continue
		}
		from, to := d.trimSpan(i+len(m), cs, false)
		q := Quotation{Kind: DoubleQuotes, Command: m, Offset: from, End: to, MarkupOffset: i, MarkupEnd: ce}
		q.Text = d.mdText(from, to, false)
		if collapse(q.Text) != "" && d.inlineCounts(&q) {
			d.addQuotation(q)
		}
		i = ce
	}
	spans := d.Quotations
	d.Quotations = nil
	for _, q := range bqs {
		d.addQuotation(q)
	}
	d.Quotations = append(d.Quotations, spans...)
	sort.SliceStable(d.Quotations, func(i, j int) bool { return d.Quotations[i].Offset < d.Quotations[j].Offset })
}

// mdCitationEnd returns the offset after the markdown citation command
// at i: the ] closing a bracketed citation, or the end of an in-text
// citation's key.
func (d *Draft) mdCitationEnd(i, to int) int {
	t := d.text
	if t[i] == '[' {
		if j := matchBracket(t, i, to); j >= 0 {
			return j + 1
		}
		return i + 1
	}
	g, _ := d.groupAt(i)
	end := max(i+1, g.end)
	if end < len(t) && t[end] == '}' {
		end++
	}
	return end
}

// matchBracket returns the ] matching the [ at i before to, or -1.
func matchBracket(t string, i, to int) int {
	depth := 0
	for j := i; j < to; j++ {
		switch t[j] {
		case '\\':
			j++
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// mdText returns the Text of the markdown text[from:to]; in a blockquote
// the > markers at line starts are removed.
func (d *Draft) mdText(from, to int, bq bool) string {
	t := d.text
	var b strings.Builder
	dropped := map[int]bool{} // ] of links whose [ was dropped
	for i := from; i < to; {
		if r, ok := regionAt(d.regions, i); ok {
			switch r.kind {
			case regCode:
				s, e := max(r.inner.start, from), min(r.inner.end, to)
				if s < e {
					b.WriteString(t[s:e])
				}
			case regSkip, regMath:
				s, e := max(r.inner.start, from), min(r.inner.end, to)
				if s < e {
					b.WriteString(t[s:e])
				}
			}
			i = r.end
			continue
		}
		if g, ok := d.groupAt(i); ok && !g.nocite {
			end := d.mdCitationEnd(i, to)
			trimmed := strings.TrimRight(b.String(), " \t\r\n")
			b.Reset()
			b.WriteString(trimmed)
			i = max(end, i+1)
			continue
		}
		c := t[i]
		switch {
		case c == '\\' && i+1 < to && t[i+1] < utf8.RuneSelf && (unicode.IsPunct(rune(t[i+1])) || unicode.IsSymbol(rune(t[i+1]))):
			b.WriteByte(t[i+1])
			i += 2
		case c == '\\' && i+1 < to && t[i+1] == '\n':
			b.WriteByte(' ')
			i++
		case c == '\n':
			b.WriteByte('\n')
			i++
			if bq {
				i, _ = bqMarkers(t, i)
			}
		case c == '*':
			i++
		case c == '_':
			prev, _ := utf8.DecodeLastRuneInString(t[:i])
			next, _ := utf8.DecodeRuneInString(t[i+1:])
			if isWordRune(prev) && isWordRune(next) {
				b.WriteByte('_')
			}
			i++
		case c == '^' && i+1 < to && t[i+1] == '[':
			if j := matchBracket(t, i+1, to); j >= 0 {
				i = j + 1
			} else {
				b.WriteByte(c)
				i++
			}
		case c == '[' && i+1 < to && t[i+1] == '^':
			if j := matchBracket(t, i, to); j >= 0 && !strings.ContainsAny(t[i:j], " \n") {
				i = j + 1
			} else {
				b.WriteByte(c)
				i++
			}
		case c == '!' && i+1 < to && t[i+1] == '[' && d.isLink(i+1, to):
			i++
		case c == '[' && d.isLink(i, to):
			dropped[matchBracket(t, i, to)] = true
			i++
		case c == ']' && dropped[i]:
			i++
			if i < to && t[i] == '[' {
				if j := matchBracket(t, i, to); j >= 0 {
					i = j + 1
				}
			}
		default:
			b.WriteByte(c)
			i++
		}
	}
	return collapse(html.UnescapeString(b.String()))
}

// isLink reports whether the [ at i opens a link's text: its ] is followed
// by a link destination or a [reference].
func (d *Draft) isLink(i, to int) bool {
	j := matchBracket(d.text, i, to)
	if j < 0 || j+1 >= to {
		return false
	}
	if r, ok := regionFrom(d.regions, j+1); ok && r.kind == regSkip {
		return true
	}
	return d.text[j+1] == '['
}
