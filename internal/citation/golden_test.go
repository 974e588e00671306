package citation

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// TestGolden renders every GROUNDTRUTH.csl.json item in every style and
// compares with testdata/<style>.golden; run with -update to rewrite them.
func TestGolden(t *testing.T) {
	items := readGroundTruth(t)
	for _, st := range Styles() {
		t.Run(string(st), func(t *testing.T) {
			var b strings.Builder
			for _, c := range items {
				got, err := Format(c.record(), c.ID, st)
				if err != nil {
					t.Fatalf("%s: %v", c.ID, err)
				}
				b.WriteString("# " + c.ID + "\n" + got + "\n\n")
			}
			path := filepath.Join("testdata", string(st)+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), b.String()); diff != "" {
				t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
			}
		})
	}
}
