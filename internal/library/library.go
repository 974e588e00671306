// Package library is the user's on-disk crossmem library: the truth every
// other part reads. It owns the folder layout, the metadata sidecars, atomic
// writes and the lock that serialises writers.
//
// Layout (version 1) under the home folder (CROSSMEM_HOME, default
// ~/crossmem):
//
//	raw/<unix-ts>_<cite_key>.pdf        the captured PDF, byte-identical copy
//	raw/<unix-ts>_<cite_key>.meta.json  its metadata sidecar (Sidecar)
//	wiki/<unix-ts>_<cite_key>.md        the compiled wiki note (internal/note)
//	.lock                               advisory lock file for writers
//
// <unix-ts> is the capture time and is shared by all three files of a
// paper, so re-compiling replaces the note in place. An entry added by
// `crossmem import` has a sidecar only (no PDF, pdf_sha256 ""), until a
// capture with its cite key attaches a PDF. A paper renamed by `crossmem
// rekey` keeps its earlier keys in the sidecar's aliases, which resolve
// like cite keys and stay taken. Cite keys are validated
// before they become file names (see ValidKey), so no path built from
// metadata can leave the home folder.
//
// Readers need no lock: every file is written to a temporary file in the
// same folder, synced and renamed into place.
package library

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/crossmem/crossmem/internal/citekey"
	"github.com/crossmem/crossmem/internal/metadata"
)

// ErrNotFound is returned when no paper has the requested cite key.
var ErrNotFound = errors.New("cite key not found")

// ErrNoPDF is wrapped by errors about a paper without a PDF: an entry
// imported as metadata only (compile), a work whose PDF could not be
// downloaded (capture).
var ErrNoPDF = errors.New("no PDF")

// SidecarVersion is the version of the .meta.json format.
const SidecarVersion = 1

// Library is a library home folder.
type Library struct {
	Home string
	// Tidied lists what Open repaired after interrupted commands (Tidy).
	Tidied []string
}

// Open returns the library at home, creating raw/ and wiki/ if needed.
func Open(home string) (*Library, error) {
	if home == "" {
		return nil, errors.New("library home folder is not set")
	}
	abs, err := filepath.Abs(home)
	if err != nil {
		return nil, err
	}
	for _, d := range []string{abs, filepath.Join(abs, "raw"), filepath.Join(abs, "wiki")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("create library folder: %w", err)
		}
	}
	l := &Library{Home: abs}
	tidied, err := l.tryTidy()
	if err != nil {
		return nil, fmt.Errorf("repair after an interrupted command: %w", err)
	}
	l.Tidied = tidied
	return l, nil
}

// RawDir returns the folder of captured PDFs and sidecars.
func (l *Library) RawDir() string { return filepath.Join(l.Home, "raw") }

// WikiDir returns the folder of wiki notes.
func (l *Library) WikiDir() string { return filepath.Join(l.Home, "wiki") }

// Source records where a capture came from.
type Source struct {
	// Kind is "local", "arxiv", "doi", "url" or "browser" (a PDF the
	// browser extension fetched, Input and URL its address).
	Kind string `json:"kind"`
	// Input is what the user typed (a path, id, DOI or URL).
	Input string `json:"input"`
	// URL is the address the PDF was downloaded from, if any.
	URL string `json:"url,omitempty"`
}

// Sidecar is the .meta.json file beside a captured PDF. Its first fields
// are those of the seed's capture page; authors are display strings and
// author_names the structured CSL names they derive from.
type Sidecar struct {
	Version    int      `json:"sidecar_version"`
	CiteKey    string   `json:"cite_key"`
	Title      string   `json:"title"`
	Authors    []string `json:"authors"`
	Year       int      `json:"year"`
	ArxivID    string   `json:"arxiv_id"`
	DOI        string   `json:"doi"`
	Container  string   `json:"container_title"`
	Sources    []string `json:"sources"`
	Reconciled bool     `json:"reconciled"`
	Warnings   []string `json:"warnings"`

	PDFSHA256  string `json:"pdf_sha256"`
	PDF        string `json:"pdf"` // file name in raw/
	CapturedAt string `json:"captured_at"`
	Source     Source `json:"source"`

	// Metadata is the full record of the captured version, reconciled, with
	// per-field sources.
	Metadata metadata.Record `json:"metadata"`
	// Published is the published version when the captured PDF is a
	// preprint and the published version is known; Preprint the preprint
	// when the captured version is the published one. They decide how to
	// cite when the configuration asks for the other version.
	Published *metadata.Record `json:"published,omitempty"`
	Preprint  *metadata.Record `json:"preprint,omitempty"`
	// Consulted lists the metadata questions asked at the last capture or
	// refresh and their outcomes (ok, not found, failed, rejected).
	Consulted []metadata.Consultation `json:"consulted,omitempty"`
	// RefreshedAt is the unix time of the last refresh, "" if never.
	RefreshedAt string `json:"refreshed_at,omitempty"`

	// Aliases are earlier cite keys of this paper (from `crossmem rekey`);
	// they still resolve everywhere a cite key is accepted and stay taken.
	Aliases []string `json:"aliases,omitempty"`
	// Imported is the record as read by `crossmem import` (BibTeX,
	// BibLaTeX or CSL-JSON), kept when a PDF is attached later so that
	// differences from the sources stay visible.
	Imported *metadata.Record `json:"imported,omitempty"`
	// PDFMetadata is what the PDF says about itself (its XMP packet,
	// document information and first pages; sources pdf-xmp, pdf-info,
	// pdf-text), kept so that every refresh checks the sources against it.
	PDFMetadata *metadata.Record `json:"pdf_metadata,omitempty"`
	// LookupPending is true when the metadata sources could not be reached
	// at capture (or at the last refresh): Metadata is then what the PDF
	// says. crossmem refresh --pending completes it.
	LookupPending bool `json:"lookup_pending,omitempty"`
	// Talk describes a recorded talk's files in raw/youtube/ (talk.go);
	// nil for a paper.
	Talk *Talk `json:"talk,omitempty"`
}

