// Package cli is crossmem's command line: the verbs, their flags, the
// resolution of configuration, the rendering of results as text or JSON,
// and the mapping of errors to exit codes. It is the only package that
// writes to stdout.
//
// Exit codes: 0 success; 1 error, or drift found by verify; 2 usage error
// (unknown flag, wrong number of arguments, unrecognised input); 130
// interrupted.
//
// Every verb has one file, <verb>.go, with the same three parts (gh's
// command shape): newXCommand(a *app) builds the cobra command and binds
// its arguments and flags to an xOptions; xOptions holds them and the app
// (the configuration and the resources verbs share, opened on first use);
// runX(ctx, o *xOptions) does the work and prints. RunE only fills the
// options from the arguments and calls runX. Work that is not about the
// command line (what counts as a problem, which keys a draft cites) lives
// in the domain packages; results are worded by internal/render. A group
// of verbs (mcp) is a command built with groupCommand. TestCommandShape
// checks the shape, and that ARCHITECTURE.md lists every verb.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/crossmem/crossmem/internal/citation"
	"github.com/crossmem/crossmem/internal/cite"
	"github.com/crossmem/crossmem/internal/config"
	"github.com/crossmem/crossmem/internal/fetch"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/identifier"
	"github.com/crossmem/crossmem/internal/index"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/llm"
	"github.com/crossmem/crossmem/internal/metadata/sources"
	"github.com/crossmem/crossmem/internal/pdf"
	"github.com/crossmem/crossmem/internal/render"
)

// Version is crossmem's version.
const Version = "0.1.0"

// Exit codes.
const (
	ExitOK          = 0
	ExitError       = 1
	ExitUsage       = 2
	ExitInterrupted = 130
)

// IO is where a command reads and writes, and what it knows about them.
type IO struct {
	In        io.Reader
	Out       io.Writer // results only
	Err       io.Writer // progress, notices, errors
	StdoutTTY bool
	StderrTTY bool
	Getenv    func(string) string
}

// System returns the process's standard streams.
func System() IO {
	return IO{
		In: os.Stdin, Out: os.Stdout, Err: os.Stderr,
		StdoutTTY: term.IsTerminal(int(os.Stdout.Fd())),
		StderrTTY: term.IsTerminal(int(os.Stderr.Fd())),
		Getenv:    os.Getenv,
	}
}

// usageError marks errors that exit with ExitUsage.
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

// exitError carries an exit code for a failure already reported (verify's
// drift).
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// app holds the resolved configuration and the resources commands share.
// Resources are created on first use and released by close.
type app struct {
	io      IO
	servers Servers
	quiet   bool
	json    bool
	cfg     *config.Config
	lib     *library.Library
	engine  *pdf.Engine
	ix      *index.Index
	bar     *progressbar.ProgressBar
	// barDesc is bar's label: a callback with another label (or another
	// total) replaces the bar.
	barDesc string
	// createHome is set by the verbs that add to the library (capture,
	// import, serve): only they create a library folder that does not
	// exist. Every other verb reports it, so that a mistyped CROSSMEM_HOME
	// is never read as an empty library.
	createHome bool
}

// progress returns a progress callback (i of n) that draws a bar on stderr
// labelled "[stage] unit" when progress is wanted, or nil. Callbacks share
// one bar: a call with another label or total starts a new one.
// progressDone clears it.
func (a *app) progress(stage, unit string) func(i, n int) {
	if !a.showProgress() {
		return nil
	}
	desc := "[" + stage + "] " + unit
	return func(i, n int) {
		if a.bar == nil || a.bar.GetMax() != n || a.barDesc != desc {
			a.progressDone()
			a.bar = progressbar.NewOptions(n, progressbar.OptionSetWriter(a.io.Err), progressbar.OptionSetDescription(desc),
				progressbar.OptionShowCount(), progressbar.OptionClearOnFinish())
			a.barDesc = desc
		}
		a.bar.Set(i)
	}
}

func (a *app) progressDone() {
	if a.bar != nil {
		a.bar.Finish()
		a.bar = nil
	}
}

func (a *app) config() (*config.Config, error) {
	if a.cfg != nil {
		return a.cfg, nil
	}
	cfg, warnings, err := config.Resolve(a.io.Getenv)
	if err != nil {
		return nil, err
	}
	for _, w := range warnings {
		a.warn("%s", w)
	}
	a.cfg = cfg
	return cfg, nil
}

