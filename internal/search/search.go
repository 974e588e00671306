// Package search finds chunks of the wiki that match a query, for
// crossmem_recall and `crossmem search`.
//
// Searcher is the one interface the MCP server and CLI use; Scan is the
// simple implementation the seed describes (token counts over the notes),
// re-reading only notes that changed. A full-text index can replace it
// behind the same interface.
package search

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"github.com/crossmem/crossmem/internal/wiki"
)

// DefaultLimit and MaxLimit bound the number of results (the seed's
// crossmem_recall contract).
const (
	DefaultLimit = 5
	MaxLimit     = 20
	// MaxExcerpt is the longest excerpt in characters, ellipses included.
	MaxExcerpt = 400
)

// Query is a search request.
type Query struct {
	Text  string
	Limit int // 0 means DefaultLimit; values above MaxLimit are capped
}

// Hit is one matching chunk.
type Hit struct {
	CiteKey string  `json:"cite_key"`
	Title   string  `json:"title"`
	ChunkID string  `json:"chunk_id"`
	Page    int     `json:"page"`
	Section string  `json:"section"`
	Excerpt string  `json:"excerpt"` // at most MaxExcerpt characters of the chunk text
	Link    string  `json:"link"`    // file:// URL of the note
	Score   float64 `json:"score"`
}

// Location renders "p.4 §3.2 Scaled Dot-Product Attention" (the seed's
// section line); the § part is omitted when the chunk has no section.
func (h Hit) Location() string {
	if h.Section == "" {
		return fmt.Sprintf("p.%d", h.Page)
	}
	return fmt.Sprintf("p.%d §%s", h.Page, h.Section)
}

// Searcher finds chunks matching a query, best first.
type Searcher interface {
	Search(ctx context.Context, q Query) ([]Hit, error)
}

// Scan searches the notes of a wiki.Store by token counts.
type Scan struct {
	Store *wiki.Store
}

var _ Searcher = (*Scan)(nil)

// Tokens splits text into lower-case tokens of letters and digits.
func Tokens(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// Search ranks chunks by how many distinct query tokens they contain, then
// by the total number of occurrences (tokens match word prefixes, case
// folded) in the chunk text, its section and the paper's title and cite
// key.
func (s *Scan) Search(ctx context.Context, q Query) ([]Hit, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit)
	qt := dedupe(Tokens(q.Text))
	if len(qt) == 0 {
		return nil, nil
	}
	entries, _ := s.Store.All()
	type scored struct {
		hit      Hit
		distinct int
		total    int
		order    int
	}
	var all []scored
	order := 0
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		meta := Tokens(e.Title() + " " + e.CiteKey() + " " + strings.Join(e.Note.Front.Aliases, " ") + " " + strings.Join(e.Note.Front.Authors, " "))
		for _, c := range e.Note.Chunks {
			order++
			words := append(Tokens(c.Text+" "+c.Section), meta...)
			distinct, total := 0, 0
			for _, t := range qt {
				n := 0
				for _, w := range words {
					if strings.HasPrefix(w, t) {
						n++
					}
				}
				if n > 0 {
					distinct++
					total += n
				}
			}
			if distinct == 0 {
				continue
			}
			all = append(all, scored{
				hit: Hit{
					CiteKey: e.CiteKey(), Title: e.Title(), ChunkID: c.ID, Page: c.Page, Section: c.Section,
					Excerpt: Excerpt(c.Text, qt, MaxExcerpt), Link: FileURL(e.Path),
					Score: float64(distinct*1000 + total),
				},
				distinct: distinct, total: total, order: order,
			})
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].distinct != all[j].distinct {
			return all[i].distinct > all[j].distinct
		}
		if all[i].total != all[j].total {
			return all[i].total > all[j].total
		}
		return all[i].order < all[j].order
	})
	out := make([]Hit, 0, min(limit, len(all)))
	for i := 0; i < len(all) && i < limit; i++ {
		out = append(out, all[i].hit)
	}
	return out, nil
}

func dedupe(ts []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range ts {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// FileURL returns the file:// URL of an absolute path.
func FileURL(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// Excerpt returns at most max characters of text (line breaks as spaces)
// around the first occurrence of a query token, cut at word boundaries and
// marked with "..." where text was left out.
func Excerpt(text string, tokens []string, max int) string {
	flat := []rune(strings.Join(strings.Fields(text), " "))
	if len(flat) <= max {
		return string(flat)
	}
	lower := []rune(strings.ToLower(string(flat)))
	at := -1
	for _, t := range tokens {
		if i := indexRunes(lower, []rune(t)); i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	if at < 0 {
		at = 0
	}
	budget := max - 6 // room for two ellipses
	start := at - budget/4
	if start < 0 {
		start = 0
	}
	end := start + budget
	if end > len(flat) {
		end = len(flat)
		start = max0(end - budget)
	}
	// Move the cuts to word boundaries, inward. Where that would lose the
	// match or everything (text without spaces such as CJK, long URLs),
	// keep the hard cuts.
	hardStart, hardEnd := start, end
	if start > 0 {
		for start < end && flat[start-1] != ' ' {
			start++
		}
	}
	if end < len(flat) {
		for end > start && flat[end] != ' ' {
			end--
		}
	}
	if start >= end || start > at || end <= at {
		start, end = hardStart, hardEnd
	}
	s := strings.TrimSpace(string(flat[start:end]))
	if start > 0 {
		s = "..." + s
	}
	if end < len(flat) {
		s += "..."
	}
	return s
}

func max0(i int) int {
	if i < 0 {
		return 0
	}
	return i
}

func indexRunes(s, sub []rune) int {
	if len(sub) == 0 {
		return -1
	}
outer:
	for i := 0; i+len(sub) <= len(s); i++ {
		for j := range sub {
			if s[i+j] != sub[j] {
				continue outer
			}
		}
		return i
	}
	return -1
}
