// Package check verifies what a draft claims about the library: that every
// quotation is really in the source it cites, on the page it names, and
// that every cited key exists. It is the logic of `crossmem check` and of
// the MCP tools crossmem_verify_quote and crossmem_check_draft.
//
// A quotation gets one status:
//
//   - verified: it is the source's text exactly, white space aside (any run
//     of spaces and line breaks counts as one space) and with each line-end
//     hyphen read either way ("limi-\ntations" as "limitations" or
//     "limi-tations"), within one chunk or across adjacent chunks of a
//     cited paper;
//   - repaired: it matches a cited paper only after quote normalization
//     (quote.Normalize: ligatures, line-end hyphenation, typographic quotes
//     and dashes, case); the source's own words are given as pasteable
//     text (Source.Text: white space collapsed, line-end hyphens resolved
//     as docs/verification.md says), with the chunk, page, bbox and
//     text_sha256 it comes from;
//   - wrong-page: it is in the cited paper, but the citation's page
//     locator (\cite[p.~11]{key}, [@key, p. 11], (Author, Year, p. 11))
//     names another page than the printed page it is on, which is given;
//   - misattributed: it is not in the cited paper (or cites nothing, or
//     cites a key the library does not have) but is in another paper of
//     the library, which is named;
//   - unverified: it is in no paper of the library; the three nearest
//     passages (chunk, page, similarity) are given. Text edited by hand
//     in a note is never a source: a quotation that matches only such
//     text is unverified, and the edited chunks are named (Edited);
//   - too-short: it has fewer than MinWords words and is not checked (a
//     word or two occurs in almost any paper).
//
// An elided quotation ("...", "…", "[…]", "[...]") matches when its pieces
// appear in order in one paper. Quotations that are unverified,
// misattributed or on the wrong page, and unknown cite keys, make a draft
// fail the check; metadata warnings fail it only when asked (Strict).
package check

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/cite"
	"github.com/crossmem/crossmem/internal/deeplink"
	"github.com/crossmem/crossmem/internal/index"
	"github.com/crossmem/crossmem/internal/quote"
	"github.com/crossmem/crossmem/internal/search"
)

// Quotation statuses.
const (
	Verified      = "verified"
	Repaired      = "repaired"
	WrongPage     = "wrong-page"
	Misattributed = "misattributed"
	Unverified    = "unverified"
	TooShort      = "too-short"
)

// Citation statuses.
const (
	CiteOK              = "ok"
	CiteUnknown         = "unknown"
	CiteMetadataWarning = "metadata-warning"
)

// MinWords is the fewest words a quotation needs to be checked: shorter
// ones ("the", "deep learning") occur in almost any paper, so a match
// would prove nothing. A CJK character counts as a word.
const MinWords = 3

// Checker checks quotations against the search index and cite keys
// against the library.
type Checker struct {
	Index *index.Index
	Citer *cite.Citer // for cite key lookups and suggestions
	// ViewerBase is the library viewer's base URL ("http://127.0.0.1:7600"):
	// when set, every source chunk and nearest passage carries its
	// ViewerURL.
	ViewerBase string
}

// SourceChunk is a chunk a quotation was found in, with its provenance.
type SourceChunk struct {
	ChunkID string `json:"chunk_id"`
	Page    int    `json:"page"`
	// PageLabel is the printed page label ("46"); "" when the PDF declares
	// none.
	PageLabel string     `json:"page_label,omitempty"`
	BBox      [4]float64 `json:"bbox"` // [x0, y0, x1, y1] in PDF points, origin bottom-left
	SHA256    string     `json:"text_sha256"`
	// ViewerURL opens the chunk's place in the PDF in the library viewer
	// (Checker.ViewerBase); "" without one.
	ViewerURL string `json:"viewer_url,omitempty"`
	// Media is where a talk's chunk is in its recording (its time, the
	// link there, the kind of transcript); nil for a paper's chunk.
	Media *search.Media `json:"media,omitempty"`
	// Cell is where in a table chunk the quotation lies; nil for other
	// chunks.
	Cell *TableCell `json:"cell,omitempty"`
}

// TableCell is where a quotation lies in a table chunk: 1-based row and
// column of the table's cells (chunk.Cells of its canonical text; row 1
// is the table's first row, usually its head) where it starts, and where
// it ends when it runs over more than one cell (a quoted row).
type TableCell struct {
	Row       int `json:"row"`
	Column    int `json:"column"`
	EndRow    int `json:"end_row,omitempty"`
	EndColumn int `json:"end_column,omitempty"`
	// Head is the text of the column's cell in row 1 (its head, white
	// space collapsed) when the quotation is one cell below it; "".
	Head string `json:"head,omitempty"`
}

