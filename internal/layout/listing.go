package layout

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/crossmem/crossmem/internal/pdf"
)

// Code listings. Verbatim text keeps the author's spaces in a fixed-pitch
// font, so a listing's indentation, aligned comments and the keywords of
// a query set apart from their arguments line up in columns the way a
// table's cells do, and wide runs of spaces split its lines as a column
// gap would. Three rules keep a listing one Code block with its lines
// whole:
//
//   - a table found by alignment whose text is monospaced (codeListing)
//     is no table: its lines go back to the running text, where
//     mathAndCode types them Code;
//   - a line number in the text face before monospaced text is part of
//     the code line (codeLine), and a column of line numbers beside a
//     listing is part of the listing;
//   - the parts of a listing set side by side within a text column
//     (listingBeside) are one block, whose lines on one baseline are one
//     line, joined left to right by a space.

// listingNumber matches a listing's line number: digits alone.
var listingNumber = regexp.MustCompile(`^[0-9]{1,5}$`)

// codeLine reports whether line l is a line of code: at least 80 % of its
// characters monospaced (Mono), or a line number followed by text that
// is (docstrip's and the listings package's numbers are set in the text
// face, the code beside them in typewriter type).
func codeLine(l *Line) bool {
	if l.Mono {
		return true
	}
	f := strings.Fields(l.Text)
	if len(f) < 2 || !listingNumber.MatchString(f[0]) {
		return false
	}
	rest := l.Ink - len(f[0])
	return rest > 0 && l.monoInk*10 >= rest*8
}

// numberLine reports whether line l is a line number alone.
func numberLine(l *Line) bool { return listingNumber.MatchString(strings.TrimSpace(l.Text)) }

// codeListing reports whether the lines of a table are a code listing: at
// least three lines that are not a line number alone, at least 80 % of
// them code lines (codeLine), one such line alone on its baseline in two
// rows of three at least (a listing is one column of lines; its parts
// that wide runs of spaces split are the exception), and no horizontal
// rule drawn across the box between its rows. A table is set in the text face with column glue (a
// typewriter column of commands beside a column of descriptions is in
// the text face in half its cells); a ruled one draws rules between its
// head and its body. A column of line numbers beside the code is no data
// column.
func codeListing(lines []*Line, box pdf.Rect, hRules []pdf.Rect) bool {
	code, mono := 0, 0
	for _, l := range lines {
		if numberLine(l) {
			continue
		}
		code++
		if codeLine(l) {
			mono++
		}
	}
	if code < 3 || mono*10 < code*8 {
		return false
	}
	// One line of code per row in two rows of three: a table sets cells
	// side by side in most of its rows (a table of symbols, their codes
	// and commands in typewriter type, in two groups of columns).
	var text []*Line
	for _, l := range lines {
		if !numberLine(l) {
			text = append(text, l)
		}
	}
	rows := rowsOf(text)
	single := 0
	for _, r := range rows {
		if len(r.lines) == 1 {
			single++
		}
	}
	return single*3 >= len(rows)*2 && !ruleAcross(box, hRules)
}

// ruleAcross reports whether a horizontal rule is drawn across box (half
// its width or more) between its top and bottom.
func ruleAcross(box pdf.Rect, hRules []pdf.Rect) bool {
	for _, r := range hRules {
		y := (r.Y0 + r.Y1) / 2
		if y > box.Y0+3 && y < box.Y1-3 && r.X0 < box.X1 && r.X1 > box.X0 && r.Width() >= 0.5*box.Width() {
			return true
		}
	}
	return false
}

// codeBlock reports whether a block's lines are a listing's: code lines
// (codeLine) make at least 80 % of the lines that are not a line number
// alone, and line numbers alone are no more than the code lines (a
// column of line numbers joins its listing by listingBeside).
func codeBlock(b *Block) bool {
	code, numbers := 0, 0
	for _, l := range b.Lines {
		switch {
		case codeLine(l):
			code++
		case numberLine(l):
			numbers++
		}
	}
	return code > 0 && code*10 >= (len(b.Lines)-numbers)*8 && numbers <= code
}

// listingPart reports whether a block may be joined to a listing beside
// it: a Code block, or a Paragraph of line numbers alone.
func listingPart(b *Block) bool {
	if b.Kind == Code {
		return true
	}
	if b.Kind != Paragraph {
		return false
	}
	for _, l := range b.Lines {
		if !numberLine(l) {
			return false
		}
	}
	return true
}

// listingBeside joins the parts of a listing set side by side: a Code
// block and a Code block or a column of line numbers (listingPart) that
// share a band (the vertical overlap is at least half the smaller
// block's height) and lie less than an em apart across (or overlap), or
// less than four ems apart within a text column: a line of running text
// (prose) spans the gap, so it is no gutter between columns (beside, as
// the pieces of a display are joined). The joined
// block keeps the earlier block's place in reading order; its lines on
// one baseline (within 0.3 of their size) become one line, joined left
// to right by a space.
func listingBeside(blocks []*Block) []*Block {
	for i := 0; i < len(blocks); i++ {
		if !listingPart(blocks[i]) {
			continue
		}
		for j := i + 1; j < len(blocks); j++ {
			a, b := blocks[i], blocks[j]
			if !listingPart(b) || a.Kind != Code && b.Kind != Code || !beside(a, b, blocks) {
				continue
			}
			blocks[i] = newBlock(Code, joinBaselines(append(append([]*Line(nil), a.Lines...), b.Lines...)))
			blocks = append(blocks[:j], blocks[j+1:]...)
			j = i // the joined block may reach blocks passed over
		}
	}
	return blocks
}

