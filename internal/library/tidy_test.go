package library

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTidy: what a killed writer leaves — an unfinished journal, temporary
// files of atomic writes, raw PDFs without a finished capture — is repaired
// by the next Open, and reported.
func TestTidy(t *testing.T) {
	home := t.TempDir()
	lib, err := Open(home)
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := lib.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	created := filepath.Join(lib.RawDir(), "100_new.meta.json")
	modified := filepath.Join(lib.RawDir(), "99_old.meta.json")
	os.WriteFile(modified, []byte(`{"before": true}`), 0o644)
	if _, err := lib.BeginJournal("import", []string{created}, []string{modified}); err != nil {
		t.Fatal(err)
	}
	// The import got halfway, then the process was killed (no commit).
	os.WriteFile(created, []byte(`{"new": true}`), 0o644)
	os.WriteFile(modified, []byte(`{"after": true}`), 0o644)
	tmp := filepath.Join(lib.RawDir(), ".100_new.meta.json.tmp-123")
	os.WriteFile(tmp, []byte("half"), 0o644)
	orphan := filepath.Join(lib.RawDir(), "101_orphan.pdf")
	os.WriteFile(orphan, []byte("%PDF-1.7"), 0o644)
	attached := filepath.Join(lib.RawDir(), "102_meta.pdf")
	os.WriteFile(attached, []byte("%PDF-1.7"), 0o644)
	os.WriteFile(filepath.Join(lib.RawDir(), "102_meta.meta.json"), []byte("{\n  \"pdf_sha256\": \"\"\n}"), 0o644)
	kept := filepath.Join(lib.RawDir(), "103_kept.pdf")
	os.WriteFile(kept, []byte("%PDF-1.7"), 0o644)
	os.WriteFile(filepath.Join(lib.RawDir(), "103_kept.meta.json"), []byte("{\n  \"pdf_sha256\": \"abc\"\n}"), 0o644)
	unlock()

	lib2, err := Open(home)
	if err != nil {
		t.Fatal(err)
	}
	if len(lib2.Tidied) != 5 {
		t.Errorf("Tidied = %q, want 5 repairs", lib2.Tidied)
	}
	for _, gone := range []string{created, tmp, orphan, attached, filepath.Join(home, journalName)} {
		if _, err := os.Stat(gone); !os.IsNotExist(err) {
			t.Errorf("%s is still there", gone)
		}
	}
	if data, _ := os.ReadFile(modified); string(data) != `{"before": true}` {
		t.Errorf("modified file not restored: %s", data)
	}
	if _, err := os.Stat(kept); err != nil {
		t.Errorf("a captured paper's PDF was removed: %v", err)
	}
	// Nothing left to do: the next Open reports nothing.
	lib3, _ := Open(home)
	if len(lib3.Tidied) != 0 {
		t.Errorf("second Open tidied %q", lib3.Tidied)
	}
}

// TestJournalOutsideLibrary: a journal never names a file outside raw/ and
// wiki/.
func TestJournalOutsideLibrary(t *testing.T) {
	lib, _ := Open(t.TempDir())
	if _, err := lib.BeginJournal("import", []string{"/etc/passwd"}, nil); err == nil || !strings.Contains(err.Error(), "not in the library") {
		t.Errorf("want an error, got %v", err)
	}
}

func TestKeysStartWithLetterOrDigit(t *testing.T) {
	for _, k := range []string{"--help", "-x", "_a", ".a", ":a"} {
		if ValidKey(k) == nil || ValidAlias(k) == nil {
			t.Errorf("%q accepted", k)
		}
	}
	for _, k := range []string{"a-b", "1984orwell", "DBLP:conf/x"} {
		if ValidAlias(k) != nil {
			t.Errorf("alias %q refused", k)
		}
	}
}
