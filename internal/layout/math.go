package layout

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode"
)

// Display equations and code listings are not running text either: their
// lines are typed Equation and Code, and the pieces a page's layout breaks
// them into (a fraction's lines, an equation number set at the margin, the
// lines of a listing with blank lines between) are joined into one block.
// Issue 12 builds on these kinds (an equation's number as a field of its
// own, a listing's line breaks kept).

// mathLine reports whether a line is display mathematics: not running
// text, and at least 30 % of its characters mathematics (symbols, Greek,
// letters in a math font), or an equation number alone.
func mathLine(l *Line) bool {
	if eqNumber.MatchString(l.Text) {
		return true
	}
	return l.Ink > 0 && !prose(l) && !textOpening(l) && l.Math*10 >= l.Ink*3
}

// mathFunctions are the words of mathematics that are not prose.
var mathFunctions = map[string]bool{
	"sin": true, "cos": true, "tan": true, "cot": true, "sec": true, "csc": true, "sinh": true, "cosh": true,
	"tanh": true, "coth": true, "arcsin": true, "arccos": true, "arctan": true, "log": true, "ln": true,
	"exp": true, "max": true, "min": true, "sup": true, "inf": true, "lim": true, "det": true, "dim": true,
	"ker": true, "arg": true, "mod": true, "deg": true, "gcd": true, "var": true, "cov": true, "tr": true,
	"sgn": true, "csgn": true, "erf": true, "argmax": true, "argmin": true, "diag": true,
}

// mathish reports whether a line has no prose words: no token with three
// or more letters in a row other than the names of mathematical functions.
func mathish(l *Line) bool {
	if prose(l) {
		return false
	}
	for _, t := range strings.Fields(l.Text) {
		run, best := 0, ""
		var cur []rune
		for _, r := range t + " " {
			if unicode.IsLetter(r) && !isMathRune(r) {
				run++
				cur = append(cur, unicode.ToLower(r))
				continue
			}
			if run >= 3 && !mathFunctions[string(cur)] {
				best = string(cur)
			}
			run, cur = 0, cur[:0]
		}
		if best != "" {
			return false
		}
	}
	return true
}

