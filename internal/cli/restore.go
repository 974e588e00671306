package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/library"
)

// restoreOptions are restore's arguments.
type restoreOptions struct {
	app *app
	ids []string // cite keys or trash folder names; none: list the trash
}

// restoreJSON is restore's --json output.
type restoreJSON struct {
	Restored []*library.Removal `json:"restored,omitempty"`
	// Trash is the trash's content, when restore lists it.
	Trash []*library.Removal `json:"trash,omitempty"`
}

func newRestoreCommand(a *app) *cobra.Command {
	o := &restoreOptions{app: a}
	cmd := &cobra.Command{
		Use:   "restore [<cite_key>|<trash_id>]...",
		Short: "Put papers removed with crossmem remove back, or list the trash",
		Long: `Without arguments, list the trash: each removal's id (<unix-ts>_<cite_key>),
cite key, title and time. With a cite key, put back its latest removal; with an
id, that removal. The sidecar goes back first, then the PDF and the note, and
the note is indexed again. A key or alias taken by a paper added since is an
error (rename that paper with crossmem rekey first).

Exit status: 0 restored or listed, 1 not in the trash or error, 2 usage error.`,
		RunE: func(cmd *cobra.Command, argv []string) error {
			o.ids = argv
			return runRestore(cmd.Context(), o)
		},
	}
	a.addJSONFlag(cmd)
	cmd.ValidArgsFunction = func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		lib, err := a.library()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		rs, _ := lib.Trash()
		var out []string
		for _, r := range rs {
			for _, k := range []string{r.CiteKey, r.ID} {
				if strings.HasPrefix(k, toComplete) {
					out = append(out, k+"\t"+r.Title)
				}
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
	return cmd
}

func runRestore(ctx context.Context, o *restoreOptions) error {
	a := o.app
	lib, err := a.library()
	if err != nil {
		return err
	}
	if len(o.ids) == 0 {
		rs, errs := lib.Trash()
		for _, err := range errs {
			a.warn("%v", err)
		}
		if a.json {
			return a.writeJSON(restoreJSON{Trash: append([]*library.Removal{}, rs...)})
		}
		if len(rs) == 0 {
			fmt.Fprintln(a.io.Out, "The trash is empty.")
			return nil
		}
		for _, r := range rs {
			fmt.Fprintf(a.io.Out, "%s  %s — %s (removed %s)\n", r.ID, r.CiteKey, r.Title, time.Unix(r.RemovedAt, 0).UTC().Format("2006-01-02 15:04 UTC"))
		}
		return nil
	}
	unlock, err := lib.Lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	out := restoreJSON{}
	for _, id := range o.ids {
		r, err := lib.Restore(id)
		if err != nil {
			return err
		}
		out.Restored = append(out.Restored, r)
		for _, f := range r.Files {
			if strings.HasPrefix(f, "wiki"+string(filepath.Separator)) {
				a.indexNotes(ctx, filepath.Join(lib.Home, f))
			}
		}
		if !a.json {
			fmt.Fprintf(a.io.Out, "[restore] %s: back in the library\n", r.CiteKey)
		}
	}
	if a.json {
		return a.writeJSON(out)
	}
	return nil
}
