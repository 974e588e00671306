// Package latex turns LaTeX text into Unicode text for readers and for
// comparison: the accents, escapes, dashes, quotes, ties, braces and
// formatting commands that .bib files and drafts are written with.
package latex

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Decode turns LaTeX text (a BibTeX field value, a passage of a draft) into
// Unicode text:
//
//   - accents, braced or not: {\"u}, \"{u}, \"u, \'e, \`a, \^o, \~n, \=a,
//     \.z, \u{g}, \v{s}, \H{o}, \c{c}, \d{a}, \b{b}, \k{a}, \r{a}, \t{oo};
//     on \i and \j they give the dotted letter (\'{\i} is í); the result is
//     NFC-normalised;
//   - letters and symbols: \ss ß, \o ø, \O Ø, \aa å, \AA Å, \ae æ, \AE Æ,
//     \oe œ, \OE Œ, \l ł, \L Ł, \i ı, \dh ð, \th þ, \ng ŋ, \dj đ, \textendash,
//     \textemdash, \ldots, \copyright, \S, \pounds, \euro, \textquoteleft …,
//     \LaTeX and \TeX (spelt out);
//   - escaped specials \& \% \$ \# \_ \{ \} become the character; "\ " and
//     \\ a space; \- \/ and \@ nothing;
//   - ~ becomes U+00A0 NO-BREAK SPACE (BibTeX's tie; strings.Fields and
//     csl.Item.Record treat it as a space);
//   - --- becomes — (em dash), -- becomes – (en dash);
//   - two backquotes and two apostrophes (TeX's double quotes) become “
//     and ”, a single backquote becomes ‘; a single apostrophe stays;
//   - braces are removed ({BERT} is BERT); formatting commands keep their
//     argument (\emph{x}, \textit, \textbf, \textsc, \texttt, \mbox, \url,
//     \NoCaseChange …; \href{url}{text} keeps text); font declarations (\em,
//     \bf, \itshape …) are dropped;
//   - the HTML/XML character references that Crossref's BibTeX carries
//     (&amp; &lt; &gt; &quot; &apos; &nbsp; &#233; &#xE9;) are decoded;
//   - math ($…$, $$…$$, \(…\), \[…\]) is kept as written, delimiters
//     included, except math that is one Greek letter or symbol ($\delta$,
//     \(\pm\), \ensuremath{\alpha}, $^\circ$), which becomes that
//     character (Better BibTeX and citation-js write Unicode Greek so);
//   - white space runs become one space, except a blank line (a paragraph
//     break), which becomes "\n\n"; the result is trimmed;
//   - any other command is kept as written, with the braced arguments that
//     follow it.
//
// Decode never fails: malformed input (an unclosed brace, a trailing
// backslash) keeps what it can. Valid UTF-8 in gives valid UTF-8 out.
func Decode(s string) string {
	out, _ := DecodeUnknown(s)
	return out
}

// DecodeUnknown is Decode that also returns the unknown commands it kept
// as written (`\foo`), each once, in the order they first appear.
func DecodeUnknown(s string) (text string, unknown []string) {
	if !strings.ContainsAny(s, "\\{}~-`'$& \t\n\r") {
		return s, nil
	}
	d := &decoder{s: s}
	d.text(false)
	return strings.TrimSpace(d.b.String()), d.unknown
}

type decoder struct {
	s       string
	i       int
	b       strings.Builder
	unknown []string
}

// text decodes until the end, or until the } closing the current group
// when inGroup (the } is left for the caller).
func (d *decoder) text(inGroup bool) {
	for d.i < len(d.s) {
		c := d.s[d.i]
		switch c {
		case '{':
			d.i++
			d.text(true)
			if d.i < len(d.s) {
				d.i++ // }
			}
		case '}':
			if inGroup {
				return
			}
			d.i++ // stray
		case '\\':
			d.command()
		case '$':
			d.math()
		case '~':
			d.i++
			d.b.WriteRune('\u00a0')
		case '-':
			switch {
			case strings.HasPrefix(d.s[d.i:], "---"):
				d.b.WriteRune('—')
				d.i += 3
			case strings.HasPrefix(d.s[d.i:], "--"):
				d.b.WriteRune('–')
				d.i += 2
			default:
				d.b.WriteByte('-')
				d.i++
			}
		case '`':
			if strings.HasPrefix(d.s[d.i:], "``") {
				d.b.WriteRune('“')
				d.i += 2
			} else {
				d.b.WriteRune('‘')
				d.i++
			}
		case '\'':
			if strings.HasPrefix(d.s[d.i:], "''") {
				d.b.WriteRune('”')
				d.i += 2
			} else {
				d.b.WriteByte('\'')
				d.i++
			}
		case ' ', '\t', '\n', '\r', '\f', '\v':
			d.space()
		case '&':
			d.entity()
		default:
			_, size := utf8.DecodeRuneInString(d.s[d.i:])
			d.b.WriteString(d.s[d.i : d.i+size])
			d.i += size
		}
	}
}

