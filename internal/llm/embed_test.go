package llm

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestEmbed(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/embed" || r.Method != http.MethodPost {
			http.NotFound(w, r)
			return
		}
		var in struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		if in.Model != "nomic-embed-text" {
			http.Error(w, `{"error":"model not found"}`, 404)
			return
		}
		out := map[string]any{"embeddings": [][]float32{}}
		var vecs [][]float32
		for _, s := range in.Input {
			vecs = append(vecs, []float32{float32(len(s)), 1, 0})
		}
		out["embeddings"] = vecs
		json.NewEncoder(w).Encode(out)
	}))
	defer srv.Close()
	e := NewEmbedder(srv.URL, "")
	vs, err := e.Embed(t.Context(), []string{"ab", "abcd"})
	if err != nil || len(vs) != 2 || vs[1][0] != 4 {
		t.Fatalf("Embed = %v, %v", vs, err)
	}
	e.EmbedModel = "other"
	if _, err := e.Embed(t.Context(), []string{"x"}); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "ollama pull other") {
		t.Errorf("unknown model: %v", err)
	}
	srv.Close()
	if _, err := e.Embed(t.Context(), []string{"x"}); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "ollama serve") {
		t.Errorf("no server: %v", err)
	}
}
