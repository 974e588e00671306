package llm

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/crossmem/crossmem/internal/hint"
)

// fakeServer answers the Ollama and OpenAI endpoints with canned answers,
// recording the answer requests. It stands in for failures a real server
// cannot be made to produce on demand (a 500, a cut answer, hostile
// text); the real server is tested in real_test.go.
type fakeServer struct {
	srv      *httptest.Server
	models   []string
	content  string // the model's answer text
	status   int    // for answer requests; 0 means 200
	notDone  bool   // Ollama: done false (the repeat limit)
	finish   string // OpenAI finish_reason ("" = "stop")
	slots    int    // /props total_slots; 0 = no /props
	mu       sync.Mutex
	requests []map[string]any
	auth     []string
}

func newFake(t *testing.T, models ...string) *fakeServer {
	t.Helper()
	f := &fakeServer{models: models}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.auth = append(f.auth, r.Header.Get("Authorization"))
		f.mu.Unlock()
		record := func() map[string]any {
			var req map[string]any
			body, _ := io.ReadAll(r.Body)
			if err := json.Unmarshal(body, &req); err != nil {
				t.Errorf("request is not JSON: %v", err)
			}
			f.mu.Lock()
			f.requests = append(f.requests, req)
			f.mu.Unlock()
			return req
		}
		switch r.URL.Path {
		case "/api/tags":
			var ms []map[string]string
			for _, m := range f.models {
				ms = append(ms, map[string]string{"name": m, "model": m, "digest": "d1g3st" + m})
			}
			json.NewEncoder(w).Encode(map[string]any{"models": ms})
		case "/v1/models":
			var ms []map[string]string
			for _, m := range f.models {
				ms = append(ms, map[string]string{"id": m})
			}
			json.NewEncoder(w).Encode(map[string]any{"data": ms})
		case "/props":
			if f.slots == 0 {
				http.NotFound(w, r)
				return
			}
			json.NewEncoder(w).Encode(map[string]any{"total_slots": f.slots})
		case "/api/chat":
			req := record()
			if f.status != 0 {
				http.Error(w, `{"error":"model crashed"}`, f.status)
				return
			}
			json.NewEncoder(w).Encode(map[string]any{"model": req["model"], "message": map[string]string{"role": "assistant", "content": f.content}, "done": !f.notDone, "done_reason": "stop"})
		case "/v1/chat/completions":
			record()
			if f.status != 0 {
				http.Error(w, `{"error":"model crashed"}`, f.status)
				return
			}
			fin := f.finish
			if fin == "" {
				fin = "stop"
			}
			json.NewEncoder(w).Encode(map[string]any{"choices": []map[string]any{{"message": map[string]string{"role": "assistant", "content": f.content}, "finish_reason": fin}}})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeServer) lastRequest(t *testing.T) map[string]any {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.requests) == 0 {
		t.Fatal("no answer request")
	}
	return f.requests[len(f.requests)-1]
}

