package pdf

// sliceMemory is a WebAssembly memory in a Go slice, grown by copying (as
// wazero does by default).
type sliceMemory struct{ b []byte }

func (m *sliceMemory) Reallocate(size uint64) []byte {
	if size > uint64(cap(m.b)) {
		b := make([]byte, size, max(size, 2*uint64(cap(m.b))))
		copy(b, m.b)
		m.b = b
	}
	m.b = m.b[:size]
	return m.b
}

func (m *sliceMemory) Free() { m.b = nil }
