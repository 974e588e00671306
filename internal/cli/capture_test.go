package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crossmem/crossmem/internal/cli"
	"github.com/crossmem/crossmem/internal/metadata/metadatatest"
	"github.com/crossmem/crossmem/internal/pdf/pdftest"
)

// TestCaptureWaitIsVisible captures a PDF while every metadata source
// accepts connections and never answers, with --timeout 2s and stderr not
// a terminal: a notice names the sources it waits for before the deadline,
// the capture ends at the deadline with the PDF stored and its lookup
// pending, and refresh --pending then completes it from the recordings.
func TestCaptureWaitIsVisible(t *testing.T) {
	warmPDFium(t)
	srv := metadatatest.NewServer(t)
	for _, s := range metadatatest.Sources() {
		srv.Fail(s, metadatatest.Hang)
	}
	work := t.TempDir()
	env := srv.Env()
	env["CROSSMEM_HOME"] = filepath.Join(work, "home")
	env["CROSSMEM_CONFIG"] = filepath.Join(work, "config.toml")
	env["CROSSMEM_CACHE"] = filepath.Join(work, "cache")
	os.MkdirAll(env["CROSSMEM_CACHE"], 0o755)
	os.Symlink(wazeroDir, filepath.Join(env["CROSSMEM_CACHE"], "wazero"))
	pdfPath := filepath.Join(work, "bran.pdf")
	os.WriteFile(pdfPath, pdftest.FrontPage{
		Title:   []string{"Augmenting large language models with chemistry tools"},
		Authors: []string{"Andres M. Bran, Sam Cox, Oliver Schilter"},
		Small:   []string{"Nature Machine Intelligence, 2024, 6:525-535", "doi: 10.1038/s42256-024-00832-8"},
		Body:    pdftest.Prose(12),
	}.PDF(), 0o644)
	run := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := cli.Main(t.Context(), args, cli.IO{In: strings.NewReader(""), Out: &out, Err: &errOut,
			Getenv: func(k string) string { return env[k] }}, cli.Servers{})
		return code, out.String(), errOut.String()
	}

	start := time.Now()
	code, out, errOut := run("capture", pdfPath, "--timeout", "2s")
	took := time.Since(start)
	if code != 0 || !strings.Contains(out, "cite_key: bran2024augmenting") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	// Without the deadline the capture would wait for fetch's 30 s per
	// attempt; the margin over 2 s is for pdfium under the race detector.
	if took > 20*time.Second {
		t.Errorf("capture took %v with --timeout 2s", took)
	}
	if !strings.Contains(errOut, "crossmem: notice: bran.pdf: still waiting for crossref, openalex after ") || !strings.Contains(errOut, "(at most 2s in all)") {
		t.Errorf("no notice of the wait:\n%s", errOut)
	}
	if n := strings.Count(errOut, "metadata lookup pending: crossref, openalex failed (no answer within 2s)"); n != 1 || !strings.Contains(errOut, "crossmem refresh --pending") {
		t.Errorf("want one pending warning and the refresh hint:\n%s", errOut)
	}

	// A refresh while the sources still do not answer says to run that
	// refresh again when online, not "run the capture again".
	for _, args := range [][]string{{"refresh", "bran2024augmenting"}, {"refresh", "--pending"}} {
		code, _, errOut = run(append(args, "--timeout", "1s")...)
		if want := "crossmem: hint: check the metadata against the sources when online with: crossmem " + strings.Join(args, " ") + "\n"; code != 1 || !strings.Contains(errOut, want) || strings.Contains(errOut, "capture again") || strings.Contains(errOut, "after 0s") {
			t.Errorf("%v offline: exit %d, want 1 and the hint %q:\n%s", args, code, want, errOut)
		}
	}

	for _, s := range metadatatest.Sources() {
		srv.Fail(s, metadatatest.NoFault)
	}
	code, out, errOut = run("refresh", "--pending")
	if code != 0 || !strings.Contains(out, "refreshed  bran2024augmenting") || !strings.Contains(out, "1 paper: 1 refreshed") {
		t.Errorf("refresh --pending: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if _, out, _ = run("refresh", "--pending"); !strings.Contains(out, "nothing to refresh") {
		t.Errorf("a second refresh --pending:\n%s", out)
	}
}
