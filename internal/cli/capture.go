package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/capture"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/metadata/sources"
	"github.com/crossmem/crossmem/internal/render"
)

// captureOptions are capture's arguments and flags.
type captureOptions struct {
	app     *app
	input   string // a local PDF, arXiv URL or id, DOI or PDF URL
	doi     string
	citeKey string
	refresh bool
}

// captureJSON is capture's --json output.
type captureJSON struct {
	CiteKey  string          `json:"cite_key"`
	Existing bool            `json:"existing"`
	PDF      string          `json:"pdf"`
	Sidecar  string          `json:"sidecar"`
	Metadata metadata.Record `json:"metadata"`
	// Published and Preprint are the other version of the work, when known.
	Published *metadata.Record `json:"published,omitempty"`
	Preprint  *metadata.Record `json:"preprint,omitempty"`
	// Consulted lists the metadata questions asked and their outcomes.
	Consulted []metadata.Consultation `json:"consulted"`
}

func newCaptureCommand(a *app) *cobra.Command {
	o := &captureOptions{app: a}
	cmd := &cobra.Command{
		Use:   "capture <input>",
		Short: "Add a paper to the library (arXiv URL or id, DOI, local PDF, https PDF URL)",
		Long: `Add a paper to the library: fetch its metadata, save the PDF to
<home>/raw/<unix-ts>_<cite_key>.pdf and the metadata sidecar beside it.

Inputs, matched in this order (first match wins):
  a local PDF path          ~/Downloads/paper.pdf
  an arXiv URL or id        https://arxiv.org/abs/1706.03762, 1706.03762v5, hep-th/9901001
  a DOI URL or bare DOI     https://doi.org/10.1063/5.0012345, 10.1063/5.0012345
  an https URL of a PDF     https://example.org/paper.pdf

Capturing the same paper again (same arXiv id and version, DOI or PDF bytes)
reports the existing cite key and writes nothing.

Exit status: 0 captured or already present, 1 error, 2 unrecognised input.`,
		Example: `  crossmem capture https://arxiv.org/abs/1706.03762
  crossmem capture ~/Downloads/smith2023.pdf --doi 10.1063/5.0012345
  crossmem capture ~/Downloads/paper.pdf --cite-key jones2024transport`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			o.input = argv[0]
			return runCapture(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.doi, "doi", "", "DOI of the paper: fetch its Crossref metadata (for local PDFs and PDF URLs)")
	cmd.Flags().StringVar(&o.citeKey, "cite-key", "", "use this cite key instead of generating one")
	cmd.Flags().BoolVar(&o.refresh, "refresh", false, "ignore cached metadata responses; for a paper already captured, refresh its metadata (as crossmem refresh)")
	a.addJSONFlag(cmd)
	return cmd
}

func runCapture(ctx context.Context, o *captureOptions) error {
	a := o.app
	// Bad flag values are usage errors (exit 2), found before any work.
	if err := capture.CheckOptions(capture.Options{DOI: o.doi, CiteKey: o.citeKey}); err != nil {
		return captureUsageError(err)
	}
	cfg, err := a.config()
	if err != nil {
		return err
	}
	lib, err := a.library()
	if err != nil {
		return err
	}
	engine, err := a.pdfEngine(ctx)
	if err != nil {
		return err
	}
	hc, err := a.httpClient(o.refresh)
	if err != nil {
		return err
	}
	sc := a.sourcesConfig(hc)
	logf := func(format string, args ...any) {
		if !a.json {
			fmt.Fprintf(a.io.Out, "[capture] "+format+"\n", args...)
		}
	}
	res, err := capture.Run(ctx, lib, o.input, capture.Options{
		DOI:         o.doi,
		CiteKey:     o.citeKey,
		Pattern:     cfg.Pattern,
		Engine:      engine,
		Sources:     sources.New(sc),
		ArxivPDFURL: sc.Arxiv().PDFURL,
		HTTP:        hc,
		Log:         logf,
	})
	if err != nil {
		return err
	}
	p := res.Paper
	if res.Existing && o.refresh {
		// capture --refresh of a paper already captured: refresh it.
		return runRefresh(ctx, &refreshOptions{app: a, key: p.CiteKey})
	}
	if a.json {
		consulted := res.Consulted
		if consulted == nil {
			consulted = p.Consulted
		}
		if consulted == nil {
			consulted = []metadata.Consultation{}
		}
		return a.writeJSON(captureJSON{CiteKey: p.CiteKey, Existing: res.Existing, PDF: p.PDFPath, Sidecar: p.SidecarPath,
			Metadata: p.Metadata, Published: p.Published, Preprint: p.Preprint, Consulted: consulted})
	}
	if res.Existing {
		logf("already captured: %s", tildePath(p.PDFPath))
	} else {
		for _, w := range p.Metadata.Warnings {
			a.warn("%s", w)
		}
		if res.Offline {
			a.hint(render.Hint(hint.Action{Kind: hint.RefreshOnline, Key: p.CiteKey}))
		}
		logf("saved to %s", tildePath(p.PDFPath))
	}
	fmt.Fprintf(a.io.Out, "cite_key: %s\n", p.CiteKey)
	return nil
}

// captureUsageError words an invalid capture option as a usage error,
// naming the flag of a DOI that is not one.
func captureUsageError(err error) error {
	var oe *capture.OptionError
	if errors.As(err, &oe) && oe.Option == "DOI" {
		return usageError{fmt.Errorf("--doi %w", err)}
	}
	return usageError{err}
}
