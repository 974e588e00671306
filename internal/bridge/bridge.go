// Package bridge is the browser bridge of `crossmem serve`: an HTTP +
// WebSocket relay between agents or CLI tools and the crossmem browser
// extension (extension/), with the seed's endpoints, actions and agentId,
// hardened:
//
//   - a per-install token (LoadOrCreateToken: 64 hex digits, mode 0600 in
//     the config folder) on every HTTP call (Authorization: Bearer or
//     X-Crossmem-Token) and on the WebSocket handshake (the subprotocol
//     "token.<token>" beside "crossmem.v1", or Authorization);
//   - the Host check, security headers and refusal logging of
//     internal/serve;
//   - the WebSocket's Origin must be the paired extension's
//     ("chrome-extension://<id>", configured or learned at pairing with the
//     one-time code `crossmem serve` prints); a web page's Origin is refused
//     on every endpoint;
//   - an action allowlist with a schema per action (Command.Validate): http
//     and https URLs only, selector and text limits, no script or eval
//     verb, bounded waits, extracts, screenshots and fetched PDFs;
//   - request size limits, a bounded number of commands in flight and a
//     deadline on each;
//   - an agent acts only on the tabs it opened (agentId);
//   - every refusal is logged with its reason, and nothing is sent to the
//     extension for a refused request.
//
// POST /capture runs the same capture as `crossmem capture` (Bridge.Capture,
// given by the CLI) on the PDF bytes or the identifier the extension sends.
package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/crossmem/crossmem/internal/identifier"
	"github.com/crossmem/crossmem/internal/serve"
)

// Limits and deadlines of the bridge (docs/limits.md).
const (
	DefaultCommandTimeout = 30 * time.Second // the wait for the extension's answer
	MaxCommandTimeout     = 2 * time.Minute
	MaxCommandBody        = 256 << 10 // bytes of a /command or /dialog_response body
	MaxJSONCaptureBody    = 16 << 10  // bytes of a /capture body naming an identifier
	MaxPairBody           = 1 << 10
	MaxPending            = 64        // commands waiting for the extension at once
	MaxMessage            = 160 << 20 // bytes of one WebSocket message (a fetched PDF, base64)
	MaxScreenshot         = 16 << 20  // bytes of a screenshot answer
	PairingAttempts       = 5         // wrong codes before pairing closes
	PairingTTL            = 10 * time.Minute
	CaptureTimeout        = 5 * time.Minute
)

// Subprotocol is the WebSocket subprotocol the extension speaks.
const Subprotocol = "crossmem.v1"

// CaptureRequest is what POST /capture asks: the PDF's bytes (fetched by
// the browser with the user's login) or an identifier.
type CaptureRequest struct {
	PDF []byte // the PDF; nil when Identifier is set
	// Identifier is an arXiv id or URL, a DOI or DOI URL, or the http(s)
	// URL of a PDF (never a local path).
	Identifier string
	// SourceURL is the http(s) address the browser fetched PDF from ("" if
	// unknown).
	SourceURL string
	// DOI is the DOI the landing page gives (citation_doi), "" if none.
	DOI string
}

// CaptureResult is /capture's answer, the same fields `crossmem capture
// --json` prints first.
type CaptureResult struct {
	CiteKey  string   `json:"cite_key"`
	Existing bool     `json:"existing"`
	PDF      string   `json:"pdf"`
	Sidecar  string   `json:"sidecar"`
	Pending  bool     `json:"lookup_pending"`
	Warnings []string `json:"warnings,omitempty"`
}

// CaptureFunc runs a capture. Its error is shown to the extension's user:
// CaptureError marks the ones that are the request's fault (4xx).
type CaptureFunc func(ctx context.Context, r CaptureRequest) (*CaptureResult, error)

// CaptureError is a capture refused for what was sent (not a PDF, no
// identifier the capture understands): 422.
type CaptureError struct{ Err error }

func (e *CaptureError) Error() string { return e.Err.Error() }
func (e *CaptureError) Unwrap() error { return e.Err }

