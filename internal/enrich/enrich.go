// Package enrich is the stage that asks a language model for the advisory
// paraphrase and implication of a compiled paper's chunks and writes them
// into its wiki note.
//
// It is resumable: each answer is stored as it arrives (Store, the index
// database), keyed by the chunk's text_sha256, the model, the model's
// digest and the prompt version, and notes are rewritten from the store,
// atomically and under the library lock, every FlushEvery and at the end,
// interrupted or not. An interruption loses at most the answers in
// flight; a rerun asks only for the texts the store has no answer for.
// Unchanged text is never asked again; another model, digest or prompt
// version is asked anew (its answers are stored beside the others).
//
// Only paragraphs, list items and figure and table captions are asked
// about (Annotatable); headings, running heads and page numbers,
// footnotes, references, equations, code and the text inside tables and
// figures never are. The model writes nothing but
// the two advisory fields: chunk text, hashes, provenance, metadata and
// citations are read from the note and written back unchanged, and a
// note whose chunk text no longer matches its text_sha256 (edited by
// hand) is left alone.
//
// Requests run Concurrency at a time, each with the client's timeout;
// one that fails in a way a retry can help (llm.Retryable) is retried
// with exponential backoff; BreakAfter chunks failing in a row, or an
// error that says the model is not there, stop the run (ErrBreaker).
//
// The package never prints: progress goes to a callback.
package enrich

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"time"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/index"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/llm"
	"github.com/crossmem/crossmem/internal/note"
)

// Defaults for Options' zero values.
const (
	DefaultRetries    = 3
	DefaultBackoff    = 2 * time.Second
	MaxBackoff        = 30 * time.Second
	DefaultBreakAfter = 5
	DefaultFlushEvery = 30 * time.Second
	// finalFlushTimeout bounds the rewrite of the notes after the run
	// ended (also after an interruption).
	finalFlushTimeout = 2 * time.Minute
)

// Annotatable reports whether chunks of type typ are asked about:
// paragraphs, list items, and captions — a figure chunk's text is its
// caption, a caption chunk a table's or a listing's (the implication
// comes from the caption alone, the seed's LLM contract). Headings,
// footnotes, references, page furniture, equations, code, tables (their
// cells), the text inside figures and any other type are not; nor is a
// figure without a caption (its text is empty: readNote's callers skip
// chunks without text).
func Annotatable(typ string) bool {
	switch typ {
	case chunk.TypeParagraph, chunk.TypeListItem, chunk.TypeFigure, chunk.TypeCaption:
		return true
	}
	return false
}

// Store keeps the answers and is told when a note changed; index.Index
// implements it.
type Store interface {
	Annotations(ctx context.Context, m index.AnnotationModel, shas []string) (map[string]index.Annotation, error)
	PutAnnotation(ctx context.Context, m index.AnnotationModel, sha string, a index.Annotation) error
	UpdateNote(ctx context.Context, path string) error
}

// ErrBreaker is returned (wrapped in a *BreakerError) when the run
// stopped because the model kept failing or is not there.
var ErrBreaker = errors.New("stopped asking the language model")

// BreakerError says why the circuit breaker stopped the run.
type BreakerError struct {
	Failures int   // chunks that failed in a row
	Last     error // the last failure
}

func (e *BreakerError) Error() string {
	if e.Failures <= 1 {
		return fmt.Sprintf("%v: %v", ErrBreaker, e.Last)
	}
	return fmt.Sprintf("%v after %d chunks failed in a row; the last error: %v", ErrBreaker, e.Failures, e.Last)
}

func (e *BreakerError) Unwrap() []error { return []error{ErrBreaker, e.Last} }

// Hint is the last failure's hint (e.g. pull the model), or to run the
// stage again.
func (e *BreakerError) Hint() hint.Action {
	if a, ok := hint.Of(e.Last); ok {
		return a
	}
	return hint.Action{Kind: hint.EnrichAgain}
}

