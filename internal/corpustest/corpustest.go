// Package corpustest locates the shared test corpus (../shared beside the
// checkout) for tests; tests that need it skip with a clear message when it
// is absent. Test code only.
//
// The module root is the nearest folder holding go.mod at or above the
// working directory (go test runs a package's tests in its folder), and the
// shared material is ../shared beside it, with the corpus in
// ../shared/corpus. Every function takes the calling test, marks itself a
// helper, and ends it with t.Skip when the material it needs is not there
// (a checkout without ../shared runs the other tests) or with t.Fatal when a
// file that should be there cannot be read (a present but broken corpus is
// an error). Paths are absolute and cleaned. Nothing is cached: every call
// looks again.
package corpustest

import (
	"os"
	"path/filepath"
	"testing"
)

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
			t.Skip("go.mod not found above the package directory; cannot locate ../shared")
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
		t.Skipf("shared test material not available at %s (it lives beside the checkout): %v", shared, err)
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
		t.Skipf("shared corpus not available at %s (it lives in ../shared beside the checkout): %v", p, err)
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