// Bridge is the relay. Set its fields, then Mount it on a serve.Server.
type Bridge struct {
	// Token is the per-install secret (LoadOrCreateToken).
	Token string
	// ExtensionOrigin is the paired extension's origin
	// ("chrome-extension://<id>"), "" before pairing. Configured
	// ([serve] extension_id) or learned at pairing.
	ExtensionOrigin string
	// Configured is true when ExtensionOrigin comes from the configuration:
	// pairing then accepts that extension only.
	Configured bool
	// OriginFile is where a learned origin is saved ("" : not saved).
	OriginFile string
	// PairingCode is the one-time code pairing needs ("" : pairing is
	// closed); it expires PairingTTL after Mount.
	PairingCode string
	// Capture runs POST /capture (nil: 503).
	Capture CaptureFunc
	Logger  *slog.Logger

	mu          sync.Mutex
	conns       []*extConn // newest last
	pending     map[uint64]chan reply
	nextID      uint64
	tabOwner    map[int]string // tab id → the agent that opened it
	agentTab    map[string]int // agent → its last tab
	pairFails   int
	pairExpires time.Time

	executed atomic.Int64 // commands sent to the extension
	refused  atomic.Int64
}

type extConn struct {
	ws     *websocket.Conn
	origin string
	cancel context.CancelFunc
}

