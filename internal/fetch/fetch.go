// Package fetch is the polite HTTP client every metadata source and the PDF
// downloader go through. It owns network etiquette in one place: a
// User-Agent with contact details, per-host rate limits (arXiv: one request
// every 3 s), a per-attempt timeout, bounded retries with backoff that honour
// Retry-After, size caps, and an optional on-disk cache of successful GET
// responses.
//
// Retries (github.com/hashicorp/go-retryablehttp, used unmodified) happen on
// network errors, timeouts, truncated bodies, 429 and 5xx (except 501);
// other 4xx are final, and so is a host that cannot be reached at all (no
// DNS, connection refused, no route), so that an offline run fails fast. Rate limits apply to every attempt, including retries
// and redirects, but not to cache hits.
//
// Errors: a 404 or 410 is an *Error that satisfies errors.Is(err,
// ErrNotFound). Every other failure is an *Error whose message says the
// fetch failed (and, for 429, that the server rate-limited us), so a caller
// never mistakes an outage for a missing record.
//
// This package never prints; it has no package-level mutable state.
package fetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"golang.org/x/time/rate"
)

// Defaults used when the matching Options field is zero.
const (
	DefaultUserAgent       = "crossmem/dev (+https://github.com/crossmem/crossmem)"
	DefaultTimeout         = 30 * time.Second
	DefaultDownloadTimeout = 10 * time.Minute
	DefaultRetryMax        = 3
	DefaultRetryWaitMin    = 1 * time.Second
	DefaultRetryWaitMax    = 30 * time.Second
	DefaultRetryAfterMax   = 60 * time.Second
	DefaultCacheTTL        = 7 * 24 * time.Hour
	DefaultMaxBytes        = 32 << 20 // 32 MiB
)

// maxErrorBody caps the response body kept in an *Error.
const maxErrorBody = 64 << 10

// ErrNotFound is matched (errors.Is) by the error of a fetch that got HTTP
// 404 or 410.
var ErrNotFound = errors.New("not found")

// ErrTooLarge is matched by the error of a fetch whose body exceeds the size
// cap.
var ErrTooLarge = errors.New("response body exceeds size limit")

// RateLimit is a token bucket for one host: Limit requests per second with
// bursts of Burst (at least 1).
type RateLimit struct {
	Limit rate.Limit
	Burst int
}

// DefaultRateLimits returns the per-host limits used when
// Options.RateLimits is nil: arXiv asks for at most one request every three
// seconds (https://info.arxiv.org/help/api/tou.html).
func DefaultRateLimits() map[string]RateLimit {
	arxiv := RateLimit{Limit: rate.Every(3 * time.Second), Burst: 1}
	return map[string]RateLimit{
		"export.arxiv.org": arxiv,
		"arxiv.org":        arxiv,
		"www.arxiv.org":    arxiv,
	}
}

// Options configure a Client. Zero values select the defaults above.
type Options struct {
	// UserAgent is sent with every request, e.g.
	// "crossmem/0.1 (+https://github.com/crossmem/crossmem; mailto:you@example.org)".
	UserAgent string
	// Timeout bounds one attempt of Get: connecting, waiting for headers
	// and reading the body (default 30 s). Waiting for the rate limiter is
	// not counted.
	Timeout time.Duration
	// DownloadTimeout bounds one attempt of Download (default 10 min).
	DownloadTimeout time.Duration
	// RetryMax is the number of retries after the first attempt (default
	// 3; negative means no retries).
	RetryMax int
	// RetryWaitMin and RetryWaitMax bound the exponential backoff between
	// attempts (defaults 1 s and 30 s).
	RetryWaitMin, RetryWaitMax time.Duration
	// RetryAfterMax caps a server's Retry-After (default 60 s).
	RetryAfterMax time.Duration
	// RateLimits maps a lower-case host name (without port) to its limit.
	// nil means DefaultRateLimits(); hosts not in the map are not limited.
	RateLimits map[string]RateLimit
	// CacheDir, when set, enables the on-disk cache of 200 responses to Get.
	CacheDir string
	// CacheTTL is how long a cached response is served (default 7 days).
	CacheTTL time.Duration
	// Refresh skips cache reads (responses are still written).
	Refresh bool
	// MaxBytes caps a Get body, and a Download body when its maxBytes
	// argument is not positive (default 32 MiB).
	MaxBytes int64
	// Transport performs the HTTP round trips; nil means a clone of
	// http.DefaultTransport.
	Transport http.RoundTripper
	// Now is the clock for cache ages and Retry-After dates; nil means
	// time.Now.
	Now func() time.Time
}

