package bridge_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/crossmem/crossmem/internal/bridge"
	"github.com/crossmem/crossmem/internal/serve"
)

// extOrigin is the origin of the test's extension (an id of 32 letters
// a-p, as Chrome makes them).
const extOrigin = "chrome-extension://abcdefghijklmnopabcdefghijklmnop"

// syncBuffer is a log destination read while the server writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type fixture struct {
	b       *bridge.Bridge
	base    string
	token   string
	log     *syncBuffer
	ext     *fakeExtension
	capture []bridge.CaptureRequest
	mu      sync.Mutex
}

// start runs a serve.Server with the bridge on a free loopback port, the
// extension paired (origin extOrigin) and, when connect is true, a fake
// extension connected over the real WebSocket. The fake extension stands
// in for the browser, which the end-to-end test (e2e_test.go) drives for
// real; it records every command it receives.
func start(t *testing.T, connect bool) *fixture {
	t.Helper()
	log := &syncBuffer{}
	logger := slog.New(slog.NewTextHandler(log, nil))
	s, err := serve.Listen("127.0.0.1", 0, logger)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := bridge.LoadOrCreateToken(filepath.Join(t.TempDir(), bridge.TokenFile))
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{base: s.URL(), token: tok, log: log}
	f.b = &bridge.Bridge{Token: tok, ExtensionOrigin: extOrigin, PairingCode: "ABCD-EFGH", Logger: logger,
		Capture: func(ctx context.Context, r bridge.CaptureRequest) (*bridge.CaptureResult, error) {
			f.mu.Lock()
			f.capture = append(f.capture, r)
			f.mu.Unlock()
			return &bridge.CaptureResult{CiteKey: "doe2024test"}, nil
		}}
	if err := f.b.Mount(s); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	if connect {
		f.ext = dialExtension(t, f.base, tok)
		waitFor(t, func() bool { return f.status(t).Extensions == 1 })
	}
	return f
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if ok() {
			return
		}
	}
	t.Fatal("condition not met within 10 s")
}

type fakeExtension struct {
	mu       sync.Mutex
	received []map[string]any
	nextTab  int
}

func (e *fakeExtension) count() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.received)
}

func dialExtension(t *testing.T, base, tok string) *fakeExtension {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	h := http.Header{}
	h.Set("Origin", extOrigin)
	ws, res, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/ws", &websocket.DialOptions{
		HTTPHeader: h, Subprotocols: []string{bridge.Subprotocol, "token." + tok}})
	if err != nil {
		t.Fatalf("the extension's WebSocket: %v (%v)", err, res)
	}
	if ws.Subprotocol() != bridge.Subprotocol {
		t.Errorf("subprotocol %q, want %q", ws.Subprotocol(), bridge.Subprotocol)
	}
	e := &fakeExtension{nextTab: 100}
	go func() {
		for {
			_, data, err := ws.Read(ctx)
			if err != nil {
				return
			}
			var m map[string]any
			json.Unmarshal(data, &m)
			e.mu.Lock()
			e.received = append(e.received, m)
			result := map[string]any{"action": m["action"], "tabId": m["tabId"]}
			if m["action"] == "navigate" && m["tabId"] == nil {
				e.nextTab++
				result["tabId"] = e.nextTab
			}
			e.mu.Unlock()
			out, _ := json.Marshal(map[string]any{"type": "result", "id": m["id"], "ok": true, "result": result})
			if ws.Write(ctx, websocket.MessageText, out) != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		ws.Close(websocket.StatusNormalClosure, "")
		cancel()
	})
	return e
}

