package cite

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/crossmem/crossmem/internal/citation"
	"github.com/crossmem/crossmem/internal/library"
)

// Kinds of bibliography problems.
const (
	// ProblemUnknown: no paper has the key (Suggestions are the closest).
	ProblemUnknown = "unknown"
	// ProblemNoMetadata: the paper has no title, author or container
	// title to cite (Err says how to describe it).
	ProblemNoMetadata = "no-metadata"
	// ProblemSameWork: the key names a paper already cited under another
	// key (Entry): one entry is written, under the first key, so a draft
	// citing both keys has one key without an entry — except in BibLaTeX,
	// whose entry lists the other keys in its ids field.
	ProblemSameWork = "same-work"
)

// Problem is a key a bibliography could not give an entry of its own.
type Problem struct {
	Key  string
	Kind string // ProblemUnknown, ProblemNoMetadata or ProblemSameWork
	// Suggestions are the library's closest keys to an unknown key.
	Suggestions []Suggestion
	// Entry is, for ProblemSameWork, the key whose entry the work has.
	Entry string
	// Err is the error the key gives alone (a *NotFoundError, or the
	// error of a paper without metadata with its hint).
	Err error
}

// Entry is one entry of a bibliography: the key it is written under, the
// paper's cite key and the other keys of the same work the draft cites.
type Entry struct {
	Key     string
	CiteKey string
	Also    []string
	Text    string
}

// Bibliography is a rendered bibliography.
type Bibliography struct {
	Style   citation.Style
	Entries []Entry
	// Problems are the keys without an entry of their own, in the order
	// asked.
	Problems []Problem
	// Text is the entries in style: BibTeX and BibLaTeX entries separated
	// by blank lines, a CSL-JSON array, or for a citation style (APA, MLA,
	// Chicago, IEEE) a reference list: alphabetical (IEEE: numbered in the
	// order of first citation, [1] …), one entry a paragraph.
	Text string
}

// Failed reports whether any key has no usable entry: an unknown key, a
// paper without metadata, or (except in BibLaTeX, where ids resolve it) a
// second key of one work.
func (b *Bibliography) Failed() bool {
	for _, p := range b.Problems {
		if p.Kind != ProblemSameWork || b.Style != citation.BibLaTeX {
			return true
		}
	}
	return false
}

// Bibliography renders every key in keys (duplicates once, in the order
// given) in style, writing every entry it can: a key no paper has, a paper
// without metadata, and a second key of a work already cited are listed in
// Problems, never stopping the others. The entry's key is the key as asked
// (an alias keeps the draft compiling). err is for failures to render.
func (c *Citer) Bibliography(keys []string, style citation.Style) (*Bibliography, error) {
	papers, _ := c.Lib.Papers()
	byKey := map[string]*library.Paper{}
	for _, p := range papers {
		byKey[p.CiteKey] = p
		for _, a := range p.Aliases {
			byKey[a] = p
		}
	}
	b := &Bibliography{Style: style}
	seen := map[string]bool{}
	entryOf := map[string]int{} // cite key → index in b.Entries
	for _, k := range keys {
		if seen[k] {
			continue
		}
		seen[k] = true
		p := byKey[k]
		if p == nil {
			nf := &NotFoundError{Key: k, Suggestions: suggest(k, papers, 3)}
			b.Problems = append(b.Problems, Problem{Key: k, Kind: ProblemUnknown, Suggestions: nf.Suggestions, Err: nf})
			continue
		}
		if i, ok := entryOf[p.CiteKey]; ok {
			b.Entries[i].Also = append(b.Entries[i].Also, k)
			b.Problems = append(b.Problems, Problem{Key: k, Kind: ProblemSameWork, Entry: b.Entries[i].Key,
				Err: fmt.Errorf("%s and %s are keys of one work (%s): its entry is written once, as %s", b.Entries[i].Key, k, p.CiteKey, b.Entries[i].Key)})
			continue
		}
		ci, err := c.Paper(p, k, style)
		if errors.Is(err, ErrNothingToCite) {
			b.Problems = append(b.Problems, Problem{Key: k, Kind: ProblemNoMetadata, Err: err})
			continue
		}
		if err != nil {
			return nil, err
		}
		entryOf[p.CiteKey] = len(b.Entries)
		b.Entries = append(b.Entries, Entry{Key: k, CiteKey: p.CiteKey, Text: ci.Text})
	}
	b.Text = b.text()
	return b, nil
}

// text joins the entries as the style wants them.
func (b *Bibliography) text() string {
	var texts []string
	for _, e := range b.Entries {
		t := e.Text
		if b.Style == citation.BibLaTeX && len(e.Also) > 0 {
			// The other keys of the work resolve to this entry.
			if first, rest, ok := strings.Cut(t, "\n"); ok {
				t = first + "\n  ids = {" + strings.Join(e.Also, ", ") + "},\n" + rest
			}
		}
		texts = append(texts, t)
	}
	switch b.Style {
	case citation.CSLJSON:
		if len(texts) == 0 {
			return "[]\n"
		}
		return "[\n" + indent(strings.Join(texts, ",\n")) + "\n]\n"
	case citation.BibTeX, citation.BibLaTeX:
	case citation.IEEE:
		for i := range texts {
			texts[i] = fmt.Sprintf("[%d] %s", i+1, texts[i])
		}
	default:
		// A reference list is alphabetical: by the entry as written,
		// which starts with the first author's family name.
		sort.SliceStable(texts, func(i, j int) bool { return strings.ToLower(texts[i]) < strings.ToLower(texts[j]) })
	}
	if len(texts) == 0 {
		return ""
	}
	return strings.Join(texts, "\n\n") + "\n"
}
