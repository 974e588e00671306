// Package cite answers "how do I cite this key?" from the library: it
// resolves a cite key or an alias (library.Find), picks the version of the
// work to cite (the captured one, or the published version of a preprint
// when the configuration asks for it), and renders it with
// internal/citation. `crossmem cite`, `crossmem bib`, the MCP tool
// crossmem_cite and the "## Citations" section of every wiki note all go
// through it, so they never disagree.
//
// Unknown keys are reported as *NotFoundError with "Did you mean"
// suggestions ranked over every key, alias and title in the library.
// Errors carry what to do next as a hint.Action.
package cite

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/crossmem/crossmem/internal/citation"
	"github.com/crossmem/crossmem/internal/csl"
	"github.com/crossmem/crossmem/internal/editdist"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/metadata"
)

// Citer renders citations of library papers. The zero values of its
// settings are the defaults (captured version, Chicago 18th edition,
// Unicode kept in BibTeX).
type Citer struct {
	Lib *library.Library
	// Version is metadata.VersionCaptured (or "") or
	// metadata.VersionPublished (config [citation] version).
	Version string
	// ChicagoEdition is 17 or 18 (config [citation] chicago_edition): the
	// edition the styles "chicago" and "chicago-author-date" follow. 0
	// means 18.
	ChicagoEdition int
	// Unicode selects how BibTeX and BibLaTeX write non-ASCII characters
	// (config [citation] bibtex_unicode).
	Unicode citation.Unicode
}

// ErrNothingToCite is returned (wrapped, with a hint) for a paper whose
// record has no title, author, editor or container title.
var ErrNothingToCite = errors.New("no title, author or container title to cite")

// Citation is one rendered citation.
type Citation struct {
	// Key is the key asked for; CiteKey the paper's cite key (they differ
	// when Key is an alias).
	Key     string
	CiteKey string
	Style   citation.Style // the style asked for
	Text    string
	// CitedVersion is metadata.VersionPublished when the published
	// version was cited, else metadata.VersionCaptured.
	CitedVersion string
	// Warnings are the reconciliation warnings of the cited record.
	Warnings []string
}

// Record returns the record of p that citations describe under version:
// the published version when version is metadata.VersionPublished and the sidecar knows
// one with a title, else the captured version's record. The bool reports
// whether the published version was chosen.
func Record(p *library.Paper, version string) (*metadata.Record, bool) {
	if version == metadata.VersionPublished && p.Published != nil && p.Published.Title != "" {
		return p.Published, true
	}
	return &p.Metadata, false
}

// Citable reports whether rec has enough to render a citation from: a
// title, an author, an editor or a container title. Paper refuses a
// record without any of them (ErrNothingToCite).
func Citable(rec *metadata.Record) bool {
	return rec.Title != "" || len(rec.Authors) > 0 || len(rec.Editors) > 0 || rec.ContainerTitle != ""
}

// EditionStyle maps "chicago" and "chicago-author-date" to their 17th
// edition styles when edition is 17; every other style is returned as is.
func EditionStyle(s citation.Style, edition int) citation.Style {
	if edition != 17 {
		return s
	}
	switch s {
	case citation.Chicago:
		return citation.Chicago17
	case citation.ChicagoAuthorDate:
		return citation.ChicagoAuthorDate17
	}
	return s
}

// Paper renders p (found under key) in style. The BibTeX and BibLaTeX
// entry key and the CSL-JSON id are key, so that a draft citing an alias
// gets an entry it can use.
func (c *Citer) Paper(p *library.Paper, key string, style citation.Style) (*Citation, error) {
	rec, published := Record(p, c.Version)
	if !Citable(rec) {
		return nil, hint.Wrap(fmt.Errorf("cite_key '%s': %w (the PDF had no usable metadata)", key, ErrNothingToCite),
			hint.Action{Kind: hint.DescribeByImport, Key: p.CiteKey})
	}
	it := csl.FromRecord(rec, key)
	text, err := citation.FormatWith(it, EditionStyle(style, c.ChicagoEdition), citation.Options{Unicode: c.Unicode})
	if err != nil {
		return nil, fmt.Errorf("cite %s: %w", key, err)
	}
	out := &Citation{Key: key, CiteKey: p.CiteKey, Style: style, Text: text, CitedVersion: metadata.VersionCaptured, Warnings: rec.Warnings}
	if published {
		out.CitedVersion = metadata.VersionPublished
	}
	return out, nil
}

