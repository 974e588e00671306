// Package frontmatter identifies a paper from what its first pages print:
// the title block, the author lines under it, the arXiv identifier stamped
// in the margin, DOIs in their printed forms and the journal's or
// conference's banner. It reads the lines internal/layout finds (their
// text, boxes and font sizes) and returns values; it is pure (no I/O).
//
// The rules are typographic and hold across publishers: the title is the
// text set in the largest type above the abstract or the first paragraph
// of running text (or, where nothing is set larger than the body, the
// first line of the page when it stands alone, in bold, and names follow
// it; on a page from inside a paper, with no title block, the running head
// when it reads as a title); the authors are the lines of names between the title and the
// abstract (or just above the title), split into names, with
// affiliations, e-mail addresses, footnote marks and degrees left out. A
// text layer that does not read as words (a scan without OCR, fonts whose
// characters are not the glyphs drawn) identifies nothing: Result.Problem
// says so, and no field is guessed from it.
package frontmatter

import (
	"math"
	"regexp"
	"sort"
	"strings"

	"github.com/crossmem/crossmem/internal/layout"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/pdf"
)

// Result is what the first pages say about the paper. Empty fields were
// not found.
type Result struct {
	// Problem is Readable, or why the text cannot identify the paper
	// (NoText, Unreadable); ProblemDetail says what was measured.
	Problem       Problem
	ProblemDetail string

	Title string
	// TitleRule names the rule that found the title: "largest type",
	// "first line" (nothing on the page is set larger than the body) or
	// RuleRunningHead.
	TitleRule string
	Authors   []metadata.Name

	Arxiv *Arxiv // the arXiv identifier, nil when none is printed
	// DOIs are the DOIs printed outside bibliography entries, the paper's
	// own first (DOI.Own).
	DOIs   []DOI
	Banner *Banner // the journal's or proceedings' banner, nil when none
	// Year is the publication year the page states (banner, arXiv stamp,
	// copyright or "Published" line), 0 when none; YearFrom is the line.
	Year     int
	YearFrom string
	// Text is the text of the pages read, block by block, as layout reads
	// it (for checking whether the pages print a given title or name).
	Text string
}

// maxPages is how many pages Read looks at.
const maxPages = 2

// Read identifies a paper from its first pages (pdf.Document.Page of
// pages 1, 2, …, in order; at least one; pages after maxPages are
// ignored).
func Read(pages []*pdf.Page) *Result {
	if len(pages) > maxPages {
		pages = pages[:maxPages]
	}
	res := &Result{}
	if len(pages) == 0 {
		res.Problem, res.ProblemDetail = NoText, "no pages"
		return res
	}
	st := layout.DocumentStats(pages)
	var laid []*layout.Page
	var all strings.Builder
	for _, p := range pages {
		lp := layout.Analyze(p, st)
		laid = append(laid, lp)
		for _, b := range lp.Blocks {
			all.WriteString(b.Text())
			all.WriteString("\n")
		}
	}
	res.Text = all.String()
	if res.Problem, res.ProblemDetail = readability(res.Text); res.Problem != Readable {
		return res
	}
	first := pageLines(laid[0])
	height, width := laid[0].Height, laid[0].Width
	body := st.BodySize

	res.Arxiv = findArxiv(first)
	idLines := first
	if len(laid) > 1 && words(first) < 80 {
		// A cover or a title page without text: the second page may carry
		// the identifiers.
		idLines = append(append([]*line(nil), first...), pageLines(laid[1])...)
	}
	res.DOIs = findDOIs(idLines, height)

	end := frontEnd(first, body, width, math.Inf(1))
	// The title: of the blocks set large, the first with names under it,
	// else the largest when nothing but the page's top margin is above it
	// (a document without authors); a plain first line only in bold or
	// with names under it.
	var t *title
	groups := findTitles(first, end, body, height)
	if len(groups) > 1 && groups[0].atTop(first, height) && groups[1].top() < groups[0].bottom() &&
		groups[1].size >= runningScale*body && namesUnder(first, groups[1]) && !namesUnder(first, groups[0]) {
		// A masthead set larger than the title, which has the names under it.
		groups = groups[1:]
	}
	for _, c := range groups {
		x0, x1 := c.xRange()
		cEnd := frontEndIn(first, body, width, math.Inf(1), x0, x1)
		if c.words() == 1 && !oneWord(first, c, cEnd, body) {
			continue
		}
		if names := findAuthors(first, c, cEnd); len(names) > 0 {
			t, res.Authors = c, names
			break
		}
	}
	if t == nil {
		var cs []*title
		for _, c := range findTitles(first, end, body, height) {
			if c.words() >= 2 {
				cs = append(cs, c)
			}
		}
		if len(cs) > 0 {
			c := cs[0]
			if c.rule == ruleFirstLine && c.bold || c.rule == ruleLargest && c.atTop(first, height) {
				t = c
			}
		}
	}
	if t == nil {
		// An article may begin part-way down a page, under the end of the
		// one before it: its title is set large, with names under it.
		for _, c := range findTitles(first, 0, body, height) {
			if c.rule != ruleLargest || c.words() < 2 {
				continue
			}
			end2 := frontEnd(first, body, width, c.bottom())
			if names := findAuthors(first, c, end2); len(names) > 0 {
				t, end, res.Authors = c, end2, names
				break
			}
		}
	}
	if t == nil && words(first) >= 40 {
		// A page from inside a paper: its running head may give the title.
		t = runningHead(first, body, height)
	}
	if t != nil {
		res.Title, res.TitleRule = t.text, t.rule
	}

	var front []*line // the page's top and foot, and the front matter
	for _, l := range first {
		if l.rotated || stamp.MatchString(l.Text) {
			continue
		}
		inFront := l.Box.Y0 >= end-1 && (t == nil || l.Box.Y1 <= t.top()+1 || l.Box.Y1 > 0.75*height)
		if inFront || l.Box.Y1 > 0.75*height || l.Box.Y0 < 0.2*height {
			front = append(front, l)
		}
	}
	res.Banner = findBanner(front)

	switch {
	case res.Banner != nil && res.Banner.Year > 0:
		res.Year, res.YearFrom = res.Banner.Year, res.Banner.Line
	case res.Arxiv != nil && res.Arxiv.Date.Year > 0:
		res.Year, res.YearFrom = res.Arxiv.Date.Year, res.Arxiv.Line
	default:
		res.Year, res.YearFrom = findYear(front)
	}
	return res
}