// request sends one request: headers as "Name: value" pairs.
func (f *fixture) request(t *testing.T, method, path string, body []byte, headers ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, f.base+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func (f *fixture) auth() string { return "Authorization: Bearer " + f.token }

func (f *fixture) status(t *testing.T) bridge.Status {
	t.Helper()
	code, body := f.request(t, "GET", "/status", nil, f.auth())
	if code != 200 {
		t.Fatalf("GET /status: %d %s", code, body)
	}
	var st bridge.Status
	if err := json.Unmarshal([]byte(body), &st); err != nil {
		t.Fatal(err)
	}
	return st
}

func command(action string, params any, extra ...string) []byte {
	p, _ := json.Marshal(params)
	s := fmt.Sprintf(`{"action":%q,"params":%s`, action, p)
	for _, e := range extra {
		s += "," + e
	}
	return []byte(s + "}")
}

// TestRefusals sends every kind of request the bridge must refuse: each is
// answered 4xx, logged with its reason, and nothing reaches the extension.
func TestRefusals(t *testing.T) {
	f := start(t, true)
	// Agent A opens a tab (tab 101); B must not touch it.
	if code, body := f.request(t, "POST", "/command", command("navigate", map[string]string{"url": "https://example.org/"}, `"agentId":"A"`), f.auth()); code != 200 || !strings.Contains(body, `"tabId":101`) {
		t.Fatalf("agent A's navigate: %d %s", code, body)
	}
	before := f.ext.count()
	executed := f.b.Executed()
	cases := []struct {
		name, method, path string
		body               []byte
		headers            []string
		want               int
		reason             string
	}{
		{"no token", "POST", "/command", command("ping", map[string]any{}), nil, 401, "no token"},
		{"wrong token", "POST", "/command", command("ping", map[string]any{}), []string{"Authorization: Bearer " + strings.Repeat("0", 64)}, 401, "wrong token"},
		{"wrong token header", "GET", "/status", nil, []string{"X-Crossmem-Token: nope"}, 401, "wrong token"},
		{"foreign Host", "POST", "/command", command("ping", map[string]any{}), []string{f.auth(), "Host: evil.example:80"}, 421, "foreign Host"},
		{"rebound Host with our port", "GET", "/status", nil, []string{f.auth(), "Host: attacker.test:" + strings.TrimPrefix(f.base[strings.LastIndex(f.base, ":"):], ":")}, 421, "foreign Host"},
		{"web Origin with the token", "POST", "/command", command("ping", map[string]any{}), []string{f.auth(), "Origin: http://127.0.0.1:9999"}, 403, "origin"},
		{"another extension's Origin", "POST", "/command", command("ping", map[string]any{}), []string{f.auth(), "Origin: chrome-extension://ppppppppppppppppppppppppppppppppp"}, 403, "origin"},
		{"unknown action", "POST", "/command", command("eval", map[string]string{"code": "alert(1)"}), []string{f.auth()}, 400, "unknown action"},
		{"script action", "POST", "/command", command("executeScript", map[string]any{}), []string{f.auth()}, 400, "unknown action"},
		{"no action", "POST", "/command", []byte(`{"params":{}}`), []string{f.auth()}, 400, "no action"},
		{"unknown field", "POST", "/command", []byte(`{"action":"ping","script":"x"}`), []string{f.auth()}, 400, "unknown field"},
		{"unknown param", "POST", "/command", command("click", map[string]string{"selector": "a", "js": "x"}), []string{f.auth()}, 400, "unknown field"},
		{"oversize body", "POST", "/command", command("ping", map[string]string{"pad": strings.Repeat("x", 300<<10)}), []string{f.auth()}, 413, "body"},
		{"javascript: URL", "POST", "/command", command("navigate", map[string]string{"url": "javascript:alert(document.cookie)"}), []string{f.auth()}, 400, "only http and https"},
		{"data: URL", "POST", "/command", command("navigate", map[string]string{"url": "data:text/html,<script>alert(1)</script>"}), []string{f.auth()}, 400, "only http and https"},
		{"file: URL", "POST", "/command", command("fetch_pdf", map[string]string{"url": "file:///etc/passwd"}), []string{f.auth()}, 400, "only http and https"},
		{"chrome: URL", "POST", "/command", command("navigate", map[string]string{"url": "chrome://settings"}), []string{f.auth()}, 400, "only http and https"},
		{"URL with a password", "POST", "/command", command("navigate", map[string]string{"url": "https://u:p@example.org/"}), []string{f.auth()}, 400, "password"},
		{"100 KB selector", "POST", "/command", command("click", map[string]string{"selector": strings.Repeat("a", 100<<10)}, `"agentId":"A"`), []string{f.auth()}, 400, "selector is"},
		{"selector with a control character", "POST", "/command", command("extract", map[string]string{"selector": "a\x00b"}, `"agentId":"A"`), []string{f.auth()}, 400, "control character"},
		{"text over the limit", "POST", "/command", command("type", map[string]string{"selector": "input", "text": strings.Repeat("t", 11<<10)}, `"agentId":"A"`), []string{f.auth()}, 400, "text must be"},
		{"long wait", "POST", "/command", command("wait", map[string]int{"ms": 3_600_000}), []string{f.auth()}, 400, "ms must be"},
		{"huge screenshot quality", "POST", "/command", command("screenshot", map[string]any{"format": "bmp"}), []string{f.auth()}, 400, "format"},
		{"bad agentId", "POST", "/command", command("ping", map[string]any{}, `"agentId":"../../etc"`), []string{f.auth()}, 400, "agentId"},
		{"another agent's tab", "POST", "/command", command("click", map[string]string{"selector": "button"}, `"agentId":"B"`, `"tabId":101`), []string{f.auth()}, 403, "opened by another agent"},
		{"another agent's tab, extract", "POST", "/command", command("extract", map[string]any{}, `"agentId":"B"`, `"tabId":101`), []string{f.auth()}, 403, "not by agent"},
		{"navigating another agent's tab", "POST", "/command", command("navigate", map[string]string{"url": "https://example.org/x"}, `"agentId":"B"`, `"tabId":101`), []string{f.auth()}, 403, "not by agent"},
		{"a tab no agent opened", "POST", "/command", command("click", map[string]string{"selector": "a"}, `"agentId":"A"`, `"tabId":5`), []string{f.auth()}, 403, "opened by no agent"},
		{"no tab yet", "POST", "/command", command("click", map[string]string{"selector": "a"}, `"agentId":"B"`), []string{f.auth()}, 409, "navigate first"},
		{"dialog on another agent's tab", "POST", "/dialog_response", []byte(`{"agentId":"B","tabId":101,"accept":true}`), []string{f.auth()}, 403, "not by agent"},
		{"capture without token", "POST", "/capture", []byte(`{"identifier":"1706.03762"}`), nil, 401, "no token"},
		{"capture of a local path", "POST", "/capture", []byte(`{"identifier":"/etc/passwd"}`), []string{f.auth()}, 400, "is not an arXiv id"},
		{"capture of a file URL", "POST", "/capture", []byte(`{"identifier":"file:///home/u/paper.pdf"}`), []string{f.auth()}, 400, "is not an arXiv id"},
		{"capture of a non-PDF", "POST", "/capture", []byte("<html>not a pdf</html>"), []string{f.auth(), "Content-Type: application/pdf"}, 422, "not a PDF"},
		{"capture as a form", "POST", "/capture", []byte("a=b"), []string{f.auth(), "Content-Type: application/x-www-form-urlencoded"}, 415, "Content-Type"},
		{"GET /command", "GET", "/command", nil, []string{f.auth()}, 405, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, body := f.request(t, tc.method, tc.path, tc.body, tc.headers...)
			if code != tc.want {
				t.Errorf("status %d, want %d (%s)", code, tc.want, body)
			}
			if tc.reason != "" && (!strings.Contains(body, tc.reason) || !strings.Contains(f.log.String(), tc.reason)) {
				t.Errorf("answer %q or the log lacks the reason %q", body, tc.reason)
			}
			if code == 200 || strings.Contains(body, "Access-Control-Allow-Origin") {
				t.Errorf("not refused: %s", body)
			}
		})
	}
	if n := f.ext.count(); n != before {
		t.Errorf("the extension received %d commands from refused requests", n-before)
	}
	if f.b.Executed() != executed {
		t.Errorf("Executed went from %d to %d", executed, f.b.Executed())
	}
	if len(f.capture) != 0 {
		t.Errorf("refused captures ran: %+v", f.capture)
	}
	if n := strings.Count(f.log.String(), "request refused"); n < len(cases)-1 {
		t.Errorf("%d refusals logged, want at least %d", n, len(cases)-1)
	}
}

