package draft

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// citeForm is how a citation command takes its arguments.
type citeForm int

const (
	single    citeForm = iota + 1 // [pre][post]{keys}
	multi                         // (pre)(post) then [pre][post]{keys} repeated
	volume                        // [pre]{volume}[pages]{key}
	multiVols                     // (pre)(post) then [pre]{volume}[pages]{key} repeated
	language                      // {language}[pre][post]{key}: csquotes' \foreigntextcquote ...
)

// citeCommands are the citation commands of plain LaTeX, natbib, biblatex
// and apacite, by name without the backslash; a star after any of them is
// allowed.
var citeCommands = map[string]citeForm{}

func init() {
	for _, n := range []string{
		// LaTeX
		"cite", "nocite",
		// natbib
		"citep", "citet", "citealt", "citealp", "citeauthor", "citefullauthor", "citeyear",
		"citeyearpar", "citenum", "citetalias", "citepalias",
		"Cite", "Citep", "Citet", "Citealt", "Citealp", "Citeauthor", "Citefullauthor",
		// biblatex
		"parencite", "Parencite", "footcite", "Footcite", "footcitetext", "textcite",
		"Textcite", "smartcite", "Smartcite", "autocite", "Autocite", "supercite",
		"citetitle", "Citetitle", "citedate", "citeurl", "fullcite", "footfullcite",
		"notecite", "Notecite", "pnotecite", "Pnotecite", "fnotecite",
		// apacite
		"citeA", "citeNP", "citeyearNP", "shortcite", "shortciteNP", "shortciteA", "fullciteA",
	} {
		citeCommands[n] = single
	}
	for _, n := range []string{
		"cites", "Cites", "parencites", "Parencites", "footcites", "footcitetexts",
		"smartcites", "Smartcites", "textcites", "Textcites", "supercites", "autocites",
		"Autocites",
	} {
		citeCommands[n] = multi
	}
	// csquotes' integrated quotations cite like \cite: \textcquote[pre][post]{key}[punct]{text}
	for _, n := range []string{"textcquote", "blockcquote"} {
		citeCommands[n] = single
	}
	for _, n := range []string{"foreigntextcquote", "hyphentextcquote", "foreignblockcquote", "hyphenblockcquote"} {
		citeCommands[n] = language
	}
	for _, n := range []string{"volcite", "Volcite", "pvolcite", "Pvolcite", "fvolcite",
		"ftvolcite", "svolcite", "Svolcite", "tvolcite", "Tvolcite", "avolcite", "Avolcite"} {
		citeCommands[n] = volume
		citeCommands[n+"s"] = multiVols
	}
}

// verbatimEnvs are environments whose body is not LaTeX.
var verbatimEnvs = map[string]bool{
	"verbatim": true, "verbatim*": true, "Verbatim": true, "Verbatim*": true,
	"BVerbatim": true, "LVerbatim": true, "lstlisting": true, "minted": true,
	"comment": true, "filecontents": true, "filecontents*": true,
}

// citeEnvironments are csquotes' environments that cite: the arguments
// after \begin{displaycquote} are [pre][post]{key}[punct].
var citeEnvironments = map[string]citeForm{
	"displaycquote": single, "foreigndisplaycquote": language, "hyphendisplaycquote": language,
}

// scanLaTeX finds the keys of every citation command outside % comments,
// verbatim-like environments (verbatim, lstlisting, minted, comment,
// filecontents, fancyvrb's) and \verb, \lstinline and \mintinline. A
// command takes its optional arguments ([..], and (..) for the multicite
// commands) and its {key,key} lists with white space, newlines and %
// comments between them, as LaTeX does. Keys are split at commas and
// trimmed; a key is kept when it is non-empty and made of letters, digits
// and _ - : . / + (so \nocite{*} and a macro parameter #1 are not keys).
// csquotes' integrated quotations (\textcquote, \blockcquote, their
// foreign and hyphen forms, the displaycquote environments) cite their
// {key} argument.
func scanLaTeX(text []byte) []Citation {
	s := &latexScanner{text: text}
	for s.pos < len(text) {
		switch text[s.pos] {
		case '%':
			s.skipComment()
		case '\\':
			s.command()
		default:
			s.pos++
		}
	}
	return s.cites
}

type latexScanner struct {
	text  []byte
	pos   int
	cites []Citation
}

func (s *latexScanner) skipComment() {
	if nl := bytes.IndexByte(s.text[s.pos:], '\n'); nl >= 0 {
		s.pos += nl + 1
	} else {
		s.pos = len(s.text)
	}
}

func (s *latexScanner) command() {
	start := s.pos
	j := start + 1
	if j >= len(s.text) || !isASCIILetter(s.text[j]) {
		s.pos = min(j+1, len(s.text)) // \%, \\, \{ ...
		return
	}
	for j < len(s.text) && isASCIILetter(s.text[j]) {
		j++
	}
	name := string(s.text[start+1 : j])
	s.pos = j
	switch name {
	case "begin":
		s.begin()
	case "verb", "lstinline", "mintinline":
		s.skipInlineVerbatim(name)
	default:
		form, ok := citeCommands[name]
		if !ok {
			return
		}
		cmd := "\\" + name
		if s.pos < len(s.text) && s.text[s.pos] == '*' {
			cmd += "*"
			s.pos++
		}
		s.cite(form, cmd, start)
	}
}

// begin skips the body of a verbatim-like environment, and reads the key
// of a citing environment.
func (s *latexScanner) begin() {
	start := s.pos - len(`\begin`)
	p, end, ok := s.group(s.pos)
	if !ok {
		return
	}
	env := string(s.text[p+1 : end])
	if form, ok := citeEnvironments[env]; ok {
		s.pos = end + 1
		s.cite(form, `\begin{`+env+`}`, start)
		return
	}
	if !verbatimEnvs[env] {
		return
	}
	closing := []byte(`\end{` + env + `}`)
	if i := bytes.Index(s.text[end:], closing); i >= 0 {
		s.pos = end + i + len(closing)
	} else {
		s.pos = len(s.text)
	}
}

// skipInlineVerbatim skips, from s.pos after the name of \verb,
// \lstinline or \mintinline, the command's arguments and its verbatim
// text, and returns the offset of the text's opening delimiter (s.pos
// stays there when there is no text).
func (s *latexScanner) skipInlineVerbatim(name string) int {
	switch name {
	case "verb":
		if s.pos < len(s.text) && s.text[s.pos] == '*' {
			s.pos++
		}
	case "lstinline":
		s.skipOptional('[', ']')
	case "mintinline":
		s.skipOptional('[', ']')
		s.skipGroup()
	}
	from := s.pos
	s.skipDelimited()
	return from
}

// skipDelimited skips \verb|...| style text (or a {group}).
func (s *latexScanner) skipDelimited() {
	if s.pos >= len(s.text) {
		return
	}
	d := s.text[s.pos]
	if d == '{' {
		s.skipGroup()
		return
	}
	if d == ' ' || d == '\n' {
		return
	}
	end := bytes.IndexByte(s.text[s.pos+1:], d)
	nl := bytes.IndexByte(s.text[s.pos+1:], '\n')
	if end < 0 || nl >= 0 && nl < end {
		return // not closed on its line: LaTeX would fail; read on
	}
	s.pos += end + 2
}

func (s *latexScanner) skipGroup() {
	if _, end, ok := s.group(s.pos); ok {
		s.pos = end + 1
	}
}

// group finds the {group} that starts at p after white space and %
// comments: the offsets of its opening and closing braces, and false when
// there is none or it is not closed.
func (s *latexScanner) group(p int) (open, close int, ok bool) {
	open = s.skipSpace(p)
	if open >= len(s.text) || s.text[open] != '{' {
		return open, -1, false
	}
	close = s.match(open, '{', '}')
	return open, close, close >= 0
}

func (s *latexScanner) skipOptional(open, close byte) {
	p := s.skipSpace(s.pos)
	if p < len(s.text) && s.text[p] == open {
		if end := s.match(p, open, close); end >= 0 {
			s.pos = end + 1
		}
	}
}

