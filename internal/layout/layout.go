// Package layout turns the characters of a PDF page into text blocks in
// reading order: lines, then regions (runs of lines in one column), then
// paragraphs and headings, ordered column by column.
//
// It is pure: it takes a *pdf.Page and returns values, with no I/O. The
// content-stream order pdfium reports is used as a hint for which lines
// belong together, but the order of regions on the page is decided
// geometrically (see order.go), so multi-column pages come out column by
// column even when a PDF producer wrote them in another order.
//
// Text policy: a block's text is its lines joined by "\n"; a line is its
// characters in content-stream order with whitespace runs collapsed to one
// space and trimmed, line-end hyphens kept as "-", separately drawn accents
// attached to their letters, and word gaps, letter spacing, duplicates and
// interleaved drawing passes resolved. docs/wiki-format.md ("The text
// policy") is the complete, normative list; every rule is implemented in
// this package (line.go, accent.go, rotate.go).
package layout

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/crossmem/crossmem/internal/pdf"
)

// Kind classifies a block.
type Kind string

// Block kinds.
const (
	Paragraph Kind = "paragraph"
	Heading   Kind = "heading"
	Figure    Kind = "figure"    // a figure caption ("Figure 3: ...")
	Table     Kind = "table"     // a table caption ("Table 2: ...")
	ListItem  Kind = "list_item" // one item of a bulleted or numbered list
	// TableText is the text of a table's cells, row by row, left to right;
	// FigureText the text drawn inside a figure (axis labels, legends,
	// the labels of a diagram). Neither is running text, a heading or a
	// section (see findFloats).
	TableText  Kind = "table_text"
	FigureText Kind = "figure_text"
	// Equation is a display equation (its number included when set beside
	// it); Code a code listing (see mathAndCode).
	Equation  Kind = "equation"
	Code      Kind = "code"
	Footnote  Kind = "footnote"  // a footnote at the foot of a page
	Reference Kind = "reference" // one entry of a bibliography
	// PageHeader, PageFooter and MarginNote are page furniture: running
	// heads, page numbers, journal banners and stamps at the top, at the
	// bottom or in a side margin of the page (text set up the margin, such
	// as the arXiv identifier), found by position and repetition across
	// pages (see Document).
	PageHeader Kind = "page_header"
	PageFooter Kind = "page_footer"
	MarginNote Kind = "margin_note"
)

// Furniture reports whether k is page furniture (PageHeader, PageFooter,
// MarginNote): never a section, left out of search by default.
func (k Kind) Furniture() bool { return k == PageHeader || k == PageFooter || k == MarginNote }

// Block is a paragraph, heading, caption, list item, footnote, reference
// or piece of furniture: one or more lines in reading order.
type Block struct {
	Kind  Kind
	Lines []*Line
	// Box covers all lines, PDF points, origin bottom-left of the CropBox.
	Box pdf.Rect
	// Section is set on a block where a section begins: a heading, or a
	// paragraph that opens with a run-in heading named by the outline.
	Section *Section
	// Continues is true when the block continues the previous body block
	// of the document, from which a column or page break separates it (the
	// previous one ends mid-sentence, this one starts in lower case).
	Continues bool
	// Prev is the block Continues refers to (nil when Continues is false):
	// the previous body block in its font size, which may lie before a
	// footnote or another smaller block.
	Prev *Block
	// Rotated is true for text whose baseline is not the page's main
	// orientation (a margin stamp, a turned table).
	Rotated bool
	// Float is the figure or table this block belongs to: the float whose
	// text it is (TableText, FigureText) or whose caption it is (Figure,
	// Table, Caption); nil otherwise.
	Float *Float
	// Label is a caption's label as printed ("Figure 1-2", "Table IV",
	// "Listing 1"), or an equation's number ("(3)"); "" otherwise.
	Label string
	// Alt is what a tagged PDF's structure tree says an equation reads
	// (its Formula element's /ActualText, else /Alt; see applyTags): the
	// producer's description, never the block's text; "" otherwise.
	Alt string
}

// Section describes the section a block opens.
type Section struct {
	// Title is the heading's text on one line (a run-in heading's outline
	// title).
	Title string
	// Level is the depth: 1 for top-level sections, 2 for their
	// subsections, and so on.
	Level int
	// FromOutline is true when the PDF's outline names this section; false
	// for a heading found by typography alone.
	FromOutline bool
}

// Text returns the block's lines joined by "\n".
func (b *Block) Text() string {
	parts := make([]string, len(b.Lines))
	for i, l := range b.Lines {
		parts[i] = l.Text
	}
	return strings.Join(parts, "\n")
}

// Size returns the median font size of the block's lines.
func (b *Block) Size() float64 {
	s := make([]float64, len(b.Lines))
	for i, l := range b.Lines {
		s[i] = l.Size
	}
	return median(s)
}

// Page is the layout of one page.
type Page struct {
	Number int      // 1-based page number, as pdf.Page.Number
	Blocks []*Block // in reading order
	// Chars counts the characters with a Unicode value on the page.
	Chars int
	// Width and Height are the CropBox's, in points.
	Width, Height float64
	// Label is the printed page label the PDF declares ("46", "xii"); ""
	// when it declares none. Set by Document.
	Label string
	// Floats are the page's figures and tables, top to bottom (see
	// Float).
	Floats []*Float

	// fonts classifies the page's fonts (pdf.Page.Fonts), for lines
	// recomputed after layout (a run-in heading cut from its paragraph).
	fonts []fontFlags
}

// Stats holds document-wide measures that make per-page decisions
// consistent: the body font size, the body font weight and whether body
// text is bold.
type Stats struct {
	BodySize   float64 // points; 10 when the document has no sized letters
	BodyWeight int     // pdfium font weight of the most letters (400 regular, 700 bold); 0 when unknown
	BodyBold   bool    // most letters are set in a bold font
	BodyItalic bool    // most letters are set in an italic font
	// Leading is the document's own line pitch: the most common distance,
	// in points, between the baselines of consecutive rows of body-size
	// letters (about 1.2 × BodySize single-spaced, 2 × BodySize in a
	// double-spaced manuscript); 0 when too few rows show it.
	Leading float64
}

