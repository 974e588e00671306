package bibtex

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// maxErrors is how many syntax errors Parse reports before it stops.
const maxErrors = 10

// monthMacros are the @string names every BibTeX style predefines.
var monthMacros = map[string]string{
	"jan": "January", "feb": "February", "mar": "March", "apr": "April",
	"may": "May", "jun": "June", "jul": "July", "aug": "August",
	"sep": "September", "oct": "October", "nov": "November", "dec": "December",
}

// Parse reads a BibTeX or BibLaTeX file. It returns every entry in file
// order, or no entries and an error when anything in data is malformed:
// each problem is a *SyntaxError with its line, joined with errors.Join
// (at most ten are reported). Duplicate cite keys (compared exactly) are
// errors. @string, @preamble and @comment are not returned as entries.
func Parse(data []byte) ([]Entry, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	p := &parser{data: data, macros: map[string]string{}}
	p.lines = append(p.lines, 0)
	for i, c := range data {
		if c == '\n' {
			p.lines = append(p.lines, i+1)
		}
	}
	if !utf8.Valid(data) {
		off := invalidUTF8(data)
		return nil, &SyntaxError{Line: p.line(off), Msg: fmt.Sprintf("the file is not UTF-8 (byte 0x%02X); convert it to UTF-8 (for example: iconv -f latin1 -t utf-8 refs.bib) and import it again", data[off])}
	}
	entries := p.parse()
	if len(p.errs) > 0 {
		return nil, errors.Join(p.errs...)
	}
	return entries, nil
}

func invalidUTF8(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return 0
}

type parser struct {
	data   []byte
	pos    int
	lines  []int // byte offset of the start of each line
	macros map[string]string
	errs   []error
	// expanded counts the bytes of every value read, macros expanded
	// (MaxExpandedBytes).
	expanded int
}

// Limits of @string expansion (docs/limits.md): macros that concatenate
// each other can make a few hundred bytes expand to gigabytes.
const (
	// MaxValueBytes bounds one value after @string expansion: 256 KiB.
	MaxValueBytes = 256 << 10
	// MaxExpandedBytes bounds all values of a file after expansion: 16 MiB.
	MaxExpandedBytes = 16 << 20
)

// failure is a syntax error with the offset where reading resumes (-1: at
// the next line that starts with @).
type failure struct {
	err    *SyntaxError
	resume int
}

func (f *failure) Error() string { return f.err.Error() }

// line returns the 1-based line of byte offset off.
func (p *parser) line(off int) int { return sort.SearchInts(p.lines, off+1) }

func (p *parser) fail(off int, format string, args ...any) *failure {
	return &failure{err: &SyntaxError{Line: p.line(off), Msg: fmt.Sprintf(format, args...)}, resume: -1}
}

func (p *parser) peek() int {
	if p.pos < len(p.data) {
		return int(p.data[p.pos])
	}
	return -1
}

func (p *parser) parse() []Entry {
	var entries []Entry
	seen := map[string]int{} // key -> line
	for p.pos < len(p.data) {
		if len(p.errs) >= maxErrors {
			p.errs = append(p.errs, errors.New("more errors may follow; fix these and import again"))
			break
		}
		c := p.data[p.pos]
		switch {
		case c == '%':
			p.skipLine()
		case c == '@' && p.pos > 0 && isAlnum(p.data[p.pos-1]):
			p.pos++ // an e-mail address in free text
		case c == '@':
			start := p.pos
			e, ok, f := p.command()
			if f != nil {
				p.errs = append(p.errs, f.err)
				p.resync(start, f.resume)
				continue
			}
			if !ok {
				continue
			}
			if first, dup := seen[e.Key]; dup {
				p.errs = append(p.errs, &SyntaxError{Line: e.Line, Msg: fmt.Sprintf("duplicate cite key %q (first used at line %d); rename or delete one of the two entries", e.Key, first)})
				continue
			}
			seen[e.Key] = e.Line
			entries = append(entries, e)
		default:
			p.pos++
		}
	}
	return entries
}

