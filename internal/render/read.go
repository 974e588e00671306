package render

import (
	"fmt"
	"strings"

	"github.com/crossmem/crossmem/internal/check"
	"github.com/crossmem/crossmem/internal/index"
	"github.com/crossmem/crossmem/internal/search"
)

// ReadChunk is one chunk as a read gives it: the full verbatim text with
// its provenance.
type ReadChunk struct {
	ChunkID string `json:"chunk_id"`
	Type    string `json:"type"`
	Page    int    `json:"page"` // PDF page, 1-based
	// PageLabel is the printed page label ("46"); "" when the PDF
	// declares none.
	PageLabel string `json:"page_label,omitempty"`
	// PrintedPage is the page to cite: the page label, else the number
	// printed in the page's running head or foot, else the PDF page
	// number (what crossmem check compares page locators with).
	PrintedPage string     `json:"printed_page"`
	Section     string     `json:"section"`
	SectionPath []string   `json:"section_path,omitempty"`
	BBox        [4]float64 `json:"bbox"` // [x0, y0, x1, y1] in PDF points, origin bottom-left
	TextSHA256  string     `json:"text_sha256"`
	// Continues is the chunk this one continues across a column or page
	// break, "" when none.
	Continues string `json:"continues,omitempty"`
	// Text is the chunk's text exactly as the note holds it (the PDF's
	// text layer, line breaks kept): what text_sha256 hashes.
	Text string `json:"text"`
	// Reading is Text on one line, line-end hyphens resolved
	// (docs/verification.md): a quotation copied from it is verified.
	Reading string `json:"reading"`
	// Image is, for a figure chunk, the absolute path of its crop (a PNG
	// of the figure's region, as its note links it); "" otherwise.
	Image string `json:"image,omitempty"`
	// ViewerURL opens the chunk in the PDF viewer (`crossmem serve`), ""
	// when no viewer runs.
	ViewerURL string `json:"viewer_url,omitempty"`
	// Media is where a talk's chunk is in its recording (its time range,
	// the link there, slide text, the kind of transcript); nil for a
	// paper's chunk, whose page fields it replaces (PrintedPage is then
	// the start time, m:ss).
	Media *search.Media `json:"media,omitempty"`
}

// ReadOutput is the JSON shape of a read: crossmem_read's structured
// result and `crossmem read --json`.
type ReadOutput struct {
	// Key is the key asked for; CiteKey the paper's cite key.
	Key      string          `json:"key"`
	CiteKey  string          `json:"cite_key"`
	Title    string          `json:"title"`
	Note     string          `json:"note"`
	Chunks   []ReadChunk     `json:"chunks"` // never null
	Previous *index.ChunkRef `json:"previous,omitempty"`
	Next     *index.ChunkRef `json:"next,omitempty"`
	Withheld []WithheldChunk `json:"withheld,omitempty"`
	// Truncated is true when the page or section was longer than a read
	// gives (index.MaxReadChars): next is the first chunk left out.
	Truncated bool `json:"truncated,omitempty"`
}

// WithheldChunk is a chunk of a read that was edited by hand in its note:
// not served.
type WithheldChunk struct {
	ChunkID      string `json:"chunk_id"`
	Page         int    `json:"page"`
	PageLabel    string `json:"page_label,omitempty"`
	TextSHA256   string `json:"text_sha256"`
	ActualSHA256 string `json:"actual_sha256"`
}

// Read returns the JSON shape of a read of key.
func Read(key string, r *index.ReadResult) ReadOutput {
	out := ReadOutput{Key: key, CiteKey: r.CiteKey, Title: r.Title, Note: r.NotePath, Chunks: []ReadChunk{},
		Previous: r.Previous, Next: r.Next, Truncated: r.Truncated}
	for _, c := range r.Chunks {
		printed := c.PageLabel
		if printed == "" {
			printed = r.Printed[c.Page]
		}
		if printed == "" {
			printed = fmt.Sprint(c.Page)
		}
		if c.Media != nil {
			printed = search.Clock(c.Media.StartMS)
		}
		out.Chunks = append(out.Chunks, ReadChunk{ChunkID: c.ChunkID, Type: c.Type, Page: c.Page, PageLabel: c.PageLabel, PrintedPage: printed,
			Section: c.Section, SectionPath: c.SectionPath, BBox: c.BBox, TextSHA256: c.SHA256, Continues: c.Continues,
			Text: c.Text, Reading: check.Resolve(c.Text, "", r.Known), Media: c.Media, Image: r.Images[c.ChunkID]})
	}
	for _, e := range r.Withheld {
		out.Withheld = append(out.Withheld, WithheldChunk{ChunkID: e.ChunkID, Page: e.Page, PageLabel: e.PageLabel, TextSHA256: e.Recorded, ActualSHA256: e.Actual})
	}
	return out
}