// mathAndCode types the paragraph blocks of a frame's body (in reading
// order) that are display equations or code, and joins the pieces:
//
//   - a block whose lines are all mathLines is an Equation; an equation
//     number alone joins the block on its baseline to its left when that
//     block is an equation or a single line that is not prose;
//   - a block whose lines are at least 80 % code lines is Code
//     (codeBlock), and the parts of a listing set side by side are one
//     (listingBeside);
//   - a line of at most four words set between two equations, one below
//     the other ("and", "where", "and we obtain"), joins them;
//   - consecutive Equation blocks (Code blocks) less than a line and a
//     half (two lines) apart, one below the other, are one block.
func mathAndCode(blocks []*Block) []*Block {
	var split []*Block
	for i, b := range blocks {
		if framedListing(b) {
			b.Kind, b.Float = Code, nil
		}
		var prev, next *Block
		if i > 0 {
			prev = blocks[i-1]
		}
		if i+1 < len(blocks) {
			next = blocks[i+1]
		}
		for _, p := range splitListing(b, prev, next) {
			split = append(split, splitDisplays(p)...)
		}
	}
	blocks = split
	for _, b := range blocks {
		if b.Kind != Paragraph {
			continue
		}
		maths := 0
		for _, l := range b.Lines {
			if mathLine(l) {
				maths++
			}
		}
		switch {
		case codeBlock(b):
			b.Kind = Code
		case maths == len(b.Lines):
			b.Kind = Equation
		}
	}
	pieces(blocks)
	// Equation numbers join their equation, and so do the short notes set
	// beside an equation's lines ("tupling", "(x ∈ V) variable").
	var out []*Block
	for _, b := range blocks {
		if b.Kind == Equation && len(b.Lines) == 1 && eqNumber.MatchString(b.Lines[0].Text) {
			if t := equationOf(b, blocks); t != nil {
				t.Kind = Equation
				t.Lines = append(t.Lines, b.Lines[0])
				sortLinesTopDown(t.Lines)
				t.Box = t.Box.Union(b.Box)
				continue
			}
		}
		if t := annotated(b, blocks); t != nil {
			t.Lines = append(t.Lines, b.Lines...)
			sortLinesTopDown(t.Lines)
			t.Box = t.Box.Union(b.Box)
			continue
		}
		out = append(out, b)
	}
	// A short line of words between two displays ("and", "where", "and we
	// obtain") joins them as one display.
	for i := 1; i+1 < len(out); i++ {
		b, prev, next := out[i], out[i-1], out[i+1]
		if b.Kind != Paragraph || len(b.Lines) != 1 || len(strings.Fields(b.Lines[0].Text)) > 4 || prose(b.Lines[0]) {
			continue
		}
		if prev.Kind != Equation || next.Kind != Equation {
			continue
		}
		s := b.Size()
		if prev.Box.Y0-b.Box.Y1 > 2*s || b.Box.Y0-next.Box.Y1 > 2*s || b.Box.Y1 > prev.Box.Y0+0.5*s || next.Box.Y1 > b.Box.Y0+0.5*s {
			continue
		}
		b.Kind = Equation
	}
	// Pieces of one equation or listing, and a listing's parts set side
	// by side (listing.go), which may share a band only once their pieces
	// are stacked: until no more join.
	joined := stackDisplays(out, false)
	for {
		n := len(joined)
		joined = stackDisplays(listingBeside(joined), true)
		if len(joined) == n {
			break
		}
	}
	joined = besideJoin(joined)
	// Pieces that lie within a display joined above, or right after it
	// on its band, join it too.
	if pieces(joined) {
		joined = besideJoin(joined)
	}
	// A line of code is one line: its parts that a wide run of spaces
	// split (a line number and its code, code and its comment) are
	// joined again, left to right.
	for _, b := range joined {
		if b.Kind == Code {
			b.Lines = joinBaselines(b.Lines)
		}
	}
	return joined
}

// stackDisplays joins the pieces of one equation or listing: consecutive
// Equation blocks (Code blocks) less than a line and a half (two lines)
// apart, one below the other, are one block; Code blocks only when
// codeOnly is set.
func stackDisplays(out []*Block, codeOnly bool) []*Block {
	var joined []*Block
	for _, b := range out {
		if n := len(joined); n > 0 && (b.Kind == Equation && !codeOnly || b.Kind == Code) && joined[n-1].Kind == b.Kind {
			p := joined[n-1]
			s := math.Max(p.Size(), b.Size())
			gap := p.Box.Y0 - b.Box.Y1
			ov := math.Min(p.Box.X1, b.Box.X1) - math.Max(p.Box.X0, b.Box.X0)
			limit := 1.5 * s
			if b.Kind == Code {
				limit = 2 * s
			}
			if gap > -0.5*s && gap < limit && ov > -2*s {
				p.Lines = append(p.Lines, b.Lines...)
				p.Box = p.Box.Union(b.Box)
				continue
			}
		}
		joined = append(joined, b)
	}
	return joined
}

// pieces types Equation the pieces of a display next to an equation — a
// fraction's denominator, a subscript line, a lone operand, an integral's
// limits: paragraph blocks of at most three lines, none of them prose or
// opening with words of running text (textOpening), that
//
//   - hold no prose word (mathish) and lie below or above an equation
//     less than 1.2 lines away, overlapping it across, or beside it in
//     its band (see beside); or
//   - lie within an equation's box, or beside it in its band less than
//     an em away (a display's last part in a text font: "ζψ(gu) = c(g)").
//
// It reports whether it typed any.
func pieces(blocks []*Block) bool {
	any := false
	for changed := true; changed; {
		changed = false
		for _, b := range blocks {
			if b.Kind != Paragraph || len(b.Lines) > 3 {
				continue
			}
			all, text := true, false
			for _, l := range b.Lines {
				if prose(l) || textOpening(l) {
					text = true
					break
				}
				if !mathish(l) {
					all = false
				}
			}
			if text {
				continue
			}
			for _, e := range blocks {
				if e.Kind != Equation || e == b {
					continue
				}
				s := math.Max(e.Size(), b.Size())
				gap := math.Max(e.Box.Y0-b.Box.Y1, b.Box.Y0-e.Box.Y1)
				ov := math.Min(e.Box.X1, b.Box.X1) - math.Max(e.Box.X0, b.Box.X0)
				gapX := math.Max(e.Box.X0-b.Box.X1, b.Box.X0-e.Box.X1)
				near := all && (gap < 1.2*s && ov > -s || beside(e, b, blocks))
				within := b.Box.X0 >= e.Box.X0-1 && b.Box.X1 <= e.Box.X1+1 && b.Box.Y0 >= e.Box.Y0-1 && b.Box.Y1 <= e.Box.Y1+1
				if near || within || gapX < s && beside(e, b, blocks) {
					b.Kind = Equation
					changed, any = true, true
					break
				}
			}
		}
	}
	return any
}

