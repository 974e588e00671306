package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// DefaultEmbedModel is the embedding model used when [search] model is
// unset.
const DefaultEmbedModel = "nomic-embed-text"

// Embedder asks an Ollama server (POST /api/embed) for text embeddings,
// for the search index's vector lane. It implements index.Embedder.
type Embedder struct {
	Host       string // base URL
	EmbedModel string
	HTTP       *http.Client
}

// NewEmbedder returns an embedder for host ("" = DefaultHost) and model
// ("" = DefaultEmbedModel).
func NewEmbedder(host, model string) *Embedder {
	if host == "" {
		host = DefaultHost
	}
	if model == "" {
		model = DefaultEmbedModel
	}
	return &Embedder{Host: baseURL(host), EmbedModel: model, HTTP: &http.Client{Timeout: 2 * time.Minute}}
}

// Model returns the embedding model's name.
func (e *Embedder) Model() string { return e.EmbedModel }

// Check confirms that the server answers and has the model (see
// Client.Check).
func (e *Embedder) Check(ctx context.Context) error {
	c := &ollamaClient{o: Options{URL: e.Host, Model: e.EmbedModel, HTTP: e.HTTP}}
	_, err := c.Identify(ctx)
	return err
}

// Embed returns one vector per text. Errors name the server and say what
// to do (start Ollama, pull the model).
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	body, _ := json.Marshal(map[string]any{"model": e.EmbedModel, "input": texts})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.Host+"/api/embed", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := e.HTTP.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%w: no Ollama server answers at %s (start it with `ollama serve`)", ErrUnavailable, e.Host)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		hint := ""
		if resp.StatusCode == http.StatusNotFound {
			hint = fmt.Sprintf(" (run `ollama pull %s`)", e.EmbedModel)
		}
		return nil, fmt.Errorf("%w: %s/api/embed answered %s: %s%s", ErrUnavailable, e.Host, resp.Status, strings.TrimSpace(string(msg)), hint)
	}
	var out struct {
		Embeddings [][]float32 `json:"embeddings"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 256<<20)).Decode(&out); err != nil {
		return nil, fmt.Errorf("ollama embed: unreadable answer: %w", err)
	}
	if len(out.Embeddings) != len(texts) {
		return nil, fmt.Errorf("ollama embed: %d embeddings for %d texts", len(out.Embeddings), len(texts))
	}
	return out.Embeddings, nil
}