// resync moves past a failed command: to resume when it is set, else to
// the next line after the failure whose first non-blank character is @.
func (p *parser) resync(start, resume int) {
	if resume > start {
		p.pos = resume
		return
	}
	i := max(p.pos, start+1)
	for {
		nl := bytes.IndexByte(p.data[i:], '\n')
		if nl < 0 {
			p.pos = len(p.data)
			return
		}
		i += nl + 1
		j := i
		for j < len(p.data) && (p.data[j] == ' ' || p.data[j] == '\t' || p.data[j] == '\r') {
			j++
		}
		if j < len(p.data) && p.data[j] == '@' {
			p.pos = j
			return
		}
	}
}

// command reads one @-command at p.pos. ok is false for @string,
// @preamble and @comment.
func (p *parser) command() (e Entry, ok bool, f *failure) {
	at := p.pos
	p.pos++
	p.skipBlank()
	typ := p.ident()
	if typ == "" {
		return e, false, p.fail(at, "@ must be followed by an entry type such as article (write \\@ or put the text in a field to keep a literal @)")
	}
	p.skipBlank()
	var closer byte
	switch p.peek() {
	case '{':
		closer = '}'
	case '(':
		closer = ')'
	default:
		return e, false, p.fail(at, "@%s must be followed by { or (", typ)
	}
	p.pos++
	switch strings.ToLower(typ) {
	case "comment":
		return e, false, p.skipComment(at, closer)
	case "preamble":
		p.skipSpace()
		if _, f := p.value("@preamble"); f != nil {
			return e, false, f
		}
		return e, false, p.close(at, "@preamble", closer)
	case "string":
		return e, false, p.stringDef(at, closer)
	}
	e, f = p.entry(at, strings.ToLower(typ), closer)
	return e, f == nil, f
}

// skipComment skips the body of @comment{...}, whose delimiters balance.
func (p *parser) skipComment(at int, closer byte) *failure {
	opener := byte('{')
	if closer == ')' {
		opener = '('
	}
	depth := 1
	for ; p.pos < len(p.data); p.pos++ {
		switch p.data[p.pos] {
		case opener:
			depth++
		case closer:
			depth--
			if depth == 0 {
				p.pos++
				return nil
			}
		}
	}
	return p.fail(at, "@comment is never closed: its %c has no matching %c", opener, closer)
}

func (p *parser) stringDef(at int, closer byte) *failure {
	p.skipSpace()
	name := p.ident()
	if name == "" {
		return p.fail(p.pos, "@string needs a name: @string{name = {text}}")
	}
	p.skipSpace()
	if p.peek() != '=' {
		return p.fail(p.pos, "@string{%s ...} needs = and a value", name)
	}
	p.pos++
	p.skipSpace()
	v, f := p.value("@string " + name)
	if f != nil {
		return f
	}
	if f := p.close(at, "@string", closer); f != nil {
		return f
	}
	p.macros[strings.ToLower(name)] = v
	return nil
}

// close expects the closing delimiter of the command that started at at.
func (p *parser) close(at int, what string, closer byte) *failure {
	p.skipSpace()
	switch c := p.peek(); {
	case c == int(closer):
		p.pos++
		return nil
	case c < 0:
		return p.fail(at, "%s is not closed: the file ends inside it; add the missing %c", what, closer)
	default:
		return p.fail(p.pos, "%s: expected %c, found %q", what, closer, rune(c))
	}
}

