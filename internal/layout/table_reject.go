package layout

import (
	"github.com/crossmem/crossmem/internal/pdf"
	"regexp"
	"strings"
)

// False tables. The float finder takes any grid of aligned short lines
// for a table; once its cells are read, notATable turns down the grids
// that are something else set in columns, and their lines go back to the
// running text:
//
//   - a single column (every row one cell): a list, a block of short
//     lines (dates received and accepted), a grammar, an algorithm's
//     steps; a table has at least two columns;
//   - an author block: names, affiliations and e-mail addresses laid out
//     side by side on a title page. Two or more cells that hold an e-mail
//     address, or e-mail addresses in a quarter of the rows, mark it:
//     results tables do not list addresses.
func notATable(cells [][]string) bool {
	if len(cells) == 0 {
		return true
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
	if cols < 2 {
		return true
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
	return mails >= 2 || rows*4 >= len(cells) && rows > 0
}

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
