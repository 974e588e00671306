// Package draft reads a draft a researcher is writing — LaTeX or pandoc
// markdown — for what crossmem checks: the citations (\citep{key},
// \autocite{key}, [@key], @key ...), the quotations (quote environments,
// csquotes commands, spans in TeX's or other double quotes, markdown
// blockquotes) and the `% crossmem: <key> <chunk_id> sha256=<hex>`
// provenance comments that record where an agent took a quotation from. `crossmem bib draft.tex`
// uses the citations; `crossmem check` uses all three.
//
// Scan reads a draft and returns a Draft. Scanning never fails: text that
// is not a citation, quotation or provenance comment is skipped. Offsets
// are byte offsets into the text given to Scan; lines are 1-based.
//
// Which cited keys a quotation is attributed to, and which provenance
// comment belongs to it, are the methods CitedKeys and ProvenanceFor; their
// docs state the rules, which are the contract `crossmem check` relies on.
package draft

import (
	"path/filepath"
	"sort"
	"strings"
)

// Kind is the markup of a draft.
type Kind int

const (
	// Unknown is a file name whose extension says nothing: Scan tries
	// LaTeX, and pandoc markdown when LaTeX finds no citation.
	Unknown Kind = iota
	// LaTeX is .tex, .latex and .ltx.
	LaTeX
	// Markdown is pandoc markdown: .md, .markdown, .qmd, .rmd and .txt.
	Markdown
)

func (k Kind) String() string {
	switch k {
	case LaTeX:
		return "LaTeX"
	case Markdown:
		return "markdown"
	}
	return "unknown"
}

// KindOf returns the kind of a draft from its file name's extension
// (compared case-insensitively), or Unknown.
func KindOf(name string) Kind {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".tex", ".latex", ".ltx":
		return LaTeX
	case ".md", ".markdown", ".qmd", ".rmd", ".txt":
		return Markdown
	}
	return Unknown
}

// Citation is one cite key cited in a draft.
type Citation struct {
	// Key is the cite key as written, without braces or @.
	Key string
	// Command is how it was cited: the LaTeX command with its star
	// ("\\citep", "\\textcite*", "\\autocites"), or in markdown "[@" (in
	// brackets), "[-@" (in brackets, author suppressed), "@" (in the text),
	// "-@" (in the text, author suppressed) or "nocite" (the nocite field of
	// the YAML front matter).
	Command string
	// Offset is the byte offset of the key's first byte in the text:
	// text[Offset:Offset+len(Key)] is Key.
	Offset int
	// CommandOffset is the byte offset of the citation's markup: the
	// backslash of the LaTeX command (of \begin for csquotes'
	// displaycquote environment), the [ of a bracketed pandoc citation,
	// the @ (or -) of an in-text one, the key itself in a nocite field.
	// Keys cited by one command share it.
	CommandOffset int
	// Line is the 1-based line of the key; Col its 1-based column in bytes.
	Line, Col int
	// Locator is the citation's locator as written, "" when none: the
	// postnote of a LaTeX command (the only or the second optional
	// argument: "p.~11" of \cite[p.~11]{key}; a volume citation's pages),
	// the text after the key in a pandoc citation ("p. 11" of [@key, p.
	// 11], "p. 33" of @key [p. 33]). Pages parses a page locator.
	Locator string
}

// Draft is what Scan found in a draft.
type Draft struct {
	// Name is the file name given to Scan.
	Name string
	// Kind is the markup the draft was read as (never Unknown).
	Kind Kind
	// Citations are the cited keys in text order, a key cited twice listed
	// twice.
	Citations []Citation
	// Quotations are the quotations in text order (by Offset); they do
	// not overlap. See Quotation for what counts as one.
	Quotations []Quotation
	// Provenance are the `crossmem:` provenance comments in text order.
	Provenance []Provenance
	// AuthorYears are the author-year references written out in the
	// text, without a cite key: (Lo et al., 2020, p. 4970), Lo et al.
	// (2020, p. 4970), in text order; then the narrative ones (Lo et al.
	// write "…" (2020, p. 4970)) in the order of their quotations. See
	// AuthorYear.
	AuthorYears []AuthorYear

	// Kept by Scan for the association methods.
	text    string
	lines   []int    // the offset of each line's first byte
	regions []region // comments and non-prose (code, math, verbatim), sorted
	paras   []span   // paragraphs (runs of non-blank lines), sorted
	cmds    []cmdGroup
	marks   map[int]span // opening quote mark → its closing mark
	envEnds map[int]span // \begin of a quote environment → its \end
	breaks  []int        // sentence breaks, sorted
	cited   [][]string
	locs    []string // per quotation, the locator of the citation attributing it
	provOf  []int    // per quotation, an index in Provenance or -1
	ayOf    []int    // per quotation, an index in AuthorYears or -1
	ayLoc   []string // per quotation, the page locator after it completing its reference
}

// Scan reads text as the kind its name's extension says (see KindOf); for
// an unknown extension it reads LaTeX, and pandoc markdown when that finds
// no citation. It finds the citations, the quotations and the provenance
// comments, and works out the attributions CitedKeys and ProvenanceFor
// return.
func Scan(name string, text []byte) *Draft {
	d := &Draft{Name: name, Kind: KindOf(name)}
	switch d.Kind {
	case LaTeX:
		d.Citations = scanLaTeX(text)
	case Markdown:
		d.Citations = scanMarkdown(text)
	default:
		d.Kind = LaTeX
		if d.Citations = scanLaTeX(text); len(d.Citations) == 0 {
			d.Kind = Markdown
			d.Citations = scanMarkdown(text)
		}
	}
	lines := lineStarts(text)
	setLines(lines, d.Citations)
	d.text = string(text)
	d.lines = lines
	d.paras = paragraphs(d.text)
	d.cmds = groupCitations(d.Citations)
	if d.Kind == LaTeX {
		scanLaTeXQuotes(d)
	} else {
		scanMarkdownQuotes(d)
	}
	for i := range d.Quotations {
		q := &d.Quotations[i]
		q.Line = lineOf(lines, q.Offset)
		q.EndLine = lineOf(lines, max(q.Offset, q.End-1))
	}
	for i := range d.Provenance {
		d.Provenance[i].Line = lineOf(lines, d.Provenance[i].Offset)
	}
	d.scanAuthorYears()
	d.associate()
	return d
}

// Citations returns Scan(name, text).Citations.
func Citations(name string, text []byte) []Citation {
	return Scan(name, text).Citations
}

// Keys returns the distinct cited keys in the order of their first
// citation.
func (d *Draft) Keys() []string {
	var keys []string
	seen := map[string]bool{}
	for _, c := range d.Citations {
		if !seen[c.Key] {
			seen[c.Key] = true
			keys = append(keys, c.Key)
		}
	}
	return keys
}

// lineStarts returns the offset of the first byte of each line.
func lineStarts(text []byte) []int {
	starts := []int{0}
	for i, c := range text {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineOf returns the 1-based line of offset off.
func lineOf(starts []int, off int) int {
	return sort.SearchInts(starts, off+1)
}

// setLines fills Line and Col from Offset.
func setLines(starts []int, cites []Citation) {
	for i := range cites {
		l := lineOf(starts, cites[i].Offset)
		cites[i].Line = l
		cites[i].Col = cites[i].Offset - starts[l-1] + 1
	}
}
