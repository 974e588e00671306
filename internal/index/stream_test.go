package index

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/crossmem/crossmem/internal/search"
)

// UpdateStream indexes notes as their paths arrive; the index then holds
// what a sync of the same notes builds (chunks, document frequencies and
// totals).
func TestUpdateStream(t *testing.T) {
	ix, wiki := emptyIndex(t)
	paths := make(chan string, len(papers))
	done := make(chan error, 1)
	var indexed int
	go func() {
		var err error
		indexed, err = ix.UpdateStream(t.Context(), paths, 20*time.Millisecond)
		done <- err
	}()
	for i, p := range papers {
		paths <- writeNote(t, wiki, p)
		if i == 0 {
			time.Sleep(50 * time.Millisecond) // past the hold: a second transaction
		}
	}
	close(paths)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if indexed != len(papers) {
		t.Errorf("UpdateStream says %d notes indexed, want %d", indexed, len(papers))
	}
	var notes int
	ix.db.QueryRowContext(context.Background(), `SELECT count(*) FROM notes`).Scan(&notes)
	if notes != len(papers) {
		t.Errorf("%d notes in the index, want %d", notes, len(papers))
	}
	fresh, err := Open(filepath.Join(t.TempDir(), FileName), wiki)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if _, err := fresh.Sync(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	if a, b := dumpStats(t, ix), dumpStats(t, fresh); a != b {
		t.Errorf("statistics after the stream differ from a sync's:\n%s\nvs\n%s", a, b)
	}
}

// While a stream waits for its next note, its transaction is committed
// after hold and the write lock is free: another process's writer (here
// one that does not wait at all) gets it. A stream that kept one transaction open until its last
// note would lock every other writer (a search's sync) out for the whole
// of compile --all.
func TestUpdateStreamReleasesLock(t *testing.T) {
	ix, wiki := newIndex(t)
	paths := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		_, err := ix.UpdateStream(t.Context(), paths, 50*time.Millisecond)
		done <- err
	}()
	defer func() {
		close(paths)
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	paths <- writeNote(t, wiki, tpaper{key: "new2024", title: "Fresh", year: 2024, chunks: []tchunk{{id: "p1s0c1", page: 1, text: "A quasicrystal of gold."}}})
	// Its transaction commits after hold, while the stream stays open.
	deadline := time.Now().Add(10 * time.Second)
	for len(find(t, ix, search.Query{Text: "quasicrystal"}).Hits) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the streamed note is not in the index after 10 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	impatient, err := sql.Open("sqlite", "file:"+ix.Path()+"?_pragma=busy_timeout(0)&_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer impatient.Close()
	tx, err := impatient.Begin()
	if err != nil {
		t.Fatalf("the stream holds the write lock: %v", err)
	}
	tx.Rollback()
}

// A note that cannot be read as one stops the stream with an error: the
// notes of its transaction are rolled back (none half indexed), those of
// earlier transactions stay, and the paths still sent are drained so the
// sender never blocks. The hold is long enough (2 s) that the second note
// and the broken one, sent one right after the other, share a
// transaction even on a loaded machine under -race.
func TestUpdateStreamError(t *testing.T) {
	ix, wiki := emptyIndex(t)
	paths := make(chan string) // unbuffered: a stream that stopped reading would block the sender
	done := make(chan error, 1)
	var indexed int
	go func() {
		var err error
		indexed, err = ix.UpdateStream(t.Context(), paths, 2*time.Second)
		done <- err
	}()
	paths <- writeNote(t, wiki, papers[0])
	waitCommitted(t, ix, 1) // committed on its own
	second := writeNote(t, wiki, papers[1])
	broken := filepath.Join(wiki, "1_broken.md")
	os.WriteFile(broken, []byte("---\ncite_key: [broken\n"), 0o644)
	paths <- second
	paths <- broken
	paths <- writeNote(t, wiki, papers[2])
	close(paths)
	if err := <-done; err == nil {
		t.Fatal("no error for a broken note")
	}
	if indexed != 1 {
		t.Errorf("UpdateStream says %d notes indexed, want 1 (the first, committed on its own)", indexed)
	}
	for q, want := range map[string]int{"transduction": 1, "bidirectional": 0, "supervised": 0} {
		if r := find(t, ix, search.Query{Text: q}); len(r.Hits) != want {
			t.Errorf("%q: %d hits, want %d (%v)", q, len(r.Hits), want, hitIDs(r))
		}
	}
	var notes int
	ix.db.QueryRowContext(context.Background(), `SELECT count(*) FROM notes`).Scan(&notes)
	if notes != 1 {
		t.Errorf("%d notes in the index, want 1", notes)
	}
}

// A stream interrupted (ctx cancelled) keeps the notes of its committed
// transactions, loses the open one's and says how many notes are in: what
// compile --all reports after Ctrl-C.
func TestUpdateStreamInterrupted(t *testing.T) {
	ix, wiki := emptyIndex(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	paths := make(chan string)
	done := make(chan error, 1)
	var indexed int
	go func() {
		var err error
		indexed, err = ix.UpdateStream(ctx, paths, 30*time.Millisecond)
		done <- err
	}()
	paths <- writeNote(t, wiki, papers[0])
	waitCommitted(t, ix, 1) // committed on its own
	paths <- writeNote(t, wiki, papers[1])
	cancel()
	paths <- writeNote(t, wiki, papers[2])
	close(paths)
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	var notes int
	ix.db.QueryRowContext(context.Background(), `SELECT count(*) FROM notes`).Scan(&notes)
	if indexed != notes || notes != 1 {
		t.Errorf("UpdateStream says %d notes indexed; the index holds %d, want 1", indexed, notes)
	}
}

// waitCommitted waits until the index holds n notes: a stream's
// transaction committed once its hold passed. A fixed sleep is no wait
// on a loaded machine (under -race, indexing a note can outlast it, and
// then the next note joins the open transaction).
func waitCommitted(t *testing.T, ix *Index, n int) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		var notes int
		if ix.db.QueryRowContext(context.Background(), `SELECT count(*) FROM notes`).Scan(&notes) == nil && notes >= n {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("the index holds %d notes after 30 s, want %d", notes, n)
		}
	}
}

// emptyIndex opens an index over an empty wiki folder and returns both.
func emptyIndex(t *testing.T) (*Index, string) {
	t.Helper()
	home := t.TempDir()
	wiki := filepath.Join(home, "wiki")
	if err := os.MkdirAll(wiki, 0o755); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(filepath.Join(home, FileName), wiki)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix, wiki
}
