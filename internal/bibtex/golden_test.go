package bibtex

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the testdata/*.golden.json files")

// TestGolden converts each hand-written export in testdata (Better
// BibLaTeX, Better BibTeX, Zotero's own BibTeX, and a mix of JabRef,
// Google Scholar, DBLP and arXiv) and compares the items and warnings with
// testdata/<name>.golden.json (go test -run Golden -update rewrites them;
// review the diff).
func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.bib"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/*.bib: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			items, warnings, err := Items(data)
			if err != nil {
				t.Fatalf("Items: %v", err)
			}
			got, err := json.MarshalIndent(map[string]any{"items": items, "warnings": warnings}, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := strings.TrimSuffix(f, ".bib") + ".golden.json"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run Golden -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the conversion of %s; run go test -run Golden -update and review the diff\ngot:\n%s", golden, f, got)
			}
		})
	}
}
