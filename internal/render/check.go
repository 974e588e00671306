package render

import (
	"fmt"
	"strings"

	"github.com/crossmem/crossmem/internal/check"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/search"
)

// Report renders a draft's check for people and agents: a summary line,
// then the quotations grouped by status (unverified, misattributed,
// repaired, verified) and the cited keys grouped by status (unknown,
// metadata-warning, ok), each with its line numbers. Verified quotations
// and ok keys are listed one per line; the others with their details.
func Report(r *check.Report) string {
	var b strings.Builder
	verdict := "OK"
	if !r.OK {
		verdict = "FAILED"
	}
	strict := ""
	if r.Strict {
		strict = ", strict"
	}
	fmt.Fprintf(&b, "%s: %s — %d quotations (%s), %d cited keys (%s%s)\n", r.Draft, verdict,
		len(r.Quotations), countList(r.Counts.Quotations, check.QuoteStatuses),
		len(r.Citations), countList(r.Counts.Citations, check.CiteStatuses), strict)
	writeGroups(&b, r.Quotations, check.QuoteStatuses, "quotations",
		func(q check.QuoteResult) string { return q.Status }, func(q check.QuoteResult) string { return indent(Quote(&q)) })
	writeGroups(&b, r.Citations, check.CiteStatuses, "cite keys",
		func(c check.CitationResult) string { return c.Status }, citationResult)
	return b.String()
}