func mustNew(t *testing.T, kind string, o Options) Client {
	t.Helper()
	c, err := New(kind, o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestNew(t *testing.T) {
	for _, tc := range []struct {
		kind, url, wantURL string
	}{
		{Ollama, "", DefaultHost},
		{Ollama, "127.0.0.1:11500", "http://127.0.0.1:11500"},
		{Ollama, "http://gpu-box:11434/", "http://gpu-box:11434"},
		{"", "https://ollama.example.org", "https://ollama.example.org"},
		{OpenAI, "127.0.0.1:8080", "http://127.0.0.1:8080"},
		{OpenAI, "http://127.0.0.1:1234/v1/", "http://127.0.0.1:1234"},
	} {
		c, err := New(tc.kind, Options{URL: tc.url})
		if err != nil {
			t.Fatalf("New(%q, %q): %v", tc.kind, tc.url, err)
		}
		var got Options
		switch c := c.(type) {
		case *ollamaClient:
			got = c.o
		case *openaiClient:
			got = c.o
		}
		if got.URL != tc.wantURL || got.Model != DefaultModel || got.Timeout != DefaultTimeout {
			t.Errorf("New(%q, %q) = %+v; want URL %s", tc.kind, tc.url, got, tc.wantURL)
		}
	}
	if _, err := New(OpenAI, Options{}); err == nil || !strings.Contains(err.Error(), "[llm] url") {
		t.Errorf("OpenAI without URL: %v", err)
	}
	if _, err := New("gpt", Options{}); err == nil || !strings.Contains(err.Error(), `"ollama" or "openai"`) {
		t.Errorf("unknown kind: %v", err)
	}
}

func TestIdentify(t *testing.T) {
	t.Run("ollama", func(t *testing.T) {
		f := newFake(t, "mistral:latest", "llama3.2:3b")
		m, err := mustNew(t, Ollama, Options{URL: f.srv.URL, Model: "llama3.2:3b"}).Identify(t.Context())
		if err != nil || m != (Model{Server: Ollama, Name: "llama3.2:3b", Digest: "d1g3stllama3.2:3b"}) {
			t.Errorf("Identify = %+v, %v", m, err)
		}
		// "mistral" is "mistral:latest"; OLLAMA_HOST is often host:port.
		m, err = mustNew(t, Ollama, Options{URL: strings.TrimPrefix(f.srv.URL, "http://"), Model: "mistral"}).Identify(t.Context())
		if err != nil || m.Name != "mistral" || m.Digest != "d1g3stmistral:latest" {
			t.Errorf("Identify(mistral) = %+v, %v", m, err)
		}
	})
	t.Run("ollama model missing", func(t *testing.T) {
		f := newFake(t, "mistral:latest")
		_, err := mustNew(t, Ollama, Options{URL: f.srv.URL}).Identify(t.Context())
		if !errors.Is(err, ErrUnavailable) {
			t.Fatalf("error = %v; want ErrUnavailable", err)
		}
		for _, want := range []string{"model llama3.2:3b is not installed", f.srv.URL} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not contain %q", err, want)
			}
		}
		if a, _ := hint.Of(err); a != (hint.Action{Kind: hint.PullModel, What: "llama3.2:3b"}) {
			t.Errorf("hint %+v", a)
		}
	})
	t.Run("no server", func(t *testing.T) {
		f := newFake(t)
		url := f.srv.URL
		f.srv.Close()
		_, err := mustNew(t, Ollama, Options{URL: url}).Identify(t.Context())
		if !errors.Is(err, ErrUnavailable) {
			t.Fatalf("error = %v; want ErrUnavailable", err)
		}
		if !strings.Contains(err.Error(), "no Ollama server answers at "+url) {
			t.Errorf("error %q", err)
		}
		if a, _ := hint.Of(err); a != (hint.Action{Kind: hint.StartOllama, URL: url, What: "llama3.2:3b"}) {
			t.Errorf("hint %+v", a)
		}
		_, err = mustNew(t, OpenAI, Options{URL: url}).Identify(t.Context())
		if a, _ := hint.Of(err); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "no OpenAI-compatible server answers at "+url) || a.Kind != hint.StartModelServer {
			t.Errorf("openai: %v, hint %+v", err, a)
		}
	})
	t.Run("not a model server", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "<html>hello</html>")
		}))
		defer srv.Close()
		for _, kind := range []string{Ollama, OpenAI} {
			_, err := mustNew(t, kind, Options{URL: srv.URL}).Identify(t.Context())
			if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "unreadable answer") {
				t.Errorf("%s: %v", kind, err)
			}
		}
	})
	t.Run("openai", func(t *testing.T) {
		f := newFake(t, "qwen2.5-7b-instruct", "llama-3.2-3b")
		m, err := mustNew(t, OpenAI, Options{URL: f.srv.URL, Model: "llama-3.2-3b", APIKey: "k3y"}).Identify(t.Context())
		if err != nil || m != (Model{Server: OpenAI, Name: "llama-3.2-3b"}) {
			t.Errorf("Identify = %+v, %v", m, err)
		}
		if f.auth[len(f.auth)-1] != "Bearer k3y" {
			t.Errorf("Authorization = %q", f.auth[len(f.auth)-1])
		}
		_, err = mustNew(t, OpenAI, Options{URL: f.srv.URL, Model: "gpt-4"}).Identify(t.Context())
		if a, _ := hint.Of(err); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "it lists: qwen2.5-7b-instruct, llama-3.2-3b") || a.Kind != hint.ChooseModel {
			t.Errorf("unknown model: %v, hint %+v", err, a)
		}
	})
}

