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
	app    *app
	path   string // the draft
	strict bool   // metadata warnings fail the check
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
  "% crossmem: <key> <chunk_id> sha256=<hex>" provenance comment; or an
  author-year reference such as (Lo et al., 2020, p. 4970), also split
  around the quotation: Lo et al. write "..." (2020, p. 4970)):
    verified       the source's words exactly (white space aside, line-end
                   hyphens read joined or kept);
    repaired       matches after normalizing ligatures, hyphenation, quotes,
                   dashes or case: the source's words are shown, paste them;
    wrong-page     in the cited paper, but not on the page its locator names
                   (\cite[p.~11]{key}, [@key, p. 11]): the right page is shown;
    misattributed  in another paper of the library, which is named;
    unverified     in no paper: the three nearest passages are shown; text
                   edited by hand in a note is never a source;
    too-short      fewer than 3 words: not checked;
- every cited key: ok, unknown (with "Did you mean" suggestions) or
  metadata-warning (the library record carries reconciliation warnings, e.g.
  "captured offline"; reported, and failing only with --strict).

The report groups quotations and keys by status, with line numbers. The search
index is brought up to date first. A PDF or other binary file is refused.
Normalization and the hyphenation policy are documented in
docs/verification.md.

Exit status: 0 no quotation unverified, misattributed or on the wrong page and
no unknown key (with --strict: and no metadata warning), 1 otherwise or error,
2 usage error (also a draft that is not text).`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			o.path = argv[0]
			return runCheck(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&a.json, "json", false, "print the report as one JSON object")
	cmd.Flags().BoolVar(&o.strict, "strict", false, "fail on metadata warnings too (an offline capture carries one until crossmem refresh)")
	return cmd
}

func runCheck(ctx context.Context, o *checkOptions) error {
	a := o.app
	text, err := os.ReadFile(o.path)
	if err != nil {
		return fmt.Errorf("read draft: %w", err)
	}
	if err := draft.CheckText(o.path, text); err != nil {
		return usageError{err}
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
	ck := &check.Checker{Index: ix, Citer: &c, ViewerBase: a.viewerBase()}
	rep, err := ck.Draft(ctx, d, check.DraftOptions{Strict: o.strict})
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
