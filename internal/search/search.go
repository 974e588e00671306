// Package search defines what a search for chunks asks and answers, for
// crossmem_recall and `crossmem search`: Query (text, limit, filters),
// Hit, Explain, Result and the Searcher interface, plus the excerpt and
// link helpers. internal/index implements Searcher over the SQLite index.
package search

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/crossmem/crossmem/internal/deeplink"
)

// DefaultLimit and MaxLimit bound the number of results (the seed's
// crossmem_recall contract).
const (
	DefaultLimit = 5
	MaxLimit     = 20
	// MaxExcerpt is the longest excerpt in characters, ellipses included.
	MaxExcerpt = 400
)

// Query is a search request. Filters are optional and combine with AND.
type Query struct {
	Text  string
	Limit int // 0 means DefaultLimit; values above MaxLimit are capped

	Key      string // only this paper: its cite key or an alias
	Author   string // a case-insensitive part of an author's name
	YearFrom int    // first year, 0 = open
	YearTo   int    // last year, 0 = open
	Section  string // a case-insensitive part of the section heading
	Type     string // chunk type: paragraph, heading, figure, table, caption, equation, code, ...
	// Furniture includes page furniture (page_header, page_footer,
	// margin_note), which is left out unless asked for here or by Type.
	Furniture bool

	Explain bool // fill Hit.Explain and Result.Notes
}

// Hit is one matching chunk.
type Hit struct {
	CiteKey string `json:"cite_key"`
	Title   string `json:"title"`
	ChunkID string `json:"chunk_id"`
	Page    int    `json:"page"`
	// PageLabel is the printed page label ("46"); "" when the PDF
	// declares none (cite Page then).
	PageLabel string `json:"page_label,omitempty"`
	Section   string `json:"section"`
	Type      string `json:"type"`
	Excerpt   string `json:"excerpt"` // at most MaxExcerpt characters of the chunk's verbatim text
	Link      string `json:"link"`    // file:// URL of the note
	// Image is, for a figure chunk, the absolute path of its crop (a PNG
	// compile drew, named in the note); "" otherwise.
	Image string `json:"image,omitempty"`
	// ViewerURL opens the chunk on its PDF page, bbox highlighted, in the
	// library viewer (`crossmem serve`): set by Viewer, "" without one.
	ViewerURL string  `json:"viewer_url,omitempty"`
	Score     float64 `json:"score"` // the fused score that ordered the results
	// Advisory is the chunk's model-written paraphrase and implication,
	// when it has them; AdvisoryMatch is true when the query matched
	// them (the advisory lane). That text is never quotable: the quotable
	// text of every hit is the chunk's verbatim text, of which Excerpt is
	// part.
	AdvisoryMatch bool      `json:"advisory_match,omitempty"`
	Advisory      *Advisory `json:"advisory,omitempty"`
	// Media is where a talk's chunk is in its recording, with the link
	// that opens it there; nil for a paper's chunk.
	Media   *Media   `json:"media,omitempty"`
	Explain *Explain `json:"explain,omitempty"`
}

// Media is the place of a talk's chunk in its recording.
type Media struct {
	StartMS int64 `json:"start_ms"`
	EndMS   int64 `json:"end_ms"`
	// Link opens the recording at StartMS: https://youtu.be/{id}?t={s},
	// a page's URL with #t={s}, or a file:// URL with #t={s} for a local
	// recording.
	Link string `json:"link"`
	// Keyframe is the file of the chunk's first keyframe (absolute), ""
	// when it has none.
	Keyframe string `json:"keyframe,omitempty"`
	// SlideOCR is the text OCR read on the chunk's slides: labelled OCR,
	// searchable, never a quotation of the speaker.
	SlideOCR string `json:"slide_ocr,omitempty"`
	// Transcript is "subtitles" (human subtitles, quoted as written) or
	// "asr" (a speech model's transcript, not verbatim speech, ASRModel
	// names the model).
	Transcript string `json:"transcript"`
	ASRModel   string `json:"asr_model,omitempty"`
}