// space writes one space for a run of white space, or a paragraph break
// for a run with a blank line.
func (d *decoder) space() {
	newlines := 0
	for d.i < len(d.s) && isSpace(d.s[d.i]) {
		if d.s[d.i] == '\n' {
			newlines++
		}
		d.i++
	}
	if newlines >= 2 {
		d.b.WriteString("\n\n")
	} else {
		d.b.WriteByte(' ')
	}
}

func (d *decoder) skipSpace() {
	for d.i < len(d.s) && isSpace(d.s[d.i]) {
		d.i++
	}
}

// entity decodes an HTML/XML character reference (&amp;, &#233;), which
// Crossref's BibTeX carries; any other & is kept.
func (d *decoder) entity() {
	end := strings.IndexByte(d.s[d.i:min(len(d.s), d.i+10)], ';')
	if end > 1 {
		name := d.s[d.i+1 : d.i+end]
		r := rune(-1)
		switch name {
		case "amp":
			r = '&'
		case "lt":
			r = '<'
		case "gt":
			r = '>'
		case "quot":
			r = '"'
		case "apos":
			r = '\''
		case "nbsp":
			r = '\u00a0'
		default:
			if num, ok := strings.CutPrefix(name, "#"); ok {
				base := 10
				if h, ok := strings.CutPrefix(strings.ToLower(num), "x"); ok {
					num, base = h, 16
				}
				if v, err := strconv.ParseUint(num, base, 32); err == nil && v > 0 && utf8.ValidRune(rune(v)) {
					r = rune(v)
				}
			}
		}
		if r >= 0 {
			d.b.WriteRune(r)
			d.i += end + 1
			return
		}
	}
	d.b.WriteByte('&')
	d.i++
}

// math copies $…$ or $$…$$ as written; an unclosed $ is a dollar sign.
func (d *decoder) math() {
	delim := "$"
	if strings.HasPrefix(d.s[d.i:], "$$") {
		delim = "$$"
	}
	end := -1
	for j := d.i + len(delim); j < len(d.s); j++ {
		if d.s[j] == '\\' {
			j++
			continue
		}
		if strings.HasPrefix(d.s[j:], delim) {
			end = j + len(delim)
			break
		}
	}
	if end < 0 {
		d.b.WriteByte('$')
		d.i++
		return
	}
	inner := strings.TrimSpace(d.s[d.i+len(delim) : end-len(delim)])
	inner = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(inner, "{"), "}"))
	if sym, ok := mathSymbols[inner]; ok {
		d.b.WriteString(sym)
	} else {
		d.b.WriteString(d.s[d.i:end])
	}
	d.i = end
}

