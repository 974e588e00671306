package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/catalog"
	"github.com/crossmem/crossmem/internal/render"
)

// listOptions are list's arguments and flags.
type listOptions struct {
	app   *app
	query catalog.Query // Text from the arguments
	years string        // --year, parsed into query.YearFrom and YearTo
}

func newListCommand(a *app) *cobra.Command {
	o := &listOptions{app: a}
	cmd := &cobra.Command{
		Use:   "list [<text>]",
		Short: "List the papers in the library, filtered (the CLI face of crossmem_list)",
		Long: `List the library's papers, sorted by cite key: cite key, year, authors, title,
and state: compiled (a note: searchable, quotable text, with its chunk count
and chunks edited by hand), captured (a PDF, not compiled yet) or metadata-only
(imported without a PDF); metadata warnings and aliases.

<text> keeps papers whose cite key, alias, title or an author contains it
(case-insensitive); the flags filter further.

Exit status: 0 (also when nothing matches), 1 error, 2 usage error.`,
		Args: args(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			if len(argv) == 1 {
				o.query.Text = argv[0]
			}
			return runList(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.query.Author, "author", "", "only papers with an author whose name contains this")
	f.StringVar(&o.years, "year", "", "only papers of these years: 2017, 2015-2019, 2015-, -2019")
	f.StringVar(&o.query.State, "state", "", "only papers in this state: "+strings.Join(catalog.States, ", "))
	f.BoolVar(&o.query.Warnings, "warnings", false, "only papers whose metadata carries warnings, each warning printed")
	f.IntVarP(&o.query.Limit, "limit", "n", 0, "at most this many papers (0: all)")
	a.addJSONFlag(cmd)
	cmd.RegisterFlagCompletionFunc("state", cobra.FixedCompletions(catalog.States, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func runList(ctx context.Context, o *listOptions) error {
	a, q := o.app, o.query
	if o.years != "" {
		from, to, err := parseYears(o.years)
		if err != nil {
			return usageError{err}
		}
		q.YearFrom, q.YearTo = from, to
	}
	if err := q.Check(); err != nil {
		return usageError{err}
	}
	lib, err := a.library()
	if err != nil {
		return err
	}
	ix, err := a.syncedIndex(ctx)
	if err != nil {
		return err
	}
	r, err := catalog.List(ctx, lib, ix, q)
	if err != nil {
		return err
	}
	if !a.json {
		for _, u := range r.Unreadable {
			a.warn("%s", u)
		}
	}
	if a.json {
		return a.writeJSON(r)
	}
	fmt.Fprintln(a.io.Out, render.List(r, q.Warnings))
	return nil
}
