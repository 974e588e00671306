package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/compile"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/render"
	"github.com/crossmem/crossmem/internal/verify"
)

// verifyJSON is verify's --json output: the result, with each deep
// problem's fix in words.
type verifyJSON struct {
	*verify.Result
	Deep []deepJSON `json:"deep,omitempty"`
}

type deepJSON struct {
	*verify.DeepResult
	Problems []deepProblemJSON `json:"problems"`
}

type deepProblemJSON struct {
	verify.DeepProblem
	Hint string `json:"hint"` // what to do about it
}

func verifyOutput(res *verify.Result) verifyJSON {
	out := verifyJSON{Result: res}
	for _, d := range res.Deep {
		dj := deepJSON{DeepResult: d, Problems: []deepProblemJSON{}}
		for _, p := range d.Problems {
			dj.Problems = append(dj.Problems, deepProblemJSON{DeepProblem: p, Hint: render.Hint(p.Fix)})
		}
		out.Deep = append(out.Deep, dj)
	}
	return out
}

// verifyOptions are verify's arguments and flags.
type verifyOptions struct {
	app  *app
	key  string // one paper ("" = the whole library)
	deep bool
}

func newVerifyCommand(a *app) *cobra.Command {
	o := &verifyOptions{app: a}
	cmd := &cobra.Command{
		Use:   "verify [cite_key]",
		Short: "Check that notes still match their PDFs: chunk hashes, PDF hashes, and with --deep a re-extraction",
		Long: `Re-hash the blockquote text of every chunk of every wiki note (or only the
note of [cite_key]) and compare it with the text_sha256 in its provenance: a
mismatch means the note was edited after compile (DRIFT). Also re-hash each raw
PDF against the pdf_sha256 recorded at capture (PDF CHANGED).

--deep also extracts each PDF again and confirms that every chunk's text is
still produced on its page at its bbox; a chunk that is not is reported as
EXTRACTOR CHANGED (typically after a crossmem upgrade changed the text layer
rules). Each finding says how to fix it.

Exit status: 0 no problem, 1 drift, changed PDF, changed extraction or error, 2 usage error.`,
		Args: args(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			if len(argv) == 1 {
				o.key = argv[0]
			}
			return runVerify(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.deep, "deep", false, "also re-extract each PDF and confirm every chunk at its page and bbox")
	a.addJSONFlag(cmd)
	cmd.ValidArgsFunction = completeKeys(a)
	return cmd
}

func runVerify(ctx context.Context, o *verifyOptions) error {
	a := o.app
	lib, err := a.library()
	if err != nil {
		return err
	}
	vo := verify.Options{Key: o.key}
	if o.deep {
		engine, err := a.pdfEngine(ctx)
		if err != nil {
			return err
		}
		vo.Extract = func(ctx context.Context, data []byte) (chunk.Result, error) {
			return compile.ExtractFigures(ctx, engine, data, "")
		}
		vo.Progress = a.progress("verify --deep", "papers")
	}
	res, err := verify.Library(ctx, lib, vo)
	a.progressDone()
	if err != nil {
		return err
	}
	for _, e := range res.Unreadable {
		a.warn("%v", e)
	}
	if a.json {
		if err := a.writeJSON(verifyOutput(res)); err != nil {
			return err
		}
	} else {
		printVerify(a, res, o.deep)
	}
	if res.Problems() > 0 {
		return exitError{ExitError}
	}
	if len(res.Errors) > 0 {
		return hint.Wrap(errors.New("some wiki notes could not be read (the ERROR lines, or errors with --json, say why)"), hint.Action{Kind: hint.CompileEach})
	}
	return nil
}

func printVerify(a *app, out *verify.Result, deep bool) {
	w := a.io.Out
	if !a.quiet { // -q: only the findings and the totals
		for _, n := range out.Notes {
			fmt.Fprintf(w, "[verify] Checking %s\n", n.CiteKey)
		}
	}
	for _, d := range out.Drifts {
		if d.Image != "" {
			actual := d.Actual
			if actual == "" {
				actual = "(missing)"
			}
			fmt.Fprintf(w, "DRIFT: %s chunk %s figure %s\n  expected: %s\n  actual: %s\n", d.CiteKey, d.ChunkID, d.Image, d.Expected, actual)
			continue
		}
		fmt.Fprintf(w, "DRIFT: %s chunk %s\n  expected: %s\n  actual: %s\n", d.CiteKey, d.ChunkID, d.Expected, d.Actual)
	}
	for _, p := range out.PDFs {
		if p.Err != "" {
			fmt.Fprintf(w, "PDF CHANGED: %s: %s\n", p.CiteKey, p.Err)
		} else {
			fmt.Fprintf(w, "PDF CHANGED: %s %s\n  expected: %s\n  actual: %s\n", p.CiteKey, tildePath(p.Path), p.Expected, p.Actual)
		}
	}
	// A paper whose PDF changed is not re-extracted: it is counted apart,
	// not as chunks that failed to be confirmed.
	confirmed, chunks, extracted, notExtracted := 0, 0, 0, 0
	for _, d := range out.Deep {
		if slices.ContainsFunc(d.Problems, func(p verify.DeepProblem) bool { return p.Kind == verify.PDFChanged }) {
			notExtracted++
		} else {
			extracted++
			confirmed += d.Confirmed
			chunks += d.Chunks
		}
		for _, p := range d.Problems {
			switch p.Kind {
			case verify.ExtractorChanged:
				fmt.Fprintf(w, "EXTRACTOR CHANGED: %s chunk %s (page %d): %s\n  fix: %s\n", p.CiteKey, p.ChunkID, p.Page, p.Detail, render.Hint(p.Fix))
			case verify.PDFChanged:
				// Reported above from the sidecar check.
			}
		}
	}
	for _, e := range out.Errors {
		fmt.Fprintf(w, "ERROR: %s: %s\n", e.Path, e.Err)
	}
	fmt.Fprintf(w, "Verified %d chunks, %d drift(s) detected.\n", out.Chunks, len(out.Drifts))
	fmt.Fprintf(w, "Checked %d PDFs, %d changed.\n", out.PDFsChecked, len(out.PDFs))
	if deep {
		if extracted > 0 || notExtracted == 0 {
			fmt.Fprintf(w, "Re-extracted %d papers: %d of %d chunks confirmed at their page and bbox.\n", extracted, confirmed, chunks)
		}
		if notExtracted > 0 {
			fmt.Fprintf(w, "Not re-extracted: %d paper(s) whose PDF changed (PDF CHANGED above).\n", notExtracted)
		}
	}
	if len(out.Drifts) > 0 {
		key := out.Drifts[0].CiteKey // named when every drift is in one note
		for _, d := range out.Drifts {
			if d.CiteKey != key {
				key = ""
			}
		}
		a.hint(render.Hint(hint.Action{Kind: hint.RestoreNote, Key: key}))
	}
	if len(out.PDFs) > 0 {
		a.hint(render.Hint(hint.Action{Kind: hint.RestorePDF}))
	}
}
