package llm

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// fakeOllama serves /api/tags with models and /api/generate with reply
// (the "response" string the model produced), recording generate requests.
type fakeOllama struct {
	srv      *httptest.Server
	models   []string
	reply    string
	status   int // for /api/generate; 0 means 200
	mu       sync.Mutex
	requests []map[string]any
}

func newFakeOllama(t *testing.T, models ...string) *fakeOllama {
	t.Helper()
	f := &fakeOllama{models: models}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/tags":
			if r.Method != http.MethodGet {
				t.Errorf("tags: method %s", r.Method)
			}
			type model struct {
				Name  string `json:"name"`
				Model string `json:"model"`
			}
			var ms []model
			for _, m := range f.models {
				ms = append(ms, model{Name: m, Model: m})
			}
			json.NewEncoder(w).Encode(map[string]any{"models": ms})
		case "/api/generate":
			var req map[string]any
			body, _ := io.ReadAll(r.Body)
			if err := json.Unmarshal(body, &req); err != nil {
				t.Errorf("generate request is not JSON: %v", err)
			}
			f.mu.Lock()
			f.requests = append(f.requests, req)
			f.mu.Unlock()
			if f.status != 0 {
				http.Error(w, `{"error":"model crashed"}`, f.status)
				return
			}
			json.NewEncoder(w).Encode(map[string]any{"model": req["model"], "response": f.reply, "done": true})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func TestNew(t *testing.T) {
	for _, tc := range []struct{ host, model, wantHost, wantModel string }{
		{"", "", DefaultHost, DefaultModel},
		{"127.0.0.1:11500", "mistral", "http://127.0.0.1:11500", "mistral"},
		{"http://gpu-box:11434/", "", "http://gpu-box:11434", DefaultModel},
		{"https://ollama.example.org", "qwen2.5:7b", "https://ollama.example.org", "qwen2.5:7b"},
	} {
		c := New(tc.host, tc.model)
		if c.Host != tc.wantHost || c.Model != tc.wantModel {
			t.Errorf("New(%q, %q) = %s %s; want %s %s", tc.host, tc.model, c.Host, c.Model, tc.wantHost, tc.wantModel)
		}
	}
}

func TestCheck(t *testing.T) {
	t.Run("ok", func(t *testing.T) {
		f := newFakeOllama(t, "mistral:latest", "llama3.2:3b")
		if err := New(f.srv.URL, "llama3.2:3b").Check(t.Context()); err != nil {
			t.Errorf("Check: %v", err)
		}
		// "mistral" is "mistral:latest".
		if err := New(f.srv.URL, "mistral").Check(t.Context()); err != nil {
			t.Errorf("Check(mistral): %v", err)
		}
		// Host without scheme, as OLLAMA_HOST is often written.
		if err := New(strings.TrimPrefix(f.srv.URL, "http://"), "llama3.2:3b").Check(t.Context()); err != nil {
			t.Errorf("Check without scheme: %v", err)
		}
	})
	t.Run("model missing", func(t *testing.T) {
		f := newFakeOllama(t, "mistral:latest")
		err := New(f.srv.URL, "llama3.2:3b").Check(t.Context())
		if !errors.Is(err, ErrUnavailable) {
			t.Fatalf("error = %v; want ErrUnavailable", err)
		}
		for _, want := range []string{"model llama3.2:3b is not installed", "ollama pull llama3.2:3b", f.srv.URL} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not contain %q", err, want)
			}
		}
	})
	t.Run("server down", func(t *testing.T) {
		f := newFakeOllama(t)
		url := f.srv.URL
		f.srv.Close()
		err := New(url, "").Check(t.Context())
		if !errors.Is(err, ErrUnavailable) {
			t.Fatalf("error = %v; want ErrUnavailable", err)
		}
		for _, want := range []string{"no Ollama server answers at " + url, "ollama serve"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not contain %q", err, want)
			}
		}
	})
	t.Run("not ollama", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/api/tags" {
				io.WriteString(w, "<html>hello</html>")
				return
			}
			http.NotFound(w, r)
		}))
		defer srv.Close()
		err := New(srv.URL, "").Check(t.Context())
		if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "unreadable answer") {
			t.Errorf("error = %v", err)
		}
		srv404 := httptest.NewServer(http.NotFoundHandler())
		defer srv404.Close()
		err = New(srv404.URL, "").Check(t.Context())
		if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "404") {
			t.Errorf("error = %v", err)
		}
	})
}

func TestAnnotate(t *testing.T) {
	f := newFakeOllama(t, "llama3.2:3b")
	f.reply = `{"paraphrase": "  The model  attends\nto all positions. ", "implication": "It removes recurrence."}`
	c := New(f.srv.URL, "llama3.2:3b")
	text := "An attention function can be described as mapping a query and a set of key-value pairs to an output."
	a, err := c.Annotate(t.Context(), text, Context{Title: "Attention Is All You Need", Section: "3.2 Attention"})
	if err != nil {
		t.Fatal(err)
	}
	want := Annotation{Paraphrase: "The model attends to all positions.", Implication: "It removes recurrence."}
	if a != want {
		t.Errorf("annotation = %+v; want %+v", a, want)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.requests) != 1 {
		t.Fatalf("%d generate requests", len(f.requests))
	}
	req := f.requests[0]
	if req["model"] != "llama3.2:3b" || req["stream"] != false || req["format"] != "json" {
		t.Errorf("request = %v", req)
	}
	prompt, _ := req["prompt"].(string)
	for _, want := range []string{text, "Attention Is All You Need", "3.2 Attention"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("prompt does not contain %q:\n%s", want, prompt)
		}
	}
}

func TestAnnotateErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		reply  string
		status int
		want   string
	}{
		{"not JSON", "The passage says that attention is useful.", 0, "did not answer with the requested JSON"},
		{"truncated JSON", `{"paraphrase": "half`, 0, "did not answer with the requested JSON"},
		{"empty fields", `{"paraphrase": " ", "implication": ""}`, 0, "empty paraphrase and implication"},
		{"server error", "", http.StatusInternalServerError, "500"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeOllama(t, "llama3.2:3b")
			f.reply, f.status = tc.reply, tc.status
			a, err := New(f.srv.URL, "").Annotate(t.Context(), "Some text.", Context{})
			if err == nil {
				t.Fatalf("no error; annotation %+v", a)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
			if a != (Annotation{}) {
				t.Errorf("annotation on error = %+v", a)
			}
		})
	}
	t.Run("server down", func(t *testing.T) {
		f := newFakeOllama(t)
		url := f.srv.URL
		f.srv.Close()
		if _, err := New(url, "").Annotate(t.Context(), "x", Context{}); err == nil {
			t.Error("no error with the server down")
		}
	})
}
