package cite

import (
	"fmt"
	"os"
	"strings"

	"github.com/crossmem/crossmem/internal/draft"
	"github.com/crossmem/crossmem/internal/library"
)

// Cited is a key a bibliography is asked for, with where it was first
// asked: a draft's file and 1-based line, or File "" for a key given by
// itself.
type Cited struct {
	Key  string
	File string
	Line int
}

// CollectKeys reads the arguments of a bibliography request (`crossmem
// bib`): an argument that names an existing file is a draft, read and
// scanned for its citations (draft.Scan); any other argument is a cite key
// or alias. It returns the distinct keys in order of first mention, and
// the drafts in the order given. Errors: a draft that cannot be read, and
// an argument that is no existing file and cannot be a key (it has a
// draft's extension, looks like a path, or is no valid key or alias).
func CollectKeys(args []string) ([]Cited, []*draft.Draft, error) {
	var keys []Cited
	var drafts []*draft.Draft
	seen := map[string]bool{}
	add := func(c Cited) {
		if !seen[c.Key] {
			seen[c.Key] = true
			keys = append(keys, c)
		}
	}
	for _, arg := range args {
		if fi, err := os.Stat(arg); err == nil && !fi.IsDir() {
			text, err := os.ReadFile(arg)
			if err != nil {
				return nil, nil, fmt.Errorf("read draft: %w", err)
			}
			d := draft.Scan(arg, text)
			drafts = append(drafts, d)
			for _, c := range d.Citations {
				add(Cited{Key: c.Key, File: arg, Line: c.Line})
			}
			continue
		}
		looksLikeFile := draft.KindOf(arg) != draft.Unknown || (strings.ContainsAny(arg, `/\`) && !strings.Contains(arg, ":"))
		if looksLikeFile || library.ValidAlias(arg) != nil {
			return nil, nil, fmt.Errorf("%s: no such draft file, and not a cite key; check the draft's path or the key's spelling", arg)
		}
		add(Cited{Key: arg})
	}
	return keys, drafts, nil
}
