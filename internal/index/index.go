// Package index is the library's search index: one SQLite file
// (<home>/index.db, modernc.org/sqlite, WAL mode) derived from the wiki
// notes, which stay the source of truth. It holds the papers (cite key,
// aliases, title, authors, year), their chunks (id, page, section, type,
// verbatim text, its quote-normalized form, SHA-256, bbox), an FTS5 table
// over chunk text, section, title and authors (tokenizer porter unicode61
// remove_diacritics 2), the document frequencies BM25 needs, those of the
// words as written (unstemmed, through which a prefix query is expanded),
// and optional chunk embeddings.
//
// Sync brings the index up to date with the notes, touching only what
// changed (file size and modification time, then content hash); Rebuild
// recreates it. Search ranks chunks by BM25 with an exact-phrase lane and,
// when embeddings are configured, a vector lane fused by reciprocal rank
// fusion.
//
// The index also stores the language model's answers for crossmem enrich
// (annotations.go): they are not derived from the notes, so a rebuild
// copies them from the index it replaces (as it copies the chunk
// embeddings, which only the embedding server can compute again) and
// takes back what the notes hold of them.
//
// Several processes may use one index: writers (compile, `crossmem index`,
// a server noticing hand-edited notes) serialize on the library lock and on
// SQLite's write lock; readers see a consistent snapshot (WAL) and never
// wait for a writer.
package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // database/sql driver "sqlite"

	"github.com/crossmem/crossmem/internal/hint"
)

// FileName is the index's file name in the library home.
const FileName = "index.db"

// SchemaVersion is the schema this crossmem writes (PRAGMA user_version).
const SchemaVersion = 7

// ErrNewerSchema is returned by Open for an index written by a newer
// crossmem.
var ErrNewerSchema = errors.New("index was written by a newer crossmem")

// ErrCorrupt is returned by Open when the file is not a usable index.
var ErrCorrupt = errors.New("index file is damaged or not a crossmem index")

// rebuild is the way out of a damaged index or a failed migration.
var rebuild = hint.Action{Kind: hint.RebuildIndex}

// Index is an open search index.
type Index struct {
	db      *sql.DB
	path    string
	wikiDir string

	// Embedder, when set, gives the vector lane (see Search and
	// EmbedMissing). Nil: BM25 and the phrase lane only.
	Embedder Embedder
	// VectorWeight and BM25Weight weight the two rankings in reciprocal
	// rank fusion (0 means 1).
	VectorWeight, BM25Weight float64
	// AdvisoryWeight weighs the advisory lane (paraphrases and
	// implications) in the fusion; 0 means 0.5.
	AdvisoryWeight float64
	// NoPhraseLane turns the exact-phrase lane off (for measuring BM25
	// alone; crossmem never sets it).
	NoPhraseLane bool

	vecMu    sync.Mutex
	vecCache *vectorSet
}

