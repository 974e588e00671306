package check

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/crossmem/crossmem/internal/cite"
	"github.com/crossmem/crossmem/internal/draft"
)

// CitationResult is the verdict on one cite key a draft cites.
type CitationResult struct {
	// Key is the key as the draft writes it.
	Key string `json:"cite_key"`
	// Status is CiteOK, CiteUnknown or CiteMetadataWarning.
	Status string `json:"status"`
	// Lines are the 1-based lines that cite Key, in order.
	Lines []int `json:"lines"`
	// Paper is the cite key of the library paper Key names (Key itself,
	// or the paper's key when Key is an alias); empty when unknown.
	Paper string `json:"paper,omitempty"`
	// Title is the paper's title.
	Title string `json:"title,omitempty"`
	// Suggestions are the library's closest keys to an unknown Key.
	Suggestions []cite.Suggestion `json:"did_you_mean,omitempty"`
	// Warnings are the reconciliation warnings of the paper's metadata
	// record (metadata-warning), or why it cannot be cited.
	Warnings []string `json:"warnings,omitempty"`
}

// Report is the result of checking a draft.
type Report struct {
	// Draft is the draft's name; Markup how it was read: "latex" or
	// "markdown".
	Draft  string `json:"draft"`
	Markup string `json:"format"`
	// OK is true when every quotation is verified or repaired and every
	// cited key is ok: what `crossmem check` exits 0 for.
	OK bool `json:"ok"`
	// Counts are the number of quotations per quotation status and of
	// cited keys per citation status (every status present, zeros
	// included).
	Counts Counts `json:"counts"`
	// Quotations are the verdicts on the draft's quotations, in text
	// order.
	Quotations []QuoteResult `json:"quotations"`
	// Citations are the verdicts on the distinct cited keys, in order of
	// first citation.
	Citations []CitationResult `json:"citations"`
}

// Counts counts a report's verdicts by status.
type Counts struct {
	Quotations map[string]int `json:"quotations"`
	Citations  map[string]int `json:"citations"`
}

// QuoteStatuses are the quotation statuses in the order reports list
// them: the ones that need work first.
var QuoteStatuses = []string{Unverified, Misattributed, Repaired, Verified}

// CiteStatuses are the citation statuses in report order.
var CiteStatuses = []string{CiteUnknown, CiteMetadataWarning, CiteOK}

// Draft checks a scanned draft: every quotation against the library, with
// the cite keys draft.CitedKeys attributes it to and the provenance
// comment draft.ProvenanceFor gives it, and every cited key against the
// library (c.Citer; without one, against the index). Errors are the
// index's, never a verdict.
func (c *Checker) Draft(ctx context.Context, d *draft.Draft) (*Report, error) {
	rep := &Report{Draft: d.Name, Markup: strings.ToLower(d.Kind.String()),
		Counts:     Counts{Quotations: map[string]int{}, Citations: map[string]int{}},
		Quotations: []QuoteResult{}, Citations: []CitationResult{}}
	for _, s := range QuoteStatuses {
		rep.Counts.Quotations[s] = 0
	}
	for _, s := range CiteStatuses {
		rep.Counts.Citations[s] = 0
	}
	for i, q := range d.Quotations {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var hint *Hint
		if p, ok := d.ProvenanceFor(i); ok {
			hint = &Hint{Key: p.Key, ChunkID: p.ChunkID, SHA256: p.SHA256}
		}
		r, err := c.Quote(ctx, q.Text, d.CitedKeys(i), hint)
		if err != nil {
			return nil, fmt.Errorf("check quotation on line %d: %w", q.Line, err)
		}
		r.Line, r.EndLine, r.Kind = q.Line, q.EndLine, string(q.Kind)
		rep.Quotations = append(rep.Quotations, *r)
		rep.Counts.Quotations[r.Status]++
	}
	lines := map[string][]int{}
	for _, ct := range d.Citations {
		lines[ct.Key] = append(lines[ct.Key], ct.Line)
	}
	for _, k := range d.Keys() {
		r := c.citation(ctx, k)
		r.Lines = lines[k]
		rep.Citations = append(rep.Citations, r)
		rep.Counts.Citations[r.Status]++
	}
	rep.OK = rep.Counts.Quotations[Unverified]+rep.Counts.Quotations[Misattributed]+
		rep.Counts.Citations[CiteUnknown]+rep.Counts.Citations[CiteMetadataWarning] == 0
	return rep, nil
}

