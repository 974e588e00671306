package pdftest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// PDFTeX typesets the plain-TeX file at src with pdfTeX in a fresh
// temporary folder of t and returns the path of the PDF it wrote. It skips
// t when pdftex is not on PATH (texlive-binaries, installed with
// texlive-base by .ci/run) and fails t when the source cannot be read or
// pdfTeX reports an error (its output is in the message).
func PDFTeX(t testing.TB, src string) string {
	t.Helper()
	tex, err := exec.LookPath("pdftex")
	if err != nil {
		t.Skip("pdftex (texlive-binaries, installed with texlive-base by .ci/run) is not on PATH")
	}
	text, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.tex"), text, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tex, "-interaction=nonstopmode", "t.tex")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pdftex %s: %v\n%s", src, err, out)
	}
	return filepath.Join(dir, "t.pdf")
}