// DocumentStats measures the body font over all pages: the size and the
// weight that carry the most letters.
func DocumentStats(pages []*pdf.Page) Stats {
	sizes := map[int]int{}
	weights := map[int]int{}
	for _, p := range pages {
		for _, c := range p.Chars {
			if c.Size <= 0 || !unicode.IsLetter(c.Rune) {
				continue
			}
			sizes[int(math.Round(c.Size*2))]++
			if c.Font >= 0 && c.Font < len(p.Fonts) {
				weights[p.Fonts[c.Font].Weight]++
			}
		}
	}
	st := Stats{BodySize: float64(mode(sizes)) / 2, BodyWeight: mode(weights)}
	if st.BodySize == 0 {
		st.BodySize = 10
	}
	nameBold, italic, all := 0, 0, 0
	for _, p := range pages {
		bold := st.boldFonts(p.Fonts)
		for _, c := range p.Chars {
			if c.Font >= 0 && c.Font < len(bold) && unicode.IsLetter(c.Rune) {
				all++
				if bold[c.Font]&boldFont != 0 {
					nameBold++
				}
				if bold[c.Font]&italicFont != 0 {
					italic++
				}
			}
		}
	}
	st.BodyBold = nameBold*2 > all
	st.BodyItalic = italic*2 > all
	st.Leading = bodyLeading(pages, st.BodySize)
	return st
}

// bodyLeading returns the most common distance between consecutive rows
// of body-size letters (within 5 % of size) over the pages, in points: a
// row is a bottom edge, to the half point, that at least eight such
// letters share. Distances under 0.9 × size (two columns whose baselines
// do not line up) or over 3 × size are ignored; the distances are
// counted in half points with their neighbours (a pitch of 12.5 points
// shows as 12 and 13 once rounded), and the leading is the mean of those
// within half a point of the most common. It returns 0 when fewer than
// ten distances remain or the most common is not a third of them.
func bodyLeading(pages []*pdf.Page, size float64) float64 {
	hist := map[int]int{} // distance in half points
	var all []float64
	for _, p := range pages {
		rows := map[int]int{} // bottom edge in half points
		for _, c := range p.Chars {
			if c.Generated || !unicode.IsLetter(c.Rune) || math.Abs(c.Size-size) > 0.05*size || pdf.Quarter(c.Angle) != 0 {
				continue
			}
			rows[int(math.Round(c.Box.Y0*2))]++
		}
		var ys []int
		for y, n := range rows {
			if n >= 8 {
				ys = append(ys, y)
			}
		}
		slices.Sort(ys)
		for i := 1; i < len(ys); i++ {
			d := float64(ys[i]-ys[i-1]) / 2
			if d >= 0.9*size && d <= 3*size {
				hist[ys[i]-ys[i-1]]++
				all = append(all, d)
			}
		}
	}
	if len(all) < 10 {
		return 0
	}
	best, bestN := 0, 0
	for k := range hist {
		if n := hist[k-1] + hist[k] + hist[k+1]; n > bestN || n == bestN && k < best {
			best, bestN = k, n
		}
	}
	sum, n := 0.0, 0
	for _, d := range all {
		if math.Abs(d*2-float64(best)) <= 1 {
			sum += d
			n++
		}
	}
	if n*3 < len(all) {
		return 0
	}
	return sum / float64(n)
}

// maxPitch returns the largest distance between the baselines of two
// lines of size s for the second to continue the first's run of lines:
// 1.75 × s, or, for body-size lines of a document set with wide leading
// (a double-spaced manuscript, where a line pitch of twice the type size
// is the normal one), 1.1 × the document's leading: the document's own
// line pitch, not the extra space that sets a display or a new paragraph
// apart.
func (st Stats) maxPitch(s float64) float64 {
	lim := 1.75 * s
	if st.Leading > 0 && math.Abs(s-st.BodySize) <= 0.12*st.BodySize {
		lim = math.Max(lim, 1.1*st.Leading)
	}
	return lim
}

// mode returns the key with the largest count (the smallest key on ties).
func mode(m map[int]int) int {
	best, bestN := 0, 0
	for k, n := range m {
		if n > bestN || (n == bestN && k < best) {
			best, bestN = k, n
		}
	}
	return best
}

// fontFlags classifies a font: bold, math, monospaced.
type fontFlags uint8

const (
	boldFont fontFlags = 1 << iota
	mathFont
	monoFont
	italicFont
	smallCapsFont
	// weightBoldFont marks a bold font known by its weight alone, not its
	// name.
	weightBoldFont
)

var (
	mathFontName   = regexp.MustCompile(`(?i)cmmi|cmsy|cmex|msam|msbm|math|symbol|stix|eufm|eusm|rsfs|mtmi|mtsy|mtex|esint|wasy|lmmi|lmsy|txsy|txmi|pxsy|pxmi|euclid|cambria.?math`)
	italicFontName = regexp.MustCompile(`(?i)italic|oblique|-it$|\bit$|cmti|cmsl|sfti|ecti`)
	// smallCapsFontName: Computer Modern's caps and small caps (CMCSC),
	// the EC and cm-super ones (ECCC, SFCC), Latin Modern's (LMRomanCaps)
	// and names that say so ("…SmallCaps", "…-SC").
	smallCapsFontName = regexp.MustCompile(`(?i)cmcsc|eccc|sfcc|lmromancaps|smallcaps|small-caps|[-_]sc$`)
	monoFontName      = regexp.MustCompile(`(?i)mono|courier|consol|menlo|inconsolata|cmtt|sftt|lmtt|typewriter|code|fixed|andale|lucidaconsole`)
)