// tableCell returns the cell of a table chunk's canonical text at byte
// offsets [s, e).
func tableCell(text string, s, e int) *TableCell {
	pos := func(off int) (int, int) {
		before := text[:off]
		row := strings.Count(before, "\n")
		line := before[strings.LastIndexByte(before, '\n')+1:]
		return row + 1, strings.Count(line, chunk.CellSeparator) + 1
	}
	c := &TableCell{}
	c.Row, c.Column = pos(s)
	if r, k := pos(max(s, e-1)); r != c.Row || k != c.Column {
		c.EndRow, c.EndColumn = r, k
	} else if c.Row > 1 {
		if head := chunk.Cells(text)[0]; c.Column <= len(head) {
			c.Head = collapse(head[c.Column-1])
		}
	}
	return c
}

// Source is where a quotation was found.
type Source struct {
	CiteKey string        `json:"cite_key"`
	Title   string        `json:"title"`
	Note    string        `json:"note"`   // the wiki note's path
	Chunks  []SourceChunk `json:"chunks"` // one, or adjacent chunks for a quotation that spans them
	// Text is the source's words for the quoted span, to paste: white
	// space collapsed and each line-end hyphen resolved (docs/
	// verification.md: as the quotation writes that word, else joined
	// when the paper writes the word joined elsewhere or it goes on in
	// lower case), pieces of an elided quotation joined by " […] ". For a
	// verified quotation it is the quotation itself.
	Text string `json:"text"`
	// Verbatim is the span exactly as the text layer has it, line breaks
	// as spaces ("limi- tations"): what Text was made from.
	Verbatim string `json:"verbatim"`
	// ASR is true when the text comes from a talk's speech recognition
	// transcript (ASRModel names the model): it matches what the model
	// heard, which is not the speaker's verbatim words.
	ASR      bool   `json:"asr,omitempty"`
	ASRModel string `json:"asr_model,omitempty"`
}

// Passage is a passage near an unverified quotation.
type Passage struct {
	CiteKey string `json:"cite_key"`
	ChunkID string `json:"chunk_id"`
	Page    int    `json:"page"`
	// PageLabel is the printed page label; "" when the PDF declares none.
	PageLabel string `json:"page_label,omitempty"`
	// Similarity is the share of the quotation's words that appear in the
	// chunk in the same order (0 to 1).
	Similarity float64 `json:"similarity"`
	Text       string  `json:"text"` // the chunk text, white space collapsed
	// ViewerURL opens the passage in the library viewer; "" without one.
	ViewerURL string `json:"viewer_url,omitempty"`
	// Media is where a talk's passage is in its recording (its time, the
	// link that opens it there); nil for a paper's. Page is 0 then.
	Media *search.Media `json:"media,omitempty"`
}

// Provenance is a `% crossmem: <key> <chunk_id> sha256=<...>` provenance
// comment for a quotation: the key as written, the chunk and a prefix of
// its text_sha256.
type Provenance struct {
	Key, ChunkID, SHA256 string
}

// AuthorYear is an author-year reference a quotation that cites no key is
// attributed to (draft.AuthorYear): the first author's name as written and
// the year.
type AuthorYear struct {
	Author string `json:"author"`
	Year   string `json:"year"`
	// Names, for a narrative reference whose name is only a capitalised
	// word before the quotation (As Knuth writes, "…" (1974)), are the
	// capitalised words before it in its sentence, nearest first, Author
	// the first of them. Such a word may be no name at all ("The authors
	// write"), so only the year is held against the paper the quotation
	// is found in; a name among them that is its first author's is
	// reported. Empty when Author is certainly the author's name.
	Names []string `json:"names,omitempty"`
}

// Request is one quotation to check.
type Request struct {
	// Quote is the quotation (outer quote marks are ignored).
	Quote string
	// Keys are the cite keys or aliases it is attributed to (none is
	// allowed).
	Keys []string
	// Provenance is its provenance comment, if any.
	Provenance *Provenance
	// Locator is the page locator of its citation as written ("p.~11");
	// "" when none. Only page locators (draft.Pages) are checked.
	Locator string
	// AuthorYear, for a quotation without keys, is the author-year
	// reference it is attributed to.
	AuthorYear *AuthorYear
	// Anywhere asks where an unattributed quotation is (crossmem_verify_
	// quote without a key): found in a paper it is verified or repaired
	// there, rather than misattributed.
	Anywhere bool
}

