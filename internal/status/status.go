// Package status answers "what state is my library in, and what needs
// doing?" for `crossmem status`: papers captured but not compiled,
// metadata lookups that failed (to refresh when online), notes edited by
// hand (drift), metadata warnings, papers whose raw PDF is missing, the
// search index's health, the language model server, the trash. Each
// finding carries what to do as a hint.Action, which internal/render
// words.
package status

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/index"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/verify"
)

// Kinds of findings.
const (
	MissingHome  = "missing-home"  // the library folder does not exist
	Unreadable   = "unreadable"    // sidecars that cannot be read
	Drift        = "drift"         // notes edited by hand
	MissingPDF   = "missing-pdf"   // a sidecar records a PDF that is not there
	IndexDamaged = "index-damaged" // the index fails its integrity check or cannot be opened
	IndexStale   = "index-stale"   // notes changed since the index last read them
	NotCompiled  = "not-compiled"  // captured, not compiled
	Pending      = "pending"       // metadata lookups that failed
	Warnings     = "warnings"      // metadata records with warnings
	LLMDown      = "llm"           // the language model server does not answer
	Trash        = "trash"         // removed papers kept in the trash
)

// Finding is one thing status found.
type Finding struct {
	Kind string `json:"kind"`
	// Error is true for what is wrong (drift, a damaged index, a missing
	// PDF, unreadable sidecars, a missing library), false for what waits
	// to be done or is worth knowing.
	Error bool `json:"error"`
	// Keys are the cite keys concerned (for drift, "key:chunk,chunk").
	Keys []string `json:"keys,omitempty"`
	// Count is how many: papers, chunks, notes or removals.
	Count int `json:"count"`
	// Detail is what a service or check answered.
	Detail string `json:"detail,omitempty"`
	// Hint is what to do.
	Hint hint.Action `json:"-"`
}

// Report is the library's state.
type Report struct {
	Home   string `json:"home"`
	Exists bool   `json:"exists"`
	// Papers counts the papers; Compiled those with a note, Captured
	// those with a PDF and no note, MetadataOnly the imported entries
	// without a PDF.
	Papers       int `json:"papers"`
	Compiled     int `json:"compiled"`
	Captured     int `json:"captured"`
	MetadataOnly int `json:"metadata_only"`
	// Chunks is the chunks the index serves, Edited those withheld.
	Chunks int `json:"chunks"`
	Edited int `json:"edited_chunks"`
	// LLM describes the language model server asked ("ollama at
	// http://127.0.0.1:11434, llama3.2:3b") and whether it answered.
	LLM   string `json:"llm"`
	LLMOK bool   `json:"llm_ok"`
	// Findings are what needs doing or is wrong, errors first.
	Findings []Finding `json:"findings"`
}

// Errors counts the findings that are errors.
func (r *Report) Errors() int {
	n := 0
	for _, f := range r.Findings {
		if f.Error {
			n++
		}
	}
	return n
}

// Options are what Run looks at.
type Options struct {
	Home string
	// Lib is the library (nil when Home does not exist).
	Lib *library.Library
	// Index opens the search index (nil: not checked). It is called only
	// when the library exists.
	Index func() (*index.Index, error)
	// LLM asks the language model server whether it answers (nil: not
	// asked); LLMName says which server and model it is.
	LLM     func(ctx context.Context) error
	LLMName string
}

