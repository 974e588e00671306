package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/capture"
	"github.com/crossmem/crossmem/internal/compile"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/metadata/sources"
)

// refreshJSON is refresh's --json output.
type refreshJSON struct {
	CiteKey   string                  `json:"cite_key"`
	Changes   []string                `json:"changes"`
	Note      string                  `json:"note,omitempty"` // the updated note, if the paper is compiled
	Metadata  metadata.Record         `json:"metadata"`
	Consulted []metadata.Consultation `json:"consulted"`
}

// refreshOptions are refresh's arguments.
type refreshOptions struct {
	app *app
	key string // a cite key or alias
}

func newRefreshCommand(a *app) *cobra.Command {
	o := &refreshOptions{app: a}
	cmd := &cobra.Command{
		Use:   "refresh <cite_key>",
		Short: "Fetch and reconcile a captured paper's metadata again (no PDF download)",
		Long: `Ask the metadata sources (arXiv, Crossref, OpenAlex, DataCite, Unpaywall)
about a captured paper again, bypassing the response cache, re-reconcile the
answers and update its sidecar; when the paper is compiled, the note's
frontmatter and citations are updated too (its chunks are not touched). The PDF
is not downloaded again and the cite key never changes.

Exit status: 0 refreshed, 1 error (nothing is written when the sources cannot
be reached or do not know the paper), 2 usage error.`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			o.key = argv[0]
			return runRefresh(cmd.Context(), o)
		},
	}
	a.addJSONFlag(cmd)
	return cmd
}

func runRefresh(ctx context.Context, o *refreshOptions) error {
	a := o.app
	lib, err := a.library()
	if err != nil {
		return err
	}
	hc, err := a.httpClient(true)
	if err != nil {
		return err
	}
	sc := a.sourcesConfig(hc)
	res, err := capture.Refresh(ctx, lib, o.key, capture.Options{Sources: sources.New(sc)})
	if err != nil {
		return err
	}
	notePath := ""
	if res.Paper.HasNote() {
		c, err := a.citer()
		if err != nil {
			return err
		}
		if notePath, err = compile.UpdateNote(ctx, lib, res.Paper.CiteKey, c); err != nil {
			return hint.Wrap(fmt.Errorf("metadata refreshed, but updating the note failed: %w", err), hint.Action{Kind: hint.Compile, Key: res.Paper.CiteKey})
		}
		a.indexNotes(ctx, notePath)
	}
	if a.json {
		out := refreshJSON{CiteKey: res.Paper.CiteKey, Changes: res.Changes, Note: notePath, Metadata: res.Paper.Metadata, Consulted: res.Consulted}
		if out.Changes == nil {
			out.Changes = []string{}
		}
		return a.writeJSON(out)
	}
	for _, c := range res.Consulted {
		fmt.Fprintf(a.io.Out, "[refresh] %s %s: %s\n", c.Source, c.Query, c.Outcome)
	}
	if len(res.Changes) == 0 {
		fmt.Fprintln(a.io.Out, "[refresh] no changes")
	}
	for _, c := range res.Changes {
		fmt.Fprintf(a.io.Out, "[refresh] %s\n", c)
	}
	for _, w := range res.Paper.Metadata.Warnings {
		a.warn("%s", w)
	}
	if notePath != "" {
		fmt.Fprintf(a.io.Out, "[refresh] note updated: %s\n", tildePath(notePath))
	}
	fmt.Fprintf(a.io.Out, "cite_key: %s\n", res.Paper.CiteKey)
	return nil
}
