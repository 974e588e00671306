package draft

import (
	"sort"
	"strings"
	"unicode"
)

// QuoteKind is the markup a quotation is written with.
type QuoteKind string

// The kinds of quotation.
const (
	// QuoteEnvironment is a displayed quotation in LaTeX: the quote,
	// quotation and csquotes' displayquote and displaycquote environments
	// (with their foreign and hyphen forms), and csquotes' \blockquote,
	// \blockcquote (and foreign, hyphen forms) commands.
	QuoteEnvironment QuoteKind = "quote-environment"
	// Enquote is csquotes' \enquote{...} or \enquote*{...}, and biblatex's
	// \mkbibquote{...}.
	Enquote QuoteKind = "enquote"
	// TextQuote is csquotes' \textquote[cite][punct]{...},
	// \textcquote[pre][post]{key}[punct]{...}, \foreignquote{lang}{...},
	// \hyphenquote{lang}{...} and their foreign, hyphen and starred forms.
	TextQuote QuoteKind = "textquote"
	// LaTeXQuotes is a span in TeX's double quotes: two backquotes, then
	// two apostrophes.
	LaTeXQuotes QuoteKind = "latex-quotes"
	// DoubleQuotes is a span in straight "..." or typographic “...”,
	// „...“, „...” or «...» double quotes.
	DoubleQuotes QuoteKind = "double-quotes"
	// Blockquote is a markdown block quotation: a run of lines starting
	// with >.
	Blockquote QuoteKind = "blockquote"
)

// Display reports whether a quotation of kind k is set off from the
// text: a quote environment or a markdown blockquote.
func (k QuoteKind) Display() bool { return k == QuoteEnvironment || k == Blockquote }

// minWords is the length from which a quoted span is a quotation rather
// than scare quotes.
const minWords = 6

// Quotation is one quotation in a draft.
//
// What counts as one: in LaTeX the quote environments and csquotes
// commands (see QuoteKind), spans in TeX's double quotes (two backquotes
// to two apostrophes) and spans in double quotes; in markdown blockquotes
// and spans in double quotes. A span in TeX's or other double quotes, or
// an \enquote (\enquote*, \mkbibquote), is a quotation when its Text has
// at least six words (fields between spaces that hold a letter or digit),
// or when a citation command follows it directly: after only white space
// (no blank line), the punctuation .,;:!?, ~, (, comments and an opening
// \footnote{ (in markdown, a ^[...] footnote with a citation in it counts
// as one); shorter spans are scare quotes or terms
// (so-called "attention"). The other csquotes commands and the quote
// environments are always quotations. Single quotes never make a
// quotation.
//
// Quote marks: TeX's two backquotes close at the first two apostrophes
// (nested pairs nest); “ closes at ” (nesting), „ at “ or ”, « at »
// (nesting); a straight " opens when the character before it is not a
// letter, digit or backslash and the one after it is not white space, and
// closes at the next ". A span must close in the paragraph it opens in
// (and, in markdown, before the next blockquote); else its opening mark is
// text. An environment needs its \end{...} (same-name environments nest),
// a command its braced arguments.
//
// Quotations do not overlap and are not nested: scanning goes on after a
// quotation's markup, so a quoted span inside a quote environment,
// blockquote or quote command is part of that quotation (and a span too
// short to count is skipped whole). Nothing in % comments, verbatim-like
// environments, \verb, \lstinline, \mintinline, math ($...$, $$...$$,
// \(...\), \[...\], equation-like environments) or the arguments of
// \url, \href (its URL), \label, \ref, \includegraphics and similar
// commands is a quotation in LaTeX; nor in markdown anything in the YAML
// front matter, fenced code blocks, code spans, HTML comments, autolinks,
// link destinations or pandoc $ math. Indented code blocks are not
// skipped (as for citations). A markdown blockquote is a run of lines
// starting with up to three spaces and > (lazy continuation lines are not
// part of it).
//
// Elisions are kept in Text as written: "...", "…", "[…]", "[...]", and
// csquotes' \textelp{} as "[…]", \ldots as "…"; insertions \textins{x}
// become "[x]".
type Quotation struct {
	// Kind is the markup.
	Kind QuoteKind
	// Command is the markup as written: `\begin{quote}`,
	// `\begin{displayquote}`, `\blockquote`, `\enquote*`, `\textcquote`,
	// two backquotes, `"`, "“", "„", "«" or ">".
	Command string
	// Text is the quoted words as a reader reads them, on one line:
	//
	//   - LaTeX is decoded to Unicode with latex.Decode (TeX's quotes become
	//     “ and ”, -- and --- – and —, \% %, accents, \emph{x} x ...), after
	//     comments (with the line break and indentation after them, as TeX
	//     reads them), citation commands (with the white space and ~ before
	//     them), \footnote, \label and \index (with their arguments) are
	//     removed; nested csquotes commands become “...”; ~ becomes a space;
	//   - in markdown, emphasis markers (* always, _ unless inside a word),
	//     code backticks, link brackets and destinations, footnotes ([^1],
	//     ^[...]), HTML comments and citations ([@x], @x) are removed,
	//     backslash escapes (\*) give the character, HTML entities are
	//     decoded;
	//   - white space runs, line breaks and paragraph breaks become single
	//     spaces; a blockquote's > markers are removed;
	//   - a dash left at the end (a "— \cite{x}" or "— [@x]" attribution
	//     line whose citation was removed) is removed;
	//   - quote marks that wrap the whole of a display quotation's text are
	//     removed, as quote.TrimMarks removes them (punctuation after the
	//     closing mark is kept): a quote environment holding “Words.” has
	//     Text "Words.".
	//
	// Text is never empty: a quotation whose Text would be is not one.
	Text string
	// Raw is the quoted text as written: text[Offset:End].
	Raw string
	// Offset and End are the byte offsets of the quoted text, without its
	// markup and the white space and comments around it: the body of an
	// environment, the text argument of a command, what is between the
	// quote marks, the lines of a blockquote from the first line's text
	// (after its > markers) to the end of its last line holding text.
	Offset, End int
	// Line and EndLine are the 1-based lines of the first and last byte of
	// the quoted text.
	Line, EndLine int
	// MarkupOffset and MarkupEnd bound the whole quotation with its
	// markup: from the backslash of \begin or of the command, or the
	// opening quote mark, or the first >, to after \end{...}, the closing
	// brace or quote mark, or the end of the blockquote's last line
	// (before its line break).
	MarkupOffset, MarkupEnd int
	// Citations are the citations written inside the quotation's markup:
	// in its optional arguments (\textquote[{\cite{x}}]{...},
	// \blockquote[\cite{x}]{...}), its citation argument (\textcquote{x}
	// {...}) or its text (\begin{quote}... \cite{x}\end{quote}, a
	// blockquote ending in [@x]). They are in Draft.Citations too, and
	// are what CitedKeys returns first.
	Citations []Citation
}

