package layout

import (
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
	return l.Ink > 0 && !prose(l) && l.Math*10 >= l.Ink*3
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
//   - a block whose lines are at least 80 % monospaced is Code;
//   - a line of at most four words set between two equations, one below
//     the other ("and", "where", "and we obtain"), joins them;
//   - consecutive Equation blocks (Code blocks) less than a line and a
//     half (two lines) apart, one below the other, are one block.
func mathAndCode(blocks []*Block) []*Block {
	for _, b := range blocks {
		if b.Kind != Paragraph {
			continue
		}
		maths, monos := 0, 0
		for _, l := range b.Lines {
			if mathLine(l) {
				maths++
			}
			if l.Mono {
				monos++
			}
		}
		switch {
		case monos*10 >= len(b.Lines)*8:
			b.Kind = Code
		case maths == len(b.Lines):
			b.Kind = Equation
		}
	}
	// Pieces of a display next to an equation — a fraction's denominator,
	// a subscript line, a lone operand — that hold no prose word are part
	// of it.
	for changed := true; changed; {
		changed = false
		for _, b := range blocks {
			if b.Kind != Paragraph || len(b.Lines) > 3 {
				continue
			}
			all := true
			for _, l := range b.Lines {
				if !mathish(l) {
					all = false
					break
				}
			}
			if !all {
				continue
			}
			for _, e := range blocks {
				if e.Kind != Equation || e == b {
					continue
				}
				s := math.Max(e.Size(), b.Size())
				gap := math.Max(e.Box.Y0-b.Box.Y1, b.Box.Y0-e.Box.Y1)
				ov := math.Min(e.Box.X1, b.Box.X1) - math.Max(e.Box.X0, b.Box.X0)
				if gap < 1.2*s && ov > -s {
					b.Kind = Equation
					changed = true
					break
				}
			}
		}
	}
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
	// Pieces of one equation or listing.
	var joined []*Block
	for _, b := range out {
		if n := len(joined); n > 0 && (b.Kind == Equation || b.Kind == Code) && joined[n-1].Kind == b.Kind {
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
		if b.Kind != Equation && !(b.Kind == Paragraph && len(b.Lines) == 1 && !prose(b.Lines[0])) {
			continue
		}
		if gap := l.Box.X0 - b.Box.X1; gap < bestGap {
			best, bestGap = b, gap
		}
	}
	return best
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

// nearestEquation returns the equation block an equation number alone
// belongs to: one whose vertical extent reaches the number's baseline,
// to its left (the nearest), else the nearest equation ending above it
// within three lines that overlaps its column.
func nearestEquation(p *Page, num *Block) *Block {
	l := num.Lines[0]
	var best *Block
	bestD := math.Inf(1)
	for _, b := range p.Blocks {
		if b == num || b.Kind != Equation || b.Rotated != num.Rotated {
			continue
		}
		if len(b.Lines) == 1 && eqNumber.MatchString(b.Lines[0].Text) {
			continue
		}
		var d float64
		switch {
		case b.Box.Y0 <= l.Base+0.8*l.Size && b.Box.Y1 >= l.Base-0.3*l.Size && b.Box.X1 <= l.Box.X0+1:
			d = l.Box.X0 - b.Box.X1
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
// another body block on its baseline to its left: a Code or Equation
// block takes it as it is; a block of another kind is split there, the
// line and the number becoming an Equation block of their own between
// the lines before and after it. It returns the blocks that replaced
// the one split (nil when no line was found); the caller removes num.
func displayLine(p *Page, num *Block) []*Block {
	n := num.Lines[0]
	for bi, b := range p.Blocks {
		if b == num || b.Rotated != num.Rotated || b.Kind.Furniture() || b.Float != nil || isCaption(b.Kind) || b.Kind == Heading ||
			b.Kind == TableText || b.Kind == FigureText || b.Box.X0 >= n.Box.X0 {
			continue
		}
		at := -1
		for i, l := range b.Lines {
			if math.Abs(l.Base-n.Base) < 0.5*math.Max(l.Size, n.Size) && l.Box.X1 <= n.Box.X0+1 {
				at = i
				break
			}
		}
		// A short display of a few lines (none of them prose) that the
		// number is set beside, centred on its height.
		short := len(b.Lines) <= 4 && b.Box.Y0 <= n.Base && b.Box.Y1 >= n.Base && b.Box.X1 <= n.Box.X0+1
		for _, l := range b.Lines {
			if prose(l) {
				short = false
			}
		}
		if at < 0 && !short {
			continue
		}
		if b.Kind == Code || b.Kind == Equation || at < 0 {
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
	return nil
}
