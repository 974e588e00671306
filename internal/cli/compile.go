package cli

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/compile"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/llm"
	"github.com/crossmem/crossmem/internal/render"
	"github.com/crossmem/crossmem/internal/search"
)

// compileOptions are compile's arguments and flags.
type compileOptions struct {
	app   *app
	keys  []string // cite keys or aliases
	all   bool     // every paper captured but not compiled
	llm   bool     // run the enrich stage after compiling
	noLLM bool     // accepted for old scripts; compile asks no model without --llm
}

// compileJSON is compile's --json output.
type compileJSON struct {
	CiteKey         string           `json:"cite_key"`
	Note            string           `json:"note"`
	Damage          string           `json:"pdf_damage,omitempty"`
	Chunks          int              `json:"chunks"`
	Pages           int              `json:"pages"`
	UnquotablePages []unquotableJSON `json:"unquotable_pages"`
	LLM             llmJSON          `json:"llm"`
}

type unquotableJSON struct {
	Page   int         `json:"page"`
	Reason string      `json:"reason"`
	BBox   *[4]float64 `json:"bbox,omitempty"` // a block of the page, not the whole page
}

// unquotableWhere names what could not be quoted: a page, or a block of
// it with its bbox ("a block of page 3 at [72 300.5 540 340] (PDF
// points)", to the tenth of a point).
func unquotableWhere(u chunk.Unquotable) string {
	if b := u.BBox; b != nil {
		pt := func(v float64) float64 { return math.Round(v*10) / 10 }
		return fmt.Sprintf("a block of page %d at [%g %g %g %g] (PDF points)", u.Page, pt(b[0]), pt(b[1]), pt(b[2]), pt(b[3]))
	}
	return fmt.Sprintf("page %d", u.Page)
}

// llmJSON is the advisory part of compile's --json output: whether the
// enrich stage ran (--llm), how many chunks of the note have a paraphrase,
// how many of those were kept from the previous note, why the stage did
// not run, and its outcome.
type llmJSON struct {
	Used      bool        `json:"used"`
	Annotated int         `json:"annotated"`
	Reused    int         `json:"reused"`
	Notice    string      `json:"notice,omitempty"`
	Enrich    *enrichJSON `json:"enrich,omitempty"`
}

