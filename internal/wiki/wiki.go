// Package wiki reads the compiled wiki notes of a library for the commands
// and MCP tools that serve them: the list of notes for search, and lookup
// by cite key.
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
	"sync"
	"time"

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

// ErrNotFound is returned by Get when no note has the cite key.
var ErrNotFound = errors.New("no wiki note has this cite key")

// Get returns the note with cite key key, or an error wrapping
// ErrNotFound. (Citations and suggestions for unknown keys come from the
// library: internal/cite.)
func (s *Store) Get(key string) (*Entry, error) {
	all, _ := s.All()
	for _, e := range all {
		if e.CiteKey() == key {
			return e, nil
		}
	}
	return nil, fmt.Errorf("%w: %s", ErrNotFound, key)
}
