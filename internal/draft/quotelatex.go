package draft

import (
	"strings"

	"github.com/crossmem/crossmem/internal/latex"
)

// quoteArgs is how a csquotes command or environment takes the arguments
// before its text.
type quoteArgs int

const (
	argsNone  quoteArgs = iota // none
	argsCite                   // [cite][punct]
	argsCCite                  // [pre][post]{key}[punct]
)

// quoteMarkup is a LaTeX quotation command or environment.
type quoteMarkup struct {
	kind QuoteKind
	lang bool // a {language} argument first
	args quoteArgs
}

// latexQuoteEnvs are the quote environments, by name.
var latexQuoteEnvs = map[string]quoteMarkup{
	"quote":                {QuoteEnvironment, false, argsNone},
	"quotation":            {QuoteEnvironment, false, argsNone},
	"displayquote":         {QuoteEnvironment, false, argsCite},
	"foreigndisplayquote":  {QuoteEnvironment, true, argsCite},
	"hyphendisplayquote":   {QuoteEnvironment, true, argsCite},
	"displaycquote":        {QuoteEnvironment, false, argsCCite},
	"foreigndisplaycquote": {QuoteEnvironment, true, argsCCite},
	"hyphendisplaycquote":  {QuoteEnvironment, true, argsCCite},
}

// latexQuoteCmds are the quotation commands, by name without backslash;
// a star after any of them is allowed.
var latexQuoteCmds = map[string]quoteMarkup{
	"enquote":            {Enquote, false, argsNone},
	"mkbibquote":         {Enquote, false, argsNone},
	"foreignquote":       {TextQuote, true, argsNone},
	"hyphenquote":        {TextQuote, true, argsNone},
	"textquote":          {TextQuote, false, argsCite},
	"foreigntextquote":   {TextQuote, true, argsCite},
	"hyphentextquote":    {TextQuote, true, argsCite},
	"textcquote":         {TextQuote, false, argsCCite},
	"foreigntextcquote":  {TextQuote, true, argsCCite},
	"hyphentextcquote":   {TextQuote, true, argsCCite},
	"blockquote":         {QuoteEnvironment, false, argsCite},
	"foreignblockquote":  {QuoteEnvironment, true, argsCite},
	"hyphenblockquote":   {QuoteEnvironment, true, argsCite},
	"blockcquote":        {QuoteEnvironment, false, argsCCite},
	"foreignblockcquote": {QuoteEnvironment, true, argsCCite},
	"hyphenblockcquote":  {QuoteEnvironment, true, argsCCite},
}

// mathEnvs are environments whose body is math.
var mathEnvs = map[string]bool{}

func init() {
	for _, n := range []string{"equation", "align", "alignat", "flalign", "gather", "multline",
		"eqnarray", "math", "displaymath", "dmath", "xalignat", "xxalignat"} {
		mathEnvs[n] = true
		mathEnvs[n+"*"] = true
	}
}

// skipArgCommands are commands whose argument is not prose (a URL, a
// label, a file name): quote marks in it are not quotations.
var skipArgCommands = map[string]bool{
	"url": true, "href": true, "label": true, "ref": true, "eqref": true, "cref": true,
	"Cref": true, "autoref": true, "pageref": true, "input": true, "include": true,
	"includegraphics": true, "usepackage": true, "documentclass": true,
	"bibliography": true, "bibliographystyle": true, "addbibresource": true,
}

// latexName returns the command name after the backslash at i and the
// offset after it ("" for a control symbol such as \% or \\).
func latexName(t string, i int) (string, int) {
	j := i + 1
	for j < len(t) && isASCIILetter(t[j]) {
		j++
	}
	return t[i+1 : j], j
}

