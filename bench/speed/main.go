// Command speed measures how fast crossmem compiles PDFs compared with
// tools that only read the text layer, on the same corpus in the same run.
//
// It builds the crossmem binary and captures every PDF of the corpus folder
// into a scratch library, offline (the metadata services point at a port
// nothing listens on; PDFs that give no title are captured with a cite key
// made from their file name). That setup is not timed. Then, in each of -n
// rounds (default 3, at least 3 for the record), one after the other:
//
//   - crossmem: "crossmem compile --all -q" on a fresh copy of the captured
//     library: one process, every paper, every stage but the language model
//     (read, lay out, chunk, cite, draw the figure crops, write the notes
//     and crops, update the search index); warm wazero cache;
//   - pdftotext: "pdftotext -enc UTF-8 FILE /dev/null", one process per
//     file, sequentially;
//   - pdftotext -bbox-layout: the same with word boxes (XHTML);
//   - mutool: "mutool draw -q -F stext -o /dev/null FILE" (structured text
//     with boxes), one process per file.
//
// Each is timed by wall clock (start to exit, summed over the processes) and
// by CPU time (user+system of the processes). The tables give min and
// median over the rounds of each, pages per second, and crossmem's speed as
// a multiple of each tool's (their time / ours: above 1 we are faster), by
// wall and by CPU, from the medians. The machine's load average is printed
// with each round: the ratios are what to compare across runs.
//
// Also measured, per round: the single-paper CLI compile ("crossmem compile
// KEY -q") of the corpus median paper by page count, cold (an empty wazero
// compilation cache: pdfium is compiled from WebAssembly first) and warm
// (the cache filled); then, in this process, -n rounds of the figure crops
// alone (compile.RenderFigures over every corpus paper's figure chunks:
// each figure's region only, at compile.FigureDPI, PNG-encoded; wall and
// CPU time, and their share of the batch's CPU time; then once more step
// by step on one instance, to split their CPU time into opening the PDFs,
// loading the pages, drawing the regions and encoding the PNGs); and
// once, every
// paper compiled in a process of its own with its peak resident set size
// (getrusage ru_maxrss), largest first with -v.
//
// -cpuprofile FILE instead profiles one batch compile in this process
// (compile.RunAll and the index update beside it, as compile --all runs
// them) and
// reports how many goroutines were running or runnable, sampled every
// millisecond (runtime/metrics): how many cores the batch could use,
// which the machine's load does not change. -memprofile FILE adds a heap
// profile of the allocations (sampled about every 64 KiB, counted from
// the start of the process).
//
// Usage, from the repository root:
//
//	go run ./bench/speed            # tables, 3 rounds
//	go run ./bench/speed -n 5 -v    # 5 rounds, plus the per-paper table
//
// -against BIN adds another crossmem binary (an older build, say) as a
// tool: its "compile --all -q" runs right after ours in every round, on a
// copy of the same captured library, so that a change is measured side
// by side under the same load.
//
// -corpus sets the folder (default ../shared/corpus/pdf relative to the
// repository root). It needs pdftotext (poppler-utils) and mutool
// (mupdf-tools).
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/crossmem/crossmem/bench/internal/corpus"
	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/cite"
	"github.com/crossmem/crossmem/internal/compile"
	"github.com/crossmem/crossmem/internal/index"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/pdf"
)

// sample is one timing of a whole run.
type sample struct {
	wall, cpu time.Duration
	rss       int64 // peak resident set size in bytes (the largest process)
}

// tool is one contender: name and how to run it once over the corpus.
type tool struct {
	name string
	run  func() (sample, error)
}

func main() {
	corpusFlag := flag.String("corpus", "", "folder of PDFs (default ../shared/corpus/pdf relative to the repository root)")
	n := flag.Int("n", 3, "rounds; min and median are reported")
	verbose := flag.Bool("v", false, "also print the per-paper table (one process per paper: time and peak RSS)")
	cpuProfile := flag.String("cpuprofile", "", "only profile: write a CPU profile of one batch compile in this process (compile.RunAll over the captured corpus and the index update, as compile --all runs them) to this file")
	against := flag.String("against", "", "another crossmem binary (an older build) to time side by side: its compile --all runs in every round after ours, on a copy of the same captured library, and is listed as a tool")
	memProfile := flag.String("memprofile", "", "with -cpuprofile: also write a heap profile (alloc_space: allocations sampled about every 64 KiB since the process started, the batch compile and its setup) to this file")
	flag.Parse()
	if err := run(*corpusFlag, max(*n, 1), *verbose, *cpuProfile, *memProfile, *against); err != nil {
		fmt.Fprintln(os.Stderr, "speed:", err)
		os.Exit(1)
	}
}

