// Package wiki reads the compiled wiki notes of a library for the commands
// and MCP tools that serve them: lookup by cite key, citation lookup with
// "Did you mean" suggestions, and the list of notes for search.
//
// A Store re-reads a note only when its file changed (size or modification
// time), so a long-running MCP server sees notes compiled by another
// process without a restart.
package wiki

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/crossmem/crossmem/internal/note"
)

// Entry is one parsed note.
type Entry struct {
	Path string // absolute path of the .md file
	Note *note.Note
}

// CiteKey returns the note's cite key.
func (e *Entry) CiteKey() string { return e.Note.Front.CiteKey }

// Title returns the note's title.
func (e *Entry) Title() string { return e.Note.Front.Title }

// Store reads the notes of one wiki folder. It is safe for concurrent use.
type Store struct {
	Dir string

	mu    sync.Mutex
	cache map[string]cached
}

type cached struct {
	size  int64
	mtime time.Time
	entry *Entry
	err   error
}

// NewStore returns a Store for the notes in dir.
func NewStore(dir string) *Store { return &Store{Dir: dir, cache: map[string]cached{}} }

// Problem is a .md file in the wiki folder that is not a readable note.
type Problem struct {
	Path string
	Err  error
}

// All returns every readable note, sorted by cite key, and the files that
// could not be read as notes.
func (s *Store) All() ([]*Entry, []Problem) {
	paths, _ := filepath.Glob(filepath.Join(s.Dir, "*.md"))
	sort.Strings(paths)
	s.mu.Lock()
	defer s.mu.Unlock()
	seen := map[string]bool{}
	var out []*Entry
	var probs []Problem
	for _, p := range paths {
		seen[p] = true
		e, err := s.load(p)
		if err != nil {
			probs = append(probs, Problem{Path: p, Err: err})
			continue
		}
		out = append(out, e)
	}
	for p := range s.cache {
		if !seen[p] {
			delete(s.cache, p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].CiteKey() < out[j].CiteKey() })
	return out, probs
}

func (s *Store) load(path string) (*Entry, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if c, ok := s.cache[path]; ok && c.size == fi.Size() && c.mtime.Equal(fi.ModTime()) {
		return c.entry, c.err
	}
	data, err := os.ReadFile(path)
	var e *Entry
	if err == nil {
		var n *note.Note
		n, err = note.Parse(data)
		if err == nil {
			e = &Entry{Path: path, Note: n}
		}
	}
	s.cache[path] = cached{size: fi.Size(), mtime: fi.ModTime(), entry: e, err: err}
	return e, err
}

// Get returns the note with cite key key. It returns a *NotFoundError
// (with suggestions) when there is none.
func (s *Store) Get(key string) (*Entry, error) {
	all, _ := s.All()
	for _, e := range all {
		if e.CiteKey() == key {
			return e, nil
		}
	}
	return nil, &NotFoundError{Key: key, Suggestions: Suggest(key, all, 5)}
}

// NotFoundError reports an unknown cite key with the closest matches.
type NotFoundError struct {
	Key         string
	Suggestions []*Entry
}

// Error gives the seed's message: "cite_key 'x' not found. Did you
// mean:" followed by "- key — Title" lines.
func (e *NotFoundError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "cite_key '%s' not found.", e.Key)
	if len(e.Suggestions) == 0 {
		b.WriteString(" No similar cite keys in the library (compile a paper first: crossmem compile <cite_key>).")
		return b.String()
	}
	b.WriteString(" Did you mean:")
	for _, s := range e.Suggestions {
		fmt.Fprintf(&b, "\n- %s — %s", s.CiteKey(), s.Title())
	}
	return b.String()
}

// ErrFormatNotFound is wrapped by *FormatNotFoundError.
var ErrFormatNotFound = errors.New("citation format not found in note")

// FormatNotFoundError reports a note without the requested citation
// section.
type FormatNotFoundError struct {
	Key, Style, Path string
}

// Error gives the seed's message.
func (e *FormatNotFoundError) Error() string {
	return fmt.Sprintf("cite_key '%s' found but no %s citation section in wiki file.\nFile: %s", e.Key, e.Style, e.Path)
}

func (e *FormatNotFoundError) Unwrap() error { return ErrFormatNotFound }

// Cite returns the citation of key in the note section headed style (e.g.
// "APA", "BibTeX"; compared case-insensitively).
func (s *Store) Cite(key, style string) (string, error) {
	e, err := s.Get(key)
	if err != nil {
		return "", err
	}
	text, ok := e.Note.Citation(style)
	if !ok || text == "" {
		return "", &FormatNotFoundError{Key: key, Style: style, Path: e.Path}
	}
	return text, nil
}

// Suggest ranks notes by the seed's fuzzy score for query q: the full
// query as a substring of the cite key (+10) or of the title (+5), and each
// query token found in the cite key (+3) or in the title (+2), all
// case-insensitive; a cite key within a small edit distance of the query
// (a typo) scores +8. It returns at most n notes with a positive score, best
// first (ties by cite key).
func Suggest(q string, entries []*Entry, n int) []*Entry {
	ql := strings.ToLower(strings.TrimSpace(q))
	if ql == "" {
		return nil
	}
	tokens := strings.FieldsFunc(ql, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	type scored struct {
		e     *Entry
		score int
	}
	var ss []scored
	for _, e := range entries {
		key, title := strings.ToLower(e.CiteKey()), strings.ToLower(e.Title())
		score := 0
		if strings.Contains(key, ql) || strings.Contains(ql, key) {
			score += 10
		} else if d := levenshtein(key, ql); d <= max(1, len(key)/6) {
			score += 8 // a typo in the cite key
		}
		if strings.Contains(title, ql) {
			score += 5
		}
		for _, t := range tokens {
			if strings.Contains(key, t) {
				score += 3
			}
			if strings.Contains(title, t) {
				score += 2
			}
		}
		if score > 0 {
			ss = append(ss, scored{e, score})
		}
	}
	sort.SliceStable(ss, func(i, j int) bool {
		if ss[i].score != ss[j].score {
			return ss[i].score > ss[j].score
		}
		return ss[i].e.CiteKey() < ss[j].e.CiteKey()
	})
	out := make([]*Entry, 0, n)
	for i := 0; i < len(ss) && i < n; i++ {
		out = append(out, ss[i].e)
	}
	return out
}

// levenshtein returns the edit distance between a and b, in runes.
func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
