// Command enrich measures the enrich stage (internal/enrich) against a
// real Ollama server: chunks answered per second at several concurrencies,
// as ratios to one request at a time measured in the same run, and what an
// interruption halfway costs a rerun.
//
//	CROSSMEM_TEST_OLLAMA=$(scripts/build-ollama.sh) go run ./bench/enrich
//	go run ./bench/enrich -ollama /path/to/ollama -c 1,2,4 -n 3 -pdf gr_1001._0908.0054.pdf
//
// The server is started from the given binary on a loopback port with its
// own model folder, and serves a tiny generated llama model
// (internal/ollamatest): the figures measure crossmem's pipeline and the
// server's request handling on this machine, not the speed or quality of
// a real model. A 3B model on two CPU cores answers in about 20 s per
// chunk; there, requests at once help only as far as the server batches
// them.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/crossmem/crossmem/bench/internal/corpuslib"
	"github.com/crossmem/crossmem/internal/cite"
	"github.com/crossmem/crossmem/internal/compile"
	"github.com/crossmem/crossmem/internal/enrich"
	"github.com/crossmem/crossmem/internal/index"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/llm"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/ollamatest"
	"github.com/crossmem/crossmem/internal/pdf"
)

func main() {
	bin := flag.String("ollama", os.Getenv(ollamatest.EnvBinary), "ollama binary (scripts/build-ollama.sh builds one)")
	levels := flag.String("c", "1,2,4", "concurrencies to measure, comma-separated")
	rounds := flag.Int("n", 3, "rounds per concurrency")
	file := flag.String("pdf", "gr_1001._0908.0054.pdf", "corpus PDF to enrich (in ../shared/corpus/pdf)")
	corpusDir := flag.String("corpus", "", "corpus PDF folder (default ../shared/corpus/pdf beside the module)")
	flag.Parse()
	if *bin == "" {
		fail(fmt.Errorf("no ollama binary: pass -ollama or set %s (scripts/build-ollama.sh builds one)", ollamatest.EnvBinary))
	}
	var cs []int
	for _, f := range strings.Split(*levels, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			fail(fmt.Errorf("-c: %q is not a concurrency", f))
		}
		cs = append(cs, n)
	}
	if *corpusDir == "" {
		root, err := corpuslib.ModuleRoot()
		if err != nil {
			fail(err)
		}
		*corpusDir = filepath.Join(root, "..", "shared", "corpus", "pdf")
	}
	if err := run(*bin, filepath.Join(*corpusDir, *file), cs, *rounds); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "enrich bench:", err)
	os.Exit(1)
}

func run(bin, pdfPath string, cs []int, rounds int) error {
	ctx := context.Background()
	tmp, err := os.MkdirTemp("", "crossmem-bench-enrich-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	srv, err := ollamatest.Launch(bin, filepath.Join(tmp, "ollama"), ollamatest.Options{NumParallel: slices.Max(cs)})
	if err != nil {
		return err
	}
	defer srv.Close()
	if err := srv.CreateChatModel("tiny", 1); err != nil {
		return err
	}
	client, err := llm.New(llm.Ollama, llm.Options{URL: srv.URL, Model: "tiny", Temperature: 0.8})
	if err != nil {
		return err
	}
	model, err := client.Identify(ctx)
	if err != nil {
		return err
	}

	lib, paper, err := compilePaper(ctx, filepath.Join(tmp, "lib"), pdfPath)
	if err != nil {
		return err
	}
	ix, err := index.Open(filepath.Join(lib.Home, index.FileName), lib.WikiDir())
	if err != nil {
		return err
	}
	defer ix.Close()
	if _, err := ix.Sync(ctx, nil); err != nil {
		return err
	}
	papers := []*library.Paper{paper}
	opts := func(key string, c int) enrich.Options {
		m := model
		m.Digest += key // a key of its own: every text is asked again
		return enrich.Options{Lib: lib, Store: ix, Client: client, Model: m, Concurrency: c}
	}

	// Warm the model runner.
	if _, err := enrich.Run(ctx, papers, opts("#warm", slices.Max(cs))); err != nil {
		return err
	}

	fmt.Printf("enrich of %s with a tiny generated llama model on ollama (OLLAMA_NUM_PARALLEL=%d), %d round(s) each\n\n",
		filepath.Base(pdfPath), slices.Max(cs), rounds)
	fmt.Println("| concurrency | texts | chunks/s min | median | max | median vs concurrency " + strconv.Itoa(cs[0]) + " |")
	fmt.Println("|---:|---:|---:|---:|---:|---:|")
	var base float64
	for _, c := range cs {
		var rates []float64
		texts := 0
		for r := range rounds {
			res, err := enrich.Run(ctx, papers, opts(fmt.Sprintf("#c%d-r%d", c, r), c))
			if err != nil {
				return err
			}
			if res.Failed > 0 {
				return fmt.Errorf("concurrency %d: %d texts failed: %s", c, res.Failed, res.FirstError)
			}
			texts = res.Answered
			rates = append(rates, float64(res.Answered)/res.Elapsed.Seconds())
		}
		slices.Sort(rates)
		med := rates[len(rates)/2]
		if base == 0 {
			base = med
		}
		fmt.Printf("| %d | %d | %.2f | %.2f | %.2f | %.2f× |\n", c, texts, rates[0], med, rates[len(rates)-1], med/base)
	}

	// An interruption halfway, then the rerun.
	c := slices.Max(cs)
	ictx, cancel := context.WithCancel(ctx)
	o := opts("#resume", c)
	var total int
	o.Progress = func(p enrich.Progress) {
		total = p.Total
		if p.Done >= p.Total/2 {
			cancel()
		}
	}
	first, err := enrich.Run(ictx, papers, o)
	cancel()
	if err == nil {
		return fmt.Errorf("the interrupted run finished")
	}
	o.Progress = nil
	second, err := enrich.Run(ctx, papers, o)
	if err != nil {
		return err
	}
	fmt.Printf("\ninterrupted at half (concurrency %d): %d of %d texts answered and kept after %d requests; the rerun asked %d (%d requests), %d answered before\n",
		c, first.Answered, total, first.Requests, second.Asked, second.Requests, second.Stored)
	return nil
}

// compilePaper captures the PDF at path into a new library at home (as a
// local capture with no metadata) and compiles it.
func compilePaper(ctx context.Context, home, path string) (*library.Library, *library.Paper, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	lib, err := library.Open(home)
	if err != nil {
		return nil, nil, err
	}
	p, err := lib.NewPaper("bench2024enrich", time.Now().Unix())
	if err != nil {
		return nil, nil, err
	}
	sum := sha256.Sum256(data)
	rec := metadata.Record{Title: strings.TrimSuffix(filepath.Base(path), ".pdf")}
	p.Sidecar = library.Sidecar{CiteKey: p.CiteKey, Title: rec.Title, PDFSHA256: hex.EncodeToString(sum[:]), CapturedAt: p.Stamp, Metadata: rec}
	if err := library.WriteFileAtomic(p.PDFPath, data, 0o644); err != nil {
		return nil, nil, err
	}
	if err := lib.WriteSidecar(p); err != nil {
		return nil, nil, err
	}
	engine, err := pdf.Open(ctx, pdf.Options{})
	if err != nil {
		return nil, nil, err
	}
	defer engine.Close()
	if _, err := compile.Run(ctx, lib, p.CiteKey, compile.Options{Engine: engine, Cite: cite.Citer{Lib: lib}}); err != nil {
		return nil, nil, err
	}
	return lib, p, nil
}
