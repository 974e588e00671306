// Package verify checks that wiki notes have not drifted since compile: it
// re-hashes every chunk's blockquote text and compares it with the
// text_sha256 recorded in the chunk's provenance, re-hashes the raw PDFs
// against the pdf_sha256 recorded at capture, and (Deep) re-extracts a
// PDF to confirm every chunk at its page and bbox. Library runs the whole
// verification of `crossmem verify` and decides what counts as a problem
// (Result.Problems).
package verify

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/note"
)

// Drift is a chunk whose text no longer hashes to its recorded SHA-256.
type Drift struct {
	CiteKey  string `json:"cite_key"`
	ChunkID  string `json:"chunk_id"`
	Path     string `json:"path"`
	Expected string `json:"expected"` // text_sha256 recorded in the note
	Actual   string `json:"actual"`   // SHA-256 of the blockquote text now
	// Image is set when the drift is a figure's crop: its path (relative
	// to the library home) whose bytes no longer hash to the chunk's
	// image_sha256 (Expected); Actual is "" when the file is missing.
	Image string `json:"image,omitempty"`
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
		home := filepath.Dir(filepath.Dir(p)) // notes are <home>/wiki/*.md
		for _, c := range n.Chunks {
			if got := chunk.Hash(c.Text); got != c.TextSHA256 {
				nr.Drifts++
				r.Drifts = append(r.Drifts, Drift{CiteKey: n.Front.CiteKey, ChunkID: c.ID, Path: p, Expected: c.TextSHA256, Actual: got})
			}
			if c.Image == "" {
				continue
			}
			// A figure's crop: re-hash the PNG. The path comes from the
			// note: only a relative path inside the home is followed.
			got := ""
			if rel := filepath.FromSlash(c.Image); filepath.IsLocal(rel) {
				got, _ = fileSHA256(filepath.Join(home, rel))
			}
			if got != c.ImageSHA256 {
				nr.Drifts++
				r.Drifts = append(r.Drifts, Drift{CiteKey: n.Front.CiteKey, ChunkID: c.ID, Path: p, Expected: c.ImageSHA256, Actual: got, Image: c.Image})
			}
		}
		r.Chunks += nr.Chunks
		r.Notes = append(r.Notes, nr)
	}
	return r
}

// NoNoteError is returned by Library when Options.Key names a paper that
// has no wiki note yet (not compiled, or imported without a PDF).
type NoNoteError struct {
	CiteKey string
}

func (e *NoNoteError) Error() string { return e.CiteKey + " has no wiki note yet" }

// Hint is to compile the paper.
func (e *NoNoteError) Hint() hint.Action { return hint.Action{Kind: hint.Compile, Key: e.CiteKey} }

// Options selects what Library verifies.
type Options struct {
	// Key limits the verification to the paper with this cite key or
	// alias; "" verifies every note and every raw PDF of the library.
	Key string
	// Extract, when set, also re-extracts the PDF of every paper with a
	// note and a PDF and compares it chunk by chunk (Deep).
	Extract Extractor
	// Progress, when set, is called after each paper re-extracted, with
	// the number done and the number to do.
	Progress func(i, n int)
}

// Result is a verification of the library (or of one paper): the notes'
// chunk hashes (Report), the raw PDFs' hashes and, with Options.Extract,
// the re-extraction of each compiled paper. Its JSON is `crossmem verify
// --json`.
type Result struct {
	*Report
	PDFsChecked int          `json:"pdfs_checked"`
	PDFs        []PDFProblem `json:"pdfs"`
	// Deep holds one result per re-extracted paper (Options.Extract).
	Deep []*DeepResult `json:"deep,omitempty"`
	// Unreadable are sidecars that could not be read: their papers were
	// left out.
	Unreadable []error `json:"-"`
}

// Problems counts what makes a verification fail: drifted chunks, changed
// or missing raw PDFs, and deep problems other than note edits (those are
// drifts already). Notes that could not be read are Report.Errors, not
// problems.
func (r *Result) Problems() int {
	n := len(r.Drifts) + len(r.PDFs)
	for _, d := range r.Deep {
		for _, p := range d.Problems {
			if p.Kind != NoteEdited {
				n++
			}
		}
	}
	return n
}

// Library verifies lib as o says: every note's chunk hashes (Files), every
// raw PDF's hash (PDFs) and, with o.Extract, every compiled paper again
// (Deep). A paper whose re-extraction fails is recorded in Report.Errors.
// Errors: library.ErrNotFound (wrapped) for an unknown o.Key, a
// *NoNoteError when o.Key names a paper without a note, failures listing
// the library's notes, and ctx's error.
func Library(ctx context.Context, lib *library.Library, o Options) (*Result, error) {
	var papers []*library.Paper
	var paths []string
	res := &Result{}
	if o.Key != "" {
		p, err := lib.Find(o.Key)
		if err != nil {
			return nil, err
		}
		if !p.HasNote() {
			return nil, &NoNoteError{CiteKey: p.CiteKey}
		}
		papers, paths = []*library.Paper{p}, []string{p.NotePath}
	} else {
		var err error
		papers, res.Unreadable = lib.Papers()
		if paths, err = lib.NoteFiles(); err != nil {
			return nil, err
		}
	}
	// In cite key order: the files' capture-second prefix would order two
	// papers captured in one second differently from two seconds apart.
	sort.SliceStable(paths, func(i, j int) bool { return noteKey(paths[i]) < noteKey(paths[j]) })
	res.Report = Files(paths)
	res.PDFsChecked, res.PDFs = PDFs(papers)
	if o.Extract == nil {
		return res, nil
	}
	var compiled []*library.Paper
	for _, p := range papers {
		if p.HasNote() && p.HasPDF() {
			compiled = append(compiled, p)
		}
	}
	for i, p := range compiled {
		d, err := Deep(ctx, p, o.Extract)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			res.Errors = append(res.Errors, NoteError{Path: p.NotePath, Err: err.Error()})
			continue
		}
		res.Deep = append(res.Deep, d)
		if o.Progress != nil {
			o.Progress(i+1, len(compiled))
		}
	}
	return res, nil
}

// noteKey is the cite key part of a note's file name (<unix seconds>_<key>.md).
func noteKey(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), ".md")
	if i := strings.IndexByte(base, '_'); i >= 0 && strings.Trim(base[:i], "0123456789") == "" {
		return base[i+1:]
	}
	return base
}
