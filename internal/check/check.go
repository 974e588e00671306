// Package check verifies what a draft claims about the library: that every
// quotation is really in the source it cites, and that every cited key
// exists. It is the logic of `crossmem check` and of the MCP tools
// crossmem_verify_quote and crossmem_check_draft.
//
// A quotation gets one status:
//
//   - verified: it is the source's text exactly, white space aside (any run
//     of spaces and line breaks counts as one space), within one chunk or
//     across adjacent chunks of a cited paper;
//   - repaired: it matches a cited paper only after quote normalization
//     (quote.Normalize: ligatures, line-end hyphenation, typographic quotes
//     and dashes, case); the source's own text, chunk, page and bbox are
//     given so the author can paste the exact words;
//   - misattributed: it is not in the cited paper (or cites nothing, or
//     cites a key the library does not have) but is in another paper of
//     the library, which is named;
//   - unverified: it is in no paper of the library; the three nearest
//     passages (chunk, page, similarity) are given.
//
// An elided quotation ("...", "…", "[…]", "[...]") matches when its pieces
// appear in order in one paper. Statuses other than verified and repaired,
// and cite keys that are unknown or carry metadata warnings, make a draft
// fail the check.
package check

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/crossmem/crossmem/internal/cite"
	"github.com/crossmem/crossmem/internal/index"
	"github.com/crossmem/crossmem/internal/quote"
	"github.com/crossmem/crossmem/internal/search"
)

// Quotation statuses.
const (
	Verified      = "verified"
	Repaired      = "repaired"
	Misattributed = "misattributed"
	Unverified    = "unverified"
)

// Citation statuses.
const (
	CiteOK              = "ok"
	CiteUnknown         = "unknown"
	CiteMetadataWarning = "metadata-warning"
)

// Checker checks quotations against the search index and cite keys
// against the library.
type Checker struct {
	Index *index.Index
	Citer *cite.Citer // for cite key lookups and suggestions
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
}

// Source is where a quotation was found.
type Source struct {
	CiteKey string        `json:"cite_key"`
	Title   string        `json:"title"`
	Note    string        `json:"note"`   // the wiki note's path
	Chunks  []SourceChunk `json:"chunks"` // one, or adjacent chunks for a quotation that spans them
	// Text is the source's own text of the quoted span (pieces of an
	// elided quotation joined by " […] "), white space collapsed: what a
	// repaired quotation should say.
	Text string `json:"text"`
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
}

// Provenance is a `% crossmem: <key> <chunk_id> sha256=<...>` provenance
// comment for a quotation: the key as written, the chunk and a prefix of
// its text_sha256.
type Provenance struct {
	Key, ChunkID, SHA256 string
}

// QuoteResult is the verdict on one quotation.
type QuoteResult struct {
	Status    string   `json:"status"`
	Quote     string   `json:"quote"`
	Line      int      `json:"line,omitempty"`
	EndLine   int      `json:"end_line,omitempty"`
	Kind      string   `json:"kind,omitempty"`
	CitedKeys []string `json:"cited_keys"`
	// Source is where it was found: in the cited paper (verified,
	// repaired) or in another one (misattributed).
	Source *Source `json:"source,omitempty"`
	// Nearest are the closest passages of an unverified quotation.
	Nearest []Passage `json:"nearest,omitempty"`
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

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// Quote checks one quotation attributed to keys (cite keys or aliases;
// none is allowed), with an optional provenance comment (prov may be nil).
// Quote marks around the whole quotation are ignored (quote.TrimMarks).
// A quotation that is not found is a verdict (Unverified, with the
// nearest passages), not an error; errors are the index's.
func (c *Checker) Quote(ctx context.Context, q string, keys []string, prov *Provenance) (*QuoteResult, error) {
	q = quote.TrimMarks(q)
	res := &QuoteResult{Quote: q, CitedKeys: append([]string{}, keys...)}
	ps := pieces(q)
	if len(ps) == 0 {
		res.Status = Unverified
		res.Notes = append(res.Notes, "the quotation has no words")
		return res, nil
	}
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
		if status, src := match(chunks, ps); status != "" {
			res.Status, res.Source = status, src
			res.Notes = append(res.Notes, c.provenanceNotes(ctx, prov, src)...)
			return res, nil
		}
	}
	// Elsewhere in the library?
	src, err := c.elsewhere(ctx, ps, keys)
	if err != nil {
		return nil, err
	}
	if src != nil {
		res.Status, res.Source = Misattributed, src
		switch {
		case len(keys) == 0:
			res.Notes = append(res.Notes, fmt.Sprintf("the quotation cites nothing; it is from %s", src.CiteKey))
		default:
			res.Notes = append(res.Notes, fmt.Sprintf("the quotation is not in %s but in %s", strings.Join(keys, ", "), src.CiteKey))
		}
		return res, nil
	}
	res.Status = Unverified
	res.Nearest, err = c.nearest(ctx, q, keys)
	return res, err
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
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
		switch {
		case err != nil:
			notes = append(notes, fmt.Sprintf("the provenance comment names %s %s, which the library does not have", prov.Key, prov.ChunkID))
		case !strings.HasPrefix(ch.SHA256, strings.ToLower(sha)):
			notes = append(notes, fmt.Sprintf("the provenance comment's sha256=%s is not the text_sha256 of %s %s (%s): the note changed since the quotation was taken", prov.SHA256, prov.Key, prov.ChunkID, ch.SHA256[:12]))
		}
	}
	return notes
}

