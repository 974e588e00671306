package layout

import (
	"strings"

	"github.com/crossmem/crossmem/internal/pdf"
)

// ---------------------------------------------------------------- tagged PDFs

// role is what a structure element says a block is.
type role int

const (
	roleNone      role = iota
	roleParagraph      // P and the grouping types (Div, Sect, Span, …) without a more telling ancestor
	roleHeading        // H, H1–H6
	roleTitle          // Title (PDF 2.0)
	roleListItem       // LI, Lbl, LBody
	roleNote           // Note
	roleReference      // BibEntry
	roleFormula        // Formula
	roleTable          // Table and its parts
	roleFigure         // Figure
	roleCaption        // Caption
)

// typeRole returns the role a structure type decides, and whether it
// decides one: grouping and inline types (Span, Link, Div, Sect, …) leave
// it to their ancestors.
func typeRole(typ string) (role, bool) {
	switch {
	case pdf.Level(typ) >= 0:
		return roleHeading, true
	}
	switch typ {
	case "Title":
		return roleTitle, true
	case "LI", "Lbl", "LBody":
		return roleListItem, true
	case "Note", "FENote":
		return roleNote, true
	case "BibEntry":
		return roleReference, true
	case "Formula":
		return roleFormula, true
	case "Table", "TR", "TH", "TD", "THead", "TBody", "TFoot":
		return roleTable, true
	case "Figure":
		return roleFigure, true
	case "Caption":
		return roleCaption, true
	}
	return roleNone, false
}

// tagRole returns the role of element e: its own type's, else its nearest
// ancestor's that decides one, else paragraph; and the element that
// decides it (-1 for paragraph).
func tagRole(t *pdf.Tags, e int) (role, int) {
	for i, depth := e, 0; i >= 0 && i < len(t.Elements) && depth < 64; i, depth = t.Elements[i].Parent, depth+1 {
		if r, ok := typeRole(t.Elements[i].Type); ok {
			return r, i
		}
	}
	return roleParagraph, -1
}

// tagged is the structure tree's reading of one block.
type tagged struct {
	role     role
	element  int     // the element deciding the role that draws most of the block; -1 for none
	coverage float64 // share of the block's characters in elements of this role
	page     *pdf.Page
}

// blockTags reads, for every block of a tagged page, the role of the
// elements that draw most of its characters. Characters are given to the
// line whose box holds the centre of their glyph box.
func blockTags(p *Page, src *pdf.Page) map[*Block]tagged {
	t := src.Tags
	if t == nil || len(t.Of) != len(src.Chars) {
		return nil
	}
	type where struct {
		b *Block
		l *Line
	}
	var lines []where
	for _, b := range p.Blocks {
		for _, l := range b.Lines {
			lines = append(lines, where{b, l})
		}
	}
	type tally struct {
		total int
		roles map[role]int
		elems map[int]int
	}
	count := map[*Block]*tally{}
	for i, c := range src.Chars {
		if c.Generated || c.Rune == 0 || isSpace(c.Rune) {
			continue
		}
		cx, cy := (c.Box.X0+c.Box.X1)/2, (c.Box.Y0+c.Box.Y1)/2
		for _, w := range lines {
			bx := w.l.Box
			if cx < bx.X0-0.5 || cx > bx.X1+0.5 || cy < bx.Y0-0.5 || cy > bx.Y1+0.5 {
				continue
			}
			tl := count[w.b]
			if tl == nil {
				tl = &tally{roles: map[role]int{}, elems: map[int]int{}}
				count[w.b] = tl
			}
			tl.total++
			if e := t.Of[i]; e >= 0 {
				r, h := tagRole(t, int(e))
				tl.roles[r]++
				if h >= 0 {
					tl.elems[h]++
				}
			}
			break
		}
	}
	out := map[*Block]tagged{}
	for b, tl := range count {
		best, n := roleNone, 0
		for r, k := range tl.roles {
			if k > n || k == n && r < best {
				best, n = r, k
			}
		}
		h, hn := -1, 0
		for e, k := range tl.elems {
			if r, _ := tagRole(t, e); r != best {
				continue
			}
			if k > hn || k == hn && e < h {
				h, hn = e, k
			}
		}
		out[b] = tagged{role: best, element: h, coverage: float64(n) / float64(max(tl.total, 1)), page: src}
	}
	return out
}

// Thresholds of the trust rule for a structure tree (applyTags).
const (
	tagCovered      = 0.8 // share of a block's characters in one role for the role to count
	tagBodyCovered  = 0.5 // share of the body blocks of tagged pages that must be covered
	tagHeadingLines = 3   // a tagged heading has at most this many lines …
	tagHeadingWords = 25  // … and words
)