// boldFonts classifies each font: bold when its name says so or its
// weight is well above the body text's (pdfium's absolute weights are
// unreliable, relative ones within a document are usable); math when its
// name is a math or symbol font's; monospaced when its name says so or its
// descriptor has the FixedPitch flag (PDF 1.7 §9.8.2, bit 1); italic when
// its name says so or it has the Italic flag (bit 7).
func (st Stats) boldFonts(fonts []pdf.Font) []fontFlags {
	out := make([]fontFlags, len(fonts))
	for i, f := range fonts {
		if f.NameBold() {
			out[i] |= boldFont
		} else if st.BodyWeight > 0 && f.Weight >= st.BodyWeight+150 {
			out[i] |= boldFont | weightBoldFont
		}
		if mathFontName.MatchString(f.Name) {
			out[i] |= mathFont
		}
		if monoFontName.MatchString(f.Name) || f.Flags&1 != 0 && !mathFontName.MatchString(f.Name) {
			out[i] |= monoFont
		}
		if italicFontName.MatchString(f.Name) || f.Flags&64 != 0 {
			out[i] |= italicFont
		}
		if smallCapsFontName.MatchString(f.Name) || f.Flags&(1<<17) != 0 { // flag bit 18: SmallCap
			out[i] |= smallCapsFont
		}
	}
	return out
}

// monospacedByWidth returns the fonts of a page whose letters all advance
// by the same width (within 4 %), measured on at least twelve letters of
// at least six different shapes including a narrow one (i, l, I, j, t, f)
// and a wide one (m, w, M, W): a monospaced font whose name and flags do
// not say so.
func monospacedByWidth(p *pdf.Page) map[int]bool {
	type acc struct {
		lo, hi       float64
		n            int
		runes        map[rune]bool
		narrow, wide bool
	}
	fs := map[int]*acc{}
	for _, c := range p.Chars {
		if c.Font < 0 || c.Generated || c.Size <= 0 || !unicode.IsLetter(c.Rune) || c.Box.Width() <= 0 {
			continue
		}
		w := c.Box.Width() / c.Size
		if pdf.Quarter(c.Angle) != 0 {
			continue
		}
		a := fs[c.Font]
		if a == nil {
			a = &acc{lo: w, hi: w, runes: map[rune]bool{}}
			fs[c.Font] = a
		}
		a.lo, a.hi = math.Min(a.lo, w), math.Max(a.hi, w)
		a.n++
		a.runes[c.Rune] = true
		switch c.Rune {
		case 'i', 'l', 'I', 'j', 't', 'f':
			a.narrow = true
		case 'm', 'w', 'M', 'W':
			a.wide = true
		}
	}
	out := map[int]bool{}
	for f, a := range fs {
		if a.n >= 12 && len(a.runes) >= 6 && a.narrow && a.wide && a.hi <= 1.04*a.lo {
			out[f] = true
		}
	}
	return out
}

// isMathRune reports whether r is a mathematical symbol, a Greek letter,
// a mathematical alphanumeric symbol or one of the private-use code points
// U+F8E5–U+F8FE the Adobe Glyph List gives the pieces of big delimiters
// (parenlefttp … bracerightbt, radicalex, arrowvertex), which pdfium
// reports for glyphs so named.
func isMathRune(r rune) bool {
	return unicode.Is(unicode.Sm, r) || r >= 0x0391 && r <= 0x03F5 || r >= 0x1D400 && r <= 0x1D7FF || r >= 0xF8E5 && r <= 0xF8FE
}

// Analyze lays out one page.
func Analyze(p *pdf.Page, st Stats) *Page {
	out := &Page{Number: p.Number, Width: p.Width, Height: p.Height}
	for _, c := range p.Chars {
		if c.Rune != 0 && !c.Generated && !isSpace(c.Rune) {
			out.Chars++
		}
	}
	bold := st.boldFonts(p.Fonts)
	for f := range monospacedByWidth(p) {
		bold[f] |= monoFont
	}
	out.fonts = bold
	for gi, g := range orientations(p) {
		var gs []pdf.Graphic
		for _, x := range p.Graphics {
			x.Box = rotateRect(x.Box, g.quarter)
			gs = append(gs, x)
		}
		blocks, floats := analyzeFrame(g.chars, gs, bold, g.extent, st)
		for _, f := range floats {
			f.Box = g.back(f.Box)
			f.Rotated = gi > 0 && g.quarter != 0
			if f.src != nil {
				f.src.quarter = g.quarter
			}
		}
		out.Floats = addFloats(out.Floats, floats, gi == 0)
		for _, b := range blocks {
			b.Rotated = gi > 0 && g.quarter != 0
			b.Box = g.back(b.Box)
			for _, l := range b.Lines {
				l.Box = g.back(l.Box)
				l.quarter = g.quarter
			}
			if b.Kind == Paragraph {
				classify(b, st)
			}
		}
		out.Blocks = append(out.Blocks, blocks...)
	}
	// Rotated text in or right next to a table or figure of the main
	// orientation (a table's turned column heads) belongs to it, and so do
	// the short lines the float then covers (the head row's other cells).
	grown := map[*Block]bool{}
	for _, b := range out.Blocks {
		if !b.Rotated {
			continue
		}
		for _, f := range out.Blocks {
			if f.Rotated || f.Kind != TableText && f.Kind != FigureText {
				continue
			}
			gap := math.Max(b.Box.Y0-f.Box.Y1, f.Box.Y0-b.Box.Y1)
			gapX := math.Max(b.Box.X0-f.Box.X1, f.Box.X0-b.Box.X1)
			within := b.Box.X0 >= f.Box.X0-2 && b.Box.X1 <= f.Box.X1+2
			beside := gapX <= 2*st.BodySize && b.Box.Y0 >= f.Box.Y0-2 && b.Box.Y1 <= f.Box.Y1+2 // an axis title
			if gap <= 2*st.BodySize && within || beside {
				b.Kind, b.Float = f.Kind, f.Float
				f.Box = f.Box.Union(b.Box)
				if f.Float != nil {
					f.Float.Box = f.Float.Box.Union(b.Box)
					if s := f.Float.src; s != nil {
						s.turned = append(s.turned, b.Lines...)
					}
				}
				grown[f] = true
				break
			}
		}
	}
	if len(grown) > 0 {
		var keep []*Block
		for _, b := range out.Blocks {
			taken := false
			if !b.Rotated && (b.Kind == Paragraph || b.Kind == Heading) && len(b.Lines) <= 2 {
				for f := range grown {
					if x := b.Box.Intersect(f.Box); x.Width()*x.Height() >= 0.8*b.Box.Width()*b.Box.Height() {
						f.Lines = append(f.Lines, b.Lines...)
						if f.Float != nil && f.Float.src != nil {
							f.Float.src.lines = append(f.Float.src.lines, b.Lines...)
						}
						sortLinesTopDown(f.Lines)
						taken = true
						break
					}
				}
			}
			if !taken {
				keep = append(keep, b)
			}
		}
		out.Blocks = keep
		// The table's cells again, with its turned heads.
		for f := range grown {
			if f.Float != nil {
				f.Float.readCells()
			}
		}
	}
	return out
}