// besideJoin joins the pieces of a display set side by side: a left-hand
// side, a fraction whose numerator and denominator are lines of their
// own, a big operator with its limits, a trailing comma. Two Equation
// blocks are one display when they share a band (the vertical overlap is
// at least half the smaller block's height) and are less than an em
// apart across (or overlap). Columns are further apart than that, so a
// display in one column never takes one in the other. The joined block
// keeps the earlier block's place in reading order and its lines are
// ordered top down, left to right.
func besideJoin(blocks []*Block) []*Block {
	for changed := true; changed; {
		changed = false
		for i, a := range blocks {
			if a.Kind != Equation {
				continue
			}
			for j := i + 1; j < len(blocks); j++ {
				b := blocks[j]
				if b.Kind != Equation || !beside(a, b, blocks) {
					continue
				}
				a.Lines = append(a.Lines, b.Lines...)
				sortLinesTopDown(a.Lines)
				a.Box = a.Box.Union(b.Box)
				blocks = append(blocks[:j], blocks[j+1:]...)
				changed = true
				break
			}
			if changed {
				break
			}
		}
	}
	return blocks
}

// beside reports whether two blocks share a band and are less than an em
// apart across, or less than four ems apart within a text column: a line
// of running text (prose) of another block spans the gap between them, so
// the gap is no gutter between columns (a bracket or a big operator drawn
// as a path, or a glyph without Unicode value, leaves such a gap).
func beside(a, b *Block, blocks []*Block) bool {
	s := math.Max(a.Size(), b.Size())
	ov := math.Min(a.Box.Y1, b.Box.Y1) - math.Max(a.Box.Y0, b.Box.Y0)
	h := math.Min(a.Box.Height(), b.Box.Height())
	if h <= 0 || ov < 0.5*h {
		return false
	}
	gap := math.Max(a.Box.X0-b.Box.X1, b.Box.X0-a.Box.X1)
	if gap < s {
		return true
	}
	if gap >= 4*s {
		return false
	}
	x0, x1 := math.Min(a.Box.X1, b.Box.X1), math.Max(a.Box.X0, b.Box.X0)
	for _, o := range blocks {
		if o == a || o == b || o.Kind.Furniture() {
			continue
		}
		for _, l := range o.Lines {
			if l.Box.X0 <= x0 && l.Box.X1 >= x1 && prose(l) {
				return true
			}
		}
	}
	return false
}