func newCompileCommand(a *app) *cobra.Command {
	o := &compileOptions{app: a}
	cmd := &cobra.Command{
		Use:   "compile <cite_key>... | --all",
		Short: "Parse captured PDFs into wiki notes of verbatim chunks with provenance",
		Long: `Parse the captured PDF of <cite_key> with pdfium and write the wiki note
<home>/wiki/<unix-ts>_<cite_key>.md: frontmatter, citations, and paragraph-level
chunks whose text is the PDF text layer verbatim, each with page, section, bbox,
SHA-256 and byte range. Pages without a usable text layer are listed in the note
and produce no quotes.

Re-compiling replaces the note and keeps the advisory paraphrase and implication
of chunks whose text did not change. --llm then runs crossmem enrich on the paper
(see crossmem enrich --help); when no model server answers, the note is written
without paraphrases and one notice says so.

Several cite keys, or --all (every paper captured but not compiled yet), are
compiled in one process, one after the other: one line per paper, a summary,
and one update of the search index at the end. A paper that fails does not
stop the others.

Exit status: 0 written, 1 error (with several papers: any failed; or, with
--llm, chunks the model could not answer for), 2 usage error, 130
interrupted.`,
		Example: `  crossmem compile vaswani2017attention
  crossmem compile --all`,
		RunE: func(cmd *cobra.Command, argv []string) error {
			o.keys = argv
			return runCompile(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.all, "all", false, "compile every paper captured but not compiled yet")
	cmd.Flags().BoolVar(&o.llm, "llm", false, "then ask the local language model for paraphrases and implications (crossmem enrich)")
	cmd.Flags().BoolVar(&o.noLLM, "no-llm", false, "ask no language model (the default; kept for old scripts)")
	cmd.Flags().MarkHidden("no-llm")
	a.addJSONFlag(cmd)
	cmd.ValidArgsFunction = completeKeys(a)
	return cmd
}

func runCompile(ctx context.Context, o *compileOptions) error {
	a := o.app
	switch {
	case o.all && len(o.keys) > 0:
		return usageError{errors.New("name cite keys or pass --all, not both")}
	case !o.all && len(o.keys) == 0:
		return usageError{errors.New("name the papers to compile (cite keys), or pass --all")}
	}
	lib, err := a.library()
	if err != nil {
		return err
	}
	if o.all || len(o.keys) > 1 {
		return compileBatch(ctx, o, lib)
	}
	paper, err := lib.Find(o.keys[0])
	if errors.Is(err, library.ErrNotFound) {
		return hint.Wrap(err, hint.Action{Kind: hint.CaptureFirst})
	}
	if err != nil {
		return err
	}
	if err := compile.Ready(paper); err != nil {
		return err
	}
	say := func(format string, args ...any) {
		if !a.json && !a.quiet {
			fmt.Fprintf(a.io.Out, "[compile] "+format+"\n", args...)
		}
	}
	var opts compile.Options
	if paper.IsTalk() {
		say("loading the recording of %s", paper.CiteKey)
		if opts.Talk, err = a.talkCompileOptions(say); err != nil {
			return err
		}
	} else {
		say("loading raw PDF for %s", paper.CiteKey)
		if opts.Engine, err = a.pdfEngine(ctx); err != nil {
			return err
		}
	}
	c, err := a.citer()
	if err != nil {
		return err
	}
	opts.Cite = c
	if pages := a.progress("compile", "page"); pages != nil {
		opts.Progress = func(stage string, i, n int) { pages(i, n) }
	}
	res, err := compile.Run(ctx, lib, paper.CiteKey, opts)
	a.progressDone()
	if err != nil {
		return err
	}
	a.indexNotes(ctx, res.Path)
	if res.Damage != "" {
		a.warn("the PDF of %s is damaged (%s); pdfium repaired it and text may be missing from the note", paper.CiteKey, res.Damage)
		a.hint("download the PDF again and capture the complete copy")
	}
	for _, u := range res.Unquotable {
		a.notice("%s of %s: %s; it produces no quotes", unquotableWhere(u), paper.CiteKey, u.Reason)
	}
	info := llmJSON{Reused: res.Reused, Annotated: res.Reused}
	if paper.IsTalk() {
		say("%d chunks from %s of recording", len(res.Note.Chunks), search.Clock(res.Note.Front.DurationSec*1000))
	} else {
		say("%d chunks extracted from %d pages", len(res.Note.Chunks), res.Note.Front.Pages)
	}
	if res.Reused > 0 {
		say("paraphrase/implication: %d kept from the previous note", res.Reused)
	}
	say("wiki saved to %s", tildePath(res.Path))
	var enrichErr error
	if o.llm && !o.noLLM {
		client, model, url, err := a.llmClient(ctx)
		switch {
		case errors.Is(err, llm.ErrUnavailable):
			// One notice: what is missing, what to do, and that the note
			// is written all the same.
			msg, next := render.Error(err)
			info.Notice = msg + "; the note was written without new paraphrases"
			if next != "" {
				info.Notice += " (" + next + ", then run crossmem enrich " + paper.CiteKey + ")"
			}
			a.notice("%s", info.Notice)
		case err != nil:
			return err
		default:
			info.Used = true
			info.Enrich, enrichErr = a.enrichPapers(ctx, []*library.Paper{paper}, client, model, url, 0, "compile")
			if info.Enrich != nil && len(info.Enrich.Papers) == 1 {
				info.Annotated = info.Enrich.Papers[0].Annotated
			}
		}
	}
	if a.json {
		out := compileJSON{CiteKey: paper.CiteKey, Note: res.Path, Damage: res.Damage, Chunks: len(res.Note.Chunks), Pages: res.Note.Front.Pages, UnquotablePages: []unquotableJSON{}, LLM: info}
		for _, u := range res.Unquotable {
			out.UnquotablePages = append(out.UnquotablePages, unquotableJSON{u.Page, u.Reason, u.BBox})
		}
		if err := a.writeJSON(out); err != nil {
			return err
		}
	} else if a.quiet {
		fmt.Fprintln(a.io.Out, paper.CiteKey) // as capture -q and compile -q of several papers
	}
	return enrichErr
}

// reportPartlyIndexed reports an index update of the notes of papers
// (in the order they went to the index) that stopped at err with the
// first indexed of them in the index: which are in, which are not and how
// to add them (the notes are written; compile --all would skip them).
func (a *app) reportPartlyIndexed(papers []*library.Paper, indexed int, err error) {
	why := fmt.Sprint(err)
	if errors.Is(err, context.Canceled) {
		why = "interrupted"
	}
	indexed = min(max(indexed, 0), len(papers))
	var keys []string
	for _, p := range papers[indexed:] {
		keys = append(keys, p.CiteKey)
	}
	const shown = 5
	list := strings.Join(keys[:min(len(keys), shown)], ", ")
	if len(keys) > shown {
		list += fmt.Sprintf(" and %d more", len(keys)-shown)
	}
	switch {
	case indexed == 0:
		a.warn("the search index was not updated (%s): none of the %s written is in it", why, render.Count(len(papers), "note"))
	case len(keys) == 0:
		return
	default:
		a.warn("the search index has %d of the %s written (%s); not in it: %s", indexed, render.Count(len(papers), "note"), why, list)
	}
	them := "them"
	if len(keys) == 1 {
		them = "it"
	}
	a.hint("run crossmem index to add " + them)
}

// indexHold is how long compileBatch keeps an index transaction open for
// the notes that follow (index.UpdateStream): the write lock is released
// at least this often, well inside other processes' busy timeout (10 s).
const indexHold = time.Second

// compileBatch compiles several papers in this process with one PDF
// engine, one line per paper and the search index updated as the notes
// are written (UpdateStream, transactions of whole notes); --llm then
// enriches the compiled papers together.
func compileBatch(ctx context.Context, o *compileOptions, lib *library.Library) error {
	a := o.app
	var items []render.BatchItem
	var hints []string
	fail := func(input string, err error, bar *progressbar.ProgressBar) {
		it := render.BatchItem{Input: input, Status: render.StatusFailed}
		it.Error, it.Hint = render.Error(err)
		if it.Hint != "" && !slices.Contains(hints, it.Hint) {
			hints = append(hints, it.Hint)
		}
		items = append(items, it)
		a.printBatchItem(it, bar)
	}
	keys := o.keys
	if o.all {
		all, errs := lib.Papers()
		for _, err := range errs {
			a.warn("%v", err)
		}
		for _, p := range all {
			if (p.HasPDF() || p.IsTalk()) && !p.HasNote() {
				keys = append(keys, p.CiteKey)
			}
		}
		slices.Sort(keys)
		if len(keys) == 0 {
			if !a.json && !a.quiet {
				fmt.Fprintln(a.io.Out, "[compile] nothing to compile: every captured paper has its note")
			}
			return nil
		}
	}
	engine, err := a.pdfEngine(ctx)
	if err != nil {
		return err
	}
	c, err := a.citer()
	if err != nil {
		return err
	}
	talkOpts, err := a.talkCompileOptions(nil)
	if err != nil {
		return err
	}
	var bar *progressbar.ProgressBar
	if a.showProgress() {
		bar = progressbar.NewOptions(len(keys), progressbar.OptionSetWriter(a.io.Err), progressbar.OptionSetDescription("[compile]"),
			progressbar.OptionShowCount(), progressbar.OptionClearOnFinish())
	}
	var notes []string
	var done []*library.Paper
	if bar != nil && len(keys) > 0 {
		bar.Describe("[compile] " + keys[0])
	}
	// Each note goes into the search index while the next papers compile
	// (index.UpdateStream).
	indexed := make(chan string, len(keys))
	ix, ixErr := a.index()
	var ixDone chan error
	nIndexed := 0 // of notes, from the first: set before ixDone's send
	if ixErr == nil {
		ixDone = make(chan error, 1)
		go func() {
			var err error
			nIndexed, err = ix.UpdateStream(ctx, indexed, indexHold)
			ixDone <- err
		}()
	}
	n := 0
	compile.RunAll(ctx, lib, keys, compile.Options{Engine: engine, Cite: c, Talk: talkOpts}, func(k string, res *compile.Result, err error) {
		if n++; bar != nil {
			bar.Add(1)
			if n < len(keys) {
				bar.Describe("[compile] " + keys[n])
			}
		}
		if errors.Is(err, library.ErrNotFound) {
			err = hint.Wrap(err, hint.Action{Kind: hint.CaptureFirst})
		}
		if err != nil {
			if ctx.Err() == nil {
				fail(k, err, bar)
			}
			return
		}
		p := res.Paper
		indexed <- res.Path
		notes = append(notes, res.Path)
		done = append(done, p)
		it := render.BatchItem{Input: p.CiteKey, CiteKey: p.CiteKey, Status: render.StatusCompiled,
			Detail: render.Count(len(res.Note.Chunks), "chunk") + " from " + render.Count(res.Note.Front.Pages, "page")}
		if p.IsTalk() {
			it.Detail = render.Count(len(res.Note.Chunks), "chunk") + " from " + search.Clock(res.Note.Front.DurationSec*1000) + " of recording"
		}
		if res.Damage != "" {
			it.Warnings = append(it.Warnings, fmt.Sprintf("the PDF is damaged (%s); pdfium repaired it and text may be missing from the note", res.Damage))
		}
		for _, u := range res.Unquotable {
			it.Warnings = append(it.Warnings, fmt.Sprintf("%s: %s; it produces no quotes", unquotableWhere(u), u.Reason))
		}
		items = append(items, it)
		a.printBatchItem(it, bar)
	})
	if bar != nil {
		bar.Finish()
	}
	close(indexed)
	if ixDone != nil {
		ixErr = <-ixDone
	}
	if len(notes) > 0 {
		if ixErr != nil {
			a.reportPartlyIndexed(done, nIndexed, ixErr)
		} else {
			a.reportIndexed(ctx, ix, nil)
		}
	}
	var enrichErr error
	if o.llm && !o.noLLM && len(done) > 0 && ctx.Err() == nil {
		client, model, url, err := a.llmClient(ctx)
		switch {
		case errors.Is(err, llm.ErrUnavailable):
			msg, next := render.Error(err)
			a.notice("%s; the notes were written without new paraphrases (%s, then run crossmem enrich --all)", msg, next)
		case err != nil:
			enrichErr = err
		default:
			_, enrichErr = a.enrichPapers(ctx, done, client, model, url, 0, "compile")
		}
	}
	if err := a.finishBatch("paper", items, hints, ctx.Err()); err != nil {
		return err
	}
	return enrichErr
}