// Options configures Run.
type Options struct {
	Lib    *library.Library
	Store  Store
	Client llm.Client
	// Model is the model the client asks, from Client.Identify (the
	// caller identifies it first, so that a missing server is reported
	// before any work).
	Model llm.Model
	// Concurrency is how many requests are open at once (at least 1).
	Concurrency int
	// Retries is how many times a chunk is asked again after a failure a
	// retry can help (0: DefaultRetries; negative: none).
	Retries int
	// Backoff is the wait before the first retry, doubled for each next
	// one up to MaxBackoff, with ±25 % jitter (0: DefaultBackoff).
	Backoff time.Duration
	// BreakAfter is how many chunks failing in a row stop the run (0:
	// DefaultBreakAfter).
	BreakAfter int
	// FlushEvery is how often the notes are rewritten from the store
	// while answers arrive (0: DefaultFlushEvery).
	FlushEvery time.Duration
	// Progress, when set, is called after each chunk is answered or has
	// failed, from one goroutine at a time.
	Progress func(Progress)
}

// Progress is the state of a run.
type Progress struct {
	Done, Failed, Total int           // chunk texts answered, failed and to ask in all
	Elapsed             time.Duration // since the first request
	// ETA is the expected time to finish at the rate so far (0 until the
	// first answer).
	ETA time.Duration
}

// Paper is the outcome for one paper.
type Paper struct {
	CiteKey string `json:"cite_key"`
	Note    string `json:"note"` // the note's path
	// Eligible counts the chunks asked about (Annotatable types);
	// Annotated those the note has an answer for after the run.
	Eligible  int `json:"eligible"`
	Annotated int `json:"annotated"`
	// Skipped, when set, says why the paper was not enriched (no note, a
	// note edited by hand, an unreadable note); Next what to do about it.
	Skipped string      `json:"skipped,omitempty"`
	Next    hint.Action `json:"-"`
}

// Result is the outcome of a run.
type Result struct {
	Model  llm.Model `json:"model"`
	Prompt int       `json:"prompt_version"`
	Papers []Paper   `json:"papers"`
	// Texts counts the distinct chunk texts eligible in all papers;
	// Stored those the store already had an answer for; Asked those that
	// were asked for (Texts - Stored); Answered and Failed their outcome
	// (the rest were not reached: interrupted or stopped).
	Texts    int `json:"texts"`
	Stored   int `json:"stored"`
	Asked    int `json:"asked"`
	Answered int `json:"answered"`
	Failed   int `json:"failed"`
	// Requests counts requests sent, retries included; RetryReason is
	// the first failure that was retried.
	Requests    int    `json:"requests"`
	RetryReason string `json:"retry_reason,omitempty"`
	// Elapsed is the time spent asking.
	Elapsed time.Duration `json:"elapsed_ns"`
	// FirstError is the first failure of a chunk, if any.
	FirstError string `json:"first_error,omitempty"`
}

func (o *Options) defaults() {
	if o.Concurrency < 1 {
		o.Concurrency = 1
	}
	switch {
	case o.Retries == 0:
		o.Retries = DefaultRetries
	case o.Retries < 0:
		o.Retries = 0
	}
	if o.Backoff <= 0 {
		o.Backoff = DefaultBackoff
	}
	if o.BreakAfter <= 0 {
		o.BreakAfter = DefaultBreakAfter
	}
	if o.FlushEvery <= 0 {
		o.FlushEvery = DefaultFlushEvery
	}
}

func (o *Options) key() index.AnnotationModel {
	return index.AnnotationModel{Server: o.Model.Server, Model: o.Model.Name, Digest: o.Model.Digest, Prompt: llm.PromptVersion}
}

// task is one distinct chunk text to ask about.
type task struct {
	sha     string
	passage llm.Passage
	papers  []int // indexes into run.papers
}

