package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/capture"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/metadata/sources"
	"github.com/crossmem/crossmem/internal/render"
)

// captureOptions are capture's arguments and flags.
type captureOptions struct {
	app     *app
	inputs  []string // local PDFs, folders, arXiv URLs or ids, DOIs, PDF URLs
	doi     string
	citeKey string
	refresh bool
	timeout time.Duration // 0: [network] timeout
	// viaBrowser fetches the one input, an http(s) URL, through the
	// browser extension connected to crossmem serve.
	viaBrowser bool
	subs       string // --subs: the subtitles of a recording
	talk       bool   // --talk: any web page through yt-dlp
}

// captureJSON is capture's --json output for one input.
type captureJSON struct {
	CiteKey  string          `json:"cite_key"`
	Existing bool            `json:"existing"`
	PDF      string          `json:"pdf"`
	Sidecar  string          `json:"sidecar"`
	Metadata metadata.Record `json:"metadata"`
	// Published and Preprint are the other version of the work, when known.
	Published *metadata.Record `json:"published,omitempty"`
	Preprint  *metadata.Record `json:"preprint,omitempty"`
	// PDFMetadata is what the PDF says about itself.
	PDFMetadata *metadata.Record `json:"pdf_metadata,omitempty"`
	// LookupPending is true when the sources could not be reached.
	LookupPending bool `json:"lookup_pending"`
	// Identified says how the paper was looked up ("" when it was not).
	Identified string `json:"identified,omitempty"`
	// KeyIgnored is the --cite-key given for a PDF captured before under
	// another key.
	KeyIgnored string `json:"key_ignored,omitempty"`
	// Consulted lists the metadata questions asked and their outcomes.
	Consulted []metadata.Consultation `json:"consulted"`
}

