package index

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/search"
)

// MaxReadChars bounds the text one Read returns: 60,000 characters (about
// 15,000 words). A page or section that is longer is cut after the chunk
// that reaches the bound (ReadResult.Truncated, ReadResult.Next).
const MaxReadChars = 60000

// ReadQuery names what to read of one paper: one chunk, one page or one
// section. Exactly one of ChunkID, Page, PageLabel and Section is set.
type ReadQuery struct {
	Key     string // cite key or alias
	ChunkID string // one chunk
	Page    int    // every chunk of this PDF page (1-based)
	// PageLabel: every chunk of the page with this printed label (the
	// PDF's page label, else the number its running head or foot prints:
	// PrintedPages).
	PageLabel string
	// Section: every chunk of the first section whose title (or a title
	// on its path) contains this, case-insensitively, and of its
	// subsections.
	Section string
	// Furniture includes running heads, page numbers and margin notes in
	// a page or section (a chunk asked for by id is always given).
	Furniture bool
	// Whole reads every chunk of the paper (instead of one of the above).
	Whole bool
	// MaxChars bounds the text returned (0: MaxReadChars).
	MaxChars int
}

// ChunkRef names a chunk: a neighbour of what was read.
type ChunkRef struct {
	ChunkID   string `json:"chunk_id"`
	Type      string `json:"type"`
	Page      int    `json:"page"`
	PageLabel string `json:"page_label,omitempty"`
	Section   string `json:"section"`
	// StartMS is where a talk's chunk starts in its recording; nil for a
	// paper's chunk.
	StartMS *int64 `json:"start_ms,omitempty"`
}

// ReadResult is what a Read returns: the chunks in note order with their
// full verbatim text and provenance, the chunks before and after them
// (furniture aside), and the chunks of the selection that were edited by
// hand in the note (not served).
type ReadResult struct {
	CiteKey  string
	Title    string
	NotePath string
	Chunks   []Chunk
	Previous *ChunkRef
	Next     *ChunkRef
	Withheld []EditedChunk
	// Truncated is true when the selection went over MaxReadChars: Next
	// is then the first chunk left out.
	Truncated bool
	// Printed is the page number printed on each PDF page, where the
	// page's running heads or feet print one (PrintedPages).
	Printed map[int]string
	// Known tests whether the paper writes a word unbroken (WordsOf its
	// chunks): for resolving line-end hyphens in a reading.
	Known func(string) bool
	// Images maps the chunk id of each figure chunk read to the absolute
	// path of its crop (a PNG under the library home) as its note links
	// it, from the index (stored when the note was indexed); a figure
	// whose note links none is absent.
	Images map[string]string
}

// ErrNothingToRead is wrapped by Read's error when the chunk, page or
// section names nothing in the paper; the error says what the paper has.
var ErrNothingToRead = errors.New("nothing to read")

// readError is a message that wraps ErrNothingToRead without repeating
// it.
type readError struct{ msg string }

func (e *readError) Error() string { return e.msg }
func (e *readError) Unwrap() error { return ErrNothingToRead }

func nothing(format string, args ...any) error { return &readError{fmt.Sprintf(format, args...)} }

