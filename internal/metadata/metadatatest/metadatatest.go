// Package metadatatest replays the real API responses recorded in the
// shared corpus (../shared/corpus/api, located with corpustest) from a
// local HTTP server, so that the metadata clients, and everything built on
// them, are tested offline against real data. It is test support: only
// _test.go files and the benchmark programs (through Start) import it, and
// a test that uses it is skipped when the shared corpus is absent.
//
// # Routing
//
// One server answers for five sources, each under its own path prefix,
// followed by the path the real API was asked:
//
//	/arxiv/api/query?...        export.arxiv.org/api/query       (arxiv/)
//	/crossref/works/...         api.crossref.org/works           (crossref/, crossref-query/)
//	/openalex/works/...         api.openalex.org/works           (openalex/)
//	/datacite/dois/...          api.datacite.org/dois            (datacite/)
//	/unpaywall/v2/...           api.unpaywall.org/v2             (unpaywall/)
//
// Server.BaseURL gives the value to put in each client's BaseURL and in the
// CROSSMEM_*_API environment overrides (Server.Env).
//
// # Matching
//
// A request is matched to a row of MANIFEST.tsv (request_uri) by a key:
// the host is dropped; path and query are URL-decoded; the contact
// parameters mailto and email are dropped, as are parameters with empty
// values; the remaining parameters are sorted; and the key is compared
// case-insensitively (DOIs are case-insensitive, and no two recordings
// differ only in case). For arXiv the API's defaults are dropped too
// (start=0, sortBy=relevance, sortOrder=descending, and max_results when
// id_list names the papers), so the arxiv client's plain ?id_list=<id>
// finds the recordings made by clients that spell the defaults out. When
// several recordings share a key (a base file and its *.v2/*.v3 re-records),
// the base file is served. Rows without a request_uri (records embedded in
// other projects' test cases) are not served.
//
// A match is answered with the recorded status (an empty MANIFEST status
// means 200) and the recorded body, with a Content-Type chosen by the file
// type: application/json, text/plain, text/html, and for arXiv
// application/atom+xml without a charset, as arXiv sends it. A request
// that matches nothing is answered 404 with the body
// {"status":"not recorded"} and listed by Unrecorded, so a test can assert
// that nothing unexpected was asked.
//
// # Faults
//
// Fail and FailNext make one source misbehave, one fault at a time per
// source, to test failure paths: a 500, a 429 with Retry-After: 1, a hang
// until the client gives up, a truncated body, or a malformed body.
//
// # A test's own answers
//
// Answer adds an answer of a test's own to a source's API (a fabricated
// feed, a status the recordings do not have), matched like a recording;
// Serve answers a path outside the APIs, for the files they link to (PDFs).
// Received lists the requests with their headers.
//
// A Server is safe for concurrent use.
package metadatatest

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/fetch"
	"github.com/crossmem/crossmem/internal/metadata"
)

// Fault is a way a source can misbehave (see Server.Fail).
type Fault int

// Faults. Each applies to every request to the source it is set for.
const (
	// NoFault serves the recordings.
	NoFault Fault = iota
	// ServerError answers 500 Internal Server Error.
	ServerError
	// RateLimited answers 429 Too Many Requests with Retry-After: 1.
	RateLimited
	// Hang sends nothing until the request's context ends (the client
	// gave up or closed the connection), the server is closed, or a
	// minute has passed; the client's timeout must be shorter.
	Hang
	// Truncated declares the full length of the recorded body (or of a
	// stand-in when the request is not recorded) but sends only its first
	// half before closing the connection.
	Truncated
	// Malformed answers 200 with the first half of the recorded body (or
	// of a stand-in), correctly framed: invalid JSON, or XML that ends
	// early.
	Malformed
)

// String names the fault.
func (f Fault) String() string {
	switch f {
	case NoFault:
		return "none"
	case ServerError:
		return "500"
	case RateLimited:
		return "429"
	case Hang:
		return "hang"
	case Truncated:
		return "truncated"
	case Malformed:
		return "malformed"
	}
	return "Fault(" + strconv.Itoa(int(f)) + ")"
}

// hangMax bounds a Hang so that a client without a timeout cannot stall a
// test forever.
const hangMax = time.Minute