// TestWebSocketRefusals: the extension's WebSocket needs the paired
// extension's Origin and the token; a web page's origin never connects.
func TestWebSocketRefusals(t *testing.T) {
	f := start(t, false)
	ws := "ws" + strings.TrimPrefix(f.base, "http")
	cases := []struct {
		name, path, origin string
		protocols          []string
		host               string
		want               int
	}{
		{"web origin with the token", "/ws", "http://127.0.0.1:8000", []string{bridge.Subprotocol, "token." + f.token}, "", 403},
		{"web origin at /", "/", "https://evil.example", []string{bridge.Subprotocol, "token." + f.token}, "", 403},
		{"no origin", "/ws", "", []string{bridge.Subprotocol, "token." + f.token}, "", 403},
		{"another extension", "/ws", "chrome-extension://pppppppppppppppppppppppppppppppp", []string{bridge.Subprotocol, "token." + f.token}, "", 403},
		{"no token", "/ws", extOrigin, []string{bridge.Subprotocol}, "", 401},
		{"wrong token", "/", extOrigin, []string{bridge.Subprotocol, "token." + strings.Repeat("a", 64)}, "", 401},
		{"foreign Host", "/ws", extOrigin, []string{bridge.Subprotocol, "token." + f.token}, "evil.example", 421},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			if tc.origin != "" {
				h.Set("Origin", tc.origin)
			}
			if tc.host != "" {
				h.Set("Host", tc.host)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			c, res, err := websocket.Dial(ctx, ws+tc.path, &websocket.DialOptions{HTTPHeader: h, Host: tc.host, Subprotocols: tc.protocols})
			if err == nil {
				c.Close(websocket.StatusNormalClosure, "")
				t.Fatal("connected")
			}
			if res == nil || res.StatusCode != tc.want {
				t.Errorf("answer %v, want %d", res, tc.want)
			}
		})
	}
	if st := f.status(t); st.Extensions != 0 {
		t.Errorf("%d extensions connected", st.Extensions)
	}
	// The paired extension with the token connects, at / as at /ws.
	dialExtension(t, f.base, f.token)
	waitFor(t, func() bool { return f.status(t).Extensions == 1 })
}

