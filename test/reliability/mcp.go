package reliability

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/crossmem/crossmem/internal/mcpserver/mcptest"
)

// Seed is a metadata-only entry every campaign library starts with: the
// valid call after each malformed MCP message cites it.
const (
	SeedKey  = "vaswani2017attention"
	SeedJSON = `[{"id":"vaswani2017attention","type":"paper-conference","title":"Attention Is All You Need","author":[{"family":"Vaswani","given":"Ashish"},{"family":"Shazeer","given":"Noam"}],"issued":{"date-parts":[[2017]]},"container-title":"Advances in Neural Information Processing Systems"}]`
)

// Seed imports the seed entry into l.
func (l Lib) Seed(ctx context.Context) error {
	p, err := l.WriteFile("seed.json", []byte(SeedJSON))
	if err != nil {
		return err
	}
	_, err = l.MustRun(ctx, "import", p)
	return err
}

// Server is a running `crossmem mcp serve`.
type Server struct {
	*mcptest.Client
	stdin  io.WriteCloser
	done   chan struct{}
	err    error
	stderr *strings.Builder
	mu     sync.Mutex
	result Result
}

// Serve starts `crossmem mcp serve` on l and initializes a session.
func (l Lib) Serve(ctx context.Context) (*Server, error) {
	cmd := l.Command(ctx, "mcp", "serve")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	s := &Server{stdin: stdin, done: make(chan struct{}), stderr: &strings.Builder{}}
	cmd.Stderr = &lockedWriter{w: s.stderr, mu: &s.mu}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		s.err = cmd.Wait()
		s.result = Result{Code: cmd.ProcessState.ExitCode(), Wall: time.Since(start), MaxRSS: maxRSS(cmd.ProcessState)}
		close(s.done)
	}()
	s.Client = mcptest.NewClient(stdout, stdin)
	if err := s.Initialize(30 * time.Second); err != nil {
		s.Close()
		return nil, fmt.Errorf("initialize: %w", err)
	}
	return s, nil
}

// Dead reports whether the server process has ended.
func (s *Server) Dead() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// Close ends the session (closing stdin) and waits for the process; the
// Result has its exit code and peak memory.
func (s *Server) Close() Result {
	s.stdin.Close()
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
	}
	return s.result
}

// Stderr returns what the server logged.
func (s *Server) Stderr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stderr.String()
}

type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}

// citeProbe is a valid crossmem_cite call of the seed entry and the check
// of its answer.
func citeProbe(i int) ([]byte, string, func(mcptest.Frame) string) {
	id := fmt.Sprintf(`"probe-%d"`, i)
	line := []byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"crossmem_cite","arguments":{"cite_key":"` + SeedKey + `","format":"apa"}}}`)
	return line, id, func(f mcptest.Frame) string {
		var r struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		}
		if f.Error != nil || json.Unmarshal(f.Result, &r) != nil || r.IsError || len(r.Content) == 0 || !strings.Contains(r.Content[0].Text, "Vaswani, A., & Shazeer, N. (2017)") {
			return "want the APA citation of " + SeedKey + ", got " + string(f.Raw)
		}
		return ""
	}
}

// MCPFigures are the malformed-message campaign's.
type MCPFigures struct {
	Messages   int      // malformed or odd messages sent
	Deaths     int      // times the server process ended
	Unanswered int      // valid calls after a message not answered correctly
	Wrong      int      // messages that did not get the JSON-RPC error they deserve
	Failures   []string // the first few problems
}

// MCPMalformed sends n malformed messages (mcptest.Malformed, seeded) to
// `crossmem mcp serve` on l, each followed by a valid crossmem_cite call,
// and counts server deaths, unanswered valid calls and wrong answers. A
// server that dies is started again.
func MCPMalformed(ctx context.Context, l Lib, n int, seed uint64) (MCPFigures, error) {
	var f MCPFigures
	s, err := l.Serve(ctx)
	if err != nil {
		return f, err
	}
	defer func() { s.Close() }()
	for i, k := range mcptest.Malformed(n, seed) {
		f.Messages++
		probe, id, check := citeProbe(i)
		err := s.Check(k, probe, id, check, 30*time.Second)
		if err == nil {
			continue
		}
		problem := fmt.Sprintf("%s (%.60q): %v", k.Name, k.Line, err)
		if len(f.Failures) < 10 {
			f.Failures = append(f.Failures, problem)
		}
		time.Sleep(50 * time.Millisecond)
		if s.Dead() {
			f.Deaths++
			f.Unanswered++
			if s, err = l.Serve(ctx); err != nil {
				return f, err
			}
		} else if strings.Contains(err.Error(), "valid call after it") {
			f.Unanswered++
		} else {
			f.Wrong++
		}
	}
	return f, nil
}
