package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/crossmem/crossmem/internal/hint"
)

// openaiClient speaks the OpenAI chat completions API as local servers
// implement it (llama.cpp's llama-server, LM Studio, vLLM, Ollama's /v1).
type openaiClient struct{ o Options }

// Identify reads GET /v1/models. A server that lists models must list
// this one; llama-server lists the one model it serves (and answers
// whatever name a request gives), so its listed id is the name to
// configure. OpenAI-compatible servers give no digest.
func (c *openaiClient) Identify(ctx context.Context) (Model, error) {
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	switch status, err := getJSON(ctx, c.o, "/v1/models", &list); {
	case status == 0:
		return Model{}, hint.Wrap(fmt.Errorf("%w: no OpenAI-compatible server answers at %s", ErrUnavailable, c.o.URL),
			hint.Action{Kind: hint.StartModelServer, URL: c.o.URL})
	case status != http.StatusOK:
		return Model{}, fmt.Errorf("%w: %s/v1/models answered %d %s; is this an OpenAI-compatible server (and is the API key right)?", ErrUnavailable, c.o.URL, status, http.StatusText(status))
	case err != nil:
		return Model{}, fmt.Errorf("%w: unreadable answer from %s/v1/models: %v", ErrUnavailable, c.o.URL, err)
	}
	var ids []string
	for _, m := range list.Data {
		if m.ID == c.o.Model || m.ID == c.o.Model+":latest" { // Ollama's /v1 lists tags
			return Model{Server: OpenAI, Name: c.o.Model}, nil
		}
		ids = append(ids, m.ID)
	}
	if len(ids) == 0 {
		return Model{Server: OpenAI, Name: c.o.Model}, nil
	}
	if len(ids) > 10 {
		ids = append(ids[:10], "…")
	}
	return Model{}, hint.Wrap(fmt.Errorf("%w: the server at %s does not serve model %s (it lists: %s)", ErrUnavailable, c.o.URL, c.o.Model, strings.Join(ids, ", ")),
		hint.Action{Kind: hint.ChooseModel})
}

// Slots reads llama-server's GET /props (total_slots); other servers do
// not have it and give 0.
func (c *openaiClient) Slots(ctx context.Context) int {
	var props struct {
		TotalSlots int `json:"total_slots"`
	}
	if status, err := getJSON(ctx, c.o, "/props", &props); status != http.StatusOK || err != nil {
		return 0
	}
	return max(props.TotalSlots, 0)
}

// Annotate asks POST /v1/chat/completions with a json_schema
// response_format.
func (c *openaiClient) Annotate(ctx context.Context, p Passage) (Annotation, error) {
	body, err := json.Marshal(map[string]any{
		"model": c.o.Model,
		"messages": []map[string]string{
			{"role": "system", "content": systemPrompt},
			{"role": "user", "content": userPrompt(p)},
		},
		"temperature": c.o.Temperature,
		"seed":        seed(p.Attempt),
		"max_tokens":  maxTokens,
		"stream":      false,
		"response_format": map[string]any{
			"type": "json_schema",
			"json_schema": map[string]any{
				"name":   "annotation",
				"strict": true,
				"schema": schema,
			},
		},
	})
	if err != nil {
		return Annotation{}, err
	}
	op := "POST " + c.o.URL + "/v1/chat/completions"
	var out struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
	}
	if err := postJSON(ctx, c.o, op, c.o.URL+"/v1/chat/completions", body, &out, hint.Action{Kind: hint.ChooseModel}); err != nil {
		return Annotation{}, err
	}
	if len(out.Choices) == 0 {
		return Annotation{}, &Error{Op: op, Err: errors.New("the answer has no choices"), Retry: true}
	}
	ch := out.Choices[0]
	if ch.FinishReason == "length" {
		return Annotation{}, &Error{Op: op, Err: fmt.Errorf("the answer reached the limit of %d tokens before its JSON was complete", maxTokens), Retry: true}
	}
	a, err := parseAnswer(ch.Message.Content)
	if err != nil {
		return Annotation{}, &Error{Op: op, Err: err, Retry: true}
	}
	return a, nil
}
