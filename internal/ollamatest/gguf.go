package ollamatest

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
)

// GGUF v3, the file format llama.cpp and Ollama load models from
// (https://github.com/ggml-org/ggml/blob/master/docs/gguf.md): a header
// (magic "GGUF", version 3, tensor count, key/value count), typed key/value
// metadata, tensor descriptors (name, dimensions innermost first, type,
// offset into the data section), then the tensor data, every tensor aligned
// to 32 bytes. Everything is little-endian; strings are a uint64 length and
// bytes. Only what the tiny test models need is written: F32 tensors and
// metadata of types uint32, int32, float32, bool, string and arrays of
// strings, float32 and int32.

const (
	ggufAlignment = 32
	ggmlTypeF32   = 0
)

// gguf value types.
const (
	ggufUint32  = 4
	ggufInt32   = 5
	ggufFloat32 = 6
	ggufBool    = 7
	ggufString  = 8
	ggufArray   = 9
)

// kv is one metadata entry; value is a uint32, int32, float32, bool,
// string, []string, []float32 or []int32.
type kv struct {
	key   string
	value any
}

// tensor is one F32 tensor. dims are innermost first (ggml's ne[0] is the
// length of a row), so a linear map from n inputs to m outputs is {n, m}.
type tensor struct {
	name string
	dims []uint64
	data []float32
}

func (t tensor) size() uint64 { return uint64(len(t.data)) * 4 }

// writeGGUF writes a GGUF v3 file of the metadata and tensors to path.
func writeGGUF(path string, meta []kv, tensors []tensor) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	w := &ggufWriter{w: bw}
	w.raw([]byte("GGUF"))
	w.u32(3)
	w.u64(uint64(len(tensors)))
	w.u64(uint64(len(meta)))
	for _, m := range meta {
		w.str(m.key)
		w.value(m.value)
	}
	var offset uint64
	for _, t := range tensors {
		var n uint64 = 1
		for _, d := range t.dims {
			n *= d
		}
		if n != uint64(len(t.data)) {
			f.Close()
			return fmt.Errorf("gguf: tensor %s: dims %v hold %d values, data has %d", t.name, t.dims, n, len(t.data))
		}
		w.str(t.name)
		w.u32(uint32(len(t.dims)))
		for _, d := range t.dims {
			w.u64(d)
		}
		w.u32(ggmlTypeF32)
		w.u64(offset)
		offset = align(offset + t.size())
	}
	w.pad()
	for _, t := range tensors {
		for _, v := range t.data {
			w.u32(math.Float32bits(v))
		}
		w.pad()
	}
	if w.err == nil {
		w.err = bw.Flush()
	}
	if err := f.Close(); w.err == nil {
		w.err = err
	}
	return w.err
}

func align(n uint64) uint64 { return (n + ggufAlignment - 1) / ggufAlignment * ggufAlignment }

// ggufWriter writes little-endian values and keeps the first error and
// the number of bytes written (for alignment).
type ggufWriter struct {
	w   io.Writer
	n   uint64
	err error
}

func (w *ggufWriter) raw(b []byte) {
	if w.err != nil {
		return
	}
	_, w.err = w.w.Write(b)
	w.n += uint64(len(b))
}

func (w *ggufWriter) u32(v uint32) { w.raw(binary.LittleEndian.AppendUint32(nil, v)) }
func (w *ggufWriter) u64(v uint64) { w.raw(binary.LittleEndian.AppendUint64(nil, v)) }

func (w *ggufWriter) str(s string) {
	w.u64(uint64(len(s)))
	w.raw([]byte(s))
}

func (w *ggufWriter) pad() {
	if rem := align(w.n) - w.n; rem > 0 {
		w.raw(make([]byte, rem))
	}
}

func (w *ggufWriter) value(v any) {
	switch v := v.(type) {
	case uint32:
		w.u32(ggufUint32)
		w.u32(v)
	case int32:
		w.u32(ggufInt32)
		w.u32(uint32(v))
	case float32:
		w.u32(ggufFloat32)
		w.u32(math.Float32bits(v))
	case bool:
		w.u32(ggufBool)
		if v {
			w.raw([]byte{1})
		} else {
			w.raw([]byte{0})
		}
	case string:
		w.u32(ggufString)
		w.str(v)
	case []string:
		w.u32(ggufArray)
		w.u32(ggufString)
		w.u64(uint64(len(v)))
		for _, s := range v {
			w.str(s)
		}
	case []float32:
		w.u32(ggufArray)
		w.u32(ggufFloat32)
		w.u64(uint64(len(v)))
		for _, f := range v {
			w.u32(math.Float32bits(f))
		}
	case []int32:
		w.u32(ggufArray)
		w.u32(ggufInt32)
		w.u64(uint64(len(v)))
		for _, i := range v {
			w.u32(uint32(i))
		}
	default:
		if w.err == nil {
			w.err = fmt.Errorf("gguf: unsupported metadata value %T", v)
		}
	}
}
