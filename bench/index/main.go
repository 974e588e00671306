// Command index is the search index's scale benchmark. It builds a
// synthetic library of -papers notes × -chunks chunks (default 10,000 ×
// 100 = 1M chunks) from the real corpus's chunk texts (see gen.go) and
// measures, with the real crossmem binary where a user would:
//
//   - full build: `crossmem index` on the fresh library (wall time, peak RSS);
//   - no-op sync: `crossmem index` again with nothing changed;
//   - incremental update: one note replaced by a new 100-chunk version, as
//     compile writes it, then `crossmem index` (wall time), and
//     index.UpdateNote on such a note in-process (what compile adds);
//   - query latency: the -queries mix (a quarter each single words,
//     multi-word, quoted phrases, 3-letter prefixes; see queries.go) with
//     index.Search in one process, warm (after one warm-up pass):
//     p50/p95/p99 overall and per kind, and that process's peak RSS;
//   - MCP server: `crossmem mcp serve` started -mcp-runs times, time from
//     process start to the initialize reply and to the first
//     crossmem_recall reply (median); then the whole mix through one server
//     (client-side latency) and the server's peak RSS (VmHWM).
//
// Run from the repository root:
//
//	go run ./bench/index                        # 10,000 × 100, into bench/out/index
//	go run ./bench/index -reuse                 # reuse that library (regenerated if its parameters differ)
//	go run ./bench/index -reuse -skip-build     # ... and its index: only queries, MCP and incremental
//	go run ./bench/index -papers 500 -chunks 100 -out /tmp/small
//	go run ./bench/index -bin /tmp/crossmem     # a prebuilt CLI (e.g. of a clean checkout) instead of ./cmd/crossmem
//	go run ./bench/index -json                  # one JSON object instead of tables
//	go run ./bench/index -save results.json     # tables, and the JSON into a file
//	go run ./bench/index -reuse -skip-build -cpuprofile q.prof   # profile the query pass
//
// The corpus notes come from -corpuslib (a library home with the compiled
// corpus); without it the program captures and compiles the shared corpus
// (../shared/corpus/pdf) into <out>/corpus with the CLI once (about 30 s)
// and reuses it afterwards. The synthetic library is <out>/lib (wiki/,
// index.db). Notes replaced for the incremental measurement are restored
// at the end (and the index synced again), so -reuse -skip-build runs see
// the same library.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/crossmem/crossmem/bench/internal/corpuslib"
	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/index"
	"github.com/crossmem/crossmem/internal/note"
)

// manifest records how a synthetic library was made (for -reuse).
type manifest struct {
	Papers       int    `json:"papers"`
	Chunks       int    `json:"chunks_per_paper"`
	Seed         uint64 `json:"seed"`
	SourceChunks int    `json:"source_chunks"`
	SourceNotes  int    `json:"source_notes"`
}

// results is the benchmark's output (-json).
type results struct {
	Date       string   `json:"date"`
	Commit     string   `json:"commit"`
	Machine    string   `json:"machine"`
	GoVersion  string   `json:"go_version"`
	Command    string   `json:"command"`
	Library    manifest `json:"library"`
	Chunks     int      `json:"chunks"`
	WikiMB     float64  `json:"wiki_mb"`
	IndexMB    float64  `json:"index_mb"` // index.db + WAL after the build
	GenerateS  float64  `json:"generate_s,omitempty"`
	Build      *build   `json:"build,omitempty"`
	NoopSyncMS float64  `json:"noop_sync_ms"`

	NoopPeakRSSMB float64 `json:"noop_sync_peak_rss_mb"`

	Queries struct {
		N          int                 `json:"n"`
		Overall    latency             `json:"overall"`
		ByKind     map[string]latency  `json:"by_kind"`
		Warmup     latency             `json:"warmup"`
		OpenMS     float64             `json:"open_ms"`
		PeakRSSMB  float64             `json:"peak_rss_mb"`
		GoHeapMB   float64             `json:"go_heap_sys_mb"`
		Gomaxprocs int                 `json:"gomaxprocs"`
		Examples   map[string][]string `json:"examples"`
		Slowest    []timedQuery        `json:"slowest"` // the 3 slowest of each kind
		NoHits     []string            `json:"no_hits"` // queries that found nothing
	} `json:"queries"`

	MCP struct {
		Runs          []mcpStartup `json:"runs"`
		ReadyMS       float64      `json:"ready_ms_median"`
		FirstAnswerMS float64      `json:"first_answer_ms_median"`
		FirstQuery    string       `json:"first_query"`
		Mix           latency      `json:"mix"`
		PeakRSSMB     float64      `json:"peak_rss_mb"`
		RSSMB         float64      `json:"rss_mb"`
	} `json:"mcp"`

	Incremental struct {
		CLIMS        []float64 `json:"cli_ms"`
		CLIMedian    float64   `json:"cli_ms_median"`
		UpdateMS     []float64 `json:"update_note_ms"`
		UpdateMedian float64   `json:"update_note_ms_median"`
	} `json:"incremental"`

	Targets []target `json:"targets"`
}

