package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/index"
	"github.com/crossmem/crossmem/internal/llm"
	"github.com/crossmem/crossmem/internal/render"
	"github.com/crossmem/crossmem/internal/status"
)

// statusOptions are status's flags.
type statusOptions struct {
	app   *app
	noLLM bool // do not ask the language model server
}

func newStatusCommand(a *app) *cobra.Command {
	o := &statusOptions{app: a}
	cmd := &cobra.Command{
		Use:     "status",
		Aliases: []string{"doctor"},
		Short:   "Show the library's state and what needs doing (also: crossmem doctor)",
		Long: `Show the library (its folder, papers, compiled notes, chunks served) and what
needs doing, each with the command that does it:

  error  notes edited by hand (chunks no longer matching their text_sha256:
         not served), raw PDFs missing, a damaged search index, sidecars that
         cannot be read, a library folder that does not exist;
  todo   papers captured but not compiled, metadata lookups that failed
         (refresh when online), metadata warnings, notes the index has not
         read yet, a language model server that does not answer (only
         crossmem enrich and compile --llm need one);
  note   removed papers in the trash (crossmem restore).

status writes nothing: it hashes the notes and asks the index, it does not
update it. The language model server is asked for at most 3 seconds
(--no-llm: not at all).

Exit status: 0 no error (todo and note findings included), 1 an error
finding, 2 usage error.`,
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runStatus(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.noLLM, "no-llm", false, "do not ask the language model server")
	a.addJSONFlag(cmd)
	return cmd
}

func runStatus(ctx context.Context, o *statusOptions) error {
	a := o.app
	cfg, err := a.config()
	if err != nil {
		return err
	}
	opts := status.Options{Home: cfg.Home}
	// A library that does not exist is a finding, not created here.
	if _, err := os.Stat(cfg.Home); err == nil {
		lib, err := a.library()
		if err != nil {
			return err
		}
		opts.Lib = lib
		opts.Index = func() (*index.Index, error) { return a.index() }
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("library folder: %w", err)
	}
	if !o.noLLM && opts.Lib != nil {
		server, url := cfg.LLMServer, cfg.LLMURL
		if server == "" {
			server = llm.Ollama
		}
		if url == "" {
			url = llm.DefaultHost
		}
		opts.LLMName = fmt.Sprintf("%s at %s (%s)", server, url, cfg.OllamaModel)
		opts.LLM = func(ctx context.Context) error {
			ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
			defer cancel()
			_, _, _, err := a.llmClient(ctx)
			return err
		}
	}
	rep, err := status.Run(ctx, opts)
	if err != nil {
		return err
	}
	out := render.Status(rep)
	if a.json {
		if err := a.writeJSON(out); err != nil {
			return err
		}
	} else {
		fmt.Fprint(a.io.Out, render.StatusText(out))
	}
	if rep.Errors() > 0 {
		return exitError{ExitError}
	}
	return nil
}
