package cli

import (
	"io"
	"log/slog"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/mcpserver"
	"github.com/crossmem/crossmem/internal/search"
	"github.com/crossmem/crossmem/internal/wiki"
)

func newMCPCommand(a *app) *cobra.Command {
	mcpCmd := &cobra.Command{
		Use:   "mcp",
		Short: "Model Context Protocol server",
	}
	serve := &cobra.Command{
		Use:   "serve",
		Short: "Serve crossmem_cite and crossmem_recall to an MCP client over stdio",
		Long: `Start an MCP server on stdin/stdout with the tools crossmem_cite and
crossmem_recall over the wiki notes of the library. Notes compiled while the
server runs are picked up without a restart. Stdout carries only protocol
messages; logs go to stderr (level from CROSSMEM_LOG: debug, info, warn, error;
default warn).

Register it with Claude Code:  claude mcp add crossmem -- crossmem mcp serve

Exit status: 0 clean shutdown, 1 server error.`,
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
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
			lib, err := a.library()
			if err != nil {
				return err
			}
			store := wiki.NewStore(lib.WikiDir())
			if _, probs := store.All(); len(probs) > 0 {
				for _, p := range probs {
					logger.Warn("skipping unreadable wiki note", "path", p.Path, "error", p.Err)
				}
			}
			logger.Info("crossmem MCP server ready", "wiki", lib.WikiDir())
			c, err := a.citer()
			if err != nil {
				return err
			}
			s := &mcpserver.Server{Citer: &c, Searcher: &search.Scan{Store: store}, Version: Version}
			return s.Serve(cmd.Context(), &mcp.IOTransport{Reader: nopReadCloser{a.io.In}, Writer: nopWriteCloser{a.io.Out}})
		},
	}
	mcpCmd.AddCommand(serve)
	groupCommand(mcpCmd)
	return mcpCmd
}

// nopReadCloser and nopWriteCloser let the MCP transport use the command's
// streams without closing the process's stdin/stdout.
type nopReadCloser struct{ io.Reader }

func (nopReadCloser) Close() error { return nil }

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
