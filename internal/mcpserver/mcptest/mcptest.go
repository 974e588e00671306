// Package mcptest is test support for crossmem's MCP server: a raw
// JSON-RPC client over a stream (newline-delimited frames, as stdio
// carries them) and a generator of malformed messages, each with the
// answer the server owes it. The reliability suite (test/reliability) and
// the mcpserver tests share them.
package mcptest

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/crossmem/crossmem/internal/mcpserver"
)

// JSON-RPC error codes.
const (
	ParseError     = -32700
	InvalidRequest = -32600
	MethodNotFound = -32601
	InvalidParams  = -32602
	InternalError  = -32603
)

// Case is one malformed (or odd) message and what the server owes it.
type Case struct {
	Name string
	Line []byte // without its newline
	// Want is the JSON-RPC error code of the one reply it must get (with id
	// WantID, or null when WantID is ""); 0: no particular reply is owed
	// (a notification, a response, a random mutation), but the server must
	// stay up. AnyReply: the reply must carry WantID, error or result.
	Want     int
	WantID   string
	AnyReply bool
}

// Frame is one message read from the server.
type Frame struct {
	Raw    []byte
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// Client speaks raw JSON-RPC lines to a server.
type Client struct {
	w      io.Writer
	frames chan Frame
	errc   chan error
	mu     sync.Mutex
}

// NewClient reads frames from r in the background (each line must be a
// JSON object: anything else is an error from Next).
func NewClient(r io.Reader, w io.Writer) *Client {
	c := &Client{w: w, frames: make(chan Frame, 64), errc: make(chan error, 1)}
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			var f Frame
			raw := append([]byte(nil), sc.Bytes()...)
			if err := json.Unmarshal(raw, &f); err != nil {
				c.errc <- fmt.Errorf("server wrote a line that is not a JSON object: %q", trunc(raw))
				return
			}
			f.Raw = raw
			c.frames <- f
		}
		if err := sc.Err(); err != nil {
			c.errc <- err
		} else {
			c.errc <- io.EOF
		}
	}()
	return c
}

// Send writes one line.
func (c *Client) Send(line []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, err := c.w.Write(append(append([]byte(nil), line...), '\n'))
	return err
}

// Next returns the next frame, or an error when the stream ends or
// nothing arrives within timeout.
func (c *Client) Next(timeout time.Duration) (Frame, error) {
	select {
	case f := <-c.frames:
		return f, nil
	case err := <-c.errc:
		return Frame{}, fmt.Errorf("server output ended: %w", err)
	case <-time.After(timeout):
		return Frame{}, fmt.Errorf("no answer within %v", timeout)
	}
}

// Until reads frames until one has id (a JSON value, e.g. `"probe-1"`),
// returning it and the frames before it.
func (c *Client) Until(id string, timeout time.Duration) (Frame, []Frame, error) {
	deadline := time.Now().Add(timeout)
	var before []Frame
	for {
		f, err := c.Next(time.Until(deadline))
		if err != nil {
			return Frame{}, before, err
		}
		if string(f.ID) == id {
			return f, before, nil
		}
		before = append(before, f)
	}
}

