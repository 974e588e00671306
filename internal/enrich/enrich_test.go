package enrich

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/index"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/llm"
	"github.com/crossmem/crossmem/internal/note"
	"github.com/crossmem/crossmem/internal/search"
	"github.com/crossmem/crossmem/internal/verify"
)

// These tests run the stage against an HTTP server that answers like
// Ollama (the boundary: a real server cannot be made to fail, hang or
// answer hostile text on demand). real_test.go runs it against a real
// Ollama.

// testChunks are a paper's chunks, one of each kind.
var testChunks = []struct{ typ, text string }{
	{chunk.TypePageHeader, "Published as a conference paper at ICLR 2024"},
	{chunk.TypeHeading, "1 Introduction"},
	{chunk.TypeParagraph, "Recurrent neural networks have been firmly established as state of the art approaches in sequence modeling."},
	{chunk.TypeParagraph, "Attention mechanisms have become an integral part of compelling sequence modeling and transduction models."},
	{chunk.TypeListItem, "• We propose a new simple network architecture based solely on attention mechanisms."},
	{chunk.TypeFigure, "Figure 1: The Transformer - model architecture."},
	{chunk.TypeCaption, "Table 1: Maximum path lengths, per-layer complexity and minimum number of sequential operations."},
	{chunk.TypeReference, "[1] Jimmy Lei Ba, Jamie Ryan Kiros, and Geoffrey E Hinton. Layer normalization. arXiv preprint, 2016."},
	{chunk.TypeEquation, "Attention(Q, K, V) = softmax(QK^T / sqrt(d_k)) V"},
	{chunk.TypeCode, "for i in range(n): x = attn(x)"},
	{chunk.TypeParagraph, "Recurrent neural networks have been firmly established as state of the art approaches in sequence modeling."}, // a repeated text is asked once
	{chunk.TypeFootnote, "1 Work performed while at Google Brain."},
	{chunk.TypeTableText, "Self-Attention O(n^2 d) O(1) O(1)"},
	{chunk.TypeFigureText, "Multi-Head Attention Add & Norm Feed Forward"},
	{chunk.TypeMarginNote, "arXiv:1706.03762v7 [cs.CL] 2 Aug 2023"},
	{chunk.TypePageFooter, "3"},
}

// eligibleTexts is how many distinct texts of testChunks are asked about.
const eligibleTexts = 5

type fixture struct {
	lib   *library.Library
	ix    *index.Index
	paper *library.Paper
	note  []byte // the note as compiled
}

