package cli

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/schollz/progressbar/v3"

	"github.com/crossmem/crossmem/internal/render"
)

// Batches: capture of several inputs, refresh --pending/--all and compile
// --all print one line per paper (render.BatchLine, or a JSON line) and a
// summary, go on after a failure and exit 1 when one failed.

// printBatchItem prints one item of a batch: a JSON line with --json, its
// cite key with -q (a failure as an error on stderr), else its line.
func (a *app) printBatchItem(it render.BatchItem, bar *progressbar.ProgressBar) {
	if bar != nil {
		bar.Clear()
	}
	switch {
	case a.json:
		a.writeJSONLine(it)
	case a.quiet:
		if it.Status == render.StatusFailed {
			fmt.Fprintf(a.io.Err, "crossmem: error: %s: %s\n", it.Input, it.Error)
		} else if it.CiteKey != "" {
			fmt.Fprintln(a.io.Out, it.CiteKey)
		}
	default:
		fmt.Fprintln(a.io.Out, render.BatchLine(it))
	}
	if bar != nil {
		bar.RenderBlank()
	}
}

// finishBatch prints the summary (a JSON line with --json; nothing with
// -q) and the hints of the failures, each once, and returns exit status 1
// when an item failed (130 when interrupted).
func (a *app) finishBatch(noun string, items []render.BatchItem, hints []string, interrupted error) error {
	switch {
	case a.json:
		a.writeJSONLine(render.Counts(items))
	case !a.quiet:
		fmt.Fprintln(a.io.Out, render.BatchSummary(noun, items))
	}
	if !a.json {
		for _, h := range hints {
			a.hint(h)
		}
	}
	if interrupted != nil {
		return interrupted
	}
	if slices.ContainsFunc(items, func(it render.BatchItem) bool { return it.Status == render.StatusFailed }) {
		return exitError{ExitError}
	}
	return nil
}

// writeJSONLine prints v as one line of JSON on stdout (JSON lines).
func (a *app) writeJSONLine(v any) {
	enc := json.NewEncoder(a.io.Out)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}