// Read returns the chunks q names. Errors: ErrUnknownPaper, *EditedError
// for a chunk edited by hand, ErrNothingToRead (wrapped, saying what there
// is) for an unknown chunk id or a page or section without chunks, and a
// plain error when q names no single thing.
func (ix *Index) Read(ctx context.Context, q ReadQuery) (_ *ReadResult, err error) {
	defer ix.classifyErr(&err)
	set := 0
	for _, b := range []bool{q.ChunkID != "", q.Page != 0, q.PageLabel != "", q.Section != "", q.Whole} {
		if b {
			set++
		}
	}
	if set != 1 {
		return nil, errors.New("name one thing to read: a chunk_id, a page, a page_label or a section")
	}
	all, err := ix.PaperChunks(ctx, q.Key)
	if err != nil {
		return nil, err
	}
	res := &ReadResult{Printed: PrintedPages(all), Known: WordsOf(all)}
	if len(all) > 0 {
		res.CiteKey, res.Title, res.NotePath = all[0].CiteKey, all[0].Title, all[0].NotePath
	}
	var sel []int // indexes in all
	switch {
	case q.ChunkID != "":
		for i, c := range all {
			if c.ChunkID == q.ChunkID {
				if c.Edited {
					_, err := ix.ChunkByID(ctx, q.Key, q.ChunkID)
					return nil, err // *EditedError
				}
				sel = []int{i}
			}
		}
		if sel == nil {
			return nil, nothing("%s has no chunk %s: chunk ids look like p2s1c4 (page 2, section 1, chunk 4), as search results give them", q.Key, q.ChunkID)
		}
	default:
		first, last := 0, 0
		labels := map[string]bool{}
		sectionAt := -1
		for i, c := range all {
			if c.Page > last {
				last = c.Page
			}
			if first == 0 || c.Page < first {
				first = c.Page
			}
			labels[printedOf(c, res.Printed)] = true
			switch {
			case q.Whole,
				q.Page != 0 && c.Page == q.Page,
				q.PageLabel != "" && strings.EqualFold(printedOf(c, res.Printed), q.PageLabel):
				sel = append(sel, i)
			case q.Section != "":
				if sectionAt < 0 && inSection(c, q.Section) {
					sectionAt = i
				}
				if sectionAt >= 0 && inSection(c, sectionTitle(all[sectionAt], q.Section)) {
					sel = append(sel, i)
				}
			}
		}
		if len(sel) == 0 {
			switch {
			case q.Whole:
				return nil, nothing("%s has no chunks", res.CiteKey)
			case q.Page != 0:
				return nil, nothing("%s has no page %d: its pages are %d to %d", res.CiteKey, q.Page, first, last)
			case q.PageLabel != "":
				if len(labels) == 1 && labels[""] {
					return nil, nothing("%s has no page labelled %q: its PDF declares no page labels and prints no page numbers; read by PDF page (%d to %d)", res.CiteKey, q.PageLabel, first, last)
				}
				return nil, nothing("%s has no page labelled %q", res.CiteKey, q.PageLabel)
			default:
				return nil, nothing("%s has no section whose title contains %q", res.CiteKey, q.Section)
			}
		}
	}
	chars, limit := 0, q.MaxChars
	if limit <= 0 {
		limit = MaxReadChars
	}
	for k, i := range sel {
		c := all[i]
		if c.Edited {
			e, _, err := ix.editedChunk(ctx, c.CiteKey, c.ChunkID)
			if err != nil {
				return nil, err
			}
			res.Withheld = append(res.Withheld, e)
			continue
		}
		if q.ChunkID == "" && !q.Furniture && IsFurniture(c.Type) {
			continue
		}
		if chars > 0 && chars+utf8.RuneCountInString(c.Text) > limit {
			res.Truncated = true
			r := ref(c)
			res.Next = &r
			sel = sel[:k]
			break
		}
		chars += utf8.RuneCountInString(c.Text)
		res.Chunks = append(res.Chunks, c)
	}
	for _, c := range res.Chunks {
		if c.Type != chunk.TypeFigure {
			continue
		}
		if img := imagePath(ix.wikiDir, c.image); img != "" {
			if res.Images == nil {
				res.Images = map[string]string{}
			}
			res.Images[c.ChunkID] = img
		}
	}
	if len(sel) > 0 {
		for i := sel[0] - 1; i >= 0 && res.Previous == nil; i-- {
			if !all[i].Edited && !IsFurniture(all[i].Type) {
				r := ref(all[i])
				res.Previous = &r
			}
		}
		for i := sel[len(sel)-1] + 1; i < len(all) && res.Next == nil; i++ {
			if !all[i].Edited && !IsFurniture(all[i].Type) {
				r := ref(all[i])
				res.Next = &r
			}
		}
	}
	return res, nil
}

// printedOf is the page to cite for c: its page label, else the number
// printed in its page's running heads or feet (printed, from PrintedPages).
func printedOf(c Chunk, printed map[int]string) string {
	if c.PageLabel != "" {
		return c.PageLabel
	}
	return printed[c.Page]
}

func ref(c Chunk) ChunkRef {
	ref := ChunkRef{ChunkID: c.ChunkID, Type: c.Type, Page: c.Page, PageLabel: c.PageLabel, Section: c.Section}
	if c.Media != nil {
		start := c.Media.StartMS
		ref.StartMS = &start
	}
	return ref
}