// migrations[i] upgrades schema version i to i+1.
var migrations = []string{
	// 0 → 1
	`CREATE TABLE meta(key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
	INSERT INTO meta(key, value) VALUES ('chunks', 0), ('tokens', 0);
	CREATE TABLE notes(
		id INTEGER PRIMARY KEY,
		name TEXT NOT NULL UNIQUE,        -- file name in the wiki folder
		size INTEGER NOT NULL,
		mtime_ns INTEGER NOT NULL,
		sha256 TEXT NOT NULL,             -- of the note file
		cite_key TEXT NOT NULL,
		title TEXT NOT NULL,
		authors TEXT NOT NULL,            -- display names, one per line
		year INTEGER NOT NULL,
		doi TEXT NOT NULL,
		arxiv_id TEXT NOT NULL
	);
	CREATE INDEX notes_cite_key ON notes(cite_key);
	CREATE TABLE aliases(
		alias TEXT PRIMARY KEY,
		note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE
	) WITHOUT ROWID;
	CREATE INDEX aliases_note ON aliases(note_id);
	CREATE TABLE chunks(
		id INTEGER PRIMARY KEY,           -- = rowid in chunks_fts
		note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
		chunk_id TEXT NOT NULL,           -- p{page}s{section}c{n}
		page INTEGER NOT NULL,
		section TEXT NOT NULL,
		type TEXT NOT NULL,
		text TEXT NOT NULL,               -- verbatim, as in the note
		norm TEXT NOT NULL,               -- quote.Key(text)
		sha256 TEXT NOT NULL,             -- text_sha256
		bbox TEXT NOT NULL,               -- "x0 y0 x1 y1" in PDF points
		byte_start INTEGER NOT NULL,
		byte_end INTEGER NOT NULL,
		ntokens INTEGER NOT NULL          -- BM25 length: terms in text + section
	);
	CREATE INDEX chunks_note ON chunks(note_id);
	CREATE INDEX chunks_sha ON chunks(sha256);
	CREATE VIRTUAL TABLE chunks_fts USING fts5(text, section, title, authors,
		content='', contentless_delete=1,
		tokenize='porter unicode61 remove_diacritics 2', prefix='3');
	CREATE TABLE terms(term TEXT PRIMARY KEY, df INTEGER NOT NULL) WITHOUT ROWID;
	CREATE TABLE embeddings(
		sha256 TEXT NOT NULL,             -- text_sha256 of the chunk text
		model TEXT NOT NULL,
		dim INTEGER NOT NULL,
		vec BLOB NOT NULL,                -- dim float32, little-endian
		PRIMARY KEY (sha256, model)
	) WITHOUT ROWID;`,
	// 1 → 2: the table words (document frequency of each unstemmed word,
	// for prefix queries) and an FTS5 table without the prefix index,
	// which prefix queries no longer use. Everything derived from the
	// notes is emptied, so the next Sync (which search, index and the MCP
	// server run before answering) indexes every note again; the
	// embeddings, keyed by chunk text, are kept.
	`DROP TABLE chunks_fts;
	DELETE FROM aliases;
	DELETE FROM chunks;
	DELETE FROM notes;
	DELETE FROM terms;
	UPDATE meta SET value = 0 WHERE key IN ('chunks', 'tokens');
	CREATE VIRTUAL TABLE chunks_fts USING fts5(text, section, title, authors,
		content='', contentless_delete=1,
		tokenize='porter unicode61 remove_diacritics 2');
	CREATE TABLE words(word TEXT PRIMARY KEY, df INTEGER NOT NULL) WITHOUT ROWID;`,
	// 2 → 3: wiki_format 2's printed page label, section path and
	// continuation link; every note is read again on the next sync.
	`ALTER TABLE chunks ADD COLUMN page_label TEXT NOT NULL DEFAULT '';
	ALTER TABLE chunks ADD COLUMN section_path TEXT NOT NULL DEFAULT ''; -- titles, one per line, outermost first
	ALTER TABLE chunks ADD COLUMN continues TEXT NOT NULL DEFAULT '';    -- chunk_id of the chunk this one continues
	UPDATE notes SET size = -1, sha256 = '';`,
	// 3 → 4: the language model's answers (the store of crossmem enrich,
	// keyed by chunk text, model, model digest and prompt version; not
	// derived from the notes, which are rewritten from it, though Sync
	// takes back what a note holds when the store lacks it), each chunk's
	// advisory paraphrase and implication as its note has them, and their
	// own full-text table (the advisory search lane); every note is read
	// again on the next sync.
	`CREATE TABLE annotations(
		sha256 TEXT NOT NULL,             -- text_sha256 of the chunk text asked about
		model TEXT NOT NULL,              -- the model's name on its server
		digest TEXT NOT NULL,             -- the server's model digest, '' when it gives none
		prompt INTEGER NOT NULL,          -- prompt version (llm.PromptVersion)
		server TEXT NOT NULL,             -- "ollama" or "openai"
		paraphrase TEXT NOT NULL,
		implication TEXT NOT NULL,
		created_at INTEGER NOT NULL,      -- unix seconds
		PRIMARY KEY (sha256, model, digest, prompt)
	) WITHOUT ROWID;
	ALTER TABLE chunks ADD COLUMN paraphrase TEXT NOT NULL DEFAULT '';
	ALTER TABLE chunks ADD COLUMN implication TEXT NOT NULL DEFAULT '';
	CREATE VIRTUAL TABLE advisory_fts USING fts5(paraphrase, implication,
		content='', contentless_delete=1,
		tokenize='porter unicode61 remove_diacritics 2');
	INSERT INTO meta(key, value) VALUES ('advisory_chunks', 0), ('advisory_tokens', 0);
	UPDATE notes SET size = -1, sha256 = '';`,
	// 4 → 5: chunks whose text no longer hashes to the text_sha256 their
	// note records (edited by hand) are kept apart, in edited_chunks,
	// never in chunks: nothing that reads chunks (search, quotation
	// checks, reading) can serve them. Each note counts its edited
	// chunks. Every note is read again on the next sync.
	`CREATE TABLE edited_chunks(
		note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
		chunk_id TEXT NOT NULL,
		after INTEGER NOT NULL,           -- chunks.id of the chunk before it in the note, 0 = none
		page INTEGER NOT NULL,
		page_label TEXT NOT NULL,
		section TEXT NOT NULL,
		type TEXT NOT NULL,
		recorded TEXT NOT NULL,           -- the text_sha256 the note records
		actual TEXT NOT NULL,             -- sha256 of the text the note holds now
		text TEXT NOT NULL,               -- that text: never served, kept to say what was edited
		norm TEXT NOT NULL                -- quote.Key(text)
	);
	CREATE INDEX edited_chunks_note ON edited_chunks(note_id);
	ALTER TABLE notes ADD COLUMN edited INTEGER NOT NULL DEFAULT 0;
	UPDATE notes SET size = -1, sha256 = '';`,
	// 5 → 6: a talk's chunks (chunk.Media): where in the recording, the
	// link there, its keyframes, the slide text OCR read (searchable with
	// the text, never quoted) and the kind of transcript (ASR or human
	// subtitles); every note is read again on the next sync.
	`ALTER TABLE chunks ADD COLUMN start_ms INTEGER NOT NULL DEFAULT -1; -- -1: a paper's chunk
	ALTER TABLE chunks ADD COLUMN end_ms INTEGER NOT NULL DEFAULT -1;
	ALTER TABLE chunks ADD COLUMN link TEXT NOT NULL DEFAULT '';        -- as the note has it (a local file's relative to the home)
	ALTER TABLE chunks ADD COLUMN keyframes TEXT NOT NULL DEFAULT '';   -- paths relative to the home, one per line
	ALTER TABLE chunks ADD COLUMN slide_ocr TEXT NOT NULL DEFAULT '';
	ALTER TABLE chunks ADD COLUMN transcript TEXT NOT NULL DEFAULT '';  -- "subtitles" or "asr"; '' for papers
	ALTER TABLE chunks ADD COLUMN asr_model TEXT NOT NULL DEFAULT '';
	UPDATE notes SET size = -1, sha256 = '';`,
	// 6 → 7: a figure chunk's crop (chunk.Image), so that search hits and
	// reads give it without parsing the note; every note is read again
	// on the next sync.
	`ALTER TABLE chunks ADD COLUMN image TEXT NOT NULL DEFAULT '';      -- PNG path relative to the home, '/'-separated; '' for none
	UPDATE notes SET size = -1, sha256 = '';`,
}

