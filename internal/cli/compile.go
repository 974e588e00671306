package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/compile"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/library"
)

// compileOptions are compile's arguments and flags.
type compileOptions struct {
	app   *app
	key   string // a cite key or alias
	noLLM bool
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

type llmJSON struct {
	Used      bool   `json:"used"`
	Annotated int    `json:"annotated"`
	Reused    int    `json:"reused"`
	Failed    int    `json:"failed"`
	Notice    string `json:"notice,omitempty"`
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

If an Ollama server answers (OLLAMA_HOST, model CROSSMEM_OLLAMA_MODEL), each chunk
also gets an advisory paraphrase and implication; otherwise the note is written
without them. Re-compiling replaces the note and reuses the annotations of chunks
whose text did not change.

Exit status: 0 written, 1 error.`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			o.key = argv[0]
			return runCompile(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.noLLM, "no-llm", false, "do not ask Ollama for paraphrase/implication")
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
	info := llmJSON{}
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
	info.Reused = res.Reused
	if a.json {
		out := compileJSON{CiteKey: paper.CiteKey, Note: res.Path, Damage: res.Damage, Chunks: len(res.Note.Chunks), Pages: res.Note.Front.Pages, UnquotablePages: []unquotableJSON{}, LLM: info}
		for _, u := range res.Unquotable {
			out.UnquotablePages = append(out.UnquotablePages, unquotableJSON{u.Page, u.Reason})
		}
		return a.writeJSON(out)
	}
	say("%d chunks extracted from %d pages", len(res.Note.Chunks), res.Note.Front.Pages)
	if res.Reused > 0 {
		say("paraphrase/implication: %d kept from the previous note", res.Reused)
	}
	say("wiki saved to %s", tildePath(res.Path))
	return nil
}
