package cli

import (
	"bytes"
	"strings"
	"testing"
)

// TestProgressRelabels checks that callbacks with different labels but the
// same total each draw their own bar, as compile's page and paraphrase
// stages do when a paper has as many chunks as pages.
func TestProgressRelabels(t *testing.T) {
	var stderr bytes.Buffer
	a := &app{io: IO{Err: &stderr, StderrTTY: true}}
	pages := a.progress("compile", "page")
	annotations := a.progress("compile", "paraphrase")
	pages(1, 2)
	pages(2, 2)
	annotations(1, 2)
	a.progressDone()
	out := stderr.String()
	if !strings.Contains(out, "[compile] page") {
		t.Errorf("no page bar on stderr: %q", out)
	}
	if !strings.Contains(out, "[compile] paraphrase") {
		t.Errorf("the paraphrase stage kept the page bar: %q", out)
	}
	if a.bar != nil {
		t.Error("progressDone left a bar")
	}

	a = &app{io: IO{Err: &stderr}}
	if a.progress("compile", "page") != nil {
		t.Error("progress callback without a terminal")
	}
}