type reply struct {
	OK     bool            `json:"ok"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  string          `json:"error,omitempty"`
}

// message is one WebSocket message, either way.
type message struct {
	Type    string          `json:"type"` // "command", "result", "hello", "keepalive"
	ID      uint64          `json:"id,omitempty"`
	Action  string          `json:"action,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	AgentID string          `json:"agentId,omitempty"`
	TabID   int             `json:"tabId,omitempty"`
	OK      bool            `json:"ok,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   string          `json:"error,omitempty"`
}

// Mount adds the bridge's endpoints to s: GET /status, POST /command,
// POST /dialog_response, POST /capture, POST /pair, and the extension's
// WebSocket at /ws and / (a WebSocket upgrade of /; the viewer keeps GET
// /).
func (b *Bridge) Mount(s *serve.Server) error {
	if !validToken(b.Token) {
		return errors.New("bridge: no valid token")
	}
	if b.Logger == nil {
		b.Logger = s.Logger()
	}
	b.pending = map[uint64]chan reply{}
	b.tabOwner = map[int]string{}
	b.agentTab = map[string]int{}
	b.pairExpires = time.Now().Add(PairingTTL)
	s.Handle("GET /status", b.authorized(http.HandlerFunc(b.status)))
	s.Handle("POST /command", b.authorized(http.HandlerFunc(b.command)))
	s.Handle("POST /dialog_response", b.authorized(http.HandlerFunc(b.dialogResponse)))
	s.Handle("POST /capture", b.authorized(http.HandlerFunc(b.capture)))
	s.Handle("POST /pair", http.HandlerFunc(b.pair))
	s.Handle("GET /ws", http.HandlerFunc(b.websocket))
	s.HandleUpgrade(http.HandlerFunc(b.websocket))
	s.OnShutdown(b.closeAll)
	base := s.URL()
	ws := "ws" + strings.TrimPrefix(base, "http")
	s.Announce("HTTP → " + base + "/status")
	s.Announce("HTTP → " + base + "/command")
	s.Announce("WS → " + ws + "/ (the crossmem extension, with the token)")
	return nil
}

// Executed returns how many commands were sent to the extension.
func (b *Bridge) Executed() int64 { return b.executed.Load() }

func (b *Bridge) refuse(w http.ResponseWriter, r *http.Request, status int, reason string) {
	b.refused.Add(1)
	serve.Refuse(w, r, b.Logger, status, reason)
}

// webOrigin reports whether an Origin header is a web page's (anything but
// the paired extension's, or none).
func (b *Bridge) originAllowed(origin string) bool {
	if origin == "" {
		return true // not a browser page: curl, an agent, the CLI
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.ExtensionOrigin != "" && origin == b.ExtensionOrigin
}

// requestToken returns the token a request carries.
func requestToken(r *http.Request) string {
	if h := r.Header.Get("Authorization"); h != "" {
		if t, ok := strings.CutPrefix(h, "Bearer "); ok {
			return strings.TrimSpace(t)
		}
	}
	return r.Header.Get("X-Crossmem-Token")
}

// authorized admits a request from no browser page or the paired
// extension, with the token.
func (b *Bridge) authorized(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); !b.originAllowed(o) {
			b.refuse(w, r, http.StatusForbidden, "request from origin "+strconv.Quote(clip(o))+": only the paired extension or no browser page may call the bridge")
			return
		}
		switch t := requestToken(r); {
		case t == "":
			b.refuse(w, r, http.StatusUnauthorized, "no token (Authorization: Bearer <the token in the config folder's "+TokenFile+">)")
			return
		case !equal(t, b.Token):
			b.refuse(w, r, http.StatusUnauthorized, "wrong token")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// readBody reads at most limit bytes of r's body: a larger body is
// refused with 413 (false).
func (b *Bridge) readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, bool) {
	if r.ContentLength > limit {
		b.refuse(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("body of %d bytes; at most %d", r.ContentLength, limit))
		return nil, false
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			b.refuse(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("body over %d bytes", limit))
		} else {
			b.refuse(w, r, http.StatusBadRequest, "read the body: "+clip(err.Error()))
		}
		return nil, false
	}
	return data, true
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// Status is GET /status's answer.
type Status struct {
	Paired          bool   `json:"paired"`
	ExtensionOrigin string `json:"extension_origin,omitempty"`
	Extensions      int    `json:"extensions"` // connected
	Pending         int    `json:"pending"`    // commands waiting for the extension
	Agents          int    `json:"agents"`     // agents with a tab
	Executed        int64  `json:"executed"`   // commands sent to the extension
	Refused         int64  `json:"refused"`    // requests refused
}

func (b *Bridge) status(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	st := Status{Paired: b.ExtensionOrigin != "", ExtensionOrigin: b.ExtensionOrigin, Extensions: len(b.conns),
		Pending: len(b.pending), Agents: len(b.agentTab), Executed: b.executed.Load(), Refused: b.refused.Load()}
	b.mu.Unlock()
	writeJSON(w, http.StatusOK, st)
}

// decodeStrict decodes one JSON object, refusing unknown fields.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the object")
	}
	return nil
}

func (b *Bridge) command(w http.ResponseWriter, r *http.Request) {
	data, ok := b.readBody(w, r, MaxCommandBody)
	if !ok {
		return
	}
	var c Command
	if err := decodeStrict(data, &c); err != nil {
		b.refuse(w, r, http.StatusBadRequest, "command: "+clip(err.Error()))
		return
	}
	params, err := c.Validate()
	if err != nil {
		b.refuse(w, r, http.StatusBadRequest, c.Action+": "+err.Error())
		return
	}
	b.run(w, r, c, params)
}

// run resolves the command's tab for its agent, sends it and writes the
// extension's answer.
func (b *Bridge) run(w http.ResponseWriter, r *http.Request, c Command, params json.RawMessage) {
	b.mu.Lock()
	switch {
	case c.TabID != 0:
		if owner := b.tabOwner[c.TabID]; owner != c.AgentID {
			b.mu.Unlock()
			who := "no agent"
			if owner != "" {
				who = "another agent"
			}
			b.refuse(w, r, http.StatusForbidden, fmt.Sprintf("tab %d was opened by %s, not by agent %q", c.TabID, who, c.AgentID))
			return
		}
	case tabActions[c.Action] || c.Action == "tab_info" || c.Action == "dialog_response":
		t := b.agentTab[c.AgentID]
		if t == 0 {
			b.mu.Unlock()
			b.refuse(w, r, http.StatusConflict, fmt.Sprintf("%s: agent %q has no tab: navigate first", c.Action, c.AgentID))
			return
		}
		c.TabID = t
	case c.Action == "navigate":
		c.TabID = b.agentTab[c.AgentID] // 0: a new tab
	}
	b.mu.Unlock()

	timeout := DefaultCommandTimeout
	if c.TimeoutMillis > 0 {
		timeout = time.Duration(c.TimeoutMillis) * time.Millisecond
	}
	ctx, cancel := context.WithTimeout(r.Context(), timeout)
	defer cancel()
	start := time.Now()
	rep, status, err := b.send(ctx, message{Type: "command", Action: c.Action, Params: params, AgentID: c.AgentID, TabID: c.TabID})
	if err != nil {
		b.Logger.Warn("command failed", "action", c.Action, "agent", c.AgentID, "tab", c.TabID, "error", err)
		writeJSON(w, status, reply{OK: false, Error: err.Error()})
		return
	}
	if c.Action == "screenshot" && len(rep.Result) > MaxScreenshot {
		writeJSON(w, http.StatusBadGateway, reply{OK: false, Error: fmt.Sprintf("the screenshot is %d bytes; at most %d", len(rep.Result), MaxScreenshot)})
		return
	}
	if rep.OK && c.Action == "navigate" {
		var res struct {
			TabID int `json:"tabId"`
		}
		if json.Unmarshal(rep.Result, &res) == nil && res.TabID > 0 {
			b.mu.Lock()
			if owner := b.tabOwner[res.TabID]; owner == "" || owner == c.AgentID {
				b.tabOwner[res.TabID] = c.AgentID
				b.agentTab[c.AgentID] = res.TabID
			}
			b.mu.Unlock()
		}
	}
	b.Logger.Info("command", "action", c.Action, "agent", c.AgentID, "tab", c.TabID, "ok", rep.OK, "ms", time.Since(start).Milliseconds())
	writeJSON(w, http.StatusOK, rep)
}

// Errors of send, with the HTTP status run answers.
var (
	ErrNoExtension = errors.New("no extension is connected: open the browser with the crossmem extension (paired in its options page)")
	ErrBusy        = errors.New("too many commands in flight: retry later")
)

// send sends m to the newest extension connection and waits for its
// result, ctx's deadline or the connection's end.
func (b *Bridge) send(ctx context.Context, m message) (reply, int, error) {
	b.mu.Lock()
	if len(b.conns) == 0 {
		b.mu.Unlock()
		return reply{}, http.StatusServiceUnavailable, ErrNoExtension
	}
	if len(b.pending) >= MaxPending {
		b.mu.Unlock()
		return reply{}, http.StatusServiceUnavailable, ErrBusy
	}
	conn := b.conns[len(b.conns)-1]
	b.nextID++
	m.ID = b.nextID
	ch := make(chan reply, 1)
	b.pending[m.ID] = ch
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		delete(b.pending, m.ID)
		b.mu.Unlock()
	}()
	data, err := json.Marshal(m)
	if err != nil {
		return reply{}, http.StatusInternalServerError, err
	}
	b.executed.Add(1)
	if err := conn.ws.Write(ctx, websocket.MessageText, data); err != nil {
		return reply{}, http.StatusBadGateway, fmt.Errorf("send to the extension: %w", err)
	}
	select {
	case rep, ok := <-ch:
		if !ok {
			return reply{}, http.StatusBadGateway, errors.New("the extension disconnected before answering")
		}
		return rep, http.StatusOK, nil
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return reply{}, http.StatusGatewayTimeout, errors.New("the extension did not answer in time")
		}
		return reply{}, http.StatusServiceUnavailable, ctx.Err()
	}
}

// DialogResponse is the body of POST /dialog_response: the answer to a
// page's alert, confirm or prompt on one of the agent's tabs.
type DialogResponse struct {
	AgentID string `json:"agentId,omitempty"`
	TabID   int    `json:"tabId,omitempty"`
	Accept  bool   `json:"accept"`
	Text    string `json:"text,omitempty"`
}

func (b *Bridge) dialogResponse(w http.ResponseWriter, r *http.Request) {
	data, ok := b.readBody(w, r, MaxCommandBody)
	if !ok {
		return
	}
	var d DialogResponse
	if err := decodeStrict(data, &d); err != nil {
		b.refuse(w, r, http.StatusBadRequest, "dialog_response: "+clip(err.Error()))
		return
	}
	c := Command{Action: "dialog_response", AgentID: d.AgentID, TabID: d.TabID}
	// Validate the shared fields (agentId, tabId) through a ping.
	probe := Command{Action: "ping", AgentID: d.AgentID, TabID: d.TabID}
	if _, err := probe.Validate(); err != nil {
		b.refuse(w, r, http.StatusBadRequest, "dialog_response: "+err.Error())
		return
	}
	c.AgentID = probe.AgentID
	if len(d.Text) > MaxTextLen {
		b.refuse(w, r, http.StatusBadRequest, fmt.Sprintf("dialog_response: text over %d bytes", MaxTextLen))
		return
	}
	params, _ := json.Marshal(struct {
		Accept bool   `json:"accept"`
		Text   string `json:"text"`
	}{d.Accept, d.Text})
	b.run(w, r, c, params)
}

// pairRequest is the body of POST /pair.
type pairRequest struct {
	Code string `json:"code"`
}

// pair exchanges the one-time pairing code for the token. It must come
// from an extension page (Origin chrome-extension://<id>; the configured
// one when there is one); the extension's origin is then the only one the
// WebSocket accepts.
func (b *Bridge) pair(w http.ResponseWriter, r *http.Request) {
	origin := r.Header.Get("Origin")
	eo, err := ExtensionOrigin(origin)
	if origin == "" || err != nil || eo != origin {
		b.refuse(w, r, http.StatusForbidden, "pairing from "+strconv.Quote(clip(origin))+": only a browser extension's page may pair")
		return
	}
	data, ok := b.readBody(w, r, MaxPairBody)
	if !ok {
		return
	}
	var p pairRequest
	if err := decodeStrict(data, &p); err != nil {
		b.refuse(w, r, http.StatusBadRequest, "pair: "+clip(err.Error()))
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case b.Configured && origin != b.ExtensionOrigin:
		b.refuseLocked(w, r, http.StatusForbidden, "pairing from "+origin+": the configuration names "+b.ExtensionOrigin)
		return
	case b.PairingCode == "" || b.pairFails >= PairingAttempts || time.Now().After(b.pairExpires):
		b.refuseLocked(w, r, http.StatusForbidden, "pairing is closed (used, expired or too many wrong codes): restart crossmem serve for a new code")
		return
	case !equal(normalizeCode(p.Code), normalizeCode(b.PairingCode)):
		b.pairFails++
		b.refuseLocked(w, r, http.StatusForbidden, fmt.Sprintf("wrong pairing code (%d of %d attempts)", b.pairFails, PairingAttempts))
		return
	}
	b.PairingCode = ""
	b.ExtensionOrigin = origin
	if b.OriginFile != "" {
		if err := writePrivate(b.OriginFile, origin+"\n"); err != nil {
			b.Logger.Warn("could not save the paired extension's origin", "file", b.OriginFile, "error", err)
		}
	}
	b.Logger.Info("extension paired", "origin", origin)
	writeJSON(w, http.StatusOK, map[string]string{"token": b.Token})
}

func (b *Bridge) refuseLocked(w http.ResponseWriter, r *http.Request, status int, reason string) {
	b.refused.Add(1)
	serve.Refuse(w, r, b.Logger, status, reason)
}

// wsToken returns the token of a WebSocket handshake: the subprotocol
// "token.<token>" or the Authorization header.
func wsToken(r *http.Request) string {
	for _, h := range r.Header.Values("Sec-WebSocket-Protocol") {
		for _, p := range strings.Split(h, ",") {
			if t, ok := strings.CutPrefix(strings.TrimSpace(p), "token."); ok {
				return t
			}
		}
	}
	return requestToken(r)
}

// websocket accepts the extension's connection.
func (b *Bridge) websocket(w http.ResponseWriter, r *http.Request) {
	origin := r.Header.Get("Origin")
	b.mu.Lock()
	want := b.ExtensionOrigin
	b.mu.Unlock()
	switch t := wsToken(r); {
	case want == "":
		b.refuse(w, r, http.StatusForbidden, "WebSocket before pairing: pair the extension with the code crossmem serve prints")
		return
	case origin != want:
		b.refuse(w, r, http.StatusForbidden, "WebSocket from origin "+strconv.Quote(clip(origin))+": only the paired extension "+want)
		return
	case t == "":
		b.refuse(w, r, http.StatusUnauthorized, "WebSocket without the token")
		return
	case !equal(t, b.Token):
		b.refuse(w, r, http.StatusUnauthorized, "WebSocket with a wrong token")
		return
	}
	// The server's read deadline would end the hijacked connection.
	http.NewResponseController(w).SetReadDeadline(time.Time{})
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{
		Subprotocols: []string{Subprotocol},
		// The Origin was checked above against the paired extension's.
		InsecureSkipVerify: true,
	})
	if err != nil {
		b.Logger.Warn("WebSocket handshake failed", "error", err)
		return
	}
	ws.SetReadLimit(MaxMessage)
	ctx, cancel := context.WithCancel(context.Background())
	c := &extConn{ws: ws, origin: origin, cancel: cancel}
	b.mu.Lock()
	b.conns = append(b.conns, c)
	b.mu.Unlock()
	b.Logger.Info("extension connected", "origin", origin)
	b.readLoop(ctx, c)
	b.mu.Lock()
	for i, x := range b.conns {
		if x == c {
			b.conns = append(b.conns[:i], b.conns[i+1:]...)
			break
		}
	}
	b.mu.Unlock()
	cancel()
	ws.Close(websocket.StatusNormalClosure, "")
	b.Logger.Info("extension disconnected", "origin", origin)
}

// readLoop delivers the extension's results until the connection ends.
func (b *Bridge) readLoop(ctx context.Context, c *extConn) {
	for {
		typ, data, err := c.ws.Read(ctx)
		if err != nil {
			return
		}
		if typ != websocket.MessageText {
			continue
		}
		var m message
		if err := json.Unmarshal(data, &m); err != nil {
			b.Logger.Warn("unreadable message from the extension", "error", err)
			continue
		}
		switch m.Type {
		case "result":
			b.mu.Lock()
			ch := b.pending[m.ID]
			delete(b.pending, m.ID)
			b.mu.Unlock()
			if ch != nil {
				ch <- reply{OK: m.OK, Result: m.Result, Error: m.Error}
			}
		case "hello":
			b.Logger.Info("extension says hello", "version", clip(string(m.Result)))
		case "keepalive":
		default:
			b.Logger.Debug("message of unknown type from the extension", "type", clip(m.Type))
		}
	}
}

func (b *Bridge) closeAll() {
	b.mu.Lock()
	conns := append([]*extConn(nil), b.conns...)
	b.mu.Unlock()
	for _, c := range conns {
		c.ws.Close(websocket.StatusGoingAway, "the crossmem server is stopping")
		c.cancel()
	}
}

// captureJSON is the JSON body of POST /capture (Content-Type
// application/json): an identifier.
type captureJSON struct {
	Identifier string `json:"identifier"`
	DOI        string `json:"doi,omitempty"`
}

// capture runs POST /capture: a PDF (Content-Type application/pdf, the
// page's address in X-Crossmem-Source-URL and its DOI in X-Crossmem-DOI)
// or {"identifier": …} (application/json).
func (b *Bridge) capture(w http.ResponseWriter, r *http.Request) {
	if b.Capture == nil {
		writeJSON(w, http.StatusServiceUnavailable, reply{Error: "capture is not available in this server"})
		return
	}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	var req CaptureRequest
	switch ct {
	case "application/pdf":
		data, ok := b.readBody(w, r, MaxFetchBytes)
		if !ok {
			return
		}
		if len(data) < 5 || string(data[:5]) != "%PDF-" {
			b.refuse(w, r, http.StatusUnprocessableEntity, "the body is not a PDF (no %PDF- header)")
			return
		}
		req.PDF = data
		if s := r.Header.Get("X-Crossmem-Source-URL"); s != "" {
			if err := checkURL(s); err != nil {
				b.refuse(w, r, http.StatusBadRequest, "X-Crossmem-Source-URL: "+err.Error())
				return
			}
			req.SourceURL = s
		}
		req.DOI = strings.TrimSpace(r.Header.Get("X-Crossmem-DOI"))
	case "application/json":
		data, ok := b.readBody(w, r, MaxJSONCaptureBody)
		if !ok {
			return
		}
		var j captureJSON
		if err := decodeStrict(data, &j); err != nil {
			b.refuse(w, r, http.StatusBadRequest, "capture: "+clip(err.Error()))
			return
		}
		// Never a local path: a page must not make crossmem read files.
		id, err := identifier.Classify(j.Identifier, func(string) bool { return false })
		if err != nil || id.Kind == identifier.KindLocalPDF {
			b.refuse(w, r, http.StatusBadRequest, "capture: "+strconv.Quote(clip(j.Identifier))+" is not an arXiv id or URL, a DOI or a PDF URL")
			return
		}
		if id.Kind == identifier.KindPDFURL || strings.Contains(j.Identifier, "://") {
			if err := checkURL(j.Identifier); err != nil {
				b.refuse(w, r, http.StatusBadRequest, "capture: "+err.Error())
				return
			}
		}
		req.Identifier, req.DOI = j.Identifier, j.DOI
	default:
		b.refuse(w, r, http.StatusUnsupportedMediaType, "Content-Type "+strconv.Quote(clip(ct))+": application/pdf or application/json")
		return
	}
	if req.DOI != "" {
		if _, ok := identifier.ParseDOI(req.DOI); !ok {
			b.refuse(w, r, http.StatusBadRequest, "capture: "+strconv.Quote(clip(req.DOI))+" is not a DOI")
			return
		}
	}
	ctx, cancel := context.WithTimeout(r.Context(), CaptureTimeout)
	defer cancel()
	res, err := b.Capture(ctx, req)
	if err != nil {
		status := http.StatusInternalServerError
		var ce *CaptureError
		if errors.As(err, &ce) {
			status = http.StatusUnprocessableEntity
		}
		b.Logger.Warn("capture failed", "source", clip(req.SourceURL+req.Identifier), "error", err)
		writeJSON(w, status, reply{Error: err.Error()})
		return
	}
	b.Logger.Info("captured", "cite_key", res.CiteKey, "existing", res.Existing, "source", clip(req.SourceURL+req.Identifier))
	writeJSON(w, http.StatusOK, res)
}
