package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/bridge"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/pdf"
	"github.com/crossmem/crossmem/internal/serve"
	"github.com/crossmem/crossmem/internal/viewer"
)

// serveOptions are serve's flags.
type serveOptions struct {
	app  *app
	port int // --port; used only when portSet
	// portSet is true when --port was given (else BRIDGE_PORT, [serve]
	// port or 7600).
	portSet bool
	socket  string // --socket: also listen on this Unix socket
	// ready, if set, is called with the server's base URL once it listens
	// (crossmem open, tests).
	ready func(url string)
}

func newServeCommand(a *app) *cobra.Command {
	o := &serveOptions{app: a}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the library viewer and the browser bridge on 127.0.0.1:7600 (the default when no command is given)",
		Long: `Start crossmem's local HTTP server on 127.0.0.1 (port 7600; BRIDGE_PORT or
[serve] port in the config file override it; --port 0 picks a free port). It
serves the library viewer: every paper, search, a paper's metadata, citations
and chunks, and the PDF page of any chunk with its bbox highlighted. Open a
chunk's page with crossmem open <cite_key> [<chunk_id>].

It is also the browser bridge: the crossmem browser extension (extension/ in
the repository, loaded unpacked) connects to it over a WebSocket, and agents
and tools send it commands (POST /command: navigate, click, type, wait,
extract, screenshot, summarize, tab_info, ping, fetch_pdf; "agentId" keeps
each agent to its own tabs) and captures (POST /capture, as crossmem capture).
Every bridge call needs the token in the config folder's bridge-token file
(created on first run, mode 0600): Authorization: Bearer <token>. The
extension gets it by pairing: type the one-time code printed at start-up in
the extension's options page.

It listens on the loopback address only and answers only requests whose Host
is that address or localhost with its port (no DNS rebinding); other web
pages cannot read it (no cross-origin reads, frames or embeds).

Running crossmem with no command runs crossmem serve. Logs go to stderr (level
from CROSSMEM_LOG: debug, info (default), warn, error).

Exit status: 0 clean shutdown (SIGINT or SIGTERM), 1 bind failure (the port is
in use) or another error.`,
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.portSet = cmd.Flags().Changed("port")
			return runServe(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.socket, "socket", "", "also listen on this Unix socket (mode 0600; the same endpoints, token required for the bridge)")
	cmd.Flags().IntVar(&o.port, "port", 0, "port to listen on (0: any free port); default BRIDGE_PORT, [serve] port or 7600")
	return cmd
}

func runServe(ctx context.Context, o *serveOptions) error {
	o.app.createHome = true // the viewer of a new library; the bridge captures into it
	a := o.app
	cfg, err := a.config()
	if err != nil {
		return err
	}
	logger := a.logger(slog.LevelInfo)
	lib, err := a.library()
	if err != nil {
		return err
	}
	c, err := a.citer()
	if err != nil {
		return err
	}
	ix, err := a.index()
	if err != nil {
		return err
	}
	port := cfg.ServePort
	if o.portSet {
		port = o.port
	}
	s, err := serve.Listen("127.0.0.1", port, logger)
	if errors.Is(err, syscall.EADDRINUSE) {
		return hint.Wrap(err, hint.Action{Kind: hint.PortInUse})
	}
	if err != nil {
		return err
	}
	if o.socket != "" {
		if err := s.ListenUnix(o.socket); err != nil {
			s.Close()
			return err
		}
		s.Announce("HTTP → unix:" + o.socket + " (the same endpoints, on a socket only you can open)")
	}
	v := &viewer.Viewer{
		Lib: lib, Citer: &c, Searcher: ix, BeforeSearch: syncEvery(ix, logger, 2*time.Second),
		Engine:   func(ctx context.Context) (*pdf.Engine, error) { return a.pdfEngine(ctx) },
		CacheDir: filepath.Join(cfg.CacheDir, "pages"),
		Version:  Version, Logger: logger,
	}
	if err := v.Mount(s); err != nil {
		s.Close()
		return err
	}
	defer v.Close()
	b, err := a.newBridge(lib)
	if err != nil {
		s.Close()
		return err
	}
	if err := b.Mount(s); err != nil {
		s.Close()
		return err
	}
	s.SetHealth(serve.Health{Version: Version, Home: lib.Home})
	fmt.Fprintf(a.io.Out, "[serve] crossmem v%s\n", Version)
	fmt.Fprintf(a.io.Out, "[serve] library → %s\n", tildePath(lib.Home))
	for _, l := range s.Banner() {
		fmt.Fprintf(a.io.Out, "[serve] %s\n", l)
	}
	if b.ExtensionOrigin != "" {
		fmt.Fprintf(a.io.Out, "[serve] extension: %s\n", b.ExtensionOrigin)
	}
	fmt.Fprintf(a.io.Out, "[serve] pairing code: %s (type it in the crossmem extension's options; valid once, for %d minutes)\n", b.PairingCode, int(bridge.PairingTTL.Minutes()))
	fmt.Fprintln(a.io.Out, "[serve] listening on the loopback address only; Ctrl+C stops")
	if o.ready != nil {
		o.ready(s.URL())
	}
	return s.Serve(ctx)
}

// logger returns a text logger on stderr at the level CROSSMEM_LOG names
// (debug, info, warn, error), def when it names none.
func (a *app) logger(def slog.Level) *slog.Logger {
	level := def
	if a.cfg != nil {
		switch strings.ToLower(a.cfg.LogLevel) {
		case "debug":
			level = slog.LevelDebug
		case "info":
			level = slog.LevelInfo
		case "warn":
			level = slog.LevelWarn
		case "error":
			level = slog.LevelError
		}
	}
	return slog.New(slog.NewTextHandler(a.io.Err, &slog.HandlerOptions{Level: level}))
}