// cite reads the arguments of a citation command at s.pos; the command
// starts at start.
func (s *latexScanner) cite(form citeForm, cmd string, start int) {
	p := s.pos
	if form == language {
		// {language}, then as single
		_, end, ok := s.group(p)
		if !ok {
			return
		}
		p = end + 1
	}
	if form == multi || form == multiVols {
		p = s.optionals(p, '(', ')', 2)
	}
	for {
		var opts []string
		q := s.optionalArgs(p, '[', ']', 2, &opts)
		// [post] alone, or [pre][post]: the postnote is the last one.
		locator := ""
		if len(opts) > 0 {
			locator = opts[len(opts)-1]
		}
		if form == volume || form == multiVols {
			// {volume}[pages]
			_, end, ok := s.group(q)
			if !ok {
				break
			}
			var pages []string
			q = s.optionalArgs(end+1, '[', ']', 1, &pages)
			locator = ""
			if len(pages) > 0 {
				locator = pages[0]
			}
		}
		q, end, ok := s.group(q)
		if !ok {
			break
		}
		n := len(s.cites)
		s.keys(q+1, end, cmd, start)
		for i := n; i < len(s.cites); i++ {
			s.cites[i].Locator = strings.TrimSpace(locator)
		}
		p = end + 1
		if form == single || form == volume || form == language {
			break
		}
	}
	s.pos = p
}

// optionals skips up to n optional arguments open..close after p.
func (s *latexScanner) optionals(p int, open, close byte, n int) int {
	return s.optionalArgs(p, open, close, n, nil)
}

// optionalArgs skips up to n optional arguments open..close after p,
// appending their contents to args when it is not nil.
func (s *latexScanner) optionalArgs(p int, open, close byte, n int, args *[]string) int {
	for ; n > 0; n-- {
		q := s.skipSpace(p)
		if q >= len(s.text) || s.text[q] != open {
			break
		}
		end := s.match(q, open, close)
		if end < 0 {
			break
		}
		if args != nil {
			*args = append(*args, string(s.text[q+1:end]))
		}
		p = end + 1
	}
	return p
}

// keys adds the keys of the list text[from:to], cited by the command cmd
// at start.
func (s *latexScanner) keys(from, to int, cmd string, cmdStart int) {
	i := from
	for i < to {
		// one comma-separated item; % comments inside are skipped
		var start, end int = -1, -1
		valid := true
		for i < to && s.text[i] != ',' {
			c := s.text[i]
			switch {
			case c == '%':
				if start >= 0 && end < 0 {
					end = i // a comment ends the key (a key split by one is not read)
				}
				if nl := bytes.IndexByte(s.text[i:to], '\n'); nl >= 0 {
					i += nl + 1
				} else {
					i = to
				}
				continue
			case c == ' ' || c == '\t' || c == '\n' || c == '\r':
				if start >= 0 && end < 0 {
					end = i
				}
			default:
				if end >= 0 {
					valid = false // white space inside a key
				}
				if start < 0 {
					start = i
				}
				r, size := utf8.DecodeRune(s.text[i:])
				if !isKeyRune(r) {
					valid = false
				}
				i += size
				continue
			}
			i++
		}
		if start >= 0 {
			if end < 0 {
				end = i
			}
			if valid {
				s.cites = append(s.cites, Citation{Key: string(s.text[start:end]), Command: cmd, Offset: start, CommandOffset: cmdStart})
			}
		}
		i++ // the comma
	}
}

func isKeyRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' || r == ':' || r == '.' || r == '/' || r == '+'
}

// skipSpace returns the offset of the first byte at or after p that is
// not white space or in a % comment.
func (s *latexScanner) skipSpace(p int) int {
	for p < len(s.text) {
		switch s.text[p] {
		case ' ', '\t', '\n', '\r':
			p++
		case '%':
			if nl := bytes.IndexByte(s.text[p:], '\n'); nl >= 0 {
				p += nl + 1
			} else {
				p = len(s.text)
			}
		default:
			return p
		}
	}
	return p
}

// match returns the offset of the close matching the open at p: braces
// nest, escaped characters and % comments are skipped, and a ] or ) closes
// only outside braces. It returns -1 when there is none.
func (s *latexScanner) match(p int, open, close byte) int {
	depth := 0 // brace depth
	for i := p + 1; i < len(s.text); i++ {
		switch c := s.text[i]; {
		case c == '\\':
			i++
		case c == '%':
			nl := bytes.IndexByte(s.text[i:], '\n')
			if nl < 0 {
				return -1
			}
			i += nl
		case c == '{':
			depth++
		case c == '}':
			if depth == 0 {
				if close == '}' {
					return i
				}
				return -1 // the group around the command ends first
			}
			depth--
		case c == close && depth == 0:
			return i
		}
	}
	return -1
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
