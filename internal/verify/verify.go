// Package verify checks that wiki notes have not drifted since compile: it
// re-hashes every chunk's blockquote text and compares it with the
// text_sha256 recorded in the chunk's provenance.
package verify

import (
	"fmt"
	"os"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/note"
)

// Drift is a chunk whose text no longer hashes to its recorded SHA-256.
type Drift struct {
	CiteKey  string `json:"cite_key"`
	ChunkID  string `json:"chunk_id"`
	Path     string `json:"path"`
	Expected string `json:"expected"` // text_sha256 recorded in the note
	Actual   string `json:"actual"`   // SHA-256 of the blockquote text now
}

// NoteError is a note that could not be read or parsed.
type NoteError struct {
	Path string `json:"path"`
	Err  string `json:"error"`
}

// NoteResult is the outcome for one note.
type NoteResult struct {
	CiteKey string `json:"cite_key"`
	Path    string `json:"path"`
	Chunks  int    `json:"chunks"`
	Drifts  int    `json:"drifts"`
}

// Report is the outcome of verifying a set of notes.
type Report struct {
	Notes  []NoteResult `json:"notes"`
	Chunks int          `json:"chunks"`
	Drifts []Drift      `json:"drifts"`
	Errors []NoteError  `json:"errors"`
}

// Clean reports whether no drift and no error was found.
func (r *Report) Clean() bool { return len(r.Drifts) == 0 && len(r.Errors) == 0 }

// Files verifies the notes at paths. A file that is not a crossmem note or
// cannot be parsed is recorded in Report.Errors.
func Files(paths []string) *Report {
	r := &Report{Notes: []NoteResult{}, Drifts: []Drift{}, Errors: []NoteError{}}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			r.Errors = append(r.Errors, NoteError{Path: p, Err: err.Error()})
			continue
		}
		n, err := note.Parse(data)
		if err != nil {
			r.Errors = append(r.Errors, NoteError{Path: p, Err: fmt.Sprintf("parse note: %v", err)})
			continue
		}
		nr := NoteResult{CiteKey: n.Front.CiteKey, Path: p, Chunks: len(n.Chunks)}
		for _, c := range n.Chunks {
			if got := chunk.Hash(c.Text); got != c.TextSHA256 {
				nr.Drifts++
				r.Drifts = append(r.Drifts, Drift{CiteKey: n.Front.CiteKey, ChunkID: c.ID, Path: p, Expected: c.TextSHA256, Actual: got})
			}
		}
		r.Chunks += nr.Chunks
		r.Notes = append(r.Notes, nr)
	}
	return r
}
