// Package serve is crossmem's local HTTP server, the one `crossmem serve`
// runs: the library viewer (internal/viewer) and the browser bridge are
// handlers mounted on it. It owns what every handler needs and none may
// forget:
//
//   - it listens on a loopback address only (127.0.0.1 by default, ::1 on
//     request; any other address is refused before binding);
//   - it refuses, with 421, every request whose Host header is not the
//     loopback name it listens on (its IP literal or "localhost", with its
//     port), so a web page on a DNS-rebound name cannot reach it;
//   - it sets the security headers of every answer (no MIME sniffing, no
//     referrer, no framing, Cross-Origin-Resource-Policy same-origin, a
//     restrictive Content-Security-Policy by default) and never
//     Access-Control-Allow-Origin;
//   - it logs every refusal with its reason;
//   - it bounds header size and read times, and shuts down gracefully when
//     its context ends.
//
// A handler mounted with Handle decides which origins may call it:
// SameOrigin (the viewer's pages: the server's own pages and top-level
// navigations from elsewhere, never a cross-origin fetch, image or frame)
// is a middleware here; the bridge adds its token and extension-origin
// checks on its own routes.
package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// ShutdownTimeout is how long Serve waits for requests in flight when its
// context ends.
const ShutdownTimeout = 5 * time.Second

// BindError is a failure to listen (the port in use, a bad address): the
// command exits 1, as the seed's `crossmem serve` page says.
type BindError struct {
	Addr string
	Err  error
}

func (e *BindError) Error() string {
	if errors.Is(e.Err, syscall.EADDRINUSE) {
		return fmt.Sprintf("cannot listen on %s: the port is in use (another crossmem serve, or another program)", e.Addr)
	}
	return fmt.Sprintf("cannot listen on %s: %v", e.Addr, e.Err)
}

func (e *BindError) Unwrap() error { return e.Err }

// ErrNotLoopback is returned by Listen for a host that is not a loopback
// address.
var ErrNotLoopback = errors.New("not a loopback address: crossmem serve listens on this machine only")

// Server is the listening server. Create it with Listen, mount handlers
// with Handle, then run it with Serve.
type Server struct {
	ln     net.Listener
	unix   net.Listener // ListenUnix's, or nil
	sock   string       // its path
	host   string       // the IP literal listened on: "127.0.0.1" or "::1"
	port   int
	mux    *http.ServeMux
	logger *slog.Logger

	mu         sync.Mutex
	upgrade    http.Handler // WebSocket upgrades of "/" (HandleUpgrade)
	banner     []string
	onShutdown []func()
	health     Health
}

// Listen binds host:port. host must be a loopback IP or "localhost" (which
// means 127.0.0.1); "" means 127.0.0.1. port 0 picks a free port (Port
// tells which). A failure to bind is a *BindError; a host that is not
// loopback wraps ErrNotLoopback. logger receives refusals and errors (nil:
// discarded).
func Listen(host string, port int, logger *slog.Logger) (*Server, error) {
	switch strings.ToLower(host) {
	case "", "localhost":
		host = "127.0.0.1"
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return nil, fmt.Errorf("listen on %q: %w", host, ErrNotLoopback)
	}
	if port < 0 || port > 65535 {
		return nil, &BindError{Addr: net.JoinHostPort(host, strconv.Itoa(port)), Err: errors.New("port out of range 0..65535")}
	}
	addr := net.JoinHostPort(ip.String(), strconv.Itoa(port))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, &BindError{Addr: addr, Err: err}
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Server{
		ln:     ln,
		host:   ip.String(),
		port:   ln.Addr().(*net.TCPAddr).Port,
		mux:    http.NewServeMux(),
		logger: logger,
	}, nil
}

// Port returns the port listened on.
func (s *Server) Port() int { return s.port }

// Addr returns host:port as a URL writes it ("127.0.0.1:7600",
// "[::1]:7600").
func (s *Server) Addr() string { return net.JoinHostPort(s.host, strconv.Itoa(s.port)) }

// URL returns the server's base URL: "http://127.0.0.1:7600".
func (s *Server) URL() string { return "http://" + s.Addr() }

// Logger returns the server's logger.
func (s *Server) Logger() *slog.Logger { return s.logger }

// Handle mounts h at pattern (net/http.ServeMux syntax: "GET /pdf/{key}").
// Every request reaches it only through the Host check and with the
// security headers set.
func (s *Server) Handle(pattern string, h http.Handler) { s.mux.Handle(pattern, h) }

