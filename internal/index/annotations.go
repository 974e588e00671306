package index

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"time"
)

// Annotation is one stored answer of a language model about one chunk
// text: advisory text, never quoted (crossmem enrich).
type Annotation struct {
	Paraphrase  string
	Implication string
}

// AnnotationModel is what an answer is stored under besides the chunk
// text: the model, its digest and the prompt version. Server is recorded
// with the answer but is not part of the key.
type AnnotationModel struct {
	Server string // "ollama" or "openai"
	Model  string // the model's name on its server
	Digest string // the server's digest of the model, "" when unknown
	Prompt int    // prompt version
}

// Annotations returns the stored answers of model m for the chunk texts
// with the given text_sha256 values, by text_sha256 (texts without an
// answer are absent).
func (ix *Index) Annotations(ctx context.Context, m AnnotationModel, shas []string) (map[string]Annotation, error) {
	out := make(map[string]Annotation, len(shas))
	stmt, err := ix.db.PrepareContext(ctx, `SELECT paraphrase, implication FROM annotations WHERE sha256 = ? AND model = ? AND digest = ? AND prompt = ?`)
	if err != nil {
		return nil, err
	}
	defer stmt.Close()
	for _, sha := range shas {
		if _, ok := out[sha]; ok {
			continue
		}
		var a Annotation
		switch err := stmt.QueryRowContext(ctx, sha, m.Model, m.Digest, m.Prompt).Scan(&a.Paraphrase, &a.Implication); {
		case err == nil:
			out[sha] = a
		case errors.Is(err, sql.ErrNoRows):
		default:
			return nil, err
		}
	}
	return out, nil
}

// PutAnnotation stores model m's answer about the chunk text with
// text_sha256 sha, replacing an earlier one under the same key. Each call
// is its own transaction, so an answer is kept as soon as it arrives.
func (ix *Index) PutAnnotation(ctx context.Context, m AnnotationModel, sha string, a Annotation) error {
	_, err := ix.db.ExecContext(ctx, `INSERT OR REPLACE INTO annotations(sha256, model, digest, prompt, server, paraphrase, implication, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, sha, m.Model, m.Digest, m.Prompt, m.Server, a.Paraphrase, a.Implication, time.Now().Unix())
	return err
}

// CountAnnotations returns how many answers are stored.
func (ix *Index) CountAnnotations(ctx context.Context) (int, error) {
	var n int
	err := ix.db.QueryRowContext(ctx, `SELECT count(*) FROM annotations`).Scan(&n)
	return n, err
}

// carryStored copies into ix what the index at old, the one a rebuild
// replaces, stored that the notes cannot give again: the answers
// (another model's, another prompt version's answers no note holds) and
// the chunk embeddings (keyed by chunk text and model; computing them
// again needs the embedding server and minutes per paper). An old index
// that cannot be read gives nothing: the notes still give their answers,
// and the next index update embeds what is missing.
func (ix *Index) carryStored(ctx context.Context, old string) {
	if _, err := os.Stat(old); err != nil {
		return
	}
	conn, err := ix.db.Conn(ctx)
	if err != nil {
		return
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `ATTACH DATABASE ? AS old`, old); err != nil {
		return
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `DETACH DATABASE old`)
	// Each copy is its own statement: a damaged table in the old file
	// loses only its own rows.
	conn.ExecContext(ctx, `INSERT OR IGNORE INTO annotations(sha256, model, digest, prompt, server, paraphrase, implication, created_at)
		SELECT sha256, model, digest, prompt, server, paraphrase, implication, created_at FROM old.annotations`)
	conn.ExecContext(ctx, `INSERT OR IGNORE INTO embeddings(sha256, model, dim, vec)
		SELECT sha256, model, dim, vec FROM old.embeddings WHERE length(vec) = 4*dim`)
}