// PageCheck is the check of a page locator against where the quotation
// is.
type PageCheck struct {
	// Locator is the locator as written; Pages the pages it names ("11",
	// "11-12").
	Locator string `json:"locator"`
	Pages   string `json:"pages"`
	// Found is the page the quotation is on as it should be cited (the
	// pages of its chunks, joined by "-" when it runs over two): the
	// printed page label, or the number printed on the page (header or
	// footer) when the PDF declares no labels, or the PDF page number
	// when the page prints none. FoundFrom says which: "page_label",
	// "printed" or "pdf_page". PDFPage is the PDF page number.
	Found     string `json:"found"`
	FoundFrom string `json:"found_from"`
	PDFPage   int    `json:"pdf_page"`
	OK        bool   `json:"ok"`
}

// QuoteResult is the verdict on one quotation.
type QuoteResult struct {
	Status    string   `json:"status"`
	Quote     string   `json:"quote"`
	Line      int      `json:"line,omitempty"`
	EndLine   int      `json:"end_line,omitempty"`
	Kind      string   `json:"kind,omitempty"`
	CitedKeys []string `json:"cited_keys"`
	// AuthorYear is the author-year reference an unkeyed quotation is
	// attributed to, when it has one.
	AuthorYear *AuthorYear `json:"author_year,omitempty"`
	// Match is how the text matched when the status is about something
	// else (wrong-page): verified or repaired.
	Match string `json:"match,omitempty"`
	// Source is where it was found: in the cited paper (verified,
	// repaired, wrong-page) or in another one (misattributed), or where
	// an unattributed quotation is (Request.Anywhere).
	Source *Source `json:"source,omitempty"`
	// Page is the check of the citation's page locator, when it has one.
	Page *PageCheck `json:"page,omitempty"`
	// Nearest are the closest passages of an unverified quotation.
	Nearest []Passage `json:"nearest,omitempty"`
	// Edited are chunks edited by hand in their notes whose edited text
	// the quotation matches: never a source (see index.EditedChunk).
	Edited []index.EditedChunk `json:"edited,omitempty"`
	// Notes explain details: a cited key with no compiled note, a
	// provenance comment naming another chunk or an older text.
	Notes []string `json:"notes,omitempty"`
}

var elision = regexp.MustCompile(`\s*(?:\[\s*(?:\.\s*){3}\]|\[\s*…\s*\]|…|(?:\.\s*){3})\s*`)

// pieces splits an elided quotation at its elision marks.
func pieces(q string) []string {
	var out []string
	for _, p := range elision.Split(q, -1) {
		if p = strings.TrimSpace(p); p != "" && quote.Key(p) != "" {
			out = append(out, p)
		}
	}
	return out
}

// words counts the words of the pieces: runs of letters or digits, each
// CJK character one.
func words(ps []string) int {
	n := 0
	for _, p := range ps {
		in := false
		for _, r := range quote.Key(p) {
			switch {
			case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul):
				n++
				in = false
			case unicode.IsLetter(r) || unicode.IsDigit(r):
				if !in {
					n++
				}
				in = true
			default:
				in = false
			}
		}
	}
	return n
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// Quote checks the quotation q attributed to keys with an optional
// provenance comment: Check with those fields set.
func (c *Checker) Quote(ctx context.Context, q string, keys []string, prov *Provenance) (*QuoteResult, error) {
	return c.Check(ctx, Request{Quote: q, Keys: keys, Provenance: prov})
}

// Check checks one quotation. A quotation that is not found is a verdict
// (Unverified, with the nearest passages), not an error; errors are the
// index's. With a ViewerBase, the source chunks and nearest passages carry
// their viewer links.
func (c *Checker) Check(ctx context.Context, r Request) (*QuoteResult, error) {
	res, err := c.check(ctx, r)
	c.addViewerURLs(res)
	return res, err
}

// addViewerURLs sets the viewer links of res's source chunks and nearest
// passages when the Checker has a viewer.
func (c *Checker) addViewerURLs(res *QuoteResult) {
	if c.ViewerBase == "" || res == nil {
		return
	}
	if s := res.Source; s != nil {
		for i := range s.Chunks {
			ch := &s.Chunks[i]
			ch.ViewerURL = deeplink.Link{Key: s.CiteKey, Page: ch.Page, BBox: ch.BBox, HasBox: true, Chunk: ch.ChunkID}.Viewer(c.ViewerBase)
		}
	}
	for i := range res.Nearest {
		p := &res.Nearest[i]
		p.ViewerURL = deeplink.Link{Key: p.CiteKey, Chunk: p.ChunkID}.Viewer(c.ViewerBase)
	}
}

