package note

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/crossmem/crossmem/internal/chunk"
)

var chunkComment = regexp.MustCompile(`^<!-- chunk id=([A-Za-z0-9_.-]+)(?: type=([a-z_-]+))? -->$`)

type provenance struct {
	Provenance struct {
		Page        int       `yaml:"page"`
		PageLabel   string    `yaml:"page_label"`
		Section     string    `yaml:"section"`
		SectionPath []string  `yaml:"section_path"`
		BBox        []float64 `yaml:"bbox"`
		TextSHA256  string    `yaml:"text_sha256"`
		ByteRange   []int     `yaml:"byte_range"`
		Continues   string    `yaml:"continues"`
		// A talk's chunk (chunk.Media).
		StartMS     *int64    `yaml:"start_ms"`
		EndMS       int64     `yaml:"end_ms"`
		Link        string    `yaml:"link"`
		Keyframes   []string  `yaml:"keyframes"`
		Transcript  string    `yaml:"transcript"`
		ASRModel    string    `yaml:"asr_model"`
		Label       string    `yaml:"label"`
		CaptionOf   string    `yaml:"caption_of"`
		Float       string    `yaml:"float"`
		Caption     string    `yaml:"caption"`
		CaptionBBox []float64 `yaml:"caption_bbox"`
		Image       string    `yaml:"image"`
		ImageSHA256 string    `yaml:"image_sha256"`
		AltText     string    `yaml:"alt_text"`
	} `yaml:"provenance"`
}

// splitFrontmatter returns the YAML between the leading "---" lines, the
// rest of the file, and the 1-based line number where the rest starts.
func splitFrontmatter(data []byte) (fm []byte, body []string, bodyLine int, err error) {
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	lines := strings.Split(text, "\n")
	if len(lines) == 0 || strings.TrimRight(lines[0], " ") != "---" {
		return nil, nil, 0, &ParseError{Line: 1, Err: ErrNoFrontmatter}
	}
	for i := 1; i < len(lines); i++ {
		if strings.TrimRight(lines[i], " ") == "---" {
			return []byte(strings.Join(lines[1:i], "\n")), lines[i+1:], i + 2, nil
		}
	}
	return nil, nil, 0, &ParseError{Line: 1, Err: errors.New("frontmatter is not closed by a \"---\" line")}
}

// ParseFrontmatter reads only the frontmatter of a note. It returns a
// *ParseError wrapping ErrNoFrontmatter for markdown that is not a note, and
// a *ParseError when the YAML is malformed or cite_key is missing.
func ParseFrontmatter(data []byte) (*Frontmatter, error) {
	fm, _, _, err := splitFrontmatter(data)
	if err != nil {
		return nil, err
	}
	return decodeFrontmatter(fm)
}

func decodeFrontmatter(fm []byte) (*Frontmatter, error) {
	var f Frontmatter
	if err := yaml.Unmarshal(fm, &f); err != nil {
		return nil, &ParseError{Line: 2, Err: fmt.Errorf("frontmatter: %w", err)}
	}
	if f.CiteKey == "" {
		return nil, &ParseError{Line: 2, Err: errors.New("frontmatter has no cite_key: not a crossmem wiki note")}
	}
	return &f, nil
}

// Parse reads a note written by Format (or edited by hand). It returns a
// *ParseError with the line number for structure it cannot read.
func Parse(data []byte) (*Note, error) {
	fm, lines, first, err := splitFrontmatter(data)
	if err != nil {
		return nil, err
	}
	front, err := decodeFrontmatter(fm)
	if err != nil {
		return nil, err
	}
	n := &Note{Front: *front}
	p := parser{lines: lines, first: first, note: n}
	if err := p.run(); err != nil {
		return nil, err
	}
	return n, nil
}

type parser struct {
	lines []string
	first int // line number of lines[0]
	i     int
	note  *Note
}

func (p *parser) errf(format string, args ...any) error {
	return &ParseError{Line: p.first + p.i, Err: fmt.Errorf(format, args...)}
}