type timedQuery struct {
	Kind string  `json:"kind"`
	Text string  `json:"text"`
	MS   float64 `json:"ms"`
}

type build struct {
	WallS     float64 `json:"wall_s"`
	ReportedS float64 `json:"reported_s"` // crossmem index --json "seconds"
	PeakRSSMB float64 `json:"peak_rss_mb"`
	Added     int     `json:"added"`
}

type target struct {
	What  string  `json:"what"`
	Value float64 `json:"value"`
	Limit float64 `json:"limit"`
	Unit  string  `json:"unit"`
	OK    bool    `json:"ok"`
}

func main() {
	papers := flag.Int("papers", 10000, "synthetic papers")
	perPaper := flag.Int("chunks", 100, "chunks per paper")
	seed := flag.Uint64("seed", 1, "random seed of the library and the query mix")
	out := flag.String("out", "", "output folder (default bench/out/index in the repository)")
	corpusLib := flag.String("corpuslib", "", "library home holding the compiled corpus notes (default: <out>/corpus, built on first use)")
	corpusDir := flag.String("corpus", "", "folder of corpus PDFs for building the corpus library (default ../shared/corpus/pdf)")
	binFlag := flag.String("bin", "", "run this crossmem binary instead of building ./cmd/crossmem into <out>/bin")
	reuse := flag.Bool("reuse", false, "reuse the synthetic library in <out>/lib if it was made with the same parameters")
	skipBuild := flag.Bool("skip-build", false, "with -reuse: keep the existing index instead of timing a full build")
	nq := flag.Int("queries", 600, "queries in the mix (a quarter of each kind)")
	mcpRuns := flag.Int("mcp-runs", 5, "MCP server start-ups to time")
	incrRuns := flag.Int("incr-runs", 5, "incremental updates to time (each way)")
	jsonOut := flag.Bool("json", false, "print one JSON object instead of tables")
	saveJSON := flag.String("save", "", "also write the JSON results to this file")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the measured query pass to this file")
	worker := flag.String("query-worker", "", "internal: run the query pass of this spec file")
	flag.Parse()
	if *worker != "" {
		if err := queryWorker(*worker); err != nil {
			fmt.Fprintln(os.Stderr, "query worker:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*papers, *perPaper, *seed, *out, *binFlag, *corpusLib, *corpusDir, *reuse, *skipBuild, *nq, *mcpRuns, *incrRuns, *jsonOut, *saveJSON, *cpuprofile); err != nil {
		fmt.Fprintln(os.Stderr, "bench/index:", err)
		os.Exit(1)
	}
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "[%s] "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}

func run(papers, perPaper int, seed uint64, out, binFlag, corpusLib, corpusDir string, reuse, skipBuild bool, nq, mcpRuns, incrRuns int, jsonOut bool, saveJSON, cpuprofile string) error {
	ctx := context.Background()
	root, err := corpuslib.ModuleRoot()
	if err != nil {
		return err
	}
	if out == "" {
		out = filepath.Join(root, "bench", "out", "index")
	}
	if out, err = filepath.Abs(out); err != nil {
		return err
	}
	if cpuprofile != "" {
		if cpuprofile, err = filepath.Abs(cpuprofile); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	r := &results{Date: time.Now().Format("2006-01-02"), Machine: cpuModel(), GoVersion: runtime.Version(),
		Command: "go run ./bench/index " + strings.Join(os.Args[1:], " ")}
	if c, err := exec.Command("git", "-C", root, "rev-parse", "--short", "HEAD").Output(); err == nil {
		r.Commit = strings.TrimSpace(string(c))
	}

	bin := filepath.Join(out, "bin", "crossmem")
	if binFlag != "" {
		if bin, err = filepath.Abs(binFlag); err != nil {
			return err
		}
		logf("using %s", bin)
	} else {
		logf("building %s", bin)
		if err := corpuslib.BuildBinary(bin); err != nil {
			return err
		}
	}

	// The corpus notes.
	corpusLib, err = corpuslib.Ensure(ctx, out, corpusLib, corpusDir, bin, os.Stderr)
	if err != nil {
		return err
	}
	notes, err := corpuslib.Load(corpusLib)
	if err != nil {
		return err
	}
	src := corpuslib.Chunks(notes)
	logf("corpus: %d notes, %d chunks (%s)", len(notes), len(src), corpusLib)

	// The synthetic library.
	home := filepath.Join(out, "lib")
	wiki := filepath.Join(home, "wiki")
	want := manifest{Papers: papers, Chunks: perPaper, Seed: seed, SourceChunks: len(src), SourceNotes: len(notes)}
	r.Library = want
	r.Chunks = papers * perPaper
	manifestPath := filepath.Join(home, "manifest.json")
	have := manifest{}
	if data, err := os.ReadFile(manifestPath); err == nil {
		json.Unmarshal(data, &have)
	}
	if !reuse || have != want {
		if reuse {
			logf("no reusable library in %s (parameters differ): generating", home)
		}
		skipBuild = false
		if err := os.RemoveAll(home); err != nil {
			return err
		}
		logf("generating %d notes × %d chunks into %s", papers, perPaper, wiki)
		t := time.Now()
		if _, err := generate(src, wiki, papers, perPaper, seed, func(i int) {
			if i%1000 == 0 {
				logf("  %d notes", i)
			}
		}); err != nil {
			return err
		}
		r.GenerateS = round3(time.Since(t).Seconds())
		data, _ := json.Marshal(want)
		if err := os.WriteFile(manifestPath, data, 0o644); err != nil {
			return err
		}
	}
	r.WikiMB = round3(float64(dirSize(wiki)) / (1 << 20))
	names, err := filepath.Glob(filepath.Join(wiki, "*.md"))
	if err != nil || len(names) != papers {
		return fmt.Errorf("%s holds %d notes, want %d", wiki, len(names), papers)
	}

	// indexCmd runs `crossmem index --json` and returns its wall time in
	// ms, its peak RSS in MB and its output.
	indexCmd := func() (float64, float64, []byte, error) {
		cmd := exec.Command(bin, "index", "--json")
		cmd.Env = corpuslib.Env(home)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		t := time.Now()
		if err := cmd.Start(); err != nil {
			return 0, 0, nil, err
		}
		stop := watchPeak(cmd.Process.Pid)
		err := cmd.Wait()
		d := time.Since(t)
		peak := stop()
		if err != nil {
			return 0, 0, nil, fmt.Errorf("crossmem index: %v: %s", err, stderr.String())
		}
		return ms(d), peak, stdout.Bytes(), nil
	}
	type indexOut struct {
		Sync    index.SyncResult `json:"sync"`
		Stats   index.Stats      `json:"stats"`
		Seconds float64          `json:"seconds"`
	}

	// (a) Full build.
	if !skipBuild {
		if err := index.Remove(filepath.Join(home, index.FileName)); err != nil {
			return err
		}
		logf("full build: crossmem index")
		d, peak, o, err := indexCmd()
		if err != nil {
			return err
		}
		var got indexOut
		json.Unmarshal(o, &got)
		r.Build = &build{WallS: round3(d / 1000), ReportedS: round3(got.Seconds), PeakRSSMB: peak, Added: got.Sync.Added}
		if got.Stats.Chunks != r.Chunks {
			return fmt.Errorf("index holds %d chunks, want %d", got.Stats.Chunks, r.Chunks)
		}
		logf("  %.1f s, %d notes, %d chunks, peak RSS %.0f MB", r.Build.WallS, got.Stats.Notes, got.Stats.Chunks, r.Build.PeakRSSMB)
	}
	r.IndexMB = round3(float64(dirSize(filepath.Join(home, index.FileName), filepath.Join(home, index.FileName)+"-wal")) / (1 << 20))

	// No-op sync (also makes sure a reused index is current).
	d, peak, o, err := indexCmd()
	if err != nil {
		return err
	}
	var noop indexOut
	json.Unmarshal(o, &noop)
	if noop.Sync.Added+noop.Sync.Updated+noop.Sync.Removed > 0 {
		logf("the index was not current (%+v); timing the no-op sync again", noop.Sync)
		if d, peak, _, err = indexCmd(); err != nil {
			return err
		}
	}
	r.NoopSyncMS = d
	r.NoopPeakRSSMB = peak
	logf("no-op sync: %.0f ms", d)

	// (c) Query latency, in a child process.
	qs := queryMix(src, nq, seed)
	r.Queries.Examples = map[string][]string{}
	for _, q := range qs {
		if len(r.Queries.Examples[q.Kind]) < 4 {
			r.Queries.Examples[q.Kind] = append(r.Queries.Examples[q.Kind], q.Text)
		}
	}
	logf("query pass: %d queries (warm-up, then measured)", len(qs))
	wr, err := runQueryWorker(workerSpec{Home: home, Queries: qs, CPUProfile: cpuprofile}, out)
	if err != nil {
		return err
	}
	r.Queries.N = len(qs)
	r.Queries.Overall = summarize(wr.MS)
	r.Queries.Warmup = summarize(wr.WarmupMS)
	r.Queries.ByKind = map[string]latency{}
	for _, k := range kinds {
		var v []float64
		var tq []timedQuery
		none := 0
		for i, q := range qs {
			if q.Kind == k {
				v = append(v, wr.MS[i])
				tq = append(tq, timedQuery{q.Kind, q.Text, wr.MS[i]})
				if wr.Hits[i] == 0 {
					none++
					r.Queries.NoHits = append(r.Queries.NoHits, q.Text)
				}
			}
		}
		sort.Slice(tq, func(i, j int) bool { return tq[i].MS > tq[j].MS })
		r.Queries.Slowest = append(r.Queries.Slowest, tq[:min(3, len(tq))]...)
		l := summarize(v)
		l.NoHits = none
		r.Queries.ByKind[k] = l
		r.Queries.Overall.NoHits += none
	}
	r.Queries.OpenMS = wr.OpenMS
	r.Queries.PeakRSSMB = wr.HWMMB
	r.Queries.GoHeapMB = wr.GoHeapMB
	r.Queries.Gomaxprocs = wr.Gomaxprocs
	logf("  p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, peak RSS %.0f MB", r.Queries.Overall.P50, r.Queries.Overall.P95, r.Queries.Overall.P99, r.Queries.PeakRSSMB)

	// (d) MCP start-up to first answer; (e) its RSS after the mix.
	first := ""
	for _, q := range qs {
		if q.Kind == kindMulti {
			first = q.Text
			break
		}
	}
	r.MCP.FirstQuery = first
	var ready, answer []float64
	for i := 0; i < mcpRuns; i++ {
		s, err := timeMCPStartup(bin, home, first)
		if err != nil {
			return err
		}
		r.MCP.Runs = append(r.MCP.Runs, s)
		ready = append(ready, s.ReadyMS)
		answer = append(answer, s.FirstAnswerMS)
	}
	r.MCP.ReadyMS, r.MCP.FirstAnswerMS = round3(median(ready)), round3(median(answer))
	logf("MCP: ready %.0f ms, first answer %.0f ms (median of %d)", r.MCP.ReadyMS, r.MCP.FirstAnswerMS, mcpRuns)
	logf("MCP: serving the mix")
	mix, err := runMCPMix(bin, home, qs)
	if err != nil {
		return err
	}
	r.MCP.Mix = summarize(mix.MS)
	r.MCP.PeakRSSMB = mix.HWMMB
	r.MCP.RSSMB = mix.RSSMB
	logf("  p50 %.1f ms, p95 %.1f ms, peak RSS %.0f MB", r.MCP.Mix.P50, r.MCP.Mix.P95, r.MCP.PeakRSSMB)

	// (b) Incremental update of one paper.
	if err := incremental(ctx, r, src, home, names, seed, incrRuns, indexCmd); err != nil {
		return err
	}

	// The targets: query latency p95 ≤ 50 ms and p99 ≤ 150 ms over
	// the mix, one-paper incremental update ≤ 1 s, MCP start-up to the
	// first answer ≤ 300 ms, and the peak RSS of every process that works
	// on the index ≤ 500 MB.
	r.Targets = []target{
		{"query latency p95 (all kinds)", r.Queries.Overall.P95, 50, "ms", r.Queries.Overall.P95 <= 50},
		{"query latency p99 (all kinds)", r.Queries.Overall.P99, 150, "ms", r.Queries.Overall.P99 <= 150},
		{"incremental update of one paper (crossmem index, median)", r.Incremental.CLIMedian, 1000, "ms", r.Incremental.CLIMedian <= 1000},
		{"MCP start-up to first crossmem_recall answer", r.MCP.FirstAnswerMS, 300, "ms", r.MCP.FirstAnswerMS <= 300},
		{"MCP server peak RSS after the mix", r.MCP.PeakRSSMB, 500, "MB", r.MCP.PeakRSSMB <= 500},
		{"query process peak RSS", r.Queries.PeakRSSMB, 500, "MB", r.Queries.PeakRSSMB <= 500},
	}
	if r.Build != nil {
		r.Targets = append(r.Targets, target{"full build (crossmem index) peak RSS", r.Build.PeakRSSMB, 500, "MB", r.Build.PeakRSSMB <= 500})
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	if saveJSON != "" {
		if err := os.WriteFile(saveJSON, data, 0o644); err != nil {
			return err
		}
	}
	if jsonOut {
		_, err := os.Stdout.Write(data)
		return err
	}
	printTables(os.Stdout, r)
	return nil
}

// incremental replaces notes with new 100-chunk versions and times
// `crossmem index` (CLI) and index.UpdateNote (in-process), then restores
// the original notes and syncs the index again.
func incremental(ctx context.Context, r *results, src []chunk.Chunk, home string, names []string, seed uint64, runs int, indexCmd func() (float64, float64, []byte, error)) error {
	g := newGenerator(src, seed)
	rng := rand.New(rand.NewPCG(seed, 0x1ac))
	originals := map[string][]byte{}
	defer func() {
		for path, data := range originals {
			os.WriteFile(path, data, 0o644)
		}
		if len(originals) > 0 {
			logf("restored %d notes; syncing the index", len(originals))
			indexCmd()
		}
	}()
	replace := func(i int) (string, error) {
		path := names[rng.IntN(len(names))]
		for originals[path] != nil {
			path = names[rng.IntN(len(names))]
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return "", err
		}
		originals[path] = data
		n, err := note.Parse(data)
		if err != nil {
			return "", err
		}
		p := g.replacement(paper{name: filepath.Base(path), note: n}, seed+uint64(i)*7919)
		return path, writeNote(filepath.Dir(path), p)
	}
	wiki := filepath.Dir(names[0])
	for i := 0; i < runs; i++ {
		if _, err := replace(i); err != nil {
			return err
		}
		d, _, o, err := indexCmd()
		if err != nil {
			return err
		}
		var got struct {
			Sync index.SyncResult `json:"sync"`
		}
		json.Unmarshal(o, &got)
		if got.Sync.Updated != 1 {
			return fmt.Errorf("incremental run %d: crossmem index updated %d notes, want 1", i, got.Sync.Updated)
		}
		r.Incremental.CLIMS = append(r.Incremental.CLIMS, d)
	}
	ix, err := index.Open(filepath.Join(home, index.FileName), wiki)
	if err != nil {
		return err
	}
	defer ix.Close()
	for i := 0; i < runs; i++ {
		path, err := replace(runs + i)
		if err != nil {
			return err
		}
		t := time.Now()
		if err := ix.UpdateNote(ctx, path); err != nil {
			return err
		}
		r.Incremental.UpdateMS = append(r.Incremental.UpdateMS, ms(time.Since(t)))
	}
	r.Incremental.CLIMedian = round3(median(r.Incremental.CLIMS))
	r.Incremental.UpdateMedian = round3(median(r.Incremental.UpdateMS))
	logf("incremental: crossmem index %.0f ms, UpdateNote %.0f ms (medians of %d)", r.Incremental.CLIMedian, r.Incremental.UpdateMedian, runs)
	return nil
}

func printTables(w io.Writer, r *results) {
	fmt.Fprintf(w, "Synthetic library: %d papers × %d chunks = %d chunks from %d corpus chunks of %d notes (seed %d); wiki %.0f MB, index %.0f MB\n",
		r.Library.Papers, r.Library.Chunks, r.Chunks, r.Library.SourceChunks, r.Library.SourceNotes, r.Library.Seed, r.WikiMB, r.IndexMB)
	fmt.Fprintf(w, "Machine: %s, GOMAXPROCS %d, %s; commit %s, %s\n\n", r.Machine, r.Queries.Gomaxprocs, r.GoVersion, r.Commit, r.Date)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "query kind\tn\tp50 ms\tp95 ms\tp99 ms\tmax ms\tmean ms\tno hits\t")
	for _, k := range append(append([]string(nil), kinds...), "all") {
		l := r.Queries.Overall
		if k != "all" {
			l = r.Queries.ByKind[k]
		}
		fmt.Fprintf(tw, "%s\t%d\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%d\t\n", k, l.N, l.P50, l.P95, l.P99, l.Max, l.Mean, l.NoHits)
	}
	l := r.Queries.Warmup
	fmt.Fprintf(tw, "all, warm-up pass\t%d\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t\t\n", l.N, l.P50, l.P95, l.P99, l.Max, l.Mean)
	l = r.MCP.Mix
	fmt.Fprintf(tw, "all, through MCP\t%d\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t\t\n", l.N, l.P50, l.P95, l.P99, l.Max, l.Mean)
	tw.Flush()
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Slowest queries of each kind (measured pass):")
	for _, k := range kinds {
		var l []string
		for _, q := range r.Queries.Slowest {
			if q.Kind == k {
				l = append(l, fmt.Sprintf("%s %.0f ms", q.Text, q.MS))
			}
		}
		fmt.Fprintf(w, "  %s: %s\n", k, strings.Join(l, "; "))
	}
	if len(r.Queries.NoHits) > 0 {
		fmt.Fprintf(w, "Queries without hits: %q\n", r.Queries.NoHits)
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "measurement\tresult\t")
	if r.GenerateS > 0 {
		fmt.Fprintf(tw, "generate the synthetic notes\t%.1f s\t\n", r.GenerateS)
	}
	if r.Build != nil {
		fmt.Fprintf(tw, "full build (crossmem index, fresh library)\t%.1f s wall (%.1f s reported), peak RSS %.0f MB\t\n", r.Build.WallS, r.Build.ReportedS, r.Build.PeakRSSMB)
	}
	fmt.Fprintf(tw, "no-op sync (crossmem index, nothing changed)\t%.0f ms, peak RSS %.0f MB\t\n", r.NoopSyncMS, r.NoopPeakRSSMB)
	fmt.Fprintf(tw, "incremental: one note replaced, crossmem index\t%.0f ms median of %v\t\n", r.Incremental.CLIMedian, r.Incremental.CLIMS)
	fmt.Fprintf(tw, "incremental: index.UpdateNote in-process\t%.0f ms median of %v\t\n", r.Incremental.UpdateMedian, r.Incremental.UpdateMS)
	fmt.Fprintf(tw, "query process: open index\t%.1f ms\t\n", r.Queries.OpenMS)
	fmt.Fprintf(tw, "query process: peak RSS after warm-up + measured pass\t%.0f MB (Go runtime %.0f MB)\t\n", r.Queries.PeakRSSMB, r.Queries.GoHeapMB)
	fmt.Fprintf(tw, "MCP server: start to initialize reply\t%.0f ms median\t\n", r.MCP.ReadyMS)
	fmt.Fprintf(tw, "MCP server: start to first crossmem_recall reply\t%.0f ms median (query %q)\t\n", r.MCP.FirstAnswerMS, r.MCP.FirstQuery)
	fmt.Fprintf(tw, "MCP server: peak RSS after the mix\t%.0f MB (RSS at the end %.0f MB)\t\n", r.MCP.PeakRSSMB, r.MCP.RSSMB)
	tw.Flush()
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "target\tmeasured\tlimit\t\t")
	for _, t := range r.Targets {
		ok := "ok"
		if !t.OK {
			ok = fmt.Sprintf("MISSED by %.0f %s (%.0f %%)", t.Value-t.Limit, t.Unit, 100*(t.Value-t.Limit)/t.Limit)
		}
		fmt.Fprintf(tw, "%s\t%.1f %s\t%.0f %s\t%s\t\n", t.What, t.Value, t.Unit, t.Limit, t.Unit, ok)
	}
	tw.Flush()
}
