// Command speed measures how fast crossmem extracts text compared with
// poppler's pdftotext, on the same corpus in the same run.
//
// Extraction is compile.Extract (pdfium in WebAssembly, layout, chunks: what
// "crossmem compile" does before writing the note) over every PDF of the
// folder, sequentially, with one engine; its wall time and the CPU time of
// this process are measured. The engine itself may read the pages of one
// PDF on several pdfium instances (pdf.Options.Workers, flag -workers), so
// CPU time can exceed wall time. pdftotext is "pdftotext -enc UTF-8 FILE
// /dev/null" run once per file, sequentially; the wall time of each process
// (start to exit) and its user+system CPU time are summed. Files are read
// into memory before timing. Each measurement is repeated -n times
// (default 3) and the median is reported, as pages per second for both and
// the ratio ours/poppler.
//
// Engine start-up is timed separately: cold is pdf.Open with an empty
// wazero compilation cache (pdfium is compiled from WebAssembly), warm is
// pdf.Open with the cache that the cold start filled.
//
// Usage, from the repository root:
//
//	go run ./bench/speed            # summary table
//	go run ./bench/speed -n 5 -v    # 5 repetitions, plus a per-file table
//	go run ./bench/speed -cpuprofile cpu.out && go tool pprof -top cpu.out
//
// -corpus sets the folder (default ../shared/corpus/pdf relative to the
// repository root).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"time"

	"github.com/crossmem/crossmem/bench/internal/corpus"
	"github.com/crossmem/crossmem/internal/compile"
	"github.com/crossmem/crossmem/internal/pdf"
)

// input is one PDF of the corpus.
type input struct {
	name  string
	path  string
	data  []byte
	pages int
}

// sample is one timing.
type sample struct {
	wall, cpu time.Duration
}

func main() {
	corpusFlag := flag.String("corpus", "", "folder of PDFs (default ../shared/corpus/pdf relative to the repository root)")
	n := flag.Int("n", 3, "repetitions; the median is reported")
	verbose := flag.Bool("v", false, "also print a per-file table")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the extraction runs to this file")
	workers := flag.Int("workers", 0, "pdfium instances the engine reads pages on (pdf.Options.Workers; 0: its default)")
	flag.Parse()
	if err := run(*corpusFlag, max(*n, 1), *verbose, *cpuProfile, *workers); err != nil {
		fmt.Fprintln(os.Stderr, "speed:", err)
		os.Exit(1)
	}
}

