package quote

import (
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"  many\n\tspaces\r\n here ", "many spaces here"},
		{"the ﬁrst eﬀect of ﬂow", "the first effect of flow"},
		{"dehyphen-\nation of words", "dehyphenation of words"},
		{"dehyphen- \n  ation", "dehyphenation"},
		{"state-of-the-art", "stateoftheart"},
		{"state-\nof-the-art", "stateoftheart"},
		{"pre- and post-processing", "preand postprocessing"},
		{"pages 10–12 and 3 − 4", "pages 10-12 and 3-4"},
		{"an em—dash", "an emdash"},
		{"word -- word and word — word", "wordword and wordword"},
		{"- leading and trailing -", "-leading and trailing-"},
		{"“quoted” and ‘single’ don’t", `"quoted" and 'single' don't`},
		{"soft\u00adhyphen and zero\u200bwidth", "softhyphen and zerowidth"},
		{"pdfium\ufffemark", "pdfiummark"},
		{"wait…", "wait..."},
		{"``LaTeX quotes'' and `single'", `"LaTeX quotes" and 'single'`},
		{"non\u00a0breaking", "non breaking"},
		{"ＦＵＬＬ", "FULL"},
		{"x -\ny", "xy"},
		{"3 -\n4", "3-4"},
		{"", ""},
	} {
		if got := Normalize(c.in); got != c.want {
			t.Errorf("Normalize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := Key("The Transformer—Attention"); got != "the transformerattention" {
		t.Errorf("Key = %q", got)
	}
}

// A chunk's text as the note records it and a quote typed from the PDF
// compare equal.
func TestChunkAgainstQuote(t *testing.T) {
	chunk := "We call our particular attention \"Scaled Dot-Product Attention\". The in-\nput consists of queries and keys of dimension dk, and values of dimen-\nsion dv."
	q := "The input consists of queries and keys of dimension dk, and values of dimension dv."
	if !strings.Contains(Normalize(chunk), Normalize(q)) {
		t.Errorf("%q\ndoes not contain\n%q", Normalize(chunk), Normalize(q))
	}
}

func FuzzNormalize(f *testing.F) {
	f.Add("dehyphen-\nation “q” ﬁ")
	f.Fuzz(func(t *testing.T, s string) {
		n := Normalize(s)
		if Normalize(n) != n {
			t.Fatalf("not idempotent: %q → %q → %q", s, n, Normalize(n))
		}
		if strings.Contains(n, "  ") || strings.TrimSpace(n) != n {
			t.Fatalf("space not collapsed: %q", n)
		}
	})
}

func TestLocate(t *testing.T) {
	src := "We call our particular attention \"Scaled Dot-Product Attention\". The in-\nput consists of queries and keys of dimension dk, and values of dimen-\nsion dv."
	for _, c := range []struct{ q, want string }{
		{"The input consists of queries", "The in-\nput consists of queries"},
		{"values of dimension dv", "values of dimen-\nsion dv"},
		{"“Scaled Dot–Product Attention”", "\"Scaled Dot-Product Attention\""},
		{"scaled dot-product attention", "Scaled Dot-Product Attention"},
		{"dv.", "dv."},
	} {
		s, e, ok := Locate(src, c.q)
		if !ok || src[s:e] != c.want {
			t.Errorf("Locate(%q) = %q (%v), want %q", c.q, src[s:min(e, len(src))], ok, c.want)
		}
	}
	if _, _, ok := Locate(src, "keys of dimension dq"); ok {
		t.Error("a quote that is not there was located")
	}
	if _, _, ok := Locate(src, "  "); ok {
		t.Error("an empty quote was located")
	}
}

func FuzzLocate(f *testing.F) {
	f.Add("The in-\nput consists of “queries”.", "input consists")
	f.Fuzz(func(t *testing.T, src, q string) {
		s, e, ok := Locate(src, q)
		if !ok {
			return
		}
		if s < 0 || e > len(src) || s > e {
			t.Fatalf("span [%d,%d) out of %d", s, e, len(src))
		}
		if !strings.Contains(Key(src[s:e]), Key(q)) {
			t.Fatalf("span %q does not contain %q", src[s:e], q)
		}
	})
}

func TestTrimMarks(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain words", "plain words"},
		{"  “Words.”  ", "Words."},
		{"“Words”.", "Words."},
		{"“Words”?!", "Words?!"},
		{`"Words."`, "Words."},
		{`" spaced "`, "spaced"},
		{"``LaTeX words''", "LaTeX words"},
		{"„German“", "German"},
		{"„German”", "German"},
		{"«French»", "French"},
		{"‘single’", "single"},
		{"'single'", "single"},
		{"'it's here'", "it's here"},
		{"‘it’s here’", "it’s here"},
		{"“outer “inner” outer”", "outer “inner” outer"},
		{"``outer ``inner'' outer''", "outer ``inner'' outer"},
		// the opening mark closes before the end: not one pair
		{"“A” and “B”", "“A” and “B”"},
		{`"A" and "B"`, `"A" and "B"`},
		{"'A' and 'B'", "'A' and 'B'"},
		{"``A'' and ``B''", "``A'' and ``B''"},
		// not wrapped, or nothing inside
		{"“unclosed", "“unclosed"},
		{"“words” after", "“words” after"},
		{"“”", "“”"},
		{`""`, `""`},
		{"“ ”", "“ ”"},
		{"", ""},
	} {
		if got := TrimMarks(c.in); got != c.want {
			t.Errorf("TrimMarks(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
