package capture

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/crossmem/crossmem/internal/bibtex"
	"github.com/crossmem/crossmem/internal/citekey"
	"github.com/crossmem/crossmem/internal/csl"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/identifier"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/metadata/reconcile"
)

// ImportEntry is one work read from an import file: a CSL-JSON item (ID is
// the cite key the file gives it, "" if none) and the 1-based line it
// starts on.
type ImportEntry struct {
	Item csl.Item
	Line int
	// Warnings say what the reader dropped or guessed (an unknown LaTeX
	// command, "and others", an unreadable date).
	Warnings []string
}

// ImportOptions configures Import.
type ImportOptions struct {
	File    string // the import file's name, recorded as the entries' source
	Pattern string // cite key pattern for entries without a usable key; "" = citekey.Default()
	DryRun  bool   // check and report, write nothing
	// Now gives the entries' stamp (the <unix-ts> of their file names);
	// nil means time.Now.
	Now func() time.Time
}

// Import outcomes.
const (
	ImportAdded  = "added"  // a new metadata-only entry
	ImportExists = "exists" // the same work already has this cite key; nothing written
	ImportAlias  = "alias"  // the same work is in the library under another key; this key became its alias
	// ImportUpdated: the library's paper with this key had no title or
	// author (a PDF without metadata); the imported record now describes it.
	ImportUpdated = "updated"
)

// ImportOutcome says what happened to one entry.
type ImportOutcome struct {
	Line    int    `json:"line"`
	CiteKey string `json:"cite_key"`           // the key the entry has in the library now
	Status  string `json:"status"`             // ImportAdded, ImportExists, ImportAlias or ImportUpdated
	FileKey string `json:"file_key,omitempty"` // the key in the file when it differs from CiteKey
	Note    string `json:"note,omitempty"`     // why a key was replaced, which paper got the alias
	// Warnings are what the file's reader dropped or guessed in this entry;
	// an added entry keeps them in its metadata warnings.
	Warnings []string `json:"warnings,omitempty"`
}

// Import adds entries to lib as metadata-only entries (sidecars without a
// PDF; `capture --cite-key <key>` attaches one later). A key given in the
// file is kept and pinned; an entry without one, or with one that is not a
// valid crossmem cite key, gets a key from the pattern (the outcome says
// so). An entry whose key the library already uses for the same work (same
// DOI, arXiv id, or title and year) is skipped; one whose work the library
// has under another key adds the file's key as an alias of that paper.
//
// Import is all or nothing: every entry is checked first and any problem
// (no title, author or venue; a key used twice in the file; a key the
// library uses for a different work) is returned, joined, each with its
// line, and nothing is written. The writes happen under the library lock
// and are undone if one fails.
func Import(ctx context.Context, lib *library.Library, entries []ImportEntry, o ImportOptions) ([]ImportOutcome, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Pattern == "" {
		o.Pattern = citekey.Default()
	}
	if o.DryRun {
		out, _, err := planImport(lib, entries, o)
		return out, err
	}
	unlock, err := lib.Lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	out, writes, err := planImport(lib, entries, o)
	if err != nil {
		return nil, err
	}
	// The journal makes the import all or nothing across a crash too: a
	// killed import is rolled back by the next command (library.Tidy).
	var created, modified []string
	for _, w := range writes {
		if w.created {
			created = append(created, w.path)
		} else {
			modified = append(modified, w.path)
		}
	}
	commit, err := lib.BeginJournal("import", created, modified)
	if err != nil {
		return nil, fmt.Errorf("import: %w (nothing was imported)", err)
	}
	var done []func()
	for _, w := range writes {
		undo, err := w.do(lib)
		if err != nil {
			for i := len(done) - 1; i >= 0; i-- {
				done[i]()
			}
			commit()
			return nil, fmt.Errorf("import: %w (nothing was imported)", err)
		}
		done = append(done, undo)
	}
	if err := commit(); err != nil {
		return nil, fmt.Errorf("import: finish the journal: %w", err)
	}
	return out, nil
}

// write is one file change: the sidecar it creates or replaces, and how
// to perform it, which returns how to undo it.
type write struct {
	path    string
	created bool
	do      func(*library.Library) (undo func(), err error)
}