// applyTags uses the structure tree of tagged pages (pdf.Page.Tags) where
// it can be trusted; it runs after the typographic passes and changes
// only what the tree says better. pages are the pdf pages out was laid
// out from; outlined is true when the outline placed the sections (the
// outline then governs the headings and the tree only types blocks).
//
// The trust rule, for headings (sections from the tree):
//
//   - a block is tagged with a role when at least 80 % of its characters
//     are drawn by elements of that role (an element's role is its
//     structure type's, else its nearest ancestor's: a P in a table cell is
//     table text);
//   - a heading-tagged block (H, H1–H6) must look like a heading: at most
//     three lines and 25 words, not a float's text; the tree's headings
//     are used only when at least half the body blocks of the tagged pages
//     are tagged, at most a tenth of its heading-tagged blocks fail that
//     test and at most half of the tagged blocks are headings (a tree that
//     tags paragraphs as headings is ignored);
//   - then every accepted heading becomes a heading that opens a section
//     at its level (Hn: n; H: its depth among Sect/Part/Art/Chapter
//     ancestors), levels renumbered so the top one is 1; a single heading
//     of the top level on the first page, before all others, with headings
//     below it, is the document's title (a heading, no section) as word
//     processors tag it, and so is a Title element;
//   - a block that typography took for a heading but the tree tags as
//     running text goes back to a paragraph, unless any such block names a
//     section ("2 Methods", "References"): a tree that tags headings as P
//     does not overrule typography.
//
// On a page whose blocks the tree mostly tags (at least three, and half),
// a paragraph or heading of at most two lines none of whose characters is
// tagged, above (below) every other block in the top (bottom) furniture
// zone, is a PageHeader (PageFooter): tagged PDFs mark running heads and
// page numbers as artifacts, outside the tree.
//
// Whatever the headings, on tagged pages a paragraph that the tree tags
// (80 %) as a list item (LI, Lbl, LBody), a note, a bibliography entry or
// a formula becomes a ListItem, Footnote, Reference or Equation, and an
// equation tagged as a formula takes the element's /ActualText (else /Alt)
// as its Alt, white space collapsed. Tags never change text, split or
// join blocks, or touch furniture and floats.
func applyTags(out []*Page, pages []*pdf.Page, outlined bool) {
	if len(out) != len(pages) {
		return
	}
	type head struct {
		p     int
		b     *Block
		tg    tagged
		level int
	}
	var heads []head
	var demote []*Block
	rejected, body, covered := 0, 0, 0
	treeMissesHeadings := false
	any := false
	for i, p := range out {
		tags := blockTags(p, pages[i])
		if tags == nil {
			continue
		}
		any = true
		var untagged []*Block
		pageBody, pageCovered := 0, 0
		for _, b := range p.Blocks {
			if b.Kind.Furniture() {
				continue
			}
			tg, ok := tags[b]
			if !ok {
				continue
			}
			body++
			pageBody++
			if tg.role == roleNone {
				untagged = append(untagged, b)
			}
			if tg.coverage < tagCovered {
				continue
			}
			covered++
			pageCovered++
			switch tg.role {
			case roleHeading, roleTitle:
				words := len(strings.Fields(b.Text()))
				if (b.Kind != Paragraph && b.Kind != Heading) || len(b.Lines) > tagHeadingLines || words > tagHeadingWords {
					rejected++
					continue
				}
				heads = append(heads, head{p: i, b: b, tg: tg})
			case roleListItem:
				if b.Kind == Paragraph {
					b.Kind = ListItem
				}
			case roleNote:
				if b.Kind == Paragraph {
					b.Kind = Footnote
				}
			case roleReference:
				if b.Kind == Paragraph {
					b.Kind = Reference
				}
			case roleFormula:
				if b.Kind == Paragraph {
					b.Kind = Equation
				}
				if b.Kind == Equation && tg.element >= 0 {
					el := tg.page.Tags.Elements[tg.element]
					alt := el.ActualText
					if alt == "" {
						alt = el.Alt
					}
					b.Alt = strings.Join(strings.Fields(alt), " ")
				}
			default:
				if b.Kind == Heading {
					demote = append(demote, b)
					if sectionLike(b.Text()) {
						treeMissesHeadings = true
					}
				}
			}
		}
		// Artifacts: on a page the tree covers, a short block of running
		// text none of whose characters is tagged, above or below all
		// other text in the top or bottom furniture zone, is a running
		// head or foot (tagged PDFs mark these /Artifact).
		if pageCovered >= 3 && pageCovered*2 >= pageBody {
			for _, b := range untagged {
				if b.Rotated || len(b.Lines) > 2 || b.Kind != Paragraph && b.Kind != Heading {
					continue
				}
				switch z := zone(p, b.Box, blockQuarter(b)); {
				case z == 0 && clearOf(p, b, z):
					b.Kind, b.Section = PageHeader, nil
				case z == 1 && clearOf(p, b, z):
					b.Kind, b.Section = PageFooter, nil
				}
			}
		}
	}
	tagHeads := len(heads) + rejected
	if !any || outlined || len(heads) == 0 || rejected*10 > tagHeads || tagHeads*2 > covered || covered*2 < body {
		return
	}
	// Levels: Hn's n; H's depth among sectioning ancestors.
	for k := range heads {
		h := &heads[k]
		t := h.tg.page.Tags
		if h.tg.role == roleTitle || h.tg.element < 0 {
			continue
		}
		typ := t.Elements[h.tg.element].Type
		if l := pdf.Level(typ); l > 0 {
			h.level = l
			continue
		}
		depth := 0
		for e, n := t.Elements[h.tg.element].Parent, 0; e >= 0 && n < 64; e, n = t.Elements[e].Parent, n+1 {
			switch t.Elements[e].Type {
			case "Sect", "Part", "Art", "Chapter":
				depth++
			}
		}
		h.level = max(depth, 1)
	}
	top, atTop := 0, 0
	for _, h := range heads {
		if h.level > 0 && (top == 0 || h.level < top) {
			top = h.level
		}
	}
	for _, h := range heads {
		if h.level == top {
			atTop++
		}
	}
	title := -1
	if len(heads) > 1 && heads[0].p == 0 && heads[0].level == top && atTop == 1 {
		title = 0
	}
	next := 0 // the top level once the title is set aside
	for k, h := range heads {
		if k != title && h.level > 0 && (next == 0 || h.level < next) {
			next = h.level
		}
	}
	for k, h := range heads {
		h.b.Kind = Heading
		if k == title || h.level == 0 {
			h.b.Section = nil
			continue
		}
		h.b.Section = &Section{Title: strings.Join(strings.Fields(h.b.Text()), " "), Level: h.level - next + 1}
	}
	if !treeMissesHeadings {
		for _, b := range demote {
			b.Kind, b.Section = Paragraph, nil
		}
	}
}