// analyzeFrame lays out characters whose text runs left to right in their
// coordinate frame; extent is the page in that frame.
//
// It also returns the frame's floats (boxes in the frame's coordinates).
func analyzeFrame(chars []pdf.Char, gs []pdf.Graphic, bold []fontFlags, extent pdf.Rect, st Stats) ([]*Block, []*Float) {
	lines := buildLines(dropOverprint(chars), bold)
	var horiz, vert []*Line
	for _, l := range lines {
		if l.Vertical {
			vert = append(vert, l)
		} else {
			horiz = append(horiz, l)
		}
	}
	horiz, numbers := lineNumbers(horiz, bold, st)
	regions := buildRegions(horiz, st)
	regions = mergeRegions(regions, st)
	// Floats first: a table's header row at the top of the page is not a
	// running head.
	var floats, rest []*region
	sep, found := separateFloats(regions, gs, extent, st)
	for _, r := range sep {
		if r.kind != "" {
			floats = append(floats, r)
		} else {
			rest = append(rest, r)
		}
	}
	header, body, footer := peelMargins(rest, extent)
	body = append(body, floats...)
	var blocks []*Block
	for _, group := range []struct {
		rs   []*region
		kind Kind
	}{{header, PageHeader}, {orderRegions(body, horizontalRules(gs)), ""}, {footer, PageFooter}} {
		var bs []*Block
		for _, r := range group.rs {
			if r.kind != "" {
				b := newBlock(r.kind, r.lines)
				b.Float = r.float
				if r.float != nil {
					r.float.Text = b
				}
				bs = append(bs, b)
				continue
			}
			for _, b := range splitParagraphs(r, st) {
				if group.kind != "" && !captionText(b.Text()) {
					b.Kind = group.kind
				}
				bs = append(bs, b)
			}
		}
		if group.kind == "" {
			bs = mathAndCode(bs)
		}
		blocks = append(blocks, bs...)
	}
	// Line numbers in the margin (linenumbers.go): a margin note per
	// column.
	for _, col := range numbers {
		blocks = append(blocks, newBlock(MarginNote, col))
	}
	// Stacked characters without rotation (rare) go last, one block per
	// line.
	for _, l := range vert {
		blocks = append(blocks, &Block{Kind: Paragraph, Lines: []*Line{l}, Box: l.Box})
	}
	// A listing in a frame is code, not a figure (see framedListing).
	found = slices.DeleteFunc(found, func(f *Float) bool { return f.Text != nil && f.Text.Kind == Code })
	return blocks, found
}

// marginShare is the share of the page height, at the top and at the
// bottom, where running heads and page numbers are looked for.
const marginShare = 0.12

// peelMargins separates the page header (single-line regions above every
// other region, in the top margin) and page footer (likewise at the
// bottom) from the body. Headers and footers are returned left to right.
func peelMargins(rs []*region, page pdf.Rect) (header, body, footer []*region) {
	height := page.Height()
	if height <= 0 || len(rs) < 3 {
		return nil, rs, nil
	}
	single := func(r *region) bool { return len(r.lines) == 1 && len(strings.Fields(r.lines[0].Text)) <= 20 }
	var rest []*region
	for _, r := range rs {
		if single(r) && r.box.Y0 > page.Y1-height*marginShare {
			header = append(header, r)
		} else if single(r) && r.box.Y1 < page.Y0+height*marginShare {
			footer = append(footer, r)
		} else {
			rest = append(rest, r)
		}
	}
	// A candidate must lie above (below) all the rest of the page.
	top, bottom := math.Inf(-1), math.Inf(1)
	for _, r := range rest {
		top = math.Max(top, r.box.Y1)
		bottom = math.Min(bottom, r.box.Y0)
	}
	var h, f []*region
	for _, r := range header {
		if r.box.Y0 > top {
			h = append(h, r)
		} else {
			rest = append(rest, r)
		}
	}
	for _, r := range footer {
		if r.box.Y1 < bottom {
			f = append(f, r)
		} else {
			rest = append(rest, r)
		}
	}
	if len(rest) == 0 {
		return nil, rs, nil
	}
	byX := func(v []*region) {
		sort.SliceStable(v, func(i, j int) bool {
			if math.Abs(v[i].box.Y1-v[j].box.Y1) > 2 {
				return v[i].box.Y1 > v[j].box.Y1
			}
			return v[i].box.X0 < v[j].box.X0
		})
	}
	byX(h)
	byX(f)
	// Keep the body in its original (stream) order for the orderer.
	sort.SliceStable(rest, func(i, j int) bool { return rest[i].seq < rest[j].seq })
	return h, rest, f
}