// Lookup returns the paper with cite key (or alias) key, white space
// trimmed. An unknown key gives a *NotFoundError with suggestions; a
// sidecar that cannot be read gives an error naming its file.
func (c *Citer) Lookup(key string) (*library.Paper, error) {
	key = strings.TrimSpace(key)
	p, err := c.Lib.Find(key)
	switch {
	case errors.Is(err, library.ErrNotFound):
		return nil, c.notFound(key)
	case err != nil:
		return nil, hint.Wrap(fmt.Errorf("cite_key '%s': %w", key, err), hint.Action{Kind: hint.RepairSidecar})
	}
	return p, nil
}

// Cite renders the paper with cite key (or alias) key in style. An unknown
// key gives a *NotFoundError with suggestions; an unreadable sidecar an
// error naming it (see Lookup); a paper too thin to cite (no title, author
// or container title) an error wrapping ErrNothingToCite.
func (c *Citer) Cite(key string, style citation.Style) (*Citation, error) {
	p, err := c.Lookup(key)
	if err != nil {
		return nil, err
	}
	return c.Paper(p, strings.TrimSpace(key), style)
}

func indent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "  " + l
		}
	}
	return strings.Join(lines, "\n")
}

func (c *Citer) notFound(key string) *NotFoundError {
	papers, _ := c.Lib.Papers()
	return &NotFoundError{Key: key, Suggestions: suggest(key, papers, 5)}
}

// Suggestion is a library paper proposed for an unknown key.
type Suggestion struct {
	CiteKey string `json:"cite_key"`
	Title   string `json:"title"`
}

// NotFoundError reports an unknown cite key with the closest matches
// (internal/render words them as the seed's "Did you mean" list).
type NotFoundError struct {
	Key         string
	Suggestions []Suggestion
}

// Error says "cite_key '<key>' not found".
func (e *NotFoundError) Error() string { return fmt.Sprintf("cite_key '%s' not found", e.Key) }

// Hint is to capture or import the work when nothing in the library is
// like the key, and nothing when there are suggestions.
func (e *NotFoundError) Hint() hint.Action {
	if len(e.Suggestions) > 0 {
		return hint.Action{}
	}
	return hint.Action{Kind: hint.CaptureOrImport}
}

// suggest ranks papers by the seed's fuzzy score for query q: the full
// query as a substring of a cite key or alias (+10) or of the title (+5),
// and each query token found in a key (+3) or in the title (+2), all
// case-insensitive; a key within a small edit distance of the query (a
// typo: at most max(1, len/6) edits) scores +8. It returns at most n
// papers with a positive score, best first (ties by cite key).
func suggest(q string, papers []*library.Paper, n int) []Suggestion {
	ql := strings.ToLower(strings.TrimSpace(q))
	if ql == "" {
		return nil
	}
	tokens := strings.FieldsFunc(ql, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	type scored struct {
		p     *library.Paper
		score int
	}
	var ss []scored
	for _, p := range papers {
		title := strings.ToLower(p.Title)
		best := 0
		for _, k := range append([]string{p.CiteKey}, p.Aliases...) {
			key := strings.ToLower(k)
			score := 0
			if strings.Contains(key, ql) || strings.Contains(ql, key) {
				score += 10
			} else if d := editdist.Levenshtein([]rune(key), []rune(ql)); d <= max(1, len(key)/6) {
				score += 8
			}
			for _, t := range tokens {
				if strings.Contains(key, t) {
					score += 3
				}
			}
			best = max(best, score)
		}
		if title != "" && strings.Contains(title, ql) {
			best += 5
		}
		for _, t := range tokens {
			if strings.Contains(title, t) {
				best += 2
			}
		}
		if best > 0 {
			ss = append(ss, scored{p, best})
		}
	}
	sort.SliceStable(ss, func(i, j int) bool {
		if ss[i].score != ss[j].score {
			return ss[i].score > ss[j].score
		}
		return ss[i].p.CiteKey < ss[j].p.CiteKey
	})
	out := make([]Suggestion, 0, n)
	for i := 0; i < len(ss) && i < n; i++ {
		out = append(out, Suggestion{CiteKey: ss[i].p.CiteKey, Title: ss[i].p.Title})
	}
	return out
}

// NotCompiled says why the search index does not know key: a
// *NotFoundError with suggestions when the library has no such key, else
// an error saying the paper has no compiled note, with the hint to compile
// it (or to attach its PDF, for an entry imported without one).
func (c *Citer) NotCompiled(key string) error {
	p, err := c.Lookup(key)
	if err != nil {
		return err
	}
	if !p.HasPDF() {
		return hint.Wrap(fmt.Errorf("%s has no PDF (imported as metadata only): it has no text to search, read or check", key), hint.Action{Kind: hint.AttachPDF, Key: p.CiteKey})
	}
	return hint.Wrap(fmt.Errorf("%s is not compiled yet: it has no text to search, read or check", key), hint.Action{Kind: hint.Compile, Key: p.CiteKey})
}
