package fetch

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"time"
)

// The on-disk cache holds one JSON file per request at
// <CacheDir>/<key[:2]>/<key>.json, where key is the hex SHA-256 of
// "METHOD URL\nACCEPT". Only 200 responses are stored. A file that cannot
// be read or decoded, or that belongs to another request, is treated as a
// miss and overwritten by the next successful fetch.

// cachedHeaders returns the response headers kept in the cache.
func cachedHeaders() []string { return []string{"Content-Type", "ETag", "Last-Modified", "Date"} }

type cacheEntry struct {
	Method string              `json:"method"`
	URL    string              `json:"url"`
	Accept string              `json:"accept"`
	Status int                 `json:"status"`
	Header map[string][]string `json:"header"`
	Body   []byte              `json:"body"`
	Stored time.Time           `json:"stored"`
}

func cacheKey(method, url, accept string) string {
	sum := sha256.Sum256([]byte(method + " " + url + "\n" + accept))
	return hex.EncodeToString(sum[:])
}

func (c *Client) cachePath(key string) string {
	return filepath.Join(c.o.CacheDir, key[:2], key+".json")
}

// readCache returns the cached response for key if it is fresh.
func (c *Client) readCache(key, url, accept string) (*Response, bool) {
	b, err := os.ReadFile(c.cachePath(key))
	if err != nil {
		return nil, false
	}
	var e cacheEntry
	if err := json.Unmarshal(b, &e); err != nil {
		return nil, false
	}
	if e.Method != http.MethodGet || e.URL != url || e.Accept != accept || e.Status != http.StatusOK || e.Stored.IsZero() {
		return nil, false
	}
	age := c.o.Now().Sub(e.Stored)
	if age < 0 || age >= c.o.CacheTTL {
		return nil, false
	}
	h := http.Header{}
	for k, vs := range e.Header {
		for _, v := range vs {
			h.Add(k, v)
		}
	}
	return &Response{Status: e.Status, Header: h, Body: e.Body, FromCache: true}, true
}

// writeCache stores r atomically (temp file in the same directory, then
// rename).
func (c *Client) writeCache(key, url, accept string, r *Response) error {
	e := cacheEntry{
		Method: http.MethodGet, URL: url, Accept: accept, Status: r.Status,
		Header: map[string][]string{}, Body: r.Body, Stored: c.o.Now().UTC(),
	}
	for _, k := range cachedHeaders() {
		if vs := r.Header.Values(k); len(vs) > 0 {
			e.Header[k] = vs
		}
	}
	b, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("encode cache entry: %w", err)
	}
	path := c.cachePath(key)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create cache dir: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return fmt.Errorf("create cache file: %w", err)
	}
	tmp := f.Name()
	if _, err := f.Write(b); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("write cache file: %w", err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("close cache file: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("rename cache file: %w", err)
	}
	return nil
}
