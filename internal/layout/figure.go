package layout

import (
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/crossmem/crossmem/internal/pdf"
)

// Float is a figure, a table or a captioned code listing of a page: its
// region, the text drawn inside it and its caption.
type Float struct {
	// Kind is Figure, Table or Code (a listing or algorithm that a caption
	// names).
	Kind Kind
	// Box is the region: PDF points, origin bottom-left of the CropBox,
	// like a block's. For a figure, the graphics and the text drawn among
	// them (labels, legends, axis titles), without the caption.
	Box pdf.Rect
	// Text is the block of the text drawn inside the float (FigureText,
	// TableText, or the Code block of a listing); nil when it holds none
	// (an image without labels).
	Text *Block
	// Caption is the caption block (Figure, Table or Caption) linked to
	// the float; nil when none was found. It may be on the page before or
	// after the float's (a full-page figure).
	Caption *Block
	// CaptionPage is the page number of the caption; 0 when none.
	CaptionPage int
	// Rotated is true for a float found among text of another orientation
	// than the page's main one (a turned table).
	Rotated bool
	// Cells are a table's cells, row by row, left to right: each cell the
	// verbatim text of its lines, joined by one space, "" for an empty
	// cell. Every row has the same number of cells. Nil for figures.
	Cells [][]string
	// src is what a table's cells are read from (table.go).
	src *tableSource
}

// addFloats adds the floats of one orientation's frame to a page's: the
// main frame's all; another frame's only those holding text (its lines
// are what the frame was analysed for) and not found already.
func addFloats(have, found []*Float, main bool) []*Float {
	for _, f := range found {
		if !main && f.Text == nil {
			continue
		}
		dup := false
		for _, h := range have {
			if iou(h.Box, f.Box) > 0.5 {
				dup = true
				break
			}
		}
		if !dup {
			have = append(have, f)
		}
	}
	return have
}

// iou is the intersection over union of two boxes.
func iou(a, b pdf.Rect) float64 {
	x := a.Intersect(b)
	if x == (pdf.Rect{}) {
		return 0
	}
	i := x.Width() * x.Height()
	u := a.Width()*a.Height() + b.Width()*b.Height() - i
	if u <= 0 {
		return 0
	}
	return i / u
}