func TestSlots(t *testing.T) {
	f := newFake(t, "m")
	if n := mustNew(t, OpenAI, Options{URL: f.srv.URL}).Slots(t.Context()); n != 0 {
		t.Errorf("no /props: %d slots", n)
	}
	f.slots = 4
	if n := mustNew(t, OpenAI, Options{URL: f.srv.URL}).Slots(t.Context()); n != 4 {
		t.Errorf("llama-server with 4 slots: %d", n)
	}
	if n := mustNew(t, Ollama, Options{URL: f.srv.URL}).Slots(t.Context()); n != 0 {
		t.Errorf("ollama: %d", n)
	}
}

var passage = Passage{
	Text:    "An attention function can be described as mapping a query and a set of key-value pairs to an output.",
	Type:    "paragraph",
	Title:   "Attention Is All You Need",
	Section: "3.2 Attention",
}

func TestAnnotateRequests(t *testing.T) {
	for _, kind := range []string{Ollama, OpenAI} {
		t.Run(kind, func(t *testing.T) {
			f := newFake(t, "m")
			f.content = `{"paraphrase": "  The model  attends\nto all positions. ", "implication": "It removes recurrence."}`
			c := mustNew(t, kind, Options{URL: f.srv.URL, Model: "m", Temperature: 0.3})
			a, err := c.Annotate(t.Context(), passage)
			if err != nil {
				t.Fatal(err)
			}
			want := Annotation{Paraphrase: "The model attends to all positions.", Implication: "It removes recurrence."}
			if a != want {
				t.Errorf("annotation = %+v; want %+v", a, want)
			}
			req := f.lastRequest(t)
			var format any
			var user string
			if msgs, ok := req["messages"].([]any); ok && len(msgs) == 2 {
				user, _ = msgs[1].(map[string]any)["content"].(string)
			} else {
				t.Fatalf("messages = %v", req["messages"])
			}
			switch kind {
			case Ollama:
				format = req["format"]
				opts, _ := req["options"].(map[string]any)
				if opts["temperature"] != 0.3 || opts["seed"] != float64(42) || req["stream"] != false {
					t.Errorf("request = %v", req)
				}
			case OpenAI:
				rf, _ := req["response_format"].(map[string]any)
				js, _ := rf["json_schema"].(map[string]any)
				format = js["schema"]
				if rf["type"] != "json_schema" || req["temperature"] != 0.3 {
					t.Errorf("request = %v", req)
				}
			}
			// The schema requires both fields and bounds them.
			b, _ := json.Marshal(format)
			for _, want := range []string{`"required":["paraphrase","implication"]`, `"maxLength":400`} {
				if !strings.Contains(string(b), want) {
					t.Errorf("schema %s lacks %s", b, want)
				}
			}
			for _, want := range []string{passage.Text, passage.Title, passage.Section} {
				if !strings.Contains(user, want) {
					t.Errorf("prompt does not contain %q:\n%s", want, user)
				}
			}
		})
	}
}

func TestCaptionPrompt(t *testing.T) {
	p := userPrompt(Passage{Text: "Figure 1: The Transformer - model architecture.", Type: "figure", Title: "T"})
	if !strings.Contains(p, "caption of a figure") || !strings.Contains(p, "caption alone") {
		t.Errorf("figure prompt does not say it is a caption only:\n%s", p)
	}
	if strings.Contains(userPrompt(passage), "caption") {
		t.Errorf("paragraph prompt mentions a caption")
	}
}

func TestAnnotateErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		kind    string
		content string
		status  int
		notDone bool
		finish  string
		want    string
		retry   bool
		unavail bool
	}{
		{"not JSON", Ollama, "The passage says that attention is useful.", 0, false, "", "did not answer with the requested JSON", true, false},
		{"truncated JSON", OpenAI, `{"paraphrase": "half`, 0, false, "", "did not answer with the requested JSON", true, false},
		{"empty fields", Ollama, `{"paraphrase": " ", "implication": "\u0000"}`, 0, false, "", "empty paraphrase and implication", true, false},
		{"server error", Ollama, "", http.StatusInternalServerError, false, "", "500", true, false},
		{"busy", OpenAI, "", http.StatusTooManyRequests, false, "", "429", true, false},
		{"model missing", Ollama, "", http.StatusNotFound, false, "", "404 Not Found", false, true},
		{"model missing openai", OpenAI, "", http.StatusNotFound, false, "", "(model m)", false, true},
		{"bad request", OpenAI, "", http.StatusBadRequest, false, "", "400", false, false},
		{"repeat limit", Ollama, `{"paraphrase": "aaaa`, 0, true, "", "stopped the answer before it was finished", true, false},
		{"length", OpenAI, `{"paraphrase": "aaaa`, 0, false, "length", "limit of 2048 tokens", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, "m")
			f.content, f.status, f.notDone, f.finish = tc.content, tc.status, tc.notDone, tc.finish
			a, err := mustNew(t, tc.kind, Options{URL: f.srv.URL, Model: "m"}).Annotate(t.Context(), passage)
			if err == nil {
				t.Fatalf("no error; annotation %+v", a)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
			if Retryable(err) != tc.retry {
				t.Errorf("Retryable(%v) = %v", err, !tc.retry)
			}
			if errors.Is(err, ErrUnavailable) != tc.unavail {
				t.Errorf("errors.Is(%v, ErrUnavailable) = %v", err, !tc.unavail)
			}
			if a, ok := hint.Of(err); ok != tc.unavail || tc.unavail && a.Kind != map[string]hint.Kind{Ollama: hint.PullModel, OpenAI: hint.ChooseModel}[tc.kind] {
				t.Errorf("hint %+v for %v", a, err)
			}
		})
	}
	t.Run("no server", func(t *testing.T) {
		f := newFake(t)
		url := f.srv.URL
		f.srv.Close()
		_, err := mustNew(t, Ollama, Options{URL: url}).Annotate(t.Context(), passage)
		if err == nil || !Retryable(err) {
			t.Errorf("server down: %v (retryable %v)", err, Retryable(err))
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		f := newFake(t, "m")
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		_, err := mustNew(t, Ollama, Options{URL: f.srv.URL}).Annotate(ctx, passage)
		if err == nil || Retryable(err) {
			t.Errorf("cancelled: %v (retryable %v)", err, Retryable(err))
		}
	})
}

// A model's answer can hold anything; what reaches a note is one line of
// plain text, whatever the answer tried.
func TestHostileAnswer(t *testing.T) {
	f := newFake(t, "m")
	hostile := "ok\n> We fabricate this quote.\n<!-- chunk id=p1s0c1 type=paragraph -->\n```yaml\ntext_sha256: \"00\"\n---\ncite_key: evil\x1b[31m\u202e\x00\xff"
	b, _ := json.Marshal(map[string]string{"paraphrase": hostile, "implication": strings.Repeat("long words ", 100)})
	f.content = string(b)
	a, err := mustNew(t, Ollama, Options{URL: f.srv.URL, Model: "m"}).Annotate(t.Context(), passage)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{a.Paraphrase, a.Implication} {
		if strings.ContainsAny(s, "\n\r\x00\x1b\u202e\ufffd") || !utf8.ValidString(s) {
			t.Errorf("cleaned field still has line breaks, control or format characters: %q", s)
		}
		if n := utf8.RuneCountInString(s); n > MaxField {
			t.Errorf("field of %d characters; at most %d", n, MaxField)
		}
	}
	if want := "ok > We fabricate this quote. <!-- chunk id=p1s0c1 type=paragraph --> ```yaml text_sha256: \"00\" --- cite_key: evil[31m"; a.Paraphrase != want {
		t.Errorf("paraphrase = %q\nwant        %q", a.Paraphrase, want)
	}
	if !strings.HasSuffix(a.Implication, "words…") {
		t.Errorf("long implication not cut at a word with an ellipsis: %q", a.Implication)
	}
}

func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		"":                           "",
		"  a\tb\n\nc  ":              "a b c",
		"zero\u200bwidth":            "zerowidth",
		"bad \xff\xfe utf8":          "bad utf8",
		"é ü 中文":                     "é ü 中文",
		strings.Repeat("x", 500):     strings.Repeat("x", MaxField-1) + "…",
		"\u2028line\u2029separators": "line separators",
	} {
		if got := Clean(in); got != want {
			t.Errorf("Clean(%q) = %q; want %q", in, got, want)
		}
	}
}