// notRecorded is the body of the answer to an unrecorded request.
const notRecorded = `{"status":"not recorded"}`

// Recording is one servable row of MANIFEST.tsv.
type Recording struct {
	Source     string // metadata.SourceArxiv, SourceCrossref, SourceOpenAlex, SourceDataCite or SourceUnpaywall
	File       string // path under corpus/api, e.g. "openalex/10.1016_j.xgen.2025.100814.json"
	RequestURI string // the recorded request, as MANIFEST.tsv gives it
	Status     int    // recorded HTTP status; 200 when MANIFEST.tsv leaves it empty
	// Served is the file served for this request: File itself, or the
	// base recording when File is a re-record (*.v2.json) of the same
	// request.
	Served string
}

type recorded struct {
	rec  Recording
	body []byte
}

type faultState struct {
	fault Fault
	left  int // requests left; < 0 means until cleared
}

// Server replays the recordings. Create it with NewServer; it is closed
// when the test ends.
type Server struct {
	t        testing.TB // nil for a server from Start
	srv      *httptest.Server
	closed   chan struct{}
	stopOnce sync.Once
	recs     []Recording
	byKey    map[string]*recorded

	mu         sync.Mutex
	faults     map[string]faultState
	requests   []string
	headers    []http.Header
	unrecorded []string
	answers    map[string]*recorded // Answer's, by request key
	files      map[string]file      // Serve's, by path
}

// file is what Serve answers for a path.
type file struct {
	status      int
	contentType string
	body        []byte
}

// Request is a request the server received.
type Request struct {
	URI    string      // path and query as sent, with the source prefix
	Header http.Header // the request's headers
}

// folderSource maps a corpus/api folder to the source whose recordings it
// holds.
func folderSource(folder string) string {
	switch folder {
	case "arxiv":
		return metadata.SourceArxiv
	case "crossref", "crossref-query":
		return metadata.SourceCrossref
	case "openalex":
		return metadata.SourceOpenAlex
	case "datacite":
		return metadata.SourceDataCite
	case "unpaywall":
		return metadata.SourceUnpaywall
	}
	return ""
}

// Sources returns the names of the sources a Server replays.
func Sources() []string {
	return []string{metadata.SourceArxiv, metadata.SourceCrossref, metadata.SourceOpenAlex,
		metadata.SourceDataCite, metadata.SourceUnpaywall}
}

// reRecord matches the file name of a re-recording: name.v2.json.
var reRecord = regexp.MustCompile(`\.v\d+\.[a-z]+$`)

// NewServer starts a server replaying the recordings of ../shared/corpus/api
// and closes it when the test ends. It skips the test when the corpus is
// absent and fails it when MANIFEST.tsv or a listed recording cannot be
// read.
func NewServer(t testing.TB) *Server {
	t.Helper()
	s, err := Start(corpustest.Dir(t, "api"))
	if err != nil {
		t.Fatal(err)
	}
	s.t = t
	t.Cleanup(s.Stop)
	return s
}

