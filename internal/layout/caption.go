package layout

import (
	"regexp"
	"strings"
)

// Captions. A caption opens with a label: a float's name and its number,
// in any of the forms publishers print —
//
//	Figure 3: …    Fig. 2 A figure …    FIGURE 4. …    Figure 1-2   …
//	Table IV | …   Table 1 Composition …   Tab. 3 …   Table S3. …   Table A1 …
//	Listing 1: …   Algorithm 2 …   Scheme 1. …   Chart 2 …   Example 2-1 …
//
// — a number (1, 1.2, 1-2, 1–2, A1, S3, or a Roman numeral) followed by a
// colon, a period, a bar, a dash, a capitalised word or the end of the
// line. "Figure 3 shows …" (a lower-case word after the number) is running
// text that happens to start with a reference, not a caption.

// Caption is a caption that names neither a figure nor a table: a code
// listing's, an algorithm's, an example's ("Listing 1:", "Algorithm 2").
const Caption Kind = "caption"

var (
	// captionStart matches a caption's label at the start of a block's
	// text; the first group is the label as printed, the second its name.
	captionStart = regexp.MustCompile(`^((Figure|Fig\.|FIGURE|FIG\.|Figs?|Table|TABLE|Tab\.|TAB\.|Listing|LISTING|Algorithm|ALGORITHM|Scheme|SCHEME|Chart|CHART|Plate|PLATE|Example|EXAMPLE|Exhibit|EXHIBIT)\s?((?:[A-Z]|S)?[0-9]{1,3}(?:[-.–][0-9]{1,3})*|[IVXL]{1,6})[a-z]?)(?:\s*[:.|—–-](?:\s|$)|\s*[:|]\S|\s+[A-Z(\["“‘'0-9]|\s*\n|\s*$)`)
)

// captionKind returns the kind of caption text opens with — Figure,
// Table or Caption (listings, algorithms, examples) — and its label
// ("Figure 1-2"); "" when the text does not open with a caption label.
func captionKind(text string) (Kind, string) {
	m := captionStart.FindStringSubmatch(text)
	if m == nil {
		return "", ""
	}
	label := m[1]
	// A row of numbers whose first cell is a word ("Figure 0.0 0.0 88.9",
	// a table's row about figures) is no caption.
	if rest := strings.Fields(text[len(m[1]):]); len(rest) >= 2 && isNumberToken(rest[0]) && isNumberToken(rest[1]) {
		return "", ""
	}
	switch strings.ToLower(strings.TrimSuffix(m[2], ".")) {
	case "figure", "fig", "figs", "scheme", "chart", "plate":
		return Figure, label
	case "table", "tab":
		return Table, label
	case "example", "exhibit":
		// "Example 2." opens a worked example in running text as often as
		// it captions a listing: only a short block is a caption, and
		// linkFloats keeps it one only next to a float or a listing.
		if strings.Count(text, "\n") > 2 {
			return "", ""
		}
	}
	return Caption, label
}

// captionText reports whether text opens with a caption label
// (captionKind): the one test of "is this a caption" for blocks and lines
// alike.
func captionText(text string) bool {
	k, _ := captionKind(text)
	return k != ""
}

// isCaption reports whether a block kind is a caption's.
func isCaption(k Kind) bool { return k == Figure || k == Table || k == Caption }