// mathSymbols are the math formulas that are one Greek letter or symbol,
// as Better BibTeX and citation-js write Unicode Greek ($\delta$ is δ).
var mathSymbols = map[string]string{
	`\alpha`: "α", `\beta`: "β", `\gamma`: "γ", `\delta`: "δ", `\epsilon`: "ϵ",
	`\varepsilon`: "ε", `\zeta`: "ζ", `\eta`: "η", `\theta`: "θ", `\vartheta`: "ϑ",
	`\iota`: "ι", `\kappa`: "κ", `\lambda`: "λ", `\mu`: "μ", `\nu`: "ν", `\xi`: "ξ",
	`\pi`: "π", `\varpi`: "ϖ", `\rho`: "ρ", `\varrho`: "ϱ", `\sigma`: "σ",
	`\varsigma`: "ς", `\tau`: "τ", `\upsilon`: "υ", `\phi`: "ϕ", `\varphi`: "φ",
	`\chi`: "χ", `\psi`: "ψ", `\omega`: "ω", `\Gamma`: "Γ", `\Delta`: "Δ",
	`\Theta`: "Θ", `\Lambda`: "Λ", `\Xi`: "Ξ", `\Pi`: "Π", `\Sigma`: "Σ",
	`\Upsilon`: "Υ", `\Phi`: "Φ", `\Psi`: "Ψ", `\Omega`: "Ω",
	`\pm`: "±", `\mp`: "∓", `\times`: "×", `\cdot`: "·", `\circ`: "∘",
	`^\circ`: "°", `^{\circ}`: "°", `\infty`: "∞", `\sim`: "∼", `\approx`: "≈",
	`\leq`: "≤", `\le`: "≤", `\geq`: "≥", `\ge`: "≥", `\neq`: "≠", `\ne`: "≠",
	`\rightarrow`: "→", `\to`: "→", `\leftarrow`: "←", `\leftrightarrow`: "↔",
	`\Rightarrow`: "⇒", `\prime`: "′", `\partial`: "∂", `\nabla`: "∇",
	`\ell`: "ℓ", `\hbar`: "ℏ", `\AA`: "Å",
}

// accentMarks maps accent commands to combining characters.
var accentMarks = map[string]rune{
	"`": '\u0300', "'": '\u0301', "^": '\u0302', "~": '\u0303', "=": '\u0304',
	"u": '\u0306', ".": '\u0307', "\"": '\u0308', "r": '\u030a', "H": '\u030b',
	"v": '\u030c', "d": '\u0323', "c": '\u0327', "k": '\u0328', "b": '\u0331',
	"t": '\u0361',
}

// spacingAccents are what an accent on nothing (\~{}) prints.
var spacingAccents = map[string]string{
	"`": "`", "'": "´", "^": "^", "~": "~", "=": "¯", "u": "˘", ".": "˙",
	"\"": "¨", "r": "˚", "H": "˝", "v": "ˇ", "c": "¸", "k": "˛",
}

// letters are commands that print one letter or symbol; spaces after
// them are eaten as TeX eats them (Stra\ss e is Straße).
var letters = map[string]string{
	"ss": "ß", "SS": "SS", "o": "ø", "O": "Ø", "aa": "å", "AA": "Å",
	"ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ", "l": "ł", "L": "Ł",
	"i": "ı", "j": "ȷ", "dh": "ð", "DH": "Ð", "th": "þ", "TH": "Þ",
	"dj": "đ", "DJ": "Đ", "ng": "ŋ", "NG": "Ŋ",
}

// symbols are commands that print text; spaces after them are kept
// (\LaTeX\ and \LaTeX{} are how TeX users keep them, and few do in .bib
// files).
var symbols = map[string]string{
	"textendash": "–", "textemdash": "—", "ldots": "…", "dots": "…",
	"textellipsis": "…", "copyright": "©", "textcopyright": "©",
	"textregistered": "®", "texttrademark": "™", "S": "§", "P": "¶",
	"textsection": "§", "textparagraph": "¶", "pounds": "£",
	"textsterling": "£", "euro": "€", "texteuro": "€", "textyen": "¥",
	"dag": "†", "ddag": "‡", "textdagger": "†", "textdaggerdbl": "‡",
	"textbullet": "•", "textperiodcentered": "·", "textdegree": "°",
	"textperthousand": "‰", "textmu": "µ", "textonehalf": "½",
	"textquoteleft": "‘", "textquoteright": "’", "textquotedblleft": "“",
	"textquotedblright": "”", "textquotesingle": "'", "textquotedbl": "\"",
	"quotesinglbase": "‚", "quotedblbase": "„",
	"guillemotleft": "«", "guillemotright": "»", "guillemetleft": "«",
	"guillemetright": "»", "guilsinglleft": "‹", "guilsinglright": "›",
	"textless": "<", "textgreater": ">", "textbackslash": "\\",
	"textasciitilde": "~", "textasciicircum": "^", "textasciigrave": "`", "textunderscore": "_",
	"textbar": "|", "textbraceleft": "{", "textbraceright": "}",
	"textdollar": "$", "textexclamdown": "¡", "textquestiondown": "¿",
	"LaTeX": "LaTeX", "TeX": "TeX", "BibTeX": "BibTeX", "LaTeXe": "LaTeX2ε",
	"XeTeX": "XeTeX", "LuaTeX": "LuaTeX", "slash": "/", "nobreakspace": "\u00a0",
	"space": " ", "quad": " ", "qquad": " ", "enspace": " ", "thinspace": "\u2009",
	"textcelsius": "℃", "textnumero": "№", "textohm": "Ω", "textdiv": "÷",
	"texttimes": "×", "textpm": "±", "textminus": "−",
}

