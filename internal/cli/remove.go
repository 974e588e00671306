package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/render"
)

// removeOptions are remove's arguments.
type removeOptions struct {
	app  *app
	keys []string // cite keys or aliases
}

// removeJSON is remove's --json output.
type removeJSON struct {
	Removed []*library.Removal `json:"removed"`
}

func newRemoveCommand(a *app) *cobra.Command {
	o := &removeOptions{app: a}
	cmd := &cobra.Command{
		Use:   "remove <cite_key>...",
		Short: "Move papers to the library's trash (restorable with crossmem restore)",
		Long: `Move each paper — its raw PDF, its sidecar and its note — to
<home>/trash/<unix-ts>_<cite_key>/, and take it out of the search index. Its
cite key and aliases are free again. Nothing is deleted: crossmem restore puts
a removed paper back. The file a PDF was captured from (your copy) is never
touched: only the library's own copies move.

Exit status: 0 removed, 1 unknown key or error, 2 usage error.`,
		Args: args(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			o.keys = argv
			return runRemove(cmd.Context(), o)
		},
	}
	a.addJSONFlag(cmd)
	cmd.ValidArgsFunction = func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		return keyCompletions(a, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
	return cmd
}

func runRemove(ctx context.Context, o *removeOptions) error {
	a := o.app
	lib, err := a.library()
	if err != nil {
		return err
	}
	c, err := a.citer()
	if err != nil {
		return err
	}
	// Every key first: an unknown one removes nothing.
	for _, k := range o.keys {
		if _, err := c.Lookup(k); err != nil {
			return err
		}
	}
	unlock, err := lib.Lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	out := removeJSON{Removed: []*library.Removal{}}
	for _, k := range o.keys {
		r, err := lib.Remove(k)
		if err != nil {
			return err
		}
		out.Removed = append(out.Removed, r)
		for _, f := range r.Files {
			if strings.HasPrefix(f, "wiki"+string(filepath.Separator)) {
				a.unindexNote(ctx, filepath.Base(f))
			}
		}
		if !a.json {
			fmt.Fprintf(a.io.Out, "[remove] %s: moved to %s\n", r.CiteKey, tildePath(r.Dir))
		}
	}
	if a.json {
		return a.writeJSON(out)
	}
	a.hint(render.Hint(hint.Action{Kind: hint.ListTrash}))
	return nil
}

// unindexNote takes the note called name out of the search index; a
// failure is a warning (the next sync drops it anyway).
func (a *app) unindexNote(ctx context.Context, name string) {
	ix, err := a.index()
	if err == nil {
		err = ix.RemoveNote(ctx, name)
	}
	if err != nil {
		a.warn("the search index was not updated (%v)", err)
	}
}
