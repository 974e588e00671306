package pdf

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"testing"

	"github.com/crossmem/crossmem/internal/corpustest"
)

// The regular expressions that streamKeywords and lastObjHeader replace:
// the reference they are checked against.
var (
	streamKeyword = regexp.MustCompile(`>>\s*stream(\r\n|\n|\r)`)
	objHeader     = regexp.MustCompile(`(\d+)\s+(\d+)\s+obj\b`)
)

// checkScan fails t when the scanners disagree with the regular
// expressions on data.
func checkScan(t *testing.T, name string, data []byte) {
	t.Helper()
	var want [][2]int
	for _, m := range streamKeyword.FindAllIndex(data, -1) {
		want = append(want, [2]int{m[0], m[1]})
	}
	if got := streamKeywords(data); !reflect.DeepEqual(got, want) && (len(got) > 0 || len(want) > 0) {
		t.Errorf("%s: streamKeywords = %v, the regular expression finds %v", name, first(got), first(want))
	}
	for _, m := range want {
		head := data[max(0, m[0]-4096):m[0]]
		at, n, num, gen := lastObjHeader(head)
		hs := objHeader.FindAllSubmatchIndex(head, -1)
		if len(hs) == 0 {
			if at >= 0 {
				t.Errorf("%s: lastObjHeader found %q where the regular expression finds none", name, head[at:at+n])
			}
			continue
		}
		h := hs[len(hs)-1]
		if at != h[0] || at+n != h[1] || !bytes.Equal(num, head[h[2]:h[3]]) || !bytes.Equal(gen, head[h[4]:h[5]]) {
			t.Errorf("%s: lastObjHeader = %d+%d %q %q, the regular expression finds %q", name, at, n, num, gen, head[h[0]:h[1]])
		}
	}
}

func first(ms [][2]int) [][2]int { return ms[:min(len(ms), 5)] }

// TestScanCorpus: on every corpus PDF the scanners find what the regular
// expressions find.
func TestScanCorpus(t *testing.T) {
	corpustest.Slow(t, "scans every corpus PDF")
	files, _ := filepath.Glob(filepath.Join(corpustest.Dir(t, "pdf"), "*.pdf"))
	if len(files) == 0 {
		t.Fatal("no corpus PDFs")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkScan(t, filepath.Base(f), data)
	}
}

// FuzzScan: the scanners agree with the regular expressions on any input.
func FuzzScan(f *testing.F) {
	for _, s := range []string{
		"1 0 obj\n<< /Length 5 >>\nstream\r\nabcde\nendstream\nendobj",
		">>>>  stream\n12 0 objx 3 4 obj<<>>stream\r>>\tstream\r\n",
		"7 12 0 obj <<>> stream\n 5 6 7 obj\n>>endstream\n>> \f stream\n",
		"1 0 obj 1 0 objx >>stream\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkScan(t, "input", data)
	})
}