func (p *parser) entry(at int, typ string, closer byte) (Entry, *failure) {
	e := Entry{Type: typ, Line: p.line(at)}
	p.skipSpace()
	keyAt := p.pos
	for p.pos < len(p.data) && isKeyChar(p.data[p.pos]) {
		p.pos++
	}
	e.Key = string(p.data[keyAt:p.pos])
	p.skipSpace()
	switch c := p.peek(); {
	case c == ',' && e.Key != "":
		p.pos++
	case c == int(closer) && e.Key != "":
		p.pos++
		return e, nil
	case c == '=' && e.Key != "":
		return e, p.fail(at, "@%s has no cite key: it starts with the field %q; write @%s{somekey, %s = ...}", typ, e.Key, typ, e.Key)
	case c < 0:
		return e, p.fail(at, "@%s is not closed: the file ends inside it", typ)
	case e.Key == "":
		return e, p.fail(at, "@%s has no cite key; write @%s{somekey, ...}", typ, typ)
	default:
		return e, p.fail(p.pos, "cite key %q is followed by %q: a cite key cannot contain spaces or any of , { } ( ) = \" # %% \\, and a comma must follow it", e.Key, rune(c))
	}
	for {
		p.skipSpace()
		c := p.peek()
		switch {
		case c < 0:
			return e, p.fail(at, "entry %q is not closed: the file ends inside it; add the missing %c", e.Key, closer)
		case c == int(closer):
			p.pos++
			return e, nil
		case c == '@':
			f := p.fail(at, "entry %q is not closed before the @ at line %d; add the missing %c", e.Key, p.line(p.pos), closer)
			f.resume = p.pos
			return e, f
		}
		nameAt := p.pos
		name := p.ident()
		if name == "" {
			return e, p.fail(p.pos, "in entry %q: expected a field name or %c, found %q", e.Key, closer, rune(c))
		}
		p.skipSpace()
		if p.peek() != '=' {
			return e, p.fail(nameAt, "in entry %q: field %q needs = and a value", e.Key, name)
		}
		p.pos++
		p.skipSpace()
		v, f := p.value(name)
		if f != nil {
			return e, f
		}
		e.Fields = append(e.Fields, Field{Name: strings.ToLower(name), Value: v, Line: p.line(nameAt)})
		end := p.pos
		p.skipSpace()
		switch c := p.peek(); {
		case c == ',':
			p.pos++
		case c == int(closer):
			p.pos++
			return e, nil
		case c < 0:
			return e, p.fail(at, "entry %q is not closed: the file ends inside it; add the missing %c", e.Key, closer)
		case c == '@':
			f := p.fail(at, "entry %q is not closed before the @ at line %d; add the missing %c", e.Key, p.line(p.pos), closer)
			f.resume = p.pos
			return e, f
		case isASCIILetter(byte(c)) || c >= 0x80:
			return e, p.fail(end, "in entry %q: missing comma after the value of field %q (before %q at line %d)", e.Key, name, p.peekIdent(), p.line(p.pos))
		default:
			return e, p.fail(p.pos, "in entry %q: unexpected %q after the value of field %q; expected , or %c", e.Key, rune(c), name, closer)
		}
	}
}

// value reads name's value: parts joined by #.
func (p *parser) value(name string) (string, *failure) {
	var b strings.Builder
	for {
		p.skipSpace()
		c := p.peek()
		switch {
		case c == '{' || c == '"':
			s, f := p.delimited(name)
			if f != nil {
				return "", f
			}
			b.WriteString(s)
		case c >= '0' && c <= '9':
			start := p.pos
			for p.pos < len(p.data) && isDigit(p.data[p.pos]) {
				p.pos++
			}
			b.Write(p.data[start:p.pos])
		case c >= 0 && isIdentStart(byte(c)):
			at := p.pos
			m := p.ident()
			v, ok := p.macros[strings.ToLower(m)]
			if !ok {
				v, ok = monthMacros[strings.ToLower(m)]
			}
			if !ok {
				return "", p.fail(at, "field %q uses %q, which is not a defined @string; define it first with @string{%s = {...}} or put the value in braces: {%s}", name, m, m, m)
			}
			if b.Len()+len(v) > MaxValueBytes {
				return "", p.fail(at, "field %q is longer than %d KiB once its @string macros are expanded (crossmem's limit, docs/limits.md); the file is malformed or hostile", name, MaxValueBytes>>10)
			}
			b.WriteString(v)
		case c < 0:
			return "", p.fail(p.pos, "the file ends where the value of field %q should be", name)
		default:
			return "", p.fail(p.pos, "field %q has no value: expected {text}, \"text\", a number or a @string name, found %q", name, rune(c))
		}
		end := p.pos
		p.skipSpace()
		if p.peek() != '#' {
			p.pos = end
			if p.expanded += b.Len(); p.expanded > MaxExpandedBytes {
				return "", p.fail(end, "the file's values are longer than %d MiB once its @string macros are expanded (crossmem's limit, docs/limits.md); the file is malformed or hostile", MaxExpandedBytes>>20)
			}
			return b.String(), nil
		}
		p.pos++
	}
}

