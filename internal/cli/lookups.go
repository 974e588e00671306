package cli

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/crossmem/crossmem/internal/capture"
)

// waitNotice is how long a metadata lookup may go unseen before a
// terminal-less run says what it waits for (half the deadline when that
// is shorter).
const waitNotice = 5 * time.Second

// lookups shows the metadata questions of a capture or a refresh while
// they are asked: on a terminal a spinner (or the batch's bar) names the
// sources being asked and the seconds spent; elsewhere one notice says so
// once a wait passes waitNotice. Nothing is shown with -q or --json.
type lookups struct {
	a       *app
	stage   string        // "capture", "refresh"
	name    string        // what is looked up: the input or the key
	limit   time.Duration // the deadline, for the notice
	bar     *progressbar.ProgressBar
	own     bool // bar is the spinner of this lookup (not the batch's)
	mu      sync.Mutex
	asking  map[string]int // source → questions in flight
	started time.Time      // when the first question was asked
	stop    chan struct{}
	done    sync.WaitGroup
	noticed bool
}

// newLookups starts showing the lookups of name in stage. bar is the
// batch's progress bar, or nil for a spinner of its own.
func (a *app) newLookups(stage, name string, limit time.Duration, bar *progressbar.ProgressBar) *lookups {
	l := &lookups{a: a, stage: stage, name: name, limit: limit, bar: bar, asking: map[string]int{}, stop: make(chan struct{})}
	if a.quiet || a.json {
		return l
	}
	if a.io.StderrTTY && l.bar == nil {
		l.bar = progressbar.NewOptions(-1, progressbar.OptionSetWriter(a.io.Err), progressbar.OptionSetDescription("["+stage+"] "+name),
			progressbar.OptionSpinnerType(14), progressbar.OptionClearOnFinish())
		l.own = true
	}
	l.done.Add(1)
	go l.tick()
	return l
}

// on is the capture.Options.OnLookup callback.
func (l *lookups) on(q capture.Lookup) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if q.Done {
		if l.asking[q.Source]--; l.asking[q.Source] <= 0 {
			delete(l.asking, q.Source)
		}
		return
	}
	if l.started.IsZero() {
		l.started = time.Now() // the deadline runs from the first question
	}
	l.asking[q.Source]++
}

// waited is how long the questions have been running.
func (l *lookups) waited() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.started.IsZero() {
		return 0
	}
	return time.Since(l.started)
}

// sources names the sources being asked ("arxiv, crossref"), "" when none.
func (l *lookups) sources() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var names []string
	for s := range l.asking {
		names = append(names, s)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

func (l *lookups) describe() string {
	d := "[" + l.stage + "] " + l.name
	if s := l.sources(); s != "" {
		d += fmt.Sprintf(": asking %s (%ds)", s, int(l.waited().Seconds()))
	}
	return d
}

func (l *lookups) tick() {
	defer l.done.Done()
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
		}
		if l.bar != nil {
			l.bar.Describe(l.describe())
			if l.own {
				l.bar.Add(1)
			}
			continue
		}
		s := l.sources()
		if s == "" || l.noticed || l.waited() < min(waitNotice, l.limit/2) {
			continue
		}
		l.noticed = true
		// Tenths: with a deadline under 2 s the notice comes before a whole
		// second has passed ("after 0s" read as no wait at all).
		l.a.notice("%s: still waiting for %s after %s (at most %s in all)", l.name, s, l.waited().Round(100*time.Millisecond), l.limit.Round(time.Second))
	}
}

// end stops showing the lookups.
func (l *lookups) end() {
	select {
	case <-l.stop:
		return
	default:
	}
	close(l.stop)
	l.done.Wait()
	if l.own && l.bar != nil {
		l.bar.Finish()
	}
}
