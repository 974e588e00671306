package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/crossmem/crossmem/internal/index"
	"github.com/crossmem/crossmem/internal/search"
)

// The query pass runs in a child process (this program started again with
// -query-worker), so that its peak RSS is that of a process that opened
// the index and answered the queries, not of the generator.

// workerSpec is what the parent gives the query worker (a JSON file).
type workerSpec struct {
	Home       string       `json:"home"`
	Queries    []benchQuery `json:"queries"`
	CPUProfile string       `json:"cpu_profile,omitempty"`
}

// workerResult is what the worker prints (JSON on stdout).
type workerResult struct {
	WarmupMS   []float64 `json:"warmup_ms"`
	MS         []float64 `json:"ms"`
	Hits       []int     `json:"hits"`
	OpenMS     float64   `json:"open_ms"`
	HWMMB      float64   `json:"vm_hwm_mb"`
	RSSMB      float64   `json:"vm_rss_mb"`
	GoHeapMB   float64   `json:"go_heap_sys_mb"`
	Gomaxprocs int       `json:"gomaxprocs"`
}

// queryWorker opens the index of spec.Home, runs every query once to warm
// up, then again measuring each (search.Query{Text}, the default limit of
// 5, as crossmem_recall without arguments), and reports the durations and
// its own peak RSS.
func queryWorker(specPath string) error {
	data, err := os.ReadFile(specPath)
	if err != nil {
		return err
	}
	var spec workerSpec
	if err := json.Unmarshal(data, &spec); err != nil {
		return err
	}
	ctx := context.Background()
	t0 := time.Now()
	ix, err := index.Open(filepath.Join(spec.Home, index.FileName), filepath.Join(spec.Home, "wiki"))
	if err != nil {
		return err
	}
	defer ix.Close()
	res := workerResult{OpenMS: ms(time.Since(t0)), Gomaxprocs: runtime.GOMAXPROCS(0)}
	run := func(q benchQuery) (float64, int, error) {
		t := time.Now()
		r, err := ix.Search(ctx, search.Query{Text: q.Text})
		d := ms(time.Since(t))
		if err != nil {
			return 0, 0, fmt.Errorf("query %q: %w", q.Text, err)
		}
		return d, len(r.Hits), nil
	}
	for _, q := range spec.Queries {
		d, _, err := run(q)
		if err != nil {
			return err
		}
		res.WarmupMS = append(res.WarmupMS, d)
	}
	if spec.CPUProfile != "" {
		f, err := os.Create(spec.CPUProfile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer f.Close()
	}
	for _, q := range spec.Queries {
		d, n, err := run(q)
		if err != nil {
			return err
		}
		res.MS = append(res.MS, d)
		res.Hits = append(res.Hits, n)
	}
	if spec.CPUProfile != "" {
		pprof.StopCPUProfile()
	}
	res.HWMMB, res.RSSMB, _ = procStatus("self")
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	res.GoHeapMB = round3(float64(m.Sys) / (1 << 20))
	return json.NewEncoder(os.Stdout).Encode(res)
}

// runQueryWorker starts this program as the query worker and returns its
// result.
func runQueryWorker(spec workerSpec, tmpDir string) (*workerResult, error) {
	specPath := filepath.Join(tmpDir, "queries.json")
	data, err := json.Marshal(spec)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(specPath, data, 0o644); err != nil {
		return nil, err
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, "-query-worker", specPath)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("query worker: %w", err)
	}
	var res workerResult
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, fmt.Errorf("query worker output: %w", err)
	}
	return &res, nil
}
