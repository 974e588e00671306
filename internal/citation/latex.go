package citation

import (
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// texEscape escapes the LaTeX special characters & % $ # _ { } ~ ^ ` \ of a
// BibTeX field value and, with UnicodeLaTeX, writes non-ASCII characters
// as LaTeX commands (see latexRune).
func texEscape(s string, opt Options) string {
	if isASCIIClean(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '&', '%', '$', '#', '_':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '{':
			// Not \{: BibTeX counts every brace, escaped or not, so a
			// lone \{ or \} would unbalance (or close) the field.
			b.WriteString(`\textbraceleft{}`)
		case '}':
			b.WriteString(`\textbraceright{}`)
		case '~':
			b.WriteString(`\textasciitilde{}`)
		case '^':
			b.WriteString(`\textasciicircum{}`)
		case '`':
			b.WriteString(`\textasciigrave{}`)
		case '\\':
			b.WriteString(`\textbackslash{}`)
		default:
			if r >= 0x80 && opt.Unicode == UnicodeLaTeX {
				if tex, ok := latexRune(r); ok {
					writeTeX(&b, tex)
					continue
				}
			}
			writeTeX(&b, string(r))
		}
	}
	return b.String()
}

// writeTeX appends p to b with an empty group between them where the two
// would form one of TeX's ligatures ("--" an en dash, two apostrophes a closing
// quote), so that the text reads back as written.
func writeTeX(b *strings.Builder, p string) {
	if b.Len() > 0 && p != "" {
		last := b.String()[b.Len()-1]
		if (last == '-' || last == '\'') && p[0] == last {
			b.WriteString("{}")
		}
	}
	b.WriteString(p)
}

// isASCIIClean reports whether s has neither a LaTeX special character nor
// a non-ASCII character.
func isASCIIClean(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || strings.IndexByte("&%$#_{}~^\\`", s[i]) >= 0 {
			return false
		}
		if i > 0 && (s[i] == '-' || s[i] == '\'') && s[i-1] == s[i] {
			return false // a ligature to break (writeTeX)
		}
	}
	return true
}

// latexLetters are the letters LaTeX writes as commands (OT1 encoding).
var latexLetters = map[rune]string{
	'ß': `{\ss}`, 'æ': `{\ae}`, 'Æ': `{\AE}`, 'œ': `{\oe}`, 'Œ': `{\OE}`,
	'ø': `{\o}`, 'Ø': `{\O}`, 'ł': `{\l}`, 'Ł': `{\L}`, 'ı': `{\i}`, 'ȷ': `{\j}`,
	'å': `{\aa}`, 'Å': `{\AA}`,
	'–': `--`, '—': `---`, '‘': "`", '’': `'`, '“': "``", '”': `''`,
	'…': `{\ldots}`, '\u00a0': `~`, '«': `{\guillemotleft}`, '»': `{\guillemotright}`,
	'©': `{\textcopyright}`, '°': `{\textdegree}`, '§': `{\S}`, '¶': `{\P}`,
	'£': `{\pounds}`, '€': `{\texteuro}`, '×': `{$\times$}`, '±': `{$\pm$}`,
	'µ': `{\textmu}`, '¿': `{\textquestiondown}`, '¡': `{\textexclamdown}`,
}

// greek are the Greek letters LaTeX has math commands for. LaTeX's
// \epsilon and \phi print the lunate ϵ and the stroked ϕ; the usual ε and
// φ are \varepsilon and \varphi.
var greek = map[rune]string{
	'α': "alpha", 'β': "beta", 'γ': "gamma", 'δ': "delta", 'ε': "varepsilon",
	'ϵ': "epsilon", 'ζ': "zeta", 'η': "eta", 'θ': "theta", 'ϑ': "vartheta",
	'ι': "iota", 'κ': "kappa", 'λ': "lambda", 'μ': "mu", 'ν': "nu", 'ξ': "xi",
	'π': "pi", 'ϖ': "varpi", 'ρ': "rho", 'ϱ': "varrho", 'σ': "sigma",
	'ς': "varsigma", 'τ': "tau", 'υ': "upsilon", 'φ': "varphi", 'ϕ': "phi",
	'χ': "chi", 'ψ': "psi", 'ω': "omega",
	'Γ': "Gamma", 'Δ': "Delta", 'Θ': "Theta", 'Λ': "Lambda", 'Ξ': "Xi",
	'Π': "Pi", 'Σ': "Sigma", 'Υ': "Upsilon", 'Φ': "Phi", 'Ψ': "Psi", 'Ω': "Omega",
}

// latexAccents maps combining marks to LaTeX accent commands.
var latexAccents = map[rune]string{
	'\u0300': "`", '\u0301': "'", '\u0302': "^", '\u0303': "~", '\u0304': "=",
	'\u0306': "u", '\u0307': ".", '\u0308': `"`, '\u030A': "r", '\u030B': "H",
	'\u030C': "v", '\u0323': "d", '\u0327': "c", '\u0328': "k", '\u0331': "b",
}

// latexRune writes r as LaTeX: a letter with accents as braced accent
// commands ({\"u}, {\'\i}, {\c{c}}, {\v{s}}, nested for several marks),
// special letters and symbols from latexLetters, Greek letters as math.
// ok is false when LaTeX has no command for r.
func latexRune(r rune) (string, bool) {
	if s, ok := latexLetters[r]; ok {
		return s, true
	}
	if g, ok := greek[r]; ok {
		return `{$\` + g + `$}`, true
	}
	d := []rune(norm.NFD.String(string(r)))
	if len(d) < 2 || d[0] >= 0x80 || !unicode.IsLetter(d[0]) {
		return "", false
	}
	base := string(d[0])
	marks := d[1:]
	for _, m := range marks {
		if _, ok := latexAccents[m]; !ok {
			return "", false
		}
	}
	if (base == "i" || base == "j") && isAbove(marks[0]) {
		base = `\` + base // dotless i and j under an accent
	}
	if len(marks) == 1 {
		acc := latexAccents[marks[0]]
		if isLetterCommand(acc) {
			return fmt.Sprintf(`{\%s{%s}}`, acc, base), true
		}
		return fmt.Sprintf(`{\%s%s}`, acc, base), true
	}
	inner := base
	for _, m := range marks {
		inner = fmt.Sprintf(`\%s{%s}`, latexAccents[m], inner)
	}
	return "{" + inner + "}", true
}

func isLetterCommand(acc string) bool {
	return acc[0] >= 'a' && acc[0] <= 'z' || acc[0] >= 'A' && acc[0] <= 'Z'
}

// isAbove reports whether a combining mark sits above the letter (so i and
// j lose their dot).
func isAbove(m rune) bool {
	switch m {
	case '\u0323', '\u0327', '\u0328', '\u0331':
		return false
	}
	return true
}
