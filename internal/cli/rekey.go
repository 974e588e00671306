package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/compile"
	"github.com/crossmem/crossmem/internal/library"
)

// rekeyJSON is rekey's --json output.
type rekeyJSON struct {
	CiteKey string   `json:"cite_key"`
	Aliases []string `json:"aliases"`
	Note    string   `json:"note,omitempty"` // the rewritten note, if the paper is compiled
}

func newRekeyCommand(a *app) *cobra.Command {
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
			return runRekey(cmd, a, argv[0], argv[1])
		},
	}
	cmd.Flags().BoolVar(&a.json, "json", false, "print one JSON object instead of text")
	return cmd
}

func runRekey(cmd *cobra.Command, a *app, old, new string) error {
	lib, err := a.library()
	if err != nil {
		return err
	}
	if err := library.ValidKey(new); err != nil {
		return usageError{fmt.Errorf("new cite key: %w", err)}
	}
	c, err := a.citer()
	if err != nil {
		return err
	}
	p, notePath, err := compile.Rekey(cmd.Context(), lib, old, new, c)
	if err != nil {
		if errors.Is(err, library.ErrNotFound) {
			return fmt.Errorf("%w\ncrossmem: hint: name the paper by its current cite key", err)
		}
		return err
	}
	if notePath != "" {
		// The note moved from <stamp>_<old>.md: the old name leaves the index.
		a.indexNotes(cmd.Context(), filepath.Join(filepath.Dir(notePath), p.Stamp+"_"+old+".md"), notePath)
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