// HandleUpgrade routes WebSocket upgrade requests for "/" to h (the
// browser bridge's extension connection, at the seed's address), before
// the handlers mounted with Handle; other requests for "/" are unchanged.
func (s *Server) HandleUpgrade(h http.Handler) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.upgrade = h
}

// Announce adds a line to the start-up banner (Banner), e.g. "HTTP →
// http://127.0.0.1:7600/ (library viewer)".
func (s *Server) Announce(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.banner = append(s.banner, line)
}

// Banner returns the lines handlers announced, in order.
func (s *Server) Banner() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.banner...)
}

// OnShutdown registers f to run when Serve begins shutting down (for
// connections net/http does not track: hijacked WebSockets).
func (s *Server) OnShutdown(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onShutdown = append(s.onShutdown, f)
}

// SetHealth sets what GET /healthz answers (Service is set to
// "crossmem"): how `crossmem open` recognises a running server and the
// library it serves.
func (s *Server) SetHealth(h Health) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.health = h
}

// Health is the answer of GET /healthz.
type Health struct {
	Service string `json:"service"` // "crossmem"
	Version string `json:"version,omitempty"`
	Home    string `json:"home,omitempty"` // the library's folder
}

// Serve answers requests until ctx is done, then shuts down gracefully
// (ShutdownTimeout) and returns nil; any other end is an error.
func (s *Server) Serve(ctx context.Context) error {
	s.mux.Handle("GET /healthz", SameOrigin(http.HandlerFunc(s.serveHealth), s.logger))
	srv := &http.Server{
		Handler:           s.guard(s.mux),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.logger.Handler(), slog.LevelDebug),
		BaseContext:       func(net.Listener) context.Context { return ctx },
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			if c.LocalAddr().Network() == "unix" {
				return context.WithValue(ctx, unixKey{}, true)
			}
			return ctx
		},
	}
	s.mu.Lock()
	for _, f := range s.onShutdown {
		srv.RegisterOnShutdown(f)
	}
	s.mu.Unlock()
	errc := make(chan error, 2)
	go func() { errc <- srv.Serve(s.ln) }()
	if s.unix != nil {
		defer os.Remove(s.sock)
		go func() {
			if err := srv.Serve(s.unix); err != nil && !errors.Is(err, http.ErrServerClosed) {
				errc <- err
			}
		}()
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Close stops listening without serving (for a server that was never
// started).
func (s *Server) Close() error {
	if s.unix != nil {
		s.unix.Close()
		os.Remove(s.sock)
	}
	return s.ln.Close()
}

// unixKey marks the context of a request that came over the Unix socket.
type unixKey struct{}

// ListenUnix also listens on a Unix socket at path (mode 0600: only this
// user can connect), for local tools that prefer a file's permissions to
// a port. A stale socket file is replaced; any other file there is an
// error. Requests over the socket skip the Host check (no browser can
// reach a socket, so DNS rebinding does not apply); everything else,
// the bridge's token included, is as over TCP.
func (s *Server) ListenUnix(path string) error {
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode()&os.ModeSocket == 0 {
			return &BindError{Addr: path, Err: errors.New("a file that is not a socket is in the way")}
		}
		if c, err := net.Dial("unix", path); err == nil {
			c.Close()
			return &BindError{Addr: path, Err: syscall.EADDRINUSE}
		}
		os.Remove(path)
	}
	old := syscall.Umask(0o177)
	ln, err := net.Listen("unix", path)
	syscall.Umask(old)
	if err != nil {
		return &BindError{Addr: path, Err: err}
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return &BindError{Addr: path, Err: err}
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	s.unix, s.sock = ln, path
	return nil
}

func (s *Server) serveHealth(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	v := s.health
	s.mu.Unlock()
	v.Service = "crossmem"
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(v)
}

// AllowedHost reports whether a Host header names this server: its IP
// literal or "localhost" (any case), with its port (or without one when the
// port is 80).
func (s *Server) AllowedHost(hostHeader string) bool {
	host, port, err := net.SplitHostPort(hostHeader)
	if err != nil {
		host, port = hostHeader, "80"
	}
	host = strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
	if port != strconv.Itoa(s.port) {
		return false
	}
	return host == s.host || host == "localhost"
}

// Origin returns the server's own origins, as browsers send them in an
// Origin header: "http://127.0.0.1:7600" and "http://localhost:7600".
func (s *Server) Origin() []string {
	p := strconv.Itoa(s.port)
	return []string{"http://" + net.JoinHostPort(s.host, p), "http://localhost:" + p}
}

// guard applies the Host check and the security headers to every request.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Content-Security-Policy", DefaultCSP)
		if unix, _ := r.Context().Value(unixKey{}).(bool); !unix && !s.AllowedHost(r.Host) {
			Refuse(w, r, s.logger, http.StatusMisdirectedRequest, "foreign Host header "+strconv.Quote(clip(r.Host)))
			return
		}
		if r.URL.Path == "/" && strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
			s.mu.Lock()
			up := s.upgrade
			s.mu.Unlock()
			if up != nil {
				up.ServeHTTP(w, r)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// DefaultCSP is the Content-Security-Policy of every answer: resources
// from the server itself only, no inline scripts, no plugins, no framing,
// forms submit only to the server.
const DefaultCSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// Refuse answers status with a one-line plain-text reason and logs it
// with the request's method, path, Host and Origin.
func Refuse(w http.ResponseWriter, r *http.Request, logger *slog.Logger, status int, reason string) {
	logger.Warn("request refused", "status", status, "reason", reason, "method", r.Method, "path", clip(r.URL.Path),
		"host", clip(r.Host), "origin", clip(r.Header.Get("Origin")), "remote", r.RemoteAddr)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	fmt.Fprintf(w, "refused by crossmem serve: %s\n", reason)
}

// SameOrigin lets through the requests a read-only page of the server may
// answer: from its own pages, typed or opened from outside a browser
// (curl, `crossmem open`), and top-level navigations (a link clicked
// elsewhere opens the viewer). It refuses with 403 a request whose Origin
// header is another origin, and any cross-origin browser request that is
// not a navigation to a document (Fetch Metadata: Sec-Fetch-Site
// same-site or cross-site with a Sec-Fetch-Mode other than navigate, or a
// Sec-Fetch-Dest of a frame): another local web page can neither read,
// embed nor frame it. Only GET and HEAD pass.
func SameOrigin(next http.Handler, logger *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			Refuse(w, r, logger, http.StatusMethodNotAllowed, "method "+r.Method+" (read-only)")
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !sameOrigin(r, o) {
			Refuse(w, r, logger, http.StatusForbidden, "cross-origin request from "+strconv.Quote(clip(o)))
			return
		}
		switch site := r.Header.Get("Sec-Fetch-Site"); site {
		case "", "same-origin", "none":
		default:
			mode, dest := r.Header.Get("Sec-Fetch-Mode"), r.Header.Get("Sec-Fetch-Dest")
			if mode != "navigate" || (dest != "document" && dest != "") {
				Refuse(w, r, logger, http.StatusForbidden, fmt.Sprintf("%s request (mode %s, destination %s) from another origin", site, clip(mode), clip(dest)))
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// sameOrigin reports whether origin is the origin of the server r reached
// (the Host check has passed, so r.Host names this server).
func sameOrigin(r *http.Request, origin string) bool {
	return strings.EqualFold(origin, "http://"+r.Host)
}

func clip(s string) string {
	if len(s) > 100 {
		return s[:100] + "…"
	}
	return s
}

// ErrNotRunning is returned by Probe when nothing listens at the address.
var ErrNotRunning = errors.New("no server is running")

// Probe asks the server at base ("http://127.0.0.1:7600") for its
// /healthz within a second. It returns ErrNotRunning (wrapped) when the
// connection is refused, and an error saying so when something else
// answers.
func Probe(ctx context.Context, base string) (*Health, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(base, "/")+"/healthz", nil)
	if err != nil {
		return nil, err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		if errors.Is(err, syscall.ECONNREFUSED) {
			return nil, fmt.Errorf("%s: %w", base, ErrNotRunning)
		}
		return nil, fmt.Errorf("%s does not answer like crossmem serve: %w", base, err)
	}
	defer res.Body.Close()
	var h Health
	if err := json.NewDecoder(io.LimitReader(res.Body, 64<<10)).Decode(&h); err != nil || res.StatusCode != http.StatusOK || h.Service != "crossmem" {
		return nil, fmt.Errorf("%s is another program, not crossmem serve (GET /healthz: %s)", base, res.Status)
	}
	return &h, nil
}