// Start starts a server replaying the recordings in apiDir (a folder laid
// out as ../shared/corpus/api, with its MANIFEST.tsv), outside a test: for
// the benchmark programs. Stop it when done. Misuse of the methods that
// fail a test (BaseURL of an unknown source, Answer, Serve) panics.
func Start(apiDir string) (*Server, error) {
	manifest, err := os.ReadFile(filepath.Join(apiDir, "MANIFEST.tsv"))
	if err != nil {
		return nil, err
	}
	rows, err := readManifest(manifest)
	if err != nil {
		return nil, fmt.Errorf("read MANIFEST.tsv: %w", err)
	}
	s := &Server{
		closed:  make(chan struct{}),
		byKey:   map[string]*recorded{},
		faults:  map[string]faultState{},
		answers: map[string]*recorded{},
		files:   map[string]file{},
	}
	for _, row := range rows {
		source := folderSource(path.Dir(row.File))
		if source == "" || row.RequestURI == "" {
			continue
		}
		u, err := url.Parse(row.RequestURI)
		if err != nil {
			return nil, fmt.Errorf("MANIFEST.tsv %s: request_uri: %w", row.File, err)
		}
		key := requestKey(source, u.Path, u.RawQuery)
		row.Source = source
		if prev, ok := s.byKey[key]; !ok || isBetterBase(row.File, prev.rec.File) {
			body, err := os.ReadFile(filepath.Join(apiDir, filepath.FromSlash(row.File)))
			if err != nil {
				return nil, err
			}
			s.byKey[key] = &recorded{rec: row, body: body}
		}
		s.recs = append(s.recs, row)
	}
	for i := range s.recs {
		r := &s.recs[i]
		u, _ := url.Parse(r.RequestURI)
		r.Served = s.byKey[requestKey(r.Source, u.Path, u.RawQuery)].rec.File
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	return s, nil
}

// Stop stops the server and ends the requests it holds (a Hang). Stopping
// twice is fine.
func (s *Server) Stop() {
	s.stopOnce.Do(func() {
		close(s.closed)
		s.srv.CloseClientConnections()
		s.srv.Close()
	})
}

// fatalf fails the test the server belongs to, or panics outside a test.
func (s *Server) fatalf(format string, args ...any) {
	if s.t == nil {
		panic(fmt.Sprintf(format, args...))
	}
	s.t.Helper()
	s.t.Fatalf(format, args...)
}

// isBetterBase reports whether file should be served instead of prev for
// the same request: a base recording beats a re-record, and otherwise the
// first listed wins.
func isBetterBase(file, prev string) bool {
	return reRecord.MatchString(prev) && !reRecord.MatchString(file)
}

// readManifest parses MANIFEST.tsv (tab-separated, with a header row;
// fields may be quoted CSV-style).
func readManifest(data []byte) ([]Recording, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = '\t'
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	header, err := r.Read()
	if err != nil {
		return nil, err
	}
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	for _, h := range []string{"file", "request_uri", "http_status"} {
		if _, ok := col[h]; !ok {
			return nil, fmt.Errorf("no %s column", h)
		}
	}
	var out []Recording
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		get := func(h string) string {
			if i := col[h]; i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		row := Recording{File: get("file"), RequestURI: get("request_uri"), Status: http.StatusOK}
		if st := get("http_status"); st != "" {
			n, err := strconv.Atoi(st)
			if err != nil {
				return nil, fmt.Errorf("%s: http_status %q", row.File, st)
			}
			row.Status = n
		}
		out = append(out, row)
	}
}

// requestKey is the normalised form of a request to source (see the
// package doc): decoded path and sorted decoded parameters without contact
// parameters, empty values and, for arXiv, the API's defaults; lower-cased.
func requestKey(source, p, rawQuery string) string {
	type param struct{ k, v string }
	var params []param
	for _, kv := range strings.Split(rawQuery, "&") {
		if kv == "" {
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		if dk, err := url.QueryUnescape(k); err == nil {
			k = dk
		}
		if dv, err := url.QueryUnescape(v); err == nil {
			v = dv
		}
		switch strings.ToLower(k) {
		case "mailto", "email":
			continue
		}
		if v == "" {
			continue
		}
		params = append(params, param{k, v})
	}
	if source == metadata.SourceArxiv {
		hasIDs := slices.ContainsFunc(params, func(p param) bool { return p.k == "id_list" })
		params = slices.DeleteFunc(params, func(p param) bool {
			switch {
			case p.k == "start" && p.v == "0",
				p.k == "sortBy" && p.v == "relevance",
				p.k == "sortOrder" && p.v == "descending",
				p.k == "max_results" && hasIDs:
				return true
			}
			return false
		})
	}
	slices.SortFunc(params, func(a, b param) int {
		if c := strings.Compare(a.k, b.k); c != 0 {
			return c
		}
		return strings.Compare(a.v, b.v)
	})
	var b strings.Builder
	b.WriteString(source)
	b.WriteString(" ")
	b.WriteString(p)
	for i, kv := range params {
		if i == 0 {
			b.WriteString("?")
		} else {
			b.WriteString("&")
		}
		b.WriteString(kv.k + "=" + kv.v)
	}
	return strings.ToLower(b.String())
}

// BaseURL returns the base URL to give source's client (and its CROSSMEM_*_API
// override): the server URL plus "/arxiv/api/query" for arXiv (the arXiv
// client's BaseURL is the query endpoint), or plus "/<source>" for the
// others. It fails the test for a source the server does not replay.
func (s *Server) BaseURL(source string) string {
	if !slices.Contains(Sources(), source) {
		s.fatalf("metadatatest: no recordings for source %q", source)
	}
	u := s.srv.URL + "/" + source
	if source == metadata.SourceArxiv {
		u += "/api/query"
	}
	return u
}

// Close stops the server: from then on connections to its URLs are
// refused, as when the network is unreachable. Closing twice is fine.
func (s *Server) Close() { s.srv.Close() }

// URL returns the server's root URL.
func (s *Server) URL() string { return s.srv.URL }

// Env returns the environment overrides that point crossmem at the server:
// CROSSMEM_ARXIV_API, CROSSMEM_CROSSREF_API, CROSSMEM_OPENALEX_API,
// CROSSMEM_DATACITE_API and CROSSMEM_UNPAYWALL_API, each set to BaseURL of
// its source.
func (s *Server) Env() map[string]string {
	return map[string]string{
		"CROSSMEM_ARXIV_API":     s.BaseURL(metadata.SourceArxiv),
		"CROSSMEM_CROSSREF_API":  s.BaseURL(metadata.SourceCrossref),
		"CROSSMEM_OPENALEX_API":  s.BaseURL(metadata.SourceOpenAlex),
		"CROSSMEM_DATACITE_API":  s.BaseURL(metadata.SourceDataCite),
		"CROSSMEM_UNPAYWALL_API": s.BaseURL(metadata.SourceUnpaywall),
	}
}

// Recordings returns the MANIFEST.tsv rows the server answers, in
// MANIFEST order. The slice is the caller's.
func (s *Server) Recordings() []Recording { return slices.Clone(s.recs) }

// LocalURL returns the URL on this server that asks what the recorded
// request uri asked (the scheme and host of uri replaced by the server's
// and the source prefix). ok is false when uri is not a request to one of
// the replayed APIs.
func (s *Server) LocalURL(uri string) (local string, ok bool) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", false
	}
	var source string
	switch strings.ToLower(u.Hostname()) {
	case "export.arxiv.org", "arxiv.org":
		source = metadata.SourceArxiv
	case "api.crossref.org":
		source = metadata.SourceCrossref
	case "api.openalex.org":
		source = metadata.SourceOpenAlex
	case "api.datacite.org":
		source = metadata.SourceDataCite
	case "api.unpaywall.org":
		source = metadata.SourceUnpaywall
	default:
		return "", false
	}
	local = s.srv.URL + "/" + source + u.EscapedPath()
	if u.RawQuery != "" {
		local += "?" + u.RawQuery
	}
	return local, true
}