// match looks for the pieces, in order, in one paper's chunks (joined in
// note order, so a piece may span adjacent chunks): first exactly (white
// space collapsed), then normalized. It returns "" when they are not there.
func match(chunks []index.Chunk, ps []string) (string, *Source) {
	if mode, src := matchIn(chunks, ps); src != nil {
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
	return matchIn(body, ps)
}

func matchIn(chunks []index.Chunk, ps []string) (string, *Source) {
	if len(chunks) == 0 {
		return "", nil
	}
	for _, mode := range []string{Verified, Repaired} {
		texts := make([]string, len(chunks))
		for i, ch := range chunks {
			if mode == Verified {
				texts[i] = collapse(ch.Text)
			} else {
				texts[i] = ch.Norm
			}
		}
		joined, starts := joinOffsets(texts)
		from := 0
		var spans [][2]int // chunk index range of each piece
		ok := true
		for _, p := range ps {
			needle := collapse(p)
			if mode == Repaired {
				needle = quote.Key(p)
			}
			i := strings.Index(joined[from:], needle)
			if i < 0 {
				ok = false
				break
			}
			s, e := from+i, from+i+len(needle)
			spans = append(spans, [2]int{chunkAt(starts, s), chunkAt(starts, max(s, e-1))})
			from = e
		}
		if ok {
			return mode, source(chunks, ps, spans, mode)
		}
	}
	return "", nil
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
func source(chunks []index.Chunk, ps []string, spans [][2]int, mode string) *Source {
	first := chunks[spans[0][0]]
	src := &Source{CiteKey: first.CiteKey, Title: first.Title, Note: first.NotePath}
	seen := map[int]bool{}
	var texts []string
	for k, sp := range spans {
		var parts []string
		for i := sp[0]; i <= sp[1]; i++ {
			if !seen[i] {
				seen[i] = true
				ch := chunks[i]
				src.Chunks = append(src.Chunks, SourceChunk{ChunkID: ch.ChunkID, Page: ch.Page, PageLabel: ch.PageLabel, BBox: ch.BBox, SHA256: ch.SHA256})
			}
			parts = append(parts, chunks[i].Text)
		}
		text := strings.Join(parts, "\n")
		if mode == Verified {
			texts = append(texts, collapse(ps[k]))
			continue
		}
		if s, e, ok := quote.Locate(text, ps[k]); ok {
			texts = append(texts, collapse(text[s:e]))
		} else {
			texts = append(texts, collapse(text))
		}
	}
	src.Text = strings.Join(texts, " […] ")
	return src
}

// elsewhere looks for the quotation in papers other than exclude: the
// papers whose chunks contain its longest piece, then all its pieces in
// order in one of them.
func (c *Checker) elsewhere(ctx context.Context, ps []string, exclude []string) (*Source, error) {
	longest := ps[0]
	for _, p := range ps {
		if len(quote.Key(p)) > len(quote.Key(longest)) {
			longest = p
		}
	}
	hits, err := c.Index.FindText(ctx, longest, 50)
	if err != nil {
		return nil, err
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
			return nil, err
		}
		if status, src := match(chunks, ps); status != "" {
			return src, nil
		}
	}
	return nil, nil
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
		queries = append(queries, search.Query{Text: text, Limit: 3, Key: k})
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
				Similarity: similarity(qw, strings.Fields(ch.Norm)), Text: collapse(ch.Text)})
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