// Paper is one captured paper as found on disk.
type Paper struct {
	Sidecar
	// Stamp is the <unix-ts> part shared by the paper's files.
	Stamp string
	// PDFPath, SidecarPath and NotePath are absolute paths; NotePath is
	// set even when the note does not exist yet.
	PDFPath     string
	SidecarPath string
	NotePath    string
}

// HasPDF reports whether the paper has a PDF: false for a metadata-only
// entry from `crossmem import` until a PDF is captured for it.
func (p *Paper) HasPDF() bool { return p.PDFSHA256 != "" }

// HasNote reports whether the paper has been compiled.
func (p *Paper) HasNote() bool {
	_, err := os.Stat(p.NotePath)
	return err == nil
}

// MaxAliasLen is the longest alias ValidAlias accepts.
const MaxAliasLen = 200

// ValidAlias checks that key can be an alias: any key a BibTeX, BibLaTeX
// or pandoc draft can cite, 1 to MaxAliasLen characters (letters, digits
// and ASCII punctuation) starting with a letter or digit, without
// whitespace or any of , { } ( ) " ' # % ~ \ =. It is wider than ValidKey because aliases never become file names:
// a Better BibTeX or DBLP key such as "DBLP:conf/sigmod/PandeyCDBFJ21"
// can be kept as an alias of the cite key crossmem assigns.
func ValidAlias(key string) error {
	if key == "" || len(key) > MaxAliasLen {
		return fmt.Errorf("invalid alias %q: use 1-%d characters", key, MaxAliasLen)
	}
	if r, _ := utf8.DecodeRuneInString(key); !unicode.IsLetter(r) && !unicode.IsDigit(r) {
		return fmt.Errorf("invalid alias %q: it must start with a letter or digit", key)
	}
	for _, r := range key {
		if strings.ContainsRune(`,{}()"'#%~\=`, r) || !(unicode.IsLetter(r) || unicode.IsDigit(r) || (r > ' ' && r < 0x7f)) {
			return fmt.Errorf("invalid alias %q: character %q not allowed", key, r)
		}
	}
	return nil
}

// ValidKey checks that key can be used as a cite key and inside a file
// name (citekey.Valid: ASCII letters, digits and _ - : . only, no "..").
func ValidKey(key string) error { return citekey.Valid(key) }

var stampName = regexp.MustCompile(`^(\d+)_(.+)\.meta\.json$`)

// Papers lists every captured paper, sorted by cite key. Sidecars that
// cannot be read are reported in the returned error list but do not stop
// the listing.
func (l *Library) Papers() ([]*Paper, []error) {
	entries, err := os.ReadDir(l.RawDir())
	if err != nil {
		return nil, []error{fmt.Errorf("read %s: %w", l.RawDir(), err)}
	}
	var out []*Paper
	var errs []error
	for _, e := range entries {
		m := stampName.FindStringSubmatch(e.Name())
		if m == nil || e.IsDir() {
			continue
		}
		p, err := l.load(m[1], filepath.Join(l.RawDir(), e.Name()))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, p)
	}
	out = dropStale(out)
	sort.Slice(out, func(i, j int) bool { return out[i].CiteKey < out[j].CiteKey })
	return out, errs
}

// dropStale removes the sidecar a rekey interrupted by a crash left behind:
// one whose key is an alias of another sidecar with the same stamp.
func dropStale(papers []*Paper) []*Paper {
	renamed := map[string]bool{}
	for _, p := range papers {
		for _, a := range p.Aliases {
			renamed[p.Stamp+"_"+a] = true
		}
	}
	if len(renamed) == 0 {
		return papers
	}
	out := papers[:0]
	for _, p := range papers {
		if !renamed[p.Stamp+"_"+p.CiteKey] {
			out = append(out, p)
		}
	}
	return out
}

func (l *Library) load(stamp, path string) (*Paper, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var sc Sidecar
	if err := json.Unmarshal(data, &sc); err != nil {
		return nil, fmt.Errorf("read sidecar %s: %w", path, err)
	}
	if err := ValidKey(sc.CiteKey); err != nil {
		return nil, fmt.Errorf("sidecar %s: %w", path, err)
	}
	return l.paper(stamp, sc), nil
}

