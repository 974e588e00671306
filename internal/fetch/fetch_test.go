package fetch

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

const testUA = "crossmem-test/0.1 (+https://github.com/crossmem/crossmem; mailto:test@example.org)"

// testOptions are fast options for tests: tiny backoff, no rate limits.
func testOptions() Options {
	return Options{
		UserAgent:    testUA,
		Timeout:      2 * time.Second,
		RetryMax:     2,
		RetryWaitMin: 5 * time.Millisecond,
		RetryWaitMax: 20 * time.Millisecond,
		RateLimits:   map[string]RateLimit{},
	}
}

// server starts an httptest server whose handler sees the 1-based hit count.
func server(t *testing.T, h func(w http.ResponseWriter, r *http.Request, hit int)) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h(w, r, int(hits.Add(1)))
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func asError(t *testing.T, err error) *Error {
	t.Helper()
	var fe *Error
	if !errors.As(err, &fe) {
		t.Fatalf("error %v (%T) is not a *fetch.Error", err, err)
	}
	return fe
}

func TestGetOK(t *testing.T) {
	var gotUA, gotAccept string
	srv, hits := server(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		gotUA, gotAccept = r.Header.Get("User-Agent"), r.Header.Get("Accept")
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"status":"ok"}`)
	})
	c := New(testOptions())
	resp, err := c.Get(t.Context(), srv.URL+"/works/10.1063%2F1.4938384", "application/json")
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != 200 || string(resp.Body) != `{"status":"ok"}` || resp.FromCache {
		t.Errorf("resp = %d %q fromCache=%v", resp.Status, resp.Body, resp.FromCache)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q", ct)
	}
	if gotUA != testUA {
		t.Errorf("User-Agent sent = %q; want %q", gotUA, testUA)
	}
	if gotAccept != "application/json" {
		t.Errorf("Accept sent = %q", gotAccept)
	}
	if hits.Load() != 1 {
		t.Errorf("hits = %d; want 1", hits.Load())
	}
}

func TestDefaultUserAgent(t *testing.T) {
	var gotUA string
	srv, _ := server(t, func(w http.ResponseWriter, r *http.Request, _ int) { gotUA = r.Header.Get("User-Agent") })
	o := testOptions()
	o.UserAgent = ""
	if _, err := New(o).Get(t.Context(), srv.URL, ""); err != nil {
		t.Fatal(err)
	}
	if gotUA != DefaultUserAgent {
		t.Errorf("User-Agent = %q; want %q", gotUA, DefaultUserAgent)
	}
}

func TestGetNotFound(t *testing.T) {
	for _, status := range []int{http.StatusNotFound, http.StatusGone} {
		srv, hits := server(t, func(w http.ResponseWriter, r *http.Request, _ int) {
			w.WriteHeader(status)
			io.WriteString(w, "Resource not found.")
		})
		_, err := New(testOptions()).Get(t.Context(), srv.URL+"/works/10.1371/notarealdoi", "")
		if !errors.Is(err, ErrNotFound) {
			t.Fatalf("status %d: err = %v; want ErrNotFound", status, err)
		}
		fe := asError(t, err)
		if fe.Status != status || string(fe.Body) != "Resource not found." {
			t.Errorf("status %d: Error = %+v", status, fe)
		}
		if !strings.Contains(err.Error(), "not found") || strings.Contains(err.Error(), "failed") {
			t.Errorf("message %q should say not found, not failed", err)
		}
		if hits.Load() != 1 {
			t.Errorf("status %d: hits = %d; a 4xx must not be retried", status, hits.Load())
		}
	}
}

func TestGetRetriesServerError(t *testing.T) {
	srv, hits := server(t, func(w http.ResponseWriter, r *http.Request, hit int) {
		if hit == 1 {
			http.Error(w, "boom", http.StatusInternalServerError)
			return
		}
		io.WriteString(w, "ok")
	})
	resp, err := New(testOptions()).Get(t.Context(), srv.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	if string(resp.Body) != "ok" || hits.Load() != 2 {
		t.Errorf("body %q after %d hits; want ok after 2", resp.Body, hits.Load())
	}
}

func TestGetHonoursRetryAfter(t *testing.T) {
	srv, hits := server(t, func(w http.ResponseWriter, r *http.Request, hit int) {
		if hit == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		io.WriteString(w, "ok")
	})
	start := time.Now()
	resp, err := New(testOptions()).Get(t.Context(), srv.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	if elapsed := time.Since(start); elapsed < 900*time.Millisecond {
		t.Errorf("retried after %v; Retry-After asked for 1s", elapsed)
	}
	if string(resp.Body) != "ok" || hits.Load() != 2 {
		t.Errorf("body %q after %d hits", resp.Body, hits.Load())
	}
}

func TestGetPermanentServerError(t *testing.T) {
	srv, hits := server(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		http.Error(w, "maintenance", http.StatusServiceUnavailable)
	})
	_, err := New(testOptions()).Get(t.Context(), srv.URL, "")
	fe := asError(t, err)
	if errors.Is(err, ErrNotFound) {
		t.Errorf("a 503 must not look like not found: %v", err)
	}
	if fe.Status != 503 || fe.Attempts != 3 || hits.Load() != 3 {
		t.Errorf("Error = %+v, hits %d; want status 503 after 3 attempts", fe, hits.Load())
	}
	msg := err.Error()
	if !strings.Contains(msg, "failed") || !strings.Contains(msg, "503") || strings.Contains(msg, "not found") {
		t.Errorf("message %q should say the fetch failed with 503", msg)
	}
}

func TestGetRateLimitedMessage(t *testing.T) {
	srv, hits := server(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		w.Header().Set("Retry-After", "0")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	o := testOptions()
	o.RetryMax = 1
	_, err := New(o).Get(t.Context(), srv.URL, "")
	fe := asError(t, err)
	if fe.Status != 429 || hits.Load() != 2 {
		t.Errorf("Error = %+v, hits %d", fe, hits.Load())
	}
	if msg := err.Error(); !strings.Contains(msg, "rate limited") || !strings.Contains(msg, "failed") {
		t.Errorf("message %q should say rate limited and failed", msg)
	}
}

func TestGetClientErrorNotRetried(t *testing.T) {
	const atom = `<feed><entry><title>Error</title><summary>incorrect id format for abc</summary></entry></feed>`
	srv, hits := server(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, atom)
	})
	_, err := New(testOptions()).Get(t.Context(), srv.URL, "")
	fe := asError(t, err)
	if fe.Status != 400 || string(fe.Body) != atom || hits.Load() != 1 {
		t.Errorf("Error = %+v, hits %d; want 400 with body, no retry", fe, hits.Load())
	}
	if errors.Is(err, ErrNotFound) {
		t.Error("400 must not be ErrNotFound")
	}
}

func TestGetTimeout(t *testing.T) {
	srv, hits := server(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	o := testOptions()
	o.Timeout = 100 * time.Millisecond
	o.RetryMax = 1
	start := time.Now()
	_, err := New(o).Get(t.Context(), srv.URL, "")
	if elapsed := time.Since(start); elapsed > 2*time.Second {
		t.Errorf("took %v; the timeout is 100ms per attempt", elapsed)
	}
	fe := asError(t, err)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "timed out") {
		t.Errorf("err = %v; want a timeout", err)
	}
	if !strings.Contains(err.Error(), "failed") || fe.Attempts != 2 || hits.Load() != 2 {
		t.Errorf("err = %v (attempts %d, hits %d); want failed after 2 attempts", err, fe.Attempts, hits.Load())
	}
}

// truncatingServer declares a 1000-byte body and sends 10 bytes.
func truncatingServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	return server(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\nContent-Length: 1000\r\n\r\n%PDF-1.7\n")
		buf.Flush()
	})
}

func TestGetTruncatedBody(t *testing.T) {
	srv, hits := truncatingServer(t)
	resp, err := New(testOptions()).Get(t.Context(), srv.URL, "")
	if err == nil {
		t.Fatalf("got %d-byte body; want an error for a truncated body", len(resp.Body))
	}
	if !errors.Is(err, io.ErrUnexpectedEOF) || !strings.Contains(err.Error(), "failed") {
		t.Errorf("err = %v; want a failed fetch wrapping io.ErrUnexpectedEOF", err)
	}
	if hits.Load() != 3 {
		t.Errorf("hits = %d; a truncated body is retried (3 attempts)", hits.Load())
	}
}

func TestGetTooLarge(t *testing.T) {
	srv, hits := server(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		w.Write(bytes.Repeat([]byte("x"), 100))
	})
	o := testOptions()
	o.MaxBytes = 10
	_, err := New(o).Get(t.Context(), srv.URL, "")
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v; want ErrTooLarge", err)
	}
	if hits.Load() != 1 {
		t.Errorf("hits = %d; an oversized body is not retried", hits.Load())
	}
}

func TestGetContextCanceled(t *testing.T) {
	srv, _ := server(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		http.Error(w, "down", http.StatusBadGateway)
	})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := New(testOptions()).Get(ctx, srv.URL, "")
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v; want context.Canceled", err)
	}
}

type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func TestCache(t *testing.T) {
	srv, hits := server(t, func(w http.ResponseWriter, r *http.Request, hit int) {
		if r.URL.Path == "/missing" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/atom+xml")
		w.Header().Set("X-Request", "not cached")
		io.WriteString(w, "<feed/>")
	})
	clock := &testClock{now: time.Date(2026, 4, 12, 22, 0, 0, 0, time.UTC)}
	o := testOptions()
	o.CacheDir = t.TempDir()
	o.CacheTTL = time.Hour
	o.Now = clock.Now
	c := New(o)
	ctx := t.Context()
	u := srv.URL + "/api/query?id_list=1706.03762"

	get := func(c *Client, u, accept string) *Response {
		t.Helper()
		r, err := c.Get(ctx, u, accept)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}

	if r := get(c, u, "application/atom+xml"); r.FromCache || hits.Load() != 1 {
		t.Fatalf("first fetch: fromCache=%v hits=%d", r.FromCache, hits.Load())
	}
	r := get(c, u, "application/atom+xml")
	if !r.FromCache || hits.Load() != 1 {
		t.Fatalf("second fetch: fromCache=%v hits=%d; want a cache hit", r.FromCache, hits.Load())
	}
	if string(r.Body) != "<feed/>" || r.Status != 200 || r.Header.Get("Content-Type") != "application/atom+xml" {
		t.Errorf("cached response = %d %q %v", r.Status, r.Body, r.Header)
	}
	if r.Header.Get("X-Request") != "" {
		t.Errorf("unselected header was cached: %v", r.Header)
	}

	// The Accept header is part of the key.
	if r := get(c, u, "application/json"); r.FromCache || hits.Load() != 2 {
		t.Errorf("other Accept: fromCache=%v hits=%d; want a miss", r.FromCache, hits.Load())
	}

	// Expiry.
	clock.Advance(59 * time.Minute)
	if r := get(c, u, "application/atom+xml"); !r.FromCache {
		t.Error("entry younger than the TTL was not served")
	}
	clock.Advance(2 * time.Minute)
	if r := get(c, u, "application/atom+xml"); r.FromCache || hits.Load() != 3 {
		t.Errorf("expired entry: fromCache=%v hits=%d; want a refetch", r.FromCache, hits.Load())
	}
	if r := get(c, u, "application/atom+xml"); !r.FromCache || hits.Load() != 3 {
		t.Errorf("refetched entry was not re-cached: fromCache=%v hits=%d", r.FromCache, hits.Load())
	}

	// Refresh bypasses reads.
	o.Refresh = true
	if r := get(New(o), u, "application/atom+xml"); r.FromCache || hits.Load() != 4 {
		t.Errorf("refresh: fromCache=%v hits=%d; want a refetch", r.FromCache, hits.Load())
	}

	// Only 200 responses are cached.
	for i := 0; i < 2; i++ {
		if _, err := c.Get(ctx, srv.URL+"/missing", ""); !errors.Is(err, ErrNotFound) {
			t.Fatalf("err = %v", err)
		}
	}
	if hits.Load() != 6 {
		t.Errorf("hits = %d; a 404 must not be cached", hits.Load())
	}

	// A corrupt entry is ignored and overwritten.
	path := c.cachePath(cacheKey(http.MethodGet, u, "application/atom+xml"))
	if err := os.WriteFile(path, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := get(c, u, "application/atom+xml"); r.FromCache || hits.Load() != 7 {
		t.Errorf("corrupt entry: fromCache=%v hits=%d; want a refetch", r.FromCache, hits.Load())
	}
	if r := get(c, u, "application/atom+xml"); !r.FromCache {
		t.Error("corrupt entry was not overwritten")
	}
	if matches, _ := filepath.Glob(filepath.Join(o.CacheDir, "*", ".tmp-*")); len(matches) != 0 {
		t.Errorf("temp files left behind: %v", matches)
	}
}

func TestRateLimit(t *testing.T) {
	var mu sync.Mutex
	var times []time.Time
	srv, _ := server(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		mu.Lock()
		times = append(times, time.Now())
		mu.Unlock()
	})
	o := testOptions()
	const gap = 150 * time.Millisecond
	o.RateLimits = map[string]RateLimit{"127.0.0.1": {Limit: rate.Every(gap), Burst: 1}}
	c := New(o)
	start := time.Now()
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.Get(t.Context(), srv.URL, ""); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if len(times) != 4 {
		t.Fatalf("%d requests arrived", len(times))
	}
	// The limiter lets request i (0-based, in arrival order) leave no
	// earlier than i gaps after the first: a slow machine can only delay
	// arrivals, so this holds however loaded it is (comparing neighbours
	// does not: a delayed request arrives close to the next one).
	sort.Slice(times, func(i, j int) bool { return times[i].Before(times[j]) })
	for i, at := range times {
		if d := at.Sub(start); d < time.Duration(i)*gap-20*time.Millisecond {
			t.Errorf("request %d arrived %v after the first was sent; the limit allows one per %v", i, d, gap)
		}
	}
}

func TestDefaultRateLimits(t *testing.T) {
	limits := DefaultRateLimits()
	for _, host := range []string{"export.arxiv.org", "arxiv.org"} {
		rl, ok := limits[host]
		if !ok || rl.Limit != rate.Every(3*time.Second) || rl.Burst != 1 {
			t.Errorf("%s: %+v, %v; want 1 request / 3 s", host, rl, ok)
		}
	}
	if _, ok := limits["api.crossref.org"]; ok {
		t.Error("crossref should not be limited by default")
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 4, 12, 22, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"1", time.Second, true},
		{" 120 ", 120 * time.Second, true},
		{"Sun, 12 Apr 2026 22:00:05 GMT", 5 * time.Second, true},
		{"Sun, 12 Apr 2026 21:00:00 GMT", 0, true}, // in the past
		{"-1", 0, false},
		{"soon", 0, false},
		{"", 0, false},
	}
	for _, tc := range tests {
		got, ok := parseRetryAfter(tc.in, now)
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseRetryAfter(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestBackoffCapsRetryAfter(t *testing.T) {
	o := testOptions()
	o.RetryAfterMax = 10 * time.Second
	c := New(o)
	resp := &http.Response{StatusCode: 429, Header: http.Header{"Retry-After": {"3600"}}}
	if d := c.backoff(o.RetryWaitMin, o.RetryWaitMax, 0, resp); d != 10*time.Second {
		t.Errorf("backoff = %v; want Retry-After capped at 10s", d)
	}
	if d := c.backoff(o.RetryWaitMin, o.RetryWaitMax, 0, &http.Response{StatusCode: 500, Header: http.Header{}}); d != o.RetryWaitMin {
		t.Errorf("backoff without Retry-After = %v; want %v", d, o.RetryWaitMin)
	}
}

func TestDownload(t *testing.T) {
	pdf := append([]byte("%PDF-1.7\n"), bytes.Repeat([]byte("0123456789"), 1000)...)
	srv, hits := server(t, func(w http.ResponseWriter, r *http.Request, hit int) {
		if r.Header.Get("User-Agent") != testUA {
			t.Errorf("User-Agent = %q", r.Header.Get("User-Agent"))
		}
		switch r.URL.Path {
		case "/flaky.pdf":
			if hit == 1 {
				http.Error(w, "busy", http.StatusServiceUnavailable)
				return
			}
		case "/gone.pdf":
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/pdf")
		w.Write(pdf)
	})
	o := testOptions()
	o.CacheDir = t.TempDir()
	c := New(o)
	ctx := t.Context()

	var buf bytes.Buffer
	n, ct, err := c.Download(ctx, srv.URL+"/flaky.pdf", &buf, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(len(pdf)) || ct != "application/pdf" || !bytes.Equal(buf.Bytes(), pdf) {
		t.Errorf("Download = %d, %q; want %d bytes of PDF", n, ct, len(pdf))
	}
	if hits.Load() != 2 {
		t.Errorf("hits = %d; want the 503 retried", hits.Load())
	}

	// Downloads are never cached.
	buf.Reset()
	if _, _, err := c.Download(ctx, srv.URL+"/flaky.pdf", &buf, 0); err != nil {
		t.Fatal(err)
	}
	if hits.Load() != 3 {
		t.Errorf("hits = %d; downloads must not be cached", hits.Load())
	}

	if _, _, err := c.Download(ctx, srv.URL+"/gone.pdf", io.Discard, 0); !errors.Is(err, ErrNotFound) {
		t.Errorf("err = %v; want ErrNotFound", err)
	}

	// Too large: fail without writing more than the cap.
	buf.Reset()
	n, _, err = c.Download(ctx, srv.URL+"/big.pdf", &buf, 100)
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("err = %v; want ErrTooLarge", err)
	}
	if n > 100 || buf.Len() > 100 {
		t.Errorf("wrote %d bytes past a 100-byte cap", buf.Len())
	}
}

func TestDownloadTruncated(t *testing.T) {
	srv, hits := truncatingServer(t)
	var buf bytes.Buffer
	n, _, err := New(testOptions()).Download(t.Context(), srv.URL, &buf, 0)
	if err == nil {
		t.Fatalf("got %d bytes and no error; want a truncation error", n)
	}
	if !errors.Is(err, io.ErrUnexpectedEOF) || !strings.Contains(err.Error(), "failed") {
		t.Errorf("err = %v; want a failed download wrapping io.ErrUnexpectedEOF", err)
	}
	if n != int64(buf.Len()) || n == 0 {
		t.Errorf("n = %d, buffer %d", n, buf.Len())
	}
	if hits.Load() != 1 {
		t.Errorf("hits = %d; bytes were written, so no retry", hits.Load())
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestDownloadWriteError(t *testing.T) {
	srv, hits := server(t, func(w http.ResponseWriter, r *http.Request, _ int) { io.WriteString(w, "%PDF-1.7") })
	_, _, err := New(testOptions()).Download(t.Context(), srv.URL, failingWriter{}, 0)
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("err = %v; want the write error", err)
	}
	var fe *Error
	if errors.As(err, &fe) {
		t.Errorf("a local write error is not a source failure: %v", err)
	}
	if hits.Load() != 1 {
		t.Errorf("hits = %d", hits.Load())
	}
}

// TestUnreachableFailsFast checks that an unreachable host (connection
// refused here; no DNS offline) is not retried: an offline capture must
// fail quickly with a "failed" error, never "not found".
func TestUnreachableFailsFast(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there now
	o := testOptions()
	o.RetryMax = 3
	o.RetryWaitMin, o.RetryWaitMax = time.Second, 2*time.Second
	start := time.Now()
	_, err := New(o).Get(t.Context(), url, "")
	if time.Since(start) > time.Second {
		t.Errorf("took %v: an unreachable host was retried", time.Since(start))
	}
	fe := asError(t, err)
	if errors.Is(err, ErrNotFound) || fe.Attempts > 1 || !strings.Contains(err.Error(), "failed") {
		t.Errorf("err = %v (attempts %d)", err, fe.Attempts)
	}
}