func (a *app) library() (*library.Library, error) {
	if a.lib != nil {
		return a.lib, nil
	}
	cfg, err := a.config()
	if err != nil {
		return nil, err
	}
	if !a.createHome {
		if _, err := os.Stat(cfg.Home); errors.Is(err, fs.ErrNotExist) {
			return nil, hint.Wrap(fmt.Errorf("the library folder %s does not exist", cfg.Home), hint.Action{Kind: hint.CheckHome, Path: cfg.Home})
		}
	}
	lib, err := library.Open(cfg.Home)
	if err != nil {
		return nil, err
	}
	for _, t := range lib.Tidied {
		a.notice("%s", t)
	}
	a.lib = lib
	return lib, nil
}

// citer renders citations as the configuration says ([citation] version,
// chicago_edition, bibtex_unicode).
func (a *app) citer() (cite.Citer, error) {
	cfg, err := a.config()
	if err != nil {
		return cite.Citer{}, err
	}
	lib, err := a.library()
	if err != nil {
		return cite.Citer{}, err
	}
	c := cite.Citer{Lib: lib, Version: cfg.CiteVersion, ChicagoEdition: cfg.ChicagoEdition}
	if cfg.BibTeXLaTeX {
		c.Unicode = citation.UnicodeLaTeX
	}
	return c, nil
}

func (a *app) pdfEngine(ctx context.Context) (*pdf.Engine, error) {
	if a.engine != nil {
		return a.engine, nil
	}
	cfg, err := a.config()
	if err != nil {
		return nil, err
	}
	e, err := pdf.Open(ctx, pdf.Options{CacheDir: filepath.Join(cfg.CacheDir, "wazero")})
	if err != nil {
		return nil, err
	}
	a.engine = e
	return e, nil
}

func (a *app) httpClient(refresh bool) (*fetch.Client, error) {
	cfg, err := a.config()
	if err != nil {
		return nil, err
	}
	ua := "crossmem/" + Version + " (+https://github.com/crossmem/crossmem"
	if cfg.ContactEmail != "" {
		ua += "; mailto:" + cfg.ContactEmail
	}
	ua += ")"
	return fetch.New(fetch.Options{
		UserAgent: ua,
		CacheDir:  filepath.Join(cfg.CacheDir, "http"),
		Refresh:   refresh,
	}), nil
}

// sourcesConfig selects the metadata services from the configuration.
func (a *app) sourcesConfig(hc *fetch.Client) sources.Config {
	cfg := a.cfg
	return sources.Config{
		HTTP:     hc,
		ArxivAPI: cfg.ArxivAPI, ArxivPDF: cfg.ArxivPDF,
		CrossrefAPI: cfg.CrossrefAPI, OpenAlexAPI: cfg.OpenAlexAPI,
		DataCiteAPI: cfg.DataCiteAPI, UnpaywallAPI: cfg.UnpaywallAPI,
		Mailto: cfg.ContactEmail, UnpaywallEmail: cfg.UnpaywallEmail,
	}
}

func (a *app) close() {
	if a.engine != nil {
		a.engine.Close()
	}
	if a.ix != nil {
		a.ix.Close()
	}
}

// index opens the library's search index (<home>/index.db), with the
// vector lane when [search] embeddings = "ollama".
func (a *app) index() (*index.Index, error) {
	if a.ix != nil {
		return a.ix, nil
	}
	cfg, err := a.config()
	if err != nil {
		return nil, err
	}
	lib, err := a.library()
	if err != nil {
		return nil, err
	}
	ix, err := index.Open(filepath.Join(lib.Home, index.FileName), lib.WikiDir())
	if err != nil {
		return nil, err
	}
	if cfg.Embeddings == "ollama" {
		ix.Embedder = llm.NewEmbedder(cfg.OllamaHost, cfg.EmbedModel)
	}
	ix.BM25Weight, ix.VectorWeight, ix.AdvisoryWeight = cfg.BM25Weight, cfg.VectorWeight, cfg.AdvisoryWeight
	a.ix = ix
	return ix, nil
}

// indexNotes brings the search index up to date, in one transaction, for
// the notes this command wrote (or removed), and embeds their new chunk
// texts when embeddings are on. A failure is reported on stderr and does not fail the command: the
// notes are written, and `crossmem index` catches up.
func (a *app) indexNotes(ctx context.Context, paths ...string) {
	ix, err := a.index()
	if err == nil {
		err = ix.UpdateNotes(ctx, paths...)
	}
	a.reportIndexed(ctx, ix, err)
}

