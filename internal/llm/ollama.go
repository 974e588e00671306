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

	"github.com/crossmem/crossmem/internal/hint"
)

// ollamaClient speaks Ollama's native API.
type ollamaClient struct{ o Options }

// identifyTimeout bounds the server check.
const identifyTimeout = 5 * time.Second

// Identify reads GET /api/tags and finds the model (a name without a tag
// means ":latest", as Ollama reads it).
func (c *ollamaClient) Identify(ctx context.Context) (Model, error) {
	var tags struct {
		Models []struct {
			Name   string `json:"name"`
			Model  string `json:"model"`
			Digest string `json:"digest"`
		} `json:"models"`
	}
	switch status, err := getJSON(ctx, c.o, "/api/tags", &tags); {
	case status == 0:
		return Model{}, hint.Wrap(fmt.Errorf("%w: no Ollama server answers at %s", ErrUnavailable, c.o.URL),
			hint.Action{Kind: hint.StartOllama, URL: c.o.URL, What: c.o.Model})
	case status != http.StatusOK:
		return Model{}, fmt.Errorf("%w: %s/api/tags answered %d %s; is this an Ollama server?", ErrUnavailable, c.o.URL, status, http.StatusText(status))
	case err != nil:
		return Model{}, fmt.Errorf("%w: unreadable answer from %s/api/tags: %v", ErrUnavailable, c.o.URL, err)
	}
	want := c.o.Model
	if !strings.Contains(want, ":") {
		want += ":latest"
	}
	for _, m := range tags.Models {
		if m.Name == c.o.Model || m.Model == c.o.Model || m.Name == want || m.Model == want {
			return Model{Server: Ollama, Name: c.o.Model, Digest: strings.TrimPrefix(m.Digest, "sha256:")}, nil
		}
	}
	return Model{}, hint.Wrap(fmt.Errorf("%w: model %s is not installed on the Ollama server at %s", ErrUnavailable, c.o.Model, c.o.URL),
		hint.Action{Kind: hint.PullModel, What: c.o.Model})
}

// Slots is 0: Ollama does not say how many requests it runs at once
// (OLLAMA_NUM_PARALLEL, default 1).
func (c *ollamaClient) Slots(context.Context) int { return 0 }

// Annotate asks POST /api/chat with the answer schema as "format".
func (c *ollamaClient) Annotate(ctx context.Context, p Passage) (Annotation, error) {
	body, err := json.Marshal(map[string]any{
		"model": c.o.Model,
		"messages": []map[string]string{
			{"role": "system", "content": systemPrompt},
			{"role": "user", "content": userPrompt(p)},
		},
		"stream": false,
		"format": schema,
		"options": map[string]any{
			"temperature": c.o.Temperature,
			"seed":        seed(p.Attempt),
			"num_predict": maxTokens,
		},
	})
	if err != nil {
		return Annotation{}, err
	}
	op := "POST " + c.o.URL + "/api/chat"
	var out struct {
		Message struct {
			Content string `json:"content"`
		} `json:"message"`
		Done       bool   `json:"done"`
		DoneReason string `json:"done_reason"`
		Error      string `json:"error"`
	}
	if err := postJSON(ctx, c.o, op, c.o.URL+"/api/chat", body, &out, hint.Action{Kind: hint.PullModel, What: c.o.Model}); err != nil {
		return Annotation{}, err
	}
	switch {
	case out.Error != "":
		return Annotation{}, &Error{Op: op, Err: errors.New(out.Error), Retry: true}
	case !out.Done:
		// Ollama ends an answer early, without done, when the model
		// repeats one token 30 times.
		return Annotation{}, &Error{Op: op, Err: errors.New("the server stopped the answer before it was finished (Ollama does so when a model repeats itself)"), Retry: true}
	case out.DoneReason == "length":
		return Annotation{}, &Error{Op: op, Err: fmt.Errorf("the answer reached the limit of %d tokens before its JSON was complete", maxTokens), Retry: true}
	}
	a, err := parseAnswer(out.Message.Content)
	if err != nil {
		return Annotation{}, &Error{Op: op, Err: err, Retry: true}
	}
	return a, nil
}

// getJSON asks GET path of the server, within identifyTimeout, and
// decodes a 200 answer into out. It returns the HTTP status (0 when no
// answer came) and the decoding error.
func getJSON(ctx context.Context, o Options, path string, out any) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, identifyTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, o.URL+path, nil)
	if err != nil {
		return 0, err
	}
	if o.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+o.APIKey)
	}
	resp, err := o.HTTP.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, nil
	}
	return resp.StatusCode, json.NewDecoder(io.LimitReader(resp.Body, 4<<20)).Decode(out)
}

// postJSON posts body and decodes a 200 answer into out; every failure is
// an *Error classified for retrying. A 404 (how Ollama and OpenAI-
// compatible servers answer for a model they do not have) wraps
// ErrUnavailable and carries the hint missing.
func postJSON(ctx context.Context, o Options, op, url string, body []byte, out any, missing hint.Action) error {
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return &Error{Op: op, Err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	if o.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+o.APIKey)
	}
	resp, err := o.HTTP.Do(req)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			err = fmt.Errorf("no answer within %s", o.Timeout)
		}
		return &Error{Op: op, Err: err, Retry: !errors.Is(err, context.Canceled)}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		err := fmt.Errorf("%s: %s", resp.Status, strings.TrimSpace(string(msg)))
		if resp.StatusCode == http.StatusNotFound {
			err = hint.Wrap(fmt.Errorf("%w: %v (model %s)", ErrUnavailable, err, o.Model), missing)
		}
		return &Error{Op: op, Err: err, Status: resp.StatusCode, Retry: statusRetry(resp.StatusCode)}
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 4<<20)).Decode(out); err != nil {
		return &Error{Op: op, Err: fmt.Errorf("unreadable answer: %v", err), Status: resp.StatusCode, Retry: true}
	}
	return nil
}
