package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Limits of the stdio transport (see Transport).
const (
	// MaxMessageBytes bounds one JSON-RPC message (one line, without its
	// newline): 8 MiB, room for a 4 MiB draft (MaxDraftBytes) escaped.
	MaxMessageBytes = 8 << 20
	// MaxNesting bounds how deeply arrays and objects may nest in a
	// message: 64 levels (MCP's own messages need fewer than 10).
	MaxNesting = 64
)

// Transport is crossmem's MCP stdio transport: newline-delimited JSON-RPC
// 2.0 over Reader and Writer, like the SDK's mcp.IOTransport, but it
// validates every line before the SDK sees it and answers a malformed one
// itself with the JSON-RPC error it deserves, then keeps reading:
//
//   - not JSON: -32700 parse error (id null);
//   - longer than MaxMessageBytes (answered with the id found in its
//     first 4 KiB, else null) or nested deeper than MaxNesting, a
//     batch (MCP 2025-06-18 removed them), not an object, no "jsonrpc":
//     "2.0", an id that is not a string or an integer, a method that is
//     not a non-empty string, a response with neither or both of result
//     and error: -32600 invalid request (with the request's id when it
//     has a valid one);
//   - params that are not an object, or tools/call without a string name or
//     with arguments that are not an object: -32602 invalid params.
//
// Malformed notifications (no id) are logged and dropped, as JSON-RPC
// says. The SDK (go-sdk v1.8.0) ends the session on any of these, and
// panics on tools/call with "arguments": null; see ARCHITECTURE.md.
// The SDK is handed the decoded message, never the raw line, so both see
// the same fields. Reader is never closed.
type Transport struct {
	Reader io.Reader
	Writer io.Writer
	// MaxMessageBytes overrides the package's MaxMessageBytes when > 0.
	MaxMessageBytes int
	// Logger receives dropped notifications (default: slog.Default()).
	Logger *slog.Logger
}

// Connect implements mcp.Transport.
func (t *Transport) Connect(context.Context) (mcp.Connection, error) {
	limit := t.MaxMessageBytes
	if limit <= 0 {
		limit = MaxMessageBytes
	}
	logger := t.Logger
	if logger == nil {
		logger = slog.Default()
	}
	c := &conn{w: t.Writer, logger: logger, incoming: make(chan readResult), closed: make(chan struct{})}
	go c.readLoop(bufio.NewReaderSize(t.Reader, 64<<10), limit)
	return c, nil
}

type readResult struct {
	msg jsonrpc.Message
	err error
}

// conn is one session's connection (mcp.Connection).
type conn struct {
	writeMu sync.Mutex
	w       io.Writer
	logger  *slog.Logger

	incoming  chan readResult
	closeOnce sync.Once
	closed    chan struct{}
}

func (c *conn) SessionID() string { return "" }

// Read returns the next well-formed message; io.EOF when the input ends.
func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	case r := <-c.incoming:
		return r.msg, r.err
	}
}

// Write writes msg as one line; writes are serialised with the
// transport's own error replies.
func (c *conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding JSON-RPC message: %w", err)
	}
	return c.writeLine(data)
}

func (c *conn) writeLine(data []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.w.Write(append(data, '\n'))
	return err
}