// reportIndexed reports the end of an index update (err, nil for none)
// of notes this command wrote, and embeds their new chunk texts when
// embeddings are on, as indexNotes.
func (a *app) reportIndexed(ctx context.Context, ix *index.Index, err error) {
	if err != nil {
		a.warn("the search index was not updated (%v)", err)
		a.hint("run crossmem index")
		return
	}
	if ix.Embedder != nil {
		if _, err := ix.EmbedMissing(ctx, nil); err != nil {
			a.notice("chunk embeddings not computed (%v); search uses BM25 until crossmem index can reach the embedding server", err)
		}
	}
}

// viewerBase returns the library viewer's base URL, where `crossmem serve`
// listens: http://127.0.0.1:<port> ("" when the configuration cannot be
// read). Results carry links to it (search hits, check sources).
func (a *app) viewerBase() string {
	cfg, err := a.config()
	if err != nil {
		return ""
	}
	return "http://127.0.0.1:" + strconv.Itoa(cfg.ServePort)
}

// showProgress reports whether progress output is wanted.
func (a *app) showProgress() bool { return a.io.StderrTTY && !a.quiet && !a.json }

// Main runs crossmem with args (without the program name) and returns the
// exit code. servers are the servers `crossmem mcp serve` starts (the zero
// value has none: that verb then fails).
func Main(ctx context.Context, args []string, stdio IO, servers Servers) int {
	if stdio.Getenv == nil {
		stdio.Getenv = os.Getenv
	}
	a := &app{io: stdio, servers: servers}
	defer a.close()
	root := newRoot(a)
	root.SetArgs(args)
	root.SetIn(stdio.In)
	root.SetOut(stdio.Out)
	root.SetErr(stdio.Err)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return ExitOK
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	code := ExitError
	var ue usageError
	switch {
	case errors.As(err, &ue), errors.Is(err, identifier.ErrUnrecognized):
		code = ExitUsage
	case errors.Is(err, context.Canceled):
		code = ExitInterrupted
	}
	if code == ExitInterrupted {
		a.printInterrupted(err)
		return code
	}
	a.printError(err)
	if _, has := hint.Of(err); code == ExitUsage && !has {
		if cmd != nil && cmd != root {
			a.hint("run '" + cmd.CommandPath() + " --help' for usage")
		} else {
			a.hint("run 'crossmem --help' or 'crossmem <command> --help' for usage")
		}
	}
	return code
}

// printError writes err as "crossmem: error: <message>" (later lines of
// the message as they are) and, when err says what to do next, "crossmem:
// hint: <hint>" (internal/render words both). With --json it also writes
// {"error": ..., "hint": ...} as one line.
func (a *app) printError(err error) {
	msg, next := render.Error(err)
	lines := strings.Split(msg, "\n")
	fmt.Fprintf(a.io.Err, "crossmem: error: %s\n", lines[0])
	for _, l := range lines[1:] {
		fmt.Fprintln(a.io.Err, l)
	}
	if next != "" {
		a.hint(next)
	}
	if a.json {
		v := map[string]string{"error": msg}
		if next != "" {
			v["hint"] = next
		}
		b, _ := json.Marshal(v)
		fmt.Fprintln(a.io.Err, string(b))
	}
}

// printInterrupted reports a run stopped by Ctrl-C or SIGTERM (err wraps
// context.Canceled) as "crossmem: interrupted", not as the error "context
// canceled", with err's hint or else how to finish (with --json also
// {"error": "interrupted", "hint": ...}).
func (a *app) printInterrupted(err error) {
	next := "run the same command again to finish"
	if h, ok := hint.Of(err); ok {
		next = render.Hint(h)
	}
	fmt.Fprintln(a.io.Err, "crossmem: interrupted")
	a.hint(next)
	if a.json {
		b, _ := json.Marshal(map[string]string{"error": "interrupted", "hint": next})
		fmt.Fprintln(a.io.Err, string(b))
	}
}

// hint writes "crossmem: hint: <text>" on stderr: the one form of every
// suggestion of what to do next.
func (a *app) hint(text string) {
	fmt.Fprintf(a.io.Err, "crossmem: hint: %s\n", text)
}

