// Command crossmem is a local-first citation and knowledge pipeline for
// researchers who write with AI agents. See internal/cli for the commands.
//
// main only wires: a context cancelled by SIGINT and SIGTERM, the process's
// streams, and the MCP server the command line starts for `crossmem mcp
// serve` (internal/cli does not import internal/mcpserver).
package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/crossmem/crossmem/internal/cli"
	"github.com/crossmem/crossmem/internal/mcpserver"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], cli.System(), cli.Servers{MCP: serveMCP})
	stop()
	os.Exit(code)
}

// serveMCP runs internal/mcpserver over in and out with the tools the
// command line opened.
func serveMCP(ctx context.Context, t cli.MCPTools, in io.Reader, out io.Writer) error {
	s := &mcpserver.Server{Citer: t.Citer, Searcher: t.Searcher, Checker: t.Checker, Index: t.Index, Library: t.Library,
		Home: t.Home, Missing: t.Missing, Version: t.Version, BeforeSearch: t.BeforeSearch}
	return s.ServeStdio(ctx, in, out, t.Logger)
}
