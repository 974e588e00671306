package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/compile"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/llm"
	"github.com/crossmem/crossmem/internal/render"
)

// compileOptions are compile's arguments and flags.
type compileOptions struct {
	app   *app
	key   string // a cite key or alias
	llm   bool   // run the enrich stage after compiling
	noLLM bool   // accepted for old scripts; compile asks no model without --llm
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
	Page   int    `json:"page"`
	Reason string `json:"reason"`
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
		Use:   "compile <cite_key>",
		Short: "Parse a captured PDF into a wiki note of verbatim chunks with provenance",
		Long: `Parse the captured PDF of <cite_key> with pdfium and write the wiki note
<home>/wiki/<unix-ts>_<cite_key>.md: frontmatter, citations, and paragraph-level
chunks whose text is the PDF text layer verbatim, each with page, section, bbox,
SHA-256 and byte range. Pages without a usable text layer are listed in the note
and produce no quotes.

Re-compiling replaces the note and keeps the advisory paraphrase and implication
of chunks whose text did not change. --llm then runs crossmem enrich on the paper
(see crossmem enrich --help); when no model server answers, the note is written
without paraphrases and one notice says so.

Exit status: 0 written, 1 error (or, with --llm, chunks the model could not
answer for), 130 interrupted.`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			o.key = argv[0]
			return runCompile(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.llm, "llm", false, "then ask the local language model for paraphrases and implications (crossmem enrich)")
	cmd.Flags().BoolVar(&o.noLLM, "no-llm", false, "ask no language model (the default; kept for old scripts)")
	cmd.Flags().MarkHidden("no-llm")
	a.addJSONFlag(cmd)
	return cmd
}

func runCompile(ctx context.Context, o *compileOptions) error {
	a := o.app
	lib, err := a.library()
	if err != nil {
		return err
	}
	paper, err := lib.Find(o.key)
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
		if !a.json {
			fmt.Fprintf(a.io.Out, "[compile] "+format+"\n", args...)
		}
	}
	say("loading raw PDF for %s", paper.CiteKey)
	engine, err := a.pdfEngine(ctx)
	if err != nil {
		return err
	}
	c, err := a.citer()
	if err != nil {
		return err
	}
	opts := compile.Options{Engine: engine, Cite: c}
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
		a.notice("page %d of %s: %s; it produces no quotes", u.Page, paper.CiteKey, u.Reason)
	}
	info := llmJSON{Reused: res.Reused, Annotated: res.Reused}
	say("%d chunks extracted from %d pages", len(res.Note.Chunks), res.Note.Front.Pages)
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
			out.UnquotablePages = append(out.UnquotablePages, unquotableJSON{u.Page, u.Reason})
		}
		if err := a.writeJSON(out); err != nil {
			return err
		}
	}
	return enrichErr
}