// keepArg are commands whose one argument is the text.
var keepArg = map[string]bool{
	"emph": true, "textit": true, "textbf": true, "textsc": true, "texttt": true,
	"textrm": true, "textsf": true, "textsl": true, "textup": true, "textmd": true,
	"textnormal": true, "mbox": true, "hbox": true, "text": true, "textsuperscript": true,
	"textsubscript": true, "uppercase": true, "lowercase": true, "MakeUppercase": true,
	"MakeLowercase": true, "MakeTextUppercase": true, "MakeTextLowercase": true,
	"NoCaseChange": true, "nocase": true, "underline": true, "uline": true,
	"mkbibemph": true, "mkbibitalic": true, "mkbibbold": true, "textins": true,
	"bibstring": true, "textenglish": true,
}

// dropArg are commands whose one argument is not text.
var dropArg = map[string]bool{
	"noopsort": true, "sortnoop": true, "selectlanguage": true, "hspace": true,
	"vspace": true, "label": true, "hyphenation": true, "color": true,
}

// declarations are font and size switches: dropped, with the spaces
// after them.
var declarations = map[string]bool{
	"em": true, "it": true, "bf": true, "sc": true, "tt": true, "rm": true,
	"sf": true, "sl": true, "up": true, "md": true, "itshape": true, "bfseries": true,
	"scshape": true, "ttfamily": true, "rmfamily": true, "sffamily": true,
	"slshape": true, "upshape": true, "mdseries": true, "normalfont": true,
	"relax": true, "protect": true, "tiny": true, "scriptsize": true,
	"footnotesize": true, "small": true, "normalsize": true, "large": true,
	"Large": true, "LARGE": true, "huge": true, "Huge": true, "unskip": true,
	"allowbreak": true, "bibnamedelima": true,
	"bibnamedelimb": true, "bibnamedelimc": true, "bibnamedelimd": true,
	"bibnamedelimi": true, "bibinitperiod": true, "bibinitdelim": true,
}

func (d *decoder) command() {
	start := d.i
	d.i++ // backslash
	if d.i >= len(d.s) {
		return
	}
	c := d.s[d.i]
	if !isASCIILetter(c) {
		r, size := utf8.DecodeRuneInString(d.s[d.i:])
		d.i += size
		name := string(r)
		if _, ok := accentMarks[name]; ok {
			d.accent(name)
			return
		}
		switch r {
		case '&', '%', '$', '#', '_', '{', '}':
			d.b.WriteRune(r)
		case ' ', '\t', '\n', '\r', '\\':
			d.b.WriteByte(' ')
		case ',':
			d.b.WriteRune('\u2009')
		case ';', ':':
			d.b.WriteByte(' ')
		case '-', '/', '@', '!':
		case '(', '[':
			closing := `\)`
			if r == '[' {
				closing = `\]`
			}
			if j := strings.Index(d.s[d.i:], closing); j >= 0 {
				if sym, ok := mathSymbols[strings.TrimSpace(d.s[d.i:d.i+j])]; ok {
					d.b.WriteString(sym)
				} else {
					d.b.WriteString(d.s[start : d.i+j+2])
				}
				d.i += j + 2
			} else {
				d.b.WriteString(d.s[start:d.i])
			}
		default:
			d.b.WriteRune(r)
		}
		return
	}
	for d.i < len(d.s) && isASCIILetter(d.s[d.i]) {
		d.i++
	}
	name := d.s[start+1 : d.i]
	if _, ok := accentMarks[name]; ok && len(name) == 1 {
		d.accent(name)
		return
	}
	if l, ok := letters[name]; ok {
		d.b.WriteString(l)
		d.skipSpace()
		return
	}
	if sym, ok := symbols[name]; ok {
		d.b.WriteString(sym)
		return
	}
	switch {
	case declarations[name]:
		d.skipSpace()
	case keepArg[name]:
		d.arg()
	case dropArg[name]:
		d.rawArg()
	case name == "ensuremath":
		at := d.i
		if a, ok := d.rawArg(); ok {
			if sym, ok := mathSymbols[strings.TrimSpace(a)]; ok {
				d.b.WriteString(sym)
				return
			}
		}
		d.i = at
		d.arg()
	case name == "url" || name == "nolinkurl" || name == "path":
		if a, ok := d.rawArg(); ok {
			d.b.WriteString(a)
		}
	case name == "href":
		d.rawArg()
		d.arg()
	case name == "foreignlanguage" || name == "textcolor" || name == "colorbox":
		d.rawArg()
		d.arg()
	case name == "enquote" || name == "mkbibquote":
		d.b.WriteRune('“')
		d.arg()
		d.b.WriteRune('”')
	default:
		d.unknownCommand(start)
	}
}