// newFixture writes a library with one compiled paper of testChunks (and
// extra paragraphs) and opens its index.
func newFixture(t *testing.T, extra ...string) *fixture {
	t.Helper()
	lib, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p, err := lib.NewPaper("vaswani2017attention", 1700000000)
	if err != nil {
		t.Fatal(err)
	}
	p.Sidecar = library.Sidecar{CiteKey: p.CiteKey, Title: "Attention Is All You Need", CapturedAt: "1700000000"}
	if err := lib.WriteSidecar(p); err != nil {
		t.Fatal(err)
	}
	n := &note.Note{Front: note.Frontmatter{CiteKey: p.CiteKey, Title: "Attention Is All You Need", Authors: []string{"Ashish Vaswani"},
		Year: 2017, CapturedAt: "1700000000", Parser: note.Parser, Pages: 1, WikiFormat: note.FormatVersion,
		Meta: note.Meta{Sources: []string{"arxiv"}}},
		Citations: []note.Citation{{Style: "APA", Text: "Vaswani, A. (2017). Attention is all you need."}}}
	add := func(typ, text string) {
		k := len(n.Chunks) + 1
		n.Chunks = append(n.Chunks, chunk.Chunk{ID: fmt.Sprintf("p1s0c%d", k), Type: typ, Text: text, Page: 1, Section: "1 Introduction",
			BBox: [4]float64{72, float64(700 - 20*k), 520, float64(715 - 20*k)}, TextSHA256: chunk.Hash(text), ByteRange: [2]int{k, k + len(text)}})
	}
	for _, c := range testChunks {
		add(c.typ, c.text)
	}
	for _, e := range extra {
		add(chunk.TypeParagraph, e)
	}
	n.Front.Chunks = len(n.Chunks)
	data, err := note.Format(n)
	if err != nil {
		t.Fatal(err)
	}
	if err := library.WriteFileAtomic(p.NotePath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ix, err := index.Open(filepath.Join(lib.Home, index.FileName), lib.WikiDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	if _, err := ix.Sync(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	return &fixture{lib: lib, ix: ix, paper: p, note: data}
}

func (f *fixture) readNote(t *testing.T) *note.Note {
	t.Helper()
	data, err := os.ReadFile(f.paper.NotePath)
	if err != nil {
		t.Fatal(err)
	}
	n, err := note.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// fake answers /api/tags and /api/chat; answer decides each chat request.
type fake struct {
	srv      *httptest.Server
	calls    atomic.Int64
	inFlight atomic.Int64
	maxIn    atomic.Int64
	answer   func(n int64, passage string) (status int, content string)
}

// echo answers with a paraphrase naming the passage's first words.
func echo(_ int64, passage string) (int, string) {
	b, _ := json.Marshal(map[string]string{"paraphrase": "About: " + firstWords(passage, 4), "implication": "It matters."})
	return 200, string(b)
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	return strings.Join(f[:min(n, len(f))], " ")
}

func newFake(t *testing.T, answer func(int64, string) (int, string)) *fake {
	t.Helper()
	f := &fake{answer: answer}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/tags":
			json.NewEncoder(w).Encode(map[string]any{"models": []map[string]string{{"name": "m:latest", "digest": "d1"}}})
		case "/api/chat":
			n := f.calls.Add(1)
			in := f.inFlight.Add(1)
			defer f.inFlight.Add(-1)
			for {
				m := f.maxIn.Load()
				if in <= m || f.maxIn.CompareAndSwap(m, in) {
					break
				}
			}
			var req struct {
				Messages []struct{ Content string } `json:"messages"`
			}
			json.NewDecoder(r.Body).Decode(&req)
			user := req.Messages[len(req.Messages)-1].Content
			passage := user[strings.Index(user, `"""`)+4 : strings.LastIndex(user, `"""`)-1]
			status, content := f.answer(n, passage)
			if status != 200 {
				http.Error(w, `{"error":"failed"}`, status)
				return
			}
			json.NewEncoder(w).Encode(map[string]any{"message": map[string]string{"role": "assistant", "content": content}, "done": true, "done_reason": "stop"})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fixture) options(t *testing.T, fk *fake, model llm.Model) Options {
	t.Helper()
	c, err := llm.New(llm.Ollama, llm.Options{URL: fk.srv.URL, Model: "m", Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return Options{Lib: f.lib, Store: f.ix, Client: c, Model: model, Concurrency: 2, Backoff: time.Millisecond}
}

var modelA = llm.Model{Server: llm.Ollama, Name: "m", Digest: "d1"}

func TestRunAnnotatesOnlyWhatDeservesIt(t *testing.T) {
	f := newFixture(t)
	fk := newFake(t, echo)
	res, err := Run(t.Context(), []*library.Paper{f.paper}, f.options(t, fk, modelA))
	if err != nil {
		t.Fatal(err)
	}
	if res.Texts != eligibleTexts || res.Asked != eligibleTexts || res.Answered != eligibleTexts || res.Failed != 0 || fk.calls.Load() != eligibleTexts {
		t.Errorf("result %+v, %d calls; want %d texts asked and answered once each", res, fk.calls.Load(), eligibleTexts)
	}
	n := f.readNote(t)
	if got := res.Papers[0]; got.Eligible != eligibleTexts+1 || got.Annotated != eligibleTexts+1 || got.Skipped != "" {
		t.Errorf("paper result %+v", got)
	}
	for _, c := range n.Chunks {
		has := c.Paraphrase != "" || c.Implication != ""
		if has != Annotatable(c.Type) {
			t.Errorf("chunk %s (%s): annotated %v", c.ID, c.Type, has)
		}
		if has && c.Paraphrase != "About: "+firstWords(c.Text, 4) {
			t.Errorf("chunk %s has the answer about another text: %q", c.ID, c.Paraphrase)
		}
	}
	want := &note.Advisory{Server: "ollama", Model: "m", ModelDigest: "d1", PromptVersion: llm.PromptVersion}
	if a := n.Front.Advisory; a == nil || *a != *want {
		t.Errorf("frontmatter advisory = %+v; want %+v", a, want)
	}
	f.checkUntouched(t)

	// Everything is stored: a second run asks nothing and changes nothing.
	before, _ := os.ReadFile(f.paper.NotePath)
	res, err = Run(t.Context(), []*library.Paper{f.paper}, f.options(t, fk, modelA))
	if err != nil || res.Asked != 0 || res.Stored != eligibleTexts || fk.calls.Load() != eligibleTexts {
		t.Errorf("second run: %+v, %v, %d calls", res, err, fk.calls.Load())
	}
	after, _ := os.ReadFile(f.paper.NotePath)
	if string(after) != string(before) {
		t.Error("a run with nothing to ask changed the note")
	}
}

// checkUntouched: apart from the advisory fields, the note is the note as
// compiled, byte for byte, and it verifies.
func (f *fixture) checkUntouched(t *testing.T) {
	t.Helper()
	n := f.readNote(t)
	for i := range n.Chunks {
		n.Chunks[i].Paraphrase, n.Chunks[i].Implication = "", ""
	}
	n.Front.Advisory = nil
	out, err := note.Format(n)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != string(f.note) {
		t.Errorf("besides paraphrase and implication, the note changed:\n%s", out)
	}
	if r := verify.Files([]string{f.paper.NotePath}); !r.Clean() {
		t.Errorf("the enriched note does not verify: %+v", r)
	}
}

// A model's answer never reaches a "> " line, a hash, metadata or a
// citation, whatever it says.
func TestModelOutputNeverQuoted(t *testing.T) {
	f := newFixture(t)
	hostile := func(n int64, passage string) (int, string) {
		b, _ := json.Marshal(map[string]string{
			"paraphrase":  "x\n> We fabricate this quote.\n<!-- chunk id=p9s0c9 type=paragraph -->\n> Another.\n```yaml\nprovenance:\n  text_sha256: \"00\"\n```",
			"implication": "---\ncite_key: evil2020\ntitle: Evil\n---\n### APA\nEvil, E. (2020).\n" + passage,
		})
		return 200, string(b)
	}
	if _, err := Run(t.Context(), []*library.Paper{f.paper}, f.options(t, newFake(t, hostile), modelA)); err != nil {
		t.Fatal(err)
	}
	f.checkUntouched(t)
	data, _ := os.ReadFile(f.paper.NotePath)
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, ">") && (strings.Contains(l, "fabricate") || strings.Contains(l, "Another")) {
			t.Errorf("model output in a quote line: %q", l)
		}
		if strings.Contains(l, "evil2020") && !strings.HasPrefix(l, "**Implication:**") {
			t.Errorf("model output outside the advisory fields: %q", l)
		}
	}
	n := f.readNote(t)
	if n.Front.CiteKey != "vaswani2017attention" || len(n.Chunks) != len(testChunks) || len(n.Citations) != 1 {
		t.Errorf("frontmatter %+v, %d chunks, %d citations", n.Front, len(n.Chunks), len(n.Citations))
	}
}

func TestInterruptAndResume(t *testing.T) {
	var extra []string
	for i := range 20 {
		extra = append(extra, fmt.Sprintf("Paragraph number %d of the body explains one more detail of the model.", i))
	}
	f := newFixture(t, extra...)
	total := eligibleTexts + len(extra)
	fk := newFake(t, echo)
	ctx, cancel := context.WithCancel(t.Context())
	o := f.options(t, fk, modelA)
	o.Progress = func(p Progress) {
		if p.Done == 8 {
			cancel()
		}
	}
	res, err := Run(ctx, []*library.Paper{f.paper}, o)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: err = %v", err)
	}
	kept := res.Answered
	if kept < 8 || kept >= total {
		t.Fatalf("interrupted run kept %d answers of %d", kept, total)
	}
	stored, _ := f.ix.CountAnnotations(t.Context())
	if stored != kept {
		t.Errorf("store holds %d answers; the run reports %d", stored, kept)
	}
	// The note was rewritten at the end of the interrupted run.
	if got := f.countAnnotatedTexts(t); got != kept {
		t.Errorf("note has answers for %d texts after the interruption; %d were stored", got, kept)
	}
	callsBefore := fk.calls.Load()

	o.Progress = nil
	res, err = Run(t.Context(), []*library.Paper{f.paper}, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Stored != kept || res.Asked != total-kept || fk.calls.Load()-callsBefore != int64(total-kept) {
		t.Errorf("rerun: stored %d, asked %d, %d calls; want %d, %d, %d", res.Stored, res.Asked, fk.calls.Load()-callsBefore, kept, total-kept, total-kept)
	}
	if got := f.countAnnotatedTexts(t); got != total {
		t.Errorf("note has answers for %d texts; want %d", got, total)
	}
	t.Logf("interrupted after %d of %d answers; the rerun asked %d", kept, total, res.Asked)
}

func (f *fixture) countAnnotatedTexts(t *testing.T) int {
	t.Helper()
	seen := map[string]bool{}
	for _, c := range f.readNote(t).Chunks {
		if c.Paraphrase != "" {
			seen[c.TextSHA256] = true
		}
	}
	return len(seen)
}

func TestModelChangeAsksAgain(t *testing.T) {
	f := newFixture(t)
	fk := newFake(t, echo)
	if _, err := Run(t.Context(), []*library.Paper{f.paper}, f.options(t, fk, modelA)); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		model llm.Model
		asks  int
	}{
		{"new digest", llm.Model{Server: llm.Ollama, Name: "m", Digest: "d2"}, eligibleTexts},
		{"other model", llm.Model{Server: llm.Ollama, Name: "other", Digest: "d1"}, eligibleTexts},
		{"back to the first", modelA, 0},
	} {
		before := fk.calls.Load()
		res, err := Run(t.Context(), []*library.Paper{f.paper}, f.options(t, fk, tc.model))
		if err != nil {
			t.Fatal(err)
		}
		if got := fk.calls.Load() - before; got != int64(tc.asks) || res.Asked != tc.asks {
			t.Errorf("%s: %d calls, asked %d; want %d", tc.name, got, res.Asked, tc.asks)
		}
		if a := f.readNote(t).Front.Advisory; a == nil || a.Model != tc.model.Name || a.ModelDigest != tc.model.Digest {
			t.Errorf("%s: note's advisory = %+v", tc.name, a)
		}
	}
}

func TestRetriesAndBreaker(t *testing.T) {
	t.Run("transient failures are retried", func(t *testing.T) {
		f := newFixture(t)
		var mu sync.Mutex
		seen := map[string]int{}
		fk := newFake(t, func(n int64, passage string) (int, string) {
			mu.Lock()
			seen[passage]++
			k := seen[passage]
			mu.Unlock()
			if k <= 2 {
				return http.StatusServiceUnavailable, ""
			}
			return echo(n, passage)
		})
		res, err := Run(t.Context(), []*library.Paper{f.paper}, f.options(t, fk, modelA))
		if err != nil {
			t.Fatal(err)
		}
		if res.Answered != eligibleTexts || res.Requests != 3*eligibleTexts {
			t.Errorf("answered %d with %d requests; want %d with %d", res.Answered, res.Requests, eligibleTexts, 3*eligibleTexts)
		}
	})
	t.Run("a failing model trips the breaker", func(t *testing.T) {
		var extra []string
		for i := range 30 {
			extra = append(extra, fmt.Sprintf("Filler paragraph %d.", i))
		}
		f := newFixture(t, extra...)
		fk := newFake(t, func(int64, string) (int, string) { return http.StatusInternalServerError, "" })
		o := f.options(t, fk, modelA)
		o.BreakAfter, o.Retries = 4, 2
		res, err := Run(t.Context(), []*library.Paper{f.paper}, o)
		var be *BreakerError
		if a, _ := hint.Of(err); !errors.As(err, &be) || !errors.Is(err, ErrBreaker) || be.Failures != 4 || !strings.Contains(err.Error(), "500") || a.Kind != hint.EnrichAgain {
			t.Fatalf("err = %v, hint %+v", err, a)
		}
		// At most the breaker's chunks and those in flight, each with its
		// retries.
		if limit := int64((o.BreakAfter + o.Concurrency) * (o.Retries + 1)); fk.calls.Load() > limit {
			t.Errorf("%d requests to a failing model; at most %d expected", fk.calls.Load(), limit)
		}
		if res.Failed < 4 || res.Answered != 0 {
			t.Errorf("result %+v", res)
		}
		if string(mustRead(t, f.paper.NotePath)) != string(f.note) {
			t.Error("a run without answers changed the note")
		}
	})
	t.Run("a missing model stops at once", func(t *testing.T) {
		f := newFixture(t)
		fk := newFake(t, func(int64, string) (int, string) { return http.StatusNotFound, "" })
		o := f.options(t, fk, modelA)
		o.Concurrency = 1
		_, err := Run(t.Context(), []*library.Paper{f.paper}, o)
		if a, _ := hint.Of(err); !errors.Is(err, ErrBreaker) || !errors.Is(err, llm.ErrUnavailable) || a.Kind != hint.PullModel || a.What != "m" {
			t.Fatalf("err = %v, hint %+v", err, a)
		}
		if fk.calls.Load() != 1 {
			t.Errorf("%d requests for a model that is not there; want 1", fk.calls.Load())
		}
	})
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestConcurrencyBound(t *testing.T) {
	var extra []string
	for i := range 24 {
		extra = append(extra, fmt.Sprintf("Body paragraph %d with its own words.", i))
	}
	f := newFixture(t, extra...)
	for _, n := range []int{1, 4} {
		fk := newFake(t, func(k int64, p string) (int, string) {
			time.Sleep(20 * time.Millisecond)
			return echo(k, p)
		})
		o := f.options(t, fk, llm.Model{Server: llm.Ollama, Name: "m", Digest: fmt.Sprint("c", n)})
		o.Concurrency = n
		if _, err := Run(t.Context(), []*library.Paper{f.paper}, o); err != nil {
			t.Fatal(err)
		}
		if got := fk.maxIn.Load(); got != int64(n) {
			t.Errorf("concurrency %d: at most %d requests were open at once", n, got)
		}
	}
}

// The notes are rewritten while answers arrive, not only at the end.
func TestPeriodicRewrite(t *testing.T) {
	f := newFixture(t)
	release := make(chan struct{})
	fk := newFake(t, func(n int64, p string) (int, string) {
		if n == eligibleTexts {
			<-release // the last answer waits until the note shows the others
		}
		return echo(n, p)
	})
	o := f.options(t, fk, modelA)
	o.Concurrency, o.FlushEvery = 1, 20*time.Millisecond
	done := make(chan error, 1)
	go func() {
		_, err := Run(t.Context(), []*library.Paper{f.paper}, o)
		done <- err
	}()
	deadline := time.Now().Add(10 * time.Second)
	for f.countAnnotatedTexts(t) < eligibleTexts-1 {
		if time.Now().After(deadline) {
			close(release)
			t.Fatalf("the note shows %d answers while the last is pending; want %d", f.countAnnotatedTexts(t), eligibleTexts-1)
		}
		time.Sleep(10 * time.Millisecond)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := f.countAnnotatedTexts(t); got != eligibleTexts {
		t.Errorf("%d texts annotated at the end", got)
	}
}

func TestEditedNoteLeftAlone(t *testing.T) {
	f := newFixture(t)
	edited := strings.Replace(string(f.note), "> Attention mechanisms have become", "> Attention mechanisms became", 1)
	if err := os.WriteFile(f.paper.NotePath, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	fk := newFake(t, echo)
	res, err := Run(t.Context(), []*library.Paper{f.paper}, f.options(t, fk, modelA))
	if err != nil {
		t.Fatal(err)
	}
	if p := res.Papers[0]; !strings.Contains(p.Skipped, "edited by hand") || p.Next.Kind != hint.RestoreNote || p.Next.Key != "vaswani2017attention" || fk.calls.Load() != 0 {
		t.Errorf("skipped %q after %d calls", res.Papers[0].Skipped, fk.calls.Load())
	}
	if string(mustRead(t, f.paper.NotePath)) != edited {
		t.Error("an edited note was rewritten")
	}
}

// A paraphrase is searchable: a word found only there finds the chunk,
// flagged as an advisory match, with the verbatim text as its excerpt.
func TestAdvisorySearch(t *testing.T) {
	f := newFixture(t)
	fk := newFake(t, func(n int64, p string) (int, string) {
		b, _ := json.Marshal(map[string]string{"paraphrase": "Zorblatt restates: " + firstWords(p, 3), "implication": "It matters."})
		if strings.HasPrefix(p, "Attention mechanisms") {
			return 200, string(b)
		}
		return echo(n, p)
	})
	if _, err := Run(t.Context(), []*library.Paper{f.paper}, f.options(t, fk, modelA)); err != nil {
		t.Fatal(err)
	}
	res, err := f.ix.Search(t.Context(), search.Query{Text: "zorblatt", Explain: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 1 {
		t.Fatalf("%d hits for a word only a paraphrase has: %+v", len(res.Hits), res.Hits)
	}
	h := res.Hits[0]
	if !h.AdvisoryMatch || h.Advisory == nil || !strings.Contains(h.Advisory.Paraphrase, "Zorblatt") ||
		!strings.HasPrefix(h.Excerpt, "Attention mechanisms have become") || h.Explain.AdvisoryRank != 1 || h.Explain.BM25Rank != 0 {
		t.Errorf("hit = %+v, explain %+v", h, h.Explain)
	}
}