// joinBaselines returns lines top down, the lines that share a baseline
// (within 0.3 of the larger size) joined into one, left to right.
func joinBaselines(ls []*Line) []*Line {
	sortLinesTopDown(ls)
	var out []*Line
	for _, l := range ls {
		if n := len(out); n > 0 && math.Abs(out[n-1].Base-l.Base) <= 0.3*math.Max(out[n-1].Size, l.Size) {
			out[n-1] = joinLine(out[n-1], l)
			continue
		}
		out = append(out, l)
	}
	return out
}

// joinLine returns one line made of line a and line b to its right,
// their texts joined by a space; its size and baseline are those of the
// line with more characters (the right one when even: the code after a
// line number).
func joinLine(a, b *Line) *Line {
	sp := char{Char: pdf.Char{Rune: ' ', Generated: true, Font: -1}}
	q := &Line{
		Text:       a.Text + " " + b.Text,
		Box:        a.Box.Union(b.Box),
		chars:      append(append(append([]char(nil), a.chars...), sp), b.chars...),
		Ink:        a.Ink + b.Ink,
		Math:       a.Math + b.Math,
		monoInk:    a.monoInk + b.monoInk,
		Hyphenated: b.Hyphenated,
		seq:        min(a.seq, b.seq),
		quarter:    a.quarter,
	}
	main := a
	if b.Ink >= a.Ink {
		main = b
	}
	q.Size, q.Base = main.Size, main.Base
	q.Bold, q.Italic = main.Bold, main.Italic
	q.Mono = q.Ink > 0 && q.monoInk*10 >= q.Ink*8
	return q
}

// splitListing splits off a paragraph block's numbered code lines at its
// start or end: lines that open with a line number followed by code
// (codeLine), when the block's other lines hold text that is no code and
// no line number, and the run continues a listing: two lines numbered one
// after the other at least, or a line whose number follows the last of
// the code block before it (prev) or precedes the first of the one after
// it (next) — a footnote's number before a typewriter address is no line
// number. A listing set right after "… as follows:" (or a paragraph
// right after a listing) with no space between falls into the
// paragraph's region. The runs become Code blocks; the block is returned
// as it is otherwise.
func splitListing(b, prev, next *Block) []*Block {
	if b.Kind != Paragraph || len(b.Lines) < 2 {
		return []*Block{b}
	}
	number := func(l *Line) (int, bool) {
		f := strings.Fields(l.Text)
		if len(f) < 2 || !listingNumber.MatchString(f[0]) || !codeLine(l) {
			return 0, false
		}
		n, err := strconv.Atoi(f[0])
		return n, err == nil
	}
	first := func(x *Block, last bool) (int, bool) {
		if x == nil || len(x.Lines) == 0 || x.Kind != Code && !(x.Kind == Paragraph && codeBlock(x)) {
			return 0, false
		}
		l := x.Lines[0]
		if last {
			l = x.Lines[len(x.Lines)-1]
		}
		return number(l)
	}
	// continues reports whether the numbered lines ls are consecutive and
	// a run of two, or one that the neighbouring listing's number continues.
	continues := func(ls []*Line, before bool) bool {
		var nums []int
		for _, l := range ls {
			n, _ := number(l)
			if len(nums) > 0 && n != nums[len(nums)-1]+1 {
				return false
			}
			nums = append(nums, n)
		}
		if len(nums) >= 2 {
			return true
		}
		if before {
			m, ok := first(prev, true)
			return ok && m+1 == nums[0]
		}
		m, ok := first(next, false)
		return ok && nums[len(nums)-1]+1 == m
	}
	n := len(b.Lines)
	lead := 0
	for lead < n {
		if _, ok := number(b.Lines[lead]); !ok {
			break
		}
		lead++
	}
	trail := 0
	for trail < n-lead {
		if _, ok := number(b.Lines[n-1-trail]); !ok {
			break
		}
		trail++
	}
	if lead > 0 && !continues(b.Lines[:lead], true) {
		lead = 0
	}
	if trail > 0 && !continues(b.Lines[n-trail:], false) {
		trail = 0
	}
	if lead+trail == 0 || lead+trail >= n {
		return []*Block{b}
	}
	text := false
	for _, l := range b.Lines[lead : n-trail] {
		if codeLine(l) {
			return []*Block{b}
		}
		text = text || !numberLine(l)
	}
	if !text {
		return []*Block{b}
	}
	return splitEnds(b, lead, trail, Code)
}