// run is one Run's state.
type run struct {
	o      *Options
	key    index.AnnotationModel
	papers []*library.Paper
	res    *Result

	mu    sync.Mutex   // guards res, dirty, streak and the progress callback
	dirty map[int]bool // papers with answers not yet written to their notes
}

// Run enriches papers (compiled, with notes). It returns the result and,
// when the run did not finish, ctx's error (interrupted) or a
// *BreakerError; the notes are rewritten from the store in every case.
// Errors reading or writing the store, or writing a note, are returned as
// they are.
func Run(ctx context.Context, papers []*library.Paper, o Options) (*Result, error) {
	o.defaults()
	r := &run{o: &o, key: o.key(), papers: papers, dirty: map[int]bool{},
		res: &Result{Model: o.Model, Prompt: llm.PromptVersion, Papers: make([]Paper, len(papers))}}
	res := r.res

	// Plan: the distinct eligible texts, in note order, and which the
	// store has no answer for.
	var tasks []*task
	bySHA := map[string]*task{}
	for i, p := range papers {
		out := &res.Papers[i]
		out.CiteKey, out.Note = p.CiteKey, p.NotePath
		n, why, next := readNote(p.NotePath)
		if n == nil {
			out.Skipped, out.Next = why, next
			out.Next.Key = p.CiteKey
			continue
		}
		for _, c := range n.Chunks {
			if !Annotatable(c.Type) || c.Text == "" {
				continue
			}
			out.Eligible++
			if t := bySHA[c.TextSHA256]; t != nil {
				if t.papers[len(t.papers)-1] != i {
					t.papers = append(t.papers, i)
				}
				continue
			}
			t := &task{sha: c.TextSHA256, papers: []int{i},
				passage: llm.Passage{Text: c.Text, Type: c.Type, Title: n.Front.Title, Section: c.Section}}
			bySHA[c.TextSHA256] = t
			tasks = append(tasks, t)
		}
	}
	res.Texts = len(tasks)
	shas := make([]string, len(tasks))
	for i, t := range tasks {
		shas[i] = t.sha
	}
	have, err := o.Store.Annotations(ctx, r.key, shas)
	if err != nil {
		return res, fmt.Errorf("read stored answers: %w", err)
	}
	var todo []*task
	for _, t := range tasks {
		if _, ok := have[t.sha]; !ok {
			todo = append(todo, t)
		}
	}
	res.Stored = len(tasks) - len(todo)
	res.Asked = len(todo)

	runErr := r.ask(ctx, todo)

	// Rewrite every note from the store, whatever happened (this also
	// takes out answers of another model or prompt, and any on chunks
	// that are not asked about), with a context that outlives an
	// interruption, for a bounded time.
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finalFlushTimeout)
	defer cancel()
	all := map[int]bool{}
	for i := range papers {
		all[i] = true
	}
	if err := r.flush(fctx, all); err != nil && runErr == nil {
		runErr = err
	}
	return res, runErr
}

// readNote reads and checks a note; nil, the reason and what to do when
// it cannot be enriched.
func readNote(path string) (*note.Note, string, hint.Action) {
	compile := hint.Action{Kind: hint.Compile}
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, "not compiled yet", compile
		}
		return nil, fmt.Sprintf("cannot read its note: %v", err), hint.Action{}
	}
	n, err := note.Parse(data)
	if err != nil {
		return nil, fmt.Sprintf("its note is not readable (%v)", err), compile
	}
	for _, c := range n.Chunks {
		if chunk.Hash(c.Text) != c.TextSHA256 {
			return nil, fmt.Sprintf("its note was edited by hand (chunk %s no longer matches its text_sha256)", c.ID), hint.Action{Kind: hint.RestoreNote}
		}
	}
	return n, "", hint.Action{}
}

