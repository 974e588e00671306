// Command reliability runs crossmem's reliability campaign (issue 11) at
// full size against a freshly built binary and prints the figures of
// bench/README.md: malformed MCP messages, hostile export/import round
// trips, PDF bombs and huge queries (with time and peak memory),
// concurrent index rebuilds and first opens, and kill -9 trials. The same
// campaigns run CI-sized in test/reliability (go test ./test/reliability;
// -long there runs them at this size with pass/fail only).
//
//	go run ./bench/reliability              # everything, ~10 minutes
//	go run ./bench/reliability -kills 40    # fewer kill trials
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/crossmem/crossmem/test/reliability"
)

func main() {
	messages := flag.Int("messages", 10000, "malformed MCP messages")
	rounds := flag.Int("rounds", 20, "rounds of concurrent index --rebuild + compile + search + verify")
	opens := flag.Int("opens", 40, "concurrent first opens")
	kills := flag.Int("kills", 240, "kill -9 trials")
	importSize := flag.Int("import", 500, "entries of each killed import")
	flag.Parse()
	if err := run(*messages, *rounds, *opens, *kills, *importSize); err != nil {
		fmt.Fprintln(os.Stderr, "reliability:", err)
		os.Exit(1)
	}
}

func run(messages, rounds, opens, kills, importSize int) error {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "crossmem-reliability-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	bin, err := reliability.Build(root, dir)
	if err != nil {
		return err
	}
	cache := filepath.Join(os.TempDir(), "crossmem-test-cache")
	n := 0
	lib := func() (reliability.Lib, error) {
		n++
		l, err := reliability.NewLib(bin, filepath.Join(dir, fmt.Sprintf("lib%d", n)), cache)
		if err == nil {
			err = l.Seed(ctx)
		}
		return l, err
	}
	fail := false
	row := func(ok bool, campaign, figure string) {
		mark := "ok"
		if !ok {
			mark, fail = "FAIL", true
		}
		fmt.Printf("| %s | %s | %s |\n", campaign, figure, mark)
	}
	fmt.Println("| campaign | figure | verdict |")
	fmt.Println("|---|---|---|")

	l, err := lib()
	if err != nil {
		return err
	}
	start := time.Now()
	m, err := reliability.MCPMalformed(ctx, l, messages, 11)
	if err != nil {
		return err
	}
	row(m.Messages >= 1000 && m.Deaths == 0 && m.Unanswered == 0 && m.Wrong == 0, "malformed MCP messages",
		fmt.Sprintf("%d messages: %d server deaths, %d valid calls after them unanswered, %d without the JSON-RPC error they deserve (%.0f s)",
			m.Messages, m.Deaths, m.Unanswered, m.Wrong, time.Since(start).Seconds()))
	report(m.Failures)

	if l, err = lib(); err != nil {
		return err
	}
	rt, err := reliability.RoundTrip(ctx, l, reliability.Hostile)
	if err != nil {
		return err
	}
	row(rt.Mismatches == 0, "hostile round trip", fmt.Sprintf("%d hostile entries × %d export formats (BibTeX, BibLaTeX, CSL-JSON) → import: %d of %d with a field changed",
		rt.Entries, rt.Formats, rt.Mismatches, rt.Compared))
	report(rt.Failures)

	if l, err = lib(); err != nil {
		return err
	}
	bombs, err := reliability.PDFBombs(ctx, l, reliability.FlateBombBytes, reliability.TextOpsPage)
	if err != nil {
		return err
	}
	qs, err := reliability.QueryBombs(ctx, l, []int{10 << 20, 1 << 20})
	if err != nil {
		return err
	}
	for _, b := range append(bombs, qs...) {
		within := b.Wall <= 5*time.Second && b.MaxRSS <= 500<<20
		row(b.Refused && within, b.Name, fmt.Sprintf("`crossmem %s`: %.2f s, peak RSS %d MB: %s", b.Command, b.Wall.Seconds(), b.MaxRSS>>20, clip(b.Error)))
	}

	if l, err = lib(); err != nil {
		return err
	}
	keys, err := l.AddPapers(ctx, 3)
	if err != nil {
		return err
	}
	rb := reliability.ConcurrentRebuild(ctx, l, keys, rounds)
	row(rb.Failures == 0 && rb.Malformed == 0, "concurrent rebuild", fmt.Sprintf("%d rounds of index --rebuild + compile + 2 searches + verify at once: %d of %d commands failed, %d malformed indexes",
		rb.Rounds, rb.Failures, rb.Commands, rb.Malformed))
	report(rb.Problems)

	fo, err := reliability.ConcurrentFirstOpens(ctx, l, opens)
	if err != nil {
		return err
	}
	row(fo.Failures == 0, "concurrent first opens", fmt.Sprintf("%d `crossmem search` at once on a library without index.db: %d failed", fo.Processes, fo.Failures))
	report(fo.Problems)

	if l, err = lib(); err != nil {
		return err
	}
	if keys, err = l.AddPapers(ctx, 2); err != nil {
		return err
	}
	start = time.Now()
	k, err := reliability.KillTrials(ctx, l, keys, kills, importSize, 7)
	if err != nil {
		return err
	}
	var by []string
	for _, c := range []string{"capture", "compile", "import", "index --rebuild"} {
		by = append(by, fmt.Sprintf("%d %s", k.ByCommand[c], c))
	}
	row(k.Corrupt == 0 && k.Partial == 0 && k.Leftovers == 0, "kill -9", fmt.Sprintf("%d trials (%s; %d killed while running, the others had finished): %d corrupt, %d partial imports (of %d entries), %d with leftovers after the next command (%.0f s)",
		k.Trials, strings.Join(by, ", "), k.Killed, k.Corrupt, k.Partial, importSize, k.Leftovers, time.Since(start).Seconds()))
	report(k.Problems)
	if fail {
		return fmt.Errorf("some campaigns failed")
	}
	return nil
}

func report(problems []string) {
	for _, p := range problems {
		fmt.Fprintln(os.Stderr, "  ", clip(p))
	}
}

func clip(s string) string {
	s = strings.ReplaceAll(s, "|", "\\|")
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