// Quote renders the verdict on one quotation: the status, the lines (when
// from a draft), the cited keys and the quotation on the first line; then,
// indented, the source chunks with page, bbox and text_sha256 prefix, the
// source's own text when it is not verified, the nearest passages of an
// unverified quotation, and the notes.
func Quote(q *check.QuoteResult) string {
	var b strings.Builder
	b.WriteString(q.Status)
	if q.Line > 0 {
		b.WriteString(" " + lineRange(q.Line, q.EndLine))
	}
	cited := "cites nothing"
	if q.Source != nil && (q.Status == check.Verified || q.Status == check.Repaired) {
		cited = "no cite key given"
	}
	if len(q.CitedKeys) > 0 {
		cited = "cites " + strings.Join(q.CitedKeys, ", ")
	}
	if ay := q.AuthorYear; ay != nil && len(q.CitedKeys) == 0 {
		cited = fmt.Sprintf("cites (%s, %s)", ay.Author, ay.Year)
		if len(ay.Names) > 0 {
			cited = fmt.Sprintf("cites a work of %s", ay.Year)
		}
	}
	fmt.Fprintf(&b, " (%s): %q\n", cited, excerpt(q.Quote, 300))
	if s := q.Source; s != nil {
		fmt.Fprintf(&b, "  source: %s %s\n", s.CiteKey, chunkList(s.Chunks))
		for _, c := range s.Chunks {
			if c.ViewerURL != "" {
				fmt.Fprintf(&b, "  view: %s\n", c.ViewerURL)
			}
		}
		if q.Status == check.Repaired || q.Match == check.Repaired || (q.Status == check.Misattributed && s.Text != collapse(q.Quote)) {
			fmt.Fprintf(&b, "  paste: %q\n", s.Text)
			if s.Verbatim != "" && s.Verbatim != s.Text {
				fmt.Fprintf(&b, "  (text layer: %q)\n", s.Verbatim)
			}
		}
	}
	if p := q.Page; p != nil && !p.OK {
		fmt.Fprintf(&b, "  page: cite p. %s, not %s\n", p.Found, p.Locator)
	}
	for _, p := range q.Nearest {
		where := pageRef(p.Page, p.PageLabel)
		if m := p.Media; m != nil {
			where = fmt.Sprintf("%s–%s %s", search.Clock(m.StartMS), search.Clock(m.EndMS), m.Link)
		}
		fmt.Fprintf(&b, "  nearest: %s %s %s (similarity %.2f): %q\n", p.CiteKey, p.ChunkID, where, p.Similarity, excerpt(p.Text, 300))
		if p.ViewerURL != "" {
			fmt.Fprintf(&b, "    view: %s\n", p.ViewerURL)
		}
	}
	for _, n := range q.Notes {
		fmt.Fprintf(&b, "  note: %s\n", n)
	}
	if len(q.Edited) > 0 {
		fmt.Fprintf(&b, "  hint: %s\n", Hint(hint.Action{Kind: hint.VerifyEdits, Key: q.Edited[0].CiteKey}))
	}
	return b.String()
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// writeGroups writes items grouped by status in the order given, each
// group under a "<status> <what> (<n>):" heading; empty groups are left
// out.
func writeGroups[T any](b *strings.Builder, items []T, order []string, what string, status func(T) string, format func(T) string) {
	for _, s := range order {
		var group []T
		for _, it := range items {
			if status(it) == s {
				group = append(group, it)
			}
		}
		if len(group) == 0 {
			continue
		}
		fmt.Fprintf(b, "\n%s %s (%d):\n", s, what, len(group))
		for _, it := range group {
			b.WriteString(format(it))
		}
	}
}

func countList(m map[string]int, order []string) string {
	var parts []string
	for _, s := range order {
		if m[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", m[s], s))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// lineRange renders "line 12" or "lines 12-14".
func lineRange(from, to int) string {
	if to > from {
		return fmt.Sprintf("lines %d-%d", from, to)
	}
	return fmt.Sprintf("line %d", from)
}

// chunkList renders a source's chunks with page and bbox.
func chunkList(cs []check.SourceChunk) string {
	var parts []string
	for _, c := range cs {
		sha := c.SHA256
		if len(sha) > 12 {
			sha = sha[:12]
		}
		if m := c.Media; m != nil {
			parts = append(parts, fmt.Sprintf("%s %s–%s %s sha256=%s", c.ChunkID, search.Clock(m.StartMS), search.Clock(m.EndMS), m.Link, sha))
			continue
		}
		part := fmt.Sprintf("%s %s bbox [%.1f %.1f %.1f %.1f] sha256=%s", c.ChunkID, pageRef(c.Page, c.PageLabel), c.BBox[0], c.BBox[1], c.BBox[2], c.BBox[3], sha)
		if t := c.Cell; t != nil {
			part += " " + cellRef(t)
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, " + ")
}

// cellRef renders where a quotation lies in a table: "table row 3,
// column 2 (Data type)", "table row 3, columns 1-3", "table rows 2-4".
func cellRef(t *check.TableCell) string {
	switch {
	case t.EndRow == 0:
		ref := fmt.Sprintf("table row %d, column %d", t.Row, t.Column)
		if t.Head != "" {
			ref += fmt.Sprintf(" (%s)", t.Head)
		}
		return ref
	case t.EndRow == t.Row:
		return fmt.Sprintf("table row %d, columns %d-%d", t.Row, t.Column, t.EndColumn)
	default:
		return fmt.Sprintf("table rows %d-%d (row %d column %d to row %d column %d)", t.Row, t.EndRow, t.Row, t.Column, t.EndRow, t.EndColumn)
	}
}

// citationResult renders one cited key of a report.
func citationResult(c check.CitationResult) string {
	var b strings.Builder
	ls := make([]string, len(c.Lines))
	for i, l := range c.Lines {
		ls[i] = fmt.Sprint(l)
	}
	where := "line " + strings.Join(ls, ", ")
	if len(ls) > 1 {
		where = "lines " + strings.Join(ls, ", ")
	}
	fmt.Fprintf(&b, "  %s (%s)", c.Key, where)
	if c.CiteKey != "" && c.CiteKey != c.Key {
		fmt.Fprintf(&b, " → %s", c.CiteKey)
	}
	if c.Title != "" {
		fmt.Fprintf(&b, " — %s", c.Title)
	}
	b.WriteString("\n")
	if c.Status == check.CiteUnknown {
		b.WriteString("    " + DidYouMean(c.Suggestions, "    ") + "\n")
	}
	for _, w := range c.Warnings {
		fmt.Fprintf(&b, "    warning: %s\n", excerpt(w, 300))
	}
	if n := len(c.EditedChunks); n > 0 {
		fmt.Fprintf(&b, "    edited: the note of %s was edited by hand: %d chunk(s) (%s) no longer match their text_sha256 and are not served\n",
			c.CiteKey, n, excerpt(strings.Join(c.EditedChunks, ", "), 120))
		fmt.Fprintf(&b, "    hint: %s\n", Hint(hint.Action{Kind: hint.VerifyEdits, Key: c.CiteKey}))
	}
	return b.String()
}

// indent indents every line of s by two spaces.
func indent(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "  " + l
		}
	}
	return strings.Join(lines, "")
}

// excerpt shortens s to n runes, marking the cut with "…".
func excerpt(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// pageRef renders a page for a reader: the printed label ("p. 46") when the
// PDF declares one, else the PDF page number ("p.2").
func pageRef(page int, label string) string {
	if label != "" {
		return "p. " + label
	}
	return fmt.Sprintf("p.%d", page)
}
