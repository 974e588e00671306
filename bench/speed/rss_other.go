//go:build !unix

package main

import (
	"os"
	"time"
)

// maxRSS is not measured on this system.
func maxRSS(*os.ProcessState) int64 { return 0 }

// selfCPU is not measured on this system.
func selfCPU() time.Duration { return 0 }