// bench is the scratch state of one run.
type bench struct {
	work     string   // scratch folder
	bin      string   // the crossmem binary
	files    []string // corpus PDFs
	pristine string   // the captured library, never compiled
	cache    string   // a warm wazero cache folder
	env      []string
	papers   []paper // captured papers with their page counts
	pages    int
}

type paper struct {
	key   string
	pages int
}

func run(corpusFlag string, n int, verbose bool, cpuProfile, memProfile, against string) error {
	for _, t := range []string{"pdftotext", "mutool"} {
		if _, err := exec.LookPath(t); err != nil {
			return fmt.Errorf("%s not found (apt-get install -y poppler-utils mupdf-tools): %w", t, err)
		}
	}
	dir, err := corpus.Dir(corpusFlag)
	if err != nil {
		return err
	}
	files, err := corpus.PDFs(dir)
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "crossmem-speed-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	b := &bench{work: work, files: files, bin: filepath.Join(work, "crossmem"), pristine: filepath.Join(work, "pristine"), cache: filepath.Join(work, "cache")}
	fmt.Fprintln(os.Stderr, "building crossmem, capturing the corpus (not timed)")
	if err := b.setup(); err != nil {
		return err
	}
	if cpuProfile != "" {
		return b.profile(cpuProfile, memProfile)
	}

	tools := []tool{
		{"crossmem compile --all", b.compileAll(b.bin)},
		{"pdftotext", b.each("pdftotext", "-enc", "UTF-8", "{}", os.DevNull)},
		{"pdftotext -bbox-layout", b.each("pdftotext", "-bbox-layout", "-enc", "UTF-8", "{}", os.DevNull)},
		{"mutool draw -F stext", b.each("mutool", "draw", "-q", "-F", "stext", "-o", os.DevNull, "{}")},
	}
	if against != "" {
		abs, err := filepath.Abs(against)
		if err != nil {
			return err
		}
		tools = slices.Insert(tools, 1, tool{"crossmem compile --all (" + against + ")", b.compileAll(abs)})
	}
	samples := make([][]sample, len(tools))
	median := b.medianPaper()
	var cold, warm []sample
	var loads []string
	for r := range n {
		load := loadavg()
		for i, t := range tools {
			fmt.Fprintf(os.Stderr, "round %d of %d: %s\n", r+1, n, t.name)
			s, err := t.run()
			if err != nil {
				return fmt.Errorf("%s: %w", t.name, err)
			}
			samples[i] = append(samples[i], s)
		}
		fmt.Fprintf(os.Stderr, "round %d of %d: crossmem compile %s (cold, warm)\n", r+1, n, median.key)
		c, w, err := b.single(median.key)
		if err != nil {
			return err
		}
		cold, warm = append(cold, c), append(warm, w)
		loads = append(loads, fmt.Sprintf("round %d: %s → %s", r+1, load, loadavg()))
	}
	fmt.Fprintln(os.Stderr, "one process per paper (peak RSS)")
	per, err := b.perPaper()
	if err != nil {
		return err
	}
	// Last: it grows this process, whose peak RSS a child started with
	// vfork inherits in its ru_maxrss.
	fmt.Fprintln(os.Stderr, "figure crops, in this process")
	figs, err := b.figures(n)
	if err != nil {
		return err
	}

	fmt.Printf("Corpus: %d PDFs, %d pages; %d rounds; %d cores (GOMAXPROCS %d), %s/%s.\n",
		len(files), b.pages, n, runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH)
	fmt.Printf("Load average (1, 5, 15 min) before → after each round: %s.\n\n", strings.Join(loads, "; "))
	fmt.Println("| tool | wall min | wall median | CPU min | CPU median | pages/s (wall, median) | pages/CPU-s (median) |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|")
	med := make([]sample, len(tools))
	for i, t := range tools {
		lo, mid := minSample(samples[i]), medianSample(samples[i])
		med[i] = mid
		fmt.Printf("| %s | %s | %s | %s | %s | %.1f | %.1f |\n", t.name, secs(lo.wall), secs(mid.wall), secs(lo.cpu), secs(mid.cpu),
			rate(b.pages, mid.wall), rate(b.pages, mid.cpu))
	}
	fmt.Println()
	fmt.Println("crossmem's speed as a multiple of each tool's (their median time / ours; per round: min–max):")
	fmt.Println()
	fmt.Println("| reference | by wall | by CPU |")
	fmt.Println("|---|---:|---:|")
	for i := 1; i < len(tools); i++ {
		var rw, rc []float64
		for r := range samples[0] {
			rw = append(rw, samples[i][r].wall.Seconds()/samples[0][r].wall.Seconds())
			rc = append(rc, samples[i][r].cpu.Seconds()/samples[0][r].cpu.Seconds())
		}
		fmt.Printf("| %s | %.2f× (%.2f–%.2f) | %.2f× (%.2f–%.2f) |\n", tools[i].name,
			med[i].wall.Seconds()/med[0].wall.Seconds(), slices.Min(rw), slices.Max(rw),
			med[i].cpu.Seconds()/med[0].cpu.Seconds(), slices.Min(rc), slices.Max(rc))
	}
	fmt.Printf("\nPeak RSS of compile --all: %s (median).\n\n", mib(med[0].rss))

	fmt.Printf("Single-paper CLI compile of the corpus median paper (%s, %d pages), \"crossmem compile KEY -q\":\n\n", median.key, median.pages)
	fmt.Println("| | wall min | wall median | CPU median | peak RSS |")
	fmt.Println("|---|---:|---:|---:|---:|")
	for _, row := range []struct {
		name string
		s    []sample
	}{{"cold (empty wazero cache)", cold}, {"warm", warm}} {
		lo, mid := minSample(row.s), medianSample(row.s)
		fmt.Printf("| %s | %s | %s | %s | %s |\n", row.name, secs(lo.wall), secs(mid.wall), secs(mid.cpu), mib(mid.rss))
	}

	fmt.Printf("\nFigure crops (compile.RenderFigures: each figure's region only, at %d dpi, PNG-encoded; part of the batch above), "+
		"in this process on a pdf.Engine of %d instances, every corpus paper's figures one paper after the other: %d crops of %d papers; "+
		"wall min %s, median %s (%.1f ms a crop); CPU median %s; %.0f %% of the batch's median CPU time.\n",
		compile.FigureDPI, figs.workers, figs.crops, figs.papers, secs(figs.min.wall), secs(figs.med.wall),
		1000*figs.med.wall.Seconds()/float64(max(figs.crops, 1)), secs(figs.med.cpu), 100*figs.med.cpu.Seconds()/med[0].cpu.Seconds())
	sp := figs.split
	all := max((sp.open + sp.page + sp.draw + sp.encode).Seconds(), 1e-9)
	fmt.Printf("\nWhere the crops' CPU time goes (drawn once more, step by step, on one instance; %.1f megapixels): "+
		"opening the PDFs %s (%.0f %%), loading the pages with figures (FPDF_LoadPage) %s (%.0f %%), "+
		"drawing the regions (pdfium's rasteriser and the copy out of its memory) %s (%.0f %%), PNG encoding %s (%.0f %%).\n",
		float64(sp.pixels)/1e6, secs(sp.open), 100*sp.open.Seconds()/all, secs(sp.page), 100*sp.page.Seconds()/all,
		secs(sp.draw), 100*sp.draw.Seconds()/all, secs(sp.encode), 100*sp.encode.Seconds()/all)

	slices.SortFunc(per, func(a, b perResult) int { return int(b.rss - a.rss) })
	largest := slices.MaxFunc(per, func(a, b perResult) int { return a.pages - b.pages })
	fmt.Printf("\nOne process per paper (warm): peak RSS at most %s (%s, %d pages); the largest paper, %s (%d pages): %s.\n",
		mib(per[0].rss), per[0].key, per[0].pages, largest.key, largest.pages, mib(largest.rss))
	if verbose {
		fmt.Println()
		fmt.Println("| paper | pages | wall | CPU | peak RSS |")
		fmt.Println("|---|---:|---:|---:|---:|")
		for _, p := range per {
			fmt.Printf("| %s | %d | %s | %s | %s |\n", p.key, p.pages, secs(p.wall), secs(p.cpu), mib(p.rss))
		}
	}
	return nil
}

