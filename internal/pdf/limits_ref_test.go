package pdf

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/corpustest"
)

// BenchmarkCheckStreams: the stream check every read starts with (each
// Flate stream inflated to measure it, content streams' operators
// counted), over every corpus PDF.
func BenchmarkCheckStreams(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(corpustest.Dir(b, "pdf"), "*.pdf"))
	var data [][]byte
	size := 0
	for _, f := range files {
		d, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		data = append(data, d)
		size += len(d)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range data {
			if err := checkStreams(d); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// opCounterRef is opCounter as it was before its byte-class table: the
// reference its counts are checked against. It counts the operators of a content stream written to it: runs
// of letters (and the ' and " operators) outside strings, names, hex
// strings and comments. Numbers, names and strings are operands.
type opCounterRef struct {
	n                   int64
	inWord, inName      bool
	strDepth            int  // inside ( ), nesting
	escaped, hex, comnt bool // after \ in a string; inside < >; after %
}

func (c *opCounterRef) Write(p []byte) (int, error) {
	for _, b := range p {
		switch {
		case c.comnt:
			c.comnt = b != '\n' && b != '\r'
		case c.strDepth > 0:
			switch {
			case c.escaped:
				c.escaped = false
			case b == '\\':
				c.escaped = true
			case b == '(':
				c.strDepth++
			case b == ')':
				c.strDepth--
			}
		case c.hex:
			c.hex = b != '>'
		default:
			word := b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '*' || b == '\'' || b == '"'
			if word && !c.inWord && !c.inName {
				c.n++
			}
			switch {
			case b == '/':
				c.inName = true
			case b == '(':
				c.strDepth, c.inName = 1, false
			case b == '<':
				c.hex, c.inName = true, false
			case b == '%':
				c.comnt, c.inName = true, false
			case b == ' ' || b == '\n' || b == '\r' || b == '\t' || b == '\f' || b == 0 || b == '[' || b == ']' || b == '>' || b == '{' || b == '}':
				c.inName = false
			}
			c.inWord = word || (c.inWord && b >= '0' && b <= '9')
		}
	}
	return len(p), nil
}

// TestOpCounterMatchesReference: opCounter counts as opCounterRef does,
// on the inflated streams of every corpus PDF written in pieces of
// varying size (the state crosses Write calls) and on random bytes from
// the content-stream alphabet.
func TestOpCounterMatchesReference(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpustest.Dir(t, "pdf"), "*.pdf"))
	rng := rand.New(rand.NewPCG(1, 2))
	var streams [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range streamKeywords(data) {
			body := data[m[1]:]
			if !isZlib(body) {
				continue
			}
			r, err := zlib.NewReader(bytes.NewReader(body))
			if err != nil {
				continue
			}
			out, _ := io.ReadAll(io.LimitReader(r, 1<<20))
			streams = append(streams, out)
		}
	}
	const alphabet = "abcdTJf*'\"0123456789 \n\r\t\f\x00/()<>[]{}%\\.-"
	for range 200 {
		b := make([]byte, rng.IntN(2000))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		streams = append(streams, b)
	}
	if len(streams) < 500 {
		t.Fatalf("only %d streams", len(streams))
	}
	for k, s := range streams {
		var c opCounter
		var ref opCounterRef
		for rest := s; len(rest) > 0; {
			n := min(len(rest), 1+rng.IntN(5000))
			c.Write(rest[:n])
			ref.Write(rest[:n])
			rest = rest[n:]
		}
		if c.n != ref.n {
			t.Fatalf("stream %d (%d bytes): %d operators, the reference counts %d", k, len(s), c.n, ref.n)
		}
	}
}

// inflatedSizeRef is inflatedSize as it was before its readers were
// kept between streams, with opCounterRef: the reference it is checked
// against.
func inflatedSizeRef(b []byte, limit int64, ops bool) (size, nops int64) {
	r, err := zlib.NewReader(bytes.NewReader(b))
	if err != nil {
		return 0, 0
	}
	defer r.Close()
	first := &countingReader{r: io.LimitReader(r, limit+1)}
	br := bufio.NewReader(first)
	var second int64
	if head, _ := br.Peek(2); isZlib(head) {
		if r2, err := zlib.NewReader(br); err == nil {
			second, _ = io.Copy(io.Discard, io.LimitReader(r2, limit+1))
			r2.Close()
		}
	}
	var sink io.Writer = io.Discard
	oc := &opCounterRef{}
	if ops {
		sink = oc
	}
	io.Copy(sink, br)
	return max(first.n, second), oc.n
}

// TestInflatedSizeMatchesReference: inflatedSize measures every stream of
// every corpus PDF as inflatedSizeRef does (sizes and operator counts, at
// the real limit and at a small one that cuts streams short), and a
// chained FlateDecode, a broken header and a truncated stream too.
func TestInflatedSizeMatchesReference(t *testing.T) {
	corpustest.Slow(t, "inflates every corpus stream eight times")
	files, _ := filepath.Glob(filepath.Join(corpustest.Dir(t, "pdf"), "*.pdf"))
	var bodies [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range streamKeywords(data) {
			end := bytes.Index(data[m[1]:], []byte("endstream"))
			if end < 0 {
				end = len(data) - m[1]
			}
			bodies = append(bodies, data[m[1]:m[1]+end])
		}
	}
	deflate := func(b []byte) []byte {
		var out bytes.Buffer
		w := zlib.NewWriter(&out)
		w.Write(b)
		w.Close()
		return out.Bytes()
	}
	content := []byte(strings.Repeat("BT /F1 12 Tf (Hello) Tj ET 0 0 m 10 10 l S\n", 500))
	once := deflate(content)
	bodies = append(bodies, once, deflate(once), once[:len(once)/2], []byte{0x78, 0x9c, 0xff, 0xff}, []byte{0x78})
	if len(bodies) < 500 {
		t.Fatalf("only %d streams", len(bodies))
	}
	for k, b := range bodies {
		for _, limit := range []int64{MaxStreamBytes, 1000} {
			for _, ops := range []bool{true, false} {
				n, o := inflatedSize(b, limit, ops)
				rn, ro := inflatedSizeRef(b, limit, ops)
				if n != rn || o != ro {
					t.Fatalf("stream %d (%d bytes), limit %d, ops %v: %d bytes, %d operators; the reference: %d, %d", k, len(b), limit, ops, n, o, rn, ro)
				}
			}
		}
	}
}