// Initialize runs the MCP handshake.
func (c *Client) Initialize(timeout time.Duration) error {
	if err := c.Send([]byte(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"mcptest","version":"0"}}}`)); err != nil {
		return err
	}
	f, _, err := c.Until(`"init"`, timeout)
	if err != nil {
		return err
	}
	if f.Error != nil {
		return fmt.Errorf("initialize: %s", f.Error.Message)
	}
	return c.Send([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
}

// Check sends c's line, then a valid call (probe, a request line whose id
// is probeID), and checks that the server owed c's answer and answered the
// probe (check returns what is wrong with the probe's answer, or "").
func (c *Client) Check(k Case, probe []byte, probeID string, check func(Frame) string, timeout time.Duration) error {
	if err := c.Send(k.Line); err != nil {
		return fmt.Errorf("writing the message: %w", err)
	}
	if err := c.Send(probe); err != nil {
		return fmt.Errorf("writing the probe after it: %w", err)
	}
	f, before, err := c.Until(probeID, timeout)
	if err != nil {
		return fmt.Errorf("valid call after it: %w", err)
	}
	if msg := check(f); msg != "" {
		return fmt.Errorf("valid call after it: %s", msg)
	}
	// Requests are handled concurrently: an answer with an id may come
	// after the probe's.
	if id := idOrNull(k.WantID); (k.Want != 0 || k.AnyReply) && id != "null" && !hasID(before, id) {
		g, more, err := c.Until(id, timeout)
		if err != nil {
			return fmt.Errorf("want an answer with id %s: %w (before it: %s)", id, err, frames(before))
		}
		before = append(append(before, more...), g)
	}
	switch {
	case k.Want != 0:
		if len(before) != 1 || before[0].Error == nil || before[0].Error.Code != k.Want || string(before[0].ID) != idOrNull(k.WantID) {
			return fmt.Errorf("want one error %d with id %s, got %s", k.Want, idOrNull(k.WantID), frames(before))
		}
	case k.AnyReply:
		if len(before) != 1 || string(before[0].ID) != k.WantID {
			return fmt.Errorf("want one answer with id %s, got %s", k.WantID, frames(before))
		}
	}
	for _, b := range before {
		if b.Error != nil && b.Error.Message == "" {
			return fmt.Errorf("error without a message: %s", trunc(b.Raw))
		}
	}
	return nil
}

func hasID(fs []Frame, id string) bool {
	for _, f := range fs {
		if string(f.ID) == id {
			return true
		}
	}
	return false
}

func idOrNull(id string) string {
	if id == "" {
		return "null"
	}
	return id
}

func frames(fs []Frame) string {
	if len(fs) == 0 {
		return "no answer"
	}
	var s []string
	for _, f := range fs {
		s = append(s, string(trunc(f.Raw)))
	}
	return strings.Join(s, " | ")
}

func trunc(b []byte) []byte {
	if len(b) > 300 {
		return append(b[:300:300], "…"...)
	}
	return b
}

// ErrDied is returned by callers when the server process ended.
var ErrDied = errors.New("server died")

// Malformed returns at least n malformed or odd messages: the fixed cases
// (each defect class once), then random mutations of valid messages
// (seeded, so a run can be repeated).
func Malformed(n int, seed uint64) []Case {
	cases := Fixed()
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	valid := []string{
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"crossmem_cite","arguments":{"cite_key":"x","format":"apa"}}}`,
		`{"jsonrpc":"2.0","id":"r","method":"tools/call","params":{"name":"crossmem_recall","arguments":{"query":"attention","limit":3}}}`,
		`{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":8}}`,
		`{"jsonrpc":"2.0","id":9,"result":{}}`,
	}
	for i := 0; len(cases) < n; i++ {
		b := []byte(valid[rng.IntN(len(valid))])
		for range 1 + rng.IntN(3) {
			b = mutate(rng, b)
		}
		cases = append(cases, Case{Name: fmt.Sprintf("mutation %d", i), Line: b})
	}
	return cases
}

func mutate(rng *rand.Rand, b []byte) []byte {
	if len(b) == 0 {
		return []byte("{")
	}
	i := rng.IntN(len(b))
	switch rng.IntN(6) {
	case 0: // truncate
		return b[:i]
	case 1: // flip a byte
		out := append([]byte(nil), b...)
		const alphabet = "{}[]\":,0a\\ \x00\xff"
		out[i] = alphabet[rng.IntN(len(alphabet))]
		return out
	case 2: // delete a byte
		return append(append([]byte(nil), b[:i]...), b[i+1:]...)
	case 3: // insert a value
		ins := []string{`null`, `[]`, `{}`, `"x"`, `1e999`, `-0`, `true`, `{"a":[[[[]]]]}`, `"\ud800"`, `,`}[rng.IntN(10)]
		return append(append(append([]byte(nil), b[:i]...), ins...), b[i:]...)
	case 4: // duplicate a stretch
		j := i + rng.IntN(len(b)-i)
		return append(append([]byte(nil), b[:j]...), b[i:]...)
	default: // swap a value for another type
		out := string(b)
		for _, r := range [][2]string{{`"id":7`, `"id":{}`}, {`"params":{`, `"params":[{`}, {`{"cite_key"`, `null,{"cite_key"`}, {`"2.0"`, `2.0`}, {`"method":"tools/call"`, `"method":null`}} {
			if rng.IntN(2) == 0 {
				out = strings.Replace(out, r[0], r[1], 1)
			}
		}
		return []byte(out)
	}
}

