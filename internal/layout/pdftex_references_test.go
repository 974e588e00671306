package layout

import (
	"strings"
	"testing"
)

// In a bibliography numbered "1.", "2.", …, a line that starts with a
// number and a full stop out of the list's sequence (the end of a page
// range broken after its dash, "pp. 105–" / "116.") is the rest of its
// entry, not a new one. A PDF made at test time by pdfTeX from
// testdata/numbered_bibliography.tex.
func TestNumberedBibliographySequence(t *testing.T) {
	pages := texDocument(t, "numbered_bibliography.tex")
	var refs []string
	for _, p := range pages {
		for _, b := range p.Blocks {
			if b.Kind == Reference {
				refs = append(refs, strings.Join(strings.Fields(b.Text()), " "))
			}
		}
	}
	want := []string{"1. Alfred", "2. Gavin", "3. Gerard", "4. Per"}
	ok := len(refs) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = strings.HasPrefix(refs[i], want[i])
	}
	if !ok {
		t.Fatalf("reference blocks\n%s\nwant entries starting %q", strings.Join(refs, "\n"), want)
	}
	if !strings.HasSuffix(refs[1], "pp. 105– 116. [Available online.]") || !strings.HasSuffix(refs[2], "pp. 81– 94. Also as a technical report.") {
		t.Errorf("entries 2 and 3 %q, %q do not end with their page ranges' second lines", refs[1], refs[2])
	}
}
