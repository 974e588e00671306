// Package golden compares a test's output with a golden file and, with
// go test's -update flag, rewrites the file instead. Test support: only
// _test.go files import it, and a package that does must not define its
// own -update flag.
package golden

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files from this run")

// Check compares got with the file at path (relative to the package
// folder when not absolute). With -update it writes got to path (creating
// its folder) and passes. Otherwise a missing file or a difference fails
// t, showing the lines that differ as a unified diff.
func Check(t testing.TB, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (rerun the test with -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (rerun with -update to accept):\n%s", path, Diff(string(want), got))
	}
}

// Diff returns a unified diff of want and got by lines ("-" want, "+" got)
// with two lines of context, or "" when they are equal.
func Diff(want, got string) string {
	if want == got {
		return ""
	}
	a, b := strings.Split(want, "\n"), strings.Split(got, "\n")
	// lcs[i][j] is the length of the longest common subsequence of a[i:]
	// and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		op   byte // ' ', '-', '+'
		text string
		at   int // line number in want (for ' ' and '-') or got ('+')
	}
	var ops []line
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ops = append(ops, line{' ', a[i], i + 1})
			i++
			j++
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, line{'-', a[i], i + 1})
			i++
		default:
			ops = append(ops, line{'+', b[j], j + 1})
			j++
		}
	}
	const context = 2
	var out strings.Builder
	last := -1 // index of the last op written
	for k, op := range ops {
		if op.op == ' ' {
			continue
		}
		from := max(k-context, last+1)
		if from > last+1 && last >= 0 || last < 0 {
			fmt.Fprintf(&out, "@@ line %d @@\n", ops[from].at)
		}
		for c := from; c <= k; c++ {
			fmt.Fprintf(&out, "%c %s\n", ops[c].op, ops[c].text)
		}
		last = k
		// Trailing context, up to the next change.
		for c := k + 1; c < len(ops) && c <= k+context && ops[c].op == ' '; c++ {
			fmt.Fprintf(&out, "  %s\n", ops[c].text)
			last = c
		}
	}
	return out.String()
}
