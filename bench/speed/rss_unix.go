//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
	"time"
)

// maxRSS is the peak resident set size of a finished process in bytes
// (getrusage ru_maxrss: KiB on Linux, bytes on macOS).
func maxRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss)
	}
	return int64(ru.Maxrss) * 1024
}

// selfCPU is this process's CPU time so far (user+system, getrusage).
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