// region is a run of lines of one column with regular spacing, or the
// lines of a float (kind TableText or FigureText, top to bottom and left to
// right).
type region struct {
	lines []*Line
	box   pdf.Rect
	seq   int
	kind  Kind
	float *Float // the float whose text this region is (kind TableText or FigureText)

	// memo holds size, pitch and centred as computed for the lines the
	// region had then; add clears it. mergeRegions asks for them of every
	// pair of regions after every join: recomputing each (a median, a
	// scan of the lines) made a page of many short regions cubic with a
	// large constant (500 monospaced lines took 100 s).
	memo *regionMemo
}

type regionMemo struct {
	size, pitch float64
	centred     bool // centredLines
}

func (r *region) add(l *Line) {
	r.lines = append(r.lines, l)
	r.box = r.box.Union(l.Box)
	r.memo = nil
}

func (r *region) memoized() *regionMemo {
	if r.memo == nil {
		r.memo = &regionMemo{size: r.medianSize(), pitch: r.medianPitch(), centred: r.centredLines()}
	}
	return r.memo
}

// pitch returns the median distance between the baselines of the
// region's lines, 0 for a single line.
func (r *region) pitch() float64 { return r.memoized().pitch }

// size returns the median font size of the region's lines, in points.
func (r *region) size() float64 { return r.memoized().size }

func (r *region) medianPitch() float64 {
	var ps []float64
	for i := 1; i < len(r.lines); i++ {
		ps = append(ps, r.lines[i-1].Base-r.lines[i].Base)
	}
	return median(ps)
}

func (r *region) medianSize() float64 {
	s := make([]float64, len(r.lines))
	for i, l := range r.lines {
		s[i] = l.Size
	}
	return median(s)
}

// centredLines reports whether every line of the region is centred on
// the region's axis within a point and a half and none is running text
// (prose): the shape centredStack asks of both its regions.
func (r *region) centredLines() bool {
	c := (r.box.X0 + r.box.X1) / 2
	for _, l := range r.lines {
		if math.Abs((l.Box.X0+l.Box.X1)/2-c) > 1.5 || prose(l) {
			return false
		}
	}
	return true
}

// continues reports whether line l (next in stream order) belongs to the
// region whose last line is p.
func continues(r *region, l *Line, st Stats) bool {
	p := r.lines[len(r.lines)-1]
	s := math.Max(p.Size, l.Size)
	if s <= 0 {
		return false
	}
	// Font size must be similar: headings and captions in another size
	// start their own region.
	if math.Abs(p.Size-l.Size) > 0.12*s {
		return false
	}
	// The second line of a region starts near the first: a first-line or
	// hanging indent (up to four ems: half an inch at 10 to 12 points, as
	// manuscripts indent), or a centred line, but not a line of another
	// column.
	if len(r.lines) == 1 && math.Abs(l.Box.X0-p.Box.X0) > 4*s && math.Abs((l.Box.X0+l.Box.X1)/2-(p.Box.X0+p.Box.X1)/2) > s {
		return false
	}
	// A bold heading line stands apart from the paragraph under it
	// (splitParagraphs would cut there anyway): the paragraph's indented
	// first line, centred under a centred heading, must not start a block
	// of centred lines that the paragraph's next line then cannot join.
	if len(r.lines) == 1 && p.Bold != l.Bold && lineIsHeadingLike(p, st) && !startsLower(l.Text) &&
		math.Abs(l.Box.X0-p.Box.X0) > s && math.Abs((l.Box.X0+l.Box.X1)/2-(p.Box.X0+p.Box.X1)/2) <= s {
		return false
	}
	pitch := p.Base - l.Base
	if pitch < 0.5*s || pitch > st.maxPitch(s) {
		return false
	}
	// Horizontal overlap with the region.
	ov := math.Min(r.box.X1, l.Box.X1) - math.Max(r.box.X0, l.Box.X0)
	if ov < 0.5*math.Min(l.Box.Width(), r.box.Width()) {
		return false
	}
	// A line much wider than the region (crossing a gutter) does not
	// belong to it, nor does a region line to a much wider one.
	// The second line of a paragraph set with a first-line indent starts
	// left of the first by the indent (up to four ems) and ends at most
	// two ems further right than the indent explains (ragged right).
	indented := len(r.lines) == 1 && l.Box.X0 >= p.Box.X0-4*s && l.Box.X1 <= p.Box.X1+(p.Box.X0-l.Box.X0)+2*s
	if l.Box.X0 < r.box.X0-2*s && !indented || l.Box.X1 > r.box.X1+2*s && len(r.lines) > 1 {
		return false
	}
	return true
}

func buildRegions(lines []*Line, st Stats) []*region {
	var out []*region
	for _, l := range lines {
		if n := len(out); n > 0 && continues(out[n-1], l, st) {
			out[n-1].add(l)
			continue
		}
		r := &region{seq: len(out)}
		r.add(l)
		out = append(out, r)
	}
	return out
}

// mergeRegions joins regions that continue one another geometrically
// although the content stream separated them: B starts one line pitch
// below A's last line, in the same column, at the same font size.
//
// It joins, again and again, the first pair (A, B) in the order of rs
// (by A, then by B) that passes joinsLocally, a test of the pair alone,
// with no other region between them (nothingBetween), until none does.
// Only pairs involving the region that just grew can change the
// first, so those are all that is tested again after a join, and the
// test of what lies between is made only for pairs that pass the first.
// (Scanning every pair again after each join, as it was done, made a
// page of many short regions cubic: 500 monospaced lines took 100 s.)
func mergeRegions(rs []*region, st Stats) []*region {
	type pair struct{ a, b *region }
	cand := map[pair]bool{}
	for i, a := range rs {
		for j, b := range rs {
			if i != j && joinsLocally(a, b, st) {
				cand[pair{a, b}] = true
			}
		}
	}
	for len(cand) > 0 {
		at := make(map[*region]int, len(rs))
		for i, r := range rs {
			at[r] = i
		}
		ps := make([]pair, 0, len(cand))
		for p := range cand {
			ps = append(ps, p)
		}
		slices.SortFunc(ps, func(x, y pair) int {
			if c := cmp.Compare(at[x.a], at[y.a]); c != 0 {
				return c
			}
			return cmp.Compare(at[x.b], at[y.b])
		})
		var join *pair
		for k := range ps {
			if nothingBetween(ps[k].a, ps[k].b, rs) {
				join = &ps[k]
				break
			}
		}
		if join == nil {
			break
		}
		a, b := join.a, join.b
		for _, l := range b.lines {
			a.add(l)
		}
		a.seq = min(a.seq, b.seq)
		rs = slices.Delete(rs, at[b], at[b]+1)
		for p := range cand {
			if p.a == a || p.b == a || p.a == b || p.b == b {
				delete(cand, p)
			}
		}
		for _, o := range rs {
			if o == a {
				continue
			}
			if joinsLocally(a, o, st) {
				cand[pair{a, o}] = true
			}
			if joinsLocally(o, a, st) {
				cand[pair{o, a}] = true
			}
		}
	}
	return rs
}