// unknownCommand keeps \name and the braced arguments right after it as
// written.
func (d *decoder) unknownCommand(start int) {
	name := d.s[start:d.i]
	for d.i < len(d.s) && d.s[d.i] == '{' {
		end := MatchBrace(d.s, d.i)
		if end < 0 {
			break
		}
		d.i = end + 1
	}
	d.b.WriteString(d.s[start:d.i])
	for _, u := range d.unknown {
		if u == name {
			return
		}
	}
	d.unknown = append(d.unknown, name)
}

// arg decodes the next argument: a braced group, or else nothing (the
// text that follows is decoded as usual).
func (d *decoder) arg() {
	d.skipSpace()
	if d.i < len(d.s) && d.s[d.i] == '{' {
		d.i++
		d.text(true)
		if d.i < len(d.s) {
			d.i++
		}
	}
}

// rawArg skips the next braced argument and returns its text as written.
func (d *decoder) rawArg() (string, bool) {
	d.skipSpace()
	if d.i >= len(d.s) || d.s[d.i] != '{' {
		return "", false
	}
	end := MatchBrace(d.s, d.i)
	if end < 0 {
		a := d.s[d.i+1:]
		d.i = len(d.s)
		return a, true
	}
	a := d.s[d.i+1 : end]
	d.i = end + 1
	return a, true
}

// MatchBrace returns the byte index in s of the } that closes the { at
// s[i], or -1 if it is never closed. Braces nest; a backslash escapes the
// byte after it, so \{ and \} are not counted (as in LaTeX, unlike
// BibTeX's own brace counting).
func MatchBrace(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// accent reads the accented letter after an accent command and writes it
// with the combining mark.
func (d *decoder) accent(name string) {
	mark := accentMarks[name]
	d.skipSpace()
	var base string
	switch {
	case d.i >= len(d.s):
	case d.s[d.i] == '{':
		sub := &decoder{s: d.s, i: d.i + 1}
		sub.text(true)
		d.i = sub.i
		if d.i < len(d.s) {
			d.i++
		}
		base = sub.b.String()
		d.unknown = append(d.unknown, sub.unknown...)
	case d.s[d.i] == '\\':
		sub := &decoder{s: d.s, i: d.i}
		sub.command()
		d.i = sub.i
		base = sub.b.String()
		d.unknown = append(d.unknown, sub.unknown...)
	case d.s[d.i] == '}':
	default:
		_, size := utf8.DecodeRuneInString(d.s[d.i:])
		base = d.s[d.i : d.i+size]
		d.i += size
	}
	if base == "" {
		d.b.WriteString(spacingAccents[name])
		return
	}
	r, size := utf8.DecodeRuneInString(base)
	switch r {
	case 'ı':
		r = 'i'
	case 'ȷ':
		r = 'j'
	}
	if unicode.IsSpace(r) {
		d.b.WriteString(spacingAccents[name])
		d.b.WriteString(base)
		return
	}
	d.b.WriteString(norm.NFC.String(string(r) + string(mark) + base[size:]))
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
