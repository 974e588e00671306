//go:build !unix

package main

import "os"

// maxRSS is not measured on this system.
func maxRSS(*os.ProcessState) int64 { return 0 }