// framedListing reports whether a figure's text is a code listing drawn
// in a frame (a box or rules around it, which made it a figure): at least
// two lines (a line number beside its code line counts as one), 80 % of
// those that are no line number alone code lines (codeBlock), set as a
// listing is — stacked at
// most two lines apart and starting at one left edge (half of the lines
// at least; the rest indented) or, indented deeper, at one baseline pitch
// (80 % of the gaps between lines within 0.15 of their size of the
// median gap). The labels of a diagram set in a
// monospaced font are scattered, not stacked so.
func framedListing(b *Block) bool {
	if b.Kind != FigureText || b.Float == nil || b.Float.Kind != Figure || len(b.Lines) < 2 {
		return false
	}
	ls := joinBaselines(append([]*Line(nil), b.Lines...))
	if len(ls) < 2 || !codeBlock(&Block{Lines: ls}) {
		return false
	}
	x0 := math.Inf(1)
	for i, l := range ls {
		x0 = math.Min(x0, l.Box.X0)
		if i > 0 && ls[i-1].Base-l.Base > 2.2*math.Max(l.Size, ls[i-1].Size) {
			return false
		}
	}
	edge := 0
	for _, l := range ls {
		if l.Box.X0-x0 < 0.3*l.Size {
			edge++
		}
	}
	if edge*2 >= len(ls) {
		return true
	}
	// Deeply indented code starts few lines at its left edge; its lines
	// still follow each other at one baseline pitch (verbatim sets every
	// line at the baseline skip), where a diagram's labels are placed
	// where its drawing needs them.
	if len(ls) < 3 {
		return false
	}
	gaps := make([]float64, 0, len(ls)-1)
	for i := 1; i < len(ls); i++ {
		gaps = append(gaps, ls[i-1].Base-ls[i].Base)
	}
	pitch, even := median(gaps), 0
	for i, g := range gaps {
		if math.Abs(g-pitch) <= 0.15*ls[i+1].Size {
			even++
		}
	}
	return even*10 >= len(gaps)*8
}

// splitDisplays splits off a paragraph block's display lines at its start
// or end: a run of lines without prose words (mathish, or a mathLine with
// at most one word: "qvol = −"; an equation number counts), at least one
// of them a mathLine, set more than
// two and a half ems to the right of the block's other lines, which start
// at the text column's edge or its paragraph indent. A
// display set right after "…of the following form:" or before "where …"
// often falls into the paragraph's region. The runs become Equation
// blocks; the block is returned as it is when it has no such run or only
// such lines.
func splitDisplays(b *Block) []*Block {
	if b.Kind != Paragraph || len(b.Lines) < 2 {
		return []*Block{b}
	}
	n := len(b.Lines)
	display := func(l *Line) bool { return !textOpening(l) && (mathish(l) || mathLine(l) && words(l) <= 1) }
	lead := 0
	for lead < n && display(b.Lines[lead]) {
		lead++
	}
	trail := 0
	for trail < n-lead && display(b.Lines[n-1-trail]) {
		trail++
	}
	if lead+trail == 0 || lead+trail >= n {
		return []*Block{b}
	}
	rest := b.Lines[lead : n-trail]
	x0 := math.Inf(1)
	for _, l := range rest {
		x0 = math.Min(x0, l.Box.X0)
	}
	setOff := func(ls []*Line) bool {
		maths := false
		for _, l := range ls {
			if eqNumber.MatchString(l.Text) {
				continue
			}
			if l.Box.X0 < x0+2.5*l.Size {
				return false
			}
			maths = maths || mathLine(l)
		}
		return maths
	}
	if lead > 0 && !setOff(b.Lines[:lead]) {
		lead = 0
	}
	if trail > 0 && !setOff(b.Lines[n-trail:]) {
		trail = 0
	}
	if lead+trail == 0 {
		return []*Block{b}
	}
	return splitEnds(b, lead, trail, Equation)
}

// splitEnds cuts paragraph block b into its first lead lines and its last
// trail lines, each a block of kind k, and the lines between them, a
// Paragraph; the first block takes b's section and its continuation of a
// paragraph before it.
func splitEnds(b *Block, lead, trail int, k Kind) []*Block {
	n := len(b.Lines)
	var out []*Block
	if lead > 0 {
		d := newBlock(k, b.Lines[:lead])
		d.Section, d.Continues = b.Section, b.Continues
		out = append(out, d)
	}
	mid := newBlock(Paragraph, b.Lines[lead:n-trail])
	if lead == 0 {
		mid.Section, mid.Continues = b.Section, b.Continues
	}
	out = append(out, mid)
	if trail > 0 {
		out = append(out, newBlock(k, b.Lines[n-trail:]))
	}
	return out
}

