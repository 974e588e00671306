package draft

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// scanMarkdown finds pandoc citations: [@key], [@key, p. 33], [see @a;
// @b], [-@key], @key in the text and @{key} for keys with other
// characters, following pandoc's manual:
//
//   - an @ directly after a letter, digit or _ is not a citation (e-mail
//     addresses), nor is an escaped \@;
//   - a key starts with a letter, digit or _ and goes on with letters,
//     digits, _ and single punctuation characters among :.#$%&-+?<>~/ that
//     are followed by a letter, digit or _ (so a trailing "." or ":" is not
//     part of the key, and "--" ends it); "://" is allowed inside (URLs);
//   - @{...} takes the text between balanced braces, which may not contain
//     white space;
//   - a citation inside [...] (in the same paragraph) is "[@", else "@";
//     a - right before the @ suppresses the author ("[-@", "-@").
//
// Skipped: fenced code blocks (``` or ~~~, closed by a fence of the same
// character at least as long, or the end of the text), code spans, HTML
// comments, autolinks <scheme:...>, link destinations ](...), and the YAML
// front matter except its nocite field, whose keys are reported with
// Command "nocite". Indented code blocks are not skipped: four spaces
// also indent list continuations, and telling them apart needs a full
// markdown parser. Math ($...$) is not skipped.
func scanMarkdown(text []byte) []Citation {
	m := &mdScanner{text: text}
	start := m.frontMatter()
	for lineStart := start; lineStart < len(text); {
		lineEnd := endOfLine(text, lineStart)
		if ch, n, ok := fence(text[lineStart:lineEnd]); ok {
			// prose before the fence was scanned; skip to the closing fence
			lineStart = skipFenced(text, lineEnd, ch, n)
			continue
		}
		// a run of non-fence lines is one prose segment
		segEnd := lineEnd
		for segEnd < len(text) {
			next := endOfLine(text, segEnd)
			if _, _, ok := fence(text[segEnd:next]); ok {
				break
			}
			segEnd = next
		}
		m.inline(lineStart, segEnd, "")
		lineStart = segEnd
	}
	return m.cites
}

type mdScanner struct {
	text  []byte
	cites []Citation
}

// endOfLine returns the offset after the line starting at i (after its
// \n, or the end of text).
func endOfLine(text []byte, i int) int {
	if nl := bytes.IndexByte(text[i:], '\n'); nl >= 0 {
		return i + nl + 1
	}
	return len(text)
}

// fence reports whether line opens or closes a code fence: optional
// indentation, then three or more ` or ~ (a backtick fence's info string
// may not contain a backtick).
func fence(line []byte) (ch byte, n int, ok bool) {
	l := bytes.TrimLeft(line, " \t")
	if len(l) < 3 || (l[0] != '`' && l[0] != '~') {
		return 0, 0, false
	}
	ch = l[0]
	for n < len(l) && l[n] == ch {
		n++
	}
	if n < 3 || ch == '`' && bytes.IndexByte(l[n:], '`') >= 0 {
		return 0, 0, false
	}
	return ch, n, true
}

// skipFenced returns the offset after the line closing a fence of n ch,
// searching from i, or the end of text.
func skipFenced(text []byte, i int, ch byte, n int) int {
	for i < len(text) {
		end := endOfLine(text, i)
		l := bytes.TrimSpace(text[i:end])
		if len(l) >= n && bytes.Count(l, []byte{ch}) == len(l) {
			return end
		}
		i = end
	}
	return len(text)
}

// frontMatterEnd returns the offset after a YAML front matter block at the
// start of text (a line "---", then lines up to one that is "---" or
// "...", trailing white space allowed), or 0 when there is none.
func frontMatterEnd(text []byte) int {
	first := endOfLine(text, 0)
	if string(bytes.TrimRight(text[:first], " \t\r\n")) != "---" {
		return 0
	}
	for i := first; i < len(text); {
		end := endOfLine(text, i)
		if l := string(bytes.TrimRight(text[i:end], " \t\r\n")); l == "---" || l == "..." {
			return end
		}
		i = end
	}
	return 0 // no closing line: not front matter
}