func planImport(lib *library.Library, entries []ImportEntry, o ImportOptions) ([]ImportOutcome, []write, error) {
	papers, _ := lib.Papers()
	var errs []error
	rekeyable := "" // a library paper whose key the file also uses
	fail := func(line int, format string, args ...any) {
		errs = append(errs, fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, args...)))
	}
	type pending struct {
		e     ImportEntry
		rec   *metadata.Record
		note  string
		alias string // the file's key, kept as an alias of the assigned key
	}
	var fresh []pending
	seen := map[string]int{} // lower-cased key → line
	var out []ImportOutcome
	var writes []write
	aliasOf := map[*library.Paper][]string{}
	now := o.Now()

	for _, e := range entries {
		rec := e.Item.Record()
		for _, w := range e.Warnings {
			rec.Warn("import: " + w)
		}
		if rec.Title == "" && len(rec.Authors) == 0 && rec.ContainerTitle == "" {
			fail(e.Line, "entry %q has no title, author or container title", e.Item.ID)
			continue
		}
		key := strings.TrimSpace(e.Item.ID)
		if key == "" {
			fresh = append(fresh, pending{e: e, rec: rec})
			continue
		}
		if err := citekey.Valid(key); err != nil {
			p := pending{e: e, rec: rec, note: fmt.Sprintf("the file's key %q cannot be a crossmem cite key", key)}
			if library.ValidAlias(key) == nil {
				if prev, ok := seen[strings.ToLower(key)]; ok {
					fail(e.Line, "cite key %q is used twice in the file (first on line %d)", key, prev)
					continue
				}
				seen[strings.ToLower(key)] = e.Line
				if owner := library.Owner(papers, key); owner != nil {
					if !sameImportedWork(&owner.Metadata, rec) {
						fail(e.Line, "cite key %q is already used in the library by a different work (%q); change the key in the file", key, owner.Metadata.Title)
						continue
					}
					out = append(out, ImportOutcome{Line: e.Line, CiteKey: owner.CiteKey, Status: ImportExists, FileKey: key, Note: key + " is an alias of " + owner.CiteKey})
					continue
				}
				p.alias = key
				p.note += " (it is kept as an alias)"
			} else {
				p.note += fmt.Sprintf(" (%v)", err)
			}
			fresh = append(fresh, p)
			continue
		}
		if prev, ok := seen[strings.ToLower(key)]; ok {
			fail(e.Line, "cite key %q is used twice in the file (first on line %d)", key, prev)
			continue
		}
		seen[strings.ToLower(key)] = e.Line
		if owner := library.Owner(papers, key); owner != nil {
			if owner.Metadata.Title == "" && len(owner.Metadata.Authors) == 0 {
				out = append(out, ImportOutcome{Line: e.Line, CiteKey: owner.CiteKey, Status: ImportUpdated,
					Note: "the paper had no title or author; the imported entry describes it now"})
				writes = append(writes, describe(owner, rec, o.File))
				continue
			}
			if !sameImportedWork(&owner.Metadata, rec) {
				fail(e.Line, "cite key %q is already used in the library by a different work (%q); change the key in the file, or rename the library's paper", key, owner.Metadata.Title)
				rekeyable = owner.CiteKey
				continue
			}
			oc := ImportOutcome{Line: e.Line, CiteKey: owner.CiteKey, Status: ImportExists}
			if owner.CiteKey != key {
				oc.FileKey, oc.Note = key, key+" is an alias of "+owner.CiteKey
			}
			out = append(out, oc)
			continue
		}
		if owner := findWork(papers, rec); owner != nil {
			aliasOf[owner] = append(aliasOf[owner], key)
			out = append(out, ImportOutcome{Line: e.Line, CiteKey: owner.CiteKey, Status: ImportAlias, FileKey: key,
				Note: fmt.Sprintf("the library has this work as %s; %s is now an alias of it", owner.CiteKey, key)})
			continue
		}
		out = append(out, ImportOutcome{Line: e.Line, CiteKey: key, Status: ImportAdded})
		w, err := newEntry(lib, key, rec, o.File, now, "")
		if err != nil {
			fail(e.Line, "%v", err)
			continue
		}
		writes = append(writes, w)
	}
	// Keys from the pattern, unique against the library and the file.
	taken := func(k string) bool {
		_, inFile := seen[strings.ToLower(k)]
		return inFile || library.KeyTaken(papers, k)
	}
	for _, p := range fresh {
		if owner := findWork(papers, p.rec); owner != nil {
			if p.alias != "" {
				aliasOf[owner] = append(aliasOf[owner], p.alias)
				out = append(out, ImportOutcome{Line: p.e.Line, CiteKey: owner.CiteKey, Status: ImportAlias, FileKey: p.alias,
					Note: fmt.Sprintf("the library has this work as %s; %s is now an alias of it", owner.CiteKey, p.alias)})
				continue
			}
			out = append(out, ImportOutcome{Line: p.e.Line, CiteKey: owner.CiteKey, Status: ImportExists, FileKey: p.e.Item.ID, Note: p.note})
			continue
		}
		base, err := citekey.Make(o.Pattern, p.rec)
		if err != nil {
			fail(p.e.Line, "make a cite key: %v", err)
			continue
		}
		key, err := citekey.Unique(base, taken)
		if err != nil {
			fail(p.e.Line, "%v", err)
			continue
		}
		seen[strings.ToLower(key)] = p.e.Line
		note := p.note
		if note == "" {
			note = "the file gives no key"
		}
		out = append(out, ImportOutcome{Line: p.e.Line, CiteKey: key, Status: ImportAdded, FileKey: p.e.Item.ID, Note: note + "; assigned " + key})
		w, err := newEntry(lib, key, p.rec, o.File, now, p.alias)
		if err != nil {
			fail(p.e.Line, "%v", err)
			continue
		}
		writes = append(writes, w)
	}
	for owner, keys := range aliasOf {
		writes = append(writes, addAliases(owner, keys))
	}
	if len(errs) > 0 {
		return nil, nil, hint.Wrap(fmt.Errorf("%d problem(s) in the import file, nothing imported:\n%w", len(errs), errors.Join(errs...)),
			hint.Action{Kind: hint.FixImportFile, Key: rekeyable})
	}
	warnings := map[int][]string{}
	for _, e := range entries {
		warnings[e.Line] = e.Warnings
	}
	for i := range out {
		out[i].Warnings = warnings[out[i].Line]
	}
	sortOutcomes(out)
	return out, writes, nil
}

