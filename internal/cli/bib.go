package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/citation"
	"github.com/crossmem/crossmem/internal/cite"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/render"
)

// bibUnknown is one unknown key in bib's --json output.
type bibUnknown struct {
	Key         string            `json:"key"`
	File        string            `json:"file,omitempty"` // the draft citing it ("" for a key argument)
	Line        int               `json:"line,omitempty"`
	Suggestions []cite.Suggestion `json:"suggestions"`
}

// bibJSON is bib's --json output.
type bibJSON struct {
	Output  string       `json:"output,omitempty"` // the file written ("" = stdout)
	Format  string       `json:"format"`
	Keys    []string     `json:"keys"`    // every key cited, in order of first citation
	Entries int          `json:"entries"` // entries written
	Unknown []bibUnknown `json:"unknown"`
	// Bibliography is the text written, when it went to stdout.
	Bibliography string `json:"bibliography,omitempty"`
}

// bibOptions are bib's arguments and flags.
type bibOptions struct {
	app    *app
	args   []string // drafts and cite keys
	output string   // -o ("" = stdout)
	format string
	// formatGiven: --format was passed (else a .json output means CSL-JSON).
	formatGiven bool
}

// style resolves the bibliography format: --format, else CSL-JSON for a
// .json output, else BibTeX.
func (o *bibOptions) style() (citation.Style, error) {
	format := o.format
	if !o.formatGiven && strings.EqualFold(filepath.Ext(o.output), ".json") {
		format = string(citation.CSLJSON)
	}
	st, err := citation.ParseStyle(format)
	if err != nil || (st != citation.BibTeX && st != citation.BibLaTeX && st != citation.CSLJSON) {
		return "", usageError{fmt.Errorf("unknown bibliography format %q: use bibtex, biblatex or csl-json", format)}
	}
	return st, nil
}

func newBibCommand(a *app) *cobra.Command {
	o := &bibOptions{app: a}
	cmd := &cobra.Command{
		Use:   "bib <draft.tex|draft.md|cite_key>... [-o refs.bib]",
		Short: "Write the bibliography (.bib or CSL-JSON) of every key a draft cites",
		Long: `Collect every cite key cited in LaTeX drafts (\cite, \citep, \citet, \autocite,
\parencite, \textcite, \footcite, \nocite, ... with optional arguments and comma
lists) or pandoc markdown drafts ([@key], [see @a; @b], @key), and/or given as
arguments, and write one entry per key from the library: to -o, or to stdout.
An argument that names an existing file is read as a draft; any other argument
is a cite key. Aliases (crossmem rekey, imported DBLP keys) resolve, and the
entry keeps the key as cited so the draft compiles.

Unknown keys are listed on stderr with "Did you mean" suggestions and make the
exit status 1; the entries of the known keys are still written.

Formats: bibtex (default), biblatex, csl-json (default when -o ends in .json).

Exit status: 0 every key known, 1 unknown keys or error, 2 usage error.`,
		Args: args(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			o.args, o.formatGiven = argv, cmd.Flags().Changed("format")
			return runBib(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVarP(&o.output, "output", "o", "", "write the bibliography to this file (atomically) instead of stdout")
	cmd.Flags().StringVarP(&o.format, "format", "f", "bibtex", "bibtex, biblatex or csl-json")
	a.addJSONFlag(cmd)
	return cmd
}

func runBib(_ context.Context, o *bibOptions) error {
	a := o.app
	st, err := o.style()
	if err != nil {
		return err
	}
	cited, drafts, err := cite.CollectKeys(o.args)
	if err != nil {
		return err
	}
	if !a.json {
		for _, d := range drafts {
			if len(d.Citations) == 0 {
				a.notice("%s (read as %s) cites no keys", d.Name, d.Kind)
			}
		}
	}
	keys := make([]string, len(cited))
	for i, c := range cited {
		keys[i] = c.Key
	}
	c, err := a.citer()
	if err != nil {
		return err
	}
	text, missing, err := c.Bibliography(keys, st)
	if err != nil {
		return err
	}
	if o.output != "" {
		if err := library.WriteFileAtomic(o.output, []byte(text), 0o644); err != nil {
			return fmt.Errorf("write %s: %w", o.output, err)
		}
	}
	out := bibResult(o, st, cited, missing)
	if a.json {
		if o.output == "" {
			out.Bibliography = text
		}
		if err := a.writeJSON(out); err != nil {
			return err
		}
	} else {
		if o.output == "" {
			fmt.Fprint(a.io.Out, text)
		}
		printBibProblems(a, o, out)
	}
	if len(missing) > 0 {
		return exitError{ExitError}
	}
	return nil
}

// bibResult is bib's --json output for the keys cited and those missing.
func bibResult(o *bibOptions, st citation.Style, cited []cite.Cited, missing []*cite.NotFoundError) bibJSON {
	out := bibJSON{Output: o.output, Format: string(st), Keys: []string{}, Entries: len(cited) - len(missing), Unknown: []bibUnknown{}}
	where := map[string]cite.Cited{}
	for _, c := range cited {
		out.Keys = append(out.Keys, c.Key)
		where[c.Key] = c
	}
	for _, m := range missing {
		s := where[m.Key]
		u := bibUnknown{Key: m.Key, File: s.File, Line: s.Line, Suggestions: m.Suggestions}
		if u.Suggestions == nil {
			u.Suggestions = []cite.Suggestion{}
		}
		out.Unknown = append(out.Unknown, u)
	}
	return out
}

// printBibProblems lists the unknown keys with their suggestions on
// stderr, and what was written.
func printBibProblems(a *app, o *bibOptions, out bibJSON) {
	for _, u := range out.Unknown {
		at := ""
		if u.File != "" {
			at = fmt.Sprintf(" (%s:%d)", u.File, u.Line)
		}
		fmt.Fprintf(a.io.Err, "crossmem: unknown cite key '%s'%s. %s\n", u.Key, at, render.DidYouMean(u.Suggestions, ""))
	}
	if o.output != "" {
		fmt.Fprintf(a.io.Err, "crossmem: wrote %d of %d entries to %s\n", out.Entries, len(out.Keys), o.output)
	}
	if len(out.Unknown) > 0 {
		a.hint(render.Hint(hint.Action{Kind: hint.CaptureOrImport}))
	}
}
