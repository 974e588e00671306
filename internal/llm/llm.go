// Package llm asks a local language model server for the advisory
// paraphrase and implication of one passage, and for text embeddings.
//
// Two kinds of server are spoken to: Ollama's native API (POST /api/chat
// with a JSON schema as "format"; the model's digest from GET /api/tags)
// and OpenAI-compatible servers (POST /v1/chat/completions with a
// json_schema response_format: llama.cpp's llama-server, LM Studio, vLLM,
// and Ollama's own /v1). The schema bounds each field's length.
//
// The model only ever writes those two fields. It is given the passage to
// read, but nothing it returns is used as quoted text, metadata, a hash or
// provenance (the seed's LLM contract); answers are cleaned to one line of
// valid UTF-8 without control characters before anyone sees them.
//
// A Client makes one request per call with the timeout it was given;
// retries, backoff and the circuit breaker belong to the caller
// (internal/enrich). Errors say whether a retry could help (Retryable).
package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode"
)

// Defaults used when the configuration leaves them empty.
const (
	DefaultHost  = "http://127.0.0.1:11434"
	DefaultModel = "llama3.2:3b"
	// DefaultTimeout bounds one answer: a 3B model on two CPU cores takes
	// about 20 s per passage, several times that when requests share the
	// cores.
	DefaultTimeout = 5 * time.Minute
)

// Server kinds.
const (
	Ollama = "ollama" // Ollama's native API
	OpenAI = "openai" // an OpenAI-compatible /v1/chat/completions server
)

// PromptVersion identifies the prompt and schema below. Answers are stored
// per prompt version: changing either must change it, and a changed
// version asks the model again.
const PromptVersion = 1

// MaxField is the longest paraphrase or implication kept, in characters
// (the schema asks for at most this; longer answers are cut at a word).
const MaxField = 400

// maxTokens bounds one answer's length in tokens. Two fields of MaxField
// characters need about 250 tokens with a real model's vocabulary; a
// byte-level vocabulary (the tests' tiny model) needs one per byte, up to
// four per character.
const maxTokens = 2048

// ErrUnavailable wraps errors meaning no answer can come from this server
// and model: nothing listens at the address, or the model is not there.
// Its message says what to do (`ollama serve`, `ollama pull <model>`).
var ErrUnavailable = errors.New("language model server unavailable")

// Model identifies the model that wrote an answer.
type Model struct {
	Server string `json:"server"` // Ollama or OpenAI
	Name   string `json:"model"`  // as the server names it, e.g. "llama3.2:3b"
	// Digest is the server's digest of the model's files (Ollama's
	// manifest digest, hex); "" when the server does not tell (OpenAI-
	// compatible servers), in which case only the name identifies it.
	Digest string `json:"digest"`
}

// Passage is what the model is asked about.
type Passage struct {
	Text    string // the chunk's verbatim text
	Type    string // chunk type: "paragraph", "list_item", "figure" (its caption) or "caption" (a table's or a listing's)
	Title   string // the paper's title
	Section string // the section heading, "" when none
	// Attempt is 0 for the first request and counts retries; it varies
	// the sampling seed so that a retry of an answer that failed at a
	// temperature above zero is not the same answer again.
	Attempt int
}

// Annotation is the model's advisory output for one passage: one line
// each, at most MaxField characters, at least one of them non-empty.
type Annotation struct {
	Paraphrase  string `json:"paraphrase"`
	Implication string `json:"implication"`
}

// Client asks one model on one server. Implementations are safe for
// concurrent use.
type Client interface {
	// Identify checks that the server answers and has the model, and
	// returns the model's identity. Errors wrap ErrUnavailable.
	Identify(ctx context.Context) (Model, error)
	// Annotate asks for the paraphrase and implication of p. Errors are
	// *Error values.
	Annotate(ctx context.Context, p Passage) (Annotation, error)
	// Slots is how many requests the server says it runs at once (0 when
	// it does not say).
	Slots(ctx context.Context) int
}

// Options configures a Client.
type Options struct {
	// URL is the server's base URL (or host:port). "" means DefaultHost
	// for Ollama; an OpenAI-compatible server has no default.
	URL string
	// Model is the model's name ("" means DefaultModel).
	Model string
	// APIKey, when set, is sent as a bearer token (OpenAI-compatible
	// servers that want one).
	APIKey string
	// Timeout bounds one request (0 means DefaultTimeout).
	Timeout time.Duration
	// Temperature is the sampling temperature (0: the most likely token
	// each time).
	Temperature float64
	// HTTP is the client to use (nil: a new one).
	HTTP *http.Client
}