func newCaptureCommand(a *app) *cobra.Command {
	o := &captureOptions{app: a}
	cmd := &cobra.Command{
		Use:   "capture <input>...",
		Short: "Add papers to the library (local PDFs or folders, arXiv URL or id, DOI, PDF URL)",
		Long: `Add papers to the library: identify each, look up its metadata, save the PDF
to <home>/raw/<unix-ts>_<cite_key>.pdf and the metadata sidecar beside it.

Inputs, matched in this order (first match wins):
  a local recording         ~/talks/lecture.mp4 (.mkv .webm .mov .mp3 .m4a .wav …), --subs FILE
  a local PDF path          ~/Downloads/paper.pdf
  a folder                  ~/papers/ (every *.pdf in it and its subfolders)
  a YouTube URL             https://youtu.be/aircAruvnKk, /watch?v=, /shorts/, /live/
  an arXiv URL or id        https://arxiv.org/abs/1706.03762, 1706.03762v5, hep-th/9901001
  a DOI URL or bare DOI     https://doi.org/10.1063/5.0012345, 10.1063/5.0012345
  an http(s) URL of a PDF   https://example.org/paper.pdf
  a URL of a recording      https://example.org/talk.mp4 (any page yt-dlp reads with --talk)

With --via-browser, the PDF at an http(s) URL is fetched by your browser
(the crossmem extension connected to crossmem serve), with the logins it
has (an institution's library), then captured as above.

A PDF is first identified from what it says about itself: its XMP metadata
and document information, and its first page (the arXiv identifier in the
margin, a printed DOI, the journal's banner, the title and the authors under
it). An arXiv id or DOI found there is looked up as if it had been typed;
otherwise the title is searched and the hit confirmed. The sources' answer is
checked against the PDF: a disagreement is a warning.

When the metadata sources cannot be reached (offline, or no answer within
[network] timeout), the PDF is stored with what it says about itself and its
lookup is pending: crossmem refresh --pending completes it later, keeping
the cite key. A PDF that gives no title at all is kept with no title (never a
made-up one) under a key made from its file name, with a warning saying why
(crossmem rekey renames it); when the name gives no key, pass --cite-key.

A recorded talk is downloaded with yt-dlp (audio, video, metadata, subtitles)
into <home>/raw/youtube/<video_id>/; yt-dlp and ffmpeg are required,
tesseract and whisper.cpp optional (see crossmem compile).

Capturing the same paper again (same arXiv id and version, DOI or PDF bytes)
reports the existing cite key and writes nothing. Several inputs print one
line per paper and a summary; a paper that fails does not stop the others.

Exit status: 0 captured or already present, 1 error (with several inputs:
any failed), 2 unrecognised input or usage error.`,
		Example: `  crossmem capture https://arxiv.org/abs/1706.03762
  crossmem capture ~/Downloads/smith2023.pdf --doi 10.1063/5.0012345
  crossmem capture ~/Downloads/paper.pdf --cite-key jones2024transport
  crossmem capture ~/papers/ a.pdf b.pdf
  key=$(crossmem capture paper.pdf -q)`,
		Args: args(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			o.inputs = argv
			a.createHome = true
			return runCapture(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.doi, "doi", "", "DOI of the paper: fetch its metadata by this DOI (for one local PDF or PDF URL)")
	cmd.Flags().StringVar(&o.citeKey, "cite-key", "", "use this cite key instead of generating one (for one input)")
	cmd.Flags().StringVar(&o.subs, "subs", "", "subtitle file (WebVTT or SubRip) of a recording: its transcript, quoted as written")
	cmd.Flags().BoolVar(&o.talk, "talk", false, "capture the URL as a recorded talk through yt-dlp (any site it supports; YouTube and media file URLs need no flag)")
	cmd.Flags().BoolVar(&o.refresh, "refresh", false, "ignore cached metadata responses; for a paper already captured, refresh its metadata (as crossmem refresh)")
	cmd.Flags().BoolVar(&o.viaBrowser, "via-browser", false, "fetch the PDF at this http(s) URL through your browser (the crossmem extension, connected to a running crossmem serve), with your browser's logins")
	cmd.Flags().DurationVar(&o.timeout, "timeout", 0, "longest wait for the metadata sources per paper, e.g. 10s (default: [network] timeout, 30s)")
	a.addJSONFlag(cmd)
	return cmd
}

func runCapture(ctx context.Context, o *captureOptions) error {
	a := o.app
	if len(o.inputs) == 1 && capture.IsTalkInput(o.inputs[0], o.talk) {
		return captureTalk(ctx, o, o.inputs[0])
	}
	if o.subs != "" {
		if len(o.inputs) > 1 {
			return usageError{errors.New("--subs describes one recording: capture one input at a time to use it")}
		}
		return usageError{fmt.Errorf("--subs is for recorded talks; %s is not one (a YouTube URL, a recording file or its URL)", o.inputs[0])}
	}
	// Bad flag values are usage errors (exit 2), found before any work.
	if err := capture.CheckOptions(capture.Options{DOI: o.doi, CiteKey: o.citeKey}); err != nil {
		return captureUsageError(err)
	}
	inputs, batch, err := expandInputs(o.inputs)
	if err != nil {
		return err
	}
	if o.viaBrowser && (batch || !isHTTPURL(inputs[0])) {
		return usageError{errors.New("--via-browser fetches one http(s) URL: capture --via-browser https://publisher.example/paper.pdf")}
	}
	if batch && (o.doi != "" || o.citeKey != "") {
		return usageError{errors.New("--doi and --cite-key describe one paper: capture one input at a time to use them")}
	}
	lib, err := a.library()
	if err != nil {
		return err
	}
	opts, err := a.captureOptions(ctx, o.refresh, o.timeout)
	if err != nil {
		return err
	}
	opts.DOI, opts.CiteKey = o.doi, o.citeKey
	if o.viaBrowser {
		return captureViaBrowser(ctx, o, lib, inputs[0], opts)
	}
	if batch {
		return captureBatch(ctx, o, lib, inputs, opts)
	}
	return captureSingle(ctx, o, lib, inputs[0], opts)
}

// expandInputs replaces each folder among the inputs by the PDFs in it and
// its subfolders (*.pdf, any case, in name order). batch is true when
// there are several inputs or a folder.
// captureOptions are the options of every capture (the CLI's, and
// crossmem serve's POST /capture): the cite key pattern, pdfium, the
// metadata sources, the download client and the metadata deadline
// (timeout, or [network] timeout when 0).
func (a *app) captureOptions(ctx context.Context, refresh bool, timeout time.Duration) (capture.Options, error) {
	cfg, err := a.config()
	if err != nil {
		return capture.Options{}, err
	}
	engine, err := a.pdfEngine(ctx)
	if err != nil {
		return capture.Options{}, err
	}
	hc, err := a.httpClient(refresh)
	if err != nil {
		return capture.Options{}, err
	}
	sc := a.sourcesConfig(hc)
	if timeout <= 0 {
		timeout = cfg.MetadataTimeout
	}
	if timeout <= 0 {
		timeout = capture.DefaultMetadataTimeout
	}
	return capture.Options{
		Pattern:         cfg.Pattern,
		Engine:          engine,
		Sources:         sources.New(sc),
		ArxivPDFURL:     sc.Arxiv().PDFURL,
		HTTP:            hc,
		MetadataTimeout: timeout,
	}, nil
}

func expandInputs(in []string) (out []string, batch bool, err error) {
	for _, s := range in {
		fi, err := os.Stat(s)
		if err != nil || !fi.IsDir() {
			out = append(out, s)
			continue
		}
		batch = true
		var found []string
		err = filepath.WalkDir(s, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type().IsRegular() && strings.EqualFold(filepath.Ext(p), ".pdf") {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, false, fmt.Errorf("read folder %s: %w", s, err)
		}
		if len(found) == 0 {
			return nil, false, usageError{fmt.Errorf("%s: no PDF files in this folder or below it", s)}
		}
		slices.Sort(found)
		out = append(out, found...)
	}
	return out, batch || len(out) > 1, nil
}

// captureSingle captures one input with the seed's [capture] lines (or,
// with -q, only the cite key; with --json, one object).
func captureSingle(ctx context.Context, o *captureOptions, lib *library.Library, input string, opts capture.Options) error {
	a := o.app
	logf := func(format string, args ...any) {
		if !a.json && !a.quiet {
			fmt.Fprintf(a.io.Out, "[capture] "+format+"\n", args...)
		}
	}
	opts.Log = logf
	lk := a.newLookups("capture", filepath.Base(input), opts.MetadataTimeout, nil)
	opts.OnLookup = lk.on
	res, err := capture.Run(ctx, lib, input, opts)
	lk.end()
	if err != nil {
		return err
	}
	p := res.Paper
	if res.Existing && o.refresh {
		// capture --refresh of a paper already captured: refresh it.
		return runRefresh(ctx, &refreshOptions{app: a, keys: []string{p.CiteKey}, timeout: o.timeout})
	}
	if res.Insecure {
		a.notice("%s was downloaded over plain http://: nothing vouches that it came from that site unaltered", input)
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
			Metadata: p.Metadata, Published: p.Published, Preprint: p.Preprint, PDFMetadata: p.PDFMetadata,
			LookupPending: p.LookupPending, Identified: res.Identified, KeyIgnored: res.KeyIgnored, Consulted: consulted})
	}
	if res.Existing {
		logf("already captured: %s", tildePath(p.PDFPath))
		if res.KeyIgnored != "" {
			a.notice("this PDF was captured before as %s; --cite-key %s was not applied", p.CiteKey, res.KeyIgnored)
			a.hint(render.Hint(hint.Action{Kind: hint.Rekey, Key: p.CiteKey, What: res.KeyIgnored}))
		}
	} else {
		for _, w := range p.Metadata.Warnings {
			a.warn("%s", w)
		}
		if res.Pending {
			a.hint(render.Hint(hint.Action{Kind: hint.RefreshPending}))
		}
		logf("saved to %s", tildePath(p.PDFPath))
	}
	if a.quiet {
		fmt.Fprintln(a.io.Out, p.CiteKey)
		return nil
	}
	fmt.Fprintf(a.io.Out, "cite_key: %s\n", p.CiteKey)
	return nil
}

// captureBatch captures several inputs: one line per paper (or one JSON
// line with --json; only its cite key with -q), then a summary. A paper
// that fails does not stop the others; once the metadata sources prove
// unreachable, the rest are stored without asking (lookups pending). It
// fails with exit status 1 when any paper failed.
func captureBatch(ctx context.Context, o *captureOptions, lib *library.Library, inputs []string, opts capture.Options) error {
	a := o.app
	var bar *progressbar.ProgressBar
	if a.showProgress() {
		bar = progressbar.NewOptions(len(inputs), progressbar.OptionSetWriter(a.io.Err), progressbar.OptionSetDescription("[capture]"),
			progressbar.OptionShowCount(), progressbar.OptionClearOnFinish())
	}
	var items []render.BatchItem
	var hints []string
	for i, input := range inputs {
		if ctx.Err() != nil {
			break
		}
		name := batchName(input)
		lk := a.newLookups("capture", fmt.Sprintf("%d/%d %s", i+1, len(inputs), name), opts.MetadataTimeout, bar)
		opts.OnLookup = lk.on
		var res *capture.Result
		var err error
		if capture.IsTalkInput(input, o.talk) {
			res, err = a.captureTalkInput(ctx, o, lib, input, nil)
		} else {
			res, err = capture.Run(ctx, lib, input, opts)
		}
		lk.end()
		it := render.BatchItem{Input: input}
		switch {
		case err != nil:
			it.Status = render.StatusFailed
			it.Error, it.Hint = render.Error(err)
			if it.Hint != "" && !slices.Contains(hints, it.Hint) {
				hints = append(hints, it.Hint)
			}
		case res.Existing:
			it.Status, it.CiteKey, it.Pending = render.StatusExisting, res.Paper.CiteKey, res.Paper.LookupPending
		default:
			it.Status, it.CiteKey, it.Pending = render.StatusCaptured, res.Paper.CiteKey, res.Pending
			it.Warnings = res.Paper.Metadata.Warnings
			if res.Unreachable && !opts.Offline {
				opts.Offline = true
				if !a.json {
					a.warn("the metadata sources could not be reached; the remaining PDFs are stored with what they say about themselves, their lookups pending")
				}
			}
		}
		items = append(items, it)
		if bar != nil {
			bar.Describe("[capture]")
			bar.Add(1)
		}
		a.printBatchItem(it, bar)
	}
	if bar != nil {
		bar.Finish()
	}
	return a.finishBatch("PDF", items, hints, ctx.Err())
}

// batchName is how a batch line names an input: a file by its base name.
func batchName(input string) string {
	if fi, err := os.Stat(input); err == nil && fi.Mode().IsRegular() {
		return filepath.Base(input)
	}
	return input
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