// Open opens (creating and migrating as needed) the index at path, for the
// notes in wikiDir. Errors: ErrNewerSchema, ErrCorrupt (both say how to
// recover), I/O errors.
func Open(path, wikiDir string) (*Index, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	removeStale(path)
	// busy_timeout first: switching a new file to WAL takes a lock that
	// concurrent first opens wait for.
	dsn := "file:" + path + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(1)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(4)
	ix := &Index{db: db, path: path, wikiDir: wikiDir}
	// Some lock waits of a first open (switching a new file to WAL) do not
	// go through the busy timeout: an open that finds the index busy tries
	// again for up to 10 s before reporting ErrBusy.
	deadline := time.Now().Add(10 * time.Second)
	for {
		err = classify(path, ix.migrate())
		if err == nil {
			return ix, nil
		}
		if !errors.Is(err, ErrBusy) || time.Now().After(deadline) {
			db.Close()
			return nil, err
		}
		time.Sleep(time.Duration(20+rand.IntN(80)) * time.Millisecond)
	}
}

// Path returns the index file's path.
func (ix *Index) Path() string { return ix.path }

// WikiDir returns the folder of the notes the index is built from.
func (ix *Index) WikiDir() string { return ix.wikiDir }

// Close closes the index.
func (ix *Index) Close() error { return ix.db.Close() }

