package wiki

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/note"
)

type paper struct{ key, title string }

var library = []paper{
	{"vaswani2017attention", "Attention Is All You Need"},
	{"devlin2019bert", "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding"},
	{"lecun2015deep", "Deep Learning"},
	{"bahdanau2015neural", "Neural Machine Translation by Jointly Learning to Align and Translate"},
}

// writeNote writes a minimal note for key into dir and returns its path.
func writeNote(t *testing.T, dir, key, title string, citations ...note.Citation) string {
	t.Helper()
	text := "We propose a new simple network architecture, the " + title + "."
	n := &note.Note{
		Front: note.Frontmatter{
			CiteKey: key, Title: title, Authors: []string{"A. Author"}, Year: 2017,
			CapturedAt: "1776227254", Raw: "raw/1776227254_" + key + ".pdf", Parser: note.Parser,
			Chunks: 1, Pages: 1, UnquotablePages: []note.Unquotable{}, WikiFormat: note.FormatVersion,
		},
		Citations: citations,
		Chunks: []chunk.Chunk{{
			ID: "p1s0c1", Type: "paragraph", Text: text, Page: 1,
			TextSHA256: chunk.Hash(text), ByteRange: [2]int{0, len(text)},
		}},
	}
	data, err := note.Format(n)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "1776227254_"+key+".md")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func newStore(t *testing.T) *Store {
	t.Helper()
	dir := t.TempDir()
	for _, p := range library {
		writeNote(t, dir, p.key, p.title, note.Citation{Style: "APA", Text: p.title + " (APA)."}, note.Citation{Style: "BibTeX", Text: "@article{" + p.key + ",\n  title = {" + p.title + "}\n}"})
	}
	return NewStore(dir)
}

func keys(es []*Entry) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, e.CiteKey())
	}
	return out
}

func TestStorePicksUpChanges(t *testing.T) {
	dir := t.TempDir()
	path := writeNote(t, dir, "smith2023transport", "Transport")
	s := NewStore(dir)
	e, err := s.Get("smith2023transport")
	if err != nil {
		t.Fatal(err)
	}
	if e.Title() != "Transport" || e.Path != path {
		t.Fatalf("entry: %q %s", e.Title(), e.Path)
	}

	// Recompiled with a title of the same length and an unchanged size: the
	// modification time tells the store to re-read it.
	writeNote(t, dir, "smith2023transport", "Tranzport")
	future := time.Now().Add(time.Hour)
	if err := os.Chtimes(path, future, future); err != nil {
		t.Fatal(err)
	}
	e, err = s.Get("smith2023transport")
	if err != nil {
		t.Fatal(err)
	}
	if e.Title() != "Tranzport" {
		t.Errorf("title after the file changed = %q; want Tranzport", e.Title())
	}

	// A changed size alone is enough too (same modification time).
	writeNote(t, dir, "smith2023transport", "Transport in Molecular Dynamics")
	os.Chtimes(path, future, future)
	if e, _ := s.Get("smith2023transport"); e == nil || e.Title() != "Transport in Molecular Dynamics" {
		t.Errorf("title after a size change = %v", e)
	}

	// Notes added and removed by another process.
	other := writeNote(t, dir, "jones2024flow", "Flow")
	if _, err := s.Get("jones2024flow"); err != nil {
		t.Errorf("new note not seen: %v", err)
	}
	os.Remove(other)
	if _, err := s.Get("jones2024flow"); err == nil {
		t.Error("removed note still served")
	}

	// A file that is not a note is a problem, not a failure of the store.
	bad := filepath.Join(dir, "README.md")
	os.WriteFile(bad, []byte("# just markdown\n"), 0o644)
	entries, probs := s.All()
	if diff := cmp.Diff([]string{"smith2023transport"}, keys(entries)); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	if len(probs) != 1 || probs[0].Path != bad || !errors.Is(probs[0].Err, note.ErrNoFrontmatter) {
		t.Errorf("problems = %+v", probs)
	}
}
