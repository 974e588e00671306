package library

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func openLib(t *testing.T) *Library {
	t.Helper()
	lib, err := Open(filepath.Join(t.TempDir(), "home"))
	if err != nil {
		t.Fatal(err)
	}
	return lib
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// addPaper writes a sidecar for key at stamp, as capture does.
func addPaper(t *testing.T, lib *Library, key string, stamp int64) *Paper {
	t.Helper()
	p, err := lib.NewPaper(key, stamp)
	if err != nil {
		t.Fatal(err)
	}
	p.Title = "Title of " + key
	p.PDFSHA256 = "sha256-of-" + key
	if err := WriteFileAtomic(p.PDFPath, []byte("%PDF-1.4 "+key), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := lib.WriteSidecar(p); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestOpen(t *testing.T) {
	home := filepath.Join(t.TempDir(), "a", "b")
	lib, err := Open(home)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{lib.RawDir(), lib.WikiDir()} {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			t.Errorf("%s not created: %v", d, err)
		}
	}
	if lib.RawDir() != filepath.Join(home, "raw") || lib.WikiDir() != filepath.Join(home, "wiki") {
		t.Errorf("dirs = %s, %s", lib.RawDir(), lib.WikiDir())
	}
	if _, err := Open(""); err == nil {
		t.Error("Open(\"\") succeeded")
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "note.md")
	if err := WriteFileAtomic(path, []byte("first"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(path, []byte("second version"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "second version" {
		t.Errorf("content = %q", got)
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("mode = %v; want 0644", fi.Mode().Perm())
	}
	if diff := cmp.Diff([]string{"note.md"}, names(t, dir)); diff != "" {
		t.Errorf("folder after writes (-want +got):\n%s", diff)
	}

	// A failed rename (the target is a non-empty folder) leaves no
	// temporary file behind and the target untouched.
	target := filepath.Join(dir, "busy")
	if err := os.MkdirAll(filepath.Join(target, "child"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(target, []byte("x"), 0o644); err == nil {
		t.Error("writing over a non-empty folder succeeded")
	}
	if diff := cmp.Diff([]string{"busy", "note.md"}, names(t, dir)); diff != "" {
		t.Errorf("folder after a failed write (-want +got):\n%s", diff)
	}
	// A missing folder is an error, not a panic or a stray file.
	if err := WriteFileAtomic(filepath.Join(dir, "missing", "x"), []byte("x"), 0o644); err == nil {
		t.Error("writing into a missing folder succeeded")
	}

	src := filepath.Join(dir, "src.pdf")
	os.WriteFile(src, []byte("%PDF-1.7 original"), 0o400)
	dst := filepath.Join(dir, "dst.pdf")
	if err := CopyFileAtomic(dst, src); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(dst); string(b) != "%PDF-1.7 original" {
		t.Errorf("copy = %q", b)
	}
	if b, _ := os.ReadFile(src); string(b) != "%PDF-1.7 original" {
		t.Errorf("source changed: %q", b)
	}
	for _, n := range names(t, dir) {
		if strings.Contains(n, ".tmp-") {
			t.Errorf("temporary file left behind: %s", n)
		}
	}
}

func TestWriteSidecarAndFind(t *testing.T) {
	lib := openLib(t)
	p := addPaper(t, lib, "vaswani2017attention", 1776227254)
	addPaper(t, lib, "vaswani2017attentiona", 1776227300)
	addPaper(t, lib, "a_b", 1776227400)

	got, err := lib.Find("vaswani2017attention")
	if err != nil {
		t.Fatal(err)
	}
	if got.Stamp != "1776227254" || got.Title != "Title of vaswani2017attention" {
		t.Errorf("Find: stamp %q title %q", got.Stamp, got.Title)
	}
	if got.PDFPath != p.PDFPath || got.SidecarPath != p.SidecarPath {
		t.Errorf("paths: %s %s", got.PDFPath, got.SidecarPath)
	}
	if want := filepath.Join(lib.WikiDir(), "1776227254_vaswani2017attention.md"); got.NotePath != want {
		t.Errorf("note path = %s; want %s", got.NotePath, want)
	}
	if got.Version != SidecarVersion || got.PDF != "1776227254_vaswani2017attention.pdf" {
		t.Errorf("sidecar version %d pdf %q", got.Version, got.PDF)
	}
	if got.HasNote() {
		t.Error("HasNote before compile")
	}
	if err := os.WriteFile(got.NotePath, []byte("---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !got.HasNote() {
		t.Error("HasNote after the note was written")
	}
	if got, err := lib.Find("a_b"); err != nil || got.Stamp != "1776227400" {
		t.Errorf("Find(a_b) = %v, %v", got, err)
	}

	for _, key := range []string{
		"vaswani2017",             // a prefix
		"Vaswani2017Attention",    // another case
		"vaswani2017attention*",   // glob metacharacters
		"vaswani2017attentio?",    // glob metacharacters
		"[v]aswani2017attention",  // glob metacharacters
		"../raw/vaswani",          // invalid key
		"",                        // empty
		"vaswani2017attention.md", // not a key in the library
	} {
		_, err := lib.Find(key)
		if !errors.Is(err, ErrNotFound) {
			t.Errorf("Find(%q) error = %v; want ErrNotFound", key, err)
		}
	}
}

func TestFindRejectsRenamedSidecar(t *testing.T) {
	lib := openLib(t)
	p := addPaper(t, lib, "smith2023", 100)
	// A sidecar whose file name says one key and whose content says
	// another is not returned for the file name's key.
	if err := os.Rename(p.SidecarPath, filepath.Join(lib.RawDir(), "100_jones2024.meta.json")); err != nil {
		t.Fatal(err)
	}
	if _, err := lib.Find("jones2024"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Find(jones2024) error = %v; want ErrNotFound", err)
	}
}

func TestPapersSkipsBrokenSidecars(t *testing.T) {
	lib := openLib(t)
	addPaper(t, lib, "zeta2020", 3)
	addPaper(t, lib, "alpha2021", 2)
	broken := filepath.Join(lib.RawDir(), "4_broken2022.meta.json")
	os.WriteFile(broken, []byte("{not json"), 0o644)
	evil := filepath.Join(lib.RawDir(), "5_evil.meta.json")
	b, _ := json.Marshal(Sidecar{CiteKey: "../../evil"})
	os.WriteFile(evil, b, 0o644)
	os.WriteFile(filepath.Join(lib.RawDir(), "README.txt"), []byte("ignored"), 0o644)
	os.WriteFile(filepath.Join(lib.RawDir(), "nostamp.meta.json"), []byte("{}"), 0o644)

	papers, errs := lib.Papers()
	var keys []string
	for _, p := range papers {
		keys = append(keys, p.CiteKey)
	}
	if diff := cmp.Diff([]string{"alpha2021", "zeta2020"}, keys); diff != "" {
		t.Errorf("papers (-want +got):\n%s", diff)
	}
	if len(errs) != 2 {
		t.Fatalf("errors = %v; want one for each broken sidecar", errs)
	}
	joined := errors.Join(errs...).Error()
	for _, want := range []string{broken, evil} {
		if !strings.Contains(joined, want) {
			t.Errorf("errors do not name %s:\n%s", want, joined)
		}
	}
	if _, err := lib.Find("broken2022"); err == nil {
		t.Error("Find returned a paper with a broken sidecar")
	}
}

func TestNewPaperValidatesKey(t *testing.T) {
	lib := openLib(t)
	for _, key := range []string{"../x", "a/b", "", ".hidden", "a..b", "naïve"} {
		if _, err := lib.NewPaper(key, 1); err == nil {
			t.Errorf("NewPaper(%q) succeeded", key)
		}
	}
	p, err := lib.NewPaper("ok:key-1.2_x", 42)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(p.PDFPath) != lib.RawDir() || filepath.Base(p.PDFPath) != "42_ok:key-1.2_x.pdf" {
		t.Errorf("PDF path = %s", p.PDFPath)
	}
	if KeyTaken(nil, "x") {
		t.Error("KeyTaken on an empty list")
	}
	if !KeyTaken([]*Paper{p}, "OK:KEY-1.2_X") {
		t.Error("KeyTaken is not case-insensitive")
	}
}

func TestNoteFiles(t *testing.T) {
	lib := openLib(t)
	for _, n := range []string{"2_b.md", "1_a.md", "notes.txt"} {
		os.WriteFile(filepath.Join(lib.WikiDir(), n), nil, 0o644)
	}
	got, err := lib.NoteFiles()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(lib.WikiDir(), "1_a.md"), filepath.Join(lib.WikiDir(), "2_b.md")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("NoteFiles (-want +got):\n%s", diff)
	}
}

func TestLockExcludesSecondHolder(t *testing.T) {
	lib := openLib(t)
	unlock, err := lib.Lock(t.Context())
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(t.Context(), 150*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := lib.Lock(ctx); !errors.Is(err, ErrLocked) {
		t.Fatalf("second Lock while held: error = %v; want ErrLocked", err)
	}
	if d := time.Since(start); d < 100*time.Millisecond {
		t.Errorf("second Lock gave up after %v; it should wait for the context", d)
	}

	// A waiter gets the lock once the holder releases it.
	got := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
		defer cancel()
		u, err := lib.Lock(ctx)
		if err == nil {
			u()
		}
		got <- err
	}()
	select {
	case err := <-got:
		t.Fatalf("waiter returned (%v) while the lock was still held", err)
	case <-time.After(100 * time.Millisecond):
	}
	unlock()
	select {
	case err := <-got:
		if err != nil {
			t.Fatalf("waiter after release: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("waiter did not get the lock after release")
	}

	// And the lock is free again afterwards.
	u, err := lib.Lock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	u()
	if slices.Contains(names(t, lib.RawDir()), ".lock") {
		t.Error("lock file created in raw/")
	}
}
