package layout

import (
	"github.com/crossmem/crossmem/internal/pdf"
	"regexp"
	"strings"
)

// False tables. The float finder takes any grid of aligned short lines
// for a table; once its cells are read, notATable turns down the grids
// that are something else set in columns:
//
//   - an author block: names, affiliations and e-mail addresses laid out
//     side by side on a title page. Two or more e-mail addresses, or
//     e-mail addresses in a quarter of the rows, mark it (results tables
//     do not list addresses); its lines go back to the running text;
//   - a single column (no row with two cells): a list, a block of short
//     lines (dates received and accepted), a grammar, an algorithm's
//     steps, a diagram's labels; a table has at least two columns. Drawn
//     with rules (two or more across it: a boxed algorithm, a packet
//     diagram, a plot's frame) it is a figure, its text figure text;
//     otherwise its lines go back to the running text.
func notATable(cells [][]string, box pdf.Rect, hRules []pdf.Rect) rejection {
	if len(cells) == 0 {
		return asText
	}
	mails, rows := 0, 0
	for _, r := range cells {
		has := false
		for _, c := range r {
			if k := len(emailAddress.FindAllString(c, -1)); k > 0 {
				mails += k
				has = true
			}
		}
		if has {
			rows++
		}
	}
	if mails >= 2 || rows > 0 && rows*4 >= len(cells) {
		return asText
	}
	cols := 0
	for _, r := range cells {
		n := 0
		for _, c := range r {
			if strings.TrimSpace(c) != "" {
				n++
			}
		}
		cols = max(cols, n)
	}
	if cols >= 2 {
		return isTable
	}
	across := 0
	for _, r := range hRules {
		y := (r.Y0 + r.Y1) / 2
		if y >= box.Y0-3 && y <= box.Y1+3 && r.Width() >= 0.5*box.Width() && r.X0 < box.X1 && r.X1 > box.X0 {
			across++
		}
	}
	if across >= 2 {
		return asFigure
	}
	return asText
}

// rejection is what notATable makes of a table's area.
type rejection int

const (
	isTable  rejection = iota // a table
	asText                    // running text
	asFigure                  // a figure
)

// emailAddress matches an e-mail address, or a group of them written
// {a,b}@host.
var emailAddress = regexp.MustCompile(`[\p{L}\p{N}._%+\-{},]+@[\p{L}\p{N}\-]+(\.[\p{L}\p{N}\-]+)+`)

// cellLines reports whether the text between two rules of a table holds
// a cell's wrapped text rather than running text set between rules: its
// running lines (prose) all start in the band's right three quarters,
// inside a column (a cell's description, a list inside a cell), where
// running text between rules starts at their left end.
func cellLines(band pdf.Rect, lines []*Line, ro roles) bool {
	n := 0
	for _, l := range lines {
		if !inside(l, band) || !ro.running[l] {
			continue
		}
		n++
		if l.Box.X0 < band.X0+0.25*band.Width() {
			return false
		}
	}
	return n > 0
}
