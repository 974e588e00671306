package library

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/crossmem/crossmem/internal/hint"
)

// TrashDir is the folder under the home where removed papers go.
const TrashDir = "trash"

// removalManifest is the file in each removal's folder that says what was
// moved where.
const removalManifest = "removed.json"

// Removal is one paper moved to the trash by Remove: the folder
// <home>/trash/<id>/ holds its files under raw/ and wiki/ as they were,
// and removed.json (this value).
type Removal struct {
	// ID is the folder's name: <unix seconds>_<cite key>.
	ID      string   `json:"id"`
	CiteKey string   `json:"cite_key"`
	Aliases []string `json:"aliases,omitempty"`
	Title   string   `json:"title"`
	// RemovedAt is the time of the removal (Unix seconds).
	RemovedAt int64 `json:"removed_at"`
	// Files are the paths moved, relative to the home (raw/…, wiki/…):
	// the note, the PDF (or a talk's folder) and the sidecar, in the order
	// they were moved.
	Files []string `json:"files"`
	// Done is false while the files are being moved (a removal a crash
	// interrupted; Remove finishes it, Restore puts back what moved).
	Done bool `json:"done"`
	// Dir is the removal's folder (not stored).
	Dir string `json:"-"`
}

// ErrNotInTrash is wrapped by Restore's error when the trash holds no
// removal of the key or id asked for.
var ErrNotInTrash = errors.New("not in the trash")

// Remove moves the paper with cite key (or alias) key to the trash: its
// note, its raw PDF (a talk's raw/youtube/<video id>/ folder) and its
// sidecar, in that order, into
// <home>/trash/<id>/ — nothing is deleted, and nothing outside raw/ and
// wiki/ is touched (the file a PDF was captured from is the user's and
// stays where it is). The sidecar goes last, so a crash leaves either the
// paper (perhaps without its note or PDF, which are in the trash) or the
// removal; calling Remove again finishes an interrupted removal. Take the
// library lock around it. Errors: ErrNotFound (wrapped) for an unknown
// key, I/O errors.
func (l *Library) Remove(key string) (*Removal, error) {
	p, err := l.Find(key)
	if err != nil {
		return nil, err
	}
	r := l.unfinished(p.CiteKey)
	if r == nil {
		now := time.Now().Unix()
		r = &Removal{CiteKey: p.CiteKey, Aliases: p.Aliases, Title: p.Title, RemovedAt: now}
		for i := 0; ; i++ {
			r.ID = fmt.Sprintf("%d_%s", now, p.CiteKey)
			if i > 0 {
				r.ID += "-" + strconv.Itoa(i+1)
			}
			r.Dir = filepath.Join(l.Home, TrashDir, r.ID)
			if _, err := os.Stat(r.Dir); errors.Is(err, os.ErrNotExist) {
				break
			}
		}
	}
	paths := []string{p.NotePath, p.PDFPath}
	if dir := l.TalkDir(p); dir != "" {
		paths = append(paths, dir) // a talk's recording, subtitles and keyframes
	}
	for _, path := range append(paths, p.SidecarPath) {
		rel, err := filepath.Rel(l.Home, path)
		if err != nil || strings.HasPrefix(rel, "..") {
			return nil, fmt.Errorf("remove %s: %s is outside the library", p.CiteKey, path)
		}
		if !contains(r.Files, rel) {
			r.Files = append(r.Files, rel)
		}
	}
	// The manifest first, so that the trash always says what it holds.
	if err := l.writeManifest(r); err != nil {
		return nil, err
	}
	for _, rel := range r.Files {
		dst := filepath.Join(r.Dir, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return nil, fmt.Errorf("remove %s: %w", p.CiteKey, err)
		}
		if err := os.Rename(filepath.Join(l.Home, rel), dst); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("remove %s: move %s to the trash: %w", p.CiteKey, rel, err)
		}
	}
	syncDir(l.RawDir())
	syncDir(l.WikiDir())
	r.Done = true
	if err := l.writeManifest(r); err != nil {
		return nil, err
	}
	return r, nil
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func (l *Library) writeManifest(r *Removal) error {
	if err := os.MkdirAll(r.Dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", r.Dir, err)
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(filepath.Join(r.Dir, removalManifest), append(data, '\n'), 0o644)
}

// unfinished returns an interrupted removal of citeKey, or nil.
func (l *Library) unfinished(citeKey string) *Removal {
	rs, _ := l.Trash()
	for _, r := range rs {
		if r.CiteKey == citeKey && !r.Done {
			return r
		}
	}
	return nil
}

// Trash lists the removals in the trash, newest first. A folder whose
// manifest cannot be read is reported in the error list and left out.
func (l *Library) Trash() ([]*Removal, []error) {
	dir := filepath.Join(l.Home, TrashDir)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []error{err}
	}
	var out []*Removal
	var errs []error
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		path := filepath.Join(dir, e.Name(), removalManifest)
		data, err := os.ReadFile(path)
		if err != nil {
			errs = append(errs, fmt.Errorf("trash: %w", err))
			continue
		}
		var r Removal
		if err := json.Unmarshal(data, &r); err != nil || r.ID != e.Name() || ValidKey(r.CiteKey) != nil {
			errs = append(errs, fmt.Errorf("trash: %s is not a removal crossmem wrote", path))
			continue
		}
		r.Dir = filepath.Join(dir, e.Name())
		out = append(out, &r)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].RemovedAt != out[j].RemovedAt {
			return out[i].RemovedAt > out[j].RemovedAt
		}
		return out[i].ID > out[j].ID
	})
	return out, errs
}