func (ix *Index) migrate() error {
	v, err := ix.version(ix.db, false)
	if err != nil {
		return err
	}
	// Each step runs in one BEGIN IMMEDIATE transaction that reads the
	// version again: of processes opening a new index at once, one creates
	// the schema and the others find it done.
	for v < SchemaVersion {
		tx, err := ix.db.Begin()
		if err != nil {
			return err
		}
		if v, err = ix.version(tx, true); err != nil || v >= SchemaVersion {
			tx.Rollback()
			return err
		}
		if _, err := tx.Exec(migrations[v]); err != nil {
			tx.Rollback()
			return hint.Wrap(fmt.Errorf("migrate index %s to schema %d: %w", ix.path, v+1, classify(ix.path, err)), rebuild)
		}
		if _, err := tx.Exec(fmt.Sprintf(`PRAGMA user_version = %d`, v+1)); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
		v++
	}
	return nil
}

// version reads and checks the schema version (PRAGMA user_version). With
// foreign, a version 0 file with tables is refused as not ours: only
// inside a transaction, where both reads see the same state (outside one,
// another process's first open may commit between them).
func (ix *Index) version(q interface {
	QueryRow(string, ...any) *sql.Row
}, foreign bool) (int, error) {
	var v int
	if err := q.QueryRow(`PRAGMA user_version`).Scan(&v); err != nil {
		if err = classify(ix.path, err); errors.Is(err, ErrBusy) {
			return 0, err
		}
		return 0, hint.Wrap(fmt.Errorf("%w (%s: %v)", ErrCorrupt, ix.path, err), rebuild)
	}
	if v > SchemaVersion {
		return 0, hint.Wrap(fmt.Errorf("%w (%s has schema %d, this crossmem knows %d)", ErrNewerSchema, ix.path, v, SchemaVersion),
			hint.Action{Kind: hint.UpgradeOrRebuildIndex})
	}
	if v == 0 && foreign {
		// A file with tables but no version is not ours.
		var n int
		if err := q.QueryRow(`SELECT count(*) FROM sqlite_schema`).Scan(&n); err != nil {
			if err = classify(ix.path, err); errors.Is(err, ErrBusy) {
				return 0, err
			}
			return 0, hint.Wrap(fmt.Errorf("%w (%s: %v)", ErrCorrupt, ix.path, err), rebuild)
		}
		if n > 0 {
			return 0, hint.Wrap(fmt.Errorf("%w (%s has tables but no crossmem schema version)", ErrCorrupt, ix.path), rebuild)
		}
	}
	return v, nil
}

// Stats describes the index's content.
type Stats struct {
	Notes      int `json:"notes"`
	Chunks     int `json:"chunks"`
	Terms      int `json:"terms"`
	Embeddings int `json:"embeddings"`
	// Edited counts the chunks edited by hand in their notes: not
	// served (EditedChunk).
	Edited int `json:"edited"`
}

// Stats counts what the index holds.
func (ix *Index) Stats(ctx context.Context) (_ Stats, err error) {
	defer ix.classifyErr(&err)
	var s Stats
	err = ix.db.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM notes), (SELECT value FROM meta WHERE key = 'chunks'),
		(SELECT count(*) FROM terms), (SELECT count(*) FROM embeddings), (SELECT count(*) FROM edited_chunks)`).Scan(&s.Notes, &s.Chunks, &s.Terms, &s.Embeddings, &s.Edited)
	return s, err
}

// ResolveKey returns the cite key that key names (itself or, for an alias,
// its paper's key) and whether the index knows it.
func (ix *Index) ResolveKey(ctx context.Context, key string) (string, bool) {
	var k string
	err := ix.db.QueryRowContext(ctx, `SELECT cite_key FROM notes WHERE cite_key = ?
		UNION ALL SELECT n.cite_key FROM aliases a JOIN notes n ON n.id = a.note_id WHERE a.alias = ? LIMIT 1`, key, key).Scan(&k)
	return k, err == nil
}

func joinLines(ss []string) string { return strings.Join(ss, "\n") }
