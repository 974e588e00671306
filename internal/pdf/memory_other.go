//go:build !unix

package pdf

import "github.com/tetratelabs/wazero/experimental"

// memoryAllocator returns nil: wazero's default (a Go slice).
func memoryAllocator() experimental.MemoryAllocator { return nil }
