package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/citekey"
	"github.com/crossmem/crossmem/internal/compile"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/library"
)

// rekeyJSON is rekey's --json output.
type rekeyJSON struct {
	CiteKey string   `json:"cite_key"`
	Aliases []string `json:"aliases"`
	Note    string   `json:"note,omitempty"` // the rewritten note, if the paper is compiled
}

// rekeyOptions are rekey's arguments.
type rekeyOptions struct {
	app      *app
	old, new string // the paper's key (or alias) and its new cite key
}

func newRekeyCommand(a *app) *cobra.Command {
	o := &rekeyOptions{app: a}
	cmd := &cobra.Command{
		Use:   "rekey <cite_key> <new_cite_key>",
		Short: "Rename a paper's cite key, keeping the old key as an alias",
		Long: `Give a paper a new cite key. Cite keys never change on their own (not when
metadata is refreshed, not when the [cite_key] pattern changes); this is the only
way to rename one. The paper's files move to the new key, its wiki note's
frontmatter and citations are rewritten (the chunks are untouched, so verify
still passes), and the old key stays an alias: cite, search/recall, verify, bib
and drafts that cite the old key still find the paper, and no other paper can
take it.

Exit status: 0 renamed, 1 error (unknown key, new key taken or invalid), 2 usage error.`,
		Args: args(cobra.ExactArgs(2)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			o.old, o.new = argv[0], argv[1]
			return runRekey(cmd.Context(), o)
		},
	}
	a.addJSONFlag(cmd)
	cmd.ValidArgsFunction = completeKeys(a)
	return cmd
}

func runRekey(ctx context.Context, o *rekeyOptions) error {
	a, old, new := o.app, o.old, o.new
	lib, err := a.library()
	if err != nil {
		return err
	}
	c, err := a.citer()
	if err != nil {
		return err
	}
	p, notePath, err := compile.Rekey(ctx, lib, old, new, c)
	switch {
	case errors.Is(err, citekey.ErrInvalid):
		return usageError{fmt.Errorf("new cite key: %w", err)}
	case errors.Is(err, library.ErrNotFound):
		return hint.Wrap(err, hint.Action{Kind: hint.CurrentKey})
	case err != nil:
		return err
	}
	if notePath != "" {
		// The note moved from <stamp>_<old>.md: the old name leaves the index.
		a.indexNotes(ctx, filepath.Join(filepath.Dir(notePath), p.Stamp+"_"+old+".md"), notePath)
	}
	if a.json {
		return a.writeJSON(rekeyJSON{CiteKey: p.CiteKey, Aliases: p.Aliases, Note: notePath})
	}
	fmt.Fprintf(a.io.Out, "[rekey] %s → %s (aliases: %s)\n", old, p.CiteKey, strings.Join(p.Aliases, ", "))
	if notePath != "" {
		fmt.Fprintf(a.io.Out, "[rekey] note updated: %s\n", tildePath(notePath))
	}
	fmt.Fprintf(a.io.Out, "cite_key: %s\n", p.CiteKey)
	return nil
}
