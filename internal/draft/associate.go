package draft

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// CitedKeys returns the distinct cite keys quotation i (an index in
// d.Quotations) is attributed to, in citation order; nil when none or when
// i is out of range.
//
// The keys are those of the quotation's own Citations (every citation
// written inside its markup) when it has any. Otherwise they are the keys
// of one citation command — all the keys it cites (\citep{a,b},
// [@a; @b]) — the first found of:
//
//  1. the nearest citation command after the quotation in the same
//     sentence; for a display quotation (quote environment, \blockquote,
//     markdown blockquote) instead a citation command at the start of the
//     text right after the block: after only white space (no blank line),
//     comments, ~, ( and dashes, as in "\end{quote}" then "\citep{x}" on
//     the next line, or a line "— [@x]" after a blockquote;
//  2. the nearest citation command before the quotation in the same
//     sentence;
//  3. the nearest citation command after the quotation in the same
//     paragraph;
//  4. the nearest citation command before the quotation in the same
//     paragraph.
//
// A paragraph is a run of non-blank lines. A sentence ends, within its
// paragraph, at white space that follows ., ! or ? (with closing quote
// marks, parentheses or braces between) and comes before an upper-case
// letter (opening quote marks, parentheses or brackets between); the
// search runs from the end of the quotation's markup and back from its
// start, so a quotation ending in "." followed by a capitalised word ends
// its sentence. Citation commands inside another quotation's markup, and
// \nocite and the front matter's nocite, are never candidates; comments,
// code and math are not read.
func (d *Draft) CitedKeys(i int) []string {
	if i < 0 || i >= len(d.cited) {
		return nil
	}
	return d.cited[i]
}

// ProvenanceFor returns the provenance comment recorded for quotation i (an
// index in d.Quotations); false when there is none or i is out of range.
//
// A provenance comment belongs to a quotation when it is after the
// quotation's text (at or after End) and either on a line of its markup
// (such as the quotation's last line, after the closing mark or
// \end{quote}) or on a line after it with only comment lines between (no
// blank line) — the first such comment, when no other quotation starts
// between. Else, for a quotation without one after it, the nearest
// comment ending before its text (before Offset) on the line immediately
// before its first line or on its first line, when no other quotation
// ends between and no quotation took that comment as after it. A
// comment belongs to at most one quotation: a comment after one
// quotation and before the next goes to the one before.
func (d *Draft) ProvenanceFor(i int) (Provenance, bool) {
	if i < 0 || i >= len(d.provOf) || d.provOf[i] < 0 {
		return Provenance{}, false
	}
	return d.Provenance[d.provOf[i]], true
}

// associate fills the quotations' Citations, and works out CitedKeys and
// ProvenanceFor.
func (d *Draft) associate() {
	n := len(d.Quotations)
	d.cited = make([][]string, n)
	d.provOf = make([]int, n)
	cites := append([]Citation(nil), d.Citations...)
	sort.SliceStable(cites, func(i, j int) bool { return cites[i].Offset < cites[j].Offset })
	for i := range d.Quotations {
		q := &d.Quotations[i]
		k := sort.Search(len(cites), func(k int) bool { return cites[k].Offset >= q.MarkupOffset })
		for ; k < len(cites) && cites[k].Offset < q.MarkupEnd; k++ {
			q.Citations = append(q.Citations, cites[k])
		}
	}
	if n > 0 {
		d.breaks = d.sentenceBreaks()
	}
	// the candidate commands: not inside a quotation, not nocite
	var cands []cmdGroup
	for _, g := range d.cmds {
		if !g.nocite && d.quotationAt(g.off) < 0 {
			cands = append(cands, g)
		}
	}
	// first candidate in [from, to), last candidate in [from, to)
	first := func(from, to int) (cmdGroup, bool) {
		k := sort.Search(len(cands), func(k int) bool { return cands[k].off >= from })
		if k < len(cands) && cands[k].off < to {
			return cands[k], true
		}
		return cmdGroup{}, false
	}
	last := func(from, to int) (cmdGroup, bool) {
		k := sort.Search(len(cands), func(k int) bool { return cands[k].off >= to }) - 1
		if k >= 0 && cands[k].off >= from {
			return cands[k], true
		}
		return cmdGroup{}, false
	}
	d.locs = make([]string, n)
	for i, q := range d.Quotations {
		var keys, locs []string
		if len(q.Citations) > 0 {
			for _, c := range q.Citations {
				keys = append(keys, c.Key)
				locs = append(locs, c.Locator)
			}
		} else {
			paraBefore := d.paraAt(q.MarkupOffset)
			paraAfter := d.paraAt(q.MarkupEnd - 1)
			var g cmdGroup
			var ok bool
			if q.Kind.Display() {
				g, ok = d.groupAt(d.afterBlock(q.MarkupEnd, paraAfter.end))
				ok = ok && !g.nocite
			} else {
				g, ok = first(q.MarkupEnd, d.sentenceEnd(q.MarkupEnd, paraAfter.end))
			}
			if !ok {
				g, ok = last(d.sentenceStart(q.MarkupOffset, paraBefore.start), q.MarkupOffset)
			}
			if !ok {
				g, ok = first(q.MarkupEnd, paraAfter.end)
			}
			if !ok {
				g, ok = last(paraBefore.start, q.MarkupOffset)
			}
			if ok {
				keys, locs = g.keys, g.locs
			}
		}
		d.cited[i] = distinct(keys)
		for _, l := range locs {
			if l != "" {
				d.locs[i] = l
				break
			}
		}
	}
	d.associateProvenance()
	d.associateAuthorYears()
}

