package library

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// journalName is the file of an unfinished multi-file change (an import)
// in the library home.
const journalName = ".journal.json"

// journal is what a multi-file change will do: the files it creates and
// the previous content of those it replaces, all relative to the home.
type journal struct {
	Op      string     `json:"op"`
	Created []string   `json:"created"`
	Restore []restored `json:"restore"`
}

type restored struct {
	Path string `json:"path"`
	Data []byte `json:"data"` // base64 in the file
}

// BeginJournal records, before a change of several files, which files it
// creates and the current content of those it modifies (paths inside raw/
// or wiki/), so that a crash in the middle is rolled back by the next
// command (see Tidy): the change is all or nothing. Call it holding the
// lock; call the returned commit once every file is written (or undone),
// still holding it.
func (l *Library) BeginJournal(op string, created, modified []string) (commit func() error, err error) {
	j := journal{Op: op}
	for _, p := range created {
		rel, err := l.rel(p)
		if err != nil {
			return nil, err
		}
		j.Created = append(j.Created, rel)
	}
	for _, p := range modified {
		rel, err := l.rel(p)
		if err != nil {
			return nil, err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("journal: %w", err)
		}
		j.Restore = append(j.Restore, restored{Path: rel, Data: data})
	}
	data, err := json.Marshal(&j)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(l.Home, journalName)
	if err := WriteFileAtomic(path, data, 0o644); err != nil {
		return nil, fmt.Errorf("write the journal: %w", err)
	}
	return func() error {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		syncDir(l.Home)
		return nil
	}, nil
}

// rel returns p relative to the home, checking that it is inside raw/ or
// wiki/.
func (l *Library) rel(p string) (string, error) {
	rel, err := filepath.Rel(l.Home, p)
	if err != nil || !filepath.IsLocal(rel) || !(strings.HasPrefix(rel, "raw"+string(filepath.Separator)) || strings.HasPrefix(rel, "wiki"+string(filepath.Separator))) {
		return "", fmt.Errorf("journal: %s is not in the library's raw/ or wiki/", p)
	}
	return rel, nil
}

// Tidy repairs what interrupted commands (killed, or a machine that lost
// power) left in the library, and returns one line per repair:
//
//   - an unfinished change with a journal (an import) is rolled back: the
//     files it created are removed, those it modified get their previous
//     content back;
//   - temporary files of atomic writes (raw/.<name>.tmp-*, wiki/...) are
//     removed;
//   - a raw PDF without a sidecar (a capture killed between the two
//     writes), or whose sidecar records no PDF (an attach killed the same
//     way), is removed: it is a copy, and the paper was never added.
//
// The caller must hold the lock (every writer holds it while it writes, so
// nothing Tidy removes is in use). Open runs it when the lock is free.
func (l *Library) Tidy() ([]string, error) {
	var done []string
	path := filepath.Join(l.Home, journalName)
	if data, err := os.ReadFile(path); err == nil {
		var j journal
		if err := json.Unmarshal(data, &j); err != nil {
			return done, fmt.Errorf("read %s: %w (remove it if no crossmem command is running)", path, err)
		}
		for _, rel := range j.Created {
			if !filepath.IsLocal(rel) {
				continue
			}
			if err := os.Remove(filepath.Join(l.Home, rel)); err == nil {
				done = append(done, "removed "+rel+" (an interrupted "+j.Op+")")
			}
		}
		for _, r := range j.Restore {
			if !filepath.IsLocal(r.Path) {
				continue
			}
			if err := WriteFileAtomic(filepath.Join(l.Home, r.Path), r.Data, 0o644); err != nil {
				return done, fmt.Errorf("roll back %s: %w", r.Path, err)
			}
			done = append(done, "restored "+r.Path+" (an interrupted "+j.Op+")")
		}
		if err := os.Remove(path); err != nil {
			return done, err
		}
		syncDir(l.Home)
	}
	for _, dir := range []string{l.RawDir(), l.WikiDir(), l.Home} {
		ents, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range ents {
			n := e.Name()
			if strings.HasPrefix(n, ".") && strings.Contains(n, ".tmp-") && !e.IsDir() {
				if os.Remove(filepath.Join(dir, n)) == nil {
					rel, _ := filepath.Rel(l.Home, filepath.Join(dir, n))
					done = append(done, "removed "+rel+" (an interrupted write)")
				}
			}
		}
	}
	ents, _ := os.ReadDir(l.RawDir())
	for _, e := range ents {
		n := e.Name()
		if !strings.HasSuffix(n, ".pdf") || strings.HasPrefix(n, ".") {
			continue
		}
		sidecar := filepath.Join(l.RawDir(), strings.TrimSuffix(n, ".pdf")+".meta.json")
		data, err := os.ReadFile(sidecar)
		orphan := errors.Is(err, os.ErrNotExist) || (err == nil && bytes.Contains(data, []byte(`"pdf_sha256": ""`)))
		if orphan && os.Remove(filepath.Join(l.RawDir(), n)) == nil {
			done = append(done, "removed raw/"+n+" (a PDF whose capture did not finish)")
		}
	}
	return done, nil
}

// tryTidy runs Tidy when no other process holds the lock.
func (l *Library) tryTidy() ([]string, error) {
	// No lock file: no writer ever ran here, so there is nothing to tidy.
	f, err := os.OpenFile(filepath.Join(l.Home, ".lock"), os.O_RDWR, 0)
	if err != nil {
		return nil, nil
	}
	defer f.Close()
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return nil, nil // a writer is at work; the next command tidies
	}
	defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return l.Tidy()
}
