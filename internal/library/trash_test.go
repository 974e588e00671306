package library

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// trashLibrary has one captured paper, whose PDF was copied from a file
// of the user's, and a compiled note.
func trashLibrary(t *testing.T) (*Library, *Paper, string) {
	t.Helper()
	lib, err := Open(filepath.Join(t.TempDir(), "home"))
	if err != nil {
		t.Fatal(err)
	}
	original := filepath.Join(t.TempDir(), "paper.pdf")
	os.WriteFile(original, []byte("%PDF-1.4 the user's file"), 0o644)
	p, err := lib.NewPaper("vaswani2017attention", 1700000000)
	if err != nil {
		t.Fatal(err)
	}
	p.Title, p.Aliases, p.PDFSHA256 = "Attention", []string{"transformer"}, "ab"
	p.Source = Source{Kind: "local", Input: original}
	if err := CopyFileAtomic(p.PDFPath, original); err != nil {
		t.Fatal(err)
	}
	if err := lib.WriteSidecar(p); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(p.NotePath, []byte("---\ncite_key: vaswani2017attention\n---\n"), 0o644)
	return lib, p, original
}

func TestRemoveRestore(t *testing.T) {
	lib, p, original := trashLibrary(t)
	before := map[string][]byte{}
	for _, f := range []string{p.PDFPath, p.SidecarPath, p.NotePath} {
		before[f], _ = os.ReadFile(f)
	}
	r, err := lib.Remove("transformer") // by alias
	if err != nil {
		t.Fatal(err)
	}
	if r.CiteKey != "vaswani2017attention" || !r.Done || len(r.Files) != 3 {
		t.Errorf("removal %+v", r)
	}
	for f := range before {
		if _, err := os.Stat(f); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s still in the library", f)
		}
	}
	if _, err := os.Stat(original); err != nil {
		t.Errorf("the user's file is gone: %v", err)
	}
	if _, err := lib.Find("vaswani2017attention"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Find after removal: %v", err)
	}
	rs, errs := lib.Trash()
	if len(rs) != 1 || rs[0].ID != r.ID || len(errs) != 0 {
		t.Fatalf("trash %+v %v", rs, errs)
	}

	// The key was taken meanwhile: restore refuses, with the hint.
	q, _ := lib.NewPaper("transformer", 1700000001)
	q.Title = "Another"
	lib.WriteSidecar(q)
	if _, err := lib.Restore("vaswani2017attention"); !errors.Is(err, ErrKeyInUse) {
		t.Errorf("restore over a taken alias: %v", err)
	}
	os.Remove(q.SidecarPath)

	got, err := lib.Restore("vaswani2017attention")
	if err != nil || got.ID != r.ID {
		t.Fatalf("restore: %+v %v", got, err)
	}
	for f, data := range before {
		if b, err := os.ReadFile(f); err != nil || !bytes.Equal(b, data) {
			t.Errorf("%s not restored as it was: %v", f, err)
		}
	}
	if rs, _ := lib.Trash(); len(rs) != 0 {
		t.Errorf("trash after restore: %+v", rs)
	}
	if _, err := lib.Restore("vaswani2017attention"); !errors.Is(err, ErrNotInTrash) {
		t.Errorf("restore twice: %v", err)
	}
}

// A removal a crash interrupted (the note and the PDF moved, the sidecar
// not) is finished by Remove, or undone by Restore; Tidy never deletes the
// PDF meanwhile.
func TestInterruptedRemoval(t *testing.T) {
	lib, p, _ := trashLibrary(t)
	r, err := lib.Remove("vaswani2017attention")
	if err != nil {
		t.Fatal(err)
	}
	// Put the sidecar back and mark the removal unfinished, as a crash
	// between the PDF and the sidecar would leave it.
	os.Rename(filepath.Join(r.Dir, "raw", filepath.Base(p.SidecarPath)), p.SidecarPath)
	r.Done = false
	if err := lib.writeManifest(r); err != nil {
		t.Fatal(err)
	}
	if _, err := lib.Tidy(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(r.Dir, "raw", filepath.Base(p.PDFPath))); err != nil {
		t.Fatalf("the PDF left the trash: %v", err)
	}
	// Restore puts back what moved.
	if _, err := lib.Restore(r.ID); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{p.PDFPath, p.SidecarPath, p.NotePath} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("%s not back: %v", f, err)
		}
	}
	// Interrupted again; Remove finishes it in the same trash folder.
	r2, err := lib.Remove("vaswani2017attention")
	if err != nil {
		t.Fatal(err)
	}
	os.Rename(filepath.Join(r2.Dir, "raw", filepath.Base(p.SidecarPath)), p.SidecarPath)
	r2.Done = false
	lib.writeManifest(r2)
	r3, err := lib.Remove("vaswani2017attention")
	if err != nil || r3.ID != r2.ID || !r3.Done {
		t.Errorf("finishing an interrupted removal: %+v %v (first %s)", r3, err, r2.ID)
	}
	if _, err := os.Stat(p.SidecarPath); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("sidecar still in the library")
	}
}