// Client fetches URLs politely. It is safe for concurrent use; rate limits
// are shared by all goroutines using the same Client.
type Client struct {
	o        Options
	limiters map[string]*rate.Limiter
	get      *retryablehttp.Client
	dl       *retryablehttp.Client
}

// Response is a complete HTTP response to Get. Body is the whole body.
type Response struct {
	Status    int
	Header    http.Header
	Body      []byte
	FromCache bool
}

// Error is the error of a failed fetch.
type Error struct {
	URL      string
	Status   int // HTTP status of the last response; 0 when none arrived
	Attempts int // attempts made (1 = no retry)
	Err      error
	// Body holds up to 64 KiB of the last response body, for APIs that
	// explain errors in it (arXiv answers 400 with an Atom error entry).
	Body []byte
}

// Error describes the failure. A 404/410 reads "not found"; everything else
// reads "failed".
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "fetch %s", e.URL)
	switch {
	case errors.Is(e.Err, ErrNotFound):
		fmt.Fprintf(&b, ": not found (HTTP %d)", e.Status)
		return b.String()
	case e.Status == http.StatusTooManyRequests:
		b.WriteString(" failed: rate limited by the server (HTTP 429)")
	case e.Status != 0 && (e.Status < 200 || e.Status >= 300):
		fmt.Fprintf(&b, " failed: HTTP %d %s", e.Status, http.StatusText(e.Status))
	default:
		b.WriteString(" failed")
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " after %d attempts", e.Attempts)
	}
	if e.Err != nil && !isStatusErr(e.Err) {
		fmt.Fprintf(&b, ": %v", e.Err)
	}
	return b.String()
}

// Unwrap returns the underlying error (ErrNotFound, ErrTooLarge, a timeout,
// context.Canceled, a network error, ...).
func (e *Error) Unwrap() error { return e.Err }

// statusError is the Err of an *Error caused by an HTTP status alone; its
// text would repeat the status, so Error() leaves it out.
type statusError struct{ status int }

func (e statusError) Error() string { return fmt.Sprintf("HTTP %d", e.status) }

func isStatusErr(err error) bool {
	var se statusError
	return errors.As(err, &se)
}

// timeoutError is an attempt that ran out of its per-attempt time.
type timeoutError struct{ after time.Duration }

func (e *timeoutError) Error() string   { return fmt.Sprintf("timed out after %v", e.after) }
func (e *timeoutError) Timeout() bool   { return true }
func (e *timeoutError) Unwrap() error   { return context.DeadlineExceeded }
func (e *timeoutError) Temporary() bool { return true }