// Provenance is a provenance comment: what an agent wrote, next to a
// quotation it took from the library, to say where it took it from:
//
//	% crossmem: vaswani2017attention p4s32c1 sha256=5f3e1c...
//	<!-- crossmem: vaswani2017attention p4s32c1 sha256=5f3e1c... -->
//
// In LaTeX it is a % comment (one or more %, then "crossmem:"); in
// markdown an HTML comment, or a line of its own starting with %. The
// fields after "crossmem:" are separated by white space: the cite key, the
// chunk id and a field starting "sha256=" (or "sha256:"), in any order
// after the first two; others are ignored. A comment without both a key
// and a chunk id is not a provenance comment.
type Provenance struct {
	// Key is the cite key and ChunkID the chunk id, as written.
	Key, ChunkID string
	// SHA256 is what follows "sha256=" as written: a full hex digest, a
	// prefix, or "..." in an example; empty when there is none.
	SHA256 string
	// Offset is the byte offset of the comment's first byte (% or <);
	// End the offset after its last byte (before the line break, or after
	// -->).
	Offset, End int
	// Line is the 1-based line of Offset.
	Line int
}

// parseProvenance reads the fields of a comment's content (what follows
// % or <!--), or reports false when it is not a provenance comment.
func parseProvenance(content string) (Provenance, bool) {
	content = strings.TrimLeft(content, "% \t")
	rest, ok := strings.CutPrefix(content, "crossmem:")
	if !ok {
		return Provenance{}, false
	}
	f := strings.Fields(rest)
	if len(f) < 2 {
		return Provenance{}, false
	}
	p := Provenance{Key: f[0], ChunkID: f[1]}
	for _, x := range f[2:] {
		if v, ok := strings.CutPrefix(x, "sha256="); ok {
			p.SHA256 = v
			break
		}
		if v, ok := strings.CutPrefix(x, "sha256:"); ok {
			p.SHA256 = v
			break
		}
	}
	return p, true
}

// span is a byte range [start, end).
type span struct{ start, end int }

// regionKind is what a region of a draft holds.
type regionKind int

const (
	regComment regionKind = iota + 1 // a comment: % ..., <!-- ... -->
	regCode                          // code: \verb, verbatim environments, code spans and blocks
	regMath                          // math
	regSkip                          // other text that is not prose: front matter, URLs
)

// region is a part of a draft that is not prose. inner is the content a
// reader sees, for code and URLs (without backticks or delimiters).
type region struct {
	span
	kind  regionKind
	inner span
}

// regionAt returns the region containing offset i.
func regionAt(regions []region, i int) (region, bool) {
	k := sort.Search(len(regions), func(k int) bool { return regions[k].end > i })
	if k < len(regions) && regions[k].start <= i {
		return regions[k], true
	}
	return region{}, false
}

// regionFrom returns the region starting at offset i.
func regionFrom(regions []region, i int) (region, bool) {
	r, ok := regionAt(regions, i)
	return r, ok && r.start == i
}

// countWords returns the number of white-space-separated fields of s that
// hold a letter or a digit.
func countWords(s string) int {
	n := 0
	for _, f := range strings.Fields(s) {
		if strings.IndexFunc(f, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			n++
		}
	}
	return n
}

// isBlank reports whether s holds only spaces, tabs and carriage returns.
func isBlank(s string) bool {
	return strings.Trim(s, " \t\r") == ""
}

// lineEnd returns the offset of the \n ending the line holding i, or
// len(t).
func lineEnd(t string, i int) int {
	if nl := strings.IndexByte(t[i:], '\n'); nl >= 0 {
		return i + nl
	}
	return len(t)
}

// blankAt reports whether the line starting at i (after a \n) is blank.
func blankAt(t string, i int) bool {
	return isBlank(t[i:lineEnd(t, i)])
}

// collapse joins the white-space-separated fields of s with single
// spaces.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }
