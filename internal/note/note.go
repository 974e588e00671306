// Package note writes and reads crossmem wiki notes: the markdown file
// compile produces for one cite key (docs/wiki-format.md is the
// specification; FormatVersion is its version).
//
// A note is YAML frontmatter, a "# Title" line, a "## Citations" section
// with one "### <Style>" subsection per citation style, and a "## Chunks"
// section holding the verbatim chunks:
//
//	<!-- chunk id=p4s32c1 type=paragraph -->
//	> first line of verbatim text
//	> second line
//
//	**Paraphrase:** advisory text written by a language model
//	**Implication:** advisory text written by a language model
//
//	```yaml
//	provenance:
//	  page: 4
//	  page_label: "46"
//	  section: "3.2 Scaled Dot-Product Attention"
//	  section_path: ["3 Model Architecture", "3.2 Scaled Dot-Product Attention"]
//	  bbox: [72.00, 340.50, 523.80, 412.10]
//	  text_sha256: "5f3e..."
//	  byte_range: [18342, 19104]
//	```
//
// The "> " lines are the chunk text, one line each, joined by "\n" when
// read back; nothing else in the note is quoted text. The format is
// line-oriented on purpose: Parse reads exactly the lines Format wrote, so
// a note survives a Format/Parse round trip byte for byte, and a CommonMark
// parser's interpretation of markup inside quotes can never change the
// text that is hashed.
//
// The package is pure (no I/O).
package note

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/crossmem/crossmem/internal/search"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/crossmem/crossmem/internal/chunk"
)

// FormatVersion is the version of the wiki note format this package writes
// (frontmatter key wiki_format). Version 2 added page_label, section_path
// and continues to the provenance, and the chunk types list_item,
// footnote, reference and margin_note; Parse reads versions 1 and 2.
const FormatVersion = 2

// Parser is the value of the frontmatter key parser for notes compiled by
// crossmem's pdfium-based extractor.
const Parser = "pdfium"

// Frontmatter is the YAML header of a note. Field names and order follow
// the seed's frontmatter table, plus pages, unquotable_pages and
// wiki_format.
type Frontmatter struct {
	CiteKey string `yaml:"cite_key"`
	// Aliases are earlier cite keys of the paper (crossmem rekey); they
	// still resolve to it.
	Aliases        []string `yaml:"aliases,omitempty"`
	Title          string   `yaml:"title"`
	Authors        []string `yaml:"authors"`
	Year           int      `yaml:"year"`
	ArxivID        string   `yaml:"arxiv_id,omitempty"`
	ArxivVersion   int      `yaml:"arxiv_version,omitempty"`
	DOI            string   `yaml:"doi,omitempty"`
	DOIPreprint    string   `yaml:"doi_preprint,omitempty"`
	DOIPublished   string   `yaml:"doi_published,omitempty"`
	ContainerTitle string   `yaml:"container_title,omitempty"`
	// Channel, UploadDate (YYYY-MM-DD), VideoID, URL and DurationSec
	// describe a recorded talk (the seed's talk frontmatter); absent for
	// papers.
	Channel     string `yaml:"channel,omitempty"`
	UploadDate  string `yaml:"upload_date,omitempty"`
	VideoID     string `yaml:"video_id,omitempty"`
	URL         string `yaml:"url,omitempty"`
	DurationSec int64  `yaml:"duration_sec,omitempty"`
	CapturedAt  string `yaml:"captured_at"`
	Raw         string `yaml:"raw"`
	PDFSHA256   string `yaml:"pdf_sha256"`
	Parser      string `yaml:"parser"`
	// SourceType is "youtube", "url" or "local" for a recorded talk
	// (absent for papers); MediaSHA256 the SHA-256 of its recording as
	// captured; Transcript where its words come from.
	SourceType      string       `yaml:"source_type,omitempty"`
	MediaSHA256     string       `yaml:"media_sha256,omitempty"`
	Transcript      *Transcript  `yaml:"transcript,omitempty"`
	Chunks          int          `yaml:"chunks"`
	Pages           int          `yaml:"pages"`
	UnquotablePages []Unquotable `yaml:"unquotable_pages"`
	Meta            Meta         `yaml:"meta"`
	// CitedVersion is "published" when the citations describe the
	// published version rather than the captured preprint; empty otherwise.
	CitedVersion string `yaml:"cited_version,omitempty"`
	// Advisory names the model whose paraphrases and implications the
	// chunks carry (crossmem enrich); nil when none do.
	Advisory   *Advisory `yaml:"advisory,omitempty"`
	WikiFormat int       `yaml:"wiki_format"`
}

