package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
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

// bibProblem is one key without an entry of its own in bib's --json
// output.
type bibProblem struct {
	Key  string `json:"key"`
	Kind string `json:"kind"` // unknown, no-metadata or same-work (cite.Problem*)
	// Message says what is wrong; Hint what to do.
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
	File    string `json:"file,omitempty"` // the draft citing it ("" for a key argument)
	Line    int    `json:"line,omitempty"`
	// Entry is, for same-work, the key whose entry the work has.
	Entry string `json:"entry,omitempty"`
}

// bibJSON is bib's --json output.
type bibJSON struct {
	Output  string       `json:"output,omitempty"` // the file written ("" = stdout)
	Format  string       `json:"format"`
	Keys    []string     `json:"keys"`    // every key cited, in order of first citation
	Entries int          `json:"entries"` // entries written
	Unknown []bibUnknown `json:"unknown"`
	// Problems are every key without an entry of its own: unknown keys,
	// papers without metadata, second keys of one work.
	Problems []bibProblem `json:"problems"`
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
	if err != nil {
		return "", usageError{fmt.Errorf("unknown bibliography format %q: use %s", format, render.StyleNames())}
	}
	return st, nil
}

func newBibCommand(a *app) *cobra.Command {
	o := &bibOptions{app: a}
	cmd := &cobra.Command{
		Use:   "bib <draft.tex|draft.md|cite_key>... [-o refs.bib]",
		Short: "Write the bibliography (.bib, CSL-JSON or a formatted reference list) of every key a draft cites",
		Long: `Collect every cite key cited in LaTeX drafts (\cite, \citep, \citet, \autocite,
\parencite, \textcite, \footcite, \nocite, ... with optional arguments and comma
lists) or pandoc markdown drafts ([@key], [see @a; @b], @key), and/or given as
arguments, and write one entry per key from the library: to -o, or to stdout.
An argument that names an existing file is read as a draft; any other argument
is a cite key. Aliases (crossmem rekey, imported DBLP keys) resolve, and the
entry keeps the key as cited so the draft compiles.

Every entry that can be written is written. Every problem is listed on stderr
in one run, and makes the exit status 1: unknown keys (with "Did you mean"
suggestions), papers without metadata (with how to describe them), and a work
cited under two keys (an alias and its cite key): it gets one entry, under the
key cited first; in BibLaTeX that entry's ids field lists the other keys, which
then resolve (not a problem).

Formats: bibtex (default), biblatex, csl-json (default when -o ends in .json);
or a citation style for a formatted reference list: apa, mla, chicago,
chicago-author-date (alphabetical), ieee (numbered in the order of first
citation); chicago-17 and chicago-author-date-17 for the 17th edition.

Exit status: 0 every key has its entry, 1 a problem above or an error, 2 usage
error.`,
		Args: args(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			o.args, o.formatGiven = argv, cmd.Flags().Changed("format")
			return runBib(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVarP(&o.output, "output", "o", "", "write the bibliography to this file (atomically) instead of stdout")
	cmd.Flags().StringVarP(&o.format, "format", "f", "bibtex", "bibtex, biblatex, csl-json, or a reference list: "+strings.Join(referenceStyles(), ", "))
	a.addJSONFlag(cmd)
	cmd.RegisterFlagCompletionFunc("format", completeStyles)
	cmd.ValidArgsFunction = func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		// Drafts (files) or keys.
		return keyCompletions(a, toComplete), cobra.ShellCompDirectiveDefault
	}
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
	bib, err := c.Bibliography(keys, st)
	if err != nil {
		return err
	}
	if o.output != "" {
		if err := library.WriteFileAtomic(o.output, []byte(bib.Text), 0o644); err != nil {
			return fmt.Errorf("write %s: %w", o.output, err)
		}
	}
	out := bibResult(o, st, cited, bib)
	if a.json {
		if o.output == "" {
			out.Bibliography = bib.Text
		}
		if err := a.writeJSON(out); err != nil {
			return err
		}
	} else {
		if o.output == "" {
			fmt.Fprint(a.io.Out, bib.Text)
		}
		printBibProblems(a, o, out)
	}
	if bib.Failed() {
		return exitError{ExitError}
	}
	return nil
}

// bibResult is bib's --json output for the keys cited and the
// bibliography.
func bibResult(o *bibOptions, st citation.Style, cited []cite.Cited, bib *cite.Bibliography) bibJSON {
	out := bibJSON{Output: o.output, Format: string(st), Keys: []string{}, Entries: len(bib.Entries), Unknown: []bibUnknown{}, Problems: []bibProblem{}}
	where := map[string]cite.Cited{}
	for _, c := range cited {
		out.Keys = append(out.Keys, c.Key)
		where[c.Key] = c
	}
	for _, p := range bib.Problems {
		s := where[p.Key]
		msg, next := render.Error(p.Err)
		out.Problems = append(out.Problems, bibProblem{Key: p.Key, Kind: p.Kind, Message: msg, Hint: next, File: s.File, Line: s.Line, Entry: p.Entry})
		if p.Kind != cite.ProblemUnknown {
			continue
		}
		u := bibUnknown{Key: p.Key, File: s.File, Line: s.Line, Suggestions: p.Suggestions}
		if u.Suggestions == nil {
			u.Suggestions = []cite.Suggestion{}
		}
		out.Unknown = append(out.Unknown, u)
	}
	return out
}

// printBibProblems lists every problem on stderr (unknown keys with their
// suggestions, papers without metadata, works cited under two keys), then
// what was written and what to do.
func printBibProblems(a *app, o *bibOptions, out bibJSON) {
	var hints []string
	for _, p := range out.Problems {
		at := ""
		if p.File != "" {
			at = fmt.Sprintf(" (%s:%d)", p.File, p.Line)
		}
		switch p.Kind {
		case cite.ProblemUnknown:
			var sug []cite.Suggestion
			for _, u := range out.Unknown {
				if u.Key == p.Key {
					sug = u.Suggestions
				}
			}
			fmt.Fprintf(a.io.Err, "crossmem: unknown cite key '%s'%s. %s\n", p.Key, at, render.DidYouMean(sug, ""))
		case cite.ProblemSameWork:
			if out.Format == string(citation.BibLaTeX) {
				a.notice("%s%s: %s; its ids field lists %s", p.Key, at, p.Message, p.Key)
				continue
			}
			fmt.Fprintf(a.io.Err, "crossmem: %s%s: %s; cite it as %s (BibLaTeX's ids field would resolve both)\n", p.Key, at, p.Message, p.Entry)
		default:
			fmt.Fprintf(a.io.Err, "crossmem: %s%s: %s\n", p.Key, at, p.Message)
		}
		if p.Hint != "" && !slices.Contains(hints, p.Hint) {
			hints = append(hints, p.Hint)
		}
	}
	if o.output != "" {
		fmt.Fprintf(a.io.Err, "crossmem: wrote %d of %d entries to %s\n", out.Entries, len(out.Keys), o.output)
	}
	if len(out.Unknown) > 0 {
		a.hint(render.Hint(hint.Action{Kind: hint.CaptureOrImport}))
	}
	for _, h := range hints {
		if h != render.Hint(hint.Action{Kind: hint.CaptureOrImport}) {
			a.hint(h)
		}
	}
}

// referenceStyles are the citation styles bib writes reference lists in.
func referenceStyles() []string {
	var out []string
	for _, st := range citation.Styles() {
		if st != citation.BibTeX && st != citation.BibLaTeX && st != citation.CSLJSON {
			out = append(out, string(st))
		}
	}
	return out
}

// completeStyles completes --format with the style names.
func completeStyles(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	var out []string
	for _, st := range citation.Styles() {
		out = append(out, string(st))
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}