// words counts a line's tokens that are words: three or more letters
// only (a punctuation mark may follow), not the name of a mathematical
// function.
func words(l *Line) int {
	n := 0
	for _, t := range strings.Fields(l.Text) {
		t = strings.TrimRight(t, ",:;.")
		if len([]rune(t)) < 3 || mathFunctions[strings.ToLower(t)] {
			continue
		}
		word := true
		for _, r := range t {
			if !unicode.IsLetter(r) || isMathRune(r) {
				word = false
				break
			}
		}
		if word {
			n++
		}
	}
	return n
}

// textOpening reports whether a line opens with two words of running
// text ("and thus σ² ≡ …", "where the …"): tokens of two or more letters
// only (a comma or colon may follow), not the names of mathematical
// functions. Such a line is a sentence with inline mathematics, never a
// display, however much of it is mathematics.
func textOpening(l *Line) bool {
	f := strings.Fields(l.Text)
	if len(f) < 2 {
		return false
	}
	for _, t := range f[:2] {
		t = strings.TrimRight(t, ",:;.")
		if len([]rune(t)) < 2 || mathFunctions[strings.ToLower(t)] {
			return false
		}
		for _, r := range t {
			if !unicode.IsLetter(r) || isMathRune(r) {
				return false
			}
		}
	}
	return true
}

// annotated returns the equation a paragraph of short notes is set beside:
// each of its lines (at most three, of at most five words, not prose) on
// the baseline of a line of an equation block to its left.
func annotated(b *Block, blocks []*Block) *Block {
	if b.Kind != Paragraph || len(b.Lines) > 3 {
		return nil
	}
	for _, l := range b.Lines {
		if len(strings.Fields(l.Text)) > 5 || prose(l) {
			return nil
		}
	}
	for _, e := range blocks {
		if e == b || e.Kind != Equation || e.Box.X1 > b.Box.X0+1 {
			continue
		}
		all := true
		for _, l := range b.Lines {
			on := false
			for _, el := range e.Lines {
				if math.Abs(el.Base-l.Base) < 0.3*math.Max(el.Size, l.Size) && el.Box.X1 <= l.Box.X0 {
					on = true
					break
				}
			}
			if !on {
				all = false
				break
			}
		}
		if all {
			return e
		}
	}
	return nil
}

// equationOf finds the block an equation number belongs to: the nearest
// block to its left whose lines span its baseline, when that block is an
// equation or one line that is not prose.
func equationOf(num *Block, blocks []*Block) *Block {
	l := num.Lines[0]
	var best *Block
	bestGap := math.Inf(1)
	for _, b := range blocks {
		if b == num || b.Kind.Furniture() || b.Box.X1 > l.Box.X0+1 {
			continue
		}
		if b.Box.Y0 > l.Base+0.5*l.Size || b.Box.Y1 < l.Base {
			continue
		}
		if b.Kind != Equation && !(b.Kind == Paragraph && len(b.Lines) == 1 && !prose(b.Lines[0])) || numberedAt(b, l) {
			continue
		}
		if gap := l.Box.X0 - b.Box.X1; gap < bestGap {
			best, bestGap = b, gap
		}
	}
	return best
}

// between reports whether another block lies between block b and the
// equation number num beside it (to its right, or to its left for a
// number set on the left), across the number's baseline: the number is
// then set beside that block (in the next column, say), not beside b.
func between(blocks []*Block, b, num *Block) bool {
	n := num.Lines[0]
	x0, x1 := b.Box.X1, n.Box.X0
	if b.Box.X0 >= n.Box.X1-1 {
		x0, x1 = n.Box.X1, b.Box.X0
	}
	for _, o := range blocks {
		if o == b || o == num || o.Kind.Furniture() {
			continue
		}
		if o.Box.Y0 <= n.Base+0.5*n.Size && o.Box.Y1 >= n.Base && o.Box.X0 >= x0-1 && o.Box.X1 <= x1+1 {
			return true
		}
	}
	return false
}

// numberedAt reports whether block b already has an equation number on
// the baseline of the number n: a display row has one number, so n
// belongs to another display (one in the next column, say).
func numberedAt(b *Block, n *Line) bool {
	for _, l := range b.Lines {
		if l != n && eqNumber.MatchString(l.Text) && math.Abs(l.Base-n.Base) < 0.5*math.Max(l.Size, n.Size) {
			return true
		}
	}
	return false
}