func (c *Checker) check(ctx context.Context, r Request) (*QuoteResult, error) {
	q := quote.TrimMarks(r.Quote)
	keys := append([]string{}, r.Keys...)
	res := &QuoteResult{Quote: q, CitedKeys: keys, AuthorYear: r.AuthorYear}
	ps := pieces(q)
	if len(ps) == 0 {
		res.Status = Unverified
		res.Notes = append(res.Notes, "the quotation has no words")
		return res, nil
	}
	if n := words(ps); n < MinWords {
		res.Status = TooShort
		res.Notes = append(res.Notes, fmt.Sprintf("not checked: a quotation of %d word(s) is under the minimum of %d (so short a phrase occurs in almost any paper)", n, MinWords))
		return res, nil
	}
	prov := r.Provenance
	if prov != nil && prov.Key != "" && !contains(keys, prov.Key) {
		keys = append(keys, prov.Key)
		res.CitedKeys = keys
	}
	for _, k := range keys {
		chunks, err := c.Index.PaperChunks(ctx, k)
		if errors.Is(err, index.ErrUnknownPaper) {
			if c.Citer != nil {
				if _, lerr := c.Citer.Lookup(k); lerr == nil {
					res.Notes = append(res.Notes, fmt.Sprintf("%s has no compiled note (no PDF, or not compiled yet): its text cannot be checked", k))
					continue
				}
			}
			res.Notes = append(res.Notes, fmt.Sprintf("%s is not in the library", k))
			continue
		}
		if err != nil {
			return nil, err
		}
		if status, src := match(chunks, ps, q); status != "" {
			res.Status, res.Source = status, src
			res.Notes = append(res.Notes, c.provenanceNotes(ctx, prov, src)...)
			c.checkPage(res, r.Locator, chunks)
			res.Notes = append(res.Notes, asrNotes(src)...)
			return res, nil
		}
	}
	// Elsewhere in the library?
	src, status, chunks, err := c.elsewhere(ctx, ps, q, keys)
	if err != nil {
		return nil, err
	}
	if src != nil {
		res.Notes = append(res.Notes, asrNotes(src)...)
		switch {
		case len(keys) == 0 && r.AuthorYear != nil && len(r.AuthorYear.Names) > 0:
			ay := *r.AuthorYear
			authors, year, ok := c.Index.PaperAuthors(ctx, src.CiteKey)
			if !ok || fmt.Sprint(year) != ay.Year {
				res.Status, res.Source = Misattributed, src
				res.Notes = append(res.Notes, fmt.Sprintf("the quotation is attributed to a work of %s, but it is from %s", ay.Year, src.CiteKey))
				break
			}
			res.Status, res.Source = status, src
			named := ""
			for _, n := range ay.Names {
				if firstAuthorIs(authors, n) {
					named = n
					break
				}
			}
			if named != "" {
				res.Notes = append(res.Notes, fmt.Sprintf("attributed by (%s, %s) to %s", named, ay.Year, src.CiteKey))
			} else {
				res.Notes = append(res.Notes, fmt.Sprintf("attributed by its year (%s) to %s; no name before the quotation in its sentence is its first author's", ay.Year, src.CiteKey))
			}
			c.checkPage(res, r.Locator, chunks)
			return res, nil
		case len(keys) == 0 && r.AuthorYear != nil:
			if c.authorYearOf(ctx, src.CiteKey, *r.AuthorYear) {
				res.Status, res.Source = status, src
				res.Notes = append(res.Notes, fmt.Sprintf("attributed by (%s, %s) to %s", r.AuthorYear.Author, r.AuthorYear.Year, src.CiteKey))
				c.checkPage(res, r.Locator, chunks)
				return res, nil
			}
			res.Status, res.Source = Misattributed, src
			res.Notes = append(res.Notes, fmt.Sprintf("the quotation is attributed to (%s, %s), but it is from %s", r.AuthorYear.Author, r.AuthorYear.Year, src.CiteKey))
		case len(keys) == 0 && r.Anywhere:
			res.Status, res.Source = status, src
			res.Notes = append(res.Notes, fmt.Sprintf("no cite key was given: the quotation is from %s", src.CiteKey))
			c.checkPage(res, r.Locator, chunks)
		case len(keys) == 0:
			res.Status, res.Source = Misattributed, src
			res.Notes = append(res.Notes, fmt.Sprintf("the quotation cites nothing; it is from %s", src.CiteKey))
		default:
			res.Status, res.Source = Misattributed, src
			res.Notes = append(res.Notes, fmt.Sprintf("the quotation is not in %s but in %s", strings.Join(keys, ", "), src.CiteKey))
		}
		return res, nil
	}
	res.Status = Unverified
	if res.Edited, err = c.Index.EditedMatching(ctx, ps, 5); err != nil {
		return nil, err
	}
	for _, e := range res.Edited {
		res.Notes = append(res.Notes, fmt.Sprintf("the quotation matches the text of %s %s (%s) only as edited by hand in the note: that chunk no longer matches its text_sha256 %s, and edited text is never a source",
			e.CiteKey, e.ChunkID, pageRef(e.Page, e.PageLabel), shortSHA(e.Recorded)))
	}
	if len(res.Edited) == 0 {
		for _, k := range keys {
			edited, err := c.Index.EditedChunks(ctx, k, 0)
			if err != nil {
				return nil, err
			}
			if len(edited) > 0 {
				ids := make([]string, len(edited))
				for i, e := range edited {
					ids[i] = e.ChunkID
				}
				res.Notes = append(res.Notes, fmt.Sprintf("the note of %s was edited by hand: %d chunk(s) (%s) no longer match their text_sha256 and were not checked against; the quotation may be in the text the edit replaced",
					k, len(ids), strings.Join(ids, ", ")))
			}
		}
	}
	res.Nearest, err = c.nearest(ctx, q, keys)
	return res, err
}

