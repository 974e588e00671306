package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/capture"
	"github.com/crossmem/crossmem/internal/compile"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/metadata/sources"
	"github.com/crossmem/crossmem/internal/render"
)

// refreshJSON is refresh's --json output for one paper.
type refreshJSON struct {
	CiteKey   string                  `json:"cite_key"`
	Changes   []string                `json:"changes"`
	Note      string                  `json:"note,omitempty"` // the updated note, if the paper is compiled
	Metadata  metadata.Record         `json:"metadata"`
	Consulted []metadata.Consultation `json:"consulted"`
}

// refreshOptions are refresh's arguments and flags.
type refreshOptions struct {
	app     *app
	keys    []string // cite keys or aliases
	pending bool     // every paper whose lookup is pending
	all     bool     // every paper
	timeout time.Duration
}

func newRefreshCommand(a *app) *cobra.Command {
	o := &refreshOptions{app: a}
	cmd := &cobra.Command{
		Use:   "refresh <cite_key>... | --pending | --all",
		Short: "Fetch and reconcile captured papers' metadata again (no PDF download)",
		Long: `Ask the metadata sources (arXiv, Crossref, OpenAlex, DataCite, Unpaywall)
about captured papers again, bypassing the response cache, re-reconcile the
answers, check them against what each PDF says about itself, and update the
sidecars; when a paper is compiled, the note's frontmatter and citations are
updated too (its chunks are not touched). The PDF is not downloaded again and
the cite key never changes.

--pending refreshes every paper whose lookup is pending (captured while the
sources could not be reached); --all refreshes every paper. Several papers
print one line each and a summary.

Exit status: 0 refreshed, 1 error (nothing is written for a paper when the
sources cannot be reached or do not know it; with several papers: any
failed), 2 usage error.`,
		Example: `  crossmem refresh vaswani2017attention
  crossmem refresh --pending`,
		RunE: func(cmd *cobra.Command, argv []string) error {
			o.keys = argv
			return runRefresh(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.pending, "pending", false, "refresh every paper whose metadata lookup is pending")
	cmd.Flags().BoolVar(&o.all, "all", false, "refresh every paper")
	cmd.Flags().DurationVar(&o.timeout, "timeout", 0, "longest wait for the metadata sources per paper, e.g. 10s (default: [network] timeout, 30s)")
	a.addJSONFlag(cmd)
	cmd.ValidArgsFunction = completeKeys(a)
	return cmd
}

func runRefresh(ctx context.Context, o *refreshOptions) error {
	a := o.app
	switch {
	case o.pending && o.all:
		return usageError{errors.New("--pending and --all: choose one")}
	case (o.pending || o.all) && len(o.keys) > 0:
		return usageError{errors.New("name cite keys or pass --pending or --all, not both")}
	case !o.pending && !o.all && len(o.keys) == 0:
		return usageError{errors.New("name the papers to refresh (cite keys), or pass --pending or --all")}
	}
	cfg, err := a.config()
	if err != nil {
		return err
	}
	lib, err := a.library()
	if err != nil {
		return err
	}
	hc, err := a.httpClient(true)
	if err != nil {
		return err
	}
	timeout := o.timeout
	if timeout <= 0 {
		timeout = cfg.MetadataTimeout
	}
	opts := capture.Options{Sources: sources.New(a.sourcesConfig(hc)), MetadataTimeout: timeout}
	if len(o.keys) == 1 {
		return refreshOne(ctx, o, lib, o.keys[0], opts)
	}
	keys := o.keys
	if o.pending || o.all {
		papers, errs := lib.Papers()
		for _, err := range errs {
			a.warn("%v", err)
		}
		keys = nil
		for _, p := range papers {
			if o.all || p.LookupPending {
				keys = append(keys, p.CiteKey)
			}
		}
		slices.Sort(keys)
		if len(keys) == 0 {
			if !a.json && !a.quiet {
				what := "no paper's metadata lookup is pending"
				if o.all {
					what = "the library has no papers"
				}
				fmt.Fprintf(a.io.Out, "[refresh] nothing to refresh: %s\n", what)
			}
			return nil
		}
	}
	return refreshBatch(ctx, o, lib, keys, opts)
}

// refreshOne refreshes one paper with the [refresh] lines.
func refreshOne(ctx context.Context, o *refreshOptions, lib *library.Library, key string, opts capture.Options) error {
	a := o.app
	lk := a.newLookups("refresh", key, opts.MetadataTimeout, nil)
	opts.OnLookup = lk.on
	res, err := capture.Refresh(ctx, lib, key, opts)
	lk.end()
	var ue *capture.UnreachableError
	if errors.As(err, &ue) {
		// What to run again is this refresh, not a capture.
		return hint.Wrap(err, hint.Action{Kind: hint.RefreshOnline, Key: key})
	}
	if err != nil {
		return err
	}
	notePath, err := a.updateNote(ctx, res.Paper)
	if err != nil {
		return err
	}
	if notePath != "" {
		a.indexNotes(ctx, notePath)
	}
	if a.json {
		out := refreshJSON{CiteKey: res.Paper.CiteKey, Changes: res.Changes, Note: notePath, Metadata: res.Paper.Metadata, Consulted: res.Consulted}
		if out.Changes == nil {
			out.Changes = []string{}
		}
		return a.writeJSON(out)
	}
	if !a.quiet {
		for _, c := range res.Consulted {
			fmt.Fprintf(a.io.Out, "[refresh] %s %s: %s\n", c.Source, c.Query, c.Outcome)
		}
		if len(res.Changes) == 0 {
			fmt.Fprintln(a.io.Out, "[refresh] no changes")
		}
		for _, c := range res.Changes {
			fmt.Fprintf(a.io.Out, "[refresh] %s\n", c)
		}
	}
	for _, w := range res.Paper.Metadata.Warnings {
		a.warn("%s", w)
	}
	if notePath != "" && !a.quiet {
		fmt.Fprintf(a.io.Out, "[refresh] note updated: %s\n", tildePath(notePath))
	}
	if a.quiet {
		fmt.Fprintln(a.io.Out, res.Paper.CiteKey)
		return nil
	}
	fmt.Fprintf(a.io.Out, "cite_key: %s\n", res.Paper.CiteKey)
	return nil
}

// updateNote rewrites a compiled paper's note from its refreshed sidecar;
// "" when the paper is not compiled.
func (a *app) updateNote(ctx context.Context, p *library.Paper) (string, error) {
	if !p.HasNote() {
		return "", nil
	}
	c, err := a.citer()
	if err != nil {
		return "", err
	}
	lib, err := a.library()
	if err != nil {
		return "", err
	}
	path, err := compile.UpdateNote(ctx, lib, p.CiteKey, c)
	if err != nil {
		return "", hint.Wrap(fmt.Errorf("metadata refreshed, but updating the note failed: %w", err), hint.Action{Kind: hint.Compile, Key: p.CiteKey})
	}
	return path, nil
}

// refreshBatch refreshes several papers: a line each, a summary. Once the
// sources prove unreachable, the rest are not asked (they stay pending).
func refreshBatch(ctx context.Context, o *refreshOptions, lib *library.Library, keys []string, opts capture.Options) error {
	a := o.app
	var bar *progressbar.ProgressBar
	if a.showProgress() && len(keys) > 0 {
		bar = progressbar.NewOptions(len(keys), progressbar.OptionSetWriter(a.io.Err), progressbar.OptionSetDescription("[refresh]"),
			progressbar.OptionShowCount(), progressbar.OptionClearOnFinish())
	}
	var items []render.BatchItem
	var hints, notes []string
	offline := false
	again := strings.Join(keys, " ") // the refresh to run again when online
	switch {
	case o.pending:
		again = "--pending"
	case o.all:
		again = "--all"
	}
	for i, key := range keys {
		if ctx.Err() != nil {
			break
		}
		it := render.BatchItem{Input: key, CiteKey: key}
		if offline {
			it.Status, it.Error = render.StatusFailed, "not asked: the metadata sources could not be reached"
			it.Pending = true
			items = append(items, it)
			a.printBatchItem(it, bar)
			continue
		}
		lk := a.newLookups("refresh", fmt.Sprintf("%d/%d %s", i+1, len(keys), key), opts.MetadataTimeout, bar)
		opts.OnLookup = lk.on
		res, err := capture.Refresh(ctx, lib, key, opts)
		lk.end()
		if err == nil {
			var path string
			path, err = a.updateNote(ctx, res.Paper)
			if path != "" {
				notes = append(notes, path)
			}
			it.CiteKey, it.Warnings = res.Paper.CiteKey, res.Paper.Metadata.Warnings
			it.Status = render.StatusUnchanged
			if len(res.Changes) > 0 {
				it.Status = render.StatusRefreshed
				it.Detail = render.Count(len(res.Changes), "change")
			}
		}
		if err != nil {
			var ue *capture.UnreachableError
			if errors.As(err, &ue) {
				it.Pending = true
				offline = ue.Unreachable
				// What to run again is this refresh, not a capture.
				err = hint.Wrap(err, hint.Action{Kind: hint.RefreshOnline, Key: again})
			}
			it.Status = render.StatusFailed
			it.Error, it.Hint = render.Error(err)
			if it.Hint != "" && !slices.Contains(hints, it.Hint) {
				hints = append(hints, it.Hint)
			}
		}
		items = append(items, it)
		if bar != nil {
			bar.Add(1)
		}
		a.printBatchItem(it, bar)
	}
	if bar != nil {
		bar.Finish()
	}
	if len(notes) > 0 {
		a.indexNotes(ctx, notes...)
	}
	return a.finishBatch("paper", items, hints, ctx.Err())
}