// EquationNumber reports whether a line's text is an equation number
// alone: "(3)", "(2.1)", "(A.2)", "(4b)".
func EquationNumber(text string) bool { return eqNumber.MatchString(text) }

// equationLabels sets the Label of equation blocks that hold equation
// numbers (their numbers, in reading order, separated by a space), and
// joins an equation number left alone in a block of its own to the
// nearest equation block on the page (on its baseline, else the nearest
// above it in its column); a number with no equation near is left as it
// is.
func equationLabels(p *Page) {
	p.Blocks = joinLimits(p.Blocks)
	var out []*Block
	for _, b := range p.Blocks {
		if len(b.Lines) == 1 && eqNumber.MatchString(b.Lines[0].Text) && (b.Kind == Equation || b.Kind == Paragraph) {
			if e := nearestEquation(p, b); e != nil {
				e.Lines = append(e.Lines, b.Lines[0])
				sortLinesTopDown(e.Lines)
				e.Box = e.Box.Union(b.Box)
				continue
			}
		}
		out = append(out, b)
	}
	p.Blocks = out
	// A number beside a line of another block: that line is a display
	// (set inside a paragraph's region, or a numbered line of code).
	for changed := true; changed; {
		changed = false
		for _, b := range p.Blocks {
			if len(b.Lines) != 1 || !eqNumber.MatchString(b.Lines[0].Text) || b.Kind != Equation && b.Kind != Paragraph {
				continue
			}
			if parts := displayLine(p, b); parts != nil {
				// displayLine may have split a block before the
				// number: remove the number by identity, not index.
				p.Blocks = slices.DeleteFunc(p.Blocks, func(x *Block) bool { return x == b })
				changed = true
				break
			}
		}
	}
	var rows []*Block
	for _, b := range p.Blocks {
		rows = append(rows, numberedRows(b)...)
	}
	p.Blocks = rows
	for _, b := range p.Blocks {
		if b.Kind != Equation && b.Kind != Code {
			continue
		}
		var nums []string
		for _, l := range b.Lines {
			if eqNumber.MatchString(l.Text) {
				nums = append(nums, l.Text)
			}
		}
		if len(nums) < len(b.Lines) {
			b.Label = strings.Join(nums, " ")
		}
	}
}

// joinLimits joins to an equation the limits of its big operators set
// under or over it as lines of their own ("I⊆n−{l}" under a ∑): an
// equation block of script-size lines (under 0.85 of the equation's
// size) less than six tenths of the equation's size above or below it
// (or inside its box, once a first limit joined) and within its width. Two displays are set further apart than that,
// and in the text's size.
func joinLimits(blocks []*Block) []*Block {
	joined := map[*Block]bool{}
	for _, b := range blocks {
		if b.Kind != Equation || joined[b] {
			continue
		}
		for _, e := range blocks {
			if e == b || e.Kind != Equation || joined[e] || e.Rotated != b.Rotated {
				continue
			}
			s := e.Size()
			small := true
			for _, l := range b.Lines {
				if l.Size >= 0.85*s {
					small = false
				}
			}
			gap := math.Max(e.Box.Y0-b.Box.Y1, b.Box.Y0-e.Box.Y1)
			inside := b.Box.Y0 >= e.Box.Y0-1 && b.Box.Y1 <= e.Box.Y1+1
			if !small || gap > 0.6*s || gap < -0.3*s && !inside || b.Box.X0 < e.Box.X0-1 || b.Box.X1 > e.Box.X1+1 {
				continue
			}
			e.Lines = append(e.Lines, b.Lines...)
			sortLinesTopDown(e.Lines)
			e.Box = e.Box.Union(b.Box)
			joined[b] = true
			break
		}
	}
	if len(joined) == 0 {
		return blocks
	}
	return slices.DeleteFunc(blocks, func(b *Block) bool { return joined[b] })
}