// linkFloats links captions to their floats, page by page, after the
// document passes (a float whose text lines all turned out to be
// furniture keeps its region):
//
//   - a float's text block is the block that still points to it;
//   - a caption is linked to the nearest unlinked float of its kind (a
//     figure caption to a figure, a table caption to a table, either to
//     the other when its own kind is missing; a listing's caption to the
//     code block or float next to it) that overlaps it horizontally, one
//     above the other, with no running text between them; a figure's
//     caption is looked for below it first, a table's above;
//   - a caption without a float on its page takes the unlinked float of
//     its kind on the previous or next page (a full-page figure);
//   - a caption of an example that links to nothing is a paragraph again;
//   - the cells of every table are read (tableCells).
func linkFloats(pages []*Page, st Stats) {
	for _, p := range pages {
		// Text blocks: the blocks pointing at a float. A block of another
		// orientation may point at its frame's copy of a float the page
		// kept from the main frame (addFloats): it points at the kept one.
		for _, f := range p.Floats {
			f.Text = nil
		}
		for _, b := range p.Blocks {
			if b.Float == nil || slices.Contains(p.Floats, b.Float) || isCaption(b.Kind) {
				continue
			}
			var same *Float
			for _, f := range p.Floats {
				if f.Kind == b.Float.Kind && iou(f.Box, b.Float.Box) > 0.5 {
					same = f
					break
				}
			}
			if same != nil {
				b.Float = same
			}
		}
		for _, b := range p.Blocks {
			if b.Float != nil && (b.Kind == TableText || b.Kind == FigureText) {
				b.Float.Text = b
			}
			if isCaption(b.Kind) {
				b.Float = nil
			}
		}
		sort.SliceStable(p.Floats, func(i, j int) bool { return p.Floats[i].Box.Y1 > p.Floats[j].Box.Y1 })
	}
	// The pairs of each page's captions and floats, and the side the
	// document sets its captions of each kind on: the side of the floats
	// of the captions that have floats on one side only (a figure's
	// caption below it and a table's above it when no caption tells).
	all := make([][]candidate, len(pages))
	votes := map[Kind]int{}
	for pi, p := range pages {
		for _, b := range p.Blocks {
			if !isCaption(b.Kind) {
				continue
			}
			cs := candidates(p, b, st)
			all[pi] = append(all[pi], cs...)
			side := 0
			for _, c := range cs {
				if c.f.Kind != b.Kind || c.side == 0 || side != 0 && c.side != side {
					side = 0
					break
				}
				side = c.side
			}
			votes[b.Kind] += side
		}
	}
	floatSide := map[Kind]int{Figure: 1, Table: -1}
	for k, v := range votes {
		if v > 0 {
			floatSide[k] = 1
		} else if v < 0 {
			floatSide[k] = -1
		}
	}
	var pending []*captionAt
	for pi, p := range pages {
		// Closest first: a caption between two floats takes the one on
		// its kind's side unless that one's own caption is closer to it.
		cs := all[pi]
		for i := range cs {
			c := &cs[i]
			c.score = c.gap
			if c.side != 0 && c.side != floatSide[c.caption.Kind] && c.caption.Kind != Caption {
				c.score += 3 * st.BodySize
			}
			if c.f.Kind != c.caption.Kind && c.caption.Kind != Caption {
				c.score += 6 * st.BodySize
			}
		}
		sort.SliceStable(cs, func(i, j int) bool { return cs[i].score < cs[j].score })
		for _, c := range cs {
			if c.caption.Float != nil || c.f.Caption != nil || c.f.Text != nil && c.f.Kind == Code && c.f.Text.Float != nil {
				continue
			}
			if c.f.Kind == Code && c.f.Text != nil {
				c.f.Text.Float = c.f
				p.Floats = append(p.Floats, c.f)
			}
			link(c.f, c.caption, p.Number)
		}
		for _, b := range p.Blocks {
			if isCaption(b.Kind) && b.Float == nil {
				pending = append(pending, &captionAt{b, pi})
			}
		}
	}
	// The size the document sets its captions in: the median of the
	// linked ones'.
	var sizes []float64
	for _, p := range pages {
		for _, b := range p.Blocks {
			if isCaption(b.Kind) && b.Float != nil {
				sizes = append(sizes, b.Size())
			}
		}
	}
	captionSize := 0.0
	if len(sizes) > 0 {
		sort.Float64s(sizes)
		captionSize = sizes[len(sizes)/2]
	}
	// Captions of full-page floats: the unlinked float of the adjacent
	// page. A caption that opens its page, of a kind set below its floats,
	// names the float that ends the page before (a page break between a
	// table and its caption), and one that closes its page, of a kind set
	// above, the float that opens the next.
	for _, c := range pending {
		acrossBreak(pages, c, floatSide[c.b.Kind])
		for _, d := range []int{-1, 1} {
			q := c.page + d
			if q < 0 || q >= len(pages) || c.b.Float != nil {
				continue
			}
			var best *Float
			for _, f := range pages[q].Floats {
				if f.Caption == nil && kindFits(c.b.Kind, f.Kind) && (best == nil || f.Box.Width()*f.Box.Height() > best.Box.Width()*best.Box.Height()) {
					best = f
				}
			}
			if best != nil && best.Box.Width()*best.Box.Height() > 0.25*pages[q].Width*pages[q].Height {
				link(best, c.b, pages[c.page].Number)
			}
		}
		if c.b.Float == nil && c.b.Kind == Figure {
			vouchedFloat(pages[c.page], c.b, floatSide[Figure], st)
		}
		if c.b.Float == nil && c.b.Kind == Caption && !strings.HasPrefix(strings.ToLower(c.b.Label), "listing") && !strings.HasPrefix(strings.ToLower(c.b.Label), "algorithm") {
			c.b.Kind, c.b.Label = Paragraph, ""
		}
		// A block set in another size than the document's captions that
		// goes on with the sentence the text before it breaks off ("…
		// are given in" | "Table 4. On average, …", the first line of a
		// column) is running text whose line happens to open with a
		// reference: a caption never continues a sentence.
		if c.b.Float == nil && (c.b.Kind == Figure || c.b.Kind == Table) && captionSize > 0 && math.Abs(c.b.Size()-captionSize) > 0.05*captionSize && breaksOff(pages, c) {
			c.b.Kind, c.b.Label = Paragraph, ""
		}
	}
	dropDecoration(pages)
	for _, p := range pages {
		equationLabels(p)
		for _, f := range p.Floats {
			if f.Kind != Table || f.Text == nil {
				f.Cells = nil
			}
		}
	}
}

