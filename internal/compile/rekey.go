package compile

import (
	"context"
	"fmt"
	"os"

	"github.com/crossmem/crossmem/internal/cite"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/note"
)

// Rekey renames the paper with cite key old to new under the library lock
// (library.RenameKey: files renamed, old kept as an alias) and rewrites the
// frontmatter and citations of its note, if it has one, for the new key.
// It returns the renamed paper and the note's path ("" when not compiled).
func Rekey(ctx context.Context, lib *library.Library, old, new string, c cite.Citer) (*library.Paper, string, error) {
	unlock, err := lib.Lock(ctx)
	if err != nil {
		return nil, "", err
	}
	defer unlock()
	p, err := lib.RenameKey(old, new)
	if err != nil {
		return nil, "", err
	}
	if !p.HasNote() {
		return p, "", nil
	}
	if err := rewriteNote(p, &c); err != nil {
		return p, "", hint.Wrap(fmt.Errorf("%s is renamed to %s, but its note could not be updated: %w", old, new, err), hint.Action{Kind: hint.Compile, Key: new})
	}
	return p, p.NotePath, nil
}

// rewriteNote rewrites paper's frontmatter and citations from its
// sidecar, keeping the chunks.
// The caller holds the library lock.
func rewriteNote(paper *library.Paper, c *cite.Citer) error {
	data, err := os.ReadFile(paper.NotePath)
	if err != nil {
		return fmt.Errorf("read note of %s: %w", paper.CiteKey, err)
	}
	n, err := note.Parse(data)
	if err != nil {
		return fmt.Errorf("parse note %s: %w", paper.NotePath, err)
	}
	stamp(n, paper, c)
	out, err := note.Format(n)
	if err != nil {
		return err
	}
	return library.WriteFileAtomic(paper.NotePath, out, 0o644)
}