// numberedRows splits an equation block that holds several equation
// numbers one below the other (the numbered rows of an eqnarray or align,
// or stacked displays the layout joined) into one block per number: the
// cut between two numbers is the middle of the widest white band across
// the block's other lines between the two numbers' boxes. A block whose
// numbers share a baseline, or whose lines leave no white band between
// two numbers, is returned as it is.
func numberedRows(b *Block) []*Block {
	if b.Kind != Equation {
		return []*Block{b}
	}
	var nums, rest []*Line
	for _, l := range b.Lines {
		if eqNumber.MatchString(l.Text) {
			nums = append(nums, l)
		} else {
			rest = append(rest, l)
		}
	}
	if len(nums) < 2 || len(rest) == 0 {
		return []*Block{b}
	}
	sortLinesTopDown(nums)
	var cuts []float64
	for i := 1; i < len(nums); i++ {
		u, v := nums[i-1], nums[i]
		if u.Base-v.Base < 0.8*math.Max(u.Size, v.Size) {
			return []*Block{b}
		}
		lo, hi := v.Box.Y1, u.Box.Y0
		if hi <= lo {
			lo, hi = v.Base, u.Base
		}
		// The white bands of [lo, hi] across the other lines' boxes.
		var spans [][2]float64
		for _, l := range rest {
			if l.Box.Y1 > lo && l.Box.Y0 < hi {
				spans = append(spans, [2]float64{math.Max(l.Box.Y0, lo), math.Min(l.Box.Y1, hi)})
			}
		}
		slices.SortFunc(spans, func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) })
		best, cut, at := 0.0, 0.0, lo
		for _, sp := range append(spans, [2]float64{hi, hi}) {
			if sp[0]-at > best {
				best, cut = sp[0]-at, (sp[0]+at)/2
			}
			at = math.Max(at, sp[1])
		}
		if best <= 0 {
			return []*Block{b}
		}
		cuts = append(cuts, cut)
	}
	groups := make([][]*Line, len(nums))
	for _, l := range b.Lines {
		mid := (l.Box.Y0 + l.Box.Y1) / 2
		if eqNumber.MatchString(l.Text) {
			mid = l.Base
		}
		g := 0
		for g < len(cuts) && mid < cuts[g] {
			g++
		}
		groups[g] = append(groups[g], l)
	}
	var out []*Block
	for i, g := range groups {
		if len(g) < 2 {
			return []*Block{b} // a number alone: the cut is wrong
		}
		r := newBlock(Equation, g)
		if i == 0 {
			r.Section, r.Continues = b.Section, b.Continues
		}
		r.Rotated, r.Float = b.Rotated, b.Float
		out = append(out, r)
	}
	return out
}

// nearestEquation returns the equation block an equation number alone
// belongs to: one whose vertical extent reaches the number's baseline,
// to its left or (a number set on the left, leqno) to its right (the
// nearest), else the nearest equation ending above it
// within three lines that overlaps its column.
func nearestEquation(p *Page, num *Block) *Block {
	l := num.Lines[0]
	var best *Block
	bestD := math.Inf(1)
	for _, b := range p.Blocks {
		if b == num || b.Kind != Equation || b.Rotated != num.Rotated {
			continue
		}
		if len(b.Lines) == 1 && eqNumber.MatchString(b.Lines[0].Text) || numberedAt(b, l) {
			continue
		}
		var d float64
		switch {
		case b.Box.Y0 <= l.Base+0.8*l.Size && b.Box.Y1 >= l.Base-0.3*l.Size && b.Box.X1 <= l.Box.X0+1:
			if between(p.Blocks, b, num) {
				continue
			}
			d = l.Box.X0 - b.Box.X1
		case b.Box.Y0 <= l.Base+0.8*l.Size && b.Box.Y1 >= l.Base-0.3*l.Size && b.Box.X0 >= l.Box.X1-1:
			// A number set left of its display (leqno, the AMS
			// styles' option).
			if between(p.Blocks, b, num) {
				continue
			}
			d = b.Box.X0 - l.Box.X1
		case b.Box.Y0 >= l.Box.Y1-1 && b.Box.Y0-l.Box.Y1 < 3*l.Size && b.Box.X0 < l.Box.X1 && l.Box.X0-b.Box.X1 < 0.5*p.Width:
			d = 1000 + b.Box.Y0 - l.Box.Y1
		default:
			continue
		}
		if d < bestD {
			best, bestD = b, d
		}
	}
	return best
}