// asrNotes says that a quotation was found in a speech recognition
// transcript, which is not the speaker's verbatim words.
func asrNotes(src *Source) []string {
	if !src.ASR {
		return nil
	}
	model := src.ASRModel
	if model == "" {
		model = "a speech recognition model"
	}
	link := ""
	for _, ch := range src.Chunks {
		if ch.Media != nil && ch.Media.Link != "" {
			link = ch.Media.Link
			break
		}
	}
	note := fmt.Sprintf("%s's transcript is speech recognition (%s), not verbatim speech: the quotation matches what the model heard; check the words against the recording", src.CiteKey, model)
	if link != "" {
		note += " at " + link
	}
	return []string{note}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func shortSHA(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

// pageRef renders a page for a note: "p. 46" with a printed label, else
// "p.2".
func pageRef(page int, label string) string {
	if label != "" {
		return "p. " + label
	}
	return fmt.Sprintf("p.%d", page)
}

// authorYearOf reports whether the paper with cite key k has a first
// author whose name contains ay.Author as a word and the year ay.Year.
func (c *Checker) authorYearOf(ctx context.Context, k string, ay AuthorYear) bool {
	authors, year, ok := c.Index.PaperAuthors(ctx, k)
	return ok && fmt.Sprint(year) == ay.Year && firstAuthorIs(authors, ay.Author)
}

// firstAuthorIs reports whether the first of authors has name as a word
// of its name (compared by quote.Key).
func firstAuthorIs(authors []string, name string) bool {
	if len(authors) == 0 {
		return false
	}
	want := quote.Key(name)
	for _, w := range strings.FieldsFunc(quote.Key(authors[0]), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' }) {
		if w == want {
			return true
		}
	}
	return false
}

// provenanceNotes compares a provenance comment with where the quotation was
// found.
func (c *Checker) provenanceNotes(ctx context.Context, prov *Provenance, src *Source) []string {
	if prov == nil || prov.ChunkID == "" {
		return nil
	}
	var notes []string
	found := false
	for _, ch := range src.Chunks {
		found = found || ch.ChunkID == prov.ChunkID
	}
	if !found {
		ids := make([]string, len(src.Chunks))
		for i, ch := range src.Chunks {
			ids[i] = ch.ChunkID
		}
		notes = append(notes, fmt.Sprintf("the provenance comment names chunk %s, but the quotation is in %s", prov.ChunkID, strings.Join(ids, "+")))
	}
	sha := strings.Trim(prov.SHA256, ".… ")
	if sha != "" {
		ch, err := c.Index.ChunkByID(ctx, prov.Key, prov.ChunkID)
		var ee *index.EditedError
		switch {
		case errors.As(err, &ee):
			notes = append(notes, fmt.Sprintf("the provenance comment names %s %s, which was edited by hand in its note and is not served", prov.Key, prov.ChunkID))
		case err != nil:
			notes = append(notes, fmt.Sprintf("the provenance comment names %s %s, which the library does not have", prov.Key, prov.ChunkID))
		case !strings.HasPrefix(ch.SHA256, strings.ToLower(sha)):
			notes = append(notes, fmt.Sprintf("the provenance comment's sha256=%s is not the text_sha256 of %s %s (%s): the note changed since the quotation was taken", prov.SHA256, prov.Key, prov.ChunkID, ch.SHA256[:12]))
		}
	}
	return notes
}

// match looks for the pieces, in order, in one paper's chunks (joined in
// note order, so a piece may span adjacent chunks; never across a chunk
// edited by hand): first exactly (white space collapsed, line-end hyphens
// read either way), then normalized. q is the whole quotation, which
// decides how the source's line-end hyphens are resolved in the repaired
// text. It returns "" when they are not there.
func match(chunks []index.Chunk, ps []string, q string) (string, *Source) {
	if mode, src := matchIn(chunks, ps, q); src != nil {
		return mode, src
	}
	// A quotation may run across a page break that running heads and page
	// numbers interrupt: try again without the page furniture.
	var body []index.Chunk
	for _, ch := range chunks {
		if !index.IsFurniture(ch.Type) {
			body = append(body, ch)
		}
	}
	if len(body) == len(chunks) {
		return "", nil
	}
	return matchIn(body, ps, q)
}

func matchIn(chunks []index.Chunk, ps []string, q string) (string, *Source) {
	if len(chunks) == 0 {
		return "", nil
	}
	for _, mode := range []string{Verified, Repaired} {
		texts := make([]string, len(chunks))
		for i, ch := range chunks {
			if mode == Verified {
				texts[i] = reading(ch.Text)
			} else {
				texts[i] = ch.Norm
			}
		}
		joined, starts := joinOffsets(texts)
		from := 0
		var spans [][2]int // chunk index range of each piece
		ok := true
		for _, p := range ps {
			var s, e int
			if mode == Verified {
				s, e = readingIndex(joined, collapse(p), from)
			} else {
				needle := quote.Key(p)
				s = strings.Index(joined[from:], needle)
				if s >= 0 {
					s += from
					e = s + len(needle)
				}
			}
			if s < 0 {
				ok = false
				break
			}
			spans = append(spans, [2]int{chunkAt(starts, s), chunkAt(starts, max(s, e-1))})
			from = e
		}
		if ok {
			return mode, source(chunks, ps, spans, mode, q)
		}
	}
	return "", nil
}

// hyphenMark stands in reading for a line-end hyphen between letters.
const hyphenMark = '\x00'

// lineEndHyphen is a hyphen at the end of a line, between a letter and a
// letter at the start of the next line.
var lineEndHyphen = regexp.MustCompile(`(\pL)-[ \t]*\n[ \t]*(\pL)`)

// reading is text with white space collapsed and each line-end hyphen
// between letters replaced by hyphenMark, which readingIndex matches with
// a hyphen or with nothing.
func reading(text string) string {
	return collapse(lineEndHyphen.ReplaceAllString(text, "${1}\x00${2}"))
}

// readingIndex finds needle in hay (a reading) from byte offset from,
// hyphenMark matching "-" or nothing, and returns the span of hay it
// covers, or -1, -1.
func readingIndex(hay, needle string, from int) (int, int) {
	if needle == "" {
		return -1, -1
	}
	for i := from; i < len(hay); {
		k := strings.IndexByte(hay[i:], needle[0])
		if k < 0 {
			return -1, -1
		}
		i += k
		h, n := i, 0
		for h < len(hay) && n < len(needle) {
			switch {
			case hay[h] == hyphenMark:
				if needle[n] == '-' {
					n++
				}
				h++
			case hay[h] == needle[n]:
				h++
				n++
			default:
				h = -1
			}
			if h < 0 {
				break
			}
		}
		if h >= 0 && n == len(needle) {
			return i, h
		}
		i++
	}
	return -1, -1
}

// joinOffsets joins texts with single spaces and returns where each
// starts.
func joinOffsets(texts []string) (string, []int) {
	var b strings.Builder
	starts := make([]int, len(texts))
	for i, t := range texts {
		if i > 0 {
			b.WriteByte(' ')
		}
		starts[i] = b.Len()
		b.WriteString(t)
	}
	return b.String(), starts
}

// chunkAt returns the index of the text that byte offset off of the joined
// string falls in.
func chunkAt(starts []int, off int) int {
	return max(0, sort.SearchInts(starts, off+1)-1)
}

// source describes the chunks the pieces were found in and the source's
// own text for each piece.
func source(chunks []index.Chunk, ps []string, spans [][2]int, mode, q string) *Source {
	first := chunks[spans[0][0]]
	src := &Source{CiteKey: first.CiteKey, Title: first.Title, Note: first.NotePath}
	seen := map[int]bool{}
	var texts, verbatim []string
	var known func(string) bool // words of the paper, built when needed
	for k, sp := range spans {
		var parts []string
		for i := sp[0]; i <= sp[1]; i++ {
			if !seen[i] {
				seen[i] = true
				ch := chunks[i]
				src.Chunks = append(src.Chunks, SourceChunk{ChunkID: ch.ChunkID, Page: ch.Page, PageLabel: ch.PageLabel, BBox: ch.BBox, SHA256: ch.SHA256, Media: ch.Media})
				if m := ch.Media; m != nil && m.Transcript == chunk.TranscriptASR {
					src.ASR, src.ASRModel = true, m.ASRModel
				}
			}
			parts = append(parts, chunks[i].Text)
		}
		text := strings.Join(parts, "\n")
		span := text
		if s, e, ok := quote.Locate(text, ps[k]); ok {
			span = text[s:e]
			if ch := chunks[sp[0]]; sp[0] == sp[1] && ch.Type == chunk.TypeTable {
				cellOf(src, ch.ChunkID, tableCell(text, s, e))
			}
		}
		verbatim = append(verbatim, collapse(span))
		if mode == Verified {
			texts = append(texts, collapse(ps[k]))
			continue
		}
		if known == nil {
			known = index.WordsOf(chunks)
		}
		texts = append(texts, Resolve(span, q, known))
	}
	src.Text = strings.Join(texts, " […] ")
	src.Verbatim = strings.Join(verbatim, " […] ")
	return src
}

// cellOf records cell c on the source chunk id; a second piece of an
// elided quotation in the same table extends the first's.
func cellOf(src *Source, id string, c *TableCell) {
	for i := range src.Chunks {
		sc := &src.Chunks[i]
		if sc.ChunkID != id {
			continue
		}
		if sc.Cell == nil {
			sc.Cell = c
			return
		}
		end := [2]int{c.Row, c.Column}
		if c.EndRow > 0 {
			end = [2]int{c.EndRow, c.EndColumn}
		}
		if end != [2]int{sc.Cell.Row, sc.Cell.Column} {
			sc.Cell.EndRow, sc.Cell.EndColumn, sc.Cell.Head = end[0], end[1], ""
		}
		return
	}
}

// Resolve returns span (source text) as pasteable text: white space
// collapsed, and each line-end hyphen between letters ("limi-\ntations")
// resolved by the policy of docs/verification.md:
//
//  1. as the quotation q writes that word: joined ("limitations") or
//     with its hyphen ("cognitively-demanding");
//  2. else joined when known reports the joined word used elsewhere in
//     the paper, with the hyphen when it reports the hyphenated word;
//  3. else joined when the part after the line break begins in lower
//     case, with the hyphen otherwise ("Semantic-\nScholar").
//
// known may be nil.
func Resolve(span, q string, known func(string) bool) string {
	// The quotation's words as written (NFKC, lower case, hyphens and
	// dashes as "-"; quote.Normalize would drop them between letters).
	qwords := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(norm.NFKC.String(q)), func(r rune) bool { return !unicode.IsLetter(r) && r != '-' && r != '‐' && r != '‑' }) {
		w = strings.NewReplacer("‐", "-", "‑", "-").Replace(w)
		qwords[strings.Trim(w, "-")] = true
	}
	// The whole words around each line-end hyphen.
	var b strings.Builder
	rest := span
	for {
		loc := lineEndHyphen.FindStringSubmatchIndex(rest)
		if loc == nil {
			b.WriteString(rest)
			break
		}
		// loc[2]:loc[3] is the letter before the hyphen, loc[4]:loc[5] the
		// letter after the line break.
		before := wordBefore(rest[:loc[3]])
		after := wordAfter(rest[loc[4]:])
		joined := strings.ToLower(before + after)
		hyph := strings.ToLower(before + "-" + after)
		join := true
		switch {
		case qwords[joined]:
		case qwords[hyph]:
			join = false
		case known != nil && known(joined):
		case known != nil && known(hyph):
			join = false
		default:
			r := []rune(after)
			join = len(r) > 0 && unicode.IsLower(r[0])
		}
		b.WriteString(rest[:loc[3]])
		if !join {
			b.WriteString("-")
		}
		rest = rest[loc[4]:]
	}
	return collapse(b.String())
}

// wordBefore returns the letters (and hyphens) at the end of s.
func wordBefore(s string) string {
	i := len(s)
	for i > 0 {
		r, size := lastRune(s[:i])
		if !unicode.IsLetter(r) && r != '-' {
			break
		}
		i -= size
	}
	return strings.TrimLeft(s[i:], "-")
}

// wordAfter returns the letters (and hyphens) at the start of s.
func wordAfter(s string) string {
	for i, r := range s {
		if !unicode.IsLetter(r) && r != '-' {
			return strings.TrimRight(s[:i], "-")
		}
	}
	return strings.TrimRight(s, "-")
}

func lastRune(s string) (rune, int) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] < 0x80 || s[i] >= 0xC0 {
			r := []rune(s[i:])
			return r[0], len(s) - i
		}
	}
	return 0, 1
}