func sortOutcomes(out []ImportOutcome) {
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
}

// newEntry writes the sidecar of a metadata-only entry.
func newEntry(lib *library.Library, key string, rec *metadata.Record, file string, now time.Time, alias string) (write, error) {
	p, err := lib.NewPaper(key, now.Unix())
	if err != nil {
		return write{}, err
	}
	return write{path: p.SidecarPath, created: true, do: func(lib *library.Library) (func(), error) {
		markImported(rec, file)
		imported := *rec
		p.Sidecar = library.Sidecar{
			CiteKey:    key,
			CapturedAt: strconv.FormatInt(now.Unix(), 10),
			Source:     library.Source{Kind: "import", Input: file},
			Imported:   &imported,
		}
		if alias != "" {
			p.Aliases = []string{alias}
		}
		setRecord(&p.Sidecar, rec)
		if err := lib.WriteSidecar(p); err != nil {
			return nil, fmt.Errorf("write entry %s: %w", key, err)
		}
		return func() { os.Remove(p.SidecarPath) }, nil
	}}, nil
}

// describe gives paper p, which has no title or author, the imported
// record.
func describe(p *library.Paper, rec *metadata.Record, file string) write {
	return write{path: p.SidecarPath, do: func(lib *library.Library) (func(), error) {
		before := p.Sidecar
		markImported(rec, file)
		imported := *rec
		p.Imported = &imported
		setRecord(&p.Sidecar, rec)
		if err := lib.WriteSidecar(p); err != nil {
			p.Sidecar = before
			return nil, fmt.Errorf("update %s: %w", p.CiteKey, err)
		}
		return func() {
			p.Sidecar = before
			lib.WriteSidecar(p)
		}, nil
	}}
}

// addAliases adds keys to p's aliases.
func addAliases(p *library.Paper, keys []string) write {
	return write{path: p.SidecarPath, do: func(lib *library.Library) (func(), error) {
		before := p.Aliases
		p.Aliases = append(append([]string(nil), before...), keys...)
		if err := lib.WriteSidecar(p); err != nil {
			p.Aliases = before
			return nil, fmt.Errorf("add aliases to %s: %w", p.CiteKey, err)
		}
		return func() {
			p.Aliases = before
			lib.WriteSidecar(p)
		}, nil
	}}
}