// joinsLocally is canJoin's test of the two regions alone: a centred
// stack of short lines (centredStack), or running text that b continues
// one line pitch under a, in the same column, at the same font size.
func joinsLocally(a, b *region, st Stats) bool {
	last := a.lines[len(a.lines)-1]
	first := b.lines[0]
	s := math.Max(a.size(), b.size())
	if centredStack(a, b) {
		return true
	}
	if math.Abs(a.size()-b.size()) > 0.12*s {
		return false
	}
	pitch := last.Base - first.Base
	if pitch < 0.5*s || pitch > math.Max(st.maxPitch(s), 1.2*a.pitch()) {
		return false
	}
	if math.Abs(a.box.X0-b.box.X0) > 1.5*s && math.Abs(a.box.X1-b.box.X1) > 1.5*s {
		return false
	}
	ov := math.Min(a.box.X1, b.box.X1) - math.Max(a.box.X0, b.box.X0)
	if ov < 0.6*math.Min(a.box.Width(), b.box.Width()) {
		return false
	}
	// Only running text continues across a stream interruption: both parts
	// have several lines, or the lines that meet are prose (a producer that
	// writes two columns line by line, alternating), and A's last line
	// fills the column. Stacked single lines (table cells written row by
	// row) stay separate regions.
	return !((len(a.lines) < 2 || len(b.lines) < 2) && !(prose(last) && prose(first)) ||
		last.Box.Width() < 0.7*math.Max(a.box.Width(), b.box.Width()) && !wrapsOn(a, b))
}

// wrapsOn reports whether paragraph text set narrow (beside a figure that
// the text wraps around, as wrapfig sets it) goes on at another measure
// in region b right under a: a's last line fills a's measure, flush with
// its right edge, and its sentence goes on into b's first line (a word
// hyphenated across them, or b starts in lower case); both start at the
// same left edge, or end at the same right edge (a figure wrapped on the
// left); a's last line is words (four or more, most of its tokens).
func wrapsOn(a, b *region) bool {
	last, first := a.lines[len(a.lines)-1], b.lines[0]
	s := math.Max(last.Size, first.Size)
	goesOn := last.Hyphenated || strings.HasSuffix(last.Text, "-") && !strings.HasSuffix(last.Text, "--") || startsLower(first.Text)
	sameEdge := math.Abs(a.box.X0-b.box.X0) <= 0.5*s || math.Abs(a.box.X1-b.box.X1) <= 0.5*s
	st := statsOf(last)
	return len(a.lines) >= 2 && goesOn && sameEdge && last.Box.X1 >= a.box.X1-0.5*s && st.words >= 4 && st.words*10 >= st.tokens*6
}

// nothingBetween reports whether no other region sits between a and b
// (b below a).
func nothingBetween(a, b *region, all []*region) bool {
	gap := pdf.Rect{X0: math.Max(a.box.X0, b.box.X0), Y0: b.box.Y1, X1: math.Min(a.box.X1, b.box.X1), Y1: a.box.Y0}
	for _, o := range all {
		if o == a || o == b {
			continue
		}
		if o.box.X0 < gap.X1 && o.box.X1 > gap.X0 && o.box.Y0 < gap.Y1 && o.box.Y1 > gap.Y0 {
			return false
		}
	}
	return true
}

// centredStack reports whether b continues a as the lines of a centred
// block of short lines in sizes that may differ (an author's name,
// affiliation, address and e-mail on a title page): each line centred on
// the same axis, within a point and a half, one line pitch apart, none
// of them running text, the sizes within a factor of 1.3.
func centredStack(a, b *region) bool {
	last, first := a.lines[len(a.lines)-1], b.lines[0]
	s := math.Max(last.Size, first.Size)
	if s <= 0 || math.Min(last.Size, first.Size)*1.3 < s {
		return false
	}
	if !a.memoized().centred || !b.memoized().centred {
		return false
	}
	if math.Abs((a.box.X0+a.box.X1)/2-(b.box.X0+b.box.X1)/2) > 1.5 {
		return false
	}
	pitch := last.Base - first.Base
	return pitch > 0.5*s && pitch < 1.6*s
}

// narrowMeasure returns the lines of ls (a region's lines, top down) that
// are running text set in a narrow column, too narrow for prose to see
// them (a sidebar, a margin column): runs of at least four consecutive
// lines of one font size, flush left, at a regular pitch, most of them
// three or more words, twenty words or more in all, with sentence
// punctuation among them. A figure's labels are short and scattered; a
// paragraph of this shape is text.
func narrowMeasure(ls []*Line) []*Line {
	var out []*Line
	isRun := func(run []*Line) bool {
		if len(run) < 4 {
			return false
		}
		words, wordy, punct := 0, 0, false
		for _, l := range run {
			st := statsOf(l)
			words += st.words
			if st.tokens >= 3 && st.words*10 >= st.tokens*6 {
				wordy++
			}
			if strings.ContainsAny(l.Text, ".;:") {
				punct = true
			}
		}
		return words >= 20 && wordy*4 >= len(run)*3 && punct
	}
	start := 0
	for i := 1; i <= len(ls); i++ {
		joins := false
		if i < len(ls) {
			p, l := ls[i-1], ls[i]
			s := math.Max(p.Size, l.Size)
			pitch := p.Base - l.Base
			joins = math.Abs(p.Size-l.Size) <= 0.05*s && math.Abs(p.Box.X0-l.Box.X0) <= 0.5*s &&
				pitch >= 0.9*s && pitch <= 1.6*s
			if joins && i-start >= 2 {
				first := ls[start].Base - ls[start+1].Base
				joins = math.Abs(pitch-first) <= 0.15*first
			}
		}
		if !joins {
			if isRun(ls[start:i]) {
				out = append(out, ls[start:i]...)
			}
			start = i
		}
	}
	return out
}

