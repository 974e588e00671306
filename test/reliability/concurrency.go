package reliability

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/crossmem/crossmem/internal/pdf/pdftest"
)

// PaperPDF returns a one-page PDF of n lines of text about topic, made at
// run time (different topics give different texts).
func PaperPDF(topic string, n int) []byte {
	words := []string{"attention", "retrieval", "citation", "provenance", "verbatim", "quotation", "index", "library", "agent", "evidence"}
	var lines []string
	for i := range n {
		lines = append(lines, fmt.Sprintf("%s line %d: the %s of %s is checked against the %s.", topic, i, words[i%len(words)], topic, words[(i*7)%len(words)]))
	}
	return pdftest.Doc(pdftest.Text(lines...), true)
}

// AddPapers captures and compiles n generated papers into l with keys
// paper0, paper1, ...
func (l Lib) AddPapers(ctx context.Context, n int) ([]string, error) {
	var keys []string
	for i := range n {
		key := fmt.Sprintf("paper%d", i)
		p, err := l.WriteFile(key+".pdf", PaperPDF(fmt.Sprintf("Topic%d", i), 40))
		if err != nil {
			return nil, err
		}
		if _, err := l.MustRun(ctx, "capture", p, "--cite-key", key); err != nil {
			return nil, err
		}
		if _, err := l.MustRun(ctx, "compile", key, "--no-llm"); err != nil {
			return nil, err
		}
		keys = append(keys, key)
	}
	return keys, nil
}

// RebuildFigures are the concurrent-rebuild campaign's.
type RebuildFigures struct {
	Rounds    int
	Commands  int      // commands run
	Failures  int      // commands that exited non-zero
	Malformed int      // rounds after which `crossmem index` (quick_check) failed
	Problems  []string // the first few
}

// ConcurrentRebuild runs rounds of `index --rebuild`, `compile`, `search`
// and `verify` at once on l (which has compiled papers keys), then
// `crossmem index`, which runs quick_check.
func ConcurrentRebuild(ctx context.Context, l Lib, keys []string, rounds int) RebuildFigures {
	f := RebuildFigures{Rounds: rounds}
	var mu sync.Mutex
	problem := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		if len(f.Problems) < 10 {
			f.Problems = append(f.Problems, s)
		}
	}
	for r := range rounds {
		cmds := [][]string{{"index", "--rebuild"}, {"compile", keys[r%len(keys)], "--no-llm"}, {"search", "attention citation"}, {"verify"}, {"search", "provenance"}}
		var wg sync.WaitGroup
		for _, args := range cmds {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res, err := l.Run(ctx, args...)
				mu.Lock()
				f.Commands++
				mu.Unlock()
				if err != nil || res.Code != 0 {
					mu.Lock()
					f.Failures++
					mu.Unlock()
					problem(fmt.Sprintf("round %d: crossmem %s: exit %d %v: %s", r, strings.Join(args, " "), res.Code, err, firstErrorLine(res.Stderr)))
				}
			}()
		}
		wg.Wait()
		if res, err := l.Run(ctx, "index"); err != nil || res.Code != 0 {
			f.Malformed++
			problem(fmt.Sprintf("round %d: crossmem index: %s", r, firstErrorLine(res.Stderr)))
		}
	}
	return f
}

// FirstOpenFigures are the concurrent-first-open campaign's.
type FirstOpenFigures struct {
	Processes int
	Failures  int
	Problems  []string
}

