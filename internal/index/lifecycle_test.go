package index

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/crossmem/crossmem/internal/search"
)

func noLock(context.Context) (func(), error) { return func() {}, nil }

// TestConcurrentFirstOpen: 40 opens of a library without index.db at once
// all succeed (one creates the schema, the others find it).
func TestConcurrentFirstOpen(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, FileName)
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ix, err := Open(path, home)
			if err == nil {
				_, err = ix.Stats(context.Background())
				ix.Close()
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// TestBusyIsNotCorrupt: an index another connection holds for writing is
// busy (retry), not damaged.
func TestBusyIsNotCorrupt(t *testing.T) {
	ix, _ := newIndex(t)
	holder, err := sql.Open("sqlite", "file:"+ix.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	holder.SetMaxOpenConns(1)
	tx, err := holder.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`DELETE FROM terms WHERE term = 'x'`); err != nil { // takes the write lock
		t.Fatal(err)
	}
	impatient, err := sql.Open("sqlite", "file:"+ix.Path()+"?_pragma=busy_timeout(0)&_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer impatient.Close()
	_, err = impatient.Begin()
	if err == nil {
		t.Fatal("a second writer got the lock")
	}
	if got := classify(ix.Path(), err); !errors.Is(got, ErrBusy) || errors.Is(got, ErrCorrupt) {
		t.Errorf("classify(%v) = %v, want ErrBusy", err, got)
	}
}

// TestQuickCheckAndRebuild: garbage in the middle of index.db is found by
// QuickCheck (ErrCorrupt with the rebuild command), and Rebuild replaces
// the file with a sound index of the notes.
func TestQuickCheckAndRebuild(t *testing.T) {
	ix, wiki := newIndex(t)
	path := ix.Path()
	if err := ix.QuickCheck(context.Background()); err != nil {
		t.Fatalf("a sound index: %v", err)
	}
	ix.Close()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := f.Stat()
	junk := make([]byte, 8192)
	for i := range junk {
		junk[i] = byte(i * 7)
	}
	f.WriteAt(junk, fi.Size()/2/4096*4096)
	f.Close()
	ix2, err := Open(path, wiki)
	if err == nil {
		err = ix2.QuickCheck(context.Background())
		ix2.Close()
	}
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("damaged index: want ErrCorrupt, got %v", err)
	}
	res, err := Rebuild(context.Background(), path, wiki, noLock, nil)
	if err != nil || res.Added != len(papers) {
		t.Fatalf("Rebuild: %+v %v", res, err)
	}
	ix3, err := Open(path, wiki)
	if err != nil {
		t.Fatal(err)
	}
	defer ix3.Close()
	if err := ix3.QuickCheck(context.Background()); err != nil {
		t.Fatal(err)
	}
	if r := find(t, ix3, search.Query{Text: "attention mechanisms"}); len(r.Hits) == 0 {
		t.Error("no hits after the rebuild")
	}
	if m, _ := filepath.Glob(path + rebuildSuffix + "*"); len(m) > 0 {
		t.Errorf("temporary files left: %v", m)
	}
}

// TestRebuildWhileSearching: rebuilds while other connections search and
// sync never fail them, and leave a sound index.
func TestRebuildWhileSearching(t *testing.T) {
	ix, wiki := newIndex(t)
	ctx := context.Background()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failures []error
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := Open(ix.Path(), wiki)
			if err != nil {
				mu.Lock()
				failures = append(failures, err)
				mu.Unlock()
				return
			}
			defer r.Close()
			for {
				select {
				case <-stop:
					return
				default:
				}
				_, err := r.Search(ctx, search.Query{Text: "attention"})
				if err == nil && i == 0 {
					_, err = r.Sync(ctx, nil)
				}
				if err != nil {
					mu.Lock()
					failures = append(failures, err)
					mu.Unlock()
				}
			}
		}()
	}
	for range 5 {
		if _, err := Rebuild(ctx, ix.Path(), wiki, noLock, nil); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(50 * time.Millisecond)
	close(stop)
	wg.Wait()
	for _, err := range failures {
		t.Error(err)
	}
	if err := ix.QuickCheck(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestRemoveStale: a rebuild's temporary file left by a killed process is
// removed by the next Open; a live builder's is not.
func TestRemoveStale(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, FileName)
	stale := path + rebuildSuffix + "dead"
	for _, p := range []string{stale, stale + "-wal", stale + "-shm"} {
		os.WriteFile(p, []byte("x"), 0o644)
		old := time.Now().Add(-time.Minute)
		os.Chtimes(p, old, old)
	}
	ix, err := Open(path, home)
	if err != nil {
		t.Fatal(err)
	}
	ix.Close()
	if m, _ := filepath.Glob(path + rebuildSuffix + "*"); len(m) > 0 {
		t.Errorf("left: %v", m)
	}
}

// TestRebuildKeepsStored: a rebuild keeps what the notes cannot give
// again (chunk embeddings and enrich's answers), so a library with an
// embedding model configured does not have to embed every chunk anew.
func TestRebuildKeepsStored(t *testing.T) {
	ctx := context.Background()
	ix, wiki := newIndex(t)
	path := ix.Path()
	fe := &fakeEmbedder{}
	ix.Embedder = fe
	n, err := ix.EmbedMissing(ctx, nil)
	if err != nil || n == 0 {
		t.Fatalf("EmbedMissing = %d, %v", n, err)
	}
	m := AnnotationModel{Server: "ollama", Model: "m", Digest: "d", Prompt: 1}
	if err := ix.PutAnnotation(ctx, m, "s1", Annotation{Paraphrase: "p1"}); err != nil {
		t.Fatal(err)
	}
	before, err := ix.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ix.Close()

	if _, err := Rebuild(ctx, path, wiki, noLock, nil); err != nil {
		t.Fatal(err)
	}
	ix2, err := Open(path, wiki)
	if err != nil {
		t.Fatal(err)
	}
	defer ix2.Close()
	after, err := ix2.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if after.Embeddings != before.Embeddings || after.Embeddings == 0 {
		t.Errorf("embeddings: %d before the rebuild, %d after", before.Embeddings, after.Embeddings)
	}
	fe2 := &fakeEmbedder{}
	ix2.Embedder = fe2
	if n, err := ix2.EmbedMissing(ctx, nil); err != nil || n != 0 || fe2.texts.Load() != 0 {
		t.Errorf("after the rebuild EmbedMissing embedded %d texts (%v)", n, err)
	}
	if got, err := ix2.Annotations(ctx, m, []string{"s1"}); err != nil || got["s1"].Paraphrase != "p1" {
		t.Errorf("answer after the rebuild: %v, %v", got, err)
	}
}
