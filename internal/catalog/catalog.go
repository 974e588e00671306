// Package catalog lists the papers of a library with what state each is
// in, filtered: `crossmem list` and the MCP tool crossmem_list. It reads
// the sidecars (the truth for metadata, library.Papers) and, when given
// one, the search index for each compiled note's chunks and the chunks
// edited by hand.
package catalog

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/crossmem/crossmem/internal/index"
	"github.com/crossmem/crossmem/internal/library"
)

// States of a paper.
const (
	// Compiled: a note exists.
	Compiled = "compiled"
	// Captured: a PDF but no note yet (crossmem compile makes it).
	Captured = "captured"
	// MetadataOnly: an imported entry without a PDF.
	MetadataOnly = "metadata-only"
)

// States are the states, in the order `crossmem list --state` names them.
var States = []string{Compiled, Captured, MetadataOnly}

// Query filters a listing. Filters combine with AND; the zero value lists
// every paper.
type Query struct {
	// Text matches, case-insensitively, a part of the cite key, an alias,
	// the title or an author's name.
	Text string
	// Author matches a part of an author's name (case-insensitive).
	Author string
	// YearFrom and YearTo bound the year (0 = open).
	YearFrom, YearTo int
	// State is one of States, or "" for any.
	State string
	// Warnings keeps only papers whose metadata carries warnings.
	Warnings bool
	// Limit is the most entries returned (0 = all); Total counts them all.
	Limit int
}

// Check returns an error for a query that cannot match anything by its
// form: an unknown state, a year range that ends before it starts, a
// negative limit.
func (q Query) Check() error {
	if q.State != "" && !contains(States, q.State) {
		return fmt.Errorf("unknown state %q: use %s", q.State, strings.Join(States, ", "))
	}
	if q.YearFrom != 0 && q.YearTo != 0 && q.YearFrom > q.YearTo {
		return fmt.Errorf("year_from %d is after year_to %d", q.YearFrom, q.YearTo)
	}
	if q.Limit < 0 {
		return fmt.Errorf("limit %d: use 0 (all) or more", q.Limit)
	}
	return nil
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// Entry is one paper of a listing.
type Entry struct {
	CiteKey   string   `json:"cite_key"`
	Aliases   []string `json:"aliases,omitempty"`
	Title     string   `json:"title"`
	Authors   []string `json:"authors"`
	Year      int      `json:"year,omitempty"`
	Container string   `json:"container_title,omitempty"`
	DOI       string   `json:"doi,omitempty"`
	ArxivID   string   `json:"arxiv_id,omitempty"`
	// State is Compiled, Captured or MetadataOnly.
	State string `json:"state"`
	// Chunks is the number of chunks the index serves of its note; Edited
	// the number edited by hand (not served). Both 0 without an index or
	// a note.
	Chunks int `json:"chunks"`
	Edited int `json:"edited_chunks,omitempty"`
	// Warnings are its metadata record's reconciliation warnings.
	Warnings []string `json:"warnings,omitempty"`
	// CapturedAt is the capture time (Unix seconds, as the sidecar has
	// it).
	CapturedAt string `json:"captured_at"`
}

// Result is a listing.
type Result struct {
	Papers []Entry `json:"papers"` // never null
	// Total is the number of papers matching, before Limit.
	Total int `json:"total"`
	// Unreadable are sidecars that could not be read (left out).
	Unreadable []string `json:"unreadable,omitempty"`
}

// List lists the papers of lib that q selects, sorted by cite key. ix may
// be nil (no chunk counts). Errors: q.Check's, and the index's.
func List(ctx context.Context, lib *library.Library, ix *index.Index, q Query) (*Result, error) {
	if err := q.Check(); err != nil {
		return nil, err
	}
	papers, errs := lib.Papers()
	res := &Result{Papers: []Entry{}}
	for _, e := range errs {
		res.Unreadable = append(res.Unreadable, e.Error())
	}
	var stats map[string]index.NoteStat
	if ix != nil {
		var err error
		if stats, err = ix.NoteStats(ctx); err != nil {
			return nil, err
		}
	}
	for _, p := range papers {
		e := entry(p)
		if s, ok := stats[p.CiteKey]; ok && e.State == Compiled {
			e.Chunks, e.Edited = s.Chunks, s.Edited
		}
		if !q.matches(e) {
			continue
		}
		res.Total++
		if q.Limit == 0 || len(res.Papers) < q.Limit {
			res.Papers = append(res.Papers, e)
		}
	}
	sort.Slice(res.Papers, func(i, j int) bool { return res.Papers[i].CiteKey < res.Papers[j].CiteKey })
	return res, nil
}

// entry describes p from its sidecar.
func entry(p *library.Paper) Entry {
	rec := &p.Metadata
	e := Entry{CiteKey: p.CiteKey, Aliases: p.Aliases, Title: firstNonEmpty(rec.Title, p.Title), Authors: rec.AuthorDisplay(),
		Year: rec.Year(), Container: rec.ContainerTitle, DOI: firstNonEmpty(rec.DOI, p.DOI), ArxivID: firstNonEmpty(rec.ArxivID, p.ArxivID),
		Warnings: rec.Warnings, CapturedAt: p.CapturedAt}
	if len(e.Authors) == 0 {
		e.Authors = p.Authors
	}
	if e.Authors == nil {
		e.Authors = []string{}
	}
	if e.Year == 0 {
		e.Year = p.Year
	}
	switch {
	case p.HasNote():
		e.State = Compiled
	case p.HasPDF():
		e.State = Captured
	default:
		e.State = MetadataOnly
	}
	return e
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

func (q Query) matches(e Entry) bool {
	if q.State != "" && e.State != q.State {
		return false
	}
	if q.Warnings && len(e.Warnings) == 0 {
		return false
	}
	if q.YearFrom != 0 && (e.Year == 0 || e.Year < q.YearFrom) {
		return false
	}
	if q.YearTo != 0 && (e.Year == 0 || e.Year > q.YearTo) {
		return false
	}
	if q.Author != "" && !anyContains(e.Authors, q.Author) {
		return false
	}
	if q.Text != "" {
		hay := append([]string{e.CiteKey, e.Title}, e.Aliases...)
		if !anyContains(append(hay, e.Authors...), q.Text) {
			return false
		}
	}
	return true
}

func anyContains(ss []string, sub string) bool {
	sub = strings.ToLower(strings.TrimSpace(sub))
	for _, s := range ss {
		if strings.Contains(strings.ToLower(s), sub) {
			return true
		}
	}
	return false
}
