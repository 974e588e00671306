package capture

import (
	"context"
	"errors"
	"net"
	"sync"
	"syscall"

	"github.com/crossmem/crossmem/internal/fetch"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/metadata/reconcile"
)

// watch wraps the metadata sources to report each question to on (when
// set) and to tell whether the network could be reached at all.
type watch struct {
	on func(Lookup)

	mu       sync.Mutex
	asked    int
	offline  int // questions that failed to connect or ran out of time
	answered int // questions that got an answer (found or not)
}

// unreachable reports whether every question asked failed to connect or
// ran out of time.
func (w *watch) unreachable() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.asked > 0 && w.offline == w.asked
}

func (w *watch) done(source, query string, err error) {
	out := metadata.OutcomeOK
	switch {
	case err == nil:
	case errors.Is(err, fetch.ErrNotFound):
		out = metadata.OutcomeNotFound
	default:
		out = metadata.OutcomeFailed
	}
	w.mu.Lock()
	w.asked++
	if out == metadata.OutcomeFailed && noNetwork(err) {
		w.offline++
	} else {
		w.answered++
	}
	w.mu.Unlock()
	if w.on != nil {
		w.on(Lookup{Source: source, Query: query, Done: true, Outcome: out})
	}
}

func (w *watch) start(source, query string) {
	if w.on != nil {
		w.on(Lookup{Source: source, Query: query})
	}
}

// noNetwork reports whether err says the server could not be reached at
// all or did not answer in time: no DNS, connection refused, no route, a
// timeout or the capture's deadline.
func noNetwork(err error) bool {
	var dns *net.DNSError
	var ne net.Error
	switch {
	case errors.As(err, &dns),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ENETUNREACH), errors.Is(err, syscall.EHOSTUNREACH),
		errors.Is(err, context.DeadlineExceeded),
		errors.As(err, &ne) && ne.Timeout():
		return true
	}
	return false
}

// sources returns s with every lookup reported.
func (w *watch) sources(s reconcile.Sources) reconcile.Sources {
	one := func(source, prefix string, f func(ctx context.Context, v string) (*metadata.Observation, error)) func(ctx context.Context, v string) (*metadata.Observation, error) {
		if f == nil {
			return nil
		}
		return func(ctx context.Context, v string) (*metadata.Observation, error) {
			w.start(source, prefix+v)
			o, err := f(ctx, v)
			w.done(source, prefix+v, err)
			return o, err
		}
	}
	out := reconcile.Sources{
		Crossref:  one(metadata.SourceCrossref, "doi:", s.Crossref),
		OpenAlex:  one(metadata.SourceOpenAlex, "doi:", s.OpenAlex),
		DataCite:  one(metadata.SourceDataCite, "doi:", s.DataCite),
		Unpaywall: one(metadata.SourceUnpaywall, "doi:", s.Unpaywall),
	}
	if f := s.Arxiv; f != nil {
		out.Arxiv = func(ctx context.Context, id string, version int) (*metadata.Observation, error) {
			q := "arxiv:" + versioned(id, version)
			w.start(metadata.SourceArxiv, q)
			o, err := f(ctx, id, version)
			w.done(metadata.SourceArxiv, q, err)
			return o, err
		}
	}
	if f := s.CrossrefSearch; f != nil {
		out.CrossrefSearch = func(ctx context.Context, title, author string) ([]*metadata.Observation, error) {
			w.start(metadata.SourceCrossref, "title:"+title)
			o, err := f(ctx, title, author)
			w.done(metadata.SourceCrossref, "title:"+title, err)
			return o, err
		}
	}
	if f := s.OpenAlexSearch; f != nil {
		out.OpenAlexSearch = func(ctx context.Context, title string) ([]*metadata.Observation, error) {
			w.start(metadata.SourceOpenAlex, "title:"+title)
			o, err := f(ctx, title)
			w.done(metadata.SourceOpenAlex, "title:"+title, err)
			return o, err
		}
	}
	return out
}
