package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"time"

	"github.com/crossmem/crossmem/bench/internal/corpuslib"
)

// mcpClient speaks JSON-RPC 2.0 to `crossmem mcp serve` over its stdin and
// stdout, one message per line (the MCP stdio transport).
type mcpClient struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr bytes.Buffer
	start  time.Time
	nextID int
}

// startMCP starts the server on the library at home; start is the moment
// just before the process is created.
func startMCP(bin, home string) (*mcpClient, error) {
	c := &mcpClient{cmd: exec.Command(bin, "mcp", "serve")}
	c.cmd.Env = corpuslib.Env(home)
	c.cmd.Stderr = &c.stderr
	var err error
	if c.in, err = c.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	c.out = bufio.NewReaderSize(stdout, 1<<20)
	c.start = time.Now()
	if err := c.cmd.Start(); err != nil {
		return nil, err
	}
	return c, nil
}

type rpcResponse struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// call sends a request and waits for its response, skipping anything
// else the server writes (notifications).
func (c *mcpClient) call(method string, params any) (json.RawMessage, error) {
	c.nextID++
	id := c.nextID
	msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if _, err := c.in.Write(append(msg, '\n')); err != nil {
		return nil, fmt.Errorf("write %s: %w (server stderr: %s)", method, err, c.stderr.String())
	}
	for {
		line, err := c.out.ReadBytes('\n')
		if err != nil {
			return nil, fmt.Errorf("read %s reply: %w (server stderr: %s)", method, err, c.stderr.String())
		}
		var r rpcResponse
		if json.Unmarshal(line, &r) != nil || string(r.ID) != strconv.Itoa(id) {
			continue
		}
		if r.Error != nil {
			return nil, fmt.Errorf("%s: error %d: %s", method, r.Error.Code, r.Error.Message)
		}
		return r.Result, nil
	}
}

func (c *mcpClient) notify(method string) error {
	msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method})
	_, err := c.in.Write(append(msg, '\n'))
	return err
}

func (c *mcpClient) initialize() error {
	_, err := c.call("initialize", map[string]any{
		"protocolVersion": "2025-06-18",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "crossmem-bench", "version": "0"},
	})
	if err != nil {
		return err
	}
	return c.notify("notifications/initialized")
}

// recall calls crossmem_recall and returns the number of results.
func (c *mcpClient) recall(query string) (int, error) {
	raw, err := c.call("tools/call", map[string]any{"name": "crossmem_recall", "arguments": map[string]any{"query": query}})
	if err != nil {
		return 0, err
	}
	var r struct {
		IsError bool `json:"isError"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		Structured struct {
			Results []json.RawMessage `json:"results"`
		} `json:"structuredContent"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return 0, err
	}
	if r.IsError {
		msg := ""
		if len(r.Content) > 0 {
			msg = r.Content[0].Text
		}
		return 0, fmt.Errorf("crossmem_recall %q: tool error: %s", query, msg)
	}
	return len(r.Structured.Results), nil
}

// close ends the session (stdin closed) and waits for the server to exit.
func (c *mcpClient) close() error {
	c.in.Close()
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		c.cmd.Process.Kill()
		<-done
		return fmt.Errorf("mcp server did not exit after stdin closed")
	}
}

// mcpStartup is one timed start: process start to the initialize reply
// and to the first crossmem_recall reply.
type mcpStartup struct {
	ReadyMS       float64 `json:"ready_ms"`
	FirstAnswerMS float64 `json:"first_answer_ms"`
	Hits          int     `json:"hits"`
}

func timeMCPStartup(bin, home, query string) (mcpStartup, error) {
	c, err := startMCP(bin, home)
	if err != nil {
		return mcpStartup{}, err
	}
	defer c.close()
	if err := c.initialize(); err != nil {
		return mcpStartup{}, err
	}
	s := mcpStartup{ReadyMS: ms(time.Since(c.start))}
	n, err := c.recall(query)
	if err != nil {
		return s, err
	}
	s.FirstAnswerMS = ms(time.Since(c.start))
	s.Hits = n
	return s, nil
}

// mcpMix serves the query mix through one server process, timing each
// call as the client sees it, and reads the server's peak RSS (VmHWM)
// before ending the session.
type mcpMixResult struct {
	MS    []float64
	HWMMB float64
	RSSMB float64
}

func runMCPMix(bin, home string, qs []benchQuery) (*mcpMixResult, error) {
	c, err := startMCP(bin, home)
	if err != nil {
		return nil, err
	}
	if err := c.initialize(); err != nil {
		c.close()
		return nil, err
	}
	res := &mcpMixResult{}
	for _, q := range qs {
		t := time.Now()
		if _, err := c.recall(q.Text); err != nil {
			c.close()
			return nil, err
		}
		res.MS = append(res.MS, ms(time.Since(t)))
	}
	res.HWMMB, res.RSSMB, err = procStatus(strconv.Itoa(c.cmd.Process.Pid))
	if err != nil {
		c.close()
		return nil, err
	}
	if err := c.close(); err != nil {
		return nil, err
	}
	return res, nil
}
