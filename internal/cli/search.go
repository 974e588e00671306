package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/index"
	"github.com/crossmem/crossmem/internal/render"
	"github.com/crossmem/crossmem/internal/search"
)

// searchOptions are search's arguments and flags.
type searchOptions struct {
	app   *app
	query search.Query // Text from the arguments, filters from the flags
	years string       // --year, parsed into query.YearFrom and YearTo
}

func newSearchCommand(a *app) *cobra.Command {
	o := &searchOptions{app: a}
	cmd := &cobra.Command{
		Use:   "search <query>",
		Short: "Search the wiki (the CLI face of the crossmem_recall MCP tool)",
		Long: `Search the library's chunks and print the best matches with cite key, title,
page and section, an excerpt of at most 400 characters and a file:// link to the
note. Same results as crossmem_recall.

Ranking: a chunk that contains the query verbatim (a quoted query, or any query
of four words or more; compared after quote normalization: white space,
ligatures, line-end hyphens, quotes and dashes) comes first, then BM25 over the
query's words; with [search] embeddings = "ollama" a vector lane is fused in by
reciprocal rank fusion. A trailing * matches word prefixes (att*). --explain
shows each lane's rank and score.

The search index is brought up to date first (only notes whose files changed
are read).

Exit status: 0 (also when nothing matches), 1 error, 2 usage error.`,
		Args: args(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			o.query.Text = strings.Join(argv, " ")
			return runSearch(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	q := &o.query
	f.IntVarP(&q.Limit, "limit", "n", search.DefaultLimit, fmt.Sprintf("maximum number of results (capped at %d)", search.MaxLimit))
	f.StringVar(&q.Key, "cite-key", "", "only this paper (cite key or alias)")
	f.StringVar(&q.Author, "author", "", "only papers with an author whose name contains this")
	f.StringVar(&o.years, "year", "", "only papers of these years: 2017, 2015-2019, 2015-, -2019")
	f.StringVar(&q.Section, "section", "", "only chunks whose section heading contains this")
	f.StringVar(&q.Type, "type", "", "only chunks of this type (paragraph, heading, list_item, reference, page_header, ...)")
	f.BoolVar(&q.Furniture, "furniture", false, "include page furniture (running heads, page numbers, margin stamps)")
	f.BoolVar(&q.Explain, "explain", false, "show each result's BM25, vector and phrase-lane ranks and scores")
	a.addJSONFlag(cmd)
	return cmd
}

func runSearch(ctx context.Context, o *searchOptions) error {
	a, q := o.app, o.query
	if o.years != "" {
		from, to, err := parseYears(o.years)
		if err != nil {
			return usageError{err}
		}
		q.YearFrom, q.YearTo = from, to
	}
	ix, err := a.syncedIndex(ctx)
	if err != nil {
		return err
	}
	res, err := search.Viewer{Searcher: ix, Base: a.viewerBase()}.Search(ctx, q)
	var uk *index.UnknownKeyError
	if errors.As(err, &uk) {
		c, cerr := a.citer()
		if cerr != nil {
			return cerr
		}
		err = c.NotCompiled(uk.Key)
	}
	if err != nil {
		return err
	}
	if a.json {
		return a.writeJSON(render.Recall(q.Text, res))
	}
	fmt.Fprintln(a.io.Out, render.SearchText(q.Text, res, q.Explain))
	return nil
}

// parseYears reads --year: "2017", "2015-2019", "2015-" or "-2019".
func parseYears(s string) (int, int, error) {
	from, to, err := search.ParseYears(s)
	if err != nil {
		return 0, 0, fmt.Errorf("--year %w", err)
	}
	return from, to, nil
}