// splitParagraphs cuts a region into paragraphs at extra vertical space,
// first-line indents, hanging indents and short last lines of justified
// text.
func splitParagraphs(r *region, st Stats) []*Block {
	lines := r.lines
	if len(lines) == 1 {
		return []*Block{{Kind: Paragraph, Lines: lines, Box: lines[0].Box}}
	}
	s := r.size()
	var pitches []float64
	for i := 1; i < len(lines); i++ {
		pitches = append(pitches, lines[i-1].Base-lines[i].Base)
	}
	normal := median(pitches)
	// The white space between lines' boxes: a line with tall scripts or
	// inline fractions is set further from its neighbours (TeX's
	// \lineskip) without a paragraph break.
	var gaps []float64
	for i := 1; i < len(lines); i++ {
		gaps = append(gaps, lines[i-1].Box.Y0-lines[i].Box.Y1)
	}
	normalGap := median(gaps)
	// The left edge most lines start at, and whether lines end flush right.
	var lefts []float64
	flush := 0
	for _, l := range lines {
		lefts = append(lefts, l.Box.X0)
		if l.Box.X1 > r.box.X1-1.0*s {
			flush++
		}
	}
	left := modeEdge(lefts, 0.3*s)
	justified := flush*10 >= len(lines)*6
	centered := isCentered(lines, r.box, s)
	var out []*Block
	cur := &Block{Kind: Paragraph}
	for i, l := range lines {
		if i > 0 {
			p := lines[i-1]
			brk := false
			pitch := p.Base - l.Base
			gap := p.Box.Y0 - l.Box.Y1
			sentenceGoesOn := !endsSentence(p.Text) || p.Box.X1 >= r.box.X1-2*s
			if (pitch > normal+0.35*s && !centered || pitch > normal+0.6*s) && (gap > normalGap+0.35*s || !sentenceGoesOn) {
				brk = true // extra space (more of it in a centred block of mixed sizes)
			}
			ind := l.Box.X0 - left
			pind := p.Box.X0 - left
			if !centered && ind > 0.6*s && ind < 4*s && pind < 0.3*s && (endsSentence(p.Text) || p.Box.X1 < r.box.X1-2*s) {
				brk = true // first-line indent (after a line that ends a sentence or stops short)
			}
			if !centered && ind < -0.6*s && ind > -4*s && pind >= -0.6*s && (len(cur.Lines) > 1 || endsSentence(p.Text) || bulletStart.MatchString(p.Text)) {
				brk = true // hanging indent: outdented first line (not after a first-line indent that goes on)
			}
			if !centered && pind < -0.6*s && l.Box.X0 > p.Box.X0+0.6*s && endsSentence(p.Text) {
				brk = true // an outdented paragraph ends, indented lines (a list) follow
			}
			if justified && p.Box.X1 < r.box.X1-2*s && !p.Hyphenated && endsSentence(p.Text) {
				brk = true // short last line
			}
			if p.Bold != l.Bold && lineIsHeadingLike(p, st) && !startsLower(l.Text) {
				brk = true // a bold heading line, not one whose sentence goes on
			}
			if boldNumberedHead(p) && len(cur.Lines) == 1 && !startsLower(l.Text) {
				brk = true // a heading line set apart by its bold number only ("3.2 Displayed equations")
			}
			if p.Bold != l.Bold && lineIsHeadingLike(l, st) && endsSentence(p.Text) {
				brk = true // a bold heading line after a sentence's end, with no space before it
			}
			if p.Mono != l.Mono && p.Box.X1 < r.box.X1-2*s && s >= 0.95*st.BodySize && (l.Mono && endsSentence(p.Text) || p.Mono && !startsLower(l.Text)) {
				brk = true // code set in a monospaced font after a sentence that stops short ("… as follows:"), or prose after it
			}
			if p.Hyphenated && startsLower(l.Text) {
				brk = false // a word hyphenated at the line's end goes on in the next line ("(Au-" / "thor 2013)")
			}
			if brk {
				out = append(out, cur)
				cur = &Block{Kind: Paragraph}
			}
		}
		cur.Lines = append(cur.Lines, l)
		cur.Box = cur.Box.Union(l.Box)
	}
	out = append(out, cur)
	return out
}

// startsLower reports whether a line starts with a lower-case letter
// (after opening quotes and brackets): it continues a sentence.
func startsLower(text string) bool {
	for _, r := range text {
		if strings.ContainsRune("\"'“‘([", r) {
			continue
		}
		return unicode.IsLower(r)
	}
	return false
}

// isCentered reports whether the lines are centred in box rather than
// aligned left: their centres agree while their left edges do not.
func isCentered(lines []*Line, box pdf.Rect, s float64) bool {
	mid := (box.X0 + box.X1) / 2
	centred, ragged := 0, 0
	for _, l := range lines {
		if math.Abs((l.Box.X0+l.Box.X1)/2-mid) < 0.5*s {
			centred++
		}
		if l.Box.X0 > box.X0+s {
			ragged++
		}
	}
	// Justified lines share a centre too: centred text needs many lines
	// that start right of the left edge.
	return ragged*10 >= len(lines)*4 && centred*10 >= len(lines)*8
}

