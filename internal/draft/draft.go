// Package draft finds the citations in a draft a researcher is writing:
// LaTeX (\citep{key}, \autocite{key}, ...) or pandoc markdown ([@key],
// @key). `crossmem bib draft.tex` uses it to list the keys a draft cites;
// `crossmem check` will use it to find what to check.
//
// Scan reads a draft and returns a Draft; its Citations hold each cite key
// with the command that cited it and where (byte offset, 1-based line and
// byte column). Scanning never fails: text that is not a citation is
// skipped. The Draft value is where later readings of the same text will go
// (quotations, `% crossmem:` provenance comments); callers that use field
// names keep compiling when fields are added.
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
	// Line is the 1-based line of the key; Col its 1-based column in bytes.
	Line, Col int
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
}

// Scan reads text as the kind its name's extension says (see KindOf); for
// an unknown extension it reads LaTeX, and pandoc markdown when that finds
// no citation.
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
	setLines(text, d.Citations)
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

// setLines fills Line and Col from Offset.
func setLines(text []byte, cites []Citation) {
	if len(cites) == 0 {
		return
	}
	starts := []int{0}
	for i, c := range text {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	for i := range cites {
		l := sort.SearchInts(starts, cites[i].Offset+1)
		cites[i].Line = l
		cites[i].Col = cites[i].Offset - starts[l-1] + 1
	}
}
