//go:build unix

package pdf

import (
	"syscall"

	"github.com/tetratelabs/wazero/experimental"
)

// memoryAllocator backs each pdfium instance's WebAssembly memory with its
// own anonymous mapping, reserved up to the memory's maximum and made
// readable and writable as the memory grows, instead of a Go slice. The
// memory then grows in place (wazero's default copies it into a larger
// slice, leaving the old one to the garbage collector), is not counted in
// the Go heap (whose collector would otherwise let the heap grow to twice
// pdfium's memory before collecting), and costs resident memory only for
// the pages pdfium touches. A failed reservation falls back to a Go slice.
func memoryAllocator() experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(_, max uint64) experimental.LinearMemory {
		b, err := syscall.Mmap(-1, 0, int(max), syscall.PROT_NONE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
		if err != nil || max == 0 {
			return &sliceMemory{}
		}
		return &mappedMemory{reserved: b}
	})
}

// mappedMemory is a WebAssembly memory in a reserved mapping; the first
// usable bytes are readable and writable.
type mappedMemory struct {
	reserved []byte
	usable   int
}

func (m *mappedMemory) Reallocate(size uint64) []byte {
	if size > uint64(len(m.reserved)) {
		return nil
	}
	if n := int(size); n > m.usable {
		page := syscall.Getpagesize()
		end := min((n+page-1)/page*page, len(m.reserved))
		if err := syscall.Mprotect(m.reserved[m.usable:end], syscall.PROT_READ|syscall.PROT_WRITE); err != nil {
			return nil
		}
		m.usable = end
	}
	return m.reserved[:size:size]
}

func (m *mappedMemory) Free() {
	if m.reserved != nil {
		syscall.Munmap(m.reserved)
		m.reserved, m.usable = nil, 0
	}
}