// Restore puts a removal back: the one with id (a trash folder's name),
// or the latest removal of the cite key id names. Its key and aliases must
// be free again, and no file may be in the way. The sidecar goes back
// first, then the PDF and the note, so a crash never leaves a PDF without
// its sidecar (which Tidy would remove); calling Restore again finishes
// an interrupted restore. The emptied trash folder is removed. Take the
// library lock around it. Errors: ErrNotInTrash (wrapped), ErrKeyInUse
// (wrapped) with the hint to rename, I/O errors.
func (l *Library) Restore(id string) (*Removal, error) {
	rs, errs := l.Trash()
	var r *Removal
	for _, x := range rs {
		if x.ID == id || (r == nil && x.CiteKey == id) {
			r = x
			if x.ID == id {
				break
			}
		}
	}
	if r == nil {
		if len(errs) > 0 {
			return nil, fmt.Errorf("%s: %w (and %v)", id, ErrNotInTrash, errs[0])
		}
		return nil, fmt.Errorf("%s: %w", id, ErrNotInTrash)
	}
	// Files still in the trash, sidecar first.
	var todo []string
	for i := len(r.Files) - 1; i >= 0; i-- {
		rel := r.Files[i]
		if _, err := os.Stat(filepath.Join(r.Dir, rel)); err == nil {
			todo = append(todo, rel)
		}
	}
	restoringSidecar := len(todo) > 0 && strings.HasSuffix(todo[0], ".meta.json")
	if restoringSidecar {
		papers, _ := l.Papers()
		for _, k := range append([]string{r.CiteKey}, r.Aliases...) {
			if KeyTaken(papers, k) {
				return nil, hint.Wrap(fmt.Errorf("restore %s: %w: %s is taken by a paper added since", r.ID, ErrKeyInUse, k), hint.Action{Kind: hint.RekeyThenRestore, Key: k})
			}
		}
	}
	for _, rel := range todo {
		if _, err := os.Stat(filepath.Join(l.Home, rel)); err == nil {
			return nil, fmt.Errorf("restore %s: %s exists in the library; move it away first", r.ID, rel)
		}
	}
	for _, rel := range todo {
		dst := filepath.Join(l.Home, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return nil, err
		}
		if err := os.Rename(filepath.Join(r.Dir, rel), dst); err != nil {
			return nil, fmt.Errorf("restore %s: move %s back: %w", r.ID, rel, err)
		}
	}
	syncDir(l.RawDir())
	syncDir(l.WikiDir())
	if err := os.RemoveAll(r.Dir); err != nil {
		return nil, fmt.Errorf("restore %s: the files are back; the trash folder %s could not be removed: %w", r.ID, r.Dir, err)
	}
	return r, nil
}
