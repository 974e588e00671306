package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/index"
	"github.com/crossmem/crossmem/internal/render"
)

// indexJSON is index's --json output.
type indexJSON struct {
	Path     string            `json:"path"`
	Rebuilt  bool              `json:"rebuilt"`
	Sync     *index.SyncResult `json:"sync"`
	Embedded int               `json:"embedded"`
	Stats    index.Stats       `json:"stats"`
	Seconds  float64           `json:"seconds"`
}

// indexOptions are index's flags.
type indexOptions struct {
	app     *app
	rebuild bool
}

func newIndexCommand(a *app) *cobra.Command {
	o := &indexOptions{app: a}
	cmd := &cobra.Command{
		Use:   "index",
		Short: "Bring the search index (<home>/index.db) up to date with the wiki notes",
		Long: `Update the search index from the wiki notes, which stay the source of truth:
notes whose file size and time are unchanged are not read; notes whose content
changed are re-indexed; notes deleted by hand leave the index; files that are
not readable notes are skipped with a warning. compile, refresh, rekey and
import update the index themselves, so this is needed only after editing or
deleting notes by hand (search and the MCP server also catch up on their own).
With [search] embeddings = "ollama", chunk texts without an embedding are
embedded (never the same text twice).

Every run first checks the file with SQLite's quick_check and says how to
rebuild it when it is damaged. --rebuild builds a new index from the notes in a
temporary file and then puts it in place of the old one under the library
lock, so searches running meanwhile keep working (after an upgrade, or when the
file is damaged).

Exit status: 0 ok, 1 error, 2 usage error.`,
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runIndex(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.rebuild, "rebuild", false, "build the index again from the notes and put it in place of the old one")
	a.addJSONFlag(cmd)
	return cmd
}

func runIndex(ctx context.Context, o *indexOptions) error {
	a := o.app
	start := time.Now()
	lib, err := a.library()
	if err != nil {
		return err
	}
	var res *index.SyncResult
	if o.rebuild {
		res, err = index.Rebuild(ctx, filepath.Join(lib.Home, index.FileName), lib.WikiDir(), lib.Lock, a.progress("index", "notes"))
		a.progressDone()
		if err != nil {
			return err
		}
	}
	ix, err := a.index()
	if err != nil {
		return err
	}
	if !o.rebuild {
		// An explicit index run checks the file: a damaged page would
		// otherwise surface later as a failed search.
		if err := ix.QuickCheck(ctx); err != nil {
			return err
		}
		bar := a.progress("index", "notes")
		res, err = ix.Sync(ctx, bar)
		a.progressDone()
		if err != nil {
			return err
		}
	}
	for _, p := range res.Skipped {
		a.warn("skipped %s: %s", tildePath(p.Path), p.Err)
	}
	embedded := 0
	if ix.Embedder != nil {
		embedded, err = ix.EmbedMissing(ctx, a.progress("embed", "chunks"))
		a.progressDone()
		if err != nil {
			a.warn("%v; search uses BM25 and the phrase lane until the embedding server answers", err)
		}
	}
	st, err := ix.Stats(ctx)
	if err != nil {
		return err
	}
	out := indexJSON{Path: ix.Path(), Rebuilt: o.rebuild, Sync: res, Embedded: embedded, Stats: st, Seconds: time.Since(start).Seconds()}
	if a.json {
		return a.writeJSON(out)
	}
	fmt.Fprintf(a.io.Out, "[index] %s: %d added, %d updated, %d removed, %d unchanged, %d skipped\n",
		tildePath(ix.Path()), res.Added, res.Updated, res.Removed, res.Unchanged, len(res.Skipped))
	if ix.Embedder != nil {
		fmt.Fprintf(a.io.Out, "[index] %d chunk texts embedded with %s\n", embedded, ix.Embedder.Model())
	}
	fmt.Fprintf(a.io.Out, "[index] %d papers, %d chunks, %d embeddings (%.1f s)\n", st.Notes, st.Chunks, st.Embeddings, out.Seconds)
	if st.Edited > 0 {
		a.warn("%d chunk(s) edited by hand in their notes no longer match their text_sha256 and are not served", st.Edited)
		a.hint(render.Hint(hint.Action{Kind: hint.VerifyEdits}))
	}
	return nil
}

// syncedIndex opens the index and brings it up to date (a stat of every
// note; only changed notes are read), reporting skipped files.
func (a *app) syncedIndex(ctx context.Context) (*index.Index, error) {
	ix, err := a.index()
	if err != nil {
		return nil, err
	}
	res, err := ix.Sync(ctx, nil)
	if err != nil {
		return nil, err
	}
	if !a.json {
		for _, p := range res.Skipped {
			a.warn("skipped %s: %s", tildePath(p.Path), p.Err)
		}
	}
	return ix, nil
}