// dropDecoration removes the page decoration from the floats: a figure
// with neither text nor caption drawn at the same place (within 2
// points) on three pages or more (two in a document of four pages or
// fewer, as furniture) is a running element of the page (a frame or an
// image behind the page number, a publisher's logo), not a figure of the
// content. The bare figures are indexed by their lower-left corner in a
// grid of 2-point cells, so each is compared only with those in its own
// and the eight neighbouring cells (corners within 2 points are at most
// one cell apart), not with every float of the document.
func dropDecoration(pages []*Page) {
	minRepeat := 3
	if len(pages) <= 4 {
		minRepeat = 2
	}
	bare := func(f *Float) bool { return f.Kind == Figure && f.Text == nil && f.Caption == nil }
	type placed struct {
		f    *Float
		page int
	}
	cellOf := func(r pdf.Rect) [2]int64 { return [2]int64{int64(math.Floor(r.X0 / 2)), int64(math.Floor(r.Y0 / 2))} }
	grid := map[[2]int64][]placed{}
	for i, p := range pages {
		for _, f := range p.Floats {
			if bare(f) {
				c := cellOf(f.Box)
				grid[c] = append(grid[c], placed{f, i})
			}
		}
	}
	drop := map[*Float]bool{}
	for _, p := range pages {
		for _, f := range p.Floats {
			if !bare(f) {
				continue
			}
			var seen []int // pages with a bare figure at f's place
			c := cellOf(f.Box)
		cells:
			for d := range 9 { // the cells c+{-1,0,1}²
				n := [2]int64{c[0] + int64(d%3) - 1, c[1] + int64(d/3) - 1}
				for _, g := range grid[n] {
					if slices.Contains(seen, g.page) {
						continue
					}
					if math.Abs(g.f.Box.X0-f.Box.X0) <= 2 && math.Abs(g.f.Box.X1-f.Box.X1) <= 2 && math.Abs(g.f.Box.Y0-f.Box.Y0) <= 2 && math.Abs(g.f.Box.Y1-f.Box.Y1) <= 2 {
						if seen = append(seen, g.page); len(seen) >= minRepeat {
							break cells
						}
					}
				}
			}
			drop[f] = len(seen) >= minRepeat
		}
	}
	for _, p := range pages {
		p.Floats = slices.DeleteFunc(p.Floats, func(f *Float) bool { return drop[f] })
	}
}