// markImported records the import file as the source of every field rec
// has.
func markImported(rec *metadata.Record, file string) {
	set := func(field string, ok bool) {
		if ok {
			rec.SetSource(field, metadata.SourceImport)
		}
	}
	set(metadata.FieldTitle, rec.Title != "")
	set(metadata.FieldAuthors, len(rec.Authors) > 0)
	set(metadata.FieldIssued, rec.Issued.Year != 0)
	set(metadata.FieldContainerTitle, rec.ContainerTitle != "")
	set(metadata.FieldVolume, rec.Volume != "")
	set(metadata.FieldIssue, rec.Issue != "")
	set(metadata.FieldPage, rec.Page != "")
	set(metadata.FieldPublisher, rec.Publisher != "")
	set(metadata.FieldDOI, rec.DOI != "")
	set(metadata.FieldArxivID, rec.ArxivID != "")
	set(metadata.FieldType, rec.Type != "")
	set(metadata.FieldURL, rec.URL != "")
	set(metadata.FieldAbstract, rec.Abstract != "")
	name := file
	if name == "" {
		name = "an import file"
	}
	rec.Warn(fmt.Sprintf("imported from %s and not checked against the metadata sources until it is refreshed", name))
	rec.Normalize()
}

// setRecord copies rec into the sidecar's metadata and its seed summary
// fields.
func setRecord(sc *library.Sidecar, rec *metadata.Record) {
	sc.Metadata = *rec
	sc.Title, sc.Authors, sc.Year = rec.Title, rec.AuthorDisplay(), rec.Year()
	sc.ArxivID, sc.DOI, sc.Container = rec.ArxivID, rec.DOI, rec.ContainerTitle
	sc.Sources, sc.Reconciled, sc.Warnings = rec.Sources, rec.Reconciled, rec.Warnings
}

// findWork returns the paper that is the same work as rec, or nil.
func findWork(papers []*library.Paper, rec *metadata.Record) *library.Paper {
	for _, p := range papers {
		if sameImportedWork(&p.Metadata, rec) {
			return p
		}
	}
	return nil
}

// sameImportedWork reports whether a and b describe the same work: the
// same DOI (any of each record's DOIs), the same arXiv id, or, when
// neither has an identifier the other could compare, a near-exact title
// (the same words after folding case, diacritics and punctuation: "… number
// 1" and "… number 0" differ) and the same year and first author (when
// both have one).
func sameImportedWork(a, b *metadata.Record) bool {
	dois := func(r *metadata.Record) []string {
		var out []string
		for _, d := range []string{r.DOI, r.DOIPreprint, r.DOIPublished} {
			if d != "" {
				out = append(out, identifier.NormalizeDOI(d))
			}
		}
		return out
	}
	da, db := dois(a), dois(b)
	for _, x := range da {
		for _, y := range db {
			if x == y {
				return true
			}
		}
	}
	if a.ArxivID != "" && b.ArxivID != "" {
		return a.ArxivID == b.ArxivID
	}
	if len(da) > 0 && len(db) > 0 {
		return false
	}
	if len(a.Authors) > 0 && len(b.Authors) > 0 && reconcile.FamilyKey(a.Authors[0]) != reconcile.FamilyKey(b.Authors[0]) {
		return false
	}
	return a.Title != "" && b.Title != "" && a.Year() == b.Year() && reconcile.SameTitleWords(a.Title, b.Title)
}

// attachTo gives the captured PDF to the metadata-only entry key, keeping
// its pinned cite key and stamp. The metadata becomes the sources' record
// when the sources identified the work (differences from the imported
// entry become warnings); otherwise the imported record stays. The caller
// holds the library lock.
func (c *run) attachTo(key string, rec *metadata.Record, sum string) (*library.Paper, error) {
	p, err := c.lib.Find(key)
	if err != nil {
		return nil, err
	}
	if p.HasPDF() {
		return nil, fmt.Errorf("%w: %s has a PDF already", library.ErrKeyInUse, key)
	}
	c.o.Log("attaching the PDF to the imported entry %s", p.CiteKey)
	sc := &p.Sidecar
	imported := sc.Imported
	if imported == nil {
		cp := sc.Metadata
		imported = &cp
	}
	if fromSources(rec) {
		for _, w := range importDifferences(imported, rec) {
			rec.Warn(w)
		}
		setRecord(sc, rec)
		sc.Published, sc.Preprint = c.published, c.preprint
	} else {
		kept := sc.Metadata
		for _, w := range rec.Warnings {
			kept.Warn(w)
		}
		setRecord(sc, &kept)
	}
	sc.Consulted = c.consulted
	sc.Imported = imported
	sc.PDFSHA256 = sum
	sc.Source = c.source()
	if err := library.WriteFileAtomic(p.PDFPath, c.data, 0o644); err != nil {
		return nil, fmt.Errorf("save PDF: %w", err)
	}
	if err := c.lib.WriteSidecar(p); err != nil {
		os.Remove(p.PDFPath)
		return nil, fmt.Errorf("save metadata: %w", err)
	}
	return p, nil
}

