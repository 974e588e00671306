package chunk

import "github.com/crossmem/crossmem/internal/layout"

// Types are the chunk types a note can hold (the layout's block kinds):
// what a search's type filter may name.
var Types = []string{
	string(layout.Paragraph), string(layout.Heading), string(layout.Figure), string(layout.Table),
	string(layout.ListItem), string(layout.TableText), string(layout.FigureText), string(layout.Equation), string(layout.Code),
	string(layout.Footnote), string(layout.Reference),
	string(layout.PageHeader), string(layout.PageFooter), string(layout.MarginNote),
}

// IsType reports whether t is one of Types.
func IsType(t string) bool {
	for _, x := range Types {
		if x == t {
			return true
		}
	}
	return false
}
