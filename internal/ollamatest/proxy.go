package ollamatest

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// Proxy forwards every request to a server and counts the requests for
// answers (POST /api/chat and /v1/chat/completions): how many calls a run
// made, measured outside the code under test.
type Proxy struct {
	// URL is the proxy's base URL; Addr its host:port.
	URL, Addr string
	calls     atomic.Int64
	inFlight  atomic.Int64
	maxFlight atomic.Int64
	mu        sync.Mutex
	onCall    func(n int64)
	srv       *httptest.Server
}

// Proxy starts a counting proxy in front of s, closed when the test ends.
func (s *Server) Proxy(t testing.TB) *Proxy {
	t.Helper()
	p, err := NewProxy(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// NewProxy starts a counting proxy in front of the server at target (a
// base URL). Close stops it.
func NewProxy(target string) (*Proxy, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, err
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	p := &Proxy{}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && (r.URL.Path == "/api/chat" || strings.HasSuffix(r.URL.Path, "/chat/completions")) {
			n := p.calls.Add(1)
			f := p.inFlight.Add(1)
			defer p.inFlight.Add(-1)
			for {
				m := p.maxFlight.Load()
				if f <= m || p.maxFlight.CompareAndSwap(m, f) {
					break
				}
			}
			p.mu.Lock()
			on := p.onCall
			p.mu.Unlock()
			if on != nil {
				on(n)
			}
		}
		rp.ServeHTTP(w, r)
	}))
	p.URL = p.srv.URL
	p.Addr = strings.TrimPrefix(p.srv.URL, "http://")
	return p, nil
}

// Close stops the proxy.
func (p *Proxy) Close() { p.srv.Close() }

// Calls is the number of answer requests so far.
func (p *Proxy) Calls() int64 { return p.calls.Load() }

// MaxInFlight is the largest number of answer requests that were open at
// once.
func (p *Proxy) MaxInFlight() int64 { return p.maxFlight.Load() }

// Reset sets both counts to zero.
func (p *Proxy) Reset() {
	p.calls.Store(0)
	p.maxFlight.Store(0)
}

// OnCall sets a function called with the running count as each answer
// request arrives, before it is forwarded (nil removes it).
func (p *Proxy) OnCall(f func(n int64)) {
	p.mu.Lock()
	p.onCall = f
	p.mu.Unlock()
}
