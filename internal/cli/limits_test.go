package cli_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/pdf/pdftest"
)

// TestCompilePageOverLimit: a PDF with one page over the per-page
// character limit compiles (exit 0) with that page reported on stderr and
// in --json's unquotable_pages, the limit named; a block set in a font
// that maps letters to dingbats is reported with its bbox.
func TestCompilePageOverLimit(t *testing.T) {
	t.Parallel()
	p, dir := emptyInProcess(t)
	dense := make([]string, 620) // 620 × 170 characters: over 100,000
	for i := range dense {
		dense[i] = strings.Repeat("x", 170)
	}
	prose := []pdftest.Block{{Size: 10, Lines: pdftest.Prose(12)}}
	mapped := append(prose, pdftest.Block{Mapped: true, Lines: []string{"Penalized least squares are used here to fit the model", "to the data of the whole study."}})
	data := pdftest.Structured{Pages: [][]pdftest.Block{mapped, {{Size: 1, Lines: dense}}, prose}}.PDF()
	path := filepath.Join(dir, "dense.pdf")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := p.run(t, false, "capture", "--cite-key", "dense2024page", path); code != 0 {
		t.Fatalf("capture: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut := p.run(t, false, "compile", "--json", "dense2024page")
	if code != 0 {
		t.Fatalf("compile: exit %d, want 0\n%s%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "page 2 of dense2024page: text layer not read: more than 100000 characters") {
		t.Errorf("stderr does not report page 2 and its limit:\n%s", errOut)
	}
	if !regexp.MustCompile(`a block of page 1 at \[[0-9.]+ [0-9.]+ [0-9.]+ [0-9.]+\] \(PDF points\) of dense2024page: text layer not trustworthy`).MatchString(errOut) {
		t.Errorf("stderr does not report the mapped block of page 1 with its bbox:\n%s", errOut)
	}
	v := oneJSON(t, "compile --json", out)
	pages, _ := v["unquotable_pages"].([]any)
	if len(pages) != 2 {
		t.Fatalf("unquotable_pages = %v, want a block of page 1 and page 2", v["unquotable_pages"])
	}
	if u, _ := pages[0].(map[string]any); u["page"] != float64(1) || u["bbox"] == nil {
		t.Errorf("unquotable_pages[0] = %v, want the block of page 1 with its bbox", u)
	}
	u, _ := pages[1].(map[string]any)
	if u["page"] != float64(2) || u["bbox"] != nil || !strings.Contains(u["reason"].(string), "docs/limits.md") {
		t.Errorf("unquotable_pages[1] = %v, want page 2 with the limit's reason", u)
	}
	if v["chunks"].(float64) == 0 {
		t.Error("no chunks from the two ordinary pages")
	}
}