func run(corpusFlag string, n int, verbose bool, cpuProfile string, workers int) error {
	if _, err := exec.LookPath("pdftotext"); err != nil {
		return fmt.Errorf("pdftotext not found (apt-get install -y poppler-utils): %w", err)
	}
	dir, err := corpus.Dir(corpusFlag)
	if err != nil {
		return err
	}
	files, err := corpus.PDFs(dir)
	if err != nil {
		return err
	}
	inputs := make([]*input, len(files))
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		inputs[i] = &input{name: filepath.Base(f), path: f, data: data}
	}

	ctx := context.Background()
	cold, warm, err := startup(ctx, n)
	if err != nil {
		return err
	}

	cache, err := os.MkdirTemp("", "crossmem-speed-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(cache)
	engine, err := pdf.Open(ctx, pdf.Options{CacheDir: cache, Workers: workers})
	if err != nil {
		return err
	}
	defer engine.Close()

	if cpuProfile != "" {
		// pdftotext runs in child processes, so the profile shows the
		// extraction only.
		f, err := os.Create(cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}

	var ours, theirs []sample
	oursPerFile := make([][]time.Duration, len(inputs))
	theirsPerFile := make([][]time.Duration, len(inputs))
	for rep := range n {
		fmt.Fprintf(os.Stderr, "repetition %d of %d\n", rep+1, n)
		s, perFile, err := timeExtract(ctx, engine, inputs)
		if err != nil {
			return err
		}
		ours = append(ours, s)
		for i, d := range perFile {
			oursPerFile[i] = append(oursPerFile[i], d)
		}
		s, perFile, err = timePdftotext(ctx, inputs)
		if err != nil {
			return err
		}
		theirs = append(theirs, s)
		for i, d := range perFile {
			theirsPerFile[i] = append(theirsPerFile[i], d)
		}
	}

	pages := 0
	for _, in := range inputs {
		pages += in.pages
	}
	o, t := medianSample(ours), medianSample(theirs)
	oRate, tRate := rate(pages, o.wall), rate(pages, t.wall)
	w := "default"
	if workers > 0 {
		w = fmt.Sprint(workers)
	}
	fmt.Printf("Corpus: %d PDFs, %d pages; median of %d runs; GOMAXPROCS %d, %s/%s; engine workers: %s.\n\n",
		len(inputs), pages, n, runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH, w)
	fmt.Println("| | crossmem (compile.Extract) | pdftotext | ours/poppler |")
	fmt.Println("|---|---:|---:|---:|")
	fmt.Printf("| wall time | %s | %s | %.2f× |\n", secs(o.wall), secs(t.wall), o.wall.Seconds()/t.wall.Seconds())
	fmt.Printf("| CPU time | %s | %s | %.2f× |\n", secs(o.cpu), secs(t.cpu), o.cpu.Seconds()/t.cpu.Seconds())
	fmt.Printf("| pages/s (wall) | %.1f | %.1f | %.2f |\n", oRate, tRate, oRate/tRate)
	fmt.Printf("| ms/page (wall) | %.2f | %.2f | |\n", 1000/oRate, 1000/tRate)
	fmt.Println()
	fmt.Println("| engine start-up (pdf.Open) | median |")
	fmt.Println("|---|---:|")
	fmt.Printf("| cold (empty wazero cache) | %s |\n", secs(cold))
	fmt.Printf("| warm (cache filled) | %s |\n", secs(warm))

	if verbose {
		fmt.Println()
		fmt.Println("| file | pages | crossmem ms | pdftotext ms | ours/poppler |")
		fmt.Println("|---|---:|---:|---:|---:|")
		for i, in := range inputs {
			a, b := median(oursPerFile[i]), median(theirsPerFile[i])
			fmt.Printf("| %s | %d | %.1f | %.1f | %.2f× |\n", in.name, in.pages,
				ms(a), ms(b), a.Seconds()/b.Seconds())
		}
	}
	return nil
}

// startup times pdf.Open n times cold (a fresh, empty cache folder) and
// warm (the folder the cold start filled) and returns the medians.
func startup(ctx context.Context, n int) (cold, warm time.Duration, err error) {
	var colds, warms []time.Duration
	for range n {
		dir, err := os.MkdirTemp("", "crossmem-speed-")
		if err != nil {
			return 0, 0, err
		}
		for _, d := range []*[]time.Duration{&colds, &warms} {
			start := time.Now()
			e, err := pdf.Open(ctx, pdf.Options{CacheDir: dir})
			if err != nil {
				os.RemoveAll(dir)
				return 0, 0, err
			}
			*d = append(*d, time.Since(start))
			e.Close()
		}
		os.RemoveAll(dir)
	}
	return median(colds), median(warms), nil
}

// timeExtract runs compile.Extract over all inputs and records their page
// counts.
func timeExtract(ctx context.Context, engine *pdf.Engine, inputs []*input) (sample, []time.Duration, error) {
	perFile := make([]time.Duration, len(inputs))
	cpu0 := processCPU()
	start := time.Now()
	for i, in := range inputs {
		t := time.Now()
		res, err := compile.Extract(ctx, engine, in.data, nil)
		if err != nil {
			return sample{}, nil, fmt.Errorf("extract %s: %w", in.name, err)
		}
		perFile[i] = time.Since(t)
		in.pages = res.Pages
	}
	return sample{wall: time.Since(start), cpu: processCPU() - cpu0}, perFile, nil
}

// timePdftotext runs pdftotext over all inputs, one process per file.
func timePdftotext(ctx context.Context, inputs []*input) (sample, []time.Duration, error) {
	perFile := make([]time.Duration, len(inputs))
	var s sample
	for i, in := range inputs {
		cmd := exec.CommandContext(ctx, "pdftotext", "-enc", "UTF-8", in.path, os.DevNull)
		start := time.Now()
		err := cmd.Run()
		d := time.Since(start)
		if err != nil {
			var exit *exec.ExitError
			// pdftotext exits non-zero on some damaged files after writing
			// what it could; only a failure to run it is fatal.
			if !errors.As(err, &exit) {
				return sample{}, nil, fmt.Errorf("pdftotext %s: %w", in.name, err)
			}
		}
		perFile[i] = d
		s.wall += d
		s.cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	return s, perFile, nil
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// medianSample takes the median of wall and CPU time separately.
func medianSample(ss []sample) sample {
	var wall, cpu []time.Duration
	for _, s := range ss {
		wall = append(wall, s.wall)
		cpu = append(cpu, s.cpu)
	}
	return sample{wall: median(wall), cpu: median(cpu)}
}

func rate(pages int, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(pages) / d.Seconds()
}

func secs(d time.Duration) string { return fmt.Sprintf("%.3f s", d.Seconds()) }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
