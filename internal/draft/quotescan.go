package draft

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/crossmem/crossmem/internal/quote"
)

// What the LaTeX and markdown quotation scanners share.

// cmdGroup is one citation command: the keys that share a CommandOffset.
type cmdGroup struct {
	off    int      // CommandOffset
	end    int      // the offset after its last key
	keys   []string // in citation order, as cited
	locs   []string // each key's Locator
	nocite bool     // \nocite or the front matter's nocite: attributes nothing
}

// groupCitations groups citations by CommandOffset, sorted by it.
func groupCitations(cs []Citation) []cmdGroup {
	var gs []cmdGroup
	at := map[int]int{}
	for _, c := range cs {
		k, ok := at[c.CommandOffset]
		if !ok {
			k = len(gs)
			at[c.CommandOffset] = k
			gs = append(gs, cmdGroup{off: c.CommandOffset, nocite: c.Command == `\nocite` || c.Command == `\nocite*` || c.Command == "nocite"})
		}
		gs[k].keys = append(gs[k].keys, c.Key)
		gs[k].locs = append(gs[k].locs, c.Locator)
		gs[k].end = max(gs[k].end, c.Offset+len(c.Key))
	}
	sort.SliceStable(gs, func(i, j int) bool { return gs[i].off < gs[j].off })
	return gs
}

// groupAt returns the citation command starting at off.
func (d *Draft) groupAt(off int) (cmdGroup, bool) {
	k := sort.Search(len(d.cmds), func(k int) bool { return d.cmds[k].off >= off })
	if k < len(d.cmds) && d.cmds[k].off == off {
		return d.cmds[k], true
	}
	return cmdGroup{}, false
}

// paragraphs returns the runs of non-blank lines of t, each from its first
// line's start to its last line's end (before the line break).
func paragraphs(t string) []span {
	var ps []span
	start := -1
	for i := 0; i <= len(t); {
		e := lineEnd(t, i)
		if isBlank(t[i:e]) {
			if start >= 0 {
				ps = append(ps, span{start, i - 1})
				start = -1
			}
		} else if start < 0 {
			start = i
		}
		if e == len(t) {
			if start >= 0 {
				ps = append(ps, span{start, e})
			}
			break
		}
		i = e + 1
	}
	return ps
}

// paraAt returns the paragraph holding offset i, or the empty span at i
// when i is in a blank line.
func (d *Draft) paraAt(i int) span {
	k := sort.Search(len(d.paras), func(k int) bool { return d.paras[k].end > i })
	if k < len(d.paras) && d.paras[k].start <= i {
		return d.paras[k]
	}
	return span{i, i}
}

// lineAt returns the 1-based line of offset i.
func (d *Draft) lineAt(i int) int { return lineOf(d.lines, i) }

// markFamily is a kind of quote marks: its opening and closing marks,
// and whether pairs nest.
type markFamily struct {
	opens, closes []string
	nest          bool
}

var markFamilies = []markFamily{
	{[]string{"``"}, []string{"''"}, true},
	{[]string{"“"}, []string{"”"}, true},
	{[]string{"«"}, []string{"»"}, true},
	{[]string{"„"}, []string{"“", "”"}, false},
	{[]string{`"`}, []string{`"`}, false},
}

// matchMarks finds, in one pass over text[from:to] outside regions and
// backslash escapes, the closing mark of each opening mark: the first
// closing mark of its family at nesting depth 0 (“, « and TeX's two
// backquotes nest; „ closes at the first “ or ”, " at the next "). It
// records them in d.marks by the opening mark's offset.
func (d *Draft) matchMarks(from, to int) {
	t := d.text
	stacks := make([][]int, len(markFamilies))
	next := make([]int, len(markFamilies)) // a family's tokens are read from here on
	for i := from; i < to; {
		if r, ok := regionAt(d.regions, i); ok {
			i = r.end
			continue
		}
		if t[i] == '\\' {
			i++
			if i < to {
				_, size := utf8.DecodeRuneInString(t[i:])
				i += size
			}
			continue
		}
		for f, fam := range markFamilies {
			if i < next[f] {
				continue
			}
			closed := false
			for _, c := range fam.closes {
				if strings.HasPrefix(t[i:], c) && i+len(c) <= to && len(stacks[f]) > 0 {
					if fam.nest {
						o := stacks[f][len(stacks[f])-1]
						stacks[f] = stacks[f][:len(stacks[f])-1]
						d.marks[o] = span{i, i + len(c)}
					} else {
						for _, o := range stacks[f] {
							d.marks[o] = span{i, i + len(c)}
						}
						stacks[f] = stacks[f][:0]
					}
					next[f] = i + len(c)
					closed = true
					break
				}
			}
			if closed && fam.opens[0] != `"` {
				continue
			}
			for _, o := range fam.opens {
				if strings.HasPrefix(t[i:], o) {
					if o != `"` || openMark(t, i) != "" && !closed {
						stacks[f] = append(stacks[f], i)
					}
					next[f] = i + len(o)
					break
				}
			}
		}
		i++
	}
}

