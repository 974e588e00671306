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

func TestSuggest(t *testing.T) {
	entries, probs := newStore(t).All()
	if len(probs) != 0 {
		t.Fatalf("problems: %v", probs)
	}
	for _, tc := range []struct {
		q    string
		n    int
		want []string
	}{
		// Key substring (+10) and key token (+3) beat everything else.
		{"vaswani", 5, []string{"vaswani2017attention"}},
		// A typo in the cite key still finds it (+8).
		{"vaswani2017atention", 5, []string{"vaswani2017attention"}},
		{"devlin2019bret", 5, []string{"devlin2019bert"}},
		// Full title substring (+5) plus title tokens (+2 each) plus the
		// key token "deep" (+3): lecun 12; bahdanau ("Jointly Learning")
		// and devlin ("Deep Bidirectional") 2 each, tie broken by key.
		{"deep learning", 5, []string{"lecun2015deep", "bahdanau2015neural", "devlin2019bert"}},
		// Title tokens, case-insensitive; ties broken by cite key.
		{"TRANSLATE", 5, []string{"bahdanau2015neural"}},
		{"learning", 5, []string{"bahdanau2015neural", "lecun2015deep"}}, // 7 each
		// Shared year token in two keys, tie broken by key.
		{"2015", 5, []string{"bahdanau2015neural", "lecun2015deep"}},
		{"2015", 1, []string{"bahdanau2015neural"}},
		{"quantum chromodynamics", 5, []string{}},
		{"", 5, []string{}},
		{"   ", 5, []string{}},
	} {
		got := keys(Suggest(tc.q, entries, tc.n))
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("Suggest(%q, %d) (-want +got):\n%s", tc.q, tc.n, diff)
		}
	}
}

func TestSuggestAtMostFive(t *testing.T) {
	dir := t.TempDir()
	for _, k := range []string{"smith2020a", "smith2020b", "smith2020c", "smith2020d", "smith2020e", "smith2020f", "smith2020g"} {
		writeNote(t, dir, k, "Transport in "+k)
	}
	s := NewStore(dir)
	_, err := s.Get("smith2020")
	var nf *NotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("error = %v; want *NotFoundError", err)
	}
	if diff := cmp.Diff([]string{"smith2020a", "smith2020b", "smith2020c", "smith2020d", "smith2020e"}, keys(nf.Suggestions)); diff != "" {
		t.Errorf("suggestions (-want +got):\n%s", diff)
	}
}

func TestNotFoundErrorMessage(t *testing.T) {
	s := newStore(t)
	_, err := s.Cite("vaswani", "APA")
	var nf *NotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("error = %v; want *NotFoundError", err)
	}
	// The seed: Error: cite_key 'vaswani' not found. Did you mean:
	//           - vaswani2017attention — Attention Is All You Need
	want := "cite_key 'vaswani' not found. Did you mean:\n- vaswani2017attention — Attention Is All You Need"
	if err.Error() != want {
		t.Errorf("message:\n%s\nwant:\n%s", err, want)
	}

	_, err = s.Get("zzzzzzzzzzzzzzzzzzzz")
	want = "cite_key 'zzzzzzzzzzzzzzzzzzzz' not found. No similar cite keys in the library (compile a paper first: crossmem compile <cite_key>)."
	if err == nil || err.Error() != want {
		t.Errorf("message without suggestions:\n%v\nwant:\n%s", err, want)
	}
}

func TestCite(t *testing.T) {
	s := newStore(t)
	got, err := s.Cite("vaswani2017attention", "apa")
	if err != nil {
		t.Fatal(err)
	}
	if got != "Attention Is All You Need (APA)." {
		t.Errorf("APA = %q", got)
	}
	got, err = s.Cite("vaswani2017attention", "BibTeX")
	if err != nil {
		t.Fatal(err)
	}
	if want := "@article{vaswani2017attention,\n  title = {Attention Is All You Need}\n}"; got != want {
		t.Errorf("BibTeX = %q; want %q", got, want)
	}

	_, err = s.Cite("vaswani2017attention", "MLA")
	if !errors.Is(err, ErrFormatNotFound) {
		t.Fatalf("error = %v; want ErrFormatNotFound", err)
	}
	var fe *FormatNotFoundError
	if !errors.As(err, &fe) {
		t.Fatalf("error %T is not a *FormatNotFoundError", err)
	}
	path := filepath.Join(s.Dir, "1776227254_vaswani2017attention.md")
	// The seed: Error: cite_key 'vaswani2017attention' found but no APA
	// citation section in wiki file.
	// File: /Users/you/crossmem/wiki/1776227300_vaswani2017attention.md
	want := "cite_key 'vaswani2017attention' found but no MLA citation section in wiki file.\nFile: " + path
	if err.Error() != want {
		t.Errorf("message:\n%s\nwant:\n%s", err, want)
	}
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