// Run looks at the library and returns its state. It writes nothing:
// drift is found by hashing the notes (verify.Files), the index is asked
// how far behind it is, not brought up to date. Errors are ctx's.
func Run(ctx context.Context, o Options) (*Report, error) {
	r := &Report{Home: o.Home, Exists: o.Lib != nil, Findings: []Finding{}, LLM: o.LLMName}
	if o.Lib == nil {
		r.add(Finding{Kind: MissingHome, Error: true, Hint: hint.Action{Kind: hint.CheckHome, Path: o.Home}})
		return r, nil
	}
	lib := o.Lib
	papers, errs := lib.Papers()
	if len(errs) > 0 {
		f := Finding{Kind: Unreadable, Error: true, Count: len(errs), Detail: errs[0].Error(), Hint: hint.Action{Kind: hint.RepairSidecar}}
		r.add(f)
	}
	var notCompiled, pending, warned, missingPDF []string
	missingPath := ""
	for _, p := range papers {
		r.Papers++
		hasNote := p.HasNote()
		switch {
		case hasNote:
			r.Compiled++
		case p.HasPDF():
			r.Captured++
			notCompiled = append(notCompiled, p.CiteKey)
		default:
			r.MetadataOnly++
		}
		if p.HasPDF() {
			if _, err := os.Stat(p.PDFPath); err != nil {
				missingPDF = append(missingPDF, p.CiteKey)
				missingPath = p.PDFPath
			}
		}
		if failedLookup(p) {
			pending = append(pending, p.CiteKey)
		}
		if len(p.Metadata.Warnings) > 0 {
			warned = append(warned, p.CiteKey)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	// Drift: every note's chunks re-hashed.
	notes, err := lib.NoteFiles()
	if err == nil {
		rep := verify.Files(notes)
		byKey := map[string][]string{}
		var order []string
		for _, d := range rep.Drifts {
			if byKey[d.CiteKey] == nil {
				order = append(order, d.CiteKey)
			}
			byKey[d.CiteKey] = append(byKey[d.CiteKey], d.ChunkID)
		}
		if len(order) > 0 {
			f := Finding{Kind: Drift, Error: true, Count: len(rep.Drifts), Hint: hint.Action{Kind: hint.VerifyEdits}}
			f.Keys = append(f.Keys, order...)
			if len(order) == 1 {
				f.Hint.Key = order[0]
			}
			r.add(f)
		}
	}
	if len(missingPDF) > 0 {
		r.add(Finding{Kind: MissingPDF, Error: true, Keys: missingPDF, Count: len(missingPDF), Hint: hint.Action{Kind: hint.RestoreRawPDF, Path: missingPath}})
	}

	// The index.
	if o.Index != nil {
		if err := r.index(ctx, o.Index); err != nil {
			return nil, err
		}
	}

	if len(notCompiled) > 0 {
		f := Finding{Kind: NotCompiled, Keys: notCompiled, Count: len(notCompiled), Hint: hint.Action{Kind: hint.CompileEach}}
		if len(notCompiled) == 1 {
			f.Hint = hint.Action{Kind: hint.Compile, Key: notCompiled[0]}
		}
		r.add(f)
	}
	if len(pending) > 0 {
		r.add(Finding{Kind: Pending, Keys: pending, Count: len(pending), Hint: hint.Action{Kind: hint.RefreshPending}})
	}
	if len(warned) > 0 {
		r.add(Finding{Kind: Warnings, Keys: warned, Count: len(warned), Hint: hint.Action{Kind: hint.ListWarnings}})
	}
	if o.LLM != nil {
		if err := o.LLM(ctx); err != nil {
			f := Finding{Kind: LLMDown, Detail: err.Error(), Hint: hint.Action{Kind: hint.StartOllama}}
			if a, ok := hint.Of(err); ok {
				f.Hint = a
			}
			r.add(f)
		} else {
			r.LLMOK = true
		}
	}
	if rs, _ := lib.Trash(); len(rs) > 0 {
		f := Finding{Kind: Trash, Count: len(rs), Hint: hint.Action{Kind: hint.ListTrash}}
		for _, x := range rs {
			f.Keys = append(f.Keys, x.CiteKey)
		}
		r.add(f)
	}
	return r, nil
}

// index checks the search index: it opens, passes SQLite's quick_check,
// and is not behind the notes.
func (r *Report) index(ctx context.Context, open func() (*index.Index, error)) error {
	ix, err := open()
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		r.add(Finding{Kind: IndexDamaged, Error: true, Detail: err.Error(), Hint: hint.Action{Kind: hint.RebuildIndex}})
		return nil
	}
	if err := ix.QuickCheck(ctx); err != nil {
		if errors.Is(err, context.Canceled) {
			return err
		}
		r.add(Finding{Kind: IndexDamaged, Error: true, Detail: err.Error(), Hint: hint.Action{Kind: hint.RebuildIndex}})
		return nil
	}
	st, err := ix.Stats(ctx)
	if err != nil {
		r.add(Finding{Kind: IndexDamaged, Error: true, Detail: err.Error(), Hint: hint.Action{Kind: hint.RebuildIndex}})
		return nil
	}
	r.Chunks, r.Edited = st.Chunks, st.Edited
	n, err := ix.Stale(ctx)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	if n > 0 {
		r.add(Finding{Kind: IndexStale, Count: n, Hint: hint.Action{Kind: hint.UpdateIndex}})
	}
	return nil
}

// add appends f, errors before the rest.
func (r *Report) add(f Finding) {
	if f.Error {
		i := 0
		for i < len(r.Findings) && r.Findings[i].Error {
			i++
		}
		r.Findings = append(r.Findings[:i], append([]Finding{f}, r.Findings[i:]...)...)
		return
	}
	r.Findings = append(r.Findings, f)
}

// failedLookup reports whether p's metadata lookup is pending (no source
// could be reached at capture or the last refresh), or a source it asked
// failed (a failure, not a "not found").
func failedLookup(p *library.Paper) bool {
	if p.LookupPending {
		return true
	}
	for _, c := range p.Consulted {
		if c.Outcome == metadata.OutcomeFailed {
			return true
		}
	}
	return false
}
