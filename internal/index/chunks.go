package index

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/crossmem/crossmem/internal/quote"
	"github.com/crossmem/crossmem/internal/search"
)

// Chunk is a chunk as the index holds it, with its paper: what quotation
// checks compare and report.
type Chunk struct {
	CiteKey  string `json:"cite_key"`
	Title    string `json:"title"`
	NotePath string `json:"note"`
	ChunkID  string `json:"chunk_id"`
	Page     int    `json:"page"`
	// PageLabel is the printed page label ("46"); "" when the PDF
	// declares none.
	PageLabel string `json:"page_label,omitempty"`
	Section   string `json:"section"`
	// SectionPath is the chain of section titles, outermost first.
	SectionPath []string `json:"section_path,omitempty"`
	// Continues is the chunk_id of the chunk of the same paper this one
	// continues across a column or page break; "" otherwise.
	Continues string     `json:"continues,omitempty"`
	Type      string     `json:"type"`
	BBox      [4]float64 `json:"bbox"` // [x0, y0, x1, y1] in PDF points, origin bottom-left
	SHA256    string     `json:"text_sha256"`
	Text      string     `json:"text"` // verbatim
	Norm      string     `json:"-"`    // quote.Key(Text)
	// Edited marks the place of a chunk edited by hand in its note
	// (EditedChunk): PaperChunks lists it, without its text, so that
	// nothing is matched across it.
	Edited bool `json:"-"`
	// Media is where a talk's chunk is in its recording (search.Media,
	// its link resolved); nil for a paper's.
	Media *search.Media `json:"media,omitempty"`

	rowid int64
	image string // a figure's crop as stored (imageOf)
}

// ErrUnknownPaper is returned by PaperChunks for a key the index does not
// know (not compiled, or no such paper).
var ErrUnknownPaper = errors.New("no compiled paper has this cite key")

const chunkCols = `c.id, n.cite_key, n.title, n.name, c.chunk_id, c.page, c.section, c.type, c.bbox, c.sha256, c.text, c.norm, c.page_label, c.continues, c.section_path,
	c.start_ms, c.end_ms, c.link, c.keyframes, c.slide_ocr, c.transcript, c.asr_model, c.image`