// Clock renders a time in a recording, ms milliseconds from its start
// (whole seconds; the rest dropped), as m:ss, or h:mm:ss from an hour on:
// the one time format of notes, search hits, check and the CLI.
func Clock(ms int64) string {
	s := ms / 1000
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// MediaLink resolves a talk chunk's link as a note records it: URLs as
// they are, a local recording's path (relative to the library home) as a
// file:// URL with its #t= fragment.
func MediaLink(link, home string) string {
	if link == "" || strings.Contains(link, "://") {
		return link
	}
	path, frag, _ := strings.Cut(link, "#")
	u := FileURL(filepath.Join(home, filepath.FromSlash(path)))
	if frag != "" {
		u += "#" + frag
	}
	return u
}

// Advisory is a chunk's paraphrase and implication, written by a language
// model (crossmem enrich): for reasoning and search, never to be quoted or
// attributed to the paper.
type Advisory struct {
	Paraphrase  string `json:"paraphrase,omitempty"`
	Implication string `json:"implication,omitempty"`
}

// Explain says why a hit ranks where it does.
type Explain struct {
	// Phrase is true when the chunk contains the query verbatim after
	// quote normalization (the exact-phrase lane); such chunks rank first.
	Phrase bool `json:"phrase"`
	// BM25Rank and BM25Score: rank (1-based, 0 = not retrieved) and score in
	// the BM25 lane.
	BM25Rank  int     `json:"bm25_rank"`
	BM25Score float64 `json:"bm25_score"`
	// VectorRank and VectorScore (cosine similarity): the embedding lane,
	// 0 when it is off or did not retrieve the chunk.
	VectorRank  int     `json:"vector_rank"`
	VectorScore float64 `json:"vector_score"`
	// AdvisoryRank and AdvisoryScore: the advisory lane (BM25 over the
	// paraphrase and implication), 0 when it did not retrieve the chunk.
	AdvisoryRank  int     `json:"advisory_rank"`
	AdvisoryScore float64 `json:"advisory_score"`
	// Fused is the reciprocal rank fusion score.
	Fused float64 `json:"fused"`
}

// Withheld is a chunk that would have matched a query but is not served:
// its text in the note no longer hashes to its text_sha256 (the note was
// edited by hand; `crossmem verify` shows the edit).
type Withheld struct {
	CiteKey string `json:"cite_key"`
	ChunkID string `json:"chunk_id"`
	Page    int    `json:"page"`
	// PageLabel is the printed page label; "" when the PDF declares none.
	PageLabel string `json:"page_label,omitempty"`
	Note      string `json:"note"` // the note's path
	// TextSHA256 is the hash the note records for the chunk (of the text
	// compile wrote), ActualSHA256 the hash of the text it holds now.
	TextSHA256   string `json:"text_sha256"`
	ActualSHA256 string `json:"actual_sha256"`
}

// Result is the answer to a Query.
type Result struct {
	Hits []Hit `json:"results"`
	// Withheld are chunks edited by hand that the query matches: never
	// served, listed so the reader knows why they are missing.
	Withheld []Withheld `json:"withheld,omitempty"`
	// Notes describe the lanes used, with Query.Explain: which were on,
	// which were off and why (e.g. no embedding server).
	Notes []string `json:"notes,omitempty"`
}

// Location renders "p. 46 §3.2 Scaled Dot-Product Attention": the printed
// page label when the PDF declares one, else "p.4" with the PDF page
// number (the seed's section line); the § part is omitted when the chunk
// has no section. A talk's chunk is placed by time: "0:10–0:24 §Method".
func (h Hit) Location() string {
	if h.Media != nil {
		at := Clock(h.Media.StartMS) + "–" + Clock(h.Media.EndMS)
		if h.Section == "" {
			return at
		}
		return at + " §" + h.Section
	}
	page := fmt.Sprintf("p.%d", h.Page)
	if h.PageLabel != "" {
		page = "p. " + h.PageLabel
	}
	if h.Section == "" {
		return page
	}
	return page + " §" + h.Section
}

// ParseYears reads a year filter: "2017", "2015-2019", "2015-" or "-2019"
// (the --year flag, the viewer's year field). It returns the first and
// last year, 0 for an open end.
func ParseYears(s string) (from, to int, err error) {
	bad := fmt.Errorf("%q: use a year (2017) or a range (2015-2019, 2015-, -2019)", s)
	f, t, isRange := strings.Cut(strings.TrimSpace(s), "-")
	if !isRange {
		t = f
	}
	var y [2]int
	for i, v := range []string{f, t} {
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 9999 {
			return 0, 0, bad
		}
		y[i] = n
	}
	if y[0] == 0 && y[1] == 0 || (y[0] != 0 && y[1] != 0 && y[0] > y[1]) {
		return 0, 0, bad
	}
	return y[0], y[1], nil
}

// Searcher finds chunks matching a query, best first.
type Searcher interface {
	Search(ctx context.Context, q Query) (*Result, error)
}

// Viewer is a Searcher whose hits carry their ViewerURL: the viewer at
// Base ("http://127.0.0.1:7600") opened at the chunk
// (Base/pdf/{cite_key}?chunk={chunk_id}, internal/deeplink's form by chunk
// id).
type Viewer struct {
	Searcher
	Base string
}

// Search runs the query and sets each hit's ViewerURL.
func (v Viewer) Search(ctx context.Context, q Query) (*Result, error) {
	res, err := v.Searcher.Search(ctx, q)
	if err != nil || v.Base == "" {
		return res, err
	}
	for i := range res.Hits {
		h := &res.Hits[i]
		h.ViewerURL = deeplink.Link{Key: h.CiteKey, Chunk: h.ChunkID}.Viewer(v.Base)
	}
	return res, nil
}

// FileURL returns the file:// URL of an absolute path.
func FileURL(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// Excerpt returns at most max characters of text (line breaks as spaces)
// around the first occurrence of a query token, cut at word boundaries and
// marked with "..." where text was left out.
func Excerpt(text string, tokens []string, max int) string {
	flat := []rune(strings.Join(strings.Fields(text), " "))
	if len(flat) <= max {
		return string(flat)
	}
	lower := []rune(strings.ToLower(string(flat)))
	at := -1
	for _, t := range tokens {
		if i := indexRunes(lower, []rune(t)); i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	if at < 0 {
		at = 0
	}
	budget := max - 6 // room for two ellipses
	start := at - budget/4
	if start < 0 {
		start = 0
	}
	end := start + budget
	if end > len(flat) {
		end = len(flat)
		start = max0(end - budget)
	}
	// Move the cuts to word boundaries, inward. Where that would lose the
	// match or everything (text without spaces such as CJK, long URLs),
	// keep the hard cuts.
	hardStart, hardEnd := start, end
	if start > 0 {
		for start < end && flat[start-1] != ' ' {
			start++
		}
	}
	if end < len(flat) {
		for end > start && flat[end] != ' ' {
			end--
		}
	}
	if start >= end || start > at || end <= at {
		start, end = hardStart, hardEnd
	}
	s := strings.TrimSpace(string(flat[start:end]))
	if start > 0 {
		s = "..." + s
	}
	if end < len(flat) {
		s += "..."
	}
	return s
}

func max0(i int) int {
	if i < 0 {
		return 0
	}
	return i
}

func indexRunes(s, sub []rune) int {
	if len(sub) == 0 {
		return -1
	}
outer:
	for i := 0; i+len(sub) <= len(s); i++ {
		for j := range sub {
			if s[i+j] != sub[j] {
				continue outer
			}
		}
		return i
	}
	return -1
}
