package library

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/crossmem/crossmem/internal/hint"
)

// ErrKeyInUse is returned (wrapped) when a new cite key is the cite key
// or an alias of another paper: by RenameKey, and by a capture or an
// import given a key that is taken.
var ErrKeyInUse = errors.New("cite key already in use")

// RenameKey gives the paper with cite key old the key new: its PDF, sidecar
// and note move from <stamp>_<old>.* to <stamp>_<new>.*, the sidecar's
// cite_key becomes new and old joins its Aliases, so that old still
// resolves (Find) and stays taken. new may be one of the paper's own
// aliases (it is then removed from them) or differ from old only in case.
// The note's content is not changed; the caller rewrites its frontmatter
// and citations (compile.UpdateNote). The caller must hold the library lock.
//
// The steps are ordered so that a crash leaves a usable library: the PDF
// is hard-linked (or copied) to its new name first, then the new sidecar is
// written, then the note is renamed and the old sidecar and PDF name
// removed; a sidecar left behind by an interrupted run is ignored because
// the new one lists its key as an alias (see Papers).
//
// Errors: ErrNotFound when old is not a cite key (an alias is refused too:
// name the current key), an invalid new key, ErrKeyInUse.
func (l *Library) RenameKey(old, new string) (*Paper, error) {
	if err := ValidKey(new); err != nil {
		return nil, err
	}
	p, err := l.Find(old)
	if err != nil {
		return nil, err
	}
	if p.CiteKey != old {
		return nil, fmt.Errorf("%w: %s is an alias of %s; rename %s instead", ErrNotFound, old, p.CiteKey, p.CiteKey)
	}
	if new == old {
		return p, nil
	}
	papers, _ := l.Papers()
	if q := Owner(papers, new); q != nil && q.SidecarPath != p.SidecarPath {
		return nil, fmt.Errorf("%w: %s is taken by %s", ErrKeyInUse, new, q.CiteKey)
	}

	np := l.paper(p.Stamp, p.Sidecar)
	np.CiteKey = new
	np.Aliases = slices.DeleteFunc(slices.Clone(p.Aliases), func(a string) bool { return strings.EqualFold(a, new) })
	if !slices.Contains(np.Aliases, old) {
		np.Aliases = append(np.Aliases, old)
	}
	np.PDF = ""
	np = l.paper(p.Stamp, np.Sidecar)

	caseOnly := strings.EqualFold(old, new)
	if p.HasPDF() {
		if err := linkOrCopy(p.PDFPath, np.PDFPath, caseOnly); err != nil {
			return nil, fmt.Errorf("rename PDF: %w", err)
		}
	}
	if err := l.WriteSidecar(np); err != nil {
		if p.HasPDF() && !caseOnly {
			os.Remove(np.PDFPath)
		}
		return nil, fmt.Errorf("write sidecar: %w", err)
	}
	if _, err := os.Stat(p.NotePath); err == nil {
		if err := os.Rename(p.NotePath, np.NotePath); err != nil {
			return nil, hint.Wrap(fmt.Errorf("rename note (the paper is renamed; compiling it again rebuilds the note): %w", err), hint.Action{Kind: hint.Compile, Key: new})
		}
	}
	if !sameFile(p.SidecarPath, np.SidecarPath) {
		if err := os.Remove(p.SidecarPath); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("remove old sidecar: %w", err)
		}
	}
	if p.HasPDF() && !caseOnly {
		os.Remove(p.PDFPath) // the new name is a hard link or copy
	}
	syncDir(l.RawDir())
	syncDir(l.WikiDir())
	return np, nil
}

// sameFile reports whether a and b name the same file (as two spellings do
// on a case-insensitive file system). A missing file is not the same.
func sameFile(a, b string) bool {
	if a == b {
		return true
	}
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// linkOrCopy makes dst a second name of src: a hard link, or a copy where
// links are not supported. With caseOnly (names differing only in case,
// which may be the same file on a case-insensitive file system) it renames.
func linkOrCopy(src, dst string, caseOnly bool) error {
	if caseOnly {
		return os.Rename(src, dst)
	}
	if err := os.Link(src, dst); err == nil {
		return nil
	} else if errors.Is(err, os.ErrExist) {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	data, err := io.ReadAll(in)
	if err != nil {
		return err
	}
	return WriteFileAtomic(dst, data, 0o644)
}