// New returns a Client for o.
func New(o Options) *Client {
	if o.UserAgent == "" {
		o.UserAgent = DefaultUserAgent
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.DownloadTimeout <= 0 {
		o.DownloadTimeout = DefaultDownloadTimeout
	}
	switch {
	case o.RetryMax == 0:
		o.RetryMax = DefaultRetryMax
	case o.RetryMax < 0:
		o.RetryMax = 0
	}
	if o.RetryWaitMin <= 0 {
		o.RetryWaitMin = DefaultRetryWaitMin
	}
	if o.RetryWaitMax <= 0 {
		o.RetryWaitMax = DefaultRetryWaitMax
	}
	if o.RetryWaitMax < o.RetryWaitMin {
		o.RetryWaitMax = o.RetryWaitMin
	}
	if o.RetryAfterMax <= 0 {
		o.RetryAfterMax = DefaultRetryAfterMax
	}
	if o.RateLimits == nil {
		o.RateLimits = DefaultRateLimits()
	}
	if o.CacheTTL <= 0 {
		o.CacheTTL = DefaultCacheTTL
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.Transport == nil {
		if t, ok := http.DefaultTransport.(*http.Transport); ok {
			o.Transport = t.Clone()
		} else {
			o.Transport = http.DefaultTransport
		}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	c := &Client{o: o, limiters: map[string]*rate.Limiter{}}
	for host, rl := range o.RateLimits {
		burst := rl.Burst
		if burst < 1 {
			burst = 1
		}
		c.limiters[strings.ToLower(host)] = rate.NewLimiter(rl.Limit, burst)
	}
	c.get = c.newRetryClient(&attemptTransport{c: c, timeout: o.Timeout, buffer: true})
	c.dl = c.newRetryClient(&attemptTransport{c: c, timeout: o.DownloadTimeout})
	return c
}

func (c *Client) newRetryClient(t http.RoundTripper) *retryablehttp.Client {
	return &retryablehttp.Client{
		HTTPClient:   &http.Client{Transport: t},
		Logger:       nil, // never print
		RetryWaitMin: c.o.RetryWaitMin,
		RetryWaitMax: c.o.RetryWaitMax,
		RetryMax:     c.o.RetryMax,
		CheckRetry:   checkRetry,
		Backoff:      c.backoff,
		ErrorHandler: func(resp *http.Response, err error, attempts int) (*http.Response, error) {
			return resp, &exhaustedError{attempts: attempts, err: err}
		},
	}
}

// exhaustedError carries the attempt count out of retryablehttp when it
// gives up; err may be nil when the last attempt got a retryable status.
type exhaustedError struct {
	attempts int
	err      error
}

func (e *exhaustedError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("giving up after %d attempts", e.attempts)
	}
	return e.err.Error()
}

func (e *exhaustedError) Unwrap() error { return e.err }

// unreachable reports whether err says the network or host cannot be
// reached at all (no DNS, unknown host, connection refused, no route):
// retrying would only make an offline capture slow to fail.
func unreachable(err error) bool {
	var dns *net.DNSError
	if errors.As(err, &dns) && !dns.IsTimeout {
		return true
	}
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ENETUNREACH) || errors.Is(err, syscall.EHOSTUNREACH)
}

// checkRetry retries network errors, timeouts, truncated bodies, 429 and
// 5xx except 501; it never retries other statuses, an oversized body, an
// unreachable host (see unreachable), or a cancelled caller context.
func checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if err != nil {
		if errors.Is(err, ErrTooLarge) {
			return false, err
		}
		if unreachable(err) {
			return false, err
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			msg := ue.Err.Error()
			if strings.Contains(msg, "stopped after") && strings.Contains(msg, "redirects") ||
				strings.Contains(msg, "unsupported protocol scheme") {
				return false, err
			}
		}
		return true, nil
	}
	if resp.StatusCode == http.StatusTooManyRequests ||
		resp.StatusCode >= 500 && resp.StatusCode != http.StatusNotImplemented {
		return true, nil
	}
	return false, nil
}

// backoff waits as long as the server's Retry-After asks (capped at
// RetryAfterMax, at least RetryWaitMin), otherwise exponentially.
func (c *Client) backoff(min, max time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil {
		if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), c.o.Now()); ok {
			if d > c.o.RetryAfterMax {
				d = c.o.RetryAfterMax
			}
			if d < min {
				d = min
			}
			return d
		}
	}
	return retryablehttp.DefaultBackoff(min, max, attempt, nil)
}

// parseRetryAfter reads a Retry-After value: delay seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		if secs > int64(24*time.Hour/time.Second) {
			secs = int64(24 * time.Hour / time.Second)
		}
		return time.Duration(secs) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	d := t.Sub(now)
	if d < 0 {
		d = 0
	}
	return d, true
}

// attemptTransport runs one attempt: it waits for the host's rate limiter,
// then bounds the exchange with the per-attempt timeout. With buffer set it
// reads the whole body (up to MaxBytes) inside the attempt, so a truncated
// body is an attempt error that can be retried.
type attemptTransport struct {
	c       *Client
	timeout time.Duration
	buffer  bool
}