// profile writes a CPU profile of compile.RunAll over a copy of the
// captured library and the index update of the notes written beside it
// (what compile --all does), in this process, to path, and prints its time;
// with memPath, also a heap profile of the allocations (sampled about
// every 64 KiB, counted from the start of the process, setup included).
func (b *bench) profile(path, memPath string) error {
	home := filepath.Join(b.work, "profile")
	if err := copyDir(b.pristine, home); err != nil {
		return err
	}
	lib, err := library.Open(home)
	if err != nil {
		return err
	}
	ctx := context.Background()
	engine, err := pdf.Open(ctx, pdf.Options{CacheDir: filepath.Join(b.cache, "wazero")})
	if err != nil {
		return err
	}
	defer engine.Close()
	var keys []string
	for _, p := range b.papers {
		keys = append(keys, p.key)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if memPath != "" {
		runtime.MemProfileRate = 64 << 10
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		return err
	}
	ix, err := index.Open(filepath.Join(lib.Home, index.FileName), lib.WikiDir())
	if err != nil {
		return err
	}
	defer ix.Close()
	stopDemand := sampleDemand()
	start := time.Now()
	var failed error
	notes := make(chan string, len(keys))
	indexed := make(chan error, 1)
	go func() { // as compile --all
		_, err := ix.UpdateStream(ctx, notes, time.Second)
		indexed <- err
	}()
	compile.RunAll(ctx, lib, keys, compile.Options{Engine: engine, Cite: cite.Citer{Lib: lib}}, func(key string, res *compile.Result, err error) {
		if err != nil && failed == nil {
			failed = fmt.Errorf("compile %s: %w", key, err)
		}
		if err == nil {
			notes <- res.Path
		}
	})
	compiled := time.Since(start)
	close(notes)
	err = <-indexed
	pprof.StopCPUProfile()
	demand := stopDemand()
	fmt.Printf("compile.RunAll over %d papers, %d pages: %s wall; to the end of the index update (overlapped): %s\n", len(keys), b.pages, secs(compiled), secs(time.Since(start)))
	fmt.Printf("goroutines running or runnable (sampled every ms, whatever the machine's load): %s\n", demand)
	if memPath != "" {
		m, err := os.Create(memPath)
		if err != nil {
			return err
		}
		defer m.Close()
		if err := pprof.Lookup("allocs").WriteTo(m, 0); err != nil {
			return err
		}
	}
	if err != nil {
		return fmt.Errorf("index update: %w", err)
	}
	return failed
}

// sampleDemand samples, every millisecond until the returned function is
// called, how many goroutines are running or runnable (runtime/metrics;
// the sampler itself left out): how many cores the work could use, which
// the machine's load does not change. The function stops the sampler and
// describes the samples: the share of the time at 0, 1 and at least 2,
// and the mean of min(n, GOMAXPROCS).
func sampleDemand() func() string {
	samples := []metrics.Sample{{Name: "/sched/goroutines/running:goroutines"}, {Name: "/sched/goroutines/runnable:goroutines"}, {Name: "/sched/goroutines/not-in-go:goroutines"}}
	stop, done := make(chan struct{}), make(chan string)
	go func() {
		var hist [3]int
		var sum, n, sys float64
		procs := runtime.GOMAXPROCS(0)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-t.C:
			case <-stop:
				if n == 0 {
					done <- "no samples"
					return
				}
				done <- fmt.Sprintf("0: %.0f %% (of which in a system call: %.0f %%), 1: %.0f %%, ≥2: %.0f %% of the time; mean of min(n, %d): %.2f",
					100*float64(hist[0])/n, 100*sys/n, 100*float64(hist[1])/n, 100*float64(hist[2])/n, procs, sum/n)
				return
			}
			metrics.Read(samples)
			var v [3]int
			for i, s := range samples {
				if s.Value.Kind() == metrics.KindUint64 {
					v[i] = int(s.Value.Uint64())
				}
			}
			k := max(v[0]+v[1]-1, 0) // less this goroutine
			if k == 0 && v[2] > 0 {
				sys++
			}
			hist[min(k, 2)]++
			sum += float64(min(k, procs))
			n++
		}
	}()
	return func() string {
		close(stop)
		return <-done
	}
}

