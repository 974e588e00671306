package index

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/note"
	"github.com/crossmem/crossmem/internal/quote"
)

// SyncResult says what Sync changed.
type SyncResult struct {
	Added     int       `json:"added"`     // notes indexed for the first time
	Updated   int       `json:"updated"`   // notes whose content changed
	Removed   int       `json:"removed"`   // notes deleted from the wiki
	Unchanged int       `json:"unchanged"` // notes skipped (same size and time, or same content)
	Skipped   []Problem `json:"skipped"`   // files that are not readable notes
}

// Problem is a wiki file that could not be indexed.
type Problem struct {
	Path string `json:"path"`
	Err  string `json:"error"`
}

// Changed reports whether the sync changed the index.
func (r *SyncResult) Changed() bool { return r.Added+r.Updated+r.Removed > 0 }

// Sync brings the index up to date with the notes (*.md) in the wiki folder,
// touching only what changed: a note whose file size and modification time
// are as recorded is skipped without being read; one whose content hash is
// unchanged only has its time updated; others are parsed and their chunks
// replaced. Notes deleted from the folder leave the index. A file that is
// not a readable note (edited into an invalid form, or foreign markdown) is
// reported in Skipped and any earlier version of it leaves the index.
// progress, if set, is called with (i, n) as files are examined. Notes
// are written in transactions of batchSize notes, so an interrupted sync
// leaves a consistent index that the next sync completes.
func (ix *Index) Sync(ctx context.Context, progress func(i, n int)) (_ *SyncResult, err error) {
	defer ix.classifyErr(&err)
	files, err := filepath.Glob(filepath.Join(ix.wikiDir, "*.md"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	type rec struct {
		id          int64
		size, mtime int64
		sha         string
	}
	known := map[string]rec{}
	rows, err := ix.db.QueryContext(ctx, `SELECT id, name, size, mtime_ns, sha256 FROM notes`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var r rec
		var name string
		if err := rows.Scan(&r.id, &name, &r.size, &r.mtime, &r.sha); err != nil {
			rows.Close()
			return nil, err
		}
		known[name] = r
	}
	rows.Close()

	res := &SyncResult{Skipped: []Problem{}}
	seen := map[string]bool{}
	var b *batch
	flush := func() error {
		if b == nil {
			return nil
		}
		err := b.commit(ctx)
		b = nil
		return err
	}
	defer func() {
		if b != nil {
			b.rollback()
		}
	}()
	write := func(f func(*batch) error) error {
		if b == nil {
			var err error
			if b, err = ix.begin(ctx); err != nil {
				return err
			}
		}
		if err := f(b); err != nil {
			return err
		}
		if b.notes >= batchSize {
			return flush()
		}
		return nil
	}
	for i, path := range files {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		if progress != nil {
			progress(i+1, len(files))
		}
		name := filepath.Base(path)
		seen[name] = true
		fi, err := os.Stat(path)
		if err != nil {
			continue // removed meanwhile: the next sync drops it
		}
		old, ok := known[name]
		if ok && old.size == fi.Size() && old.mtime == fi.ModTime().UnixNano() {
			res.Unchanged++
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			res.Skipped = append(res.Skipped, Problem{Path: path, Err: err.Error()})
			continue
		}
		sum := sha256.Sum256(data)
		sha := hex.EncodeToString(sum[:])
		if ok && old.sha == sha {
			if err := write(func(b *batch) error {
				_, err := b.tx.ExecContext(ctx, `UPDATE notes SET size = ?, mtime_ns = ? WHERE id = ?`, fi.Size(), fi.ModTime().UnixNano(), old.id)
				return err
			}); err != nil {
				return res, err
			}
			res.Unchanged++
			continue
		}
		n, perr := note.Parse(data)
		if perr != nil {
			res.Skipped = append(res.Skipped, Problem{Path: path, Err: perr.Error()})
			if ok {
				if err := write(func(b *batch) error { return b.remove(ctx, old.id) }); err != nil {
					return res, err
				}
			}
			continue
		}
		if err := write(func(b *batch) error { return b.put(ctx, name, fi.Size(), fi.ModTime().UnixNano(), sha, n) }); err != nil {
			return res, fmt.Errorf("index %s: %w", path, err)
		}
		if ok {
			res.Updated++
		} else {
			res.Added++
		}
	}
	for name, r := range known {
		if !seen[name] {
			if err := write(func(b *batch) error { return b.remove(ctx, r.id) }); err != nil {
				return res, err
			}
			res.Removed++
		}
	}
	if err := flush(); err != nil {
		return res, err
	}
	if res.Changed() {
		ix.dropVectorCache()
	}
	return res, nil
}

// UpdateNote indexes the one note at path now (after compile, a note update or
// rekey wrote it), whatever its recorded size and time; a path that no
// longer exists leaves the index.
func (ix *Index) UpdateNote(ctx context.Context, path string) error {
	return ix.UpdateNotes(ctx, path)
}

// UpdateNotes is UpdateNote for several notes (a batch compile) in one
// transaction: all are indexed or, on an error, none.
func (ix *Index) UpdateNotes(ctx context.Context, paths ...string) (err error) {
	defer ix.classifyErr(&err)
	b, err := ix.begin(ctx)
	if err != nil {
		return err
	}
	for _, path := range paths {
		if err := b.update(ctx, path); err != nil {
			b.rollback()
			return err
		}
	}
	if err := b.commit(ctx); err != nil {
		return err
	}
	ix.dropVectorCache()
	return nil
}

// UpdateStream indexes the notes whose paths arrive on paths, in order, as
// they arrive, until paths is closed (as UpdateNotes does each: a path
// whose file is gone leaves the index): while compile --all writes one
// note, the one before goes into the index. The notes go in transactions
// of whole notes; a transaction is committed once it has been open for
// hold, or when paths is closed, so the index's write lock is never held
// much longer than hold (other processes' syncs wait for it up to the
// busy timeout) and the notes are not kept in memory. At the first error
// it rolls that transaction back (no note is half indexed; those of
// earlier transactions stay, complete), reads paths to its end without
// indexing and returns the error; ctx's end is such an error. An
// interrupted stream leaves the index consistent: what was committed, and
// `crossmem index` adds the rest. indexed is how many of the paths
// received, counted from the first, are in the index when it returns (the
// notes of the committed transactions): all of them when err is nil, the
// first indexed of them otherwise (an interrupted stream has usually
// committed some: a cancelled ctx rolls back only the open transaction).
func (ix *Index) UpdateStream(ctx context.Context, paths <-chan string, hold time.Duration) (indexed int, err error) {
	defer ix.classifyErr(&err)
	var b *batch
	var deadline <-chan time.Time
	pending := 0 // paths in b
	flush := func() error {
		if b == nil {
			return nil
		}
		err := b.commit(ctx)
		if err == nil {
			indexed += pending
		}
		b, deadline, pending = nil, nil, 0
		ix.dropVectorCache()
		return err
	}
	fail := func(e error) (int, error) {
		if b != nil {
			b.rollback()
		}
		for range paths {
		}
		return indexed, e
	}
	for {
		select {
		case path, ok := <-paths:
			if !ok {
				err := flush()
				if err != nil {
					return fail(err)
				}
				return indexed, nil
			}
			if err := ctx.Err(); err != nil {
				return fail(err)
			}
			if b == nil {
				if b, err = ix.begin(ctx); err != nil {
					return fail(err)
				}
				deadline = time.After(hold)
			}
			if err := b.update(ctx, path); err != nil {
				return fail(err)
			}
			pending++
		case <-deadline:
			if err := flush(); err != nil {
				return fail(err)
			}
		}
	}
}

// update puts the note at path into the batch, or removes it from the
// index when the file no longer exists.
func (b *batch) update(ctx context.Context, path string) error {
	name := filepath.Base(path)
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		var id int64
		if b.tx.QueryRowContext(ctx, `SELECT id FROM notes WHERE name = ?`, name).Scan(&id) == nil {
			return b.remove(ctx, id)
		}
		return nil
	}
	if err != nil {
		return err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	n, err := note.Parse(data)
	if err != nil {
		return fmt.Errorf("index %s: %w", path, err)
	}
	sum := sha256.Sum256(data)
	if err := b.put(ctx, name, fi.Size(), fi.ModTime().UnixNano(), hex.EncodeToString(sum[:]), n); err != nil {
		return fmt.Errorf("index %s: %w", path, err)
	}
	return nil
}

// RemoveNote drops the note with file name name (in the wiki folder) from
// the index, if it is there.
func (ix *Index) RemoveNote(ctx context.Context, name string) (err error) {
	defer ix.classifyErr(&err)
	var id int64
	if err := ix.db.QueryRowContext(ctx, `SELECT id FROM notes WHERE name = ?`, filepath.Base(name)).Scan(&id); err != nil {
		return nil
	}
	return ix.removeNote(ctx, id)
}

// indexTerms are the BM25 terms (ts) and unstemmed words (ws) a chunk
// adds to the index, and that its removal takes away: chunkTerms of its
// searchable text and section, and none for a chunk without text (a
// figure without a caption says nothing, whatever its section).
func indexTerms(text, ocr, section string) (ts, ws []string) {
	if text == "" {
		return nil, nil
	}
	return chunkTerms(searchText(text, ocr), section)
}

// chunkTerms are the BM25 terms of one chunk (its text and section) and
// its distinct words as written, stop words left out: what the tables
// terms and words count.
func chunkTerms(text, section string) (ts, ws []string) {
	all := words(text + "\n" + section)
	ws = make([]string, 0, len(all))
	ts = make([]string, 0, len(all))
	for _, w := range all {
		if stopWords[w] {
			continue
		}
		ws = append(ws, w)
		ts = append(ts, stem(w))
	}
	return ts, distinct(ws)
}

// searchText is what search matches of a chunk: its text, and the slide
// text OCR read during a talk's chunk (searchable, never quoted: the
// phrase lane and quotation checks read the text alone).
func searchText(text, ocr string) string {
	if ocr == "" {
		return text
	}
	return text + "\n" + ocr
}

// advisoryTerms are the BM25 terms of a chunk's paraphrase and
// implication (the advisory lane's length).
func advisoryTerms(paraphrase, implication string) []string {
	ts, _ := chunkTerms(paraphrase, implication)
	return ts
}

// batchSize is how many notes a Sync writes per transaction.
const batchSize = 64

// batch is a write transaction that accumulates the changes to document
// frequencies and totals of the notes it puts and removes, and applies
// them once at commit.
type batch struct {
	tx                       *sql.Tx
	insChunk, insFTS, insAdv *sql.Stmt
	insAnnotation, insEdited *sql.Stmt
	df, wdf                  map[string]int // changes to terms.df and words.df
	chunks, tokens           int
	advChunks, advTokens     int // changes to the advisory lane's totals
	notes                    int
}

func (ix *Index) begin(ctx context.Context) (*batch, error) {
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	b := &batch{tx: tx, df: map[string]int{}, wdf: map[string]int{}}
	b.insChunk, err = tx.PrepareContext(ctx, `INSERT INTO chunks(note_id, chunk_id, page, section, type, text, norm, sha256, bbox, byte_start, byte_end, ntokens, page_label, section_path, continues, paraphrase, implication,
		start_ms, end_ms, link, keyframes, slide_ocr, transcript, asr_model, image)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err == nil {
		b.insEdited, err = tx.PrepareContext(ctx, `INSERT INTO edited_chunks(note_id, chunk_id, after, page, page_label, section, type, recorded, actual, text, norm)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	}
	if err == nil {
		b.insFTS, err = tx.PrepareContext(ctx, `INSERT INTO chunks_fts(rowid, text, section, title, authors) VALUES (?, ?, ?, ?, ?)`)
	}
	if err == nil {
		b.insAdv, err = tx.PrepareContext(ctx, `INSERT INTO advisory_fts(rowid, paraphrase, implication) VALUES (?, ?, ?)`)
	}
	if err == nil {
		// A note's answers go back to the store only where it has none
		// under that key (after a rebuild lost the store).
		b.insAnnotation, err = tx.PrepareContext(ctx, `INSERT OR IGNORE INTO annotations(sha256, model, digest, prompt, server, paraphrase, implication, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, strftime('%s', 'now'))`)
	}
	if err != nil {
		tx.Rollback()
		return nil, err
	}
	return b, nil
}

func (b *batch) rollback() { b.tx.Rollback() }

// commit applies the accumulated frequencies and totals and commits.
func (b *batch) commit(ctx context.Context) error {
	defer b.tx.Rollback()
	if err := addDF(ctx, b.tx, "terms", "term", b.df); err != nil {
		return err
	}
	if err := addDF(ctx, b.tx, "words", "word", b.wdf); err != nil {
		return err
	}
	if _, err := b.tx.ExecContext(ctx, `UPDATE meta SET value = value + ? WHERE key = 'chunks'`, b.chunks); err != nil {
		return err
	}
	if _, err := b.tx.ExecContext(ctx, `UPDATE meta SET value = value + ? WHERE key = 'tokens'`, b.tokens); err != nil {
		return err
	}
	if _, err := b.tx.ExecContext(ctx, `UPDATE meta SET value = value + ? WHERE key = 'advisory_chunks'`, b.advChunks); err != nil {
		return err
	}
	if _, err := b.tx.ExecContext(ctx, `UPDATE meta SET value = value + ? WHERE key = 'advisory_tokens'`, b.advTokens); err != nil {
		return err
	}
	return b.tx.Commit()
}

// put replaces the note called name with n.
func (b *batch) put(ctx context.Context, name string, size, mtime int64, sha string, n *note.Note) error {
	tx := b.tx
	var id int64
	switch err := tx.QueryRowContext(ctx, `SELECT id FROM notes WHERE name = ?`, name).Scan(&id); {
	case err == sql.ErrNoRows:
	case err != nil:
		return err
	default:
		if err := b.remove(ctx, id); err != nil {
			return err
		}
	}
	b.notes++
	f := n.Front
	r, err := tx.ExecContext(ctx, `INSERT INTO notes(name, size, mtime_ns, sha256, cite_key, title, authors, year, doi, arxiv_id)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, name, size, mtime, sha, f.CiteKey, f.Title, joinLines(f.Authors), f.Year, f.DOI, f.ArxivID)
	if err != nil {
		return err
	}
	id, err = r.LastInsertId()
	if err != nil {
		return err
	}
	for _, a := range f.Aliases {
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO aliases(alias, note_id) VALUES (?, ?)`, a, id); err != nil {
			return err
		}
	}
	authors := strings.Join(f.Authors, "; ")
	var after int64 // the last chunk row written, for edited chunks' places
	edited := 0
	for _, c := range n.Chunks {
		if actual := chunk.Hash(c.Text); actual != c.TextSHA256 {
			// Edited by hand: kept apart, never searchable or quotable.
			if _, err := b.insEdited.ExecContext(ctx, id, c.ID, after, c.Page, c.PageLabel, c.Section, c.Type, c.TextSHA256, actual, c.Text, quote.Key(c.Text)); err != nil {
				return err
			}
			edited++
			continue
		}
		m := c.Media
		if m == nil {
			m = &chunk.Media{StartMS: -1, EndMS: -1}
		}
		ts, ws := indexTerms(c.Text, m.SlideOCR, c.Section)
		b.tokens += len(ts)
		for _, t := range distinct(ts) {
			b.df[t]++
		}
		for _, w := range ws {
			b.wdf[w]++
		}
		bbox := strings.Join([]string{fnum(c.BBox[0]), fnum(c.BBox[1]), fnum(c.BBox[2]), fnum(c.BBox[3])}, " ")
		r, err := b.insChunk.ExecContext(ctx, id, c.ID, c.Page, c.Section, c.Type, c.Text, quote.Key(c.Text), c.TextSHA256, bbox, c.ByteRange[0], c.ByteRange[1], len(ts),
			c.PageLabel, strings.Join(c.SectionPath, "\n"), c.Continues, c.Paraphrase, c.Implication,
			m.StartMS, m.EndMS, m.Link, strings.Join(m.Keyframes, "\n"), m.SlideOCR, m.Transcript, m.ASRModel, imageOf(c))
		if err != nil {
			return err
		}
		rowid, err := r.LastInsertId()
		if err != nil {
			return err
		}
		after = rowid
		// A figure without a caption has no text: nothing to find it by
		// but its section and the paper's title, which would rank it over
		// every passage that says something.
		if c.Text != "" {
			if _, err := b.insFTS.ExecContext(ctx, rowid, searchText(c.Text, m.SlideOCR), c.Section, f.Title, authors); err != nil {
				return err
			}
		}
		if c.Paraphrase == "" && c.Implication == "" {
			continue
		}
		if _, err := b.insAdv.ExecContext(ctx, rowid, c.Paraphrase, c.Implication); err != nil {
			return err
		}
		b.advChunks++
		b.advTokens += len(advisoryTerms(c.Paraphrase, c.Implication))
		if a := f.Advisory; a != nil && a.Model != "" {
			if _, err := b.insAnnotation.ExecContext(ctx, c.TextSHA256, a.Model, a.ModelDigest, a.PromptVersion, a.Server, c.Paraphrase, c.Implication); err != nil {
				return err
			}
		}
	}
	b.chunks += len(n.Chunks) - edited
	if edited > 0 {
		if _, err := tx.ExecContext(ctx, `UPDATE notes SET edited = ? WHERE id = ?`, edited, id); err != nil {
			return err
		}
	}
	return nil
}

func (ix *Index) removeNote(ctx context.Context, id int64) error {
	b, err := ix.begin(ctx)
	if err != nil {
		return err
	}
	if err := b.remove(ctx, id); err != nil {
		b.rollback()
		return err
	}
	if err := b.commit(ctx); err != nil {
		return err
	}
	ix.dropVectorCache()
	return nil
}

// remove deletes note id, its chunks and their FTS rows, and takes their
// share of the document frequencies and totals.
func (b *batch) remove(ctx context.Context, id int64) error {
	tx := b.tx
	b.notes++
	rows, err := tx.QueryContext(ctx, `SELECT id, text, section, ntokens, paraphrase, implication, slide_ocr FROM chunks WHERE note_id = ?`, id)
	if err != nil {
		return err
	}
	var rowids, advisory []int64
	for rows.Next() {
		var rowid int64
		var text, section, para, impl, ocr string
		var nt int
		if err := rows.Scan(&rowid, &text, &section, &nt, &para, &impl, &ocr); err != nil {
			rows.Close()
			return err
		}
		rowids = append(rowids, rowid)
		if para != "" || impl != "" {
			advisory = append(advisory, rowid)
			b.advChunks--
			b.advTokens -= len(advisoryTerms(para, impl))
		}
		b.tokens -= nt
		ts, ws := indexTerms(text, ocr, section)
		for _, t := range distinct(ts) {
			b.df[t]--
		}
		for _, w := range ws {
			b.wdf[w]--
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	b.chunks -= len(rowids)
	for _, r := range rowids {
		if _, err := tx.ExecContext(ctx, `DELETE FROM chunks_fts WHERE rowid = ?`, r); err != nil {
			return err
		}
	}
	for _, r := range advisory {
		if _, err := tx.ExecContext(ctx, `DELETE FROM advisory_fts WHERE rowid = ?`, r); err != nil {
			return err
		}
	}
	for _, q := range []string{`DELETE FROM chunks WHERE note_id = ?`, `DELETE FROM edited_chunks WHERE note_id = ?`, `DELETE FROM aliases WHERE note_id = ?`, `DELETE FROM notes WHERE id = ?`} {
		if _, err := tx.ExecContext(ctx, q, id); err != nil {
			return err
		}
	}
	return nil
}

// addDF adds df[t] (positive or negative) to the document frequency of
// each term t in table (terms or words, key column col); rows that reach
// zero are deleted.
func addDF(ctx context.Context, tx *sql.Tx, table, col string, df map[string]int) error {
	up, err := tx.PrepareContext(ctx, `INSERT INTO `+table+`(`+col+`, df) VALUES (?, ?) ON CONFLICT(`+col+`) DO UPDATE SET df = df + excluded.df`)
	if err != nil {
		return err
	}
	defer up.Close()
	neg := false
	for t, n := range df {
		if n == 0 {
			continue
		}
		neg = neg || n < 0
		if _, err := up.ExecContext(ctx, t, n); err != nil {
			return err
		}
	}
	if neg {
		_, err = tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE df <= 0`)
	}
	return err
}

func distinct(ts []string) []string {
	seen := make(map[string]bool, len(ts))
	out := make([]string, 0, len(ts))
	for _, t := range ts {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

func fnum(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }
