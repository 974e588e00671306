package media

import (
	"bytes"
	"fmt"
	"testing"
)

// limited in tail mode keeps the last max bytes of whatever mix of write
// sizes (shorter than max, exactly max, longer), and says when it cut.
func TestLimitedTail(t *testing.T) {
	for _, sizes := range [][]int{{3}, {10}, {4, 6}, {4, 7}, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {9, 9, 9}, {25}, {3, 25, 2}, {7, 10, 1, 19, 2, 2, 2, 2, 2, 2, 2, 2, 2}} {
		l := &limited{max: 10, tail: true}
		var all []byte
		for i, n := range sizes {
			p := bytes.Repeat([]byte{byte('a' + i)}, n)
			for j := range p {
				p[j] += byte(j % 3) // not one repeated byte: order matters
			}
			if got, err := l.Write(p); got != n || err != nil {
				t.Fatalf("%v: Write = %d, %v", sizes, got, err)
			}
			all = append(all, p...)
		}
		want := all[max(len(all)-10, 0):]
		if got := l.Bytes(); !bytes.Equal(got, want) {
			t.Errorf("%v: kept %q, want %q", sizes, got, want)
		}
		if l.cut != (len(all) > 10) {
			t.Errorf("%v: cut = %v after %d bytes", sizes, l.cut, len(all))
		}
	}
}

// Past its cap, a write to limited in tail mode allocates nothing: it
// used to copy the whole kept tail (1 MiB for stderr) into a new buffer
// on every write, quadratic in a chatty tool's stderr.
func TestLimitedTailNoCopyPerWrite(t *testing.T) {
	l := &limited{max: 1 << 16, tail: true}
	line := []byte("[h264 @ 0x5] a warning line, one of very many on a long video's stderr\n")
	for l.Write(line); !l.cut; l.Write(line) {
	}
	for range 2 << 10 { // fill the buffer to its full size
		l.Write(line)
	}
	if a := testing.AllocsPerRun(1000, func() { l.Write(line) }); a != 0 {
		t.Errorf("%v allocations per write past the cap, want 0", a)
	}
	if got := l.Bytes(); len(got) != 1<<16 || !bytes.HasSuffix(got, line) {
		t.Errorf("kept %d bytes ending %q", len(got), got[max(len(got)-20, 0):])
	}
}

// In head mode limited keeps the first max bytes.
func TestLimitedHead(t *testing.T) {
	l := &limited{max: 10}
	for i := range 5 {
		fmt.Fprintf(l, "%d%d%d", i, i, i)
	}
	if got := string(l.Bytes()); got != "0001112223" || !l.cut {
		t.Errorf("kept %q (cut %v), want 0001112223, cut", got, l.cut)
	}
}