func (p *parser) run() error {
	section := ""
	for p.i < len(p.lines) {
		line := p.lines[p.i]
		switch {
		case strings.HasPrefix(line, "## "):
			section = strings.TrimSpace(line[3:])
			p.i++
		case section == "Citations" && strings.HasPrefix(line, "### "):
			p.citation(strings.TrimSpace(line[4:]))
		case section == "Chunks" && strings.HasPrefix(line, "<!-- chunk "):
			if err := p.chunk(); err != nil {
				return err
			}
		default:
			p.i++
		}
	}
	return nil
}

func (p *parser) citation(style string) {
	p.i++
	var body []string
	for p.i < len(p.lines) && !strings.HasPrefix(p.lines[p.i], "#") {
		body = append(body, p.lines[p.i])
		p.i++
	}
	text := strings.TrimSpace(strings.Join(body, "\n"))
	if strings.HasPrefix(text, "```") {
		text = strings.TrimPrefix(text, "```bibtex")
		text = strings.TrimPrefix(text, "```")
		text = strings.TrimSuffix(text, "```")
		text = strings.TrimSpace(text)
	}
	p.note.Citations = append(p.note.Citations, Citation{Style: style, Text: text})
}

func (p *parser) chunk() error {
	m := chunkComment.FindStringSubmatch(p.lines[p.i])
	if m == nil {
		return p.errf("malformed chunk comment %q (want <!-- chunk id=... type=... -->)", p.lines[p.i])
	}
	c := chunk.Chunk{ID: m[1], Type: m[2]}
	if c.Type == "" {
		c.Type = chunk.TypeParagraph
	}
	p.i++
	var text []string
	for p.i < len(p.lines) && strings.HasPrefix(p.lines[p.i], ">") {
		l := p.lines[p.i]
		switch {
		case l == ">":
			text = append(text, "")
		case strings.HasPrefix(l, "> "):
			text = append(text, l[2:])
		default:
			text = append(text, l[1:])
		}
		p.i++
	}
	if len(text) == 0 && c.Type != chunk.TypeFigure {
		return p.errf("chunk %s has no \"> \" text lines", c.ID)
	}
	c.Text = strings.Join(text, "\n")
	ocr := ""
	if c.Type == chunk.TypeTable {
		if t, ok := chunk.ParseTableMarkdown(text); ok {
			c.Text = t
		}
	}
	for p.i < len(p.lines) {
		l := p.lines[p.i]
		switch {
		case strings.TrimSpace(l) == "":
			p.i++
		case strings.HasPrefix(l, "![") && c.Type == chunk.TypeFigure:
			p.i++ // the crop's image link; the provenance's image is the record
		case strings.HasPrefix(l, "**Paraphrase:**"):
			c.Paraphrase = strings.TrimSpace(strings.TrimPrefix(l, "**Paraphrase:**"))
			p.i++
		case strings.HasPrefix(l, "**Implication:**"):
			c.Implication = strings.TrimSpace(strings.TrimPrefix(l, "**Implication:**"))
			p.i++
		case strings.HasPrefix(l, SlideOCRLabel):
			ocr = strings.TrimSpace(strings.TrimPrefix(l, SlideOCRLabel))
			p.i++
		case strings.HasPrefix(l, SourceLabel):
			p.i++ // derived from the provenance's link
		case strings.HasPrefix(l, "```yaml"):
			if err := p.provenance(&c); err != nil {
				return err
			}
			if c.Media != nil {
				c.Media.SlideOCR = ocr
			}
			p.note.Chunks = append(p.note.Chunks, c)
			return nil
		default:
			return p.errf("chunk %s: unexpected line %q before its provenance block", c.ID, l)
		}
	}
	return p.errf("chunk %s has no provenance block", c.ID)
}