// citation checks one cited key.
func (c *Checker) citation(ctx context.Context, key string) CitationResult {
	r := CitationResult{Key: key}
	if c.Citer == nil {
		if k, ok := c.Index.ResolveKey(ctx, key); ok {
			r.Status, r.Paper = CiteOK, k
		} else {
			r.Status = CiteUnknown
		}
		return r
	}
	p, err := c.Citer.Lookup(key)
	if err != nil {
		r.Status = CiteUnknown
		var nf *cite.NotFoundError
		if errors.As(err, &nf) {
			r.Suggestions = nf.Suggestions
		}
		return r
	}
	rec, _ := cite.Record(p, c.Citer.Version)
	r.Status, r.Paper, r.Title = CiteOK, p.CiteKey, rec.Title
	if !cite.Citable(rec) {
		r.Warnings = append(r.Warnings, fmt.Sprintf("the library has no usable metadata for %s (no title or authors): describe it with crossmem import <file.bib>", p.CiteKey))
	}
	r.Warnings = append(r.Warnings, rec.Warnings...)
	if len(r.Warnings) > 0 {
		r.Status = CiteMetadataWarning
	}
	return r
}

// Format renders a report for people: a summary line, then the
// quotations grouped by status (unverified, misattributed, repaired,
// verified) and the cited keys grouped by status (unknown,
// metadata-warning, ok), each with its line numbers. Verified quotations
// and ok keys are listed one per line; the others with their details.
func (r *Report) Format() string {
	var b strings.Builder
	verdict := "OK"
	if !r.OK {
		verdict = "FAILED"
	}
	fmt.Fprintf(&b, "%s: %s — %d quotations (%s), %d cited keys (%s)\n", r.Draft, verdict,
		len(r.Quotations), countList(r.Counts.Quotations, QuoteStatuses),
		len(r.Citations), countList(r.Counts.Citations, CiteStatuses))
	writeGroups(&b, r.Quotations, QuoteStatuses, "quotations",
		func(q QuoteResult) string { return q.Status }, func(q QuoteResult) string { return indent(q.Format()) })
	writeGroups(&b, r.Citations, CiteStatuses, "cite keys",
		func(c CitationResult) string { return c.Status }, formatCitation)
	return b.String()
}

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

// Format renders the verdict for people and agents: the status, the
// lines (when from a draft), the cited keys and the quotation on the first
// line; then, indented, the source chunks with page, bbox and text_sha256
// prefix, the source's own text when it is not verified, the nearest
// passages of an unverified quotation, and the notes.
func (q *QuoteResult) Format() string {
	var b strings.Builder
	b.WriteString(q.Status)
	if q.Line > 0 {
		b.WriteString(" " + lineRange(q.Line, q.EndLine))
	}
	cited := "cites nothing"
	if len(q.CitedKeys) > 0 {
		cited = "cites " + strings.Join(q.CitedKeys, ", ")
	}
	fmt.Fprintf(&b, " (%s): %q\n", cited, excerpt(q.Quote, 300))
	if s := q.Source; s != nil {
		fmt.Fprintf(&b, "  source: %s %s\n", s.CiteKey, chunkList(s.Chunks))
		if q.Status != Verified {
			fmt.Fprintf(&b, "  source text: %q\n", s.Text)
		}
	}
	for _, p := range q.Nearest {
		fmt.Fprintf(&b, "  nearest: %s %s p.%d (similarity %.2f): %q\n", p.CiteKey, p.ChunkID, p.Page, p.Similarity, excerpt(p.Text, 300))
	}
	for _, n := range q.Notes {
		fmt.Fprintf(&b, "  note: %s\n", n)
	}
	return b.String()
}

// chunkList renders a source's chunks with page and bbox.
func chunkList(cs []SourceChunk) string {
	var parts []string
	for _, c := range cs {
		sha := c.SHA256
		if len(sha) > 12 {
			sha = sha[:12]
		}
		parts = append(parts, fmt.Sprintf("%s p.%d bbox [%.1f %.1f %.1f %.1f] sha256=%s", c.ChunkID, c.Page, c.BBox[0], c.BBox[1], c.BBox[2], c.BBox[3], sha))
	}
	return strings.Join(parts, " + ")
}

// formatCitation renders one cited key of a report.
func formatCitation(c CitationResult) string {
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
	if c.Paper != "" && c.Paper != c.Key {
		fmt.Fprintf(&b, " → %s", c.Paper)
	}
	if c.Title != "" {
		fmt.Fprintf(&b, " — %s", c.Title)
	}
	b.WriteString("\n")
	if c.Status == CiteUnknown {
		if len(c.Suggestions) == 0 {
			b.WriteString("    not in the library; no similar keys (capture or import it: crossmem capture <input>, crossmem import <file.bib>)\n")
		}
		for _, s := range c.Suggestions {
			fmt.Fprintf(&b, "    did you mean: %s — %s\n", s.CiteKey, s.Title)
		}
	}
	for _, w := range c.Warnings {
		fmt.Fprintf(&b, "    warning: %s\n", excerpt(w, 300))
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
