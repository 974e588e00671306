package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/citation"
	"github.com/crossmem/crossmem/internal/cite"
	"github.com/crossmem/crossmem/internal/draft"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/render"
)

// bibUnknown is one unknown key in bib's --json output.
type bibUnknown struct {
	Key         string            `json:"cite_key"`
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

func newBibCommand(a *app) *cobra.Command {
	var output, format string
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
			return runBib(a, argv, output, format, cmd.Flags().Changed("format"))
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "", "write the bibliography to this file (atomically) instead of stdout")
	cmd.Flags().StringVarP(&format, "format", "f", "bibtex", "bibtex, biblatex or csl-json")
	cmd.Flags().BoolVar(&a.json, "json", false, "print one JSON object instead of text")
	return cmd
}

func runBib(a *app, argv []string, output, format string, formatGiven bool) error {
	if !formatGiven && strings.EqualFold(filepath.Ext(output), ".json") {
		format = string(citation.CSLJSON)
	}
	st, err := citation.ParseStyle(format)
	if err != nil || (st != citation.BibTeX && st != citation.BibLaTeX && st != citation.CSLJSON) {
		return usageError{fmt.Errorf("unknown bibliography format %q: use bibtex, biblatex or csl-json", format)}
	}

	type site struct {
		file string
		line int
	}
	var keys []string
	where := map[string]site{}
	addKey := func(k string, s site) {
		if _, ok := where[k]; !ok {
			where[k] = s
			keys = append(keys, k)
		}
	}
	for _, arg := range argv {
		if fi, err := os.Stat(arg); err == nil && !fi.IsDir() {
			text, err := os.ReadFile(arg)
			if err != nil {
				return fmt.Errorf("read draft: %w", err)
			}
			d := draft.Scan(arg, text)
			if len(d.Citations) == 0 && !a.json {
				fmt.Fprintf(a.io.Err, "crossmem: notice: %s (read as %s) cites no keys\n", arg, d.Kind)
			}
			for _, c := range d.Citations {
				addKey(c.Key, site{arg, c.Line})
			}
			continue
		}
		looksLikeFile := draft.KindOf(arg) != draft.Unknown || (strings.ContainsAny(arg, `/\`) && !strings.Contains(arg, ":"))
		if looksLikeFile || library.ValidAlias(arg) != nil {
			return fmt.Errorf("%s: no such draft file, and not a cite key; check the draft's path or the key's spelling", arg)
		}
		addKey(arg, site{})
	}

	c, err := a.citer()
	if err != nil {
		return err
	}
	text, missing, err := c.Bibliography(keys, st)
	if err != nil {
		return err
	}
	if output != "" {
		if err := library.WriteFileAtomic(output, []byte(text), 0o644); err != nil {
			return fmt.Errorf("write %s: %w", output, err)
		}
	}

	out := bibJSON{Output: output, Format: string(st), Keys: keys, Entries: len(keys) - len(missing), Unknown: []bibUnknown{}}
	if out.Keys == nil {
		out.Keys = []string{}
	}
	for _, m := range missing {
		s := where[m.Key]
		u := bibUnknown{Key: m.Key, File: s.file, Line: s.line, Suggestions: m.Suggestions}
		if u.Suggestions == nil {
			u.Suggestions = []cite.Suggestion{}
		}
		out.Unknown = append(out.Unknown, u)
	}
	if a.json {
		if output == "" {
			out.Bibliography = text
		}
		if err := a.writeJSON(out); err != nil {
			return err
		}
	} else {
		if output == "" {
			fmt.Fprint(a.io.Out, text)
		}
		for _, u := range out.Unknown {
			at := ""
			if u.File != "" {
				at = fmt.Sprintf(" (%s:%d)", u.File, u.Line)
			}
			fmt.Fprintf(a.io.Err, "crossmem: unknown cite key '%s'%s. %s\n", u.Key, at, render.DidYouMean(u.Suggestions, ""))
		}
		if output != "" {
			fmt.Fprintf(a.io.Err, "crossmem: wrote %d of %d entries to %s\n", out.Entries, len(keys), output)
		}
	}
	if len(missing) > 0 {
		if !a.json {
			fmt.Fprintln(a.io.Err, "crossmem: hint: capture or import the missing works (crossmem capture <input>, crossmem import <file.bib>), or fix the keys in the draft")
		}
		return exitError{ExitError}
	}
	return nil
}