func (t *attemptTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if l := t.c.limiters[strings.ToLower(req.URL.Hostname())]; l != nil {
		if err := l.Wait(req.Context()); err != nil {
			return nil, fmt.Errorf("wait for rate limit: %w", err)
		}
	}
	ctx, cancel := context.WithTimeout(req.Context(), t.timeout)
	resp, err := t.c.o.Transport.RoundTrip(req.WithContext(ctx))
	if err != nil {
		err = t.timeoutErr(req.Context(), ctx, err)
		cancel()
		return nil, err
	}
	if !t.buffer {
		resp.Body = &cancelBody{ReadCloser: resp.Body, cancel: cancel, t: t, parent: req.Context(), ctx: ctx}
		return resp, nil
	}
	body, err := readLimited(resp.Body, t.c.o.MaxBytes)
	resp.Body.Close()
	if err != nil {
		err = t.timeoutErr(req.Context(), ctx, err)
		cancel()
		return nil, fmt.Errorf("read body: %w", err)
	}
	cancel()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	return resp, nil
}

// timeoutErr turns an error caused by the attempt's own deadline into a
// *timeoutError; errors from the caller's context pass through.
func (t *attemptTransport) timeoutErr(parent, attempt context.Context, err error) error {
	if parent.Err() == nil && errors.Is(attempt.Err(), context.DeadlineExceeded) {
		return &timeoutError{after: t.timeout}
	}
	return err
}

// cancelBody releases the attempt's context when the body is closed.
type cancelBody struct {
	io.ReadCloser
	cancel      context.CancelFunc
	t           *attemptTransport
	parent, ctx context.Context
}

func (b *cancelBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF {
		err = b.t.timeoutErr(b.parent, b.ctx, err)
	}
	return n, err
}

func (b *cancelBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

// readLimited reads all of r, failing with ErrTooLarge beyond max bytes.
func readLimited(r io.Reader, max int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%w (%d bytes)", ErrTooLarge, max)
	}
	return b, nil
}

// Get fetches url with the given Accept header ("" sends none) and returns
// the whole response. A fresh cached 200 response is returned without
// network access (FromCache set) unless Options.Refresh is set; a new 200
// response is cached when Options.CacheDir is set. A cache that cannot be
// written does not fail the fetch.
//
// Any non-2xx final status is an error: 404/410 match ErrNotFound; others,
// like network failures, timeouts, truncated or oversized bodies, are an
// *Error saying the fetch failed.
func (c *Client) Get(ctx context.Context, url, accept string) (*Response, error) {
	key := cacheKey(http.MethodGet, url, accept)
	if c.o.CacheDir != "" && !c.o.Refresh {
		if r, ok := c.readCache(key, url, accept); ok {
			return r, nil
		}
	}
	req, err := c.newRequest(ctx, url, accept)
	if err != nil {
		return nil, err
	}
	resp, err := c.get.Do(req)
	if err != nil {
		return nil, c.failure(ctx, url, resp, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body) // already in memory
	if err != nil {
		return nil, &Error{URL: url, Status: resp.StatusCode, Attempts: 1, Err: err}
	}
	if err := statusErr(url, resp.StatusCode, 1, body); err != nil {
		return nil, err
	}
	r := &Response{Status: resp.StatusCode, Header: resp.Header, Body: body}
	if c.o.CacheDir != "" && resp.StatusCode == http.StatusOK {
		_ = c.writeCache(key, url, accept, r) // best effort: a cache miss next time is harmless
	}
	return r, nil
}

func (c *Client) newRequest(ctx context.Context, u, accept string) (*retryablehttp.Request, error) {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, &Error{URL: u, Err: fmt.Errorf("build request: %w", err)}
	}
	req.Header.Set("User-Agent", c.o.UserAgent)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	return req, nil
}

// statusErr returns the error for a final non-2xx status, nil for 2xx.
func statusErr(u string, status, attempts int, body []byte) error {
	if status >= 200 && status < 300 {
		return nil
	}
	if len(body) > maxErrorBody {
		body = body[:maxErrorBody]
	}
	e := &Error{URL: u, Status: status, Attempts: attempts, Body: body, Err: statusError{status}}
	if status == http.StatusNotFound || status == http.StatusGone {
		e.Err = ErrNotFound
	}
	return e
}

