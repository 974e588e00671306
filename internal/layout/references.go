package layout

import (
	"math"
	"strings"
)

// bibliographyNames are the titles of a bibliography section, lower case,
// without a section number or closing punctuation, in the languages
// papers are commonly written in.
var bibliographyNames = map[string]bool{
	"references": true, "reference": true, "bibliography": true, "literature cited": true,
	"works cited": true, "cited literature": true, "literature": true, "reference list": true,
	"references and notes": true, "notes and references": true, "selected references": true,
	"references cited": true, "sources": true,
	"bibliographie": true, "références": true, "références bibliographiques": true,
	"literatur": true, "literaturverzeichnis": true, "referencias": true, "referências": true,
	"bibliografía": true, "bibliografia": true, "riferimenti bibliografici": true,
}

// IsBibliographyTitle reports whether a section title names the
// bibliography: "References", "7 Bibliography", "Literature Cited",
// "REFERENCES AND NOTES", "Literaturverzeichnis". A title that only begins
// with the word ("References to Figures and Equations", "Reference
// Formatting") names a section about references, not the list.
func IsBibliographyTitle(title string) bool {
	return bibliographyNames[strings.Join(strings.Fields(bareHeading(title)), " ")]
}

// continuesEntry reports whether paragraph b, read in a bibliography right
// after the entry piece prev, is the rest of that entry which the
// paragraph splitter cut off: its first line does not start an entry
// ("[12]", "12.", "(12)"), sits at the list's hanging indent (0.6 to 4
// type sizes right of prev's first line), and follows prev's last line in
// the same column at the list's line spacing (at most 1.8 type sizes from
// baseline to baseline), in the same size. A bibliography set with a
// hanging indent looks, line by line, like paragraphs with an indented
// first line; this undoes that reading.
func continuesEntry(prev, b *Block) bool {
	if prev == nil || len(prev.Lines) == 0 || len(b.Lines) == 0 || b.Rotated || prev.Rotated {
		return false
	}
	first, last := b.Lines[0], prev.Lines[len(prev.Lines)-1]
	s := prev.Size()
	if s <= 0 || math.Abs(b.Size()-s) > 0.15*s || refStart.MatchString(first.Text) {
		return false
	}
	indent := first.Box.X0 - prev.Lines[0].Box.X0
	if indent < 0.6*s || indent > 4*s {
		return false
	}
	pitch := last.Base - first.Base
	overlap := math.Min(prev.Box.X1, b.Box.X1) - math.Max(prev.Box.X0, b.Box.X0)
	return pitch > 0 && pitch <= 1.8*s && overlap > 0.5*math.Min(prev.Box.X1-prev.Box.X0, b.Box.X1-b.Box.X0)
}

// restOfEntry reports whether bibliography piece b, set at the top of a
// column or page, is the rest of entry prev: prev starts with an entry
// label ("[12]", "12.") and b does not — in a labelled list every entry
// starts with its label — and the text runs on (open: prev's last line
// does not end a sentence, or b starts in lower case).
func restOfEntry(prev, b *Block, open bool) bool {
	return open && len(prev.Lines) > 0 && len(b.Lines) > 0 &&
		refStart.MatchString(prev.Lines[0].Text) && !refStart.MatchString(b.Lines[0].Text)
}