func (c *conn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

func (c *conn) deliver(r readResult) bool {
	select {
	case c.incoming <- r:
		return true
	case <-c.closed:
		return false
	}
}

// readLoop reads lines until the input ends or the connection closes,
// answering malformed ones and delivering the others to Read.
func (c *conn) readLoop(r *bufio.Reader, limit int) {
	for {
		line, head, tooLong, err := readLine(r, limit)
		if tooLong {
			c.reply(headID(head), jsonrpc.CodeInvalidRequest, fmt.Sprintf("message longer than %d bytes: send smaller arguments (crossmem's limits are in docs/limits.md)", limit))
		} else if len(bytes.TrimSpace(line)) > 0 {
			msg, v := decode(line)
			if v != nil {
				if v.notification {
					c.logger.Warn("dropped malformed MCP notification", "error", v.message)
				} else if werr := c.reply(v.id, v.code, v.message); werr != nil {
					c.deliver(readResult{err: werr})
					return
				}
			} else if !c.deliver(readResult{msg: msg}) {
				return
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.EOF
			}
			c.deliver(readResult{err: err})
			return
		}
	}
}

// reply writes a JSON-RPC error response. A nil id is written as null.
func (c *conn) reply(id *jsonrpc.ID, code int64, message string) error {
	resp := &jsonrpc.Response{Error: &jsonrpc.Error{Code: code, Message: message}}
	if id != nil && id.IsValid() {
		resp.ID = *id
		data, err := jsonrpc.EncodeMessage(resp)
		if err != nil {
			return err
		}
		return c.writeLine(data)
	}
	// The SDK's encoder leaves out an invalid id; JSON-RPC wants "id": null.
	data, err := json.Marshal(struct {
		JSONRPC string         `json:"jsonrpc"`
		ID      any            `json:"id"`
		Error   *jsonrpc.Error `json:"error"`
	}{"2.0", nil, resp.Error.(*jsonrpc.Error)})
	if err != nil {
		return err
	}
	return c.writeLine(data)
}

// readLine reads one line without its newline. A line longer than limit is
// read to its end and discarded (tooLong), never held in memory; its first
// 4 KiB are returned as head, where its id usually is. err is the read
// error after the line (io.EOF at the end of the input).
func readLine(r *bufio.Reader, limit int) (line, head []byte, tooLong bool, err error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(chunk) > limit+2 { // +2: "\r\n"
				tooLong = true
				head = append(buf, chunk[:min(len(chunk), 4096-min(len(buf), 4096))]...)
				head, buf = head[:min(len(head), 4096)], nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if tooLong {
			return nil, head, true, err
		}
		buf = bytes.TrimRight(buf, "\r\n")
		if len(buf) > limit {
			return nil, buf[:4096], true, err
		}
		return buf, nil, false, err
	}
}

// headID finds the id of a request from the start of its line (an
// object's top-level "id" member, read before the line is cut), for
// answering a message too long to read; nil when it cannot tell.
func headID(head []byte) *jsonrpc.ID {
	dec := json.NewDecoder(bytes.NewReader(head))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		if key == "id" {
			var raw json.RawMessage
			if dec.Decode(&raw) != nil {
				return nil
			}
			id, err := parseID(raw)
			if err != nil || !id.IsValid() {
				return nil
			}
			return &id
		}
		// Skip the member's value.
		depth := 0
		for {
			t, err := dec.Token()
			if err != nil {
				return nil
			}
			if d, ok := t.(json.Delim); ok {
				if d == '{' || d == '[' {
					depth++
				} else {
					depth--
				}
			}
			if depth == 0 {
				break
			}
		}
	}
}

// violation is why a line is not a message the server can act on.
type violation struct {
	id           *jsonrpc.ID // the request's id, when valid
	notification bool        // a request without id: no reply
	code         int64
	message      string
}

func invalid(format string, a ...any) *violation {
	return &violation{code: jsonrpc.CodeInvalidRequest, message: fmt.Sprintf(format, a...)}
}

