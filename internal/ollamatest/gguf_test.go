package ollamatest

import (
	"bytes"
	"encoding/binary"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// ggufReader reads back what a GGUF v3 file declares, independently of
// the writer: header, metadata, tensor descriptors and where the data
// starts.
type ggufFile struct {
	version   uint32
	meta      map[string]any
	tensors   map[string]ggufTensor
	dataStart int64
	size      int64
}

type ggufTensor struct {
	dims   []uint64
	typ    uint32
	offset uint64
}

func readGGUF(t *testing.T, path string) ggufFile {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r := bytes.NewReader(data)
	u32 := func() uint32 { var v uint32; binary.Read(r, binary.LittleEndian, &v); return v }
	u64 := func() uint64 { var v uint64; binary.Read(r, binary.LittleEndian, &v); return v }
	str := func() string { b := make([]byte, u64()); io.ReadFull(r, b); return string(b) }
	var value func(typ uint32) any
	value = func(typ uint32) any {
		switch typ {
		case ggufUint32:
			return u32()
		case ggufInt32:
			return int32(u32())
		case ggufFloat32:
			return math.Float32frombits(u32())
		case ggufBool:
			b, _ := r.ReadByte()
			return b == 1
		case ggufString:
			return str()
		case ggufArray:
			et, n := u32(), u64()
			out := make([]any, n)
			for i := range out {
				out[i] = value(et)
			}
			return out
		}
		t.Fatalf("unknown value type %d", typ)
		return nil
	}
	magic := make([]byte, 4)
	io.ReadFull(r, magic)
	if string(magic) != "GGUF" {
		t.Fatalf("magic %q", magic)
	}
	f := ggufFile{version: u32(), meta: map[string]any{}, tensors: map[string]ggufTensor{}, size: int64(len(data))}
	nt, nkv := u64(), u64()
	for range nkv {
		k := str()
		f.meta[k] = value(u32())
	}
	for range nt {
		name := str()
		var tt ggufTensor
		nd := u32()
		for range nd {
			tt.dims = append(tt.dims, u64())
		}
		tt.typ, tt.offset = u32(), u64()
		f.tensors[name] = tt
	}
	pos := int64(len(data)) - int64(r.Len())
	f.dataStart = (pos + 31) / 32 * 32
	return f
}

func TestGGUFModels(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		arch  string
		write func(string, uint64) error
		embd  uint32
	}{
		{"llama", writeTinyLlama, 64},
		{"bert", writeTinyBERT, 32},
	} {
		path := filepath.Join(dir, tc.arch+".gguf")
		if err := tc.write(path, 7); err != nil {
			t.Fatal(err)
		}
		f := readGGUF(t, path)
		if f.version != 3 || f.meta["general.architecture"] != tc.arch || f.meta[tc.arch+".embedding_length"] != tc.embd {
			t.Errorf("%s: version %d, metadata %v", tc.arch, f.version, f.meta["general.architecture"])
		}
		tokens, _ := f.meta["tokenizer.ggml.tokens"].([]any)
		emb, ok := f.tensors["token_embd.weight"]
		if !ok || len(emb.dims) != 2 || emb.dims[0] != uint64(tc.embd) || emb.dims[1] != uint64(len(tokens)) {
			t.Errorf("%s: token_embd %+v for %d tokens", tc.arch, emb, len(tokens))
		}
		// Every tensor is F32, aligned, and inside the file.
		var end uint64
		for name, tt := range f.tensors {
			n := uint64(4)
			for _, d := range tt.dims {
				n *= d
			}
			if tt.typ != ggmlTypeF32 || tt.offset%32 != 0 || f.dataStart+int64(tt.offset+n) > f.size {
				t.Errorf("%s: tensor %s %+v outside the file or misaligned", tc.arch, name, tt)
			}
			end = max(end, tt.offset+n)
		}
		if want := f.dataStart + int64(align(end)); f.size != want {
			t.Errorf("%s: file is %d bytes; the tensors end at %d", tc.arch, f.size, want)
		}
		// The same seed writes the same bytes; another seed other weights.
		again := filepath.Join(dir, tc.arch+"-again.gguf")
		other := filepath.Join(dir, tc.arch+"-other.gguf")
		tc.write(again, 7)
		tc.write(other, 8)
		a, _ := os.ReadFile(path)
		b, _ := os.ReadFile(again)
		c, _ := os.ReadFile(other)
		if !bytes.Equal(a, b) || bytes.Equal(a, c) {
			t.Errorf("%s: same seed equal %v, other seed equal %v", tc.arch, bytes.Equal(a, b), bytes.Equal(a, c))
		}
	}
	// The llama vocabulary falls back to bytes: all 256 are there.
	f := readGGUF(t, filepath.Join(dir, "llama.gguf"))
	tokens, _ := f.meta["tokenizer.ggml.tokens"].([]any)
	types, _ := f.meta["tokenizer.ggml.token_type"].([]any)
	bytesSeen := 0
	for i, tok := range tokens {
		if types[i] == int32(6) {
			bytesSeen++
			if s, _ := tok.(string); len(s) != 6 || s[:3] != "<0x" {
				t.Errorf("byte token %q", s)
			}
		}
	}
	if bytesSeen != 256 {
		t.Errorf("%d byte tokens, want 256", bytesSeen)
	}
}
