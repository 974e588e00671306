package llm

import (
	"errors"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/ollamatest"
)

// The real server (ollamatest): a pinned Ollama built from source, with a
// tiny generated model. Its answers are noise; what is tested is that
// they come back through the JSON schema, in both protocols, and are
// cleaned and bounded.
func TestRealServer(t *testing.T) {
	s := ollamatest.Start(t, ollamatest.Options{})
	s.ChatModel(t, "tiny", 1)
	s.EmbedModel(t, "tiny-embed", 1)

	for _, kind := range []string{Ollama, OpenAI} {
		t.Run(kind, func(t *testing.T) {
			c := mustNew(t, kind, Options{URL: s.URL, Model: "tiny", Temperature: 0.8})
			m, err := c.Identify(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if kind == Ollama && (m.Digest == "" || m.Digest != s.Digest(t, "tiny")) {
				t.Errorf("digest %q; the server says %q", m.Digest, s.Digest(t, "tiny"))
			}
			for i, p := range []Passage{passage, {Text: "Figure 2: Scaled Dot-Product Attention.", Type: "figure", Title: "Attention"}} {
				a, err := c.Annotate(t.Context(), p)
				if err != nil {
					t.Fatalf("passage %d: %v", i, err)
				}
				if a.Paraphrase == "" && a.Implication == "" {
					t.Errorf("passage %d: empty annotation", i)
				}
				for _, f := range []string{a.Paraphrase, a.Implication} {
					if f != Clean(f) || utf8.RuneCountInString(f) > MaxField {
						t.Errorf("passage %d: field not cleaned or too long: %q", i, f)
					}
				}
			}
		})
	}
	t.Run("model missing", func(t *testing.T) {
		_, err := mustNew(t, Ollama, Options{URL: s.URL, Model: "llama3.2:3b"}).Identify(t.Context())
		if a, _ := hint.Of(err); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "model llama3.2:3b is not installed") || a.Kind != hint.PullModel {
			t.Errorf("error = %v, hint %+v", err, a)
		}
	})
	t.Run("embed", func(t *testing.T) {
		e := NewEmbedder(s.Addr, "tiny-embed")
		if err := e.Check(t.Context()); err != nil {
			t.Fatal(err)
		}
		vs, err := e.Embed(t.Context(), []string{"scaled dot-product attention", "We call our particular attention Scaled Dot-Product Attention.", "The weather in Paris was rainy that spring."})
		if err != nil {
			t.Fatal(err)
		}
		if len(vs) != 3 || len(vs[0]) == 0 || len(vs[0]) != len(vs[2]) {
			t.Fatalf("vectors of lengths %d", len(vs))
		}
		cos := func(a, b []float32) float64 {
			var d, na, nb float64
			for i := range a {
				d += float64(a[i]) * float64(b[i])
				na += float64(a[i]) * float64(a[i])
				nb += float64(b[i]) * float64(b[i])
			}
			return d / (math.Sqrt(na) * math.Sqrt(nb))
		}
		if shared, unrelated := cos(vs[0], vs[1]), cos(vs[0], vs[2]); shared <= unrelated {
			t.Errorf("cosine to the text sharing words %.3f <= to the unrelated one %.3f", shared, unrelated)
		}
	})
}