// warn writes "crossmem: warning: <text>" on stderr.
func (a *app) warn(format string, args ...any) {
	fmt.Fprintf(a.io.Err, "crossmem: warning: "+format+"\n", args...)
}

// notice writes "crossmem: notice: <text>" on stderr.
func (a *app) notice(format string, args ...any) {
	fmt.Fprintf(a.io.Err, "crossmem: notice: "+format+"\n", args...)
}

func newRoot(a *app) *cobra.Command {
	root := &cobra.Command{
		Use:   "crossmem",
		Short: "Local-first citation and knowledge pipeline: capture, compile, verify, cite, recall",
		Long: `crossmem captures papers (arXiv, DOI, local PDF, PDF URL) with their metadata,
compiles each PDF into a markdown wiki note of verbatim, hash-checked chunks with
provenance (page, section, bbox, SHA-256), and serves citations and search to AI
agents over MCP and a local library viewer. With no command it runs
crossmem serve.

Environment: CROSSMEM_HOME (library, default ~/crossmem), CROSSMEM_CONFIG
(config file, default ~/.crossmem/config.toml), CROSSMEM_LOG, OLLAMA_HOST,
CROSSMEM_OLLAMA_MODEL, BRIDGE_PORT (crossmem serve's port, default 7600).

Exit status: 0 success, 1 error or drift, 2 usage error, 130 interrupted.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       Version,
	}
	root.PersistentFlags().BoolVarP(&a.quiet, "quiet", "q", false, "only results: no progress on stderr, no [stage] log lines (capture, compile and refresh print only the cite key)")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError{err} })
	groupCommand(root)
	// The seed: "crossmem # 'serve' is the default when no subcommand is
	// given".
	root.RunE = func(cmd *cobra.Command, _ []string) error {
		return runServe(cmd.Context(), &serveOptions{app: a})
	}
	root.AddCommand(
		newCaptureCommand(a),
		newCompileCommand(a),
		newEnrichCommand(a),
		newRefreshCommand(a),
		newVerifyCommand(a),
		newSearchCommand(a),
		newIndexCommand(a),
		newCiteCommand(a),
		newImportCommand(a),
		newRekeyCommand(a),
		newBibCommand(a),
		newCheckCommand(a),
		newReadCommand(a),
		newListCommand(a),
		newRemoveCommand(a),
		newRestoreCommand(a),
		newStatusCommand(a),
		newMCPCommand(a),
		newServeCommand(a),
		newOpenCommand(a),
	)
	return root
}

// groupCommand makes cmd, a command that only holds subcommands, print
// its help when run bare and treat an unknown subcommand as a usage error
// (exit 2) with cobra's "did you mean" suggestions; cobra's own check would
// make it a plain error (exit 1).
func groupCommand(cmd *cobra.Command) {
	cmd.Args = args(func(cmd *cobra.Command, a []string) error {
		if len(a) == 0 {
			return nil
		}
		msg := fmt.Sprintf("unknown command %q for %q", a[0], cmd.CommandPath())
		if s := cmd.SuggestionsFor(a[0]); len(s) > 0 {
			msg += "; did you mean " + strings.Join(s, " or ") + "?"
		}
		return errors.New(msg)
	})
	cmd.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
}

// args wraps a cobra argument validator so that its errors are usage
// errors.
func args(v cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, a []string) error {
		if err := v(cmd, a); err != nil {
			// Cobra says only how many arguments it wanted; the usage
			// line says which.
			if !cmd.HasParent() {
				return usageError{err} // "unknown command": --help lists them
			}
			return usageError{fmt.Errorf("%w (usage: %s)", err, cmd.UseLine())}
		}
		return nil
	}
}

// addJSONFlag gives cmd the --json flag. It sets the app's output mode
// (a.json), which the run function reads and the error printer honours.
func (a *app) addJSONFlag(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&a.json, "json", false, "print one JSON object instead of text")
}

// writeJSON prints v as indented JSON on stdout.
func (a *app) writeJSON(v any) error {
	enc := json.NewEncoder(a.io.Out)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// tildePath abbreviates the user's home folder to ~ for display.
func tildePath(p string) string {
	home, err := os.UserHomeDir()
	if err == nil && home != "" && strings.HasPrefix(p, home+string(filepath.Separator)) {
		return "~" + p[len(home):]
	}
	return p
}
