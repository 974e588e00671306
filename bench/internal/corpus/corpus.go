// Package corpus finds the folder of PDFs the benchmark programs run on
// and lists its PDFs, and names the wazero cache they compile pdfium
// into.
package corpus

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// Dir resolves a -corpus flag: flagValue when it is not empty (as given,
// unchecked), else ../shared/corpus/pdf beside the module root (the nearest
// folder holding go.mod at or above the working directory). The error says
// to pass -corpus when there is no go.mod above the working directory, or
// is the one of os.Getwd.
func Dir(flagValue string) (string, error) {
	if flagValue != "" {
		return flagValue, nil
	}
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "..", "shared", "corpus", "pdf"), nil
}

// PDFs returns the paths of the *.pdf files directly in dir, sorted. It is
// an error when there are none (including when dir does not exist).
func PDFs(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.pdf"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no PDFs in %s", dir)
	}
	sort.Strings(files)
	return files, nil
}

// moduleRoot finds the folder holding go.mod, from the working directory
// upward.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory; pass -corpus")
		}
		dir = parent
	}
}

// WazeroCache is the folder of the wazero compilation cache the benchmark
// programs open pdfium with: the one the crossmem CLI uses, so that either
// finds pdfium compiled by the other: $CROSSMEM_CACHE/wazero, else
// crossmem/wazero in the user cache folder (os.UserCacheDir), else
// crossmem-wazero in the temporary folder.
func WazeroCache() string {
	if d := os.Getenv("CROSSMEM_CACHE"); d != "" {
		return filepath.Join(d, "wazero")
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "crossmem", "wazero")
	}
	return filepath.Join(os.TempDir(), "crossmem-wazero")
}