// elsewhere looks for the quotation in papers other than exclude: the
// papers whose chunks contain its longest piece, then all its pieces in
// order in one of them. It returns where, how it matched and that paper's
// chunks.
func (c *Checker) elsewhere(ctx context.Context, ps []string, q string, exclude []string) (*Source, string, []index.Chunk, error) {
	longest := ps[0]
	for _, p := range ps {
		if len(quote.Key(p)) > len(quote.Key(longest)) {
			longest = p
		}
	}
	hits, err := c.Index.FindText(ctx, longest, 50)
	if err != nil {
		return nil, "", nil, err
	}
	excluded := map[string]bool{}
	for _, k := range exclude {
		if r, ok := c.Index.ResolveKey(ctx, k); ok {
			excluded[r] = true
		}
	}
	tried := map[string]bool{}
	for _, h := range hits {
		if excluded[h.CiteKey] || tried[h.CiteKey] {
			continue
		}
		tried[h.CiteKey] = true
		chunks, err := c.Index.PaperChunks(ctx, h.CiteKey)
		if err != nil {
			return nil, "", nil, err
		}
		if status, src := match(chunks, ps, q); status != "" {
			return src, status, chunks, nil
		}
	}
	return nil, "", nil, nil
}

// nearest returns the three passages closest to an unverified quotation:
// BM25 results from the cited papers and from the whole library, ranked by
// the share of the quotation's words they contain in order.
func (c *Checker) nearest(ctx context.Context, q string, keys []string) ([]Passage, error) {
	// The first words find the passage; a long quotation would go over
	// the search limits (search.MaxQueryChars, search.MaxQueryTerms).
	text := search.Clip(elision.ReplaceAllString(q, " "), 64)
	queries := []search.Query{{Text: text, Limit: 5}}
	for _, k := range keys {
		if _, ok := c.Index.ResolveKey(ctx, k); ok {
			queries = append(queries, search.Query{Text: text, Limit: 3, Key: k})
		}
	}
	qw := strings.Fields(quote.Key(text))
	seen := map[string]bool{}
	var out []Passage
	for _, sq := range queries {
		res, err := c.Index.Search(ctx, sq)
		if err != nil {
			return nil, err
		}
		for _, h := range res.Hits {
			id := h.CiteKey + "/" + h.ChunkID
			if seen[id] {
				continue
			}
			seen[id] = true
			ch, err := c.Index.ChunkByID(ctx, h.CiteKey, h.ChunkID)
			if err != nil {
				continue
			}
			out = append(out, Passage{CiteKey: h.CiteKey, ChunkID: h.ChunkID, Page: h.Page, PageLabel: ch.PageLabel,
				Similarity: similarity(qw, strings.Fields(ch.Norm)), Text: collapse(ch.Text), Media: ch.Media})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Similarity > out[j].Similarity })
	if len(out) > 3 {
		out = out[:3]
	}
	return out, nil
}

// similarity is the length of the longest common subsequence of the
// quotation's words and the chunk's words, divided by the number of the
// quotation's words, rounded to 2 decimals.
func similarity(q, c []string) float64 {
	if len(q) == 0 {
		return 0
	}
	prev := make([]int, len(c)+1)
	cur := make([]int, len(c)+1)
	for i := 1; i <= len(q); i++ {
		for j := 1; j <= len(c); j++ {
			if q[i-1] == c[j-1] {
				cur[j] = prev[j-1] + 1
			} else {
				cur[j] = max(prev[j], cur[j-1])
			}
		}
		prev, cur = cur, prev
	}
	return float64(int(float64(prev[len(c)])/float64(len(q))*100+0.5)) / 100
}