// TestCommands: the accepted commands reach the extension with their
// parameters normalised and the agent's tab filled in.
func TestCommands(t *testing.T) {
	f := start(t, true)
	code, body := f.request(t, "POST", "/command", command("ping", nil), f.auth())
	if code != 200 || !strings.Contains(body, `"ok":true`) {
		t.Fatalf("ping: %d %s", code, body)
	}
	f.request(t, "POST", "/command", command("navigate", map[string]string{"url": "http://127.0.0.1:1/page"}, `"agentId":"A"`), f.auth())
	f.request(t, "POST", "/command", command("navigate", map[string]string{"url": "http://127.0.0.1:1/b"}, `"agentId":"B"`), f.auth())
	code, body = f.request(t, "POST", "/command", command("extract", map[string]string{"selector": "#main"}, `"agentId":"A"`), f.auth())
	if code != 200 {
		t.Fatalf("extract: %d %s", code, body)
	}
	f.ext.mu.Lock()
	last := f.ext.received[len(f.ext.received)-1]
	f.ext.mu.Unlock()
	if last["action"] != "extract" || last["tabId"] != float64(101) || last["agentId"] != "A" {
		t.Errorf("the extension got %v, want extract on agent A's tab 101", last)
	}
	if p, _ := last["params"].(map[string]any); p["selector"] != "#main" || p["max_chars"] != float64(100000) {
		t.Errorf("params %v", last["params"])
	}
	// B's navigate reuses B's tab (102), not A's.
	f.request(t, "POST", "/command", command("navigate", map[string]string{"url": "https://example.org/"}, `"agentId":"B"`), f.auth())
	f.ext.mu.Lock()
	last = f.ext.received[len(f.ext.received)-1]
	f.ext.mu.Unlock()
	if last["tabId"] != float64(102) {
		t.Errorf("agent B's second navigate went to tab %v, want 102", last["tabId"])
	}
	st := f.status(t)
	if st.Agents != 2 || st.Executed != 5 || !st.Paired || st.ExtensionOrigin != extOrigin {
		t.Errorf("status %+v", st)
	}
	// The capture endpoint gets the PDF bytes and the page's address.
	code, body = f.request(t, "POST", "/capture", []byte("%PDF-1.7\n%%EOF\n"), f.auth(), "Content-Type: application/pdf",
		"X-Crossmem-Source-URL: https://publisher.example/article/1.pdf", "X-Crossmem-DOI: 10.1234/abc")
	if code != 200 || !strings.Contains(body, `"cite_key":"doe2024test"`) {
		t.Fatalf("capture: %d %s", code, body)
	}
	if c := f.capture[0]; string(c.PDF) != "%PDF-1.7\n%%EOF\n" || c.SourceURL != "https://publisher.example/article/1.pdf" || c.DOI != "10.1234/abc" {
		t.Errorf("capture request %+v", c)
	}
	code, body = f.request(t, "POST", "/capture", []byte(`{"identifier":"https://arxiv.org/abs/1706.03762"}`), f.auth(), "Origin: "+extOrigin)
	if code != 200 || f.capture[1].Identifier != "https://arxiv.org/abs/1706.03762" {
		t.Fatalf("capture of an identifier: %d %s %+v", code, body, f.capture)
	}
}

// TestNoExtension: a command with no extension connected is 503, not a
// hang.
func TestNoExtension(t *testing.T) {
	f := start(t, false)
	code, body := f.request(t, "POST", "/command", command("ping", nil), f.auth())
	if code != 503 || !strings.Contains(body, "no extension is connected") {
		t.Errorf("%d %s", code, body)
	}
}