// Advisory identifies the model that wrote a note's paraphrases and
// implications: advisory text, never quoted, hashed or cited.
type Advisory struct {
	Server string `yaml:"server"` // "ollama" or "openai" (an OpenAI-compatible server)
	Model  string `yaml:"model"`  // the model's name on that server
	// ModelDigest is the server's digest of the model (hex); "" when the
	// server does not give one.
	ModelDigest   string `yaml:"model_digest"`
	PromptVersion int    `yaml:"prompt_version"`
}

// Transcript says where a talk's words come from: Kind is "subtitles"
// (human subtitles, quoted as written) or "asr" (a speech recognition
// model's transcript: not the speaker's verbatim words); Source what made
// it ("subtitles", "file", "whisper.cpp", "auto-captions"); Model the
// speech model of an ASR transcript; File the subtitle or transcript file
// relative to the library home.
type Transcript struct {
	Kind     string `yaml:"kind"`
	Source   string `yaml:"source"`
	Model    string `yaml:"model,omitempty"`
	File     string `yaml:"file,omitempty"`
	Language string `yaml:"language,omitempty"`
}

// Unquotable is a page that produced no chunks, with the reason; or,
// with BBox, one block of the page (its box in PDF points, as a chunk's
// bbox) whose text cannot be quoted while the rest of the page can.
type Unquotable struct {
	Page   int         `yaml:"page"`
	Reason string      `yaml:"reason"`
	BBox   *[4]float64 `yaml:"bbox,omitempty,flow"`
}

// Meta is the metadata provenance summary.
type Meta struct {
	Sources    []string `yaml:"sources"`
	Reconciled bool     `yaml:"reconciled"`
	Warnings   []string `yaml:"warnings"`
}

// Citation is one pre-rendered citation.
type Citation struct {
	Style string // heading text: "APA", "MLA", "Chicago", "IEEE", "BibTeX"
	Text  string // rendered citation; BibTeX without the code fence
}

// Note is a parsed wiki note.
type Note struct {
	Front     Frontmatter
	Citations []Citation
	Chunks    []chunk.Chunk
}

// Citation returns the citation for style (case-insensitive), and whether
// the note has it.
func (n *Note) Citation(style string) (string, bool) {
	for _, c := range n.Citations {
		if strings.EqualFold(c.Style, style) {
			return c.Text, true
		}
	}
	return "", false
}

// ParseError reports a malformed note; Line is 1-based (0 when unknown).
type ParseError struct {
	Line int
	Err  error
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %v", e.Line, e.Err)
	}
	return e.Err.Error()
}

func (e *ParseError) Unwrap() error { return e.Err }

// ErrNoFrontmatter is returned (inside a *ParseError) for markdown files
// that do not start with a "---" frontmatter block: not a crossmem note.
var ErrNoFrontmatter = errors.New("no YAML frontmatter: not a crossmem wiki note")

// Heading is the note's first heading: its title, or, for a paper that
// gives none (title ""), its cite key marked "(no title)" — never the key
// passed off as a title.
func Heading(f *Frontmatter) string {
	if strings.TrimSpace(f.Title) == "" {
		return oneLine(f.CiteKey) + " (no title)"
	}
	return oneLine(f.Title)
}

