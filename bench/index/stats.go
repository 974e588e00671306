package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// latency summarizes durations in milliseconds. Percentiles are nearest
// rank: pXX is the smallest value at or above XX % of the sample.
type latency struct {
	N      int     `json:"n"`
	P50    float64 `json:"p50_ms"`
	P95    float64 `json:"p95_ms"`
	P99    float64 `json:"p99_ms"`
	Max    float64 `json:"max_ms"`
	Mean   float64 `json:"mean_ms"`
	NoHits int     `json:"no_hits,omitempty"` // queries that found nothing
}

func summarize(ms []float64) latency {
	if len(ms) == 0 {
		return latency{}
	}
	s := slices.Clone(ms)
	slices.Sort(s)
	rank := func(p float64) float64 {
		i := int(math.Ceil(p*float64(len(s)))) - 1
		return round3(s[max(0, min(i, len(s)-1))])
	}
	var sum float64
	for _, v := range s {
		sum += v
	}
	return latency{N: len(s), P50: rank(0.50), P95: rank(0.95), P99: rank(0.99), Max: round3(s[len(s)-1]), Mean: round3(sum / float64(len(s)))}
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }

func ms(d time.Duration) float64 { return round3(float64(d) / float64(time.Millisecond)) }

// procStatus returns VmHWM (peak resident set) and VmRSS of process pid
// ("self" for this one) in MB, from /proc/<pid>/status.
func procStatus(pid string) (hwm, rss float64, err error) {
	f, err := os.Open("/proc/" + pid + "/status")
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		fs := strings.Fields(v)
		if len(fs) == 0 {
			continue
		}
		kb, _ := strconv.ParseFloat(fs[0], 64)
		switch k {
		case "VmHWM":
			hwm = round3(kb / 1024)
		case "VmRSS":
			rss = round3(kb / 1024)
		}
	}
	return hwm, rss, sc.Err()
}

// watchPeak polls the VmHWM (peak resident set) of the running process
// pid every 10 ms until the returned function is called, which returns the
// last value read, in MB. VmHWM only grows, so this is the process's peak
// up to at most 10 ms before it exited.
//
// The children's rusage (ru_maxrss) is not used: Go starts children with
// vfork (CLONE_VM), and Linux carries the parent's peak over into the
// child's ru_maxrss at exec, so a child that stays smaller than this
// program reports this program's peak.
func watchPeak(pid int) (stop func() float64) {
	done := make(chan struct{})
	result := make(chan float64, 1)
	go func() {
		var peak float64
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			if hwm, _, err := procStatus(strconv.Itoa(pid)); err == nil && hwm > peak {
				peak = hwm
			}
			select {
			case <-done:
				result <- peak
				return
			case <-t.C:
			}
		}
	}()
	return func() float64 {
		close(done)
		return <-result
	}
}

// cpuModel is the machine's CPU model name and count.
func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	n := 0
	model := ""
	for _, l := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
			n++
			model = strings.TrimSpace(v)
		}
	}
	return fmt.Sprintf("%d × %s", n, model)
}

// dirSize is the total size of the regular files under dir.
func dirSize(paths ...string) int64 {
	var n int64
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			n += fi.Size()
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() {
				n += fi.Size()
			}
		}
	}
	return n
}