// frontMatter scans the nocite field of a YAML front matter block at the
// start of the text and returns the offset after the block (0 when there
// is none).
func (m *mdScanner) frontMatter() int {
	closed := frontMatterEnd(m.text)
	if closed == 0 {
		return 0
	}
	var lines [][2]int // start, end of each line inside the block
	for i := endOfLine(m.text, 0); i < closed; {
		end := endOfLine(m.text, i)
		lines = append(lines, [2]int{i, end})
		i = end
	}
	lines = lines[:len(lines)-1] // the closing line
	for k := 0; k < len(lines); k++ {
		start := lines[k][0]
		if !bytes.HasPrefix(m.text[start:], []byte("nocite:")) {
			continue
		}
		stop := lines[k][1]
		for k+1 < len(lines) {
			next := m.text[lines[k+1][0]:lines[k+1][1]]
			if len(bytes.TrimSpace(next)) > 0 && next[0] != ' ' && next[0] != '\t' {
				break // the next top-level field
			}
			k++
			stop = lines[k][1]
		}
		m.inline(start+len("nocite:"), stop, "nocite")
	}
	return closed
}

// inline scans text[from:to] for citations; command, when set, is used for
// every citation found (the front matter's nocite).
func (m *mdScanner) inline(from, to int, command string) {
	t := m.text[:to]
	var open []int // offsets of the open [ in the current paragraph
	for i := from; i < to; {
		c := t[i]
		switch {
		case c == '\\':
			i += 2
		case c == '`':
			i = skipCodeSpan(t, i)
		case c == '<' && bytes.HasPrefix(t[i:], []byte("<!--")):
			if end := bytes.Index(t[i+4:], []byte("-->")); end >= 0 {
				i += 4 + end + 3
			} else {
				i = to
			}
		case c == '<':
			i = skipAutolink(t, i)
		case c == '[':
			open = append(open, i)
			i++
		case c == ']':
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
			i++
			if i < to && t[i] == '(' {
				i = skipParens(t, i)
			}
		case c == '\n':
			i++
			if blankLineAt(t, i) {
				open = open[:0]
			}
		case c == '@' || c == '-' && i+1 < to && t[i+1] == '@':
			bracket := -1
			if len(open) > 0 {
				bracket = open[len(open)-1]
			}
			i = m.citation(t, i, bracket, command)
		default:
			i++
		}
	}
}

// citation reads a citation at i (an @ or -@) and returns where to go on;
// bracket is the offset of the innermost [ it is in, or -1.
func (m *mdScanner) citation(t []byte, i int, bracket int, command string) int {
	inBrackets := bracket >= 0
	cmdStart := i
	if inBrackets {
		cmdStart = bracket
	}
	at := i
	suppress := t[i] == '-'
	if suppress {
		at++
	}
	if i > 0 {
		prev, _ := utf8.DecodeLastRune(t[:i])
		if isWordRune(prev) {
			return at + 1
		}
	}
	keyStart, keyEnd, next := citeKey(t, at+1)
	if keyEnd <= keyStart {
		return at + 1
	}
	if command != "" {
		cmdStart = keyStart
	} else {
		switch {
		case inBrackets && suppress:
			command = "[-@"
		case inBrackets:
			command = "[@"
		case suppress:
			command = "-@"
		default:
			command = "@"
		}
	}
	c := Citation{Key: string(t[keyStart:keyEnd]), Command: command, Offset: keyStart, CommandOffset: cmdStart}
	if command == "[@" || command == "[-@" || command == "@" || command == "-@" {
		c.Locator = mdLocator(t, next, inBrackets)
	}
	m.cites = append(m.cites, c)
	return next
}

