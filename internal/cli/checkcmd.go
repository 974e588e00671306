package cli

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/check"
	"github.com/crossmem/crossmem/internal/draft"
	"github.com/crossmem/crossmem/internal/render"
)

func newCheckCommand(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "check <draft.tex|draft.md|draft.txt>",
		Short: "Check a draft's quotations and cite keys against the library",
		Long: `Read a LaTeX or pandoc markdown draft and check what it claims about the
library:

- every quotation (quote, quotation and displayquote environments, \enquote,
  \textquote, \blockquote, ` + "``...''" + ` and "..." spans of six words or more or
  followed by a citation, markdown > blockquotes) against the paper it cites
  (the nearest citation in the same sentence, else paragraph; or the
  "% crossmem: <key> <chunk_id> sha256=<hex>" provenance comment):
    verified       the source's words exactly (white space aside);
    repaired       matches after normalizing ligatures, hyphenation, quotes,
                   dashes or case: the source's own text is shown, paste it;
    misattributed  in another paper of the library, which is named;
    unverified     in no paper: the three nearest passages are shown;
- every cited key: ok, unknown (with "Did you mean" suggestions) or
  metadata-warning (the library record carries reconciliation warnings).

The report groups quotations and keys by status, with line numbers. The search
index is brought up to date first. Normalization is documented in
docs/verification.md.

Exit status: 0 every quotation verified or repaired and every key ok,
1 anything else or error, 2 usage error.`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			text, err := os.ReadFile(argv[0])
			if err != nil {
				return fmt.Errorf("read draft: %w", err)
			}
			d := draft.Scan(argv[0], text)
			ix, err := a.syncedIndex(cmd)
			if err != nil {
				return err
			}
			c, err := a.citer()
			if err != nil {
				return err
			}
			ck := &check.Checker{Index: ix, Citer: &c}
			rep, err := ck.Draft(cmd.Context(), d)
			if err != nil {
				return err
			}
			if a.json {
				if err := a.writeJSON(rep); err != nil {
					return err
				}
			} else {
				fmt.Fprint(a.io.Out, render.Report(rep))
				if len(d.Quotations) == 0 && len(d.Citations) == 0 {
					fmt.Fprintf(a.io.Err, "crossmem: notice: %s (read as %s) has no quotations and no citations\n", argv[0], d.Kind)
				}
			}
			if !rep.OK {
				return exitError{ExitError}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&a.json, "json", false, "print the report as one JSON object")
	return cmd
}