// decode checks one line and builds the message the SDK will see.
func decode(line []byte) (jsonrpc.Message, *violation) {
	if d := nesting(line); d > MaxNesting {
		return nil, invalid("message nests arrays or objects %d levels deep; the limit is %d", d, MaxNesting)
	}
	if !json.Valid(line) {
		return nil, &violation{code: jsonrpc.CodeParseError, message: "parse error: the line is not valid JSON; send one JSON-RPC 2.0 object per line"}
	}
	switch trimmed := bytes.TrimSpace(line); trimmed[0] {
	case '[':
		return nil, invalid("JSON-RPC batches are not supported (MCP 2025-06-18 removed them): send one message per line")
	case '{':
	default:
		return nil, invalid("a JSON-RPC message must be a JSON object with \"jsonrpc\": \"2.0\"")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(line, &fields); err != nil {
		return nil, invalid("a JSON-RPC message must be a JSON object: %v", err)
	}
	v := &violation{code: jsonrpc.CodeInvalidRequest}
	rawID, hasID := fields["id"]
	var id jsonrpc.ID
	if hasID {
		var err error
		if id, err = parseID(rawID); err != nil {
			v.message = err.Error()
			return nil, v
		}
		v.id = &id
	}
	if string(fields["jsonrpc"]) != `"2.0"` {
		v.message = `"jsonrpc" must be "2.0"`
		v.notification = !hasID && fields["method"] != nil
		return nil, v
	}
	rawMethod, isRequest := fields["method"]
	if !isRequest {
		return decodeResponse(fields, hasID, id, v)
	}
	v.notification = !hasID
	if hasID && !id.IsValid() {
		v.message = `"id" of a request must be a string or an integer, not null (leave it out for a notification)`
		return nil, v
	}
	var method string
	if err := json.Unmarshal(rawMethod, &method); err != nil || method == "" {
		v.message = `"method" must be a non-empty string`
		return nil, v
	}
	if fields["result"] != nil || fields["error"] != nil {
		v.message = "a request cannot carry result or error"
		return nil, v
	}
	params := fields["params"]
	if string(params) == "null" {
		params = nil
	}
	v.code = jsonrpc.CodeInvalidParams
	if params != nil && params[0] != '{' {
		v.message = fmt.Sprintf("params of %s must be an object", method)
		return nil, v
	}
	if method == "tools/call" {
		if msg := checkToolCall(params); msg != "" {
			v.message = msg
			return nil, v
		}
	}
	return &jsonrpc.Request{ID: id, Method: method, Params: params}, nil
}

// checkToolCall returns why tools/call params are invalid, or "".
func checkToolCall(params json.RawMessage) string {
	var p struct {
		Name      *string         `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if params == nil || json.Unmarshal(params, &p) != nil || p.Name == nil {
		return `tools/call needs params {"name": <tool name>, "arguments": {...}}`
	}
	if p.Arguments != nil && p.Arguments[0] != '{' {
		return fmt.Sprintf("arguments of %s must be an object (or left out), not %s", *p.Name, kind(p.Arguments))
	}
	return ""
}

func decodeResponse(fields map[string]json.RawMessage, hasID bool, id jsonrpc.ID, v *violation) (jsonrpc.Message, *violation) {
	result, hasResult := fields["result"]
	rawErr, hasErr := fields["error"]
	if !hasID || hasResult == hasErr {
		v.message = "a JSON-RPC message needs a \"method\" (request) or an \"id\" with exactly one of \"result\" and \"error\" (response)"
		return nil, v
	}
	if !id.IsValid() {
		v.message = "a response needs the id of the request it answers"
		return nil, v
	}
	resp := &jsonrpc.Response{ID: id, Result: result}
	if hasErr {
		var we jsonrpc.Error
		if err := json.Unmarshal(rawErr, &we); err != nil || rawErr[0] != '{' {
			v.message = `"error" must be an object {"code": <integer>, "message": <string>}`
			return nil, v
		}
		resp.Error, resp.Result = &we, nil
	}
	return resp, nil
}

// parseID reads a request id: a string, an integer or null.
func parseID(raw json.RawMessage) (jsonrpc.ID, error) {
	var x any
	if err := json.Unmarshal(raw, &x); err != nil {
		return jsonrpc.ID{}, err
	}
	switch x := x.(type) {
	case nil:
		return jsonrpc.ID{}, nil
	case string:
		return jsonrpc.MakeID(x)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) <= 1<<53 {
			return jsonrpc.MakeID(x)
		}
	}
	return jsonrpc.ID{}, fmt.Errorf(`"id" must be a string or an integer, not %s`, kind(raw))
}

// kind names a JSON value's type for messages.
func kind(raw json.RawMessage) string {
	switch t := bytes.TrimSpace(raw); {
	case len(t) == 0:
		return "nothing"
	case t[0] == '{':
		return "an object"
	case t[0] == '[':
		return "an array"
	case t[0] == '"':
		return "a string"
	case t[0] == 'n':
		return "null"
	case t[0] == 't' || t[0] == 'f':
		return "a boolean"
	default:
		return "a number"
	}
}

// nesting returns the deepest nesting of arrays and objects in data,
// outside strings, without parsing it (so it is safe on any bytes).
func nesting(data []byte) int {
	depth, deepest, inString, escaped := 0, 0, false, false
	for _, b := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
		case b == '"':
			inString = true
		case b == '[' || b == '{':
			depth++
			deepest = max(deepest, depth)
		case b == ']' || b == '}':
			depth--
		}
	}
	return deepest
}