// ConcurrentFirstOpens copies l without its index into a new library and
// runs n `crossmem search` processes on it at once: each opens (and one
// creates) the index.
func ConcurrentFirstOpens(ctx context.Context, l Lib, n int) (FirstOpenFigures, error) {
	f := FirstOpenFigures{Processes: n}
	home := l.Home + "-firstopen"
	if err := CopyDir(home, l.Home, func(rel string) bool { return strings.HasPrefix(rel, "index.db") }); err != nil {
		return f, err
	}
	c := Lib{Bin: l.Bin, Home: home, Cache: l.Cache}
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := c.Run(ctx, "search", "attention")
			if err != nil || res.Code != 0 {
				mu.Lock()
				f.Failures++
				if len(f.Problems) < 5 {
					f.Problems = append(f.Problems, firstErrorLine(res.Stderr))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return f, nil
}

// KillFigures are the kill -9 campaign's.
type KillFigures struct {
	Trials    int
	ByCommand map[string]int
	Killed    int      // trials whose command was still running when killed
	Corrupt   int      // trials after which a sidecar, note or the index was unreadable
	Partial   int      // import trials that left some but not all entries
	Leftovers int      // trials after which the next command left temporary or orphan files
	Problems  []string // the first few
}

// KillTrials runs n trials on l (which has compiled papers keys): each
// starts capture, compile, import (of importSize entries) or
// index --rebuild, kills it with SIGKILL after a random delay within the
// command's usual duration, runs `crossmem index` as the next command,
// and checks that nothing is corrupt (verify, quick_check, every sidecar
// parses), that an import left all or none of its entries, and that no
// leftovers remain.
func KillTrials(ctx context.Context, l Lib, keys []string, n, importSize int, seed uint64) (KillFigures, error) {
	f := KillFigures{ByCommand: map[string]int{}}
	rng := rand.New(rand.NewPCG(seed, seed+1))
	problem := func(s string) {
		if len(f.Problems) < 10 {
			f.Problems = append(f.Problems, s)
		}
	}
	type kind struct {
		name string
		args func(i int) ([]string, error)
	}
	kinds := []kind{
		{"capture", func(i int) ([]string, error) {
			// A new PDF each time: the same file twice is refused as
			// captured already.
			p, err := l.WriteFile(fmt.Sprintf("kill%d.pdf", i), PaperPDF(fmt.Sprintf("Killed%d", i), 60))
			return []string{"capture", p, "--cite-key", fmt.Sprintf("killed%d", i)}, err
		}},
		{"compile", func(i int) ([]string, error) { return []string{"compile", keys[i%len(keys)], "--no-llm"}, nil }},
		{"import", func(i int) ([]string, error) {
			var b strings.Builder
			b.WriteString("[")
			for j := range importSize {
				if j > 0 {
					b.WriteString(",\n")
				}
				fmt.Fprintf(&b, `{"id":"imp%d_%d","type":"article-journal","title":"Imported work %d of trial %d","author":[{"family":"Writer%d","given":"A"}],"issued":{"date-parts":[[2001]]},"container-title":"Journal"}`, i, j, j, i, j)
			}
			b.WriteString("]")
			p, err := l.WriteFile(fmt.Sprintf("import%d.json", i), []byte(b.String()))
			return []string{"import", p}, err
		}},
		{"index --rebuild", func(int) ([]string, error) { return []string{"index", "--rebuild"}, nil }},
	}
	// Each command's usual duration, for the kill delays.
	durations := map[string]time.Duration{}
	for _, k := range kinds {
		args, err := k.args(n) // beyond the trials' numbers
		if err != nil {
			return f, err
		}
		r, err := l.Run(ctx, args...)
		if err != nil {
			return f, err
		}
		durations[k.name] = max(r.Wall, 20*time.Millisecond)
	}
	for i := range n {
		k := kinds[rng.IntN(len(kinds))]
		f.Trials++
		f.ByCommand[k.name]++
		args, err := k.args(i)
		if err != nil {
			return f, err
		}
		cmd := l.Command(ctx, args...)
		if err := cmd.Start(); err != nil {
			return f, err
		}
		delay := time.Duration(rng.Int64N(int64(durations[k.name]) * 6 / 5))
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(delay):
			f.Killed++
			cmd.Process.Signal(syscall.SIGKILL)
			<-done
		}
		// The next command.
		next, err := l.Run(ctx, "index")
		if err != nil {
			return f, err
		}
		corrupt := next.Code != 0
		if corrupt {
			problem(fmt.Sprintf("trial %d (%s): crossmem index: %s", i, k.name, firstErrorLine(next.Stderr)))
		}
		sidecars, err := l.Sidecars()
		if err != nil {
			corrupt = true
			problem(fmt.Sprintf("trial %d (%s): %v", i, k.name, err))
		}
		if v, _ := l.Run(ctx, "verify"); v.Code != 0 {
			corrupt = true
			problem(fmt.Sprintf("trial %d (%s): crossmem verify: exit %d: %s", i, k.name, v.Code, firstErrorLine(v.Stderr)))
		}
		if corrupt {
			f.Corrupt++
		}
		if k.name == "import" {
			got := 0
			for key := range sidecars {
				if strings.HasPrefix(key, fmt.Sprintf("imp%d_", i)) {
					got++
				}
			}
			if got != 0 && got != importSize {
				f.Partial++
				problem(fmt.Sprintf("trial %d: the killed import left %d of %d entries", i, got, importSize))
			}
		}
		if left := l.Leftovers(); len(left) > 0 {
			f.Leftovers++
			problem(fmt.Sprintf("trial %d (%s): left %v", i, k.name, left))
		}
		os.Remove(filepath.Join(l.Home, fmt.Sprintf("import%d.json", i)))
		os.Remove(filepath.Join(l.Home, fmt.Sprintf("kill%d.pdf", i)))
	}
	return f, nil
}
