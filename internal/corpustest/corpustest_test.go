package corpustest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMissingShared runs this package's tests in a copy of the module
// without ../shared beside it: the shared-material tests skip, and with
// CROSSMEM_REQUIRE_SHARED=1 they fail.
func TestMissingShared(t *testing.T) {
	if os.Getenv("CORPUSTEST_CHILD") != "" {
		// The child: a test that needs the corpus.
		Dir(t, "pdf")
		return
	}
	Slow(t, "runs go test in a temporary module")
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	root := filepath.Join(t.TempDir(), "checkout") // no ../shared beside it
	pkg := filepath.Join(root, "internal", "corpustest")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module github.com/crossmem/crossmem\n\ngo 1.24\n"), 0o644)
	for _, f := range []string{"corpustest.go", "corpustest_test.go"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(pkg, f), data, 0o644)
	}
	run := func(require string) (string, error) {
		cmd := exec.Command(goTool, "test", "-count=1", "-v", "-run", "^TestMissingShared$", ".")
		cmd.Dir = pkg
		cmd.Env = append(os.Environ(), "CORPUSTEST_CHILD=1", EnvRequireShared+"="+require, "GOFLAGS=-mod=mod")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run("")
	if err != nil || !strings.Contains(out, "--- SKIP: TestMissingShared") {
		t.Errorf("without ../shared: want a skip, got err %v:\n%s", err, out)
	}
	out, err = run("1")
	if err == nil || !strings.Contains(out, "--- FAIL: TestMissingShared") || !strings.Contains(out, EnvRequireShared+" is set") {
		t.Errorf("without ../shared and %s=1: want a failure, got err %v:\n%s", EnvRequireShared, err, out)
	}
}
