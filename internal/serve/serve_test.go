package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// start runs a server on a free loopback port with one SameOrigin page at
// /page and returns it and the log it writes; cleanup stops it and checks
// that Serve returned nil.
func start(t *testing.T) (*Server, *bytes.Buffer) {
	t.Helper()
	var log bytes.Buffer
	s, err := Listen("", 0, slog.New(slog.NewTextHandler(&log, nil)))
	if err != nil {
		t.Fatal(err)
	}
	s.Handle("GET /page", SameOrigin(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "the library")
	}), s.Logger()))
	s.SetHealth(Health{Version: "test", Home: "/lib"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve after cancel = %v, want nil", err)
			}
		case <-time.After(ShutdownTimeout + time.Second):
			t.Error("Serve did not return after cancel")
		}
	})
	return s, &log
}

// get sends a GET for path with the given Host and headers.
func get(t *testing.T, s *Server, method, host, path string, hdr map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, s.URL()+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

func TestHost(t *testing.T) {
	s, log := start(t)
	port := s.Addr()[strings.LastIndex(s.Addr(), ":"):]
	for _, host := range []string{"", "127.0.0.1" + port, "localhost" + port, "LOCALHOST" + port} {
		res, body := get(t, s, "GET", host, "/page", nil)
		if res.StatusCode != 200 || body != "the library" {
			t.Errorf("Host %q: %d %q, want 200", host, res.StatusCode, body)
		}
	}
	for _, host := range []string{"evil.example" + port, "evil.example", "127.0.0.1", "127.0.0.1:1", "localhost.evil.example" + port, "127.0.0.2" + port, "[::1]" + port, "0.0.0.0" + port} {
		res, body := get(t, s, "GET", host, "/page", nil)
		if res.StatusCode != http.StatusMisdirectedRequest || strings.Contains(body, "library") {
			t.Errorf("Host %q: %d %q, want 421 and nothing served", host, res.StatusCode, body)
		}
	}
	if !strings.Contains(log.String(), `reason="foreign Host header \"evil.example`) {
		t.Errorf("refusal not logged with its reason:\n%s", log)
	}
}

func TestSameOrigin(t *testing.T) {
	s, _ := start(t)
	own := s.Origin()[0]
	for _, tc := range []struct {
		name   string
		method string
		hdr    map[string]string
		want   int
	}{
		{"no browser headers (curl)", "GET", nil, 200},
		{"own page", "GET", map[string]string{"Origin": own, "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "cors"}, 200},
		{"typed in the address bar", "GET", map[string]string{"Sec-Fetch-Site": "none", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}, 200},
		{"link clicked on another site", "GET", map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}, 200},
		{"fetch from another local origin", "GET", map[string]string{"Origin": "http://127.0.0.1:8000", "Sec-Fetch-Site": "same-site", "Sec-Fetch-Mode": "cors", "Sec-Fetch-Dest": "empty"}, 403},
		{"no-cors fetch from another site", "GET", map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "empty"}, 403},
		{"img from another site", "GET", map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "image"}, 403},
		{"iframe on another site", "GET", map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "iframe"}, 403},
		{"Origin of another site", "GET", map[string]string{"Origin": "https://evil.example"}, 403},
		{"null Origin (sandboxed frame)", "GET", map[string]string{"Origin": "null"}, 403},
		{"POST", "POST", nil, 405},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, body := get(t, s, tc.method, "", "/page", tc.hdr)
			if res.StatusCode != tc.want {
				t.Errorf("%d %q, want %d", res.StatusCode, body, tc.want)
			}
			if tc.want != 200 && strings.Contains(body, "library") {
				t.Errorf("refused, but the body is the page: %q", body)
			}
			if v := res.Header.Values("Access-Control-Allow-Origin"); len(v) > 0 {
				t.Errorf("Access-Control-Allow-Origin: %q", v)
			}
			for k, want := range map[string]string{"X-Content-Type-Options": "nosniff", "Cross-Origin-Resource-Policy": "same-origin", "X-Frame-Options": "DENY"} {
				if got := res.Header.Get(k); got != want {
					t.Errorf("%s: %q, want %q", k, got, want)
				}
			}
			if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") || !strings.Contains(csp, "script-src 'self'") {
				t.Errorf("Content-Security-Policy: %q", csp)
			}
		})
	}
}