// oneWord reports whether a title of one word (t) stands as the title:
// between it and the first line of names under it (above end) nothing is
// set in title type (titleScale times the body size) but lines of names,
// so that it is not a masthead or a label over the real title.
// A one-word title needs names under it.
func oneWord(ls []*line, t *title, end, body float64) bool {
	for _, l := range byTop(ls) {
		if l.Box.Y1 >= t.bottom() || l.Box.Y0 < end-1 {
			continue
		}
		if _, ok := lineNames(l); ok {
			return true
		}
		if l.Size >= titleScale*body {
			return false
		}
	}
	return false
}

// Record returns what the page says as a Record whose fields name
// metadata.SourcePDFText: title, authors, issued (the year; the date of
// the arXiv stamp when it gives the year), the paper's own DOI (the first
// of DOIs when it is Own), the arXiv id and version, and the banner's
// container, volume, issue and pages. It is empty when Problem is not
// Readable.
func (r *Result) Record() *metadata.Record {
	rec := &metadata.Record{}
	src := metadata.SourcePDFText
	if r.Problem != Readable {
		rec.Normalize()
		return rec
	}
	if r.Title != "" {
		rec.Title = r.Title
		rec.SetSource(metadata.FieldTitle, src)
	}
	if len(r.Authors) > 0 {
		rec.Authors = append([]metadata.Name(nil), r.Authors...)
		rec.SetSource(metadata.FieldAuthors, src)
	}
	if r.Year > 0 {
		rec.Issued = metadata.Date{Year: r.Year}
		if r.Arxiv != nil && r.Arxiv.Date.Year == r.Year && r.YearFrom == r.Arxiv.Line {
			rec.Issued = r.Arxiv.Date
		}
		rec.SetSource(metadata.FieldIssued, src)
	}
	if d := r.OwnDOI(); d != "" {
		rec.DOI = d
		rec.SetSource(metadata.FieldDOI, src)
	}
	if r.Arxiv != nil {
		rec.ArxivID, rec.ArxivVersion, rec.ArxivPrimaryCategory = r.Arxiv.ID, r.Arxiv.Version, r.Arxiv.Category
		rec.SetSource(metadata.FieldArxivID, src)
	}
	if b := r.Banner; b != nil {
		for _, f := range []struct {
			field string
			dst   *string
			v     string
		}{
			{metadata.FieldContainerTitle, &rec.ContainerTitle, b.Container},
			{metadata.FieldVolume, &rec.Volume, b.Volume},
			{metadata.FieldIssue, &rec.Issue, b.Issue},
			{metadata.FieldPage, &rec.Page, b.Page},
		} {
			if f.v != "" {
				*f.dst = f.v
				rec.SetSource(f.field, src)
			}
		}
	}
	rec.Normalize()
	return rec
}

// OwnDOI returns the paper's own DOI as printed, "" when none is printed
// where a paper prints its own (DOI.Own).
func (r *Result) OwnDOI() string {
	if len(r.DOIs) > 0 && r.DOIs[0].Own {
		return r.DOIs[0].DOI
	}
	return ""
}

// stamp matches the lines a repository or a reader's copy adds to a page
// ("Downloaded from … on July 12, 2017"): their dates are not the paper's.
var stamp = regexp.MustCompile(`(?i)\b(?:downloaded|accessed|retrieved|printed)\s+(?:from|by|on)\b`)

// line is a layout line with what Read needs to know about its block.
type line struct {
	*layout.Line
	kind    layout.Kind
	block   int // index of the block on the page
	rotated bool
}

// margin reports whether the line lies in the top or bottom 15 % of a page
// of the given height, where banners and running heads are.
func (l *line) margin(height float64) bool {
	return l.Box.Y1 > 0.85*height || l.Box.Y0 < 0.15*height
}

// pageLines returns the lines of a laid-out page, block by block in
// reading order.
func pageLines(p *layout.Page) []*line {
	var out []*line
	for bi, b := range p.Blocks {
		for _, l := range b.Lines {
			out = append(out, &line{Line: l, kind: b.Kind, block: bi, rotated: b.Rotated})
		}
	}
	return out
}

func words(ls []*line) int {
	n := 0
	for _, l := range ls {
		n += len(strings.Fields(l.Text))
	}
	return n
}

// byTop returns the unrotated lines sorted top to bottom, then left to
// right (lines whose tops are within 3 points count as one row).
func byTop(ls []*line) []*line {
	var out []*line
	for _, l := range ls {
		if !l.rotated {
			out = append(out, l)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if math.Abs(a.Box.Y1-b.Box.Y1) > 3 {
			return a.Box.Y1 > b.Box.Y1
		}
		return a.Box.X0 < b.Box.X0
	})
	return out
}