// ReadText renders a read for people and agents: the paper, then each
// chunk's provenance line, its verbatim text as "> " lines and its
// reading, then the neighbours and the chunks withheld.
func ReadText(o ReadOutput) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s] %s\n", o.CiteKey, TitleOrNone(o.Title))
	for _, c := range o.Chunks {
		if m := c.Media; m != nil {
			fmt.Fprintf(&b, "\nchunk %s (%s) %s–%s", c.ChunkID, c.Type, search.Clock(m.StartMS), search.Clock(m.EndMS))
			if c.Section != "" {
				fmt.Fprintf(&b, " §%s", c.Section)
			}
			fmt.Fprintf(&b, "\n  at: %s text_sha256=%s\n", m.Link, c.TextSHA256)
			writeMediaNotes(&b, m, "  ")
		} else {
			fmt.Fprintf(&b, "\nchunk %s (%s) p. %s", c.ChunkID, c.Type, c.PrintedPage)
			if c.PrintedPage != fmt.Sprint(c.Page) {
				fmt.Fprintf(&b, " (PDF page %d)", c.Page)
			}
			if len(c.SectionPath) > 0 {
				fmt.Fprintf(&b, " §%s", strings.Join(c.SectionPath, " › "))
			} else if c.Section != "" {
				fmt.Fprintf(&b, " §%s", c.Section)
			}
			fmt.Fprintf(&b, "\n  bbox [%.1f %.1f %.1f %.1f] text_sha256=%s\n", c.BBox[0], c.BBox[1], c.BBox[2], c.BBox[3], c.TextSHA256)
		}
		if c.Continues != "" {
			fmt.Fprintf(&b, "  continues %s\n", c.Continues)
		}
		for _, l := range strings.Split(c.Text, "\n") {
			fmt.Fprintf(&b, "> %s\n", l)
		}
		if c.Reading != strings.Join(strings.Fields(c.Text), " ") || strings.Contains(c.Text, "\n") {
			fmt.Fprintf(&b, "reading: %s\n", c.Reading)
		}
		if c.Image != "" {
			fmt.Fprintf(&b, "image: %s\n", search.FileURL(c.Image))
		}
		if c.ViewerURL != "" {
			fmt.Fprintf(&b, "view: %s\n", c.ViewerURL)
		}
	}
	if len(o.Withheld) > 0 {
		fmt.Fprintf(&b, "\nWithheld (%d): edited by hand in the note, so never served as a source:", len(o.Withheld))
		for _, w := range o.Withheld {
			fmt.Fprintf(&b, "\n- %s %s", w.ChunkID, pageRef(w.Page, w.PageLabel))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	if o.Truncated {
		b.WriteString("truncated: the rest starts at the next chunk\n")
	}
	if p := o.Previous; p != nil {
		fmt.Fprintf(&b, "previous: %s (%s, %s)\n", p.ChunkID, p.Type, refPlace(p))
	}
	if n := o.Next; n != nil {
		fmt.Fprintf(&b, "next: %s (%s, %s)\n", n.ChunkID, n.Type, refPlace(n))
	}
	fmt.Fprintf(&b, "note: %s", o.Note)
	return b.String()
}

// PaperMarkdown renders a whole paper's served chunks as markdown (the MCP
// resource crossmem://paper/<cite_key>): a heading and what the text is,
// then each chunk's provenance as an HTML comment and its verbatim text
// as "> " lines. Chunks edited by hand are named, never shown.
func PaperMarkdown(o ReadOutput) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\ncite_key: %s\n\nThe verbatim text of the paper's PDF, chunk by chunk, as crossmem serves it: quote only these \"> \" lines (check quotations with crossmem_verify_quote). Each chunk's provenance precedes it.\n", TitleOrNone(o.Title), o.CiteKey)
	if len(o.Withheld) > 0 {
		fmt.Fprintf(&b, "\nWithheld (edited by hand in the note, never served): ")
		for i, w := range o.Withheld {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(w.ChunkID)
		}
		b.WriteString("\n")
	}
	for _, c := range o.Chunks {
		if m := c.Media; m != nil {
			fmt.Fprintf(&b, "\n<!-- chunk %s %s %s–%s", c.ChunkID, c.Type, search.Clock(m.StartMS), search.Clock(m.EndMS))
			if c.Section != "" {
				fmt.Fprintf(&b, " §%s", strings.ReplaceAll(c.Section, "--", "- -"))
			}
			fmt.Fprintf(&b, " at %s transcript=%s", strings.ReplaceAll(m.Link, "--", "%2D%2D"), m.Transcript)
			if m.ASRModel != "" {
				fmt.Fprintf(&b, " (speech recognition by %s, not verbatim speech)", strings.ReplaceAll(m.ASRModel, "--", "- -"))
			}
			fmt.Fprintf(&b, " text_sha256=%s -->\n", c.TextSHA256)
		} else {
			fmt.Fprintf(&b, "\n<!-- chunk %s %s p. %s (PDF page %d)", c.ChunkID, c.Type, c.PrintedPage, c.Page)
			if c.Section != "" {
				fmt.Fprintf(&b, " §%s", strings.ReplaceAll(c.Section, "--", "- -"))
			}
			fmt.Fprintf(&b, " bbox [%.1f %.1f %.1f %.1f] text_sha256=%s -->\n", c.BBox[0], c.BBox[1], c.BBox[2], c.BBox[3], c.TextSHA256)
		}
		for _, l := range strings.Split(c.Text, "\n") {
			fmt.Fprintf(&b, "> %s\n", l)
		}
	}
	if o.Truncated {
		fmt.Fprintf(&b, "\n(truncated: the paper goes on at %s; read it with crossmem_read)\n", o.Next.ChunkID)
	}
	return b.String()
}

// refPlace is where a neighbouring chunk is: its page, or a talk chunk's
// start time.
func refPlace(r *index.ChunkRef) string {
	if r.StartMS != nil {
		return search.Clock(*r.StartMS)
	}
	return pageRef(r.Page, r.PageLabel)
}
