package cli_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/cli"
)

// TestInterruptedSaysSo checks that a run stopped by Ctrl-C (its context
// canceled) exits 130 saying "interrupted" and how to finish, never
// "error: context canceled", in text and in --json.
func TestInterruptedSaysSo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := map[string]string{
		"CROSSMEM_HOME":   filepath.Join(dir, "home"),
		"CROSSMEM_CONFIG": filepath.Join(dir, "config.toml"),
		"CROSSMEM_CACHE":  filepath.Join(dir, "cache"),
	}
	for _, args := range [][]string{{"search", "attention"}, {"search", "attention", "--json"}} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var out, errOut bytes.Buffer
		code := cli.Main(ctx, args, cli.IO{In: strings.NewReader(""), Out: &out, Err: &errOut,
			Getenv: func(k string) string { return env[k] }}, cli.Servers{})
		stderr := errOut.String()
		t.Logf("%v: exit %d\n%s", args, code, stderr)
		if code != cli.ExitInterrupted {
			t.Errorf("%v: exit %d, want %d", args, code, cli.ExitInterrupted)
		}
		if !strings.HasPrefix(stderr, "crossmem: interrupted\ncrossmem: hint: run the same command again to finish\n") {
			t.Errorf("%v: stderr does not say interrupted and what to do:\n%s", args, stderr)
		}
		if strings.Contains(stderr, "context canceled") {
			t.Errorf("%v: stderr shows Go's context error:\n%s", args, stderr)
		}
		if args[len(args)-1] == "--json" && !strings.Contains(stderr, `{"error":"interrupted","hint":"run the same command again to finish"}`) {
			t.Errorf("%v: no JSON error line:\n%s", args, stderr)
		}
	}
}