func distinct(keys []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, k := range keys {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// quotationAt returns the index of the quotation whose markup holds
// offset i, or -1.
func (d *Draft) quotationAt(i int) int {
	k := sort.Search(len(d.Quotations), func(k int) bool { return d.Quotations[k].MarkupEnd > i })
	if k < len(d.Quotations) && d.Quotations[k].MarkupOffset <= i {
		return k
	}
	return -1
}

// afterBlock returns the offset after white space (no blank line),
// comments, ~, ( and dashes from p, before limit.
func (d *Draft) afterBlock(p, limit int) int {
	t := d.text
	for p < limit {
		if r, ok := regionAt(d.regions, p); ok && r.kind == regComment {
			p = r.end
			continue
		}
		if strings.IndexByte(" \t\r\n~(-", t[p]) >= 0 {
			p++
			continue
		}
		if strings.HasPrefix(t[p:], "—") || strings.HasPrefix(t[p:], "–") || strings.HasPrefix(t[p:], "―") {
			p += len("—")
			continue
		}
		break
	}
	return p
}

// sentenceBreaks returns the offsets of the white space runs, outside
// regions, that end a sentence (see sentenceBreak), in order.
func (d *Draft) sentenceBreaks() []int {
	var bs []int
	t := d.text
	for i := 0; i < len(t); {
		if r, ok := regionAt(d.regions, i); ok {
			i = r.end
			continue
		}
		if isSpaceByte(t[i]) && (i == 0 || !isSpaceByte(t[i-1])) && d.sentenceBreak(i) {
			bs = append(bs, i)
		}
		i++
	}
	return bs
}

// sentenceEnd returns the first sentence break at or after from, or
// limit.
func (d *Draft) sentenceEnd(from, limit int) int {
	k := sort.SearchInts(d.breaks, from)
	if k < len(d.breaks) && d.breaks[k] < limit {
		return d.breaks[k]
	}
	return limit
}

// sentenceStart returns the last sentence break before from, or limit
// (the paragraph's start).
func (d *Draft) sentenceStart(from, limit int) int {
	k := sort.SearchInts(d.breaks, from) - 1
	if k >= 0 && d.breaks[k] >= limit {
		return d.breaks[k]
	}
	return limit
}

// sentenceBreak reports whether the white space at i ends a sentence.
func (d *Draft) sentenceBreak(i int) bool {
	t := d.text
	j := i
	for j > 0 {
		r, size := utf8.DecodeLastRuneInString(t[:j])
		if !strings.ContainsRune(`"')]}”’»`, r) {
			break
		}
		j -= size
	}
	if j == 0 || strings.IndexByte(".!?", t[j-1]) < 0 {
		return false
	}
	k := i
	for k < len(t) {
		r, size := utf8.DecodeRuneInString(t[k:])
		if !unicode.IsSpace(r) && !strings.ContainsRune("\"'([{`“‘«", r) {
			return unicode.IsUpper(r)
		}
		k += size
	}
	return false
}

// associateProvenance works out ProvenanceFor (see its doc).
func (d *Draft) associateProvenance() {
	used := make([]bool, len(d.Provenance))
	for i := range d.provOf {
		d.provOf[i] = -1
	}
	qs := d.Quotations
	for i, q := range qs {
		next := len(d.text) + 1
		if i+1 < len(qs) {
			next = qs[i+1].MarkupOffset
		}
		lastLine := d.lineAt(q.MarkupEnd - 1)
		k := sort.Search(len(d.Provenance), func(k int) bool { return d.Provenance[k].Offset >= q.End })
		if k >= len(d.Provenance) || used[k] {
			continue
		}
		p := d.Provenance[k]
		if p.Offset >= next || p.Line > lastLine && !d.commentLines(lastLine+1, p.Line-1) {
			continue
		}
		d.provOf[i] = k
		used[k] = true
	}
	for i, q := range qs {
		if d.provOf[i] >= 0 {
			continue
		}
		prev := 0
		if i > 0 {
			prev = qs[i-1].MarkupEnd
		}
		k := sort.Search(len(d.Provenance), func(k int) bool { return d.Provenance[k].End > q.Offset }) - 1
		if k < 0 || used[k] {
			continue
		}
		p := d.Provenance[k]
		if p.Offset < prev || d.lineAt(max(p.End-1, p.Offset)) < d.lineAt(q.MarkupOffset)-1 {
			continue
		}
		d.provOf[i] = k
		used[k] = true
	}
}

// commentLines reports whether lines from..to (1-based, inclusive) all
// start, after white space, with a comment; true when from > to.
func (d *Draft) commentLines(from, to int) bool {
	for l := from; l <= to; l++ {
		s := d.lines[l-1]
		e := lineEnd(d.text, s)
		j := s
		for j < e && isSpaceByte(d.text[j]) {
			j++
		}
		if j == e {
			return false
		}
		if r, ok := regionAt(d.regions, j); !ok || r.kind != regComment {
			return false
		}
	}
	return true
}
