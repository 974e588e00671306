// Package llm asks a local Ollama server for the advisory paraphrase and
// implication of a chunk.
//
// The model only ever writes those two fields. It is given the chunk text
// to read, but nothing it returns is used as quoted text, metadata or
// provenance (the seed's LLM contract).
package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// DefaultHost and DefaultModel are used when OLLAMA_HOST and
// CROSSMEM_OLLAMA_MODEL are unset.
const (
	DefaultHost  = "http://127.0.0.1:11434"
	DefaultModel = "llama3.2:3b"
)

// ErrUnavailable is returned by Check when no Ollama server answers or the
// model is not installed.
var ErrUnavailable = errors.New("ollama unavailable")

// Client talks to one Ollama server. It is safe for concurrent use.
type Client struct {
	Host  string // base URL, e.g. http://127.0.0.1:11434
	Model string
	HTTP  *http.Client
}

// New returns a client for host (an URL or host:port; "" means
// DefaultHost) and model ("" means DefaultModel).
func New(host, model string) *Client {
	if host == "" {
		host = DefaultHost
	}
	if !strings.Contains(host, "://") {
		host = "http://" + host
	}
	if model == "" {
		model = DefaultModel
	}
	return &Client{Host: strings.TrimRight(host, "/"), Model: model, HTTP: &http.Client{Timeout: 2 * time.Minute}}
}

// Check confirms that the server answers and has the model. It returns an
// error wrapping ErrUnavailable that says what to do otherwise.
func (c *Client) Check(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.Host+"/api/tags", nil)
	if err != nil {
		return fmt.Errorf("%w: bad OLLAMA_HOST %q: %v", ErrUnavailable, c.Host, err)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return fmt.Errorf("%w: no Ollama server answers at %s (start it with `ollama serve`)", ErrUnavailable, c.Host)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%w: %s/api/tags answered %s", ErrUnavailable, c.Host, resp.Status)
	}
	var tags struct {
		Models []struct {
			Name  string `json:"name"`
			Model string `json:"model"`
		} `json:"models"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&tags); err != nil {
		return fmt.Errorf("%w: unreadable answer from %s/api/tags: %v", ErrUnavailable, c.Host, err)
	}
	for _, m := range tags.Models {
		if m.Name == c.Model || m.Model == c.Model || m.Name == c.Model+":latest" {
			return nil
		}
	}
	return fmt.Errorf("%w: model %s is not installed on %s (run `ollama pull %s`)", ErrUnavailable, c.Model, c.Host, c.Model)
}

// Context tells the model where a chunk comes from.
type Context struct {
	Title   string
	Section string
}

// Annotation is the model's advisory output for one chunk.
type Annotation struct {
	Paraphrase  string `json:"paraphrase"`
	Implication string `json:"implication"`
}

const prompt = `You annotate one passage of a research paper for a researcher's notes.
Paper: %s
Section: %s
Passage:
"""
%s
"""
Reply with JSON only: {"paraphrase": "<1-2 sentences restating the passage in your own words>", "implication": "<1-2 sentences on why it matters to the field>"}. Do not quote the passage.`

// Annotate asks the model for a paraphrase and implication of text.
func (c *Client) Annotate(ctx context.Context, text string, in Context) (Annotation, error) {
	body, _ := json.Marshal(map[string]any{
		"model":   c.Model,
		"prompt":  fmt.Sprintf(prompt, in.Title, in.Section, text),
		"stream":  false,
		"format":  "json",
		"options": map[string]any{"temperature": 0},
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Host+"/api/generate", bytes.NewReader(body))
	if err != nil {
		return Annotation{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return Annotation{}, fmt.Errorf("ollama generate: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return Annotation{}, fmt.Errorf("ollama generate: %s: %s", resp.Status, strings.TrimSpace(string(msg)))
	}
	var out struct {
		Response string `json:"response"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&out); err != nil {
		return Annotation{}, fmt.Errorf("ollama generate: unreadable answer: %w", err)
	}
	var a Annotation
	if err := json.Unmarshal([]byte(out.Response), &a); err != nil {
		return Annotation{}, fmt.Errorf("ollama generate: model did not answer with the requested JSON: %w", err)
	}
	a.Paraphrase = strings.Join(strings.Fields(a.Paraphrase), " ")
	a.Implication = strings.Join(strings.Fields(a.Implication), " ")
	if a.Paraphrase == "" && a.Implication == "" {
		return Annotation{}, errors.New("ollama generate: empty paraphrase and implication")
	}
	return a, nil
}