// Fixed returns one case per defect class, with the answer owed.
func Fixed() []Case {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	call := func(id, args string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"crossmem_cite","arguments":` + args + `}}`
	}
	cs := []Case{
		// not JSON
		{Name: "letter", Line: []byte("Y"), Want: ParseError},
		{Name: "open brace", Line: []byte("{"), Want: ParseError},
		{Name: "close brace", Line: []byte("}"), Want: ParseError},
		{Name: "truncated", Line: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/li`), Want: ParseError},
		{Name: "trailing data", Line: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"} x`), Want: ParseError},
		{Name: "two objects", Line: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}{"jsonrpc":"2.0","id":2,"method":"ping"}`), Want: ParseError},
		{Name: "NUL", Line: []byte("\x00"), Want: ParseError},
		{Name: "binary", Line: []byte("\xff\xfe\x00{\x01"), Want: ParseError},
		{Name: "single quotes", Line: []byte(`{'jsonrpc':'2.0'}`), Want: ParseError},
		{Name: "NaN id", Line: []byte(`{"jsonrpc":"2.0","id":NaN,"method":"ping"}`), Want: ParseError},
		// not an object
		{Name: "null", Line: []byte("null"), Want: InvalidRequest},
		{Name: "number", Line: []byte("1"), Want: InvalidRequest},
		{Name: "string", Line: []byte(`"ping"`), Want: InvalidRequest},
		{Name: "true", Line: []byte("true"), Want: InvalidRequest},
		{Name: "empty array", Line: []byte("[]"), Want: InvalidRequest},
		{Name: "batch", Line: []byte(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`), Want: InvalidRequest},
		{Name: "batch of junk", Line: []byte(`[1,2,3]`), Want: InvalidRequest},
		// envelope
		{Name: "empty object", Line: []byte("{}"), Want: InvalidRequest},
		{Name: "no jsonrpc", Line: []byte(`{"id":1,"method":"ping"}`), Want: InvalidRequest, WantID: "1"},
		{Name: "jsonrpc 1.0", Line: []byte(`{"jsonrpc":"1.0","id":1,"method":"ping"}`), Want: InvalidRequest, WantID: "1"},
		{Name: "jsonrpc number", Line: []byte(`{"jsonrpc":2.0,"id":1,"method":"ping"}`), Want: InvalidRequest, WantID: "1"},
		{Name: "id object", Line: []byte(`{"jsonrpc":"2.0","id":{},"method":"ping"}`), Want: InvalidRequest},
		{Name: "id array", Line: []byte(`{"jsonrpc":"2.0","id":[1],"method":"ping"}`), Want: InvalidRequest},
		{Name: "id bool", Line: []byte(`{"jsonrpc":"2.0","id":true,"method":"ping"}`), Want: InvalidRequest},
		{Name: "id fraction", Line: []byte(`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`), Want: InvalidRequest},
		{Name: "id huge", Line: []byte(`{"jsonrpc":"2.0","id":1e400,"method":"ping"}`), Want: InvalidRequest},
		{Name: "id null request", Line: []byte(`{"jsonrpc":"2.0","id":null,"method":"ping"}`), Want: InvalidRequest},
		{Name: "method number", Line: []byte(`{"jsonrpc":"2.0","id":1,"method":1}`), Want: InvalidRequest, WantID: "1"},
		{Name: "method null", Line: []byte(`{"jsonrpc":"2.0","id":1,"method":null}`), Want: InvalidRequest, WantID: "1"},
		{Name: "method empty", Line: []byte(`{"jsonrpc":"2.0","id":1,"method":""}`), Want: InvalidRequest, WantID: "1"},
		{Name: "method object", Line: []byte(`{"jsonrpc":"2.0","id":"m","method":{"a":1}}`), Want: InvalidRequest, WantID: `"m"`},
		{Name: "request with result", Line: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping","result":{}}`), Want: InvalidRequest, WantID: "1"},
		{Name: "response without result", Line: []byte(`{"jsonrpc":"2.0","id":1}`), Want: InvalidRequest, WantID: "1"},
		{Name: "response without id", Line: []byte(`{"jsonrpc":"2.0","result":{}}`), Want: InvalidRequest},
		{Name: "response with both", Line: []byte(`{"jsonrpc":"2.0","id":3,"result":{},"error":{"code":1,"message":"x"}}`), Want: InvalidRequest, WantID: "3"},
		{Name: "response error string", Line: []byte(`{"jsonrpc":"2.0","id":3,"error":"boom"}`), Want: InvalidRequest, WantID: "3"},
		// nesting
		{Name: "nesting 1001", Line: []byte(deep(1001)), Want: InvalidRequest},
		{Name: "nesting 100000", Line: []byte(deep(100000)), Want: InvalidRequest},
		{Name: "params nesting 65", Line: []byte(`{"jsonrpc":"2.0","id":4,"method":"ping","params":{"a":` + deep(64) + `}}`), Want: InvalidRequest},
		{Name: "unbalanced nesting", Line: []byte(strings.Repeat("[", 5000)), Want: InvalidRequest},
		// size
		{Name: "over MaxMessageBytes", Line: []byte(call("26", `{"cite_key":"`+strings.Repeat("k", mcpserver.MaxMessageBytes)+`"}`)), Want: InvalidRequest, WantID: "26"},
		{Name: "over MaxMessageBytes, id last", Line: []byte(`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"crossmem_cite","arguments":{"cite_key":"` + strings.Repeat("k", mcpserver.MaxMessageBytes) + `"}},"id":27}`), Want: InvalidRequest},
		// params
		{Name: "params array", Line: []byte(`{"jsonrpc":"2.0","id":5,"method":"tools/list","params":[]}`), Want: InvalidParams, WantID: "5"},
		{Name: "params string", Line: []byte(`{"jsonrpc":"2.0","id":5,"method":"ping","params":"x"}`), Want: InvalidParams, WantID: "5"},
		{Name: "params number", Line: []byte(`{"jsonrpc":"2.0","id":5,"method":"initialize","params":1}`), Want: InvalidParams, WantID: "5"},
		{Name: "tools/call no params", Line: []byte(`{"jsonrpc":"2.0","id":6,"method":"tools/call"}`), Want: InvalidParams, WantID: "6"},
		{Name: "tools/call params null", Line: []byte(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":null}`), Want: InvalidParams, WantID: "6"},
		{Name: "tools/call no name", Line: []byte(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"arguments":{}}}`), Want: InvalidParams, WantID: "6"},
		{Name: "tools/call name number", Line: []byte(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":1}}`), Want: InvalidParams, WantID: "6"},
		{Name: "arguments null", Line: []byte(call("10", "null")), Want: InvalidParams, WantID: "10"},
		{Name: "arguments array", Line: []byte(call("10", "[]")), Want: InvalidParams, WantID: "10"},
		{Name: "arguments string", Line: []byte(call("10", `"x"`)), Want: InvalidParams, WantID: "10"},
		{Name: "arguments number", Line: []byte(call("10", "0")), Want: InvalidParams, WantID: "10"},
		{Name: "arguments bool", Line: []byte(call("10", "false")), Want: InvalidParams, WantID: "10"},
		// well-formed, refused by the SDK or the tool: some answer with the id
		{Name: "unknown method", Line: []byte(`{"jsonrpc":"2.0","id":11,"method":"no/such"}`), Want: MethodNotFound, WantID: "11"},
		{Name: "unknown tool", Line: []byte(`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"nope","arguments":{}}}`), AnyReply: true, WantID: "12"},
		{Name: "missing argument", Line: []byte(call("13", "{}")), AnyReply: true, WantID: "13"},
		{Name: "argument wrong type", Line: []byte(call("14", `{"cite_key":5}`)), AnyReply: true, WantID: "14"},
		{Name: "argument null", Line: []byte(call("15", `{"cite_key":null}`)), AnyReply: true, WantID: "15"},
		{Name: "extra argument", Line: []byte(call("16", `{"cite_key":"a","zz":{"b":[1]}}`)), AnyReply: true, WantID: "16"},
		{Name: "huge cite_key", Line: []byte(call("17", `{"cite_key":"`+strings.Repeat("k", 1<<20)+`"}`)), AnyReply: true, WantID: "17"},
		{Name: "recall limit string", Line: []byte(`{"jsonrpc":"2.0","id":18,"method":"tools/call","params":{"name":"crossmem_recall","arguments":{"query":"a","limit":"9"}}}`), AnyReply: true, WantID: "18"},
		{Name: "recall limit huge", Line: []byte(`{"jsonrpc":"2.0","id":19,"method":"tools/call","params":{"name":"crossmem_recall","arguments":{"query":"a","limit":1e300}}}`), AnyReply: true, WantID: "19"},
		{Name: "recall prefix storm", Line: []byte(`{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{"name":"crossmem_recall","arguments":{"query":"` + strings.Repeat("a* b* c* ", 300) + `"}}}`), AnyReply: true, WantID: "20"},
		{Name: "verify_quote empty", Line: []byte(`{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"crossmem_verify_quote","arguments":{"quote":""}}}`), AnyReply: true, WantID: "21"},
		{Name: "check_draft junk format", Line: []byte(`{"jsonrpc":"2.0","id":22,"method":"tools/call","params":{"name":"crossmem_check_draft","arguments":{"draft":"x","format":"pdf"}}}`), AnyReply: true, WantID: "22"},
		{Name: "second initialize", Line: []byte(`{"jsonrpc":"2.0","id":23,"method":"initialize","params":{"protocolVersion":"1999-01-01","capabilities":{},"clientInfo":{"name":"x","version":"0"}}}`), AnyReply: true, WantID: "23"},
		{Name: "initialize params empty", Line: []byte(`{"jsonrpc":"2.0","id":24,"method":"initialize","params":{}}`), AnyReply: true, WantID: "24"},
		{Name: "string id with quotes", Line: []byte(`{"jsonrpc":"2.0","id":"a\"b","method":"no/such"}`), Want: MethodNotFound, WantID: `"a\"b"`},
		{Name: "duplicate keys", Line: []byte(`{"jsonrpc":"2.0","id":25,"method":"ping","method":"no/such"}`), Want: MethodNotFound, WantID: "25"},
		// responses and notifications: nothing owed
		{Name: "response to nothing", Line: []byte(`{"jsonrpc":"2.0","id":999,"result":{}}`)},
		{Name: "error response to nothing", Line: []byte(`{"jsonrpc":"2.0","id":"zz","error":{"code":-1,"message":"x"}}`)},
		{Name: "unknown notification", Line: []byte(`{"jsonrpc":"2.0","method":"notifications/whatever"}`)},
		{Name: "cancel unknown", Line: []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":12345}}`)},
		{Name: "cancel bad id", Line: []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{}}}`)},
		{Name: "cancel params array", Line: []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":[1]}`)},
		{Name: "notification no jsonrpc", Line: []byte(`{"method":"notifications/initialized"}`)},
		{Name: "progress junk", Line: []byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":{},"progress":"x"}}`)},
		{Name: "roots changed", Line: []byte(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed","params":{"x":[]}}`)},
		{Name: "blank line", Line: []byte("   ")},
		{Name: "CR line", Line: []byte("\r")},
	}
	return cs
}
