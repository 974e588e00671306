package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/verify"
)

func newVerifyCommand(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "verify [cite_key]",
		Short: "Re-hash every chunk's verbatim text against its recorded SHA-256",
		Long: `Re-hash the blockquote text of every chunk of every wiki note (or only the
note of [cite_key]) and compare it with the text_sha256 in its provenance.
Any mismatch means the note was edited after compile and is reported as DRIFT.

Exit status: 0 no drift, 1 drift or error, 2 usage error.`,
		Args: args(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			key := ""
			if len(argv) == 1 {
				key = argv[0]
			}
			return runVerify(a, key)
		},
	}
	cmd.Flags().BoolVar(&a.json, "json", false, "print one JSON object instead of text")
	return cmd
}

func runVerify(a *app, key string) error {
	lib, err := a.library()
	if err != nil {
		return err
	}
	var paths []string
	if key != "" {
		p, err := lib.Find(key)
		if err != nil {
			return err
		}
		if !p.HasNote() {
			return fmt.Errorf("%s has no wiki note yet\ncrossmem: hint: run crossmem compile %s", key, key)
		}
		paths = []string{p.NotePath}
	} else {
		paths, err = lib.NoteFiles()
		if err != nil {
			return err
		}
	}
	r := verify.Files(paths)
	if a.json {
		if err := a.writeJSON(r); err != nil {
			return err
		}
	} else {
		for _, n := range r.Notes {
			fmt.Fprintf(a.io.Out, "[verify] Checking %s\n", n.CiteKey)
		}
		for _, d := range r.Drifts {
			fmt.Fprintf(a.io.Out, "DRIFT: %s chunk %s\n  expected: %s\n  actual: %s\n", d.CiteKey, d.ChunkID, d.Expected, d.Actual)
		}
		for _, e := range r.Errors {
			fmt.Fprintf(a.io.Out, "ERROR: %s: %s\n", e.Path, e.Err)
		}
		fmt.Fprintf(a.io.Out, "Verified %d chunks, %d drift(s) detected.\n", r.Chunks, len(r.Drifts))
	}
	if len(r.Drifts) > 0 {
		if !a.json {
			fmt.Fprintln(a.io.Err, "crossmem: hint: restore the drifted blockquotes from the PDF by re-running crossmem compile <cite_key> (this discards edits to the note)")
		}
		return exitError{ExitError}
	}
	if len(r.Errors) > 0 {
		return errors.New("some wiki notes could not be read (see ERROR lines)")
	}
	return nil
}