func (p *parser) provenance(c *chunk.Chunk) error {
	start := p.i
	p.i++
	var body []string
	for p.i < len(p.lines) && strings.TrimSpace(p.lines[p.i]) != "```" {
		body = append(body, p.lines[p.i])
		p.i++
	}
	if p.i >= len(p.lines) {
		p.i = start
		return p.errf("chunk %s: provenance block is not closed by ```", c.ID)
	}
	p.i++
	if fastProvenance(body, c) {
		return nil
	}
	var pv provenance
	dec := yaml.NewDecoder(bytes.NewReader([]byte(strings.Join(body, "\n"))))
	if err := dec.Decode(&pv); err != nil {
		p.i = start
		return p.errf("chunk %s: provenance: %v", c.ID, err)
	}
	v := pv.Provenance
	c.Page = v.Page
	c.PageLabel = v.PageLabel
	c.Section = v.Section
	c.SectionPath = v.SectionPath
	c.Continues = v.Continues
	c.Label, c.CaptionOf, c.Float, c.Caption = v.Label, v.CaptionOf, v.Float, v.Caption
	c.Image, c.ImageSHA256, c.AltText = v.Image, v.ImageSHA256, v.AltText
	if len(v.CaptionBBox) == 4 {
		var cb [4]float64
		copy(cb[:], v.CaptionBBox)
		c.CaptionBBox = &cb
	} else if v.CaptionBBox != nil {
		p.i = start
		return p.errf("chunk %s: caption_bbox must have 4 numbers, has %d", c.ID, len(v.CaptionBBox))
	}
	c.TextSHA256 = v.TextSHA256
	if len(v.BBox) == 4 {
		copy(c.BBox[:], v.BBox)
	} else if v.BBox != nil {
		p.i = start
		return p.errf("chunk %s: bbox must have 4 numbers, has %d", c.ID, len(v.BBox))
	}
	if len(v.ByteRange) == 2 {
		c.ByteRange = [2]int{v.ByteRange[0], v.ByteRange[1]}
	} else if v.ByteRange != nil {
		p.i = start
		return p.errf("chunk %s: byte_range must have 2 numbers, has %d", c.ID, len(v.ByteRange))
	}
	if c.TextSHA256 == "" {
		p.i = start
		return p.errf("chunk %s: provenance has no text_sha256", c.ID)
	}
	if v.StartMS != nil {
		c.Media = &chunk.Media{StartMS: *v.StartMS, EndMS: v.EndMS, Link: v.Link, Keyframes: v.Keyframes, Transcript: v.Transcript, ASRModel: v.ASRModel}
	}
	return nil
}

// fastProvenance reads a provenance block in exactly the layout Format
// writes (its lines in its order, strings without escapes) without the YAML
// decoder, which dominates the time to read a large library's notes.
// Anything else returns false and is read by the YAML decoder.
func fastProvenance(body []string, c *chunk.Chunk) bool {
	if len(body) < 6 || body[0] != "provenance:" {
		return false
	}
	var v chunk.Chunk
	k := 0
	for _, line := range body[1:] {
		rest, ok := strings.CutPrefix(line, "  ")
		if !ok {
			return false
		}
		name, val, ok := strings.Cut(rest, ": ")
		if !ok {
			return false
		}
		for k < len(fastFields) && fastFields[k].name != name {
			if !fastFields[k].optional {
				return false
			}
			k++
		}
		if k == len(fastFields) || !fastFields[k].read(val, &v) {
			return false
		}
		k++
	}
	for ; k < len(fastFields); k++ {
		if !fastFields[k].optional {
			return false
		}
	}
	c.Page, c.PageLabel, c.Section, c.SectionPath = v.Page, v.PageLabel, v.Section, v.SectionPath
	c.BBox, c.TextSHA256, c.ByteRange, c.Continues = v.BBox, v.TextSHA256, v.ByteRange, v.Continues
	c.Label, c.CaptionOf, c.Float, c.Caption, c.CaptionBBox = v.Label, v.CaptionOf, v.Float, v.Caption, v.CaptionBBox
	c.Image, c.ImageSHA256, c.AltText = v.Image, v.ImageSHA256, v.AltText
	return true
}

// fastField is a provenance key fastProvenance reads: whether Format may
// leave it out, and how its value is read into a chunk (false: the value
// is not in Format's layout, and the YAML decoder reads the block).
type fastField struct {
	name     string
	optional bool
	read     func(val string, v *chunk.Chunk) bool
}

