package render

import (
	"fmt"
	"strings"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/search"
)

// RecallOutput is the JSON shape of a search: crossmem_recall's structured
// result and `crossmem search --json`.
type RecallOutput struct {
	Query   string       `json:"query"`
	Results []search.Hit `json:"results"` // never null
	// Withheld are matching chunks edited by hand in their notes: not
	// served (search.Result.Withheld).
	Withheld []search.Withheld `json:"withheld,omitempty"`
	Notes    []string          `json:"notes,omitempty"`
}

// Recall returns the JSON shape of res, the answer to query.
func Recall(query string, res *search.Result) RecallOutput {
	out := RecallOutput{Query: query, Results: res.Hits, Withheld: res.Withheld, Notes: res.Notes}
	if out.Results == nil {
		out.Results = []search.Hit{}
	}
	return out
}

// Hits renders search results as the seed's numbered list (cite key and
// title, then section, chunk, excerpt and link lines, and the viewer link
// when the hit has one), or "No results for query: '<q>'". A chunk with a model-written paraphrase or implication
// has them on lines labelled advisory, after a line saying whether the
// query matched them; the excerpt stays the only quotable text.
func Hits(query string, hits []search.Hit) string {
	if len(hits) == 0 {
		return fmt.Sprintf("No results for query: '%s'", query)
	}
	var b strings.Builder
	for i, h := range hits {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%d. [%s] %s\n", i+1, h.CiteKey, TitleOrNone(h.Title))
		fmt.Fprintf(&b, "   section: %s\n", h.Location())
		fmt.Fprintf(&b, "   chunk: %s\n", h.ChunkID)
		fmt.Fprintf(&b, "   excerpt: %s\n", h.Excerpt)
		if m := h.Media; m != nil {
			if m.Transcript == chunk.TranscriptASR {
				fmt.Fprintf(&b, "   transcript: speech recognition by %s (not the speaker's verbatim words; check the recording)\n", firstOr(m.ASRModel, "a speech model"))
			}
			if m.SlideOCR != "" {
				fmt.Fprintf(&b, "   slide text (OCR, not quotable as speech): %s\n", search.Excerpt(m.SlideOCR, nil, search.MaxExcerpt))
			}
			fmt.Fprintf(&b, "   at: %s %s\n", search.Clock(m.StartMS), m.Link)
		}
		if h.AdvisoryMatch {
			b.WriteString("   matched: the model-written paraphrase/implication (advisory; quote only the chunk's verbatim text)\n")
		}
		if a := h.Advisory; a != nil {
			if a.Paraphrase != "" {
				fmt.Fprintf(&b, "   paraphrase (advisory, not quotable): %s\n", a.Paraphrase)
			}
			if a.Implication != "" {
				fmt.Fprintf(&b, "   implication (advisory, not quotable): %s\n", a.Implication)
			}
		}
		fmt.Fprintf(&b, "   link: %s\n", h.Link)
		if h.Image != "" {
			fmt.Fprintf(&b, "   image: %s\n", search.FileURL(h.Image))
		}
		if h.ViewerURL != "" {
			fmt.Fprintf(&b, "   view: %s\n", h.ViewerURL)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// Explain renders the lanes' notes and each result's ranks and scores
// (the explain part of recall and search).
func Explain(hits []search.Hit, notes []string) string {
	var b strings.Builder
	b.WriteString("explain:")
	for _, n := range notes {
		fmt.Fprintf(&b, "\n  %s", n)
	}
	for i, h := range hits {
		if e := h.Explain; e != nil {
			fmt.Fprintf(&b, "\n  %d. %s %s: phrase=%v bm25_rank=%d bm25=%.4f vector_rank=%d vector=%.4f",
				i+1, h.CiteKey, h.ChunkID, e.Phrase, e.BM25Rank, e.BM25Score, e.VectorRank, e.VectorScore)
			if e.AdvisoryRank > 0 {
				fmt.Fprintf(&b, " advisory_rank=%d advisory=%.4f", e.AdvisoryRank, e.AdvisoryScore)
			}
			fmt.Fprintf(&b, " fused=%.6f", e.Fused)
		}
	}
	return b.String()
}

// SearchText renders a search's answer as recall and search print it: the
// hits, then with explain the lanes' notes and scores.
func SearchText(query string, res *search.Result, explain bool) string {
	text := Hits(query, res.Hits)
	if w := Withheld(res.Withheld); w != "" {
		text += "\n\n" + w
	}
	if explain {
		text += "\n" + Explain(res.Hits, res.Notes)
	}
	return text
}

// Withheld renders the chunks a search did not serve because their notes
// were edited by hand, with what to do; "" when there are none.
func Withheld(ws []search.Withheld) string {
	if len(ws) == 0 {
		return ""
	}
	var b strings.Builder
	keys := []string{}
	seen := map[string]bool{}
	fmt.Fprintf(&b, "Withheld (%d): edited by hand in the note, so never served as a source (the text no longer matches its text_sha256):", len(ws))
	for _, w := range ws {
		fmt.Fprintf(&b, "\n- [%s] %s %s", w.CiteKey, w.ChunkID, pageRef(w.Page, w.PageLabel))
		if !seen[w.CiteKey] {
			seen[w.CiteKey] = true
			keys = append(keys, w.CiteKey)
		}
	}
	for _, k := range keys {
		fmt.Fprintf(&b, "\nHint: %s", Hint(hint.Action{Kind: hint.VerifyEdits, Key: k}))
	}
	return b.String()
}

func firstOr(s, or string) string {
	if s == "" {
		return or
	}
	return s
}
