package mcpserver

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/crossmem/crossmem/internal/search"
)

// Limits of one tool call (docs/limits.md). An argument over its limit is
// answered with a tool error naming the limit; the query's own limits are
// search.MaxQueryChars, search.MaxQueryTerms and search.MaxQueryPrefixes.
const (
	// MaxKeyChars bounds cite_key: 256 characters.
	MaxKeyChars = 256
	// MaxFieldChars bounds the other short arguments (format, author,
	// section, type): 256 characters.
	MaxFieldChars = 256
	// MaxQuoteChars bounds crossmem_verify_quote's quote: 20,000 characters.
	MaxQuoteChars = 20000
	// MaxDraftBytes bounds crossmem_check_draft's draft: 4 MiB.
	MaxDraftBytes = 4 << 20
	// DefaultCallTimeout is how long one tools/call may run before it is
	// cancelled and answered with a tool error: 60 s (Server.CallTimeout).
	DefaultCallTimeout = 60 * time.Second
)

// checkChars returns a *search.LimitError when s has more than limit
// characters.
func checkChars(what, s string, limit int) error {
	if len(s) <= limit {
		return nil
	}
	if n := utf8.RuneCountInString(s); n > limit {
		return &search.LimitError{What: what, Unit: "characters", Got: n, Limit: limit}
	}
	return nil
}

// arg is a string argument and its limit in characters.
type arg struct {
	name, value string
	limit       int
}

// checkArgs returns the first argument over its limit as a
// *search.LimitError.
func checkArgs(args ...arg) error {
	for _, a := range args {
		if err := checkChars(a.name, a.value, a.limit); err != nil {
			return err
		}
	}
	return nil
}

// guard is the server's receiving middleware: a panic in a handler becomes
// a -32603 internal error (the session goes on), and a tools/call gets a
// deadline (CallTimeout): when it passes, the call is answered with a tool
// error at once and its context is cancelled.
func (s *Server) guard(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		if method != "tools/call" {
			return recovered(ctx, method, next, req)
		}
		timeout := s.CallTimeout
		if timeout <= 0 {
			timeout = DefaultCallTimeout
		}
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		type answer struct {
			res mcp.Result
			err error
		}
		done := make(chan answer, 1)
		go func() {
			r, err := recovered(ctx, method, next, req)
			done <- answer{r, err}
		}()
		select {
		case a := <-done:
			return a.res, a.err
		case <-ctx.Done():
			name := "the tool"
			if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok {
				name = p.Name
			}
			if ctx.Err() == context.DeadlineExceeded {
				return errorResult(fmt.Errorf("%s did not finish within %s and was stopped: send a smaller input (split the draft, shorten the query)", name, timeout)), nil
			}
			return nil, ctx.Err()
		}
	}
}

// recovered calls next, turning a panic into a JSON-RPC internal error.
func recovered(ctx context.Context, method string, next mcp.MethodHandler, req mcp.Request) (res mcp.Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			slog.Error("MCP handler panicked", "method", method, "panic", v, "stack", string(debug.Stack()))
			res, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("internal error in crossmem while handling %s: %v (the server goes on; please report this)", method, v)}
		}
	}()
	return next(ctx, method, req)
}
