// Package bibtex reads BibTeX and BibLaTeX files (as Zotero, Better
// BibTeX, JabRef, Google Scholar, DBLP and Crossref write them) and
// converts their entries to CSL-JSON items (csl.Item) for
// `crossmem import refs.bib`.
//
// Parse reads the file into entries: type, cite key, fields in file order
// with @string macros expanded and # concatenations joined, and line
// numbers. Reading is all-or-nothing: any syntax error (unbalanced braces,
// a missing cite key, comma or =, an unknown @string name, a duplicate
// cite key, an entry that is never closed, a file that is not UTF-8)
// makes Parse return no entries and an error naming the line and the
// reason; several errors are joined (errors.Join), each a *SyntaxError.
//
// (Entry).Item converts one entry to a csl.Item, decoding LaTeX to Unicode
// (latex.Decode) and splitting names by BibTeX's rules; Items does both
// steps for a whole file and resolves crossref inheritance. Conversion
// never fails: what it cannot read is dropped with a warning.
//
// The reader follows BibTeX's syntax with biber's extensions:
//
//   - An entry is @type{key, name = value, ...} or @type(key, ...); a
//     trailing comma before the closing delimiter is allowed. Types, field
//     names and @string names are case-insensitive and returned
//     lower-cased; cite keys are kept exactly as written.
//   - A value is {braced text} (braces nest), "quoted text" (braces inside
//     must balance, and a " inside braces does not end it), a bare number,
//     or a @string name, joined with #. Braces are counted as BibTeX counts
//     them: \{ and \} count too.
//   - The month names jan … dec are predefined @string names that expand
//     to January … December.
//   - @comment{…} and @preamble{…} are read and skipped; text outside
//     entries is ignored, as BibTeX ignores it. Outside values a % starts a
//     comment to the end of the line, also between fields (BibTeX has no
//     comments, but .bib files are full of them). An @ directly after a
//     letter or digit outside an entry (an e-mail address in a comment) is
//     text.
//   - A value that runs into a line beginning with "@type{" is reported as
//     not closed at the line where it started: a missing closing brace is
//     the usual cause, and BibTeX would otherwise swallow the next entry.
//   - The input must be UTF-8 (a leading byte-order mark is ignored).
package bibtex

import (
	"fmt"
	"strings"
)

// Entry is one bibliography entry: @Type{Key, Fields...}.
type Entry struct {
	// Type is the entry type, lower-cased: "article", "inproceedings".
	Type string
	// Key is the cite key exactly as written.
	Key string
	// Fields are the entry's fields in file order. A field given twice is
	// kept twice; Get returns the first.
	Fields []Field
	// Line is the 1-based line of the entry's @.
	Line int
}

// Field is one name = value pair of an entry.
type Field struct {
	// Name is the field name, lower-cased: "title", "journaltitle".
	Name string
	// Value is the raw LaTeX value without its outer delimiters, after
	// @string expansion and # concatenation; whitespace and line breaks are
	// kept as written. latex.Decode turns it into text.
	Value string
	// Line is the 1-based line of the field name.
	Line int
}

// Lookup returns the raw value of the first field called name (compared
// case-insensitively) and whether there is one.
func (e Entry) Lookup(name string) (string, bool) {
	for _, f := range e.Fields {
		if strings.EqualFold(f.Name, name) {
			return f.Value, true
		}
	}
	return "", false
}

// Get returns the raw value of the first field called name, or "".
func (e Entry) Get(name string) string {
	v, _ := e.Lookup(name)
	return v
}

// SyntaxError is one problem Parse found. Its Error is "line N: Msg".
type SyntaxError struct {
	Line int    // 1-based line of the problem
	Msg  string // what is wrong and how to fix it
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }
