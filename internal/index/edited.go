package index

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/quote"
	"github.com/crossmem/crossmem/internal/search"
)

// EditedChunk is a chunk whose text in its note no longer hashes to the
// text_sha256 the note records for it: the note was edited by hand. The
// index keeps such chunks apart (table edited_chunks): search, quotation
// checks and reads never serve their text. What the note holds now is
// only compared (Matches), never returned.
type EditedChunk struct {
	CiteKey  string `json:"cite_key"`
	Title    string `json:"title"`
	NotePath string `json:"note"`
	ChunkID  string `json:"chunk_id"`
	Page     int    `json:"page"`
	// PageLabel is the printed page label; "" when the PDF declares none.
	PageLabel string `json:"page_label,omitempty"`
	Section   string `json:"section"`
	Type      string `json:"type"`
	// Recorded is the text_sha256 the note records (of the text compile
	// wrote); Actual the SHA-256 of the text the note holds now.
	Recorded string `json:"text_sha256"`
	Actual   string `json:"actual_sha256"`

	norm string // quote.Key of the edited text
}

// Matches reports whether the edited text contains every piece, in order,
// as quote.Key compares them: whether a quotation was taken from the
// edited text.
func (e EditedChunk) Matches(pieces []string) bool {
	from := 0
	for _, p := range pieces {
		k := quote.Key(p)
		if k == "" {
			continue
		}
		i := strings.Index(e.norm[from:], k)
		if i < 0 {
			return false
		}
		from += i + len(k)
	}
	return len(pieces) > 0
}

// EditedError is returned for a chunk that was edited by hand in its note
// (ChunkByID, reads): its text is not served. Its hint is to see the edits
// with verify and restore the note with compile.
type EditedError struct {
	Chunk EditedChunk
}

func (e *EditedError) Error() string {
	return fmt.Sprintf("chunk %s of %s was edited by hand in its note (its text no longer matches its text_sha256 %s): edited text is never served as a source",
		e.Chunk.ChunkID, e.Chunk.CiteKey, short(e.Chunk.Recorded))
}

// Hint is to see the edits (crossmem verify) and restore the note.
func (e *EditedError) Hint() hint.Action {
	return hint.Action{Kind: hint.VerifyEdits, Key: e.Chunk.CiteKey}
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

const editedCols = `n.cite_key, n.title, n.name, e.chunk_id, e.page, e.page_label, e.section, e.type, e.recorded, e.actual, e.norm, e.after`

func (ix *Index) scanEdited(rows *sql.Rows) ([]EditedChunk, []int64, error) {
	defer rows.Close()
	var out []EditedChunk
	var after []int64
	for rows.Next() {
		var e EditedChunk
		var name string
		var a int64
		if err := rows.Scan(&e.CiteKey, &e.Title, &name, &e.ChunkID, &e.Page, &e.PageLabel, &e.Section, &e.Type, &e.Recorded, &e.Actual, &e.norm, &a); err != nil {
			return nil, nil, err
		}
		e.NotePath = filepath.Join(ix.wikiDir, name)
		out = append(out, e)
		after = append(after, a)
	}
	return out, after, rows.Err()
}

// EditedChunks returns the edited chunks of the paper with cite key (or
// alias) key in note order, or of every paper when key is "" (at most
// limit; limit <= 0 means no limit). An unknown key has none.
func (ix *Index) EditedChunks(ctx context.Context, key string, limit int) (_ []EditedChunk, err error) {
	defer ix.classifyErr(&err)
	where, args := "1", []any{}
	if key != "" {
		k, ok := ix.ResolveKey(ctx, key)
		if !ok {
			return nil, nil
		}
		where, args = "n.cite_key = ?", append(args, k)
	}
	lim := ""
	if limit > 0 {
		lim = fmt.Sprintf(" LIMIT %d", limit)
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT `+editedCols+` FROM edited_chunks e JOIN notes n ON n.id = e.note_id WHERE `+where+` ORDER BY n.cite_key, e.rowid`+lim, args...)
	if err != nil {
		return nil, err
	}
	out, _, err := ix.scanEdited(rows)
	return out, err
}

// EditedMatching returns, library-wide, the edited chunks whose edited
// text contains every piece in order (EditedChunk.Matches), at most limit.
func (ix *Index) EditedMatching(ctx context.Context, pieces []string, limit int) (_ []EditedChunk, err error) {
	defer ix.classifyErr(&err)
	var longest string
	for _, p := range pieces {
		if k := quote.Key(p); len(k) > len(longest) {
			longest = k
		}
	}
	if longest == "" {
		return nil, nil
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT `+editedCols+` FROM edited_chunks e JOIN notes n ON n.id = e.note_id WHERE instr(e.norm, ?) > 0 ORDER BY n.cite_key, e.rowid`, longest)
	if err != nil {
		return nil, err
	}
	all, _, err := ix.scanEdited(rows)
	if err != nil {
		return nil, err
	}
	var out []EditedChunk
	for _, e := range all {
		if e.Matches(pieces) && len(out) < limit {
			out = append(out, e)
		}
	}
	return out, nil
}

// editedChunk returns the edited chunk chunkID of the note of cite key k,
// and whether there is one.
func (ix *Index) editedChunk(ctx context.Context, k, chunkID string) (EditedChunk, bool, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT `+editedCols+` FROM edited_chunks e JOIN notes n ON n.id = e.note_id WHERE n.cite_key = ? AND e.chunk_id = ?`, k, chunkID)
	if err != nil {
		return EditedChunk{}, false, err
	}
	es, _, err := ix.scanEdited(rows)
	if err != nil || len(es) == 0 {
		return EditedChunk{}, false, err
	}
	return es[0], true, nil
}

// withEdited returns the chunks of the note of cite key k (in note order)
// with a gap for each of its edited chunks: a Chunk with Edited set and
// no text, so that a quotation is never matched across the place of a
// chunk the index does not serve.
func (ix *Index) withEdited(ctx context.Context, k string, chunks []Chunk) ([]Chunk, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT `+editedCols+` FROM edited_chunks e JOIN notes n ON n.id = e.note_id WHERE n.cite_key = ? ORDER BY e.rowid`, k)
	if err != nil {
		return nil, err
	}
	es, after, err := ix.scanEdited(rows)
	if err != nil || len(es) == 0 {
		return chunks, err
	}
	gap := func(e EditedChunk) Chunk {
		return Chunk{CiteKey: e.CiteKey, Title: e.Title, NotePath: e.NotePath, ChunkID: e.ChunkID, Page: e.Page, PageLabel: e.PageLabel,
			Section: e.Section, Type: e.Type, SHA256: e.Recorded, Edited: true}
	}
	out := make([]Chunk, 0, len(chunks)+len(es))
	j := 0
	for j < len(es) && after[j] == 0 {
		out = append(out, gap(es[j]))
		j++
	}
	for _, c := range chunks {
		out = append(out, c)
		for j < len(es) && after[j] == c.rowid {
			out = append(out, gap(es[j]))
			j++
		}
	}
	for ; j < len(es); j++ { // a place not found (should not happen): at the end
		out = append(out, gap(es[j]))
	}
	return out, nil
}

// withheld lists the edited chunks a search for p (within q's paper
// filters) would have matched: those whose edited text contains the query
// as a phrase, or at least half of its distinct words (stop words aside).
// Search reports them (search.Result.Withheld) instead of serving them.
func (ix *Index) withheld(ctx context.Context, q search.Query, text string, p parsed) ([]search.Withheld, error) {
	var n int
	if err := ix.db.QueryRowContext(ctx, `SELECT count(*) FROM edited_chunks`).Scan(&n); err != nil || n == 0 {
		return nil, err
	}
	papers, err := ix.filterPapers(ctx, q)
	if err != nil {
		return nil, err
	}
	var content []string
	seen := map[string]bool{}
	for _, w := range p.words {
		if !stopWords[w] && !seen[w] {
			seen[w] = true
			content = append(content, w)
		}
	}
	phrase := quote.Key(text)
	if len(content) == 0 && phrase == "" {
		return nil, nil
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT e.note_id, `+editedCols+` FROM edited_chunks e JOIN notes n ON n.id = e.note_id ORDER BY n.cite_key, e.rowid LIMIT 10000`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []search.Withheld
	for rows.Next() {
		var e EditedChunk
		var noteID, after int64
		var name string
		if err := rows.Scan(&noteID, &e.CiteKey, &e.Title, &name, &e.ChunkID, &e.Page, &e.PageLabel, &e.Section, &e.Type, &e.Recorded, &e.Actual, &e.norm, &after); err != nil {
			return nil, err
		}
		if papers != nil && !papers[noteID] {
			continue
		}
		match := phrase != "" && strings.Contains(e.norm, phrase)
		if !match && len(content) > 0 {
			have := map[string]bool{}
			for _, w := range words(e.norm) {
				have[w] = true
			}
			k := 0
			for _, w := range content {
				if have[w] {
					k++
				}
			}
			match = 2*k >= len(content)
		}
		if match && len(out) < search.MaxLimit {
			out = append(out, search.Withheld{CiteKey: e.CiteKey, ChunkID: e.ChunkID, Page: e.Page, PageLabel: e.PageLabel,
				Note: filepath.Join(ix.wikiDir, name), TextSHA256: e.Recorded, ActualSHA256: e.Actual})
		}
	}
	return out, rows.Err()
}