// New returns a client for the server kind (Ollama or OpenAI). An unknown
// kind or a missing OpenAI URL is an error.
func New(kind string, o Options) (Client, error) {
	if o.Model == "" {
		o.Model = DefaultModel
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.HTTP == nil {
		o.HTTP = &http.Client{}
	}
	switch kind {
	case Ollama, "":
		if o.URL == "" {
			o.URL = DefaultHost
		}
		o.URL = baseURL(o.URL)
		return &ollamaClient{o: o}, nil
	case OpenAI:
		if o.URL == "" {
			return nil, errors.New(`an OpenAI-compatible server needs its URL ([llm] url, e.g. "http://127.0.0.1:8080" for llama-server)`)
		}
		o.URL = strings.TrimSuffix(baseURL(o.URL), "/v1")
		return &openaiClient{o: o}, nil
	}
	return nil, fmt.Errorf("unknown language model server kind %q: use %q or %q", kind, Ollama, OpenAI)
}

// baseURL adds http:// to a bare host:port and drops a trailing slash.
func baseURL(u string) string {
	if !strings.Contains(u, "://") {
		u = "http://" + u
	}
	return strings.TrimRight(u, "/")
}

// Error is a failed Annotate.
type Error struct {
	Op  string // what was asked, e.g. "POST http://127.0.0.1:11434/api/chat"
	Err error
	// Status is the HTTP status (0 when no answer came).
	Status int
	// Retry is true when asking again may succeed: no connection, a
	// timeout, a 5xx or 429, an answer cut short or not in the requested
	// JSON shape.
	Retry bool
}

func (e *Error) Error() string { return e.Op + ": " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Retryable reports whether err is worth retrying (see Error.Retry).
// Context cancellation is not.
func Retryable(err error) bool {
	if errors.Is(err, context.Canceled) {
		return false
	}
	var e *Error
	return errors.As(err, &e) && e.Retry
}

// statusRetry says whether an HTTP status is worth retrying.
func statusRetry(code int) bool {
	return code == http.StatusTooManyRequests || code == http.StatusRequestTimeout || code >= 500
}

const systemPrompt = `You annotate passages of research papers for a researcher's notes. Answer with JSON only, of the form {"paraphrase": "...", "implication": "..."}. The paraphrase restates the passage in one or two sentences of your own words. The implication says in one or two sentences why the passage matters to its field. Never copy sentences from the passage and never use quotation marks around its words.`

// userPrompt renders the request for p.
func userPrompt(p Passage) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Paper: %s\n", oneLine(p.Title))
	if p.Section != "" {
		fmt.Fprintf(&b, "Section: %s\n", oneLine(p.Section))
	}
	switch p.Type {
	case "figure", "table":
		fmt.Fprintf(&b, "This is the caption of a %s; you see the caption only, not the %s itself. Base both fields on the caption alone.\n", p.Type, p.Type)
	case "caption":
		b.WriteString("This is the caption of a table or a listing; you see the caption only, not the table or listing itself. Base both fields on the caption alone.\n")
	case "list_item":
		b.WriteString("This is one item of a list.\n")
	}
	b.WriteString("Passage:\n\"\"\"\n")
	b.WriteString(p.Text)
	b.WriteString("\n\"\"\"")
	return b.String()
}

// schema is the JSON schema of an answer: both fields required, bounded.
var schema = json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{"paraphrase":{"type":"string","minLength":1,"maxLength":%d},"implication":{"type":"string","minLength":1,"maxLength":%d}},"required":["paraphrase","implication"],"additionalProperties":false}`, MaxField, MaxField))

// seed is the sampling seed of attempt n (fixed, so answers repeat).
func seed(attempt int) int { return 42 + attempt }

// parseAnswer reads the model's JSON answer and cleans it.
func parseAnswer(content string) (Annotation, error) {
	var a Annotation
	if err := json.Unmarshal([]byte(strings.TrimSpace(content)), &a); err != nil {
		return Annotation{}, fmt.Errorf("the model did not answer with the requested JSON (%v)", err)
	}
	a.Paraphrase, a.Implication = Clean(a.Paraphrase), Clean(a.Implication)
	if a.Paraphrase == "" && a.Implication == "" {
		return Annotation{}, errors.New("the model answered with an empty paraphrase and implication")
	}
	return a, nil
}

// Clean makes model output safe to put on one line of a note: valid
// UTF-8, control and format characters dropped, white space collapsed to
// single spaces, at most MaxField characters (cut at a word, with "…").
func Clean(s string) string {
	s = strings.ToValidUTF8(s, "")
	s = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsSpace(r):
			return ' '
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), r == unicode.ReplacementChar:
			return -1
		}
		return r
	}, s)
	s = oneLine(s)
	if r := []rune(s); len(r) > MaxField {
		cut := string(r[:MaxField-1])
		if i := strings.LastIndexByte(cut, ' '); i > MaxField/2 {
			cut = cut[:i]
		}
		s = strings.TrimSpace(cut) + "…"
	}
	return s
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