// figureRun is the figure crops' measurement.
type figureRun struct {
	crops, papers, workers int
	min, med               sample
	// split is the CPU time of each step of the crops, drawn once more
	// one after the other on one pdfium instance (see figureSplit).
	split figureSplit
}

// figureSplit is where the figure crops' CPU time goes, measured step by
// step: opening the PDFs (pdfium parses the document), loading each page
// with a figure (FPDF_LoadPage: pdfium parses its content stream; the
// page's first pdf.Document.Geometry call does it), drawing each region
// (compile.DrawFigure: pdfium's rasteriser and the copy out of its
// memory, composited on white) and the PNG encoding (Rendering.PNG).
type figureSplit struct {
	open, page, draw, encode time.Duration
	pixels                   int
}

// figures times compile.RenderFigures over every corpus paper's figure
// chunks (from compile.Extract, not timed), n rounds, in this process.
func (b *bench) figures(n int) (figureRun, error) {
	ctx := context.Background()
	workers := min(runtime.GOMAXPROCS(0), 4) // pdf.Open's default, given so the report names it
	engine, err := pdf.Open(ctx, pdf.Options{CacheDir: filepath.Join(b.cache, "wazero"), Workers: workers})
	if err != nil {
		return figureRun{}, err
	}
	defer engine.Close()
	type paper struct {
		data   []byte
		chunks []chunk.Chunk
	}
	var ps []paper
	run := figureRun{workers: workers}
	for _, f := range b.files {
		data, err := os.ReadFile(f)
		if err != nil {
			return run, err
		}
		res, err := compile.Extract(ctx, engine, data, nil)
		if err != nil {
			return run, fmt.Errorf("%s: %w", filepath.Base(f), err)
		}
		k := 0
		for _, c := range res.Chunks {
			if c.Type == chunk.TypeFigure {
				k++
			}
		}
		if k > 0 {
			ps = append(ps, paper{data, res.Chunks})
			run.crops += k
			run.papers++
		}
	}
	var ss []sample
	for range n {
		start, cpu := time.Now(), selfCPU()
		for _, p := range ps {
			if _, err := compile.RenderFigures(engine, p.data, slices.Clone(p.chunks), "k"); err != nil {
				return run, err
			}
		}
		ss = append(ss, sample{wall: time.Since(start), cpu: selfCPU() - cpu})
	}
	run.min, run.med = minSample(ss), medianSample(ss)
	for _, p := range ps {
		if err := run.split.add(engine, p.data, p.chunks); err != nil {
			return run, err
		}
	}
	return run, nil
}

