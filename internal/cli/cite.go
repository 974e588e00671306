package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/citation"
	"github.com/crossmem/crossmem/internal/render"
)

// citeOptions are cite's arguments and flags.
type citeOptions struct {
	app    *app
	key    string // the key asked for (a cite key or an alias)
	format string
}

func newCiteCommand(a *app) *cobra.Command {
	o := &citeOptions{app: a}
	cmd := &cobra.Command{
		Use:   "cite <cite_key>",
		Short: "Print a paper's citation in a style or export format (the CLI face of crossmem_cite)",
		Long: `Print the citation of <cite_key> (or of a paper that has it as an alias) in the
requested format, rendered from the library's reconciled metadata by the same
formatters that write the wiki notes' Citations sections and answer the
crossmem_cite MCP tool. Works for imported entries without a PDF too. Unknown
keys print the closest cite keys in the library.

Formats:
  bibtex                  BibTeX entry (default)
  biblatex                BibLaTeX entry (biber)
  csl-json                CSL-JSON item (pandoc, Zotero, any CSL processor)
  apa                     APA 7th edition
  mla                     MLA 9th edition
  chicago                 Chicago notes-bibliography, bibliography entry
  chicago-author-date     Chicago author-date, reference-list entry
  chicago-17, chicago-author-date-17
                          the 17th edition explicitly ("chicago" and
                          "chicago-author-date" follow [citation] chicago_edition,
                          default 18)
  ieee                    IEEE

Exit status: 0 printed, 1 unknown key or nothing to cite, 2 usage error.`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			o.key = argv[0]
			return runCite(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVarP(&o.format, "format", "f", "bibtex", "citation format: "+render.StyleNames())
	a.addJSONFlag(cmd)
	cmd.ValidArgsFunction = completeKeys(a)
	cmd.RegisterFlagCompletionFunc("format", completeStyles)
	return cmd
}

func runCite(_ context.Context, o *citeOptions) error {
	a := o.app
	st, err := citation.ParseStyle(o.format)
	if err != nil {
		return usageError{err}
	}
	c, err := a.citer()
	if err != nil {
		return err
	}
	ci, err := c.Cite(o.key, st)
	if err != nil {
		return err
	}
	out := render.Cite(ci)
	if a.json {
		return a.writeJSON(out)
	}
	fmt.Fprintln(a.io.Out, strings.TrimRight(out.Citation, "\n"))
	if out.Key != out.CiteKey {
		a.notice("%s is an alias of %s (renamed with crossmem rekey)", out.Key, out.CiteKey)
	}
	return nil
}