// scanLaTeXRegions finds the comments (and the provenance comments among
// them), verbatim text, math and URL-like arguments of a LaTeX draft.
func scanLaTeXRegions(d *Draft, s *latexScanner) {
	t := d.text
	add := func(start, end int, kind regionKind, inner span) {
		d.regions = append(d.regions, region{span{start, end}, kind, inner})
	}
	for i := 0; i < len(t); {
		switch t[i] {
		case '%':
			end := lineEnd(t, i)
			e := end
			if e > i && t[e-1] == '\r' {
				e--
			}
			add(i, end, regComment, span{i, end})
			if p, ok := parseProvenance(t[i+1 : e]); ok {
				p.Offset, p.End = i, e
				d.Provenance = append(d.Provenance, p)
			}
			i = end
		case '$':
			delim := "$"
			if strings.HasPrefix(t[i:], "$$") {
				delim = "$$"
			}
			if end := d.mathEnd(i+len(delim), delim); end >= 0 {
				add(i, end, regMath, span{i, end})
				i = end
			} else {
				i += len(delim)
			}
		case '\\':
			name, j := latexName(t, i)
			if name == "" {
				if j < len(t) && (t[j] == '(' || t[j] == '[') {
					closing := `\)`
					if t[j] == '[' {
						closing = `\]`
					}
					if end := d.mathEnd(j+1, closing); end >= 0 {
						add(i, end, regMath, span{i, end})
						i = end
						continue
					}
				}
				i = min(j+1, len(t))
				continue
			}
			s.pos = j
			switch {
			case name == "verb" || name == "lstinline" || name == "mintinline":
				from := s.skipInlineVerbatim(name)
				if s.pos > from {
					add(i, s.pos, regCode, span{min(from+1, s.pos-1), s.pos - 1})
				}
				i = max(s.pos, j)
			case name == "begin":
				p, end, ok := s.group(j)
				if !ok {
					i = j
					continue
				}
				env := t[p+1 : end]
				if !verbatimEnvs[env] && !mathEnvs[env] {
					i = j
					continue
				}
				kind := regCode
				if mathEnvs[env] {
					kind = regMath
				} else if env == "comment" {
					kind = regComment
				}
				stop, after := len(t), len(t)
				if k := strings.Index(t[end:], `\end{`+env+`}`); k >= 0 {
					stop = end + k
					after = stop + len(`\end{`+env+`}`)
				}
				add(i, after, kind, span{end + 1, stop})
				i = after
			case skipArgCommands[name]:
				s.skipOptional('[', ']')
				s.skipGroup()
				if s.pos > j {
					add(i, s.pos, regSkip, span{j, s.pos})
					i = s.pos
				} else {
					i = j
				}
			default:
				i = j
			}
		default:
			i++
		}
	}
}

// mathEnd returns the offset after the delimiter closing math that
// starts at from, or -1 when it is not closed in the paragraph.
func (d *Draft) mathEnd(from int, delim string) int {
	t := d.text
	for i := from; i < len(t); i++ {
		switch {
		case strings.HasPrefix(t[i:], delim):
			return i + len(delim)
		case t[i] == '\\':
			i++
		case t[i] == '\n' && blankAt(t, i+1):
			return -1
		}
	}
	return -1
}

// scanLaTeXQuotes finds the quotations and provenance comments of a LaTeX
// draft (see Quotation and Provenance).
func scanLaTeXQuotes(d *Draft) {
	t := d.text
	s := &latexScanner{text: []byte(t)}
	scanLaTeXRegions(d, s)
	d.marks = map[int]span{}
	for _, p := range d.paras {
		d.matchMarks(p.start, p.end)
	}
	d.envEnds = d.matchEnvironments()
	for i := 0; i < len(t); {
		if r, ok := regionAt(d.regions, i); ok {
			i = r.end
			continue
		}
		switch {
		case t[i] == '\\':
			q, ok, next := d.latexCommandQuote(s, i)
			if ok && d.addQuotation(q) {
				i = q.MarkupEnd
			} else {
				i = next
			}
		case strings.HasPrefix(t[i:], "``"):
			i = d.latexSpan(s, i, "``", LaTeXQuotes)
		default:
			if m := openMark(t, i); m != "" {
				i = d.latexSpan(s, i, m, DoubleQuotes)
			} else {
				i++
			}
		}
	}
}

// latexSpan reads a span in quote marks opened by open at i, adds it when
// it is a quotation, and returns where to go on.
func (d *Draft) latexSpan(s *latexScanner, i int, open string, kind QuoteKind) int {
	cs, ce, ok := d.closeMark(i)
	if !ok {
		return i + len(open)
	}
	from, to := d.trimSpan(i+len(open), cs, false)
	q := Quotation{Kind: kind, Command: open, Offset: from, End: to, MarkupOffset: i, MarkupEnd: ce}
	q.Text = d.latexText(s, from, to)
	if collapse(q.Text) != "" && d.inlineCounts(&q) {
		d.addQuotation(q)
	}
	return ce
}

