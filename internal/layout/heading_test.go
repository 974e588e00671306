package layout

import "testing"

// A line of code set in a monospaced font whose weight pdfium reports well
// above the body's (LMMono10-Regular at 840 beside Baskerville at 465, in
// dccpaper's listings) is no bold heading, numbered though it is ("25
// \def…"): a monospaced font's even stems are no evidence of bold. The same
// line in a font named bold still is a heading. pdfTeX's Computer Modern
// fonts report equal weights, so the lines are built here with the flags
// the fonts of that PDF get.
func TestMonospacedWeightIsNoBold(t *testing.T) {
	st := Stats{BodySize: 11.4}
	for _, tc := range []struct {
		name       string
		weightBold bool
		want       Kind
	}{
		{"bold by weight alone", true, Paragraph},
		{"bold by name", false, Heading},
	} {
		l := &Line{Text: `25 \def\dccp@subject{\dccp@publ@long}`, Size: 10, Bold: true, Mono: true, weightBold: tc.weightBold}
		b := &Block{Kind: Paragraph, Lines: []*Line{l}}
		classify(b, st)
		if b.Kind != tc.want {
			t.Errorf("%s: kind %s, want %s", tc.name, b.Kind, tc.want)
		}
	}
}