// modeEdge returns the most common value of xs within tolerance tol.
func modeEdge(xs []float64, tol float64) float64 {
	best, bestN := xs[0], 0
	for _, x := range xs {
		n := 0
		for _, y := range xs {
			if math.Abs(x-y) <= tol {
				n++
			}
		}
		if n > bestN || (n == bestN && x < best) {
			best, bestN = x, n
		}
	}
	return best
}

func endsSentence(s string) bool {
	s = strings.TrimRight(s, " \"'”’)]")
	if s == "" {
		return false
	}
	switch s[len(s)-1] {
	case '.', ':', '!', '?':
		return true
	}
	return false
}

var (
	numberedHeading = regexp.MustCompile(`^(\d+(\.\d+)*\.?|[IVX]+\.|[IVX]+(\.[IVX]+)+\.?|[A-Z]\.(\d+(\.\d+)*\.?)?|Appendix [A-Z])\s+\S`)
	namedHeadings   = map[string]bool{
		"abstract": true, "introduction": true, "references": true, "acknowledgments": true,
		"acknowledgements": true, "acknowledgment": true, "acknowledgement": true, "conclusion": true,
		"conclusions": true, "related work": true, "appendix": true, "bibliography": true,
		"discussion": true, "methods": true, "results": true, "background": true, "keywords": true,
		"limitations": true, "ethics statement": true, "contents": true, "summary": true,
	}
)

// webAddress matches a text that is one web or e-mail address
// ("ibm.com/redbooks", "www.example.org", "https://…", "name@host.edu"):
// set large or bold on a cover or a banner, it names a place, not a
// section.
var webAddress = regexp.MustCompile(`^(https?://\S+|www\.\S+|[\w.+-]+@[\w-]+(\.[\w-]+)+|[\w-]+(\.[\w-]+)*\.[a-z]{2,6}/\S*)$`)

func lineIsHeadingLike(l *Line, st Stats) bool {
	words := len(strings.Fields(l.Text))
	// A heading does not stop at a comma or a hyphen: its sentence goes on.
	if l.Hyphenated || strings.HasSuffix(l.Text, ",") || strings.HasSuffix(l.Text, "-") {
		return false
	}
	return words <= 12 && !l.RunIn && (l.Bold && !st.BodyBold || l.Size > st.BodySize*1.15)
}

// classify sets b.Kind: heading for short lines set apart by size, weight
// or section numbering; figure/table for captions.
func classify(b *Block, st Stats) {
	text := b.Text()
	if k, label := captionKind(text); k != "" {
		b.Kind, b.Label = k, label
		return
	}
	if len(b.Lines) > 3 {
		return
	}
	flat := strings.Join(strings.Fields(text), " ")
	words := len(strings.Fields(flat))
	if words == 0 || words > 16 || len(flat) > 140 {
		return
	}
	letters := 0
	for _, r := range flat {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	if letters < 3 {
		return
	}
	size := b.Size()
	bigger := size > st.BodySize*1.12
	bold := true
	for _, l := range b.Lines {
		if !l.Bold || l.RunIn {
			bold = false
		}
	}
	// A line set in a monospaced font is code: its even stems make
	// pdfium's weight for it no evidence of bold (LMMono10-Regular beside
	// Baskerville), so a weight alone makes no heading of it.
	bold = bold && !st.BodyBold && !(b.Lines[0].Mono && b.Lines[0].weightBold)
	italic := true
	for _, l := range b.Lines {
		if !l.Italic {
			italic = false
		}
	}
	if b.Lines[len(b.Lines)-1].RunIn {
		return // a paragraph that opens with a run-in heading
	}
	numbered := numberedHeading.MatchString(flat)
	bare := strings.ToLower(strings.TrimRight(strings.TrimLeft(flat, "0123456789.IVX "), ".:"))
	named := namedHeadings[bare]
	upper := isUpper(flat)
	endsPeriod := strings.HasSuffix(flat, ".") && !numbered
	if endsPeriod || b.Lines[0].Vertical || webAddress.MatchString(flat) {
		return
	}
	switch {
	case bold, size >= st.BodySize*1.4:
		b.Kind = Heading
	case bigger && (upper || len(b.Lines) == 1 && words <= 10 && !strings.ContainsAny(flat, ".;@") && hasLowerWord(flat)):
		b.Kind = Heading
	case numbered && (bigger || upper) && words <= 12:
		b.Kind = Heading
	case numbered && italic && len(b.Lines) == 1 && words <= 8 && !st.BodyItalic:
		b.Kind = Heading // an italic numbered heading ("B. Route maintenance")
	case len(b.Lines) == 1 && boldNumberedHead(b.Lines[0]):
		b.Kind = Heading // a bold section number before a title in the text face ("6.1.1 Dummy subsubsection")
	case numbered && b.Lines[0].SmallCaps && len(b.Lines) == 1 && words <= 10:
		b.Kind = Heading // a numbered heading in small caps, as AMS styles set sections ("A.1. Introduction")
	case named && (upper || bigger || len(b.Lines) == 1 && words <= 3):
		b.Kind = Heading
	}
}

// hasLowerWord reports whether some word starts with a lower-case letter:
// "Pubertal development in TS" is a heading, "Joseph Chee Chang" (an
// author name on a title page) is not.
func hasLowerWord(s string) bool {
	for _, w := range strings.Fields(s) {
		if r := []rune(w)[0]; unicode.IsLower(r) {
			return true
		}
	}
	return false
}

func isUpper(s string) bool {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			if !unicode.IsUpper(r) {
				return false
			}
			n++
		}
	}
	return n >= 3
}

// sortLinesTopDown orders lines by baseline, top first, then left to right.
func sortLinesTopDown(ls []*Line) {
	sort.SliceStable(ls, func(i, j int) bool {
		if math.Abs(ls[i].Base-ls[j].Base) > 0.3*math.Max(ls[i].Size, ls[j].Size) {
			return ls[i].Base > ls[j].Base
		}
		return ls[i].Box.X0 < ls[j].Box.X0
	})
}
