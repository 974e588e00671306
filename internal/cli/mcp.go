package cli

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/check"
	"github.com/crossmem/crossmem/internal/cite"
	"github.com/crossmem/crossmem/internal/index"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/search"
)

// Servers are the long-running presentation layers the command line
// starts but does not depend on: cmd/crossmem supplies them, so that
// internal/cli and the servers only meet there.
type Servers struct {
	// MCP serves the MCP tools over in and out (stdio) until the client
	// disconnects or ctx is done (internal/mcpserver); `crossmem mcp
	// serve` fails when it is nil.
	MCP func(ctx context.Context, t MCPTools, in io.Reader, out io.Writer) error
}

// MCPTools is what the MCP tools read, opened and configured by the
// command line as for its own verbs.
type MCPTools struct {
	Citer    *cite.Citer
	Searcher search.Searcher
	Checker  *check.Checker
	Index    *index.Index
	Library  *library.Library
	// Home is the library folder; Missing is true when it does not exist
	// (then nothing above is set: the server says so to every call).
	Home    string
	Missing bool
	Version string
	// BeforeSearch runs before each query that reads the index: it picks
	// up notes changed by hand while the server runs.
	BeforeSearch func(ctx context.Context)
	// Logger receives the server's logs (stderr, level from CROSSMEM_LOG).
	Logger *slog.Logger
}

// syncEvery returns a BeforeSearch hook that brings the index up to date
// with the notes (a stat of each; only changed notes are read) at most
// once per interval, so that notes edited or deleted by hand while the
// server runs are picked up. compile and the other writing commands update
// the index themselves; a failed sync is logged and the query still runs.
func syncEvery(ix *index.Index, logger *slog.Logger, interval time.Duration) func(context.Context) {
	var mu sync.Mutex
	var last time.Time
	return func(ctx context.Context) {
		mu.Lock()
		defer mu.Unlock()
		if time.Since(last) < interval {
			return
		}
		last = time.Now()
		res, err := ix.Sync(ctx, nil)
		if err != nil {
			logger.Warn("index sync failed", "error", err)
			return
		}
		for _, p := range res.Skipped {
			logger.Warn("skipping unreadable wiki note", "path", p.Path, "error", p.Err)
		}
		if res.Changed() {
			logger.Info("index updated", "added", res.Added, "updated", res.Updated, "removed", res.Removed)
		}
	}
}

func newMCPCommand(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Model Context Protocol server",
	}
	cmd.AddCommand(newMCPServeCommand(a))
	groupCommand(cmd)
	return cmd
}

// mcpServeOptions are mcp serve's options (it has no flags).
type mcpServeOptions struct {
	app *app
}

func newMCPServeCommand(a *app) *cobra.Command {
	o := &mcpServeOptions{app: a}
	return &cobra.Command{
		Use:   "serve",
		Short: "Serve crossmem_cite, crossmem_recall, crossmem_verify_quote and crossmem_check_draft over stdio",
		Long: `Start an MCP server on stdin/stdout with the tools crossmem_cite,
crossmem_recall, crossmem_verify_quote and crossmem_check_draft over the wiki
notes of the library. Notes compiled while the server runs are picked up
without a restart. Stdout carries only protocol
messages; logs go to stderr (level from CROSSMEM_LOG: debug, info, warn, error;
default warn).

Register it with Claude Code:  claude mcp add crossmem -- crossmem mcp serve

Exit status: 0 clean shutdown, 1 server error.`,
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runMCPServe(cmd.Context(), o)
		},
	}
}

func runMCPServe(ctx context.Context, o *mcpServeOptions) error {
	a := o.app
	cfg, err := a.config()
	if err != nil {
		return err
	}
	level := slog.LevelWarn
	switch strings.ToLower(cfg.LogLevel) {
	case "debug":
		level = slog.LevelDebug
	case "info":
		level = slog.LevelInfo
	case "error":
		level = slog.LevelError
	}
	logger := slog.New(slog.NewTextHandler(a.io.Err, &slog.HandlerOptions{Level: level}))
	slog.SetDefault(logger)
	if a.servers.MCP == nil {
		return errors.New("this crossmem was built without its MCP server")
	}
	// A mistyped CROSSMEM_HOME must not become an empty library: the
	// server starts (so the agent reads why) but creates nothing.
	if _, err := os.Stat(cfg.Home); errors.Is(err, fs.ErrNotExist) {
		logger.Warn("the library folder does not exist: every tool will say so", "home", cfg.Home)
		return a.servers.MCP(ctx, MCPTools{Home: cfg.Home, Missing: true, Version: Version, Logger: logger}, a.io.In, a.io.Out)
	}
	ix, err := a.index()
	if err != nil {
		return err
	}
	c, err := a.citer()
	if err != nil {
		return err
	}
	lib, err := a.library()
	if err != nil {
		return err
	}
	// The instructions count what the index holds: bring it up to date.
	if _, err := ix.Sync(ctx, nil); err != nil {
		logger.Warn("index sync failed", "error", err)
	}
	base := a.viewerBase()
	t := MCPTools{Citer: &c, Searcher: search.Viewer{Searcher: ix, Base: base}, Checker: &check.Checker{Index: ix, Citer: &c, ViewerBase: base},
		Index: ix, Library: lib, Home: lib.Home,
		Version: Version, BeforeSearch: syncEvery(ix, logger, 2*time.Second), Logger: logger}
	logger.Info("crossmem MCP server ready", "index", ix.Path(), "wiki", ix.WikiDir())
	return a.servers.MCP(ctx, t, a.io.In, a.io.Out)
}
