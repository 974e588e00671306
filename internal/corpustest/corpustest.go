// Package corpustest locates the shared test corpus (../shared beside the
// checkout) for tests; tests that need it skip with a clear message when it
// is absent, or fail when the environment variable CROSSMEM_REQUIRE_SHARED
// is set (.ci/run sets it, so that CI cannot pass by skipping). It also
// holds the test tiers' switches: Slow skips a test under go test -short,
// and WazeroCache is the pdfium compilation cache every test shares. Test
// code only.
//
// The module root is the nearest folder holding go.mod at or above the
// working directory (go test runs a package's tests in its folder), and the
// shared material is ../shared beside it, with the corpus in
// ../shared/corpus. Every function takes the calling test, marks itself a
// helper, and ends it with t.Skip when the material it needs is not there
// (a checkout without ../shared runs the other tests; with
// CROSSMEM_REQUIRE_SHARED set, t.Fatal instead) or with t.Fatal when a file
// that should be there cannot be read (a present but broken corpus is an
// error). Paths are absolute and cleaned. Nothing is cached: every call
// looks again.
package corpustest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// EnvRequireShared, when set to anything but "" or "0", turns every skip
// for missing shared material into a failure.
const EnvRequireShared = "CROSSMEM_REQUIRE_SHARED"

// missing skips t for missing shared material, or fails it when
// EnvRequireShared is set.
func missing(t testing.TB, format string, args ...any) {
	t.Helper()
	if v := os.Getenv(EnvRequireShared); v != "" && v != "0" {
		t.Fatalf(format+" (%s is set: the shared material is required)", append(args, EnvRequireShared)...)
	}
	t.Skipf(format, args...)
}

// Slow skips t under go test -short: tests that sweep the whole corpus,
// build binaries or run external programs (bibtex, biber, node,
// pdftotext). why says what makes it slow. scripts/test.sh runs them.
func Slow(t testing.TB, why string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("slow (%s): skipped with -short", why)
	}
}

// WazeroCache is the wazero compilation cache for pdfium that every test
// shares (pdf.Options.CacheDir): a folder in the system's temporary
// directory that outlives the run, so pdfium is compiled to machine code
// once per machine, not once per test binary (seconds each). wazero writes
// its cache files atomically, so test binaries running in parallel may
// share it.
func WazeroCache() string { return filepath.Join(os.TempDir(), "crossmem-test-wazero") }

// Root returns the module root: the nearest folder at or above the working
// directory that holds go.mod. It skips the test when there is none, and
// fails it when the working directory cannot be read.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			missing(t, "go.mod not found above the package directory; cannot locate ../shared")
		}
		dir = parent
	}
}

// Shared returns the shared material folder, ../shared beside the module
// root, skipping the test when it does not exist.
func Shared(t testing.TB) string {
	t.Helper()
	shared := filepath.Join(Root(t), "..", "shared")
	if _, err := os.Stat(shared); err != nil {
		missing(t, "shared test material not available at %s (it lives beside the checkout): %v", shared, err)
	}
	return shared
}

// Dir returns the path of parts joined under ../shared/corpus (the corpus
// folder itself for no parts), skipping the test when that path does not
// exist. The path may name a folder or a file: Dir(t, "api", "arxiv") is
// the folder of the recorded arXiv responses, Dir(t, "pdf", name) the path
// of one corpus PDF.
func Dir(t testing.TB, parts ...string) string {
	t.Helper()
	p := filepath.Join(append([]string{Root(t), "..", "shared", "corpus"}, parts...)...)
	if _, err := os.Stat(p); err != nil {
		missing(t, "shared corpus not available at %s (it lives in ../shared beside the checkout): %v", p, err)
	}
	return p
}

// File returns the contents of the file at parts joined under
// ../shared/corpus (File(t, "api", "GROUNDTRUTH.json"),
// File(t, "api", "arxiv/1605.08386.xml")). It skips the test when the
// folder holding the file does not exist, and fails it when the file
// cannot be read.
func File(t testing.TB, parts ...string) []byte {
	t.Helper()
	rel := filepath.Join(parts...)
	data, err := os.ReadFile(filepath.Join(Dir(t, filepath.Dir(rel)), filepath.Base(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// PDF returns the contents of ../shared/corpus/pdf/<name>, as File(t,
// "pdf", name): it skips the test when ../shared/corpus/pdf does not exist
// and fails it when the PDF cannot be read.
func PDF(t testing.TB, name string) []byte {
	t.Helper()
	return File(t, "pdf", name)
}

var binary struct {
	once sync.Once
	path string
	err  error
}

// Binary builds cmd/crossmem once per test process (into a folder of its
// own under the system's temporary folder) and returns the executable's
// path, for tests that run the real program. It skips t when the go
// command is not on PATH and fails it when the build fails, with go
// build's output.
func Binary(t testing.TB) string {
	t.Helper()
	root := Root(t)
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH: cannot build cmd/crossmem")
	}
	binary.once.Do(func() {
		dir, err := os.MkdirTemp("", "crossmem-test-bin-")
		if err != nil {
			binary.err = err
			return
		}
		out := filepath.Join(dir, "crossmem")
		cmd := exec.Command(goTool, "build", "-o", out, "./cmd/crossmem")
		cmd.Dir = root
		if b, err := cmd.CombinedOutput(); err != nil {
			binary.err = fmt.Errorf("go build ./cmd/crossmem: %v\n%s", err, b)
			return
		}
		binary.path = out
	})
	if binary.err != nil {
		t.Fatal(binary.err)
	}
	return binary.path
}