// Format renders a note. The output is deterministic: the same Note gives
// the same bytes.
func Format(n *Note) ([]byte, error) {
	var b bytes.Buffer
	fm, err := formatFrontmatter(&n.Front)
	if err != nil {
		return nil, err
	}
	b.WriteString("---\n")
	b.Write(fm)
	b.WriteString("---\n\n")
	b.WriteString("# " + Heading(&n.Front) + "\n\n")
	b.WriteString("## Citations\n\n")
	for _, c := range n.Citations {
		b.WriteString("### " + c.Style + "\n\n")
		if strings.EqualFold(c.Style, "BibTeX") {
			b.WriteString("```bibtex\n" + strings.TrimRight(c.Text, "\n") + "\n```\n\n")
		} else {
			b.WriteString(oneLine(c.Text) + "\n\n")
		}
	}
	b.WriteString("## Chunks\n")
	for i := range n.Chunks {
		c := &n.Chunks[i]
		b.WriteString("\n")
		fmt.Fprintf(&b, "<!-- chunk id=%s type=%s -->\n", c.ID, c.Type)
		lines := strings.Split(c.Text, "\n")
		switch {
		case c.Type == chunk.TypeFigure && c.Text == "":
			lines = nil
		case c.Type == chunk.TypeTable:
			lines = chunk.TableMarkdown(c.Text)
		}
		for _, line := range lines {
			if line == "" {
				b.WriteString(">\n")
			} else {
				b.WriteString("> " + line + "\n")
			}
		}
		b.WriteString("\n")
		if c.Image != "" {
			// The figure's crop, as a markdown image relative to the note
			// (notes are in <home>/wiki, crops in <home>/raw/figs).
			alt := c.Label
			if alt == "" {
				alt = "figure"
			}
			b.WriteString("![" + strings.NewReplacer("[", "(", "]", ")").Replace(oneLine(alt)) + "](../" + c.Image + ")\n\n")
		}
		if c.Paraphrase != "" {
			b.WriteString("**Paraphrase:** " + oneLine(c.Paraphrase) + "\n")
		}
		if c.Implication != "" {
			b.WriteString("**Implication:** " + oneLine(c.Implication) + "\n")
		}
		if c.Paraphrase != "" || c.Implication != "" {
			b.WriteString("\n")
		}
		if c.Media != nil {
			formatMedia(&b, c)
			continue
		}
		b.WriteString("```yaml\nprovenance:\n")
		fmt.Fprintf(&b, "  page: %d\n", c.Page)
		if c.PageLabel != "" {
			fmt.Fprintf(&b, "  page_label: %s\n", quote(c.PageLabel))
		}
		fmt.Fprintf(&b, "  section: %s\n", quote(c.Section))
		if len(c.SectionPath) > 0 {
			parts := make([]string, len(c.SectionPath))
			for i, s := range c.SectionPath {
				parts[i] = quote(s)
			}
			fmt.Fprintf(&b, "  section_path: [%s]\n", strings.Join(parts, ", "))
		}
		fmt.Fprintf(&b, "  bbox: [%s, %s, %s, %s]\n", num(c.BBox[0]), num(c.BBox[1]), num(c.BBox[2]), num(c.BBox[3]))
		fmt.Fprintf(&b, "  text_sha256: %s\n", quote(c.TextSHA256))
		fmt.Fprintf(&b, "  byte_range: [%d, %d]\n", c.ByteRange[0], c.ByteRange[1])
		if c.Continues != "" {
			fmt.Fprintf(&b, "  continues: %s\n", quote(c.Continues))
		}
		for _, f := range [][2]string{{"label", c.Label}, {"caption_of", c.CaptionOf}, {"float", c.Float}, {"caption", c.Caption}} {
			if f[1] != "" {
				fmt.Fprintf(&b, "  %s: %s\n", f[0], quote(f[1]))
			}
		}
		if cb := c.CaptionBBox; cb != nil {
			fmt.Fprintf(&b, "  caption_bbox: [%s, %s, %s, %s]\n", num(cb[0]), num(cb[1]), num(cb[2]), num(cb[3]))
		}
		if c.Image != "" {
			fmt.Fprintf(&b, "  image: %s\n", quote(c.Image))
			fmt.Fprintf(&b, "  image_sha256: %s\n", quote(c.ImageSHA256))
		}
		if c.AltText != "" {
			fmt.Fprintf(&b, "  alt_text: %s\n", quote(oneLine(c.AltText)))
		}
		b.WriteString("```\n")
	}
	return b.Bytes(), nil
}