// add draws the figure chunks of one paper step by step (the steps of
// figureSplit), one after the other in this goroutine, and adds each
// step's CPU time (of this process: the garbage collector's share falls
// where it runs).
func (f *figureSplit) add(engine *pdf.Engine, data []byte, chunks []chunk.Chunk) error {
	cpu := selfCPU()
	step := func(d *time.Duration) {
		now := selfCPU()
		*d += now - cpu
		cpu = now
	}
	doc, err := engine.OpenBytes(data)
	if err != nil {
		return err
	}
	defer doc.Close()
	step(&f.open)
	loaded := map[int]bool{}
	for _, c := range chunks {
		if c.Type != chunk.TypeFigure {
			continue
		}
		if !loaded[c.Page] {
			loaded[c.Page] = true
			cpu = selfCPU()
			if _, err := doc.Geometry(c.Page); err != nil {
				return err
			}
			step(&f.page)
		}
		cpu = selfCPU()
		img, err := compile.DrawFigure(doc, c)
		step(&f.draw)
		if err != nil {
			continue // as RenderFigures: no image
		}
		f.pixels += len(img.Image.Pix) / 4
		if _, err := img.PNG(); err != nil {
			return err
		}
		step(&f.encode)
	}
	return nil
}

// setup builds the binary, captures the corpus offline into b.pristine,
// fills the wazero cache and finds each paper's page count (from a compile
// of a copy, which is then discarded).
func (b *bench) setup() error {
	build := exec.Command("go", "build", "-o", b.bin, "./cmd/crossmem")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("go build: %w", err)
	}
	dead := "http://127.0.0.1:9" // the discard port: connection refused
	b.env = append(os.Environ(), "CROSSMEM_CONFIG="+filepath.Join(b.work, "config.toml"),
		"CROSSMEM_ARXIV_API="+dead+"/api/query", "CROSSMEM_ARXIV_PDF="+dead+"/pdf", "CROSSMEM_CROSSREF_API="+dead,
		"CROSSMEM_OPENALEX_API="+dead, "CROSSMEM_DATACITE_API="+dead, "CROSSMEM_UNPAYWALL_API="+dead)
	out, _ := b.crossmem(b.pristine, b.cache, "capture", filepath.Dir(b.files[0]), "--json")
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var line struct{ Status, Input string }
		if json.Unmarshal(sc.Bytes(), &line) != nil || line.Status != "failed" {
			continue
		}
		key := strings.Trim(regexp.MustCompile(`[^A-Za-z0-9]+`).ReplaceAllString(strings.TrimSuffix(filepath.Base(line.Input), ".pdf"), "_"), "_")
		if out, err := b.crossmem(b.pristine, b.cache, "capture", line.Input, "--cite-key", key, "-q"); err != nil {
			return fmt.Errorf("capture %s: %v: %s", line.Input, err, out)
		}
	}
	lib := filepath.Join(b.work, "sizes")
	if err := copyDir(b.pristine, lib); err != nil {
		return err
	}
	out, err := b.crossmem(lib, b.cache, "compile", "--all", "--json")
	if err != nil {
		return fmt.Errorf("compile --all: %v: %s", err, out)
	}
	detail := regexp.MustCompile(` from ([0-9]+) pages?$`)
	sc = bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var line struct {
			Status, Detail string
			CiteKey        string `json:"cite_key"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil || line.Status != "compiled" {
			continue
		}
		m := detail.FindStringSubmatch(line.Detail)
		if m == nil {
			return fmt.Errorf("compile --all: no page count in %q", line.Detail)
		}
		p, _ := strconv.Atoi(m[1])
		b.papers = append(b.papers, paper{line.CiteKey, p})
		b.pages += p
	}
	if len(b.papers) != len(b.files) {
		return fmt.Errorf("compile --all compiled %d papers of %d PDFs", len(b.papers), len(b.files))
	}
	return os.RemoveAll(lib)
}

// crossmem runs the binary on library home with wazero cache folder cache
// and returns its stdout.
func (b *bench) crossmem(home, cache string, args ...string) ([]byte, error) {
	cmd := exec.Command(b.bin, args...)
	cmd.Env = append(slices.Clone(b.env), "CROSSMEM_HOME="+home, "CROSSMEM_CACHE="+cache)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("%w: %s", err, stderr.String())
	}
	return out, nil
}

// timed runs cmd and returns its wall time, CPU time and peak RSS.
func timed(cmd *exec.Cmd) (sample, error) {
	start := time.Now()
	err := cmd.Run()
	s := sample{wall: time.Since(start)}
	if cmd.ProcessState == nil {
		return s, err
	}
	s.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	s.rss = maxRSS(cmd.ProcessState)
	return s, err
}

// compileAll returns a timing of "BIN compile --all -q" on a fresh copy
// of the captured library (the copy is not timed).
func (b *bench) compileAll(bin string) func() (sample, error) {
	return func() (sample, error) {
		lib := filepath.Join(b.work, "all")
		os.RemoveAll(lib)
		if err := copyDir(b.pristine, lib); err != nil {
			return sample{}, err
		}
		defer os.RemoveAll(lib)
		cmd := exec.Command(bin, "compile", "--all", "-q")
		cmd.Env = append(slices.Clone(b.env), "CROSSMEM_HOME="+lib, "CROSSMEM_CACHE="+b.cache)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		s, err := timed(cmd)
		if err != nil {
			return s, fmt.Errorf("%w: %s", err, stderr.String())
		}
		return s, nil
	}
}

// each returns a run of name with args over every corpus file, one process
// per file, "{}" replaced by the file. A non-zero exit (poppler exits 1 on
// some damaged files after writing what it could) is not a failure.
func (b *bench) each(name string, args ...string) func() (sample, error) {
	return func() (sample, error) {
		var total sample
		for _, f := range b.files {
			a := slices.Clone(args)
			for i := range a {
				if a[i] == "{}" {
					a[i] = f
				}
			}
			cmd := exec.Command(name, a...)
			s, err := timed(cmd)
			var exit *exec.ExitError
			if err != nil && !errors.As(err, &exit) {
				return total, err
			}
			total.wall += s.wall
			total.cpu += s.cpu
			total.rss = max(total.rss, s.rss)
		}
		return total, nil
	}
}

// medianPaper is the corpus median paper by page count (the upper median).
func (b *bench) medianPaper() paper {
	ps := slices.Clone(b.papers)
	slices.SortStableFunc(ps, func(a, b paper) int { return a.pages - b.pages })
	return ps[len(ps)/2]
}

// single times "crossmem compile KEY -q" in a copy of the library with an
// empty wazero cache (cold), then again with the cache that run filled
// (warm).
func (b *bench) single(key string) (cold, warm sample, err error) {
	lib := filepath.Join(b.work, "single")
	cache := filepath.Join(b.work, "single-cache")
	os.RemoveAll(lib)
	os.RemoveAll(cache)
	defer os.RemoveAll(lib)
	defer os.RemoveAll(cache)
	if err := copyDir(b.pristine, lib); err != nil {
		return cold, warm, err
	}
	for _, s := range []*sample{&cold, &warm} {
		cmd := exec.Command(b.bin, "compile", key, "-q")
		cmd.Env = append(slices.Clone(b.env), "CROSSMEM_HOME="+lib, "CROSSMEM_CACHE="+cache)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if *s, err = timed(cmd); err != nil {
			return cold, warm, fmt.Errorf("compile %s: %w: %s", key, err, stderr.String())
		}
	}
	return cold, warm, nil
}

type perResult struct {
	paper
	sample
}

// perPaper compiles every paper in a process of its own (warm cache).
func (b *bench) perPaper() ([]perResult, error) {
	lib := filepath.Join(b.work, "each")
	os.RemoveAll(lib)
	defer os.RemoveAll(lib)
	if err := copyDir(b.pristine, lib); err != nil {
		return nil, err
	}
	var out []perResult
	for _, p := range b.papers {
		cmd := exec.Command(b.bin, "compile", p.key, "-q")
		cmd.Env = append(slices.Clone(b.env), "CROSSMEM_HOME="+lib, "CROSSMEM_CACHE="+b.cache)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		s, err := timed(cmd)
		if err != nil {
			return nil, fmt.Errorf("compile %s: %w: %s", p.key, err, stderr.String())
		}
		out = append(out, perResult{p, s})
	}
	return out, nil
}

// copyDir copies the regular files of the tree at src to dst.
func copyDir(src, dst string) error {
	return filepath.Walk(src, func(path string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		to := filepath.Join(dst, rel)
		if fi.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		if !fi.Mode().IsRegular() {
			return nil
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(to)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}

// loadavg is the first three fields of /proc/loadavg, "?" where there is
// none.
func loadavg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(data)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "?"
}

func sortedBy(ss []sample, key func(sample) time.Duration) []time.Duration {
	var ds []time.Duration
	for _, s := range ss {
		ds = append(ds, key(s))
	}
	slices.Sort(ds)
	return ds
}

func medianOf(ds []time.Duration) time.Duration {
	if len(ds)%2 == 1 {
		return ds[len(ds)/2]
	}
	return (ds[len(ds)/2-1] + ds[len(ds)/2]) / 2
}

// medianSample takes the median of wall and CPU time (and RSS) separately.
func medianSample(ss []sample) sample {
	rss := sortedBy(ss, func(s sample) time.Duration { return time.Duration(s.rss) })
	return sample{
		wall: medianOf(sortedBy(ss, func(s sample) time.Duration { return s.wall })),
		cpu:  medianOf(sortedBy(ss, func(s sample) time.Duration { return s.cpu })),
		rss:  int64(medianOf(rss)),
	}
}

// minSample takes the minimum of wall and CPU time separately.
func minSample(ss []sample) sample {
	return sample{
		wall: sortedBy(ss, func(s sample) time.Duration { return s.wall })[0],
		cpu:  sortedBy(ss, func(s sample) time.Duration { return s.cpu })[0],
	}
}

func rate(pages int, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(pages) / d.Seconds()
}

func secs(d time.Duration) string { return fmt.Sprintf("%.3f s", d.Seconds()) }

func mib(b int64) string { return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20)) }