// vouchedFloat makes a figure of the blocks that figure caption b, which
// found no float, captions: a figure's caption vouches for a figure next
// to it, and a figure of text (a table of words or symbols captioned as a
// figure, a diagram of text) is read as equations and short paragraphs.
// The blocks are the ones beside the caption on the side the document
// sets figures (side: 1 above the caption, -1 below; then the other
// side), across its width, one after the other from the caption outwards
// less than two body lines apart (the first within the distance a float
// may be from its caption), that are paragraphs, equations or code and
// not running text (a paragraph of two lines or more, one of them prose,
// in the body's type or larger) nor a numbered display; at least two
// lines in all. They become
// one FigureText block of a new figure linked to b.
func vouchedFloat(p *Page, b *Block, side int, st Stats) {
	q := 0
	if len(b.Lines) > 0 {
		q = b.Lines[0].quarter
	}
	bb := rotateRect(b.Box, q)
	prevOf := map[*Block]bool{}
	for _, o := range p.Blocks {
		if o.Prev != nil {
			prevOf[o.Prev] = true
		}
	}
	for _, s := range []int{side, -side} {
		var near []*Block
		for _, o := range p.Blocks {
			ob := rotateRect(o.Box, q)
			if o == b || o.Kind.Furniture() || o.Rotated != b.Rotated || math.Min(ob.X1, bb.X1)-math.Max(ob.X0, bb.X0) < 0.3*math.Min(ob.Width(), bb.Width()) {
				continue
			}
			if s > 0 && ob.Y0 >= bb.Y1-1 || s < 0 && ob.Y1 <= bb.Y0+1 {
				near = append(near, o)
			}
		}
		dist := func(o *Block) float64 {
			ob := rotateRect(o.Box, q)
			if s > 0 {
				return ob.Y0 - bb.Y1
			}
			return bb.Y0 - ob.Y1
		}
		sort.SliceStable(near, func(i, j int) bool { return dist(near[i]) < dist(near[j]) })
		var took []*Block
		edge, limit := 0.0, math.Max(6*st.BodySize, 0.15*math.Max(p.Height, p.Width))
		for _, o := range near {
			if d := dist(o); d-edge > limit {
				break
			}
			running := o.Kind == Paragraph && len(o.Lines) >= 2 && anyProse(o) && o.Size() >= 0.95*st.BodySize
			if o.Kind != Paragraph && o.Kind != Equation && o.Kind != Code || running || numbered(o) || o.Float != nil || o.Continues || o.Prev != nil || prevOf[o] {
				break
			}
			took = append(took, o)
			ob := rotateRect(o.Box, q)
			if s > 0 {
				edge = ob.Y1 - bb.Y1
			} else {
				edge = bb.Y0 - ob.Y0
			}
			limit = 2 * st.BodySize
		}
		var lines []*Line
		for _, o := range took {
			lines = append(lines, o.Lines...)
		}
		if len(lines) < 2 {
			continue
		}
		sortLinesTopDown(lines)
		text := newBlock(FigureText, lines)
		text.Section, text.Rotated = took[0].Section, b.Rotated
		f := &Float{Kind: Figure, Box: text.Box, Text: text, Rotated: b.Rotated}
		text.Float = f
		var kept []*Block
		placed := false
		for _, o := range p.Blocks {
			if !slices.Contains(took, o) {
				kept = append(kept, o)
			} else if !placed {
				kept, placed = append(kept, text), true
			}
		}
		p.Blocks = kept
		p.Floats = append(p.Floats, f)
		link(f, b, p.Number)
		return
	}
}

// acrossBreak links caption c to the float a page break parted it from:
// when c is the first block of its page's body and its kind's floats are
// set above their captions (side 1), the unlinked float of the page
// before that nothing of the body follows in its column, the last such in
// reading order (rightmost; one of the caption's kind first); when c is
// the last block and floats are set below (side -1), the first such float
// of the next page that nothing precedes in its column.
func acrossBreak(pages []*Page, c *captionAt, side int) {
	if side == 0 {
		return // the kind's side is unknown (a Listing or Algorithm caption): no page break to cross
	}
	p := pages[c.page]
	var body []*Block
	for _, b := range p.Blocks {
		if !b.Kind.Furniture() {
			body = append(body, b)
		}
	}
	q := c.page - side
	if len(body) == 0 || q < 0 || q >= len(pages) || c.b.Rotated ||
		side == 1 && body[0] != c.b || side == -1 && body[len(body)-1] != c.b {
		return
	}
	var best *Float
	for _, f := range pages[q].Floats {
		if f.Caption != nil || f.Rotated || !kindFits(c.b.Kind, f.Kind) {
			continue
		}
		clear := true
		for _, b := range pages[q].Blocks {
			if b.Kind.Furniture() || b.Float != nil || b == f.Text || b.Box.X1 <= f.Box.X0 || b.Box.X0 >= f.Box.X1 {
				continue
			}
			if side == 1 && b.Box.Y1 <= f.Box.Y0 || side == -1 && b.Box.Y0 >= f.Box.Y1 {
				clear = false
				break
			}
		}
		if !clear {
			continue
		}
		if best == nil || (f.Kind == c.b.Kind) != (best.Kind == c.b.Kind) && f.Kind == c.b.Kind ||
			(f.Kind == c.b.Kind) == (best.Kind == c.b.Kind) && (side == 1 && f.Box.X0 > best.Box.X0 || side == -1 && f.Box.X0 < best.Box.X0) {
			best = f
		}
	}
	if best != nil {
		link(best, c.b, p.Number)
	}
}