// fastFields are the provenance keys of a paper's chunk in the order
// Format writes them: the one table of what fastProvenance reads.
var fastFields = []fastField{
	{"page", false, func(val string, v *chunk.Chunk) bool {
		pg, err := strconv.Atoi(val)
		v.Page = pg
		return err == nil
	}},
	{"page_label", true, plainField(func(v *chunk.Chunk, s string) { v.PageLabel = s })},
	{"section", false, plainField(func(v *chunk.Chunk, s string) { v.Section = s })},
	{"section_path", true, func(val string, v *chunk.Chunk) bool {
		inner, ok := strings.CutPrefix(val, "[")
		if !ok {
			return false
		}
		if inner, ok = strings.CutSuffix(inner, "]"); !ok || inner == "" {
			return false
		}
		for _, part := range strings.Split(inner, ", ") {
			s, ok := plainString(part)
			if !ok {
				return false
			}
			v.SectionPath = append(v.SectionPath, s)
		}
		return true
	}},
	{"bbox", false, func(val string, v *chunk.Chunk) bool {
		bb, ok := plainNumbers(val, 4)
		if ok {
			copy(v.BBox[:], bb)
		}
		return ok
	}},
	{"text_sha256", false, func(val string, v *chunk.Chunk) bool {
		if len(val) != 66 || val[0] != '"' || val[65] != '"' {
			return false
		}
		v.TextSHA256 = val[1:65]
		return true
	}},
	{"byte_range", false, func(val string, v *chunk.Chunk) bool {
		r, ok := plainNumbers(val, 2)
		if !ok || r[0] != float64(int(r[0])) || r[1] != float64(int(r[1])) {
			return false
		}
		v.ByteRange = [2]int{int(r[0]), int(r[1])}
		return true
	}},
	{"continues", true, plainField(func(v *chunk.Chunk, s string) { v.Continues = s })},
	{"label", true, plainField(func(v *chunk.Chunk, s string) { v.Label = s })},
	{"caption_of", true, plainField(func(v *chunk.Chunk, s string) { v.CaptionOf = s })},
	{"float", true, plainField(func(v *chunk.Chunk, s string) { v.Float = s })},
	{"caption", true, plainField(func(v *chunk.Chunk, s string) { v.Caption = s })},
	{"caption_bbox", true, func(val string, v *chunk.Chunk) bool {
		bb, ok := plainNumbers(val, 4)
		if ok {
			var cb [4]float64
			copy(cb[:], bb)
			v.CaptionBBox = &cb
		}
		return ok
	}},
	{"image", true, plainField(func(v *chunk.Chunk, s string) { v.Image = s })},
	{"image_sha256", true, plainField(func(v *chunk.Chunk, s string) { v.ImageSHA256 = s })},
	{"alt_text", true, plainField(func(v *chunk.Chunk, s string) { v.AltText = s })},
}

// plainField reads a double-quoted string without escapes into a chunk
// with set.
func plainField(set func(v *chunk.Chunk, s string)) func(string, *chunk.Chunk) bool {
	return func(val string, v *chunk.Chunk) bool {
		s, ok := plainString(val)
		if ok {
			set(v, s)
		}
		return ok
	}
}

// plainString returns the inside of a double-quoted YAML string that holds
// no quote or backslash (so no escapes): as Format writes most strings.
func plainString(s string) (string, bool) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' || strings.ContainsAny(s[1:len(s)-1], `"\`) {
		return "", false
	}
	return s[1 : len(s)-1], true
}

// plainNumbers reads a flow sequence of n finite decimal numbers ("[72,
// 100.5, 540, 200]") as Format writes them.
func plainNumbers(s string, n int) ([]float64, bool) {
	inner, ok := strings.CutPrefix(s, "[")
	if !ok {
		return nil, false
	}
	if inner, ok = strings.CutSuffix(inner, "]"); !ok {
		return nil, false
	}
	parts := strings.Split(inner, ", ")
	if len(parts) != n {
		return nil, false
	}
	out := make([]float64, n)
	for i, p := range parts {
		f, err := strconv.ParseFloat(p, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || strings.ContainsAny(p, "xXpP_") {
			return nil, false
		}
		out[i] = f
	}
	return out, true
}
