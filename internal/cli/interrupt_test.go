package cli_test

import (
	"bytes"
	"context"
	"os"
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
	if err := os.Mkdir(env["CROSSMEM_HOME"], 0o755); err != nil {
		t.Fatal(err)
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

// TestMissingHomeIsNotAnEmptyLibrary checks that the verbs that read the
// library report a library folder that does not exist (a mistyped
// CROSSMEM_HOME) with exit 1 and the setting to check, and create
// nothing, instead of answering as an empty library (verify's "0 drifts"
// would pass a CI gate); capture and import create it.
func TestMissingHomeIsNotAnEmptyLibrary(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	home := filepath.Join(dir, "no-such-library")
	env := map[string]string{
		"CROSSMEM_HOME":   home,
		"CROSSMEM_CONFIG": filepath.Join(dir, "config.toml"),
		"CROSSMEM_CACHE":  filepath.Join(dir, "cache"),
	}
	draft := filepath.Join(dir, "draft.md")
	if err := os.WriteFile(draft, []byte("As \"quoted here in the draft\" [@smith2020].\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := cli.Main(t.Context(), args, cli.IO{In: strings.NewReader("[]"), Out: &out, Err: &errOut,
			Getenv: func(k string) string { return env[k] }}, cli.Servers{})
		return code, out.String(), errOut.String()
	}
	for _, args := range [][]string{{"list"}, {"search", "attention"}, {"verify"}, {"read", "smith2020", "--page", "1"},
		{"cite", "smith2020"}, {"check", draft}, {"index"}, {"compile", "--all"}, {"list", "--json"}} {
		code, out, stderr := run(args...)
		if code != cli.ExitError || !strings.Contains(stderr, "crossmem: error: the library folder "+home+" does not exist\n") ||
			!strings.Contains(stderr, "crossmem: hint: check CROSSMEM_HOME") {
			t.Errorf("%v: exit %d, want 1 saying the library folder does not exist\nstdout:\n%s\nstderr:\n%s", args, code, out, stderr)
		}
		if _, err := os.Stat(home); err == nil {
			t.Fatalf("%v created the library folder", args)
		}
	}
	if code, _, stderr := run("import", "-"); code != 0 {
		t.Fatalf("import - : exit %d\n%s", code, stderr)
	}
	if code, out, stderr := run("list"); code != 0 || !strings.Contains(out, "No papers match.") {
		t.Errorf("list of the library import created: exit %d\n%s%s", code, out, stderr)
	}
}
