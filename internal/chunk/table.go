package chunk

import (
	"strings"
)

// A table chunk's text is the canonical form of its cells: one line per
// row, top to bottom; the cells of a row left to right, separated by one
// tab (U+0009); an empty cell is the empty string, so every row has the
// same number of tabs. A cell's text is the verbatim text of its lines
// joined by one space (the text policy never leaves a tab, a line break,
// or a space at either end inside a cell, so the form is unambiguous).
// text_sha256 covers this form; the note shows it as a markdown table
// (TableMarkdown) and reads it back exactly (ParseTableMarkdown).

// CellSeparator separates the cells of a row in a table chunk's text.
const CellSeparator = "\t"

// TableText returns the canonical text of a table's cells.
func TableText(cells [][]string) string {
	rows := make([]string, len(cells))
	for i, r := range cells {
		rows[i] = strings.Join(r, CellSeparator)
	}
	return strings.Join(rows, "\n")
}

// Cells splits a table chunk's canonical text into rows of cells.
func Cells(text string) [][]string {
	var out [][]string
	for _, row := range strings.Split(text, "\n") {
		out = append(out, strings.Split(row, CellSeparator))
	}
	return out
}

// TableMarkdown renders a table chunk's canonical text as the lines of a
// markdown table: "| a | b |" per row, a "| --- | --- |" line after the
// first, "|" and "\" in a cell escaped with "\".
func TableMarkdown(text string) []string {
	rows := Cells(text)
	var out []string
	for i, r := range rows {
		var b strings.Builder
		b.WriteString("|")
		for _, c := range r {
			c = strings.ReplaceAll(c, `\`, `\\`)
			c = strings.ReplaceAll(c, "|", `\|`)
			b.WriteString(" " + c + " |")
		}
		out = append(out, b.String())
		if i == 0 {
			out = append(out, "|"+strings.Repeat(" --- |", len(r)))
		}
	}
	return out
}

// ParseTableMarkdown is the inverse of TableMarkdown: it returns the
// canonical text, false when the lines are not a table TableMarkdown
// writes.
func ParseTableMarkdown(lines []string) (string, bool) {
	if len(lines) < 2 {
		return "", false
	}
	var rows []string
	for i, l := range lines {
		if i == 1 {
			if !strings.HasPrefix(l, "|") || strings.Trim(l, "| -") != "" {
				return "", false
			}
			continue
		}
		if !strings.HasPrefix(l, "| ") || !strings.HasSuffix(l, " |") || len(l) < 4 {
			return "", false
		}
		inner := l[2 : len(l)-2]
		var cells []string
		var cur strings.Builder
		for j := 0; j < len(inner); j++ {
			c := inner[j]
			switch {
			case c == '\\' && j+1 < len(inner):
				cur.WriteByte(inner[j+1])
				j++
			case c == '\\':
				return "", false
			case c == '|':
				// " | " between cells.
				s := cur.String()
				if !strings.HasSuffix(s, " ") || j+1 >= len(inner) || inner[j+1] != ' ' {
					return "", false
				}
				cells = append(cells, s[:len(s)-1])
				cur.Reset()
				j++
			default:
				cur.WriteByte(c)
			}
		}
		cells = append(cells, cur.String())
		rows = append(rows, strings.Join(cells, CellSeparator))
	}
	return strings.Join(rows, "\n"), true
}