// failure builds the *Error for a Do that returned an error, possibly with
// the last response (after retries were exhausted).
func (c *Client) failure(ctx context.Context, u string, resp *http.Response, err error) error {
	attempts := 1
	var ex *exhaustedError
	if errors.As(err, &ex) {
		attempts = ex.attempts
		err = ex.err
	}
	if resp != nil {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		resp.Body.Close()
		if se := statusErr(u, resp.StatusCode, attempts, body); se != nil {
			return se
		}
	}
	if err == nil {
		err = errors.New("no response")
	}
	if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
		err = fmt.Errorf("%w: %v", ctx.Err(), err)
	}
	return &Error{URL: u, Attempts: attempts, Err: unwrapURLError(err)}
}

// unwrapURLError drops net/http's "Get "url": " prefix, which would repeat
// the URL already in *Error.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		return ue.Err
	}
	return err
}

// Download streams the body of url into w, up to maxBytes (<= 0 means
// Options.MaxBytes), and returns the bytes written and the Content-Type.
// Nothing is cached. Attempts are retried like Get's only until the first
// body byte is written; a failure after that returns the partial count and
// an *Error, and the caller must discard what w received. A body larger
// than maxBytes fails with ErrTooLarge after writing at most maxBytes.
func (c *Client) Download(ctx context.Context, url string, w io.Writer, maxBytes int64) (n int64, contentType string, err error) {
	if maxBytes <= 0 {
		maxBytes = c.o.MaxBytes
	}
	for attempt := 1; ; attempt++ {
		req, err := c.newRequest(ctx, url, "application/pdf,*/*;q=0.8")
		if err != nil {
			return 0, "", err
		}
		resp, err := c.dl.Do(req)
		if err != nil {
			return 0, "", c.failure(ctx, url, resp, err)
		}
		contentType = resp.Header.Get("Content-Type")
		if resp.StatusCode < 200 || resp.StatusCode >= 300 {
			body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
			resp.Body.Close()
			return 0, contentType, statusErr(url, resp.StatusCode, attempt, body)
		}
		if resp.ContentLength > maxBytes {
			resp.Body.Close()
			return 0, contentType, &Error{URL: url, Status: resp.StatusCode, Attempts: attempt,
				Err: fmt.Errorf("%w: Content-Length %d > %d", ErrTooLarge, resp.ContentLength, maxBytes)}
		}
		cw := &countingWriter{w: w}
		_, err = io.Copy(cw, io.LimitReader(resp.Body, maxBytes))
		if err == nil && cw.n == maxBytes {
			var one [1]byte
			if k, _ := io.ReadFull(resp.Body, one[:]); k > 0 {
				err = fmt.Errorf("%w (%d bytes)", ErrTooLarge, maxBytes)
			}
		}
		resp.Body.Close()
		if err == nil && resp.ContentLength >= 0 && cw.n != resp.ContentLength {
			err = fmt.Errorf("body truncated: got %d of %d bytes: %w", cw.n, resp.ContentLength, io.ErrUnexpectedEOF)
		}
		if err == nil {
			return cw.n, contentType, nil
		}
		if cw.werr != nil {
			return cw.n, contentType, fmt.Errorf("download %s: write: %w", url, cw.werr)
		}
		retryable := cw.n == 0 && !errors.Is(err, ErrTooLarge) && ctx.Err() == nil && attempt <= c.o.RetryMax
		if !retryable {
			return cw.n, contentType, &Error{URL: url, Status: resp.StatusCode, Attempts: attempt, Err: fmt.Errorf("read body: %w", err)}
		}
		wait := c.backoff(c.o.RetryWaitMin, c.o.RetryWaitMax, attempt-1, nil)
		select {
		case <-ctx.Done():
			return 0, contentType, &Error{URL: url, Attempts: attempt, Err: ctx.Err()}
		case <-time.After(wait):
		}
	}
}

// countingWriter counts bytes written and remembers a write error, to tell
// a failing destination from a failing source.
type countingWriter struct {
	w    io.Writer
	n    int64
	werr error
}

func (cw *countingWriter) Write(p []byte) (int, error) {
	n, err := cw.w.Write(p)
	cw.n += int64(n)
	if err != nil {
		cw.werr = err
	}
	return n, err
}
