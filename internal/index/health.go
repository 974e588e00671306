package index

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
)

// noteName is the name of a note crossmem writes: <unix-ts>_<cite_key>.md.
var noteName = regexp.MustCompile(`^[0-9]+_.+\.md$`)

// Stale counts the notes the index is behind on, without reading any:
// note files it has not indexed or whose size or modification time
// changed since, and notes it holds whose file is gone. The next Sync
// brings it up to date.
func (ix *Index) Stale(ctx context.Context) (_ int, err error) {
	defer ix.classifyErr(&err)
	files, err := filepath.Glob(filepath.Join(ix.wikiDir, "*.md"))
	if err != nil {
		return 0, err
	}
	type rec struct{ size, mtime int64 }
	known := map[string]rec{}
	rows, err := ix.db.QueryContext(ctx, `SELECT name, size, mtime_ns FROM notes`)
	if err != nil {
		return 0, err
	}
	for rows.Next() {
		var name string
		var r rec
		if err := rows.Scan(&name, &r.size, &r.mtime); err != nil {
			rows.Close()
			return 0, err
		}
		known[name] = r
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	n := 0
	seen := map[string]bool{}
	for _, f := range files {
		name := filepath.Base(f)
		if !noteName.MatchString(name) {
			continue // not a note crossmem writes (a README, say): Sync skips it
		}
		seen[name] = true
		fi, err := os.Stat(f)
		if err != nil {
			continue
		}
		if r, ok := known[name]; !ok || r.size != fi.Size() || r.mtime != fi.ModTime().UnixNano() {
			n++
		}
	}
	for name := range known {
		if !seen[name] {
			n++
		}
	}
	return n, nil
}