// numbered reports whether a line of b ends with an equation number
// ("(3)"): a numbered display is the document's, never a figure's text.
func numbered(b *Block) bool {
	for _, l := range b.Lines {
		f := strings.Fields(l.Text)
		if len(f) > 0 && eqNumber.MatchString(f[len(f)-1]) {
			return true
		}
	}
	return false
}

// breaksOff reports whether the running text before caption c (in
// reading order, on its page or at the end of the page before) ends in
// the middle of a sentence: with a lower-case letter, a comma or a
// hyphen.
func breaksOff(pages []*Page, c *captionAt) bool {
	for pi := c.page; pi >= 0 && pi >= c.page-1; pi-- {
		bs := pages[pi].Blocks
		i := len(bs) - 1
		if pi == c.page {
			i = slices.Index(bs, c.b) - 1
		}
		for ; i >= 0; i-- {
			o := bs[i]
			if o.Kind.Furniture() || o.Float != nil || isCaption(o.Kind) || o.Rotated || o.Kind == FigureText || o.Kind == TableText {
				continue
			}
			if o.Kind != Paragraph && o.Kind != ListItem || len(o.Lines) == 0 {
				return false
			}
			t := []rune(strings.TrimSpace(o.Lines[len(o.Lines)-1].Text))
			if len(t) == 0 {
				return false
			}
			r := t[len(t)-1]
			return unicode.IsLower(r) || r == ',' || r == '-'
		}
	}
	return false
}

type captionAt struct {
	b    *Block
	page int
}

func link(f *Float, caption *Block, page int) {
	f.Caption, f.CaptionPage = caption, page
	caption.Float = f
}

// kindFits reports whether a caption of kind c may caption a float of
// kind f.
func kindFits(c, f Kind) bool {
	switch c {
	case Figure, Table:
		return f == Figure || f == Table
	}
	return true
}

// candidate is a float that a caption may name: the distance between
// them (points), the side the float is on (1 above the caption, -1 below,
// 0 around it) and the score linkFloats ranks it by.
type candidate struct {
	caption    *Block
	f          *Float
	gap, score float64
	side       int
}