func (l *Library) paper(stamp string, sc Sidecar) *Paper {
	base := stamp + "_" + sc.CiteKey
	pdfName := sc.PDF
	if pdfName == "" || filepath.Base(pdfName) != pdfName {
		pdfName = base + ".pdf"
	}
	return &Paper{
		Sidecar:     sc,
		Stamp:       stamp,
		PDFPath:     filepath.Join(l.RawDir(), pdfName),
		SidecarPath: filepath.Join(l.RawDir(), base+".meta.json"),
		NotePath:    filepath.Join(l.WikiDir(), base+".md"),
	}
}

// Find returns the paper with cite key key (exact match), or the paper
// that has key among its Aliases (then p.CiteKey != key). It returns an
// error wrapping ErrNotFound when there is none.
func (l *Library) Find(key string) (*Paper, error) {
	if ValidAlias(key) != nil {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, key)
	}
	var matches []string
	if ValidKey(key) == nil {
		matches, _ = filepath.Glob(filepath.Join(l.RawDir(), "*_"+GlobEscape(key)+".meta.json"))
	}
	for _, m := range matches {
		sm := stampName.FindStringSubmatch(filepath.Base(m))
		if sm == nil || sm[2] != key {
			continue
		}
		p, err := l.load(sm[1], m)
		if err != nil {
			return nil, err
		}
		if p.CiteKey == key && !l.superseded(p) {
			return p, nil
		}
	}
	papers, _ := l.Papers()
	for _, p := range papers {
		for _, a := range p.Aliases {
			if a == key {
				return p, nil
			}
		}
	}
	return nil, fmt.Errorf("%w: %s", ErrNotFound, key)
}

// superseded reports whether p's sidecar was left behind by an interrupted
// rekey (another sidecar of the same stamp lists p's key as an alias).
func (l *Library) superseded(p *Paper) bool {
	matches, _ := filepath.Glob(filepath.Join(l.RawDir(), GlobEscape(p.Stamp)+"_*.meta.json"))
	for _, m := range matches {
		if m == p.SidecarPath {
			continue
		}
		sm := stampName.FindStringSubmatch(filepath.Base(m))
		if sm == nil {
			continue
		}
		if q, err := l.load(sm[1], m); err == nil {
			for _, a := range q.Aliases {
				if a == p.CiteKey {
					return true
				}
			}
		}
	}
	return false
}

// GlobEscape escapes in s the characters filepath.Glob treats specially
// (* ? [ ] and the backslash), so that a cite key or stamp is matched as written.
func GlobEscape(s string) string {
	r := strings.NewReplacer(`*`, `\*`, `?`, `\?`, `[`, `\[`, `]`, `\]`, `\`, `\\`)
	return r.Replace(s)
}

// KeyTaken reports whether a paper already uses key as its cite key or an
// alias, compared case-insensitively (cite keys that differ only in case
// would collide on case-insensitive file systems and confuse LaTeX users).
func KeyTaken(papers []*Paper, key string) bool {
	return Owner(papers, key) != nil
}

// Owner returns the paper whose cite key or alias equals key
// case-insensitively, or nil.
func Owner(papers []*Paper, key string) *Paper {
	for _, p := range papers {
		if strings.EqualFold(p.CiteKey, key) {
			return p
		}
		for _, a := range p.Aliases {
			if strings.EqualFold(a, key) {
				return p
			}
		}
	}
	return nil
}

// NewPaper returns the paths for a new capture of key at the given unix
// time. It does not write anything.
func (l *Library) NewPaper(key string, unix int64) (*Paper, error) {
	if err := ValidKey(key); err != nil {
		return nil, err
	}
	stamp := strconv.FormatInt(unix, 10)
	return l.paper(stamp, Sidecar{CiteKey: key}), nil
}

// WriteSidecar writes p.Sidecar to p.SidecarPath atomically.
func (l *Library) WriteSidecar(p *Paper) error {
	p.Version = SidecarVersion
	p.PDF = ""
	if p.HasPDF() {
		p.PDF = filepath.Base(p.PDFPath)
	}
	data, err := json.MarshalIndent(&p.Sidecar, "", "  ")
	if err != nil {
		return fmt.Errorf("encode sidecar: %w", err)
	}
	return WriteFileAtomic(p.SidecarPath, append(data, '\n'), 0o644)
}

// NoteFiles lists the .md files in wiki/, sorted.
func (l *Library) NoteFiles() ([]string, error) {
	m, err := filepath.Glob(filepath.Join(l.WikiDir(), "*.md"))
	sort.Strings(m)
	return m, err
}

// WriteFileAtomic writes data to path through a temporary file in the same
// folder, synced and renamed into place, so readers see either the old or
// the new content and a crash never leaves a half-written file.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			os.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("sync %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", path, err)
	}
	if err := os.Chmod(tmp, perm); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("rename into %s: %w", path, err)
	}
	ok = true
	syncDir(dir)
	return nil
}

// CopyFileAtomic copies src to dst (never modifying src) through a
// temporary file and rename.
func CopyFileAtomic(dst, src string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return WriteFileAtomic(dst, data, 0o644)
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