// Fail makes every request to source answer with fault f until Fail is
// called again for source (NoFault restores the recordings). It replaces
// any fault set before.
func (s *Server) Fail(source string, f Fault) { s.setFault(source, f, -1) }

// FailNext makes the next n requests to source answer with fault f; later
// requests are served from the recordings again. n < 1 clears the fault.
func (s *Server) FailNext(source string, f Fault, n int) {
	if n < 1 {
		f = NoFault
	}
	s.setFault(source, f, n)
}

// CheckFaults makes source fail with each fault in turn (ServerError,
// RateLimited, Hang, Truncated, Malformed), each in a subtest named after
// the fault, and checks the error of every call, made with the subtest's
// context: never nil and never fetch.ErrNotFound (a failure is not "not
// found"); for the first four a *fetch.Error whose message says "HTTP
// 500", "rate limited", "timed out" or "unexpected EOF"; for Malformed an
// error that is not a *fetch.Error and whose message contains malformed
// (the client's parse error, e.g. "parse OpenAlex JSON"). The source is
// served normally again when CheckFaults returns. The clients behind calls
// should time out quickly (FetchOptions with a Timeout of about 150 ms),
// or the Hang case waits out their timeout.
func (s *Server) CheckFaults(t *testing.T, source, malformed string, calls ...func(ctx context.Context) error) {
	t.Helper()
	for _, tc := range []struct {
		fault    Fault
		fetchErr bool
		msg      string
	}{
		{ServerError, true, "HTTP 500"},
		{RateLimited, true, "rate limited"},
		{Hang, true, "timed out"},
		{Truncated, true, "unexpected EOF"},
		{Malformed, false, malformed},
	} {
		t.Run(tc.fault.String(), func(t *testing.T) {
			s.Fail(source, tc.fault)
			defer s.Fail(source, NoFault)
			for _, call := range calls {
				err := call(t.Context())
				var fe *fetch.Error
				switch {
				case err == nil:
					t.Fatal("no error")
				case errors.Is(err, fetch.ErrNotFound):
					t.Errorf("failure reported as not found: %v", err)
				case tc.fetchErr != errors.As(err, &fe):
					t.Errorf("*fetch.Error = %v: %v", !tc.fetchErr, err)
				case !strings.Contains(err.Error(), tc.msg):
					t.Errorf("error %q does not say %q", err, tc.msg)
				}
			}
		})
	}
}