// fromSources reports whether rec came from a bibliographic metadata
// source (not only from the PDF's own metadata or the user).
func fromSources(rec *metadata.Record) bool {
	for _, s := range rec.Sources {
		switch s {
		case metadata.SourceArxiv, metadata.SourceCrossref, metadata.SourceOpenAlex, metadata.SourceDataCite:
			return true
		}
	}
	return false
}

// importDifferences describes where the sources disagree with an imported
// entry on what identifies the work: title, first author, year, DOI.
func importDifferences(imported, rec *metadata.Record) []string {
	var out []string
	if imported.Title != "" && rec.Title != "" && reconcile.TitleSimilarity(imported.Title, rec.Title) < 0.95 {
		out = append(out, fmt.Sprintf("the imported entry's title %q differs from the sources' %q", imported.Title, rec.Title))
	}
	if len(imported.Authors) > 0 && len(rec.Authors) > 0 &&
		reconcile.FamilyKey(imported.Authors[0]) != reconcile.FamilyKey(rec.Authors[0]) {
		out = append(out, fmt.Sprintf("the imported entry's first author %q differs from the sources' %q", imported.Authors[0].Display(), rec.Authors[0].Display()))
	}
	if imported.Year() != 0 && rec.Year() != 0 && imported.Year() != rec.Year() {
		out = append(out, fmt.Sprintf("the imported entry's year %d differs from the sources' %d", imported.Year(), rec.Year()))
	}
	if imported.DOI != "" && rec.DOI != "" && identifier.NormalizeDOI(imported.DOI) != identifier.NormalizeDOI(rec.DOI) &&
		identifier.NormalizeDOI(imported.DOI) != identifier.NormalizeDOI(rec.DOIPublished) &&
		identifier.NormalizeDOI(imported.DOI) != identifier.NormalizeDOI(rec.DOIPreprint) {
		out = append(out, fmt.Sprintf("the imported entry's DOI %s differs from the sources' %s", imported.DOI, rec.DOI))
	}
	return out
}

// Import file formats.
const (
	FormatCSLJSON = "csl-json"
	FormatBibTeX  = "bibtex" // BibTeX or BibLaTeX
)

// ParseImport reads an import file: CSL-JSON (an array of items, or one
// item) when name ends in .json or the content starts with "[" or "{",
// else BibTeX / BibLaTeX. It returns the entries with their lines and the
// format read. Any malformed part fails the whole file; the error gives
// the line and the reason.
func ParseImport(name string, data []byte) ([]ImportEntry, string, error) {
	trimmed := strings.TrimLeft(string(data), " \t\r\n\ufeff")
	ext := strings.ToLower(filepath.Ext(name))
	if ext == ".json" || strings.HasPrefix(trimmed, "[") || strings.HasPrefix(trimmed, "{") {
		items, lines, err := csl.DecodeLines(data)
		if err != nil {
			return nil, FormatCSLJSON, fmt.Errorf("%s: %w", name, err)
		}
		out := make([]ImportEntry, len(items))
		for i := range items {
			out[i] = ImportEntry{Item: items[i], Line: lines[i]}
		}
		return out, FormatCSLJSON, nil
	}
	entries, err := bibtex.Parse(data)
	if err != nil {
		return nil, FormatBibTeX, fmt.Errorf("%s: %w", name, err)
	}
	entries, _ = bibtex.Inherit(entries)
	out := make([]ImportEntry, 0, len(entries))
	for _, e := range entries {
		it, warnings := e.Item()
		out = append(out, ImportEntry{Item: it, Line: e.Line, Warnings: warnings})
	}
	return out, FormatBibTeX, nil
}
