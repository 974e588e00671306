package index

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"modernc.org/sqlite"

	"github.com/crossmem/crossmem/internal/hint"
)

// ErrBusy is returned when another process held the index past the busy
// timeout (10 s): the index is fine, the operation can be retried.
var ErrBusy = errors.New("index is busy")

// SQLite's primary result codes that classify sorts.
const (
	sqliteBusy    = 5
	sqliteLocked  = 6
	sqliteCorrupt = 11
	sqliteNotADB  = 26
)

// classify turns SQLite's busy and corruption errors into ErrBusy and
// ErrCorrupt, with what to do; other errors are returned as they are.
func classify(path string, err error) error {
	if err == nil || errors.Is(err, ErrBusy) || errors.Is(err, ErrCorrupt) {
		return err
	}
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return err
	}
	switch se.Code() & 0xff {
	case sqliteBusy, sqliteLocked:
		return hint.Wrap(fmt.Errorf("%w (%s: another crossmem process is writing it)", ErrBusy, path), hint.Action{Kind: hint.RetryLater})
	case sqliteCorrupt, sqliteNotADB:
		return hint.Wrap(fmt.Errorf("%w (%s: %v)", ErrCorrupt, path, err), rebuild)
	}
	return err
}

// classifyErr is classify for a deferred call on a named error result.
func (ix *Index) classifyErr(err *error) { *err = classify(ix.path, *err) }

// QuickCheck runs SQLite's quick_check on the index: nil when it answers
// "ok", else an ErrCorrupt naming the first problems.
func (ix *Index) QuickCheck(ctx context.Context) (err error) {
	defer ix.classifyErr(&err)
	rows, err := ix.db.QueryContext(ctx, `PRAGMA quick_check(10)`)
	if err != nil {
		return err
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return err
		}
		if s != "ok" {
			problems = append(problems, s)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if len(problems) > 0 {
		return hint.Wrap(fmt.Errorf("%w (%s: %s)", ErrCorrupt, ix.path, strings.Join(problems, "; ")), rebuild)
	}
	return nil
}

// rebuildSuffix names the temporary files of Rebuild: <path>.rebuild-<id>.
const rebuildSuffix = ".rebuild-"

// Rebuild builds a new index of the notes in wikiDir in a temporary file
// beside path (searches go on against the old one meanwhile), then, holding
// lock (the library lock), puts it in place: copied into path with SQLite's
// online backup, which readers and writers of the old index see as one
// transaction, or, when path is not a usable database, renamed over it
// (its stale -wal and -shm removed first). The temporary file is removed;
// one left by a killed rebuild is removed by the next Open or Rebuild.
func Rebuild(ctx context.Context, path, wikiDir string, lock func(context.Context) (func(), error), progress func(i, n int)) (*SyncResult, error) {
	removeStale(path)
	tmp, f, err := lockedTemp(path)
	if err != nil {
		return nil, err
	}
	defer removeTemp(tmp)
	defer f.Close()
	nix, err := Open(tmp, wikiDir)
	if err != nil {
		return nil, err
	}
	nix.carryStored(ctx, path)
	res, err := nix.Sync(ctx, progress)
	if cerr := nix.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	unlock, err := lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := install(ctx, tmp, path); err != nil {
		return nil, fmt.Errorf("put the rebuilt index in place of %s: %w", path, err)
	}
	return res, nil
}

// lockedTemp creates the temporary file of a rebuild of path and takes its
// flock, which the builder holds while it lives (SQLite's own locks are
// fcntl locks, which flock does not touch), so that removeStale knows a
// live builder's file from a dead one's. A cleaner may remove the file
// between its creation and the flock; then it is made again.
func lockedTemp(path string) (string, *os.File, error) {
	for {
		var rnd [6]byte
		rand.Read(rnd[:])
		tmp := path + rebuildSuffix + hex.EncodeToString(rnd[:])
		f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return "", nil, err
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
			f.Close()
			return "", nil, err
		}
		fi, err1 := f.Stat()
		pi, err2 := os.Stat(tmp)
		if err1 == nil && err2 == nil && os.SameFile(fi, pi) {
			return tmp, f, nil
		}
		f.Close()
	}
}

// install replaces the index at path with the one at tmp.
func install(ctx context.Context, tmp, path string) error {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return renameOver(tmp, path)
	}
	err := restore(ctx, tmp, path)
	var se *sqlite.Error
	if errors.As(err, &se) && (se.Code()&0xff == sqliteNotADB || se.Code()&0xff == sqliteCorrupt) {
		// Nobody can be using a file that is not a database.
		return renameOver(tmp, path)
	}
	return err
}

// renameOver renames tmp to path after removing path's -wal and -shm, which
// belong to the file being replaced.
func renameOver(tmp, path string) error {
	for _, p := range []string{path + "-wal", path + "-shm"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return os.Rename(tmp, path)
}

// restore copies the database at src into the one at dst with SQLite's
// backup API, retrying while dst is busy (up to the busy timeout).
func restore(ctx context.Context, src, dst string) error {
	db, err := sql.Open("sqlite", "file:"+dst+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		err = conn.Raw(func(dc any) error {
			r, ok := dc.(interface {
				NewRestore(string) (*sqlite.Backup, error)
			})
			if !ok {
				return errors.New("the SQLite driver cannot restore a backup")
			}
			b, err := r.NewRestore("file:" + src + "?mode=ro")
			if err != nil {
				return err
			}
			if _, err := b.Step(-1); err != nil {
				b.Finish()
				return err
			}
			return b.Finish()
		})
		var se *sqlite.Error
		if errors.As(err, &se) && (se.Code()&0xff == sqliteBusy || se.Code()&0xff == sqliteLocked) && time.Now().Before(deadline) {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(50 * time.Millisecond):
			}
			continue
		}
		return err
	}
}

// removeTemp removes a rebuild's temporary file with its -wal and -shm.
func removeTemp(tmp string) {
	for _, p := range []string{tmp, tmp + "-wal", tmp + "-shm", tmp + "-journal"} {
		os.Remove(p)
	}
}

// removeStale removes the temporary files of rebuilds that are no longer
// running (killed): those whose flock can be taken.
func removeStale(path string) {
	ms, _ := filepath.Glob(path + rebuildSuffix + "*")
	for _, m := range ms {
		if strings.HasSuffix(m, "-wal") || strings.HasSuffix(m, "-shm") || strings.HasSuffix(m, "-journal") {
			if _, err := os.Stat(strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(m, "-wal"), "-shm"), "-journal")); errors.Is(err, os.ErrNotExist) {
				os.Remove(m)
			}
			continue
		}
		f, err := os.Open(m)
		if err != nil {
			continue
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			removeTemp(m)
		}
		f.Close()
	}
}

// Remove deletes the index file at path with its WAL and shared-memory
// files. Only for an index nothing else uses (a benchmark's own); a
// library's is replaced with Rebuild.
func Remove(path string) error {
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}