func (s *Server) setFault(source string, f Fault, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f == NoFault {
		delete(s.faults, source)
		return
	}
	s.faults[source] = faultState{fault: f, left: n}
}

// Answer makes the server answer the request of source with requestURI
// (path and query as the real API is asked, without the source prefix:
// "/api/query?id_list=2301.00001" for arXiv, "/works/10.1/x" for Crossref)
// with status and body, served with the source's Content-Type. It is
// matched as recordings are and takes precedence over them; Answer again
// to change it.
func (s *Server) Answer(source, requestURI string, status int, body []byte) {
	if s.t != nil {
		s.t.Helper()
	}
	if !slices.Contains(Sources(), source) {
		s.fatalf("metadatatest: Answer for unknown source %q", source)
	}
	u, err := url.Parse(requestURI)
	if err != nil {
		s.fatalf("metadatatest: Answer %q: %v", requestURI, err)
	}
	file := source + "/answer.json"
	if source == metadata.SourceArxiv {
		file = source + "/answer.xml"
	}
	rec := &recorded{rec: Recording{Source: source, File: file, RequestURI: requestURI, Status: status, Served: file}, body: body}
	s.mu.Lock()
	s.answers[requestKey(source, u.Path, u.RawQuery)] = rec
	s.mu.Unlock()
}

// Serve makes the server answer GET urlPath, a path outside the sources'
// prefixes (such as "/pdf/2104.12255v1"), with status, contentType and
// body, and returns its URL: for the files the APIs link to, which the
// recordings do not hold. Serve again to change the answer.
func (s *Server) Serve(urlPath string, status int, contentType string, body []byte) string {
	if s.t != nil {
		s.t.Helper()
	}
	if src, _ := splitSource(urlPath); src != "" {
		s.fatalf("metadatatest: Serve %q: the path is under the %s API (use Answer)", urlPath, src)
	}
	s.mu.Lock()
	s.files[urlPath] = file{status: status, contentType: contentType, body: body}
	s.mu.Unlock()
	return s.srv.URL + urlPath
}

// Received returns every request the server received, in order, with its
// headers.
func (s *Server) Received() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.requests))
	for i := range s.requests {
		out[i] = Request{URI: s.requests[i], Header: s.headers[i]}
	}
	return out
}

// Count returns how many requests had the URI uri (path and query as
// sent).
func (s *Server) Count(uri string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.requests {
		if r == uri {
			n++
		}
	}
	return n
}

// Requests returns the request URI (path and query as sent, with the
// source prefix) of every request the server received, in order.
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Unrecorded returns the request URIs that matched no recording and were
// answered 404 {"status":"not recorded"}, in order.
func (s *Server) Unrecorded() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.unrecorded)
}

