// Package render is crossmem's presentation layer for results: it turns
// the values the domain packages return (search hits, citations, check
// verdicts, unknown keys with suggestions) into the words and JSON shapes
// people and agents read. internal/cli and internal/mcpserver both render
// through it, so `crossmem search` and crossmem_recall, `crossmem cite` and
// crossmem_cite, `crossmem check` and crossmem_check_draft say the same
// thing in the same words.
//
// Texts follow the seed documentation (crossmem's documentation in
// ../shared/seeds/000_*.txt) where it fixes them word for word: the recall
// list, "No results for query: '<q>'", and "cite_key '<k>' not found. Did
// you mean:" with "- key — title" lines. Everything here is pure: no I/O,
// no configuration, no state.
package render