// inSection reports whether c's section, or a title on its path, contains
// s (case-insensitive).
func inSection(c Chunk, s string) bool {
	s = strings.ToLower(s)
	if strings.Contains(strings.ToLower(c.Section), s) {
		return true
	}
	for _, t := range c.SectionPath {
		if strings.Contains(strings.ToLower(t), s) {
			return true
		}
	}
	return false
}

// sectionTitle is the title on c's path (or its section) that contains s:
// the section a Read by section reads, with its subsections.
func sectionTitle(c Chunk, s string) string {
	ls := strings.ToLower(s)
	for _, t := range c.SectionPath {
		if strings.Contains(strings.ToLower(t), ls) {
			return t
		}
	}
	return c.Section
}

// FilterError is a search filter that cannot match by its form: an
// unknown chunk type, a year range that ends before it starts.
type FilterError struct {
	Filter, Value, Reason string
}

func (e *FilterError) Error() string {
	return e.Filter + " " + e.Value + " " + e.Reason
}

// UnknownKeyError is a search or read for a key no compiled note has. It
// wraps ErrUnknownPaper.
type UnknownKeyError struct{ Key string }

func (e *UnknownKeyError) Error() string {
	return fmt.Sprintf("no compiled paper has the cite key '%s'", e.Key)
}

func (e *UnknownKeyError) Unwrap() error { return ErrUnknownPaper }

// checkQuery returns an error for filters that name nothing: an unknown
// type (chunk.Types), year_from after year_to, a key no compiled note has
// (*UnknownKeyError).
func (ix *Index) checkQuery(ctx context.Context, q search.Query) error {
	if q.Type != "" && !chunk.IsType(q.Type) {
		return &FilterError{Filter: "type", Value: strconv.Quote(q.Type), Reason: "is no chunk type: use one of " + strings.Join(chunk.Types, ", ")}
	}
	if q.YearFrom != 0 && q.YearTo != 0 && q.YearFrom > q.YearTo {
		return &FilterError{Filter: "year_from", Value: strconv.Itoa(q.YearFrom), Reason: fmt.Sprintf("is after year_to %d: nothing can match", q.YearTo)}
	}
	if q.Key != "" {
		if _, ok := ix.ResolveKey(ctx, q.Key); !ok {
			return &UnknownKeyError{Key: q.Key}
		}
	}
	return nil
}

// printedNumber is a page number alone in a running head or foot: "4970",
// "xii", "- 3 -", "Page 3", "3 of 15".
var printedNumber = regexp.MustCompile(`(?i)^(?:page\s+)?[-–—]?\s*([0-9]{1,5}|[ivxlcdm]{1,8})\s*[-–—]?(?:\s+of\s+[0-9]+)?$`)

// PrintedPages returns, per PDF page, the page number printed on it: the
// one number alone in that page's running heads or feet (page_header,
// page_footer chunks), lower case, when the page has exactly one such
// number and no other page has it. A PDF without page labels often prints
// its journal's page numbers this way (4969, 4970, ...).
func PrintedPages(chunks []Chunk) map[int]string {
	found := map[int]map[string]bool{}
	for _, ch := range chunks {
		if ch.Type != "page_header" && ch.Type != "page_footer" {
			continue
		}
		m := printedNumber.FindStringSubmatch(strings.Join(strings.Fields(ch.Text), " "))
		if m == nil {
			continue
		}
		if found[ch.Page] == nil {
			found[ch.Page] = map[string]bool{}
		}
		found[ch.Page][strings.ToLower(m[1])] = true
	}
	// A number on several pages (a year in every running head) numbers
	// none of them.
	pagesOf := map[string]int{}
	for _, nums := range found {
		for n := range nums {
			pagesOf[n]++
		}
	}
	out := map[int]string{}
	for page, nums := range found {
		if len(nums) == 1 {
			for n := range nums {
				if pagesOf[n] == 1 {
					out[page] = n
				}
			}
		}
	}
	return out
}

// WordsOf returns a test of whether the chunks write a word (lower case,
// hyphens kept) somewhere it is not broken at a line end: the evidence
// check.Resolve weighs to resolve a line-end hyphen.
func WordsOf(chunks []Chunk) func(string) bool {
	set := map[string]bool{}
	for _, ch := range chunks {
		for _, line := range strings.Split(ch.Text, "\n") {
			for _, w := range strings.FieldsFunc(strings.ToLower(line), func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }) {
				set[strings.Trim(w, "-")] = true
			}
		}
	}
	return func(w string) bool { return set[w] }
}
