package verify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/note"
)

func writeNote(t *testing.T, dir, key string, texts ...string) string {
	t.Helper()
	n := &note.Note{Front: note.Frontmatter{CiteKey: key, Title: "T", Year: 2020, CapturedAt: "1", Raw: "raw/1_" + key + ".pdf", Parser: note.Parser, WikiFormat: note.FormatVersion}}
	off := 0
	for i, s := range texts {
		n.Chunks = append(n.Chunks, chunk.Chunk{ID: "p1s0c" + string(rune('1'+i)), Type: chunk.TypeParagraph, Text: s, Page: 1,
			TextSHA256: chunk.Hash(s), ByteRange: [2]int{off, off + len(s)}})
		off += len(s) + 2
	}
	data, err := note.Format(n)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "1_"+key+".md")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	a := writeNote(t, dir, "a2020x", "The dominant sequence transduction models are based on\ncomplex recurrent networks.", "Second chunk.")
	b := writeNote(t, dir, "b2021y", "Only chunk here.")
	r := Files([]string{a, b})
	if !r.Clean() || r.Chunks != 3 || len(r.Notes) != 2 {
		t.Fatalf("clean library: %+v", r)
	}

	// Change one word in one blockquote line.
	data, _ := os.ReadFile(a)
	edited := strings.Replace(string(data), "> complex recurrent networks.", "> complex convolutional networks.", 1)
	if edited == string(data) {
		t.Fatal("edit did not apply")
	}
	os.WriteFile(a, []byte(edited), 0o644)
	r = Files([]string{a, b})
	if r.Clean() || len(r.Drifts) != 1 {
		t.Fatalf("want one drift, got %+v", r)
	}
	d := r.Drifts[0]
	if d.CiteKey != "a2020x" || d.ChunkID != "p1s0c1" || d.Path != a || d.Expected == d.Actual ||
		d.Actual != chunk.Hash("The dominant sequence transduction models are based on\ncomplex convolutional networks.") {
		t.Errorf("drift = %+v", d)
	}

	// A file that is not a note is an error, not a crash or a pass.
	junk := filepath.Join(dir, "README.md")
	os.WriteFile(junk, []byte("# notes\n"), 0o644)
	r = Files([]string{b, junk, filepath.Join(dir, "missing.md")})
	if len(r.Errors) != 2 || r.Clean() || r.Chunks != 1 {
		t.Errorf("errors = %+v", r.Errors)
	}
}