func (ix *Index) scanChunks(rows *sql.Rows) ([]Chunk, error) {
	defer rows.Close()
	var out []Chunk
	for rows.Next() {
		var c Chunk
		var bbox, name, path string
		var m search.Media
		var keyframes string
		if err := rows.Scan(&c.rowid, &c.CiteKey, &c.Title, &name, &c.ChunkID, &c.Page, &c.Section, &c.Type, &bbox, &c.SHA256, &c.Text, &c.Norm, &c.PageLabel, &c.Continues, &path,
			&m.StartMS, &m.EndMS, &m.Link, &keyframes, &m.SlideOCR, &m.Transcript, &m.ASRModel, &c.image); err != nil {
			return nil, err
		}
		if path != "" {
			c.SectionPath = strings.Split(path, "\n")
		}
		c.Media = mediaOf(m, keyframes, ix.wikiDir)
		c.NotePath = filepath.Join(ix.wikiDir, name)
		for i, f := range strings.Fields(bbox) {
			if i < 4 {
				c.BBox[i], _ = strconv.ParseFloat(f, 64)
			}
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// PaperChunks returns the chunks of the paper with cite key (or alias) key
// in note order, each chunk edited by hand in the note as a gap (Edited
// set, no text). Errors: ErrUnknownPaper.
func (ix *Index) PaperChunks(ctx context.Context, key string) (_ []Chunk, err error) {
	defer ix.classifyErr(&err)
	k, ok := ix.ResolveKey(ctx, key)
	if !ok {
		return nil, ErrUnknownPaper
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT `+chunkCols+` FROM chunks c JOIN notes n ON n.id = c.note_id WHERE n.cite_key = ? ORDER BY c.id`, k)
	if err != nil {
		return nil, err
	}
	chunks, err := ix.scanChunks(rows)
	if err != nil {
		return nil, err
	}
	return ix.withEdited(ctx, k, chunks)
}

// FindText returns, library-wide, the chunks whose text contains text as
// quote.Key compares them (at most limit, in index order). Candidates come
// from FTS5 groups of the text's rarest words, as in the phrase lane.
func (ix *Index) FindText(ctx context.Context, text string, limit int) (_ []Chunk, err error) {
	defer ix.classifyErr(&err)
	key := quote.Key(text)
	if key == "" {
		return nil, nil
	}
	p := parseQuery(text, true)
	if len(p.words) == 0 {
		return nil, nil
	}
	st, err := ix.stats(ctx, p)
	if err != nil {
		return nil, err
	}
	ids := map[int64]bool{}
	if err := ix.phraseCandidates(ctx, p, st, "", ids); err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return nil, nil
	}
	list := make([]int64, 0, len(ids))
	for id := range ids {
		list = append(list, id)
	}
	var out []Chunk
	for start := 0; start < len(list); start += 500 {
		rows, err := ix.db.QueryContext(ctx, `SELECT `+chunkCols+` FROM chunks c JOIN notes n ON n.id = c.note_id
			WHERE c.id IN (`+idList(list[start:min(len(list), start+500)])+`) AND instr(c.norm, ?) > 0 ORDER BY c.id`, key)
		if err != nil {
			return nil, err
		}
		cs, err := ix.scanChunks(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// ChunkByID returns the chunk chunkID of the paper with cite key (or
// alias) key. Errors: ErrUnknownPaper, *EditedError for a chunk edited by
// hand in the note, sql.ErrNoRows for an unknown chunk.
func (ix *Index) ChunkByID(ctx context.Context, key, chunkID string) (_ Chunk, err error) {
	defer ix.classifyErr(&err)
	k, ok := ix.ResolveKey(ctx, key)
	if !ok {
		return Chunk{}, ErrUnknownPaper
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT `+chunkCols+` FROM chunks c JOIN notes n ON n.id = c.note_id WHERE n.cite_key = ? AND c.chunk_id = ?`, k, chunkID)
	if err != nil {
		return Chunk{}, err
	}
	cs, err := ix.scanChunks(rows)
	if err != nil {
		return Chunk{}, err
	}
	if len(cs) == 0 {
		if e, ok, err := ix.editedChunk(ctx, k, chunkID); err != nil {
			return Chunk{}, err
		} else if ok {
			return Chunk{}, &EditedError{Chunk: e}
		}
		return Chunk{}, sql.ErrNoRows
	}
	return cs[0], nil
}

// PaperAuthors returns the display names of the authors of the paper with
// cite key (or alias) key, in order, its year, and whether the index
// knows the paper.
func (ix *Index) PaperAuthors(ctx context.Context, key string) ([]string, int, bool) {
	k, ok := ix.ResolveKey(ctx, key)
	if !ok {
		return nil, 0, false
	}
	var authors string
	var year int
	if err := ix.db.QueryRowContext(ctx, `SELECT authors, year FROM notes WHERE cite_key = ?`, k).Scan(&authors, &year); err != nil {
		return nil, 0, false
	}
	if authors == "" {
		return nil, year, true
	}
	return strings.Split(authors, "\n"), year, true
}

// NoteStat is what the index holds of one note: the chunks it serves and
// those edited by hand (not served).
type NoteStat struct {
	Chunks, Edited int
}

// NoteStats returns, per cite key, the chunks served and edited of its
// note.
func (ix *Index) NoteStats(ctx context.Context) (_ map[string]NoteStat, err error) {
	defer ix.classifyErr(&err)
	rows, err := ix.db.QueryContext(ctx, `SELECT n.cite_key, (SELECT count(*) FROM chunks c WHERE c.note_id = n.id), n.edited FROM notes n`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]NoteStat{}
	for rows.Next() {
		var k string
		var s NoteStat
		if err := rows.Scan(&k, &s.Chunks, &s.Edited); err != nil {
			return nil, err
		}
		out[k] = s
	}
	return out, rows.Err()
}

// mediaOf returns where a talk's chunk is in its recording, from its row
// (m as stored: Link as the note records it; keyframes the newline-joined
// keyframe paths relative to the library home, the parent of wikiDir),
// with Link resolved (search.MediaLink) and Keyframe the first
// keyframe's absolute path; nil for a paper's chunk (StartMS -1 or no
// transcript kind).
func mediaOf(m search.Media, keyframes, wikiDir string) *search.Media {
	if m.StartMS < 0 || m.Transcript == "" {
		return nil
	}
	home := filepath.Dir(wikiDir)
	m.Link = search.MediaLink(m.Link, home)
	if kf, _, _ := strings.Cut(keyframes, "\n"); kf != "" {
		m.Keyframe = filepath.Join(home, filepath.FromSlash(kf))
	}
	return &m
}
