package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/config"
	"github.com/crossmem/crossmem/internal/enrich"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/llm"
	"github.com/crossmem/crossmem/internal/render"
)

// enrichOptions are enrich's arguments and flags.
type enrichOptions struct {
	app         *app
	keys        []string // cite keys or aliases
	all         bool
	concurrency int
}

// enrichJSON is enrich's --json output.
type enrichJSON struct {
	*enrich.Result
	Server          string  `json:"server"` // URL
	Concurrency     int     `json:"concurrency"`
	Interrupted     bool    `json:"interrupted"`
	Seconds         float64 `json:"seconds"`
	ChunksPerSecond float64 `json:"chunks_per_second"`
}

func newEnrichCommand(a *app) *cobra.Command {
	o := &enrichOptions{app: a}
	cmd := &cobra.Command{
		Use:   "enrich [<cite_key>...|--all]",
		Short: "Ask the local language model for each chunk's advisory paraphrase and implication",
		Long: `Ask a local language model (Ollama, or an OpenAI-compatible server such as
llama.cpp's llama-server, LM Studio or vLLM: [llm] in the config file) for the
paraphrase and implication of every paragraph, list item and figure or table
caption of the compiled papers, and write them into their wiki notes. Headings,
running heads, page numbers, footnotes, references, equations, code and the
text inside tables and figures are never asked about.

What the model writes is advisory: it goes into the "**Paraphrase:**" and
"**Implication:**" lines and the search index's advisory lane, never into a
"> " quote line, a hash, the metadata or a citation.

Each answer is stored in <home>/index.db as it arrives, under the chunk's
text_sha256, the model, its digest and the prompt version, and the notes are
rewritten from that store every 30 seconds and at the end. An interrupted run
(Ctrl-C) keeps every answer that arrived; running enrich again asks only for
the rest. Another model, or a new model version under the same name, is asked
anew. Requests run [llm] concurrency at a time (0: as many as the server
serves at once), each bounded by [llm] timeout, retried with backoff when a
retry can help; 5 chunks failing in a row stop the run.

Exit status: 0 done, 1 error (no server, the model missing, chunks that failed),
2 usage error, 130 interrupted.`,
		Args: args(func(cmd *cobra.Command, argv []string) error {
			switch {
			case o.all && len(argv) > 0:
				return errors.New("give cite keys or --all, not both")
			case !o.all && len(argv) == 0:
				return errors.New("give one or more cite keys, or --all for every compiled paper")
			}
			return nil
		}),
		RunE: func(cmd *cobra.Command, argv []string) error {
			o.keys = argv
			return runEnrich(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.all, "all", false, "enrich every compiled paper")
	cmd.Flags().IntVar(&o.concurrency, "concurrency", 0, "requests open at once (0: [llm] concurrency, or what the server serves at once)")
	a.addJSONFlag(cmd)
	return cmd
}

func runEnrich(ctx context.Context, o *enrichOptions) error {
	a := o.app
	if o.concurrency < 0 {
		return usageError{errors.New("--concurrency must not be negative")}
	}
	lib, err := a.library()
	if err != nil {
		return err
	}
	var papers []*library.Paper
	if o.all {
		all, problems := lib.Papers()
		for _, err := range problems {
			a.warn("%v", err)
		}
		for _, p := range all {
			if p.HasNote() {
				papers = append(papers, p)
			}
		}
		if len(papers) == 0 {
			return hint.Wrap(errors.New("no compiled paper to enrich"), hint.Action{Kind: hint.Compile})
		}
	} else {
		for _, key := range o.keys {
			p, err := lib.Find(key)
			if err != nil {
				return hint.Wrap(err, hint.Action{Kind: hint.CaptureFirst})
			}
			if !p.HasNote() {
				return hint.Wrap(fmt.Errorf("%s is not compiled yet", p.CiteKey), hint.Action{Kind: hint.Compile, Key: p.CiteKey})
			}
			papers = append(papers, p)
		}
	}
	client, model, url, err := a.llmClient(ctx)
	if err != nil {
		return err
	}
	out, err := a.enrichPapers(ctx, papers, client, model, url, o.concurrency, "enrich")
	if a.json && out != nil {
		if jerr := a.writeJSON(out); jerr != nil && err == nil {
			err = jerr
		}
	}
	return err
}

// llmClient returns the configured language model client, the model it
// asks (identified by the server) and the server's URL. An unavailable
// server or model is an error wrapping llm.ErrUnavailable that says what to
// do (`ollama serve`, `ollama pull <model>`).
func (a *app) llmClient(ctx context.Context) (llm.Client, llm.Model, string, error) {
	cfg, err := a.config()
	if err != nil {
		return nil, llm.Model{}, "", err
	}
	client, err := llm.New(cfg.LLMServer, llm.Options{URL: cfg.LLMURL, Model: cfg.OllamaModel, APIKey: cfg.LLMAPIKey,
		Timeout: cfg.LLMTimeout, Temperature: cfg.LLMTemperature})
	if err != nil {
		return nil, llm.Model{}, "", fmt.Errorf("config file %s: %w", cfg.ConfigPath, err)
	}
	model, err := client.Identify(ctx)
	url := cfg.LLMURL
	if url == "" {
		url = llm.DefaultHost
	}
	if !strings.Contains(url, "://") {
		url = "http://" + url // as the client reads it
	}
	return client, model, url, err
}

// enrichPapers runs the enrich stage on papers and reports it, as
// `crossmem enrich` and `compile --llm` do: progress with ETA on a
// terminal, a summary on stdout (lines prefixed [stage]) unless --json,
// notices on stderr, and an error for what did not finish. It returns
// the outcome for --json (nil when the stage could not start).
func (a *app) enrichPapers(ctx context.Context, papers []*library.Paper, client llm.Client, model llm.Model, url string, concurrency int, stage string) (*enrichJSON, error) {
	cfg, err := a.config()
	if err != nil {
		return nil, err
	}
	lib, err := a.library()
	if err != nil {
		return nil, err
	}
	// The index holds the store; syncing it first takes back the answers
	// that notes hold (after the index was rebuilt).
	ix, err := a.syncedIndex(ctx)
	if err != nil {
		return nil, err
	}
	if concurrency == 0 {
		concurrency = cfg.LLMConcurrency
	}
	if concurrency == 0 {
		switch cfg.LLMServer {
		case config.LLMOllama:
			concurrency = cfg.OllamaNumParallel
		default:
			concurrency = client.Slots(ctx)
		}
	}
	concurrency = max(concurrency, 1)
	say := func(format string, args ...any) {
		if !a.json && !a.quiet {
			fmt.Fprintf(a.io.Out, "["+stage+"] "+format+"\n", args...)
		}
	}
	digest := model.Digest
	if len(digest) > 12 {
		digest = digest[:12]
	}
	if digest == "" {
		digest = "none"
	}
	say("model %s (%s, digest %s) at %s, %d request(s) at a time", model.Name, model.Server, digest, url, concurrency)
	opts := enrich.Options{Lib: lib, Store: ix, Client: client, Model: model, Concurrency: concurrency}
	if bar := a.progress(stage, "chunks"); bar != nil {
		opts.Progress = func(p enrich.Progress) { bar(p.Done+p.Failed, p.Total) }
	}
	res, runErr := enrich.Run(ctx, papers, opts)
	a.progressDone()
	interrupted := errors.Is(runErr, context.Canceled)
	for _, p := range res.Papers {
		if p.Skipped != "" {
			a.warn("%s skipped: %s", p.CiteKey, p.Skipped)
			if p.Next.Kind != hint.None {
				a.hint(render.Hint(p.Next))
			}
		}
	}
	rate := 0.0
	if s := res.Elapsed.Seconds(); s > 0 {
		rate = float64(res.Answered) / s
	}
	out := &enrichJSON{Result: res, Server: url, Concurrency: concurrency, Interrupted: interrupted,
		Seconds: res.Elapsed.Seconds(), ChunksPerSecond: rate}
	if !a.json {
		for _, p := range res.Papers {
			if p.Skipped == "" {
				say("%s: %d of %d chunks have a paraphrase and implication", p.CiteKey, p.Annotated, p.Eligible)
			}
		}
		say("%d distinct chunk texts: %d answered before, %d asked, %d answered, %d failed (%.0f s, %.2f chunks/s)",
			res.Texts, res.Stored, res.Asked, res.Answered, res.Failed, res.Elapsed.Seconds(), rate)
	}
	if res.RetryReason != "" {
		a.notice("some requests were retried (first reason: %s)", res.RetryReason)
	}
	again := hint.Action{Kind: hint.EnrichAgain}
	if len(papers) == 1 {
		again.Key = papers[0].CiteKey
	}
	switch {
	case interrupted:
		a.notice("interrupted; %d answers were kept and written to the notes, %d not asked yet", res.Answered, res.Asked-res.Answered)
		return out, hint.Wrap(runErr, again) // Main says "interrupted" with this hint
	case errors.Is(runErr, enrich.ErrBreaker):
		return out, fmt.Errorf("%w (%d answers were kept)", runErr, res.Answered)
	case runErr != nil:
		return out, runErr
	case res.Failed > 0:
		return out, hint.Wrap(fmt.Errorf("the model could not answer for %d chunk texts (first error: %s)", res.Failed, res.FirstError), again)
	}
	skipped := 0
	for _, p := range res.Papers {
		if p.Skipped != "" {
			skipped++
		}
	}
	if skipped > 0 && skipped == len(res.Papers) {
		return out, fmt.Errorf("no paper could be enriched (%d skipped)", skipped)
	}
	return out, nil
}
