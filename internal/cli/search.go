package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/mcpserver"
	"github.com/crossmem/crossmem/internal/search"
	"github.com/crossmem/crossmem/internal/wiki"
)

type searchJSON struct {
	Query   string       `json:"query"`
	Results []search.Hit `json:"results"`
}

func newSearchCommand(a *app) *cobra.Command {
	var limit int
	cmd := &cobra.Command{
		Use:   "search <query>",
		Short: "Search the wiki (the CLI face of the crossmem_recall MCP tool)",
		Long: `Search the compiled wiki notes for chunks matching the query and print the
best matches with cite key, title, page and section, an excerpt of at most 400
characters and a file:// link to the note. Same results as crossmem_recall.

Exit status: 0 (also when nothing matches), 1 error, 2 usage error.`,
		Args: args(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			lib, err := a.library()
			if err != nil {
				return err
			}
			q := strings.Join(argv, " ")
			s := &search.Scan{Store: wiki.NewStore(lib.WikiDir())}
			hits, err := s.Search(cmd.Context(), search.Query{Text: q, Limit: limit})
			if err != nil {
				return err
			}
			if a.json {
				if hits == nil {
					hits = []search.Hit{}
				}
				return a.writeJSON(searchJSON{Query: q, Results: hits})
			}
			fmt.Fprintln(a.io.Out, mcpserver.FormatHits(q, hits))
			return nil
		},
	}
	cmd.Flags().IntVarP(&limit, "limit", "n", search.DefaultLimit, fmt.Sprintf("maximum number of results (capped at %d)", search.MaxLimit))
	cmd.Flags().BoolVar(&a.json, "json", false, "print one JSON object instead of text")
	return cmd
}
