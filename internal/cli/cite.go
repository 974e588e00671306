package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/mcpserver"
	"github.com/crossmem/crossmem/internal/wiki"
)

func newCiteCommand(a *app) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "cite <cite_key>",
		Short: "Print a citation from the wiki note (the CLI face of crossmem_cite)",
		Long: `Print the citation of <cite_key> in the requested format, read from the
Citations section of its wiki note. Same result as the crossmem_cite MCP tool.
Unknown keys print the closest cite keys in the library.

Formats: bibtex (default), apa, mla, chicago, ieee.

Exit status: 0 printed, 1 unknown key or missing format, 2 usage error.`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			heading, ok := mcpserver.Heading(format)
			if !ok {
				return usageError{fmt.Errorf("unknown format %q: use one of %s", format, mcpserver.FormatNames())}
			}
			lib, err := a.library()
			if err != nil {
				return err
			}
			text, err := wiki.NewStore(lib.WikiDir()).Cite(argv[0], heading)
			if err != nil {
				return err
			}
			if a.json {
				return a.writeJSON(mcpserver.CiteOutput{CiteKey: argv[0], Format: format, Citation: text})
			}
			fmt.Fprintln(a.io.Out, text)
			return nil
		},
	}
	cmd.Flags().StringVarP(&format, "format", "f", "bibtex", "citation format: "+mcpserver.FormatNames())
	cmd.Flags().BoolVar(&a.json, "json", false, "print one JSON object instead of text")
	return cmd
}
