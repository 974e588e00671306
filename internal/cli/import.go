package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/capture"
	"github.com/crossmem/crossmem/internal/compile"
	"github.com/crossmem/crossmem/internal/hint"
)

// importJSON is import's --json output.
type importJSON struct {
	File    string                  `json:"file"`
	Format  string                  `json:"format"`
	DryRun  bool                    `json:"dry_run"`
	Entries []capture.ImportOutcome `json:"entries"`
	Added   int                     `json:"added"`
}

// importOptions are import's arguments and flags.
type importOptions struct {
	app    *app
	file   string // a BibTeX, BibLaTeX or CSL-JSON file, "-" for stdin
	dryRun bool
}

func newImportCommand(a *app) *cobra.Command {
	o := &importOptions{app: a}
	cmd := &cobra.Command{
		Use:   "import <file.bib|file.json|->",
		Short: "Add metadata-only entries from a BibTeX, BibLaTeX or CSL-JSON file",
		Long: `Add the works of a BibTeX / BibLaTeX file or a CSL-JSON array (e.g. a Zotero
or Better BibTeX export) to the library as entries without a PDF. Their cite keys
are kept and pinned; an entry without a key gets one from the [cite_key]
pattern. A work the library already has under another key gets the file's key
as an alias. "-" reads standard input.

Attach a PDF later with:  crossmem capture paper.pdf --cite-key <key>

The import is all or nothing: on a malformed entry or a key conflict, every
problem is listed with its line and nothing is imported.

Exit status: 0 imported (or nothing to do), 1 error, 2 usage error.`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			o.file = argv[0]
			a.createHome = true
			return runImport(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.dryRun, "dry-run", false, "check the file and show what would be imported, write nothing")
	a.addJSONFlag(cmd)
	return cmd
}

func runImport(ctx context.Context, o *importOptions) error {
	a, file, dryRun := o.app, o.file, o.dryRun
	var data []byte
	var err error
	if file == "-" {
		data, err = io.ReadAll(a.io.In)
	} else {
		data, err = os.ReadFile(file)
	}
	if err != nil {
		return fmt.Errorf("read import file: %w", err)
	}
	entries, format, err := capture.ParseImport(file, data)
	if err != nil {
		return hint.Wrap(fmt.Errorf("%w; nothing was imported", err), hint.Action{Kind: hint.FixImportFile})
	}
	cfg, err := a.config()
	if err != nil {
		return err
	}
	lib, err := a.library()
	if err != nil {
		return err
	}
	out, err := capture.Import(ctx, lib, entries, capture.ImportOptions{File: file, Pattern: cfg.Pattern, DryRun: dryRun})
	if err != nil {
		return err
	}
	added := 0
	for _, o := range out {
		if o.Status == capture.ImportAdded {
			added++
		}
	}
	if !dryRun {
		if err := updateNotes(ctx, a, out); err != nil {
			return err
		}
	}
	if a.json {
		if out == nil {
			out = []capture.ImportOutcome{}
		}
		return a.writeJSON(importJSON{File: file, Format: format, DryRun: dryRun, Entries: out, Added: added})
	}
	verb := "imported"
	if dryRun {
		verb = "would import"
	}
	for _, o := range out {
		line := fmt.Sprintf("[import] line %d: %s %s", o.Line, o.Status, o.CiteKey)
		switch {
		case o.Note != "":
			line += " (" + o.Note + ")"
		case o.FileKey != "" && o.FileKey != o.CiteKey:
			line += " (the file's key " + o.FileKey + ")"
		}
		fmt.Fprintln(a.io.Out, line)
		for _, w := range o.Warnings {
			a.warn("%s:%d: %s", file, o.Line, w)
		}
	}
	fmt.Fprintln(a.io.Out, importSummary(verb, added, out, file, format))
	return nil
}

// importSummary is import's last line: how many entries were added, what
// became of the others, and, when any was added, how to attach its PDF (an
// entry that updated or matched a captured paper has one already).
func importSummary(verb string, added int, out []capture.ImportOutcome, file, format string) string {
	count := map[string]int{}
	for _, o := range out {
		count[o.Status]++
	}
	line := fmt.Sprintf("[import] %s %d of %d entries from %s (%s)", verb, added, len(out), file, format)
	var rest []string
	for _, st := range []struct{ status, words string }{
		{capture.ImportUpdated, "described a paper that had no title or author"},
		{capture.ImportAlias, "became an alias of a paper in the library"},
		{capture.ImportExists, "already in the library"},
	} {
		if n := count[st.status]; n > 0 {
			rest = append(rest, fmt.Sprintf("%d %s", n, st.words))
		}
	}
	if len(rest) > 0 {
		line += ": " + strings.Join(rest, ", ")
	}
	if added > 0 {
		line += "; attach PDFs with: crossmem capture <pdf> --cite-key <key>"
	}
	return line
}

// updateNotes rewrites the notes of compiled papers whose metadata or
// aliases the import changed.
func updateNotes(ctx context.Context, a *app, out []capture.ImportOutcome) error {
	lib, err := a.library()
	if err != nil {
		return err
	}
	c, err := a.citer()
	if err != nil {
		return err
	}
	done := map[string]bool{}
	for _, o := range out {
		if (o.Status != capture.ImportUpdated && o.Status != capture.ImportAlias) || done[o.CiteKey] {
			continue
		}
		done[o.CiteKey] = true
		p, err := lib.Find(o.CiteKey)
		if err != nil || !p.HasNote() {
			continue
		}
		path, err := compile.UpdateNote(ctx, lib, p.CiteKey, c)
		if err != nil {
			return hint.Wrap(fmt.Errorf("imported, but updating the note of %s failed: %w", p.CiteKey, err), hint.Action{Kind: hint.Compile, Key: p.CiteKey})
		}
		a.indexNotes(ctx, path)
	}
	return nil
}
