package latex

import (
	"slices"
	"testing"
	"unicode/utf8"
)

func TestDecode(t *testing.T) {
	tests := []struct{ in, want string }{
		// accents, every spelling
		{`{\"u}ber`, "über"},
		{`\"{u}ber`, "über"},
		{`\"uber`, "über"},
		{`Caf\'e`, "Café"},
		{`{\'E}douard`, "Édouard"},
		{"\\`a \\^o \\~n \\=a \\.z", "à ô ñ ā ż"},
		{`\u{g} \v{s} \v S \H{o} \c{c} \c c \d{a} \b{b} \k{a} \r{a}`, "ğ š Š ő ç ç ạ ḇ ą å"},
		{`\t{oo}`, "o\u0361o"},
		{`Mart{\'\i}n \'{\i} \^\j`, "Martín í ĵ"},
		{`Te{\v{s}}anovi{\'c}`, "Tešanović"},
		{`L{\' a}la`, "Lála"},
		{`\~{}`, "~"},
		// letters
		{`Stra{\ss}e Stra\ss e`, "Straße Straße"},
		{`{\o}re {\O} \aa{} \AA\ae\AE\oe\OE`, "øre Ø å ÅæÆœŒ"},
		{`{\L}ukasz \l{}`, "Łukasz ł"},
		{`\i\j{} \dh\th\ng`, "ıȷ ðþŋ"},
		// escaped specials
		{`\& \% \$ \# \_ \{ \}`, "& % $ # _ { }"},
		{`a\ b`, "a b"},
		{`hy\-phen\/ation\@`, "hyphenation"},
		// ties, dashes, quotes
		{`Fig.~3`, "Fig.\u00a03"},
		{`pp. 1--10 and---so`, "pp. 1–10 and—so"},
		{`a - b`, "a - b"},
		{"``quoted'' and `single' O'Brien", "“quoted” and ‘single' O'Brien"},
		// braces and simple commands
		{`{BERT}: {Pre-training} of {{Deep}} models`, "BERT: Pre-training of Deep models"},
		{`\emph{x} \textit{y} \textbf{z} \textsc{Sc} \texttt{tt} \mbox{m}`, "x y z Sc tt m"},
		{`{\em emphasis} and {\bf bold}`, "emphasis and bold"},
		{`\enquote{q}`, "“q”"},
		{`\url{https://x.org/~a_b} \href{https://x.org}{text}`, "https://x.org/~a_b text"},
		{`{\noopsort{a}}Zed`, "Zed"},
		{`\foreignlanguage{german}{Haus}`, "Haus"},
		{`The {\TeX}book \LaTeX{} and \ldots`, "The TeXbook LaTeX and …"},
		{`\textendash\textemdash\textquoteleft\copyright`, "–—‘©"},
		// math is kept
		{`The $\delta x$ Scorpii $$x^{2}$$ and \(a_b\)`, `The $\delta x$ Scorpii $$x^{2}$$ and \(a_b\)`},
		{`costs 5\$ or $5`, "costs 5$ or $5"},
		{`\(\alpha\) \ensuremath{\beta} \ensuremath{x^2} \(x\)`, `α β x^2 \(x\)`},
		{`the {$\delta$} and $\Omega$ and $ \pm $ at 5$^\circ$C, not $\delta x$`, `the δ and Ω and ± at 5°C, not $\delta x$`},
		// white space
		{"  a \n\t b  ", "a b"},
		{"para one\n\n  para two", "para one\n\npara two"},
		// entities from Crossref
		{`Cell &amp; Developmental &lt;i&gt; &#233; &#xE9; AT&T`, "Cell & Developmental <i> é é AT&T"},
		// unknown commands are kept with their arguments
		{`a \foo{bar}{baz} b \qux c`, `a \foo{bar}{baz} b \qux c`},
		// malformed input does not panic and keeps what it can
		{`{unclosed`, "unclosed"},
		{`stray}`, "stray"},
		{`\`, ""},
		{`\"`, "¨"},
		{`\url{unclosed`, "unclosed"},
		{`plain Ünïcode`, "plain Ünïcode"},
	}
	for _, tt := range tests {
		if got := Decode(tt.in); got != tt.want {
			t.Errorf("Decode(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDecodeUnknown(t *testing.T) {
	_, unknown := DecodeUnknown(`\foo{x} \bar \foo \emph{y} \"u`)
	if want := []string{`\foo`, `\bar`}; !slices.Equal(unknown, want) {
		t.Errorf("unknown = %q, want %q", unknown, want)
	}
}

// FuzzDecode checks that decoding never panics and keeps valid UTF-8
// valid.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{\"u}ber`, `\'{\i}`, `$\delta$`, `\url{a`, `\c`, `&#x1F600;`, `&#0;`, `--- \emph{x}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Decode(s)
		if utf8.ValidString(s) && !utf8.ValidString(out) {
			t.Fatalf("Decode(%q) = %q, not UTF-8", s, out)
		}
	})
}