// delimited reads a {braced} or "quoted" value part at p.pos and returns
// it without its delimiters.
func (p *parser) delimited(name string) (string, *failure) {
	start := p.pos
	quoted := p.data[start] == '"'
	depth := 0
	if !quoted {
		depth = 1
	}
	for i := start + 1; i < len(p.data); i++ {
		switch p.data[i] {
		case '{':
			depth++
		case '}':
			depth--
			if quoted && depth < 0 {
				return "", p.fail(i, "in field %q: this } has no matching { inside the quoted value that starts at line %d (is its closing \" missing?)", name, p.line(start))
			}
			if !quoted && depth == 0 {
				p.pos = i + 1
				return string(p.data[start+1 : i]), nil
			}
		case '"':
			if quoted && depth == 0 {
				if p.data[i-1] == '\\' {
					return "", p.fail(i, "in field %q: the \\\" accent ends the quoted value; write it in braces, like {\\\"u}", name)
				}
				p.pos = i + 1
				return string(p.data[start+1 : i]), nil
			}
		case '\n':
			if at, ok := entryStartsAt(p.data, i+1); ok {
				f := p.fail(start, "the value of field %q is not closed before the entry at line %d: a closing %s is probably missing", name, p.line(at), closingOf(quoted))
				f.resume = at
				return "", f
			}
		}
	}
	return "", p.fail(start, "the value of field %q is never closed: the file ends inside it; add the missing %s", name, closingOf(quoted))
}

func closingOf(quoted bool) string {
	if quoted {
		return `"`
	}
	return "}"
}

// entryStartsAt reports whether the line starting at i begins (after
// blanks) with @name{ or @name(, and returns the offset of the @.
func entryStartsAt(data []byte, i int) (int, bool) {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r') {
		i++
	}
	at := i
	if i >= len(data) || data[i] != '@' {
		return 0, false
	}
	i++
	n := 0
	for i < len(data) && isASCIILetter(data[i]) {
		i++
		n++
	}
	if n == 0 {
		return 0, false
	}
	for i < len(data) && (data[i] == ' ' || data[i] == '\t') {
		i++
	}
	return at, i < len(data) && (data[i] == '{' || data[i] == '(')
}

// ident reads a BibTeX identifier (entry type, field or @string name).
func (p *parser) ident() string {
	if p.pos >= len(p.data) || !isIdentStart(p.data[p.pos]) {
		return ""
	}
	start := p.pos
	for p.pos < len(p.data) && isIdentChar(p.data[p.pos]) {
		p.pos++
	}
	return string(p.data[start:p.pos])
}

// peekIdent returns the identifier at p.pos without consuming it.
func (p *parser) peekIdent() string {
	pos := p.pos
	s := p.ident()
	p.pos = pos
	return s
}

// skipSpace skips white space and % comments.
func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r', '\f', '\v':
			p.pos++
		case '%':
			p.skipLine()
		default:
			return
		}
	}
}

// skipBlank skips white space only.
func (p *parser) skipBlank() {
	for p.pos < len(p.data) && isSpace(p.data[p.pos]) {
		p.pos++
	}
}

func (p *parser) skipLine() {
	if nl := bytes.IndexByte(p.data[p.pos:], '\n'); nl >= 0 {
		p.pos += nl + 1
	} else {
		p.pos = len(p.data)
	}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func isDigit(c byte) bool       { return c >= '0' && c <= '9' }
func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isAlnum(c byte) bool       { return isDigit(c) || isASCIILetter(c) }

// isIdentChar: BibTeX's identifier characters (printable ASCII except
// " # % ' ( ) , = { } and space) without @ and \, plus any non-ASCII byte.
func isIdentChar(c byte) bool {
	if c >= 0x80 {
		return true
	}
	return c > ' ' && c < 0x7f && !strings.ContainsRune("\"#%'(),={}@\\", rune(c))
}

func isIdentStart(c byte) bool { return isIdentChar(c) && !isDigit(c) }

// isKeyChar: a cite key is anything but white space and , { } ( ) = " # % \.
func isKeyChar(c byte) bool {
	if c >= 0x80 {
		return true
	}
	return c > ' ' && c < 0x7f && !strings.ContainsRune(",{}()=\"#%\\", rune(c))
}
