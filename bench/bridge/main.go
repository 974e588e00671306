// Command bridge is the bridge's bounded load test (issue 17): N `ping`
// round trips through POST /command, `crossmem serve` and the real crossmem
// extension in Debian's chromium (paired by test/viewer-e2e/bridge.mjs in
// "hold" mode), -c at a time (default one after another), with the p50, p90, p99 and maximum
// latency. The reference of the same run is N GET /status round trips to
// the same server (HTTP and the token check, no extension): the ratio says
// what the WebSocket hop and the extension add.
//
//	go run ./bench/bridge [-n 1000] [-c 1] [-chromium /usr/bin/chromium]
//
// Run it from the repository root with test/viewer-e2e's npm packages
// installed (npm ci). It exits 1 when any round trip failed.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/crossmem/crossmem/internal/bridge"
)

var (
	bannerURL  = regexp.MustCompile(`^\[serve\] HTTP → (http://127\.0\.0\.1:\d+)/ \(library viewer\)$`)
	bannerCode = regexp.MustCompile(`^\[serve\] pairing code: ([2-9A-Z]{4}-[2-9A-Z]{4}) `)
)

func main() {
	n := flag.Int("n", 1000, "round trips")
	c := flag.Int("c", 1, "round trips at once (at most bridge.MaxPending)")
	chromium := flag.String("chromium", "/usr/bin/chromium", "the browser")
	flag.Parse()
	if err := run(*n, *c, *chromium); err != nil {
		fmt.Fprintln(os.Stderr, "bench/bridge:", err)
		os.Exit(1)
	}
}

func run(n, conc int, chromium string) error {
	conc = max(1, min(conc, bridge.MaxPending))
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(root, "extension", "manifest.json")); err != nil {
		return fmt.Errorf("run from the repository root (no extension/manifest.json here)")
	}
	tmp, err := os.MkdirTemp("", "crossmem-bench-bridge-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "crossmem")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/crossmem").CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	home := filepath.Join(tmp, "home")
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CROSSMEM_") && !strings.HasPrefix(kv, "BRIDGE_PORT=") {
			env = append(env, kv)
		}
	}
	env = append(env, "CROSSMEM_HOME="+home, "CROSSMEM_CONFIG="+filepath.Join(home, "config", "config.toml"), "CROSSMEM_LOG=warn")
	serve := exec.Command(bin, "serve", "--port", "0")
	serve.Env = env
	var serveErr bytes.Buffer
	serve.Stderr = &serveErr
	stdout, err := serve.StdoutPipe()
	if err != nil {
		return err
	}
	if err := serve.Start(); err != nil {
		return err
	}
	defer func() {
		serve.Process.Signal(os.Interrupt)
		serve.Wait()
	}()
	var base, code string
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if m := bannerURL.FindStringSubmatch(sc.Text()); m != nil {
			base = m[1]
		}
		if m := bannerCode.FindStringSubmatch(sc.Text()); m != nil {
			code = m[1]
			break
		}
	}
	go io.Copy(io.Discard, stdout)
	if base == "" || code == "" {
		return fmt.Errorf("no banner from crossmem serve: %s", serveErr.String())
	}
	tok, err := os.ReadFile(filepath.Join(home, "config", "bridge-token"))
	if err != nil {
		return err
	}
	token := strings.TrimSpace(string(tok))

	cfg, _ := json.Marshal(map[string]any{"mode": "hold", "base": base, "token": token, "code": code, "chromium": chromium,
		"extension": filepath.Join(root, "extension"), "profile": filepath.Join(tmp, "profile")})
	node := exec.Command("node", "bridge.mjs")
	node.Dir = filepath.Join(root, "test", "viewer-e2e")
	node.Env = append(os.Environ(), "BRIDGE_E2E="+string(cfg))
	stdin, _ := node.StdinPipe()
	nodeOut, _ := node.StdoutPipe()
	var nodeErr bytes.Buffer
	node.Stderr = &nodeErr
	if err := node.Start(); err != nil {
		return fmt.Errorf("node: %w", err)
	}
	defer func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { node.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			node.Process.Kill()
		}
	}()
	ns := bufio.NewScanner(nodeOut)
	paired := false
	for ns.Scan() {
		if strings.Contains(ns.Text(), `"paired":true`) {
			paired = true
			break
		}
		if strings.Contains(ns.Text(), `"failures"`) {
			return fmt.Errorf("the browser did not pair: %s\n%s", ns.Text(), nodeErr.String())
		}
	}
	if !paired {
		return fmt.Errorf("the browser did not pair: %s", nodeErr.String())
	}
	go io.Copy(io.Discard, nodeOut)

	client := &http.Client{Timeout: 30 * time.Second}
	call := func(method, path string, body []byte) (time.Duration, error) {
		req, _ := http.NewRequestWithContext(context.Background(), method, base+path, bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		start := time.Now()
		res, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		d := time.Since(start)
		if res.StatusCode != 200 || (path == "/command" && !bytes.Contains(b, []byte(`"pong":true`))) {
			return d, fmt.Errorf("%s %s: %d %s", method, path, res.StatusCode, b)
		}
		return d, nil
	}
	// measure makes n calls, conc at a time.
	measure := func(method, path string, body []byte) ([]time.Duration, int, string) {
		var (
			mu    sync.Mutex
			ds    []time.Duration
			fails int
			first string
			wg    sync.WaitGroup
		)
		next := make(chan struct{})
		for w := 0; w < conc; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range next {
					d, err := call(method, path, body)
					mu.Lock()
					if err != nil {
						fails++
						if first == "" {
							first = err.Error()
						}
					} else {
						ds = append(ds, d)
					}
					mu.Unlock()
				}
			}()
		}
		for i := 0; i < n; i++ {
			next <- struct{}{}
		}
		close(next)
		wg.Wait()
		slices.Sort(ds)
		return ds, fails, first
	}
	ping := []byte(`{"action":"ping","agentId":"bench"}`)
	// Warm up both paths.
	for i := 0; i < 20; i++ {
		call("POST", "/command", ping)
		call("GET", "/status", nil)
	}
	start := time.Now()
	pings, fails, first := measure("POST", "/command", ping)
	wall := time.Since(start)
	status, sfails, _ := measure("GET", "/status", nil)
	fmt.Printf("bridge load: %d ping round trips through POST /command, crossmem serve and the extension in chromium, %d at a time\n", n, conc)
	fmt.Printf("  ping:    p50 %s  p90 %s  p99 %s  max %s  (%d ok, %d failed, %.0f/s)\n", q(pings, 0.5), q(pings, 0.9), q(pings, 0.99), q(pings, 1), len(pings), fails, float64(len(pings))/wall.Seconds())
	fmt.Printf("  reference GET /status (no extension): p50 %s  p99 %s  (%d ok, %d failed)\n", q(status, 0.5), q(status, 0.99), len(status), sfails)
	if len(status) > 0 && len(pings) > 0 {
		fmt.Printf("  ratio ping/status: p50 %.1f×, p99 %.1f×\n", float64(q(pings, 0.5))/float64(q(status, 0.5)), float64(q(pings, 0.99))/float64(q(status, 0.99)))
	}
	if fails > 0 || sfails > 0 {
		return fmt.Errorf("%d pings and %d status calls failed; first: %s", fails, sfails, first)
	}
	return nil
}

// q returns the p-quantile of sorted ds (nearest rank).
func q(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	i := int(float64(len(ds))*p+0.999999) - 1
	i = max(0, min(i, len(ds)-1))
	return ds[i].Round(10 * time.Microsecond)
}