// formatMedia writes the slide text, the source link and the provenance
// block of a talk's chunk.
func formatMedia(b *bytes.Buffer, c *chunk.Chunk) {
	m := c.Media
	if m.SlideOCR != "" {
		b.WriteString(SlideOCRLabel + " " + oneLine(m.SlideOCR) + "\n")
	}
	if m.Link != "" {
		fmt.Fprintf(b, "%s [%s](%s)\n", SourceLabel, search.Clock(m.StartMS)+"–"+search.Clock(m.EndMS), strings.ReplaceAll(oneLine(m.Link), ")", "%29"))
	}
	b.WriteString("\n```yaml\nprovenance:\n")
	fmt.Fprintf(b, "  start_ms: %d\n", m.StartMS)
	fmt.Fprintf(b, "  end_ms: %d\n", m.EndMS)
	fmt.Fprintf(b, "  link: %s\n", quote(m.Link))
	fmt.Fprintf(b, "  section: %s\n", quote(c.Section))
	if len(c.SectionPath) > 0 {
		parts := make([]string, len(c.SectionPath))
		for i, s := range c.SectionPath {
			parts[i] = quote(s)
		}
		fmt.Fprintf(b, "  section_path: [%s]\n", strings.Join(parts, ", "))
	}
	if len(m.Keyframes) > 0 {
		parts := make([]string, len(m.Keyframes))
		for i, s := range m.Keyframes {
			parts[i] = quote(s)
		}
		fmt.Fprintf(b, "  keyframes: [%s]\n", strings.Join(parts, ", "))
	}
	fmt.Fprintf(b, "  transcript: %s\n", quote(m.Transcript))
	if m.ASRModel != "" {
		fmt.Fprintf(b, "  asr_model: %s\n", quote(m.ASRModel))
	}
	fmt.Fprintf(b, "  text_sha256: %s\n", quote(c.TextSHA256))
	fmt.Fprintf(b, "  byte_range: [%d, %d]\n", c.ByteRange[0], c.ByteRange[1])
	b.WriteString("```\n")
}

// SlideOCRLabel and SourceLabel open the lines of a talk's chunk that
// hold the text OCR read on its slides (never quoted) and the link to its
// time in the recording.
const (
	SlideOCRLabel = "**Slide OCR:**"
	SourceLabel   = "**Source:**"
)

// oneLine collapses all whitespace, including line breaks, to single
// spaces so that free text cannot start a line that Parse would read as
// structure.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func num(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }

// quote renders s as a YAML double-quoted scalar.
func quote(s string) string {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s, Style: yaml.DoubleQuotedStyle}
	out, err := yaml.Marshal(n)
	if err != nil {
		return strconv.Quote(s)
	}
	return strings.TrimRight(string(out), "\n")
}

func formatFrontmatter(f *Frontmatter) ([]byte, error) {
	g := *f
	if g.Authors == nil {
		g.Authors = []string{}
	}
	if g.UnquotablePages == nil {
		g.UnquotablePages = []Unquotable{}
	}
	if g.Meta.Sources == nil {
		g.Meta.Sources = []string{}
	}
	if g.Meta.Warnings == nil {
		g.Meta.Warnings = []string{}
	}
	var node yaml.Node
	if err := node.Encode(&g); err != nil {
		return nil, fmt.Errorf("encode frontmatter: %w", err)
	}
	styleStrings(&node, false)
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&node); err != nil {
		return nil, fmt.Errorf("encode frontmatter: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// styleStrings double-quotes every string value (not keys) and writes
// lists of scalars in flow style, as the seed's examples do; lists of
// authors stay in block style.
func styleStrings(n *yaml.Node, isKey bool) {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			styleStrings(c, false)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if v.Kind == yaml.SequenceNode && k.Value != "authors" && k.Value != "unquotable_pages" && k.Value != "warnings" {
				v.Style = yaml.FlowStyle
			}
			styleStrings(v, false)
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			styleStrings(c, false)
		}
	case yaml.ScalarNode:
		if !isKey && n.Tag == "!!str" {
			n.Style = yaml.DoubleQuotedStyle
		}
	}
}
