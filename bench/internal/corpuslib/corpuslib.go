// Package corpuslib gives the index benchmarks (bench/index, bench/quality)
// the compiled shared corpus: Build captures and compiles every corpus PDF
// into a fresh library with the real CLI, as bench/corpus.sh does, and
// Load reads the notes of a library back. It also holds the small text
// helpers both benchmarks use to make queries from chunk text.
package corpuslib

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/crossmem/crossmem/bench/internal/corpus"
	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/index"
	"github.com/crossmem/crossmem/internal/note"
)

// ModuleRoot returns the folder of the module's go.mod (`go env GOMOD`).
func ModuleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	p := strings.TrimSpace(string(out))
	if p == "" || p == os.DevNull {
		return "", errors.New("not inside the crossmem module: run from the repository")
	}
	return filepath.Dir(p), nil
}

// BuildBinary builds the crossmem CLI (./cmd/crossmem) to path.
func BuildBinary(path string) error {
	root, err := ModuleRoot()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	cmd := exec.Command("go", "build", "-o", path, "./cmd/crossmem")
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build ./cmd/crossmem: %w", err)
	}
	return nil
}

// Env returns the environment for running the CLI on the library at home:
// CROSSMEM_HOME=home and CROSSMEM_CONFIG=home/config.toml (created with the
// defaults: no embeddings, no LLM).
func Env(home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CROSSMEM_HOME=") && !strings.HasPrefix(kv, "CROSSMEM_CONFIG=") {
			env = append(env, kv)
		}
	}
	return append(env, "CROSSMEM_HOME="+home, "CROSSMEM_CONFIG="+filepath.Join(home, "config.toml"))
}

var unsafeKey = regexp.MustCompile(`[^A-Za-z0-9]+`)

// Build captures and compiles every PDF of corpusDir ("" = the shared
// corpus, ../shared/corpus/pdf) into a new library at home with the CLI
// binary bin, like bench/corpus.sh: a PDF whose own metadata gives no cite
// key is captured with --cite-key made from its file name; compile runs
// with --no-llm. Progress lines go to log. home must not hold a library
// yet.
func Build(ctx context.Context, bin, corpusDir, home string, log io.Writer) error {
	dir, err := corpus.Dir(corpusDir)
	if err != nil {
		return err
	}
	pdfs, err := corpus.PDFs(dir)
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(home, "wiki")); err == nil {
		return fmt.Errorf("%s already holds a library", home)
	}
	if err := os.MkdirAll(home, 0o755); err != nil {
		return err
	}
	run := func(args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Env = Env(home)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return out, fmt.Errorf("crossmem %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
		}
		return out, nil
	}
	for _, pdf := range pdfs {
		out, err := run("capture", pdf, "--json")
		if err != nil {
			key := strings.Trim(unsafeKey.ReplaceAllString(strings.TrimSuffix(filepath.Base(pdf), ".pdf"), "_"), "_")
			if out, err = run("capture", pdf, "--cite-key", key, "--json"); err != nil {
				return err
			}
		}
		var cap struct {
			CiteKey string `json:"cite_key"`
		}
		if err := json.Unmarshal(out, &cap); err != nil || cap.CiteKey == "" {
			return fmt.Errorf("capture %s: no cite key in its output", pdf)
		}
		if _, err := run("compile", cap.CiteKey, "--no-llm", "--json"); err != nil {
			return err
		}
		fmt.Fprintf(log, "corpus library: compiled %s (%s)\n", filepath.Base(pdf), cap.CiteKey)
	}
	return nil
}

// Ensure returns the library home holding the compiled corpus: home when
// given, else <out>/corpus, which is built on first use (Build) with the
// CLI binary bin, or, when bin is "", with one built into <out>/bin. A
// failed build leaves no half-built library behind.
func Ensure(ctx context.Context, out, home, corpusDir, bin string, log io.Writer) (string, error) {
	if home != "" {
		return home, nil
	}
	home = filepath.Join(out, "corpus")
	if _, err := os.Stat(filepath.Join(home, "wiki")); err == nil {
		return home, nil
	}
	if bin == "" {
		bin = filepath.Join(out, "bin", "crossmem")
		if err := BuildBinary(bin); err != nil {
			return "", err
		}
	}
	fmt.Fprintf(log, "compiling the corpus into %s\n", home)
	if err := Build(ctx, bin, corpusDir, home, io.Discard); err != nil {
		os.RemoveAll(home)
		return "", err
	}
	return home, nil
}

// FreshIndex builds a new search index of the notes of the library at
// home in dir (dir/index.db, replacing one there: the library itself is
// left alone). The caller closes it.
func FreshIndex(ctx context.Context, dir, home string) (*index.Index, error) {
	path := filepath.Join(dir, index.FileName)
	if err := index.Remove(path); err != nil {
		return nil, err
	}
	ix, err := index.Open(path, filepath.Join(home, "wiki"))
	if err != nil {
		return nil, err
	}
	if _, err := ix.Sync(ctx, nil); err != nil {
		ix.Close()
		return nil, err
	}
	return ix, nil
}

// Note is one note of a library, with its file name.
type Note struct {
	Name string
	Note *note.Note
}

// Load parses every note (*.md) in home/wiki, sorted by file name.
func Load(home string) ([]Note, error) {
	files, err := filepath.Glob(filepath.Join(home, "wiki", "*.md"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no notes in %s", filepath.Join(home, "wiki"))
	}
	sort.Strings(files)
	var out []Note
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		n, err := note.Parse(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		out = append(out, Note{Name: filepath.Base(f), Note: n})
	}
	return out, nil
}

// Chunks returns every chunk of the notes, in order.
func Chunks(notes []Note) []chunk.Chunk {
	var out []chunk.Chunk
	for _, n := range notes {
		out = append(out, n.Note.Chunks...)
	}
	return out
}

// ReaderCopy joins a chunk's line-broken text the way a reader copies it
// from a PDF viewer: a line ending in a hyphen after a letter, followed by
// a line starting with a lower-case letter, is joined without the hyphen
// ("exam-\nple" → "example"); other line breaks become one space.
func ReaderCopy(text string) string {
	var out []byte
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		switch {
		case l == "":
		case len(out) == 0:
			out = append(out, l...)
		case out[len(out)-1] == '-' && isLetterBefore(string(out), len(out)-1) && startsLower(l):
			out = append(out[:len(out)-1], l...)
		default:
			out = append(append(out, ' '), l...)
		}
	}
	return string(out)
}

func isLetterBefore(s string, i int) bool {
	r := []rune(s[:i])
	return len(r) > 0 && unicode.IsLetter(r[len(r)-1])
}

func startsLower(s string) bool {
	for _, r := range s {
		return unicode.IsLower(r)
	}
	return false
}

// Words splits s into lower-case runs of letters and digits, in order.
func Words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// ContentWord reports whether w (lower case) is a word a query might use:
// at least 3 letters, letters only (ASCII a–z), not one of the stop words
// the index leaves out of BM25.
func ContentWord(w string) bool {
	if len(w) < 3 || index.IsStopWord(w) {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}