func TestHealth(t *testing.T) {
	s, _ := start(t)
	res, body := get(t, s, "GET", "", "/healthz", nil)
	var h Health
	if err := json.Unmarshal([]byte(body), &h); err != nil || res.StatusCode != 200 || h != (Health{Service: "crossmem", Version: "test", Home: "/lib"}) {
		t.Errorf("healthz: %d %q (%v)", res.StatusCode, body, err)
	}
}

func TestListen(t *testing.T) {
	s, _ := start(t)
	_, err := Listen("127.0.0.1", s.Port(), nil)
	var be *BindError
	if !errors.As(err, &be) || !errors.Is(err, syscall.EADDRINUSE) || !strings.Contains(err.Error(), "the port is in use") {
		t.Errorf("Listen on a taken port = %v, want a *BindError for EADDRINUSE", err)
	}
	for _, host := range []string{"0.0.0.0", "::", "192.168.1.1", "example.com", "10.0.0.1"} {
		if s, err := Listen(host, 0, nil); !errors.Is(err, ErrNotLoopback) {
			if s != nil {
				s.Close()
			}
			t.Errorf("Listen(%q) = %v, want ErrNotLoopback", host, err)
		}
	}
	if _, err := Listen("", 70000, nil); !errors.As(err, &be) {
		t.Errorf("Listen on port 70000 = %v, want a *BindError", err)
	}
}

// TestUnixSocket: ListenUnix serves the same handlers on a socket only
// its user may open; a request over it needs no loopback Host; the socket
// file is removed at shutdown.
func TestUnixSocket(t *testing.T) {
	var log bytes.Buffer
	s, err := Listen("", 0, slog.New(slog.NewTextHandler(&log, nil)))
	if err != nil {
		t.Fatal(err)
	}
	s.Handle("GET /page", SameOrigin(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "the library")
	}), s.Logger()))
	sock := filepath.Join(t.TempDir(), "crossmem.sock")
	if err := s.ListenUnix(sock); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(sock); err != nil || fi.Mode().Perm() != 0o600 || fi.Mode()&os.ModeSocket == 0 {
		t.Fatalf("socket %v, %v; want a socket of mode 0600", fi.Mode(), err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	client := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", sock)
	}}}
	res, err := client.Get("http://localhost/page")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || string(b) != "the library" || res.Header.Get("Content-Security-Policy") == "" {
		t.Errorf("over the socket: %d %q", res.StatusCode, b)
	}
	// The same Host over TCP is refused.
	if res, _ := get(t, s, "GET", "crossmem.example", "/page", nil); res.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("a foreign Host over TCP: %d", res.StatusCode)
	}
	// A second server cannot take a socket in use.
	s2, _ := Listen("", 0, nil)
	defer s2.Close()
	var be *BindError
	if err := s2.ListenUnix(sock); !errors.As(err, &be) {
		t.Errorf("a socket in use: %v", err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if _, err := os.Lstat(sock); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the socket file is left after shutdown: %v", err)
	}
	// A regular file in the way is not removed.
	f := filepath.Join(t.TempDir(), "file")
	os.WriteFile(f, []byte("mine"), 0o644)
	s3, _ := Listen("", 0, nil)
	defer s3.Close()
	if err := s3.ListenUnix(f); err == nil {
		t.Error("a regular file was taken for a socket")
	}
	if b, _ := os.ReadFile(f); string(b) != "mine" {
		t.Error("the file in the way was touched")
	}
}