// candidates returns the floats on p that caption b may name (see
// linkFloats). A listing's caption may name the code block next to it (a
// Code float, not yet on the page). Boxes are compared in the caption's
// frame: a caption turned with its table is above the table in the
// table's reading direction.
func candidates(p *Page, b *Block, st Stats) []candidate {
	q := 0
	if len(b.Lines) > 0 {
		q = b.Lines[0].quarter
	}
	bb := rotateRect(b.Box, q)
	var out []candidate
	consider := func(f *Float, page pdf.Rect) {
		box := rotateRect(page, q)
		ov := math.Min(box.X1, bb.X1) - math.Max(box.X0, bb.X0)
		if ov < 0.3*math.Min(box.Width(), bb.Width()) {
			// A caption set beside its float (a narrow side caption): all
			// of its height within the float's, less than three body
			// lines off its side, nothing between them; ranked after the
			// floats above and below (three body lines added).
			hgap := math.Max(box.X0-bb.X1, bb.X0-box.X1)
			if hgap < 0 || hgap > 3*st.BodySize || bb.Y0 < box.Y0-st.BodySize || bb.Y1 > box.Y1+st.BodySize {
				return
			}
			x0, x1 := math.Min(box.X1, bb.X1), math.Max(box.X0, bb.X0)
			for _, o := range p.Blocks {
				ob := rotateRect(o.Box, q)
				if o != b && o != f.Text && !o.Kind.Furniture() && ob.X0 >= x0-1 && ob.X1 <= x1+1 && ob.Y1 > bb.Y0 && ob.Y0 < bb.Y1 {
					return
				}
			}
			out = append(out, candidate{caption: b, f: f, gap: hgap + 3*st.BodySize})
			return
		}
		var gap float64
		floatBelow := box.Y1 <= bb.Y0+0.5*b.Size()
		floatAbove := box.Y0 >= bb.Y1-0.5*b.Size()
		switch {
		case floatBelow:
			gap = bb.Y0 - box.Y1
		case floatAbove:
			gap = box.Y0 - bb.Y1
		default:
			// The caption inside the float's box (a caption set beside a
			// figure, or a region grown over it).
			gap = 0
		}
		if gap < 0 {
			gap = 0
		}
		limit := math.Max(6*st.BodySize, 0.15*math.Max(p.Height, p.Width))
		if gap > limit {
			return
		}
		if blockedBy(p, b, page, q) {
			return
		}
		side := 0
		if floatAbove {
			side = 1
		} else if floatBelow {
			side = -1
		}
		out = append(out, candidate{caption: b, f: f, gap: gap, side: side})
	}
	for _, f := range p.Floats {
		if f.Caption != nil || f.Rotated != b.Rotated || !kindFits(b.Kind, f.Kind) {
			continue
		}
		consider(f, f.Box)
	}
	// A listing's caption names the code block (or the display) next to
	// it; a figure's or table's may too (a program or a grammar shown as
	// "Figure 3"), when no float of its kind is closer.
	for _, c := range p.Blocks {
		if c.Float != nil || c.Kind != Code && c.Kind != Equation {
			continue
		}
		if cb := rotateRect(c.Box, q); b.Kind != Caption && ((cb.X0+cb.X1)/2 < bb.X0 || (cb.X0+cb.X1)/2 > bb.X1) {
			continue // under another column's figure caption
		}
		consider(&Float{Kind: Code, Box: c.Box, Text: c}, c.Box)
	}
	return out
}

// blockedBy reports whether running text (a paragraph of two lines or
// more, one of them prose, a list item or a heading) lies between caption b and box, one above
// the other in frame q (boxes in page coordinates).
func blockedBy(p *Page, b *Block, box pdf.Rect, q int) bool {
	box, bb := rotateRect(box, q), rotateRect(b.Box, q)
	var top, bottom float64
	if box.Y0 >= bb.Y1 {
		top, bottom = box.Y0, bb.Y1
	} else if box.Y1 <= bb.Y0 {
		top, bottom = bb.Y0, box.Y1
	} else {
		return false
	}
	x0, x1 := math.Max(box.X0, bb.X0), math.Min(box.X1, bb.X1)
	for _, o := range p.Blocks {
		if o == b || o.Float != nil || o.Kind.Furniture() {
			continue
		}
		if !(o.Kind == Paragraph && len(o.Lines) >= 2 && anyProse(o) || o.Kind == ListItem || o.Kind == Heading) {
			continue
		}
		ob := rotateRect(o.Box, q)
		if ob.Y0 >= bottom-1 && ob.Y1 <= top+1 && ob.X1 > x0 && ob.X0 < x1 {
			return true
		}
	}
	return false
}

// anyProse reports whether a line of b reads as running text (prose).
func anyProse(b *Block) bool {
	for _, l := range b.Lines {
		if prose(l) {
			return true
		}
	}
	return false
}

// DebugFloats, when set, receives the float finder's decisions (a
// development aid).
var DebugFloats = &debugFloats
