package enrich

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/llm"
	"github.com/crossmem/crossmem/internal/ollamatest"
)

// The stage against a real Ollama (ollamatest: built from source, with a
// tiny generated model whose answers are noise). Requests are counted by
// a proxy in front of the server, outside the code under test.
func TestRealOllama(t *testing.T) {
	s := ollamatest.Start(t, ollamatest.Options{NumParallel: 4})
	s.ChatModel(t, "tiny", 1)
	proxy := s.Proxy(t)
	client, err := llm.New(llm.Ollama, llm.Options{URL: proxy.URL, Model: "tiny", Temperature: 0.8, Timeout: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	identify := func() llm.Model {
		m, err := client.Identify(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	var extra []string
	for i := range 16 {
		extra = append(extra, fmt.Sprintf("Paragraph %d: the encoder maps an input sequence of symbol representations to a sequence of continuous representations.", i))
	}
	f := newFixture(t, extra...)
	total := eligibleTexts + len(extra)
	opts := func(m llm.Model, n int) Options {
		return Options{Lib: f.lib, Store: f.ix, Client: client, Model: m, Concurrency: n, Backoff: 100 * time.Millisecond}
	}
	m1 := identify()
	if m1.Digest != s.Digest(t, "tiny") {
		t.Fatalf("model %+v; the server's digest is %s", m1, s.Digest(t, "tiny"))
	}

	t.Run("interrupted and resumed", func(t *testing.T) {
		proxy.Reset()
		ctx, cancel := context.WithCancel(t.Context())
		o := opts(m1, 2)
		o.Progress = func(p Progress) {
			if p.Done >= total/2 {
				cancel()
			}
		}
		res, err := Run(ctx, []*library.Paper{f.paper}, o)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v (first error %s)", err, res.FirstError)
		}
		kept, calls := res.Answered, proxy.Calls()
		if stored, _ := f.ix.CountAnnotations(t.Context()); stored != kept || kept < total/2 || kept >= total {
			t.Fatalf("%d answers kept of %d, %d stored", kept, total, stored)
		}
		if got := f.countAnnotatedTexts(t); got != kept {
			t.Errorf("the note shows %d answered texts; %d were kept", got, kept)
		}
		proxy.Reset()
		res, err = Run(t.Context(), []*library.Paper{f.paper}, opts(m1, 2))
		if err != nil {
			t.Fatalf("resume: %v", err)
		}
		if res.Asked != total-kept || res.Answered != total-kept || proxy.Calls() != int64(res.Requests) || res.Requests < total-kept {
			t.Errorf("resume asked %d, answered %d with %d requests (%d at the proxy); want %d", res.Asked, res.Answered, res.Requests, proxy.Calls(), total-kept)
		}
		t.Logf("interrupted run: %d of %d answers kept after %d requests; the rerun asked %d (%d requests; retried: %s)", kept, total, calls, res.Asked, res.Requests, res.RetryReason)
		if got := f.countAnnotatedTexts(t); got != total {
			t.Errorf("the note shows %d answered texts; want %d", got, total)
		}
		f.checkUntouched(t)
		n := f.readNote(t)
		for _, c := range n.Chunks {
			if (c.Paraphrase != "" || c.Implication != "") != (Annotatable(c.Type) && c.Text != "") {
				t.Errorf("chunk %s (%s): annotated %v", c.ID, c.Type, c.Paraphrase != "")
			}
		}
		if a := n.Front.Advisory; a == nil || a.Model != "tiny" || a.ModelDigest != m1.Digest || a.Server != "ollama" {
			t.Errorf("note's advisory = %+v", a)
		}
	})

	t.Run("parallel", func(t *testing.T) {
		proxy.Reset()
		// Another prompt key (same model under another digest string)
		// makes every text new.
		m := m1
		m.Digest += "-parallel"
		res, err := Run(t.Context(), []*library.Paper{f.paper}, opts(m, 4))
		if err != nil {
			t.Fatal(err)
		}
		if res.Answered != total || proxy.MaxInFlight() != 4 {
			t.Errorf("answered %d of %d; at most %d requests open at once, want 4", res.Answered, total, proxy.MaxInFlight())
		}
	})

	t.Run("model change asks again", func(t *testing.T) {
		s.ChatModel(t, "tiny", 2) // the same name, other weights
		m2 := identify()
		if m2.Digest == m1.Digest {
			t.Fatalf("re-created model kept digest %s", m2.Digest)
		}
		proxy.Reset()
		res, err := Run(t.Context(), []*library.Paper{f.paper}, opts(m2, 2))
		if err != nil {
			t.Fatal(err)
		}
		if res.Asked != total || res.Stored != 0 || res.Answered != total {
			t.Errorf("after the model changed: asked %d, stored %d, answered %d; want %d, 0, %d", res.Asked, res.Stored, res.Answered, total, total)
		}
		if a := f.readNote(t).Front.Advisory; a == nil || a.ModelDigest != m2.Digest {
			t.Errorf("note's advisory = %+v; want digest %s", a, m2.Digest)
		}
	})
}