// displayLine joins an equation number alone (num) to the line of
// another body block on its baseline to its left (to its right for a
// number set on the left, leqno, when that line is no running text): a Code or Equation
// block takes it as it is; a block of another kind is split there, the
// line and the number becoming an Equation block of their own between
// the lines before and after it. It returns the blocks that replaced
// the one split (nil when no line was found); the caller removes num.
func displayLine(p *Page, num *Block) []*Block {
	n := num.Lines[0]
	bi, at, short, bestD := -1, -1, false, math.Inf(1)
	for i, b := range p.Blocks {
		if b == num || b.Rotated != num.Rotated || b.Kind.Furniture() || b.Float != nil || isCaption(b.Kind) || b.Kind == Heading ||
			b.Kind == TableText || b.Kind == FigureText || numberedAt(b, n) {
			continue
		}
		// The display lies left of the number, or right of it for a
		// number set on the left (leqno).
		left := b.Box.X0 < n.Box.X0
		if !left && b.Box.X0 < n.Box.X1-1 {
			continue
		}
		li := -1
		for k, l := range b.Lines {
			if math.Abs(l.Base-n.Base) < 0.5*math.Max(l.Size, n.Size) && (left && l.Box.X1 <= n.Box.X0+1 || !left && l.Box.X0 >= n.Box.X1-1) {
				li = k
				break
			}
		}
		// A number on the left stands before a display, never before
		// a line of running text (a list's label set apart).
		if !left && li >= 0 && (prose(b.Lines[li]) || textOpening(b.Lines[li])) {
			continue
		}
		// A short display of a few lines (none of them prose) that the
		// number is set beside, centred on its height.
		sh := len(b.Lines) <= 4 && b.Box.Y0 <= n.Base && b.Box.Y1 >= n.Base && (!left || b.Box.X1 <= n.Box.X0+1)
		for _, l := range b.Lines {
			if prose(l) {
				sh = false
			}
		}
		if li < 0 && !sh {
			continue
		}
		// The nearest such line or block to the number: the first in
		// reading order may be in the other column.
		d := n.Box.X0 - b.Box.X1
		if !left {
			d = b.Box.X0 - n.Box.X1
		}
		if li >= 0 {
			d = n.Box.X0 - b.Lines[li].Box.X1
			if !left {
				d = b.Lines[li].Box.X0 - n.Box.X1
			}
		}
		if d < bestD {
			// The whole block is the display when none of its lines
			// has words; else the line on the number's baseline is.
			whole := sh
			for _, l := range b.Lines {
				if textOpening(l) || !mathish(l) && !mathLine(l) {
					whole = false
				}
			}
			bi, at, short, bestD = i, li, whole, d
		}
	}
	if bi < 0 {
		return nil
	}
	b := p.Blocks[bi]
	if b.Kind == Code || b.Kind == Equation || at < 0 || short {
		if b.Kind != Code {
			b.Kind = Equation
		}
		b.Lines = append(b.Lines, n)
		sortLinesTopDown(b.Lines)
		b.Box = b.Box.Union(n.Box)
		return []*Block{b}
	}
	var parts []*Block
	if at > 0 {
		before := newBlock(b.Kind, b.Lines[:at])
		before.Section, before.Continues = b.Section, b.Continues
		parts = append(parts, before)
	}
	eq := newBlock(Equation, []*Line{b.Lines[at], n})
	if at == 0 {
		eq.Section = b.Section
	}
	parts = append(parts, eq)
	if at+1 < len(b.Lines) {
		parts = append(parts, newBlock(b.Kind, b.Lines[at+1:]))
	}
	rest := append([]*Block{}, p.Blocks[bi+1:]...)
	p.Blocks = append(append(p.Blocks[:bi], parts...), rest...)
	return parts
}