// mdLocator returns the locator after a pandoc citation's key ending at i:
// in brackets, the text up to the next ; or the closing ] ("p. 11" of
// [@key, p. 11]); in the text, the content of a bracket right after the
// key that holds no citation ("p. 33" of @key [p. 33]).
func mdLocator(t []byte, i int, inBrackets bool) string {
	if !inBrackets {
		j := i
		if j < len(t) && t[j] == ' ' {
			j++
		}
		if j >= len(t) || t[j] != '[' {
			return ""
		}
		end := bytes.IndexByte(t[j:], ']')
		if end < 0 || bytes.ContainsAny(t[j:j+end], "@\n") {
			return ""
		}
		return strings.TrimSpace(string(t[j+1 : j+end]))
	}
	depth := 0
	for j := i; j < len(t) && j < i+200; j++ {
		switch t[j] {
		case '[':
			depth++
		case ']':
			if depth == 0 {
				return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(t[i:j])), ","))
			}
			depth--
		case ';':
			if depth == 0 {
				return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(t[i:j])), ","))
			}
		}
	}
	return ""
}

// citeKey reads a key at i (after the @) and returns its bounds and the
// offset after it (and after the closing brace of @{...}).
func citeKey(t []byte, i int) (start, end, next int) {
	if i >= len(t) {
		return i, i, i
	}
	if t[i] == '{' {
		depth := 0
		for j := i; j < len(t); {
			r, size := utf8.DecodeRune(t[j:])
			switch {
			case unicode.IsSpace(r):
				return i, i, i + 1
			case r == '{':
				depth++
			case r == '}':
				depth--
				if depth == 0 {
					return i + 1, j, j + 1
				}
			}
			j += size
		}
		return i, i, i + 1
	}
	r, size := utf8.DecodeRune(t[i:])
	if !isWordRune(r) {
		return i, i, i
	}
	j := i + size
	for j < len(t) {
		r, size := utf8.DecodeRune(t[j:])
		if isWordRune(r) {
			j += size
			continue
		}
		if j+1 >= len(t) || !isInternalPunct(r) {
			break
		}
		nr, _ := utf8.DecodeRune(t[j+1:])
		if isWordRune(nr) || (r == ':' || r == '/') && nr == '/' {
			j++
			continue
		}
		break
	}
	return i, j, j
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_' }

func isInternalPunct(r rune) bool {
	switch r {
	case ':', '.', '#', '$', '%', '&', '-', '+', '?', '<', '>', '~', '/':
		return true
	}
	return false
}

// skipCodeSpan returns the offset after the code span opened by the
// backticks at i, or after the backticks when no run of the same length
// closes them before a blank line.
func skipCodeSpan(t []byte, i int) int {
	n := 0
	for i+n < len(t) && t[i+n] == '`' {
		n++
	}
	for j := i + n; j < len(t); {
		switch {
		case t[j] == '`':
			k := 0
			for j+k < len(t) && t[j+k] == '`' {
				k++
			}
			if k == n {
				return j + k
			}
			j += k
		case t[j] == '\n' && blankLineAt(t, j+1):
			return i + n
		default:
			j++
		}
	}
	return i + n
}

// skipAutolink returns the offset after <scheme:...> at i, or i+1.
func skipAutolink(t []byte, i int) int {
	j := i + 1
	for j < len(t) && (isASCIILetter(t[j]) || j > i+1 && (t[j] >= '0' && t[j] <= '9' || t[j] == '+' || t[j] == '.' || t[j] == '-')) {
		j++
	}
	if j-i-1 < 2 || j >= len(t) || t[j] != ':' {
		return i + 1
	}
	for ; j < len(t); j++ {
		switch t[j] {
		case '>':
			return j + 1
		case ' ', '\t', '\n', '<':
			return i + 1
		}
	}
	return i + 1
}

// skipParens returns the offset after the link destination (...) at i, or
// i+1 when it is not closed on its line.
func skipParens(t []byte, i int) int {
	depth := 0
	for j := i; j < len(t); j++ {
		switch t[j] {
		case '\\':
			j++
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return j + 1
			}
		case '\n':
			return i + 1
		}
	}
	return i + 1
}

// blankLineAt reports whether the line starting at i has only white space.
func blankLineAt(t []byte, i int) bool {
	for ; i < len(t); i++ {
		switch t[i] {
		case ' ', '\t', '\r':
		case '\n':
			return true
		default:
			return false
		}
	}
	return true
}