// closeMark returns the closing mark of the opening mark at i (see
// matchMarks).
func (d *Draft) closeMark(i int) (int, int, bool) {
	m, ok := d.marks[i]
	return m.start, m.end, ok
}

// openMark returns the inline opening quote mark at i, if any. A straight
// " opens only after a character that is not a letter, digit or
// backslash, and before one that is not white space.
func openMark(t string, i int) string {
	for _, m := range []string{"“", "„", "«"} {
		if strings.HasPrefix(t[i:], m) {
			return m
		}
	}
	if t[i] == '"' {
		if i > 0 {
			r, _ := utf8.DecodeLastRuneInString(t[:i])
			if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\\' {
				return ""
			}
		}
		if i+1 < len(t) && !isSpaceByte(t[i+1]) {
			return `"`
		}
	}
	return ""
}

func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// trimSpan trims white space and comment regions from both ends of
// [from, to); in a blockquote also the > markers at its start.
func (d *Draft) trimSpan(from, to int, bq bool) (int, int) {
	t := d.text
	for from < to {
		if isSpaceByte(t[from]) || bq && t[from] == '>' {
			from++
		} else if r, ok := regionAt(d.regions, from); ok && r.kind == regComment {
			from = r.end
		} else {
			break
		}
	}
	for to > from {
		if isSpaceByte(t[to-1]) {
			to--
		} else if r, ok := regionAt(d.regions, to-1); ok && r.kind == regComment && r.start >= from {
			to = r.start
		} else {
			break
		}
	}
	if to < from {
		to = from
	}
	return from, to
}

// inlineCounts reports whether an inline span (“...”, "...",
// \enquote) is a quotation: its text has minWords words, or a citation
// follows it directly.
func (d *Draft) inlineCounts(q *Quotation) bool {
	return countWords(q.Text) >= minWords || d.citeFollows(q.MarkupEnd)
}

// citeFollows reports whether a citation command starts at p after only
// white space (no blank line), punctuation .,;:!?, ~, (, comments, and an
// opening \footnote{; in markdown a ^[...] footnote holding a citation
// (whose command starts at its [) follows too.
func (d *Draft) citeFollows(p int) bool {
	t := d.text
	limit := d.paraAt(max(p-1, 0)).end
	for p < limit {
		if r, ok := regionAt(d.regions, p); ok && r.kind == regComment {
			p = r.end
			continue
		}
		switch {
		case strings.IndexByte(" \t\r\n~.,;:!?(", t[p]) >= 0:
			p++
			continue
		case strings.HasPrefix(t[p:], `\footnote{`):
			p += len(`\footnote{`)
			continue
		case d.Kind == Markdown && strings.HasPrefix(t[p:], "^["):
			p++ // a citation in the footnote starts at its [
			continue
		}
		break
	}
	g, ok := d.groupAt(p)
	return ok && !g.nocite
}

// finish sets a quotation's Raw and Citations-free fields, and keeps it
// when its Text is not empty.
func (d *Draft) addQuotation(q Quotation) bool {
	q.Text = collapse(q.Text)
	q.Text = trimDashes(q.Text)
	if q.Kind.Display() {
		q.Text = quote.TrimMarks(q.Text)
	}
	if q.Text == "" || q.Offset >= q.End {
		return false
	}
	q.Raw = d.text[q.Offset:q.End]
	d.Quotations = append(d.Quotations, q)
	return true
}

// trimDashes removes a dash (and the white space before it) left at the
// end of a text whose attribution citation was removed: "Words. —".
func trimDashes(s string) string {
	for {
		t := strings.TrimRight(s, " ")
		for _, dash := range []string{"—", "–", "―", "--", "-"} {
			if strings.HasSuffix(t, " "+dash) || t == dash {
				t = strings.TrimRight(strings.TrimSuffix(t, dash), " ")
				break
			}
		}
		if t == s {
			return s
		}
		s = t
	}
}
