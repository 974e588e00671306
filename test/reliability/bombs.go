package reliability

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/crossmem/crossmem/internal/pdf/pdftest"
)

// Bomb is one hostile input and what crossmem did with it.
type Bomb struct {
	Name    string
	Command string        // the command that refused it
	Error   string        // its error message (first line)
	Wall    time.Duration // until the error
	MaxRSS  int64         // the process's peak resident set, bytes
	Refused bool          // a clear error naming a limit, and nothing else; for a page, the page reported and left out
}

// FlateBombBytes is the inflated size of the campaign's flate bomb: 1 GiB
// (about 1 MB on disk).
const FlateBombBytes = 1 << 30

// TextOpsPage is the number of text operations on the campaign's busy page.
const TextOpsPage = 300_000

// PDFBombs captures and compiles a flate bomb (a stream of inflated bytes)
// and a page of ops text operations, generated here, and reports how each
// was refused: the flate bomb fails its whole file (exit 1, an error
// naming the limit); the busy page is left out of a note that is written
// all the same (exit 0, the page reported on stderr with its limit).
func PDFBombs(ctx context.Context, l Lib, inflated int64, ops int) ([]Bomb, error) {
	var out []Bomb
	for _, b := range []struct {
		name, key string
		data      []byte
		page      bool // a per-page limit: the page is left out, the file compiles
	}{
		{fmt.Sprintf("flate bomb: %d KB inflating to %d MiB", 0, inflated>>20), "bomb2024flate", pdftest.FlateBomb(inflated), false},
		{fmt.Sprintf("page of %d text operations", ops), "bomb2024ops", pdftest.TextOps(ops), true},
	} {
		if strings.HasPrefix(b.name, "flate") {
			b.name = fmt.Sprintf("flate bomb: %d KB inflating to %d MiB", len(b.data)>>10, inflated>>20)
		} else {
			b.name = fmt.Sprintf("%s (%d KB)", b.name, len(b.data)>>10)
		}
		path, err := l.WriteFile(b.key+".pdf", b.data)
		if err != nil {
			return nil, err
		}
		bomb := Bomb{Name: b.name, Command: "capture " + b.key + ".pdf --cite-key " + b.key}
		r, err := l.Run(ctx, "capture", path, "--cite-key", b.key)
		if err != nil {
			return nil, err
		}
		if r.Code == 0 {
			bomb.Command = "compile " + b.key + " --no-llm"
			if r, err = l.Run(ctx, "compile", b.key, "--no-llm"); err != nil {
				return nil, err
			}
		}
		bomb.Wall, bomb.MaxRSS = r.Wall, r.MaxRSS
		bomb.Error = firstErrorLine(r.Stderr)
		bomb.Refused = r.Code == 1 && strings.Contains(bomb.Error, "limit")
		if b.page {
			bomb.Error = firstLineWith(r.Stderr, "crossmem's limit")
			bomb.Refused = r.Code == 0 && strings.HasPrefix(bomb.Command, "compile") && bomb.Error != ""
		}
		out = append(out, bomb)
	}
	return out, nil
}

// firstLineWith returns the first line of stderr that holds s, trimmed;
// "" when none does.
func firstLineWith(stderr, s string) string {
	for _, line := range strings.Split(stderr, "\n") {
		if strings.Contains(line, s) {
			return strings.TrimSpace(line)
		}
	}
	return ""
}

func firstErrorLine(stderr string) string {
	for _, line := range strings.Split(stderr, "\n") {
		if strings.Contains(line, "error:") {
			return strings.TrimSpace(line)
		}
	}
	return strings.TrimSpace(stderr)
}

// QueryBombs sends crossmem_recall queries of each size (bytes of "word ")
// to `crossmem mcp serve` on l, then a valid call, and reports each
// answer's time; MaxRSS is the server's peak over all of them (a process
// has one peak).
func QueryBombs(ctx context.Context, l Lib, sizes []int) ([]Bomb, error) {
	s, err := l.Serve(ctx)
	if err != nil {
		return nil, err
	}
	var out []Bomb
	for i, n := range sizes {
		q := strings.Repeat("word ", n/5)
		args, _ := json.Marshal(map[string]any{"query": q})
		id := fmt.Sprintf(`"q%d"`, i)
		line := []byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"crossmem_recall","arguments":` + string(args) + `}}`)
		start := time.Now()
		if err := s.Send(line); err != nil {
			return nil, err
		}
		f, _, err := s.Until(id, 60*time.Second)
		b := Bomb{Name: fmt.Sprintf("crossmem_recall query of %d MB", n>>20), Command: "mcp serve", Wall: time.Since(start)}
		if n < 1<<20 {
			b.Name = fmt.Sprintf("crossmem_recall query of %d KB", n>>10)
		}
		switch {
		case err != nil:
			b.Error = err.Error()
		case f.Error != nil:
			b.Error = fmt.Sprintf("JSON-RPC error %d: %s", f.Error.Code, f.Error.Message)
			b.Refused = strings.Contains(f.Error.Message, "longer than")
		default:
			var r struct {
				IsError bool `json:"isError"`
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
			}
			json.Unmarshal(f.Result, &r)
			if len(r.Content) > 0 {
				b.Error = "tool error: " + r.Content[0].Text
			}
			b.Refused = r.IsError && strings.Contains(b.Error, "limit")
		}
		probe, pid, check := citeProbe(i)
		if err := s.Send(probe); err != nil {
			return nil, err
		}
		if pf, _, err := s.Until(pid, 30*time.Second); err != nil || check(pf) != "" {
			b.Refused = false
			b.Error += " (and the valid call after it was not answered)"
		}
		out = append(out, b)
	}
	r := s.Close()
	for i := range out {
		out[i].MaxRSS = r.MaxRSS
	}
	return out, nil
}