// latexCommandQuote reads the quote command or environment at i (a
// backslash); next is where to go on when it is not a quotation.
func (d *Draft) latexCommandQuote(s *latexScanner, i int) (q Quotation, ok bool, next int) {
	t := d.text
	name, j := latexName(t, i)
	if name == "" {
		return q, false, min(j+1, len(t))
	}
	if name == "begin" {
		p, end, ok := s.group(j)
		if !ok {
			return q, false, j
		}
		env := t[p+1 : end]
		m, isQuote := latexQuoteEnvs[env]
		if !isQuote {
			return q, false, j
		}
		body := d.latexArgs(s, end+1, m)
		if body < 0 {
			return q, false, j
		}
		m2, found := d.envEnds[i]
		stop, after := m2.start, m2.end
		if !found || stop < body {
			return q, false, j
		}
		from, to := d.trimSpan(body, stop, false)
		q = Quotation{Kind: m.kind, Command: `\begin{` + env + `}`, Offset: from, End: to, MarkupOffset: i, MarkupEnd: after}
		q.Text = d.latexText(s, from, to)
		return q, true, j
	}
	m, isQuote := latexQuoteCmds[name]
	if !isQuote {
		return q, false, j
	}
	cmd := `\` + name
	p := j
	if p < len(t) && t[p] == '*' {
		cmd += "*"
		p++
	}
	p = d.latexArgs(s, p, m)
	if p < 0 {
		return q, false, j
	}
	p, end, ok := s.group(p)
	if !ok {
		return q, false, j
	}
	from, to := d.trimSpan(p+1, end, false)
	q = Quotation{Kind: m.kind, Command: cmd, Offset: from, End: to, MarkupOffset: i, MarkupEnd: end + 1}
	q.Text = d.latexText(s, from, to)
	if m.kind == Enquote && !d.inlineCounts(&q) {
		return q, false, end + 1
	}
	return q, true, j
}

// latexArgs skips the arguments of a quote command or environment before
// its text, from p; it returns where they end, or -1 when a required one
// is missing.
func (d *Draft) latexArgs(s *latexScanner, p int, m quoteMarkup) int {
	group := func(p int) int {
		if _, end, ok := s.group(p); ok {
			return end + 1
		}
		return -1
	}
	if m.lang {
		if p = group(p); p < 0 {
			return -1
		}
	}
	switch m.args {
	case argsCite:
		p = s.optionals(p, '[', ']', 2)
	case argsCCite:
		p = s.optionals(p, '[', ']', 2)
		if p = group(p); p < 0 {
			return -1
		}
		p = s.optionals(p, '[', ']', 1)
	}
	return p
}

// matchEnvironments finds, in one pass outside regions, the \end{env}
// closing each \begin{env} of a quote environment (environments of the
// same name nest), by the offset of \begin.
func (d *Draft) matchEnvironments() map[int]span {
	t := d.text
	ends := map[int]span{}
	open := map[string][]int{}
	for i := 0; i < len(t); {
		if r, ok := regionAt(d.regions, i); ok {
			i = r.end
			continue
		}
		if t[i] != '\\' {
			i++
			continue
		}
		name, j := latexName(t, i)
		if (name == "begin" || name == "end") && j < len(t) && t[j] == '{' {
			if k := strings.IndexByte(t[j:], '}'); k >= 0 {
				env := t[j+1 : j+k]
				after := j + k + 1
				if _, ok := latexQuoteEnvs[env]; ok {
					if name == "begin" {
						open[env] = append(open[env], i)
					} else if n := len(open[env]); n > 0 {
						ends[open[env][n-1]] = span{i, after}
						open[env] = open[env][:n-1]
					}
					i = after
					continue
				}
			}
		}
		i = max(j, i+2)
	}
	return ends
}

// latexText returns the Text of the LaTeX text[from:to].
func (d *Draft) latexText(s *latexScanner, from, to int) string {
	txt := latex.Decode(d.latexPlain(s, from, to))
	return collapse(strings.ReplaceAll(txt, "\u00a0", " "))
}

// removedCommands are commands removed from a quotation's Text with their
// optional and one braced argument.
var removedCommands = map[string]bool{
	"footnote": true, "footnotemark": true, "footnotetext": true, "label": true, "index": true,
}

// spaceCommands print (at most) a space.
var spaceCommands = map[string]bool{
	"par": true, "noindent": true, "newline": true, "linebreak": true, "hfill": true,
	"smallskip": true, "medskip": true, "bigskip": true, "indent": true, "centering": true,
	"raggedright": true, "raggedleft": true, "nopagebreak": true,
}

// latexPlain rewrites text[from:to] for latex.Decode: comments (with the
// line break and indentation after them, as TeX reads them), citation
// commands (with the white space and ~ before them), \footnote, \label
// and \index are removed; \textelp{} becomes [\ldots], \textins{x} [x],
// quote commands inside become TeX quotes; verbatim text is kept without
// its delimiters.
func (d *Draft) latexPlain(s *latexScanner, from, to int) string {
	t := d.text
	var b strings.Builder
	for i := from; i < to; {
		if r, ok := regionAt(d.regions, i); ok {
			switch r.kind {
			case regComment:
				i = r.end
				if i < to && t[i] == '\n' {
					i++
					for i < to && (t[i] == ' ' || t[i] == '\t') {
						i++
					}
				}
				continue
			case regCode:
				b.WriteString(t[max(r.inner.start, from):max(min(r.inner.end, to), max(r.inner.start, from))])
			default:
				b.WriteString(t[max(r.start, from):min(r.end, to)])
			}
			i = r.end
			continue
		}
		if t[i] != '\\' {
			b.WriteByte(t[i])
			i++
			continue
		}
		name, j := latexName(t, i)
		if name == "" {
			j = min(j+1, to)
			b.WriteString(t[i:j])
			i = j
			continue
		}
		if _, ok := d.groupAt(i); ok {
			end := citeEnd(s, i)
			trimmed := strings.TrimRight(b.String(), " \t\r\n~")
			b.Reset()
			b.WriteString(trimmed)
			i = max(min(end, to), j)
			continue
		}
		star := j < to && t[j] == '*'
		after := j
		if star {
			after++
		}
		switch {
		case removedCommands[name]:
			s.pos = after
			s.skipOptional('[', ']')
			s.skipGroup()
			i = max(min(s.pos, to), j)
		case name == "textelp" || name == "textins":
			inner := ""
			if p, end, ok := s.group(after); ok && end < to {
				inner = d.latexPlain(s, p+1, end)
				after = end + 1
			}
			if name == "textelp" {
				b.WriteString(`[\ldots]`)
				if inner != "" {
					b.WriteString(" " + inner)
				}
			} else {
				b.WriteString("[" + inner + "]")
			}
			i = after
		case latexQuoteCmds[name] != (quoteMarkup{}):
			m := latexQuoteCmds[name]
			if p := d.latexArgs(s, after, m); p >= 0 {
				if p, end, ok := s.group(p); ok && end < to {
					b.WriteString("``" + d.latexPlain(s, p+1, end) + "''")
					i = end + 1
					continue
				}
			}
			b.WriteString(t[i:j])
			i = j
		case spaceCommands[name]:
			b.WriteByte(' ')
			i = j
		case name == "begin" || name == "end":
			s.pos = j
			s.skipGroup()
			b.WriteByte(' ')
			i = max(min(s.pos, to), j)
		default:
			b.WriteString(t[i:j])
			i = j
		}
	}
	return b.String()
}

// citeEnd returns the offset after the citation command at i.
func citeEnd(s *latexScanner, i int) int {
	t := s.text
	name, j := latexName(string(t[i:min(len(t), i+64)]), 0)
	j += i
	sc := &latexScanner{text: t, pos: j}
	if name == "begin" {
		if p, end, ok := sc.group(j); ok {
			if form, ok := citeEnvironments[string(t[p+1:end])]; ok {
				sc.pos = end + 1
				sc.cite(form, "", i)
				return sc.pos
			}
		}
		return j
	}
	form, ok := citeCommands[name]
	if !ok {
		return j
	}
	if sc.pos < len(t) && t[sc.pos] == '*' {
		sc.pos++
	}
	sc.cite(form, "", i)
	return sc.pos
}