// ask runs the requests, Concurrency at a time, storing each answer as it
// arrives and rewriting the notes that got answers every FlushEvery.
func (r *run) ask(ctx context.Context, todo []*task) error {
	if len(todo) == 0 {
		return nil
	}
	o, res := r.o, r.res
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	start := time.Now()
	streak := 0
	report := func() {
		if o.Progress == nil {
			return
		}
		p := Progress{Done: res.Answered, Failed: res.Failed, Total: len(todo), Elapsed: time.Since(start)}
		if n := p.Done + p.Failed; n > 0 {
			p.ETA = time.Duration(float64(p.Elapsed) / float64(n) * float64(p.Total-n))
		}
		o.Progress(p)
	}

	jobs := make(chan *task)
	var wg sync.WaitGroup
	for range o.Concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range jobs {
				a, requests, retried, err := askOne(ctx, o, t)
				if err == nil {
					// An answer that arrived is kept, even while the run
					// is being interrupted.
					if serr := o.Store.PutAnnotation(context.WithoutCancel(ctx), r.key, t.sha, index.Annotation{Paraphrase: a.Paraphrase, Implication: a.Implication}); serr != nil {
						cancel(fmt.Errorf("store an answer: %w", serr))
						err = serr
					}
				}
				r.mu.Lock()
				res.Requests += requests
				if retried != nil && res.RetryReason == "" {
					res.RetryReason = retried.Error()
				}
				switch {
				case err == nil:
					res.Answered++
					streak = 0
					for _, i := range t.papers {
						r.dirty[i] = true
					}
				case ctx.Err() != nil:
					// Interrupted or stopped: not this chunk's failure.
				default:
					res.Failed++
					streak++
					if res.FirstError == "" {
						res.FirstError = err.Error()
					}
					// A model that is not there stops the run at once; a
					// failure a retry could not help counts toward the
					// breaker.
					if errors.Is(err, llm.ErrUnavailable) || streak >= o.BreakAfter {
						cancel(&BreakerError{Failures: streak, Last: err})
					}
				}
				report()
				r.mu.Unlock()
			}
		}()
	}

	// The periodic rewrite.
	stopFlush := make(chan struct{})
	flushDone := make(chan struct{})
	go func() {
		defer close(flushDone)
		tick := time.NewTicker(o.FlushEvery)
		defer tick.Stop()
		for {
			select {
			case <-stopFlush:
				return
			case <-tick.C:
				r.mu.Lock()
				batch := r.dirty
				r.dirty = map[int]bool{}
				r.mu.Unlock()
				if err := r.flush(ctx, batch); err != nil && ctx.Err() == nil {
					cancel(err)
				}
			}
		}
	}()

feed:
	for _, t := range todo {
		select {
		case jobs <- t:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	close(stopFlush)
	<-flushDone
	res.Elapsed = time.Since(start)
	if ctx.Err() != nil {
		if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) && !errors.Is(cause, context.DeadlineExceeded) {
			return cause
		}
		return ctx.Err()
	}
	return nil
}

// askOne asks about one text, retrying failures a retry can help with
// backoff. It returns the answer, the number of requests made, the first
// failure that was retried and the last error.
func askOne(ctx context.Context, o *Options, t *task) (a llm.Annotation, requests int, retried, err error) {
	wait := o.Backoff
	for attempt := 0; attempt <= o.Retries; attempt++ {
		if attempt > 0 {
			if retried == nil {
				retried = err
			}
			if !sleep(ctx, jitter(wait)) {
				return llm.Annotation{}, requests, retried, ctx.Err()
			}
			wait = min(2*wait, MaxBackoff)
		}
		p := t.passage
		p.Attempt = attempt
		requests++
		a, err = o.Client.Annotate(ctx, p)
		if err == nil {
			return a, requests, retried, nil
		}
		if ctx.Err() != nil || !llm.Retryable(err) {
			break
		}
	}
	return llm.Annotation{}, requests, retried, err
}

func jitter(d time.Duration) time.Duration {
	return time.Duration(float64(d) * (0.75 + 0.5*rand.Float64()))
}

// sleep waits d or until ctx is done; false when ctx is done.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