// takeFault returns the fault for the next request to source and counts
// it down.
func (s *Server) takeFault(source string) Fault {
	st, ok := s.faults[source]
	if !ok {
		return NoFault
	}
	if st.left > 0 {
		st.left--
		if st.left == 0 {
			delete(s.faults, source)
		} else {
			s.faults[source] = st
		}
	}
	return st.fault
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	uri := r.URL.RequestURI()
	source, rest := splitSource(r.URL.Path)
	s.mu.Lock()
	s.requests = append(s.requests, uri)
	s.headers = append(s.headers, r.Header.Clone())
	fault := NoFault
	if source != "" {
		fault = s.takeFault(source)
	}
	var rec *recorded
	if source != "" {
		key := requestKey(source, rest, r.URL.RawQuery)
		if rec = s.answers[key]; rec == nil {
			rec = s.byKey[key]
		}
	}
	f, isFile := s.files[r.URL.Path]
	s.mu.Unlock()

	if source == "" && isFile {
		w.Header().Set("Content-Type", f.contentType)
		w.Header().Set("Content-Length", strconv.Itoa(len(f.body)))
		w.WriteHeader(f.status)
		w.Write(f.body)
		return
	}

	switch fault {
	case ServerError:
		http.Error(w, "Internal Server Error (metadatatest fault)", http.StatusInternalServerError)
		return
	case RateLimited:
		w.Header().Set("Retry-After", "1")
		http.Error(w, "Too Many Requests (metadatatest fault)", http.StatusTooManyRequests)
		return
	case Hang:
		timer := time.NewTimer(hangMax)
		defer timer.Stop()
		select {
		case <-r.Context().Done():
		case <-s.closed:
		case <-timer.C:
		}
		http.Error(w, "Gateway Timeout (metadatatest fault)", http.StatusGatewayTimeout)
		return
	case Truncated, Malformed:
		body, ct := standIn(source)
		if rec != nil {
			body, ct = rec.body, contentType(rec.rec)
		}
		half := body[:len(body)/2]
		w.Header().Set("Content-Type", ct)
		if fault == Truncated {
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		} else {
			w.Header().Set("Content-Length", strconv.Itoa(len(half)))
		}
		w.WriteHeader(http.StatusOK)
		w.Write(half)
		return
	}

	if rec == nil {
		s.mu.Lock()
		s.unrecorded = append(s.unrecorded, uri)
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, notRecorded)
		return
	}
	w.Header().Set("Content-Type", contentType(rec.rec))
	w.Header().Set("Content-Length", strconv.Itoa(len(rec.body)))
	w.WriteHeader(rec.rec.Status)
	w.Write(rec.body)
}

// splitSource splits "/openalex/works/..." into "openalex" and
// "/works/...". source is "" when the path has no known source prefix.
func splitSource(p string) (source, rest string) {
	first, rest, _ := strings.Cut(strings.TrimPrefix(p, "/"), "/")
	if !slices.Contains(Sources(), first) {
		return "", p
	}
	return first, "/" + rest
}

// contentType returns the Content-Type a recording is served with.
func contentType(r Recording) string {
	switch path.Ext(r.File) {
	case ".xml":
		if r.Source == metadata.SourceArxiv {
			return "application/atom+xml" // arXiv sends no charset
		}
		return "application/xml"
	case ".html":
		return "text/html; charset=utf-8"
	case ".txt":
		return "text/plain; charset=utf-8"
	}
	return "application/json"
}

// standIn returns a body for a Truncated or Malformed fault on a request
// that has no recording.
func standIn(source string) ([]byte, string) {
	if source == metadata.SourceArxiv {
		return []byte(`<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/abs/2301.00001v1</id><title>Stand-in</title></entry></feed>
`), "application/atom+xml"
	}
	return []byte(`{"status":"ok","message":{"DOI":"10.9999/stand-in","title":["Stand-in"]}}`), "application/json"
}

// FetchOptions returns fetch options for tests against a Server: no rate
// limits, one retry, millisecond backoff, Retry-After capped at 10 ms, and
// 5 s per attempt. Set Timeout lower for a Hang fault.
func FetchOptions() fetch.Options {
	return fetch.Options{
		UserAgent:     "crossmem-test (mailto:test@example.org)",
		Timeout:       5 * time.Second,
		RetryMax:      1,
		RetryWaitMin:  time.Millisecond,
		RetryWaitMax:  5 * time.Millisecond,
		RetryAfterMax: 10 * time.Millisecond,
		RateLimits:    map[string]fetch.RateLimit{},
	}
}
