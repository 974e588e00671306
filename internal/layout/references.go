package layout

import (
	"math"
	"strconv"
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

// entryLabel names the form of the label a bibliography entry's text
// starts with: "[]" for "[12]", "[a]" for "[Knu84]", "." for "12.", ")" for "12)",
// "()" for "(12)"; "" when it starts with none. A list labels all its
// entries alike, so "379. [astro-ph/0603494]" carried over from an entry
// of a "[12]" list starts no entry.
func entryLabel(text string) string {
	m := refStart.FindStringSubmatch(text)
	if m == nil {
		return ""
	}
	switch l := m[1]; l[0] {
	case '[':
		if strings.Trim(l, "[]0123456789") == "" {
			return "[]"
		}
		return "[a]"
	case '(':
		return "()"
	default:
		return l[len(l)-1:]
	}
}

// entryNumber returns the number of a numeric entry label a text starts
// with ("12." "[12]" "(12)" "12)"), or -1.
func entryNumber(text string) int {
	m := refStart.FindStringSubmatch(text)
	if m == nil {
		return -1
	}
	n, err := strconv.Atoi(strings.Trim(m[1], "[](). "))
	if err != nil {
		return -1
	}
	return n
}

// outOfSequence reports whether text starts with a numeric label of the
// same form as the one of entry prev's text that is not the next number
// ("116." of a page range "pp. 105–116." broken after its dash, read after
// entry "10."): a numbered list numbers its entries one after another, so
// such a label starts no entry.
func outOfSequence(prev, text string) bool {
	p, n := entryNumber(prev), entryNumber(text)
	return p >= 0 && n >= 0 && entryLabel(prev) == entryLabel(text) && n != p+1
}

// continuesEntry reports whether paragraph b, read in a bibliography right
// after the entry piece prev, is the rest of that entry which the
// paragraph splitter cut off: its first line does not start an entry
// (a label of prev's form, "[12]", "12.", "(12)", numbered next after
// prev's: see outOfSequence), sits at the list's hanging indent (0.6 to 4
// type sizes right of prev's first line), and follows prev's last line in
// the same column at the list's line spacing (from baseline to baseline
// at most 1.8 type sizes or 1.3 times the spacing of the lines inside
// prev or b, whichever is more, and never over 3 sizes), in the same size. A bibliography set with a
// hanging indent looks, line by line, like paragraphs with an indented
// first line; this undoes that reading.
func continuesEntry(prev, b *Block) bool {
	if prev == nil || len(prev.Lines) == 0 || len(b.Lines) == 0 || b.Rotated || prev.Rotated {
		return false
	}
	first, last := b.Lines[0], prev.Lines[len(prev.Lines)-1]
	s := prev.Size()
	if s <= 0 || math.Abs(b.Size()-s) > 0.15*s {
		return false
	}
	if st := entryLabel(first.Text); st != "" && (st == entryLabel(prev.Lines[0].Text) || entryLabel(prev.Lines[0].Text) == "") &&
		!outOfSequence(prev.Lines[0].Text, first.Text) {
		return false // a new entry
	}
	indent := first.Box.X0 - prev.Lines[0].Box.X0
	if indent < 0.6*s || indent > 4*s {
		return false
	}
	// The list's own line spacing, read inside prev or b (a manuscript
	// set double-spaced has twice the usual).
	lead := 1.2 * s
	for _, o := range []*Block{prev, b} {
		if len(o.Lines) >= 2 {
			lead = (o.Lines[0].Base - o.Lines[len(o.Lines)-1].Base) / float64(len(o.Lines)-1)
			break
		}
	}
	pitch := last.Base - first.Base
	overlap := math.Min(prev.Box.X1, b.Box.X1) - math.Max(prev.Box.X0, b.Box.X0)
	return pitch > 0 && pitch <= math.Min(math.Max(1.8*s, 1.3*lead), 3*s) && overlap > 0.5*math.Min(prev.Box.X1-prev.Box.X0, b.Box.X1-b.Box.X0)
}

// restOfEntry reports whether bibliography piece b, set at the top of a
// column or page, is the rest of entry prev: prev starts with an entry
// label ("[12]", "12.") and b does not start with one of that form (or
// with a number out of sequence) — in a labelled list every entry
// starts with its label — and the text runs on (open: prev's last line
// does not end a sentence, or b starts in lower case).
func restOfEntry(prev, b *Block, open bool) bool {
	if !open || len(prev.Lines) == 0 || len(b.Lines) == 0 {
		return false
	}
	st := entryLabel(prev.Lines[0].Text)
	return st != "" && (entryLabel(b.Lines[0].Text) != st || outOfSequence(prev.Lines[0].Text, b.Lines[0].Text))
}

// refFootnote reports whether paragraph b, on page p of a bibliography
// after the blocks out (the page's blocks before b, as kinds types them), is a footnote of the page rather than an entry:
// set smaller than the entries before it on the page (by at least 5 %),
// at the foot of its column with a footnote mark (isFootnote) — or the
// next line of such a footnote, right under it in its size.
func refFootnote(p *Page, out []*Block, b *Block, st Stats) bool {
	var last, ref *Block
	for i := len(out) - 1; i >= 0 && (last == nil || ref == nil); i-- {
		o := out[i]
		if last == nil && !o.Kind.Furniture() {
			last = o
		}
		if ref == nil && o.Kind == Reference {
			ref = o
		}
	}
	if ref == nil || b.Size() >= 0.95*ref.Size() {
		return false
	}
	if last != nil && last.Kind == Footnote && math.Abs(last.Size()-b.Size()) < 0.05*b.Size() {
		gap := last.Lines[len(last.Lines)-1].Base - b.Lines[0].Base
		return gap > 0 && gap <= 1.8*b.Size() && b.Box.X0 < last.Box.X1 && b.Box.X1 > last.Box.X0
	}
	return isFootnote(p, b, st)
}

// atHangingIndent reports whether bibliography piece b starts at the
// hanging indent of its column on page p: its first line sits 0.6 to 4
// type sizes right of the leftmost first line of the other entries of
// the column. At the top of a column, that is the rest of an entry.
func atHangingIndent(p *Page, b *Block) bool {
	s := b.Size()
	left, n := math.Inf(1), 0
	for _, o := range p.Blocks {
		if o == b || o.Kind != Reference || o.Box.X1 < b.Box.X0 || o.Box.X0 > b.Box.X1 {
			continue
		}
		left, n = math.Min(left, o.Lines[0].Box.X0), n+1
	}
	indent := b.Lines[0].Box.X0 - left
	return n >= 2 && indent >= 0.6*s && indent <= 4*s
}