// TestPairing: the one-time code, from an extension page only, gives the
// token once; wrong codes close pairing after PairingAttempts.
func TestPairing(t *testing.T) {
	f := start(t, false)
	const other = "chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba"
	code, body := f.request(t, "POST", "/pair", []byte(`{"code":"ABCD-EFGH"}`), "Origin: http://127.0.0.1:8000")
	if code != 403 || strings.Contains(body, f.token) {
		t.Errorf("pairing from a web page: %d %s", code, body)
	}
	code, body = f.request(t, "POST", "/pair", []byte(`{"code":"ABCD-EFGH"}`))
	if code != 403 || strings.Contains(body, f.token) {
		t.Errorf("pairing without an Origin: %d %s", code, body)
	}
	code, body = f.request(t, "POST", "/pair", []byte(`{"code":"abcd efgh"}`), "Origin: "+other)
	if code != 200 || !strings.Contains(body, f.token) {
		t.Fatalf("pairing: %d %s", code, body)
	}
	if st := f.status(t); st.ExtensionOrigin != other {
		t.Errorf("paired origin %q, want %q", st.ExtensionOrigin, other)
	}
	code, body = f.request(t, "POST", "/pair", []byte(`{"code":"ABCD-EFGH"}`), "Origin: "+other)
	if code != 403 || strings.Contains(body, f.token) {
		t.Errorf("a second pairing with the same code: %d %s", code, body)
	}

	g := start(t, false)
	for i := 0; i < bridge.PairingAttempts; i++ {
		if code, _ := g.request(t, "POST", "/pair", []byte(`{"code":"WRONG-CODE"}`), "Origin: "+other); code != 403 {
			t.Fatalf("wrong code %d: %d", i, code)
		}
	}
	if code, body := g.request(t, "POST", "/pair", []byte(`{"code":"ABCD-EFGH"}`), "Origin: "+other); code != 403 || !strings.Contains(body, "closed") {
		t.Errorf("the right code after %d wrong ones: %d %s", bridge.PairingAttempts, code, body)
	}
}

func TestToken(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", bridge.TokenFile)
	tok, err := bridge.LoadOrCreateToken(path)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode %v, %v; want 0600", fi.Mode(), err)
	}
	again, err := bridge.LoadOrCreateToken(path)
	if err != nil || again != tok || len(tok) != 64 {
		t.Errorf("second load %q, %v; want %q", again, err, tok)
	}
	other, _ := bridge.LoadOrCreateToken(filepath.Join(dir, "other"))
	if other == tok {
		t.Error("two installs got the same token")
	}
	os.Chmod(path, 0o644)
	if _, err := bridge.LoadOrCreateToken(path); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("a readable token file stays %v", fi.Mode())
	}
	os.WriteFile(path, []byte("not a token"), 0o600)
	if _, err := bridge.LoadOrCreateToken(path); err == nil || !strings.Contains(err.Error(), "delete it") {
		t.Errorf("a damaged token file: %v", err)
	}
}

func TestPairingCode(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 50; i++ {
		c, err := bridge.NewPairingCode()
		if err != nil || len(c) != 9 || c[4] != '-' || strings.ContainsAny(c, "01OIL") {
			t.Fatalf("code %q, %v", c, err)
		}
		seen[c] = true
	}
	if len(seen) < 49 {
		t.Errorf("%d distinct codes of 50", len(seen))
	}
}

func TestExtensionOrigin(t *testing.T) {
	if o, err := bridge.ExtensionOrigin("abcdefghijklmnopabcdefghijklmnop"); err != nil || o != extOrigin {
		t.Errorf("%q %v", o, err)
	}
	for _, bad := range []string{"", "http://evil.example", "chrome-extension://short", "abcdefghijklmnopabcdefghijklmnoz"} {
		if _, err := bridge.ExtensionOrigin(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestUnixSocket: over the optional Unix socket the bridge still needs its
// token.
func TestUnixSocket(t *testing.T) {
	s, err := serve.Listen("127.0.0.1", 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(t.TempDir(), "bridge.sock")
	if err := s.ListenUnix(sock); err != nil {
		t.Fatal(err)
	}
	tok, _ := bridge.LoadOrCreateToken(filepath.Join(t.TempDir(), bridge.TokenFile))
	b := &bridge.Bridge{Token: tok}
	if err := b.Mount(s); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Serve(ctx)
	client := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", sock)
	}}}
	for _, tc := range []struct {
		token string
		want  int
	}{{"", 401}, {strings.Repeat("1", 64), 401}, {tok, 200}} {
		req, _ := http.NewRequest("GET", "http://localhost/status", nil)
		if tc.token != "" {
			req.Header.Set("Authorization", "Bearer "+tc.token)
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != tc.want {
			t.Errorf("GET /status over the socket with token %q: %d, want %d", tc.token, res.StatusCode, tc.want)
		}
	}
}
