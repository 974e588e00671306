package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/check"
	"github.com/crossmem/crossmem/internal/draft"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/render"
)

// checkOptions are check's arguments.
type checkOptions struct {
	app  *app
	path string // the draft
}

func newCheckCommand(a *app) *cobra.Command {
	o := &checkOptions{app: a}
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
			o.path = argv[0]
			return runCheck(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&a.json, "json", false, "print the report as one JSON object")
	return cmd
}

func runCheck(ctx context.Context, o *checkOptions) error {
	a := o.app
	text, err := os.ReadFile(o.path)
	if err != nil {
		return fmt.Errorf("read draft: %w", err)
	}
	d := draft.Scan(o.path, text)
	ix, err := a.syncedIndex(ctx)
	if err != nil {
		return err
	}
	c, err := a.citer()
	if err != nil {
		return err
	}
	ck := &check.Checker{Index: ix, Citer: &c}
	rep, err := ck.Draft(ctx, d)
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
			a.notice("%s (read as %s) has no quotations and no citations", o.path, d.Kind)
		}
		if rep.Counts.Citations[check.CiteUnknown] > 0 {
			a.hint(render.Hint(hint.Action{Kind: hint.CaptureOrImport}))
		}
	}
	if !rep.OK {
		return exitError{ExitError}
	}
	return nil
}
