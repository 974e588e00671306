// Package chunk turns laid-out pages into the quotable chunks of a wiki
// note, each with its provenance: page, section, bbox, SHA-256 of the text
// and byte range.
//
// It is pure: no I/O. Chunk text is exactly the text internal/layout
// produced for a block (see the text policy in that package and in
// docs/wiki-format.md); this package never changes it.
package chunk

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/crossmem/crossmem/internal/layout"
	"github.com/crossmem/crossmem/internal/pdf"
	"github.com/crossmem/crossmem/internal/roman"
)

// Chunk types: the block kinds of internal/layout.
const (
	TypeHeading   = string(layout.Heading)
	TypeParagraph = string(layout.Paragraph)
	// TypeFigure is a figure: its text is its caption (empty when the
	// figure has none on its page), its bbox the figure's region, with
	// the crop's PNG (Image). TypeTable is a table: its text the
	// canonical form of its cells (TableText). TypeCaption is a caption
	// that is not its float's own text: a table's, a listing's, or a
	// figure's printed on another page.
	TypeFigure    = string(layout.Figure)
	TypeTable     = string(layout.Table)
	TypeCaption   = string(layout.Caption)
	TypeListItem  = string(layout.ListItem)
	TypeFootnote  = string(layout.Footnote)
	TypeReference = string(layout.Reference) // one bibliography entry
	// TypeFigureText is the text drawn inside a figure (labels, legends),
	// one chunk per figure. TypeTableText is no longer written (a table is
	// one TypeTable chunk); notes of earlier versions hold it.
	TypeTableText  = string(layout.TableText)
	TypeFigureText = string(layout.FigureText)
	// TypeEquation is a display equation, TypeCode a code listing.
	TypeEquation = string(layout.Equation)
	TypeCode     = string(layout.Code)
	// TypePageHeader, TypePageFooter and TypeMarginNote are page
	// furniture: running heads, page numbers, banners and stamps.
	TypePageHeader = string(layout.PageHeader)
	TypePageFooter = string(layout.PageFooter)
	TypeMarginNote = string(layout.MarginNote)
)

// IsFurniture reports whether a chunk type is page furniture, which search
// leaves out unless asked.
func IsFurniture(typ string) bool { return layout.Kind(typ).Furniture() }

// PageSeparator joins the texts of a page's chunks into the page text that
// byte ranges index.
const PageSeparator = "\n\n"

// Chunk is one quotable unit of a paper.
type Chunk struct {
	// ID is "p{page}s{section}c{n}": page number, section label (the
	// section number without dots, lower-case, e.g. "32" for 3.2, "a1" for
	// A.1, "0" before the first numbered section or in an unnumbered one)
	// and a 1-based counter, unique within the note.
	ID   string
	Type string
	// Text is the verbatim text: lines joined by "\n"; never empty except
	// for a figure without a caption on its page. A table's is the
	// canonical form of its cells (TableText).
	Text string
	// Page is the 1-based page number.
	Page int
	// PageLabel is the page's printed label as the PDF declares it
	// (/PageLabels: "46", "xii", "A-3"); "" when the PDF declares none.
	PageLabel string
	// Section is the title of the innermost section the chunk is in (a
	// heading's own text for heading chunks); "" before any heading.
	Section string
	// SectionPath holds the titles of the sections the chunk is in, from
	// the outermost to the innermost (the last is Section); nil before any
	// heading.
	SectionPath []string
	// BBox is [x0, y0, x1, y1] in PDF points, origin at the bottom-left
	// corner of the page's CropBox, y growing upward.
	BBox [4]float64
	// TextSHA256 is the lower-case hex SHA-256 of Text's UTF-8 bytes.
	TextSHA256 string
	// ByteRange is [start, end): the UTF-8 byte offsets of Text within
	// the page text, which is the page's chunk texts in note order joined
	// by PageSeparator.
	ByteRange [2]int
	// Continues is the ID of the chunk this one continues when a column or
	// page break cuts a paragraph in two (the earlier chunk ends
	// mid-sentence); "" otherwise. A quotation may span the two.
	Continues string
	// Label is a caption's label as printed ("Figure 1-2", "Table IV") on
	// figure and caption chunks, an equation's number ("(3)", not part of
	// Text) on equation chunks; "" otherwise.
	Label string
	// CaptionOf is what a caption chunk captions: "figure", "table" or
	// "code"; "" on other chunks.
	CaptionOf string
	// Float is, on a caption or figure_text chunk, the ID of the figure,
	// table or code chunk it belongs to; "" when none was found.
	Float string
	// Caption is, on a figure, table or code chunk, the ID of its caption
	// chunk when that is a chunk of its own (a figure's caption on its own
	// page is the figure chunk's text); "" otherwise.
	Caption string
	// CaptionBBox is a figure chunk's caption box (PDF points, as BBox);
	// nil when the caption is not on the figure's page.
	CaptionBBox *[4]float64
	// Image is a figure chunk's crop: a PNG path relative to the library
	// home ("raw/figs/{cite_key}_fig{N}.png"), and ImageSHA256 the
	// lower-case hex SHA-256 of the PNG's bytes. Set by compile; "" until
	// then.
	Image, ImageSHA256 string
	// AltText is, on an equation chunk of a tagged PDF, what its
	// producer says the formula reads (the Formula element's /ActualText,
	// else /Alt, e.g. LaTeX source or MathML-derived text): a labelled
	// description, never quoted, not part of Text or TextSHA256; "" when
	// the PDF says nothing.
	AltText string
	// Paraphrase and Implication are advisory text written by a language
	// model; empty when none was generated. They are never quoted.
	Paraphrase  string
	Implication string
	// Media is the provenance of a chunk of a talk (a recording) in
	// place of page and bbox; nil for a paper's chunks.
	Media *Media
}

// TypeTranscript is the type of a talk's chunks: what was said during a
// time range, as the transcript (Media.Transcript) gives it.
const TypeTranscript = "transcript"

// Transcript kinds (Media.Transcript).
const (
	// TranscriptSubtitles: human-made subtitles (uploaded with the video,
	// or given with --subs), quoted as written.
	TranscriptSubtitles = "subtitles"
	// TranscriptASR: a speech recognition model's transcript (whisper.cpp,
	// a site's automatic captions): the model's hearing of the talk, not
	// the speaker's verbatim words. Media.ASRModel names the model.
	TranscriptASR = "asr"
)

// Media is where a talk's chunk is in the recording and how its text was
// made. Times are milliseconds from the start of the recording.
type Media struct {
	// StartMS and EndMS bound the chunk: [StartMS, EndMS).
	StartMS, EndMS int64
	// Link opens the recording at StartMS (rounded down to the second):
	// https://youtu.be/{id}?t={s} for YouTube, the page URL with #t={s}
	// for other sites, and for a local recording its library copy,
	// relative to the library home, with #t={s}.
	Link string
	// Keyframes are PNG images of the video in this time range (scene
	// cuts and chapter starts), relative to the library home.
	Keyframes []string
	// SlideOCR is the text tesseract read from the keyframes, one line:
	// searchable, labelled OCR, never quotable as speech.
	SlideOCR string
	// Transcript is TranscriptSubtitles or TranscriptASR.
	Transcript string
	// ASRModel names the speech recognition model of an ASR transcript
	// ("whisper.cpp ggml-base.en.bin", "YouTube automatic captions").
	ASRModel string
}

// Hash returns the lower-case hex SHA-256 of text.
func Hash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// Unquotable records a page, or a block of a page, that produced no
// quotable chunks and why.
type Unquotable struct {
	Page   int
	Reason string
	// BBox is the block's box (PDF points, as Chunk.BBox) when only a
	// block of the page is not quotable (AssessBlock); nil for the whole
	// page.
	BBox *[4]float64
}

// Result is the chunking of a whole document.
type Result struct {
	Chunks     []Chunk
	Unquotable []Unquotable
	Pages      int
}

// Build chunks laid-out pages (in page order). Pages that Assess rejects,
// and blocks that AssessBlock rejects, contribute no chunks and are listed
// in Result.Unquotable (a block with its box). A block that
// opens a section (layout.Block.Section) starts it: the section path keeps
// the enclosing sections of lower level.
//
// Floats (layout.Float) become chunks of their own: a figure is a figure
// chunk at its caption's place (text: the caption) or, without a caption
// on its page, before the text drawn inside it (text: empty); a table is
// a table chunk whose text is TableText of its cells; captions that are
// not a figure's own text are caption chunks. Equation numbers become
// Label. Links between them (Float, Caption) are chunk IDs.
func Build(pages []*layout.Page) Result {
	res := Result{Pages: len(pages)}
	var stack []section // open sections, outermost first
	counters := map[string]int{}
	var prevBody string // id of the last body chunk, for Continues
	blockID := map[*layout.Block]string{}
	floatChunk := map[*layout.Float]int{}
	// captions are the caption chunks to link to their floats: the
	// chunk's index and its float.
	type captionLink struct {
		i int
		f *layout.Float
	}
	var captions []captionLink
	for _, p := range pages {
		if ok, reason := Assess(p); !ok {
			res.Unquotable = append(res.Unquotable, Unquotable{Page: p.Number, Reason: reason})
			prevBody = ""
			continue
		}
		offset := 0
		first := true
		onPage := map[*layout.Float]bool{}
		for _, f := range p.Floats {
			onPage[f] = true
		}
		emitted := map[*layout.Float]bool{}
		onThisPage := map[*layout.Block]bool{}
		for _, b := range p.Blocks {
			onThisPage[b] = true
		}
		add := func(b *layout.Block, c Chunk) {
			if b != nil && b.Section != nil && !b.Kind.Furniture() {
				// The section just left decides whether "A Title"
				// numbers an appendix: after the references it does,
				// even though the references are no enclosing section.
				var last section
				if len(stack) > 0 {
					last = stack[len(stack)-1]
				}
				for len(stack) > 0 && stack[len(stack)-1].level >= b.Section.Level {
					stack = stack[:len(stack)-1]
				}
				var outer section
				if len(stack) > 0 {
					outer = stack[len(stack)-1]
				}
				next := outer.enter(b.Section.Title, last.inBackMatter())
				next.level = b.Section.Level
				stack = append(stack, next)
			}
			label := "0"
			var path []string
			for _, s := range stack {
				path = append(path, s.title)
			}
			if n := len(stack); n > 0 {
				label = stack[n-1].label
			}
			prefix := fmt.Sprintf("p%ds%s", p.Number, label)
			counters[prefix]++
			if !first {
				offset += len(PageSeparator)
			}
			first = false
			c.ID = fmt.Sprintf("%sc%d", prefix, counters[prefix])
			c.Page = p.Number
			c.PageLabel = p.Label
			c.SectionPath = path
			c.TextSHA256 = Hash(c.Text)
			c.ByteRange = [2]int{offset, offset + len(c.Text)}
			if len(path) > 0 {
				c.Section = path[len(path)-1]
			}
			if b != nil && b.Continues {
				if id, ok := blockID[b.Prev]; ok {
					c.Continues = id
				} else if prevBody != "" {
					c.Continues = prevBody
				}
			}
			if b != nil {
				blockID[b] = c.ID
			}
			if b != nil && !b.Kind.Furniture() && !b.Rotated && b.Kind != layout.Heading && !isFloatType(c.Type) {
				prevBody = c.ID
			}
			offset += len(c.Text)
			res.Chunks = append(res.Chunks, c)
		}
		// figure emits an uncaptioned figure (or one whose caption is on
		// another page) once.
		// A figure whose caption is on the page is emitted with the
		// caption's text, wherever comes first.
		figure := func(f *layout.Float) {
			if emitted[f] || f.Kind != layout.Figure {
				return
			}
			emitted[f] = true
			floatChunk[f] = len(res.Chunks)
			if b := f.Caption; b != nil && onThisPage[b] && b.Kind == layout.Figure && Quotable(b.Text()) && assessed(b) {
				cb := box(b.Box)
				add(b, Chunk{Type: TypeFigure, Text: b.Text(), BBox: box(f.Box), Label: b.Label, CaptionBBox: &cb})
				return
			}
			add(nil, Chunk{Type: TypeFigure, BBox: box(f.Box)})
		}
		for _, b := range p.Blocks {
			text := b.Text()
			if text == "" || !Quotable(text) {
				continue
			}
			if ok, reason := AssessBlock(b); !ok {
				bb := box(b.Box)
				res.Unquotable = append(res.Unquotable, Unquotable{Page: p.Number, Reason: reason, BBox: &bb})
				continue
			}
			f := b.Float
			switch {
			case b.Kind == layout.Figure && f != nil && f.Kind == layout.Figure && onPage[f]:
				figure(f) // (once: the figure's text may have come first)
			case b.Kind == layout.Figure || b.Kind == layout.Table || b.Kind == layout.Caption:
				c := Chunk{Type: TypeCaption, Text: text, BBox: box(b.Box), Label: b.Label, CaptionOf: captionOf(b)}
				if f != nil {
					captions = append(captions, captionLink{len(res.Chunks), f})
				}
				add(b, c)
			case b.Kind == layout.TableText && f != nil && len(f.Cells) > 0 && !emitted[f]:
				emitted[f] = true
				floatChunk[f] = len(res.Chunks)
				add(b, Chunk{Type: TypeTable, Text: TableText(f.Cells), BBox: box(f.Box)})
			case b.Kind == layout.TableText && f != nil && emitted[f]:
				// More text of a table already given (a turned head row
				// read in its own orientation): its own text, linked.
				add(b, Chunk{Type: TypeTableText, Text: text, BBox: box(b.Box), Float: res.Chunks[floatChunk[f]].ID})
			case b.Kind == layout.TableText:
				// A table whose cells could not be read: its text as read.
				add(b, Chunk{Type: TypeTable, Text: text, BBox: box(b.Box)})
			case b.Kind == layout.FigureText && f != nil:
				figure(f)
				add(b, Chunk{Type: TypeFigureText, Text: text, BBox: box(b.Box), Float: res.Chunks[floatChunk[f]].ID})
			case b.Kind == layout.Equation:
				c := Chunk{Type: TypeEquation, BBox: box(b.Box), AltText: b.Alt}
				c.Text, c.Label = equationText(b)
				if c.Text == "" {
					c.Text, c.Label = text, ""
				}
				if f != nil {
					floatChunk[f] = len(res.Chunks) // a display a caption names
				}
				add(b, c)
			case b.Kind == layout.Code && b.Label != "":
				c := Chunk{Type: TypeCode, BBox: box(b.Box)}
				c.Text, c.Label = equationText(b)
				if c.Text == "" {
					c.Text, c.Label = text, ""
				}
				if f != nil {
					floatChunk[f] = len(res.Chunks)
				}
				add(b, c)
			default:
				if b.Kind == layout.Code && f != nil {
					floatChunk[f] = len(res.Chunks)
				}
				add(b, Chunk{Type: string(b.Kind), Text: text, BBox: box(b.Box)})
			}
		}
		for _, f := range p.Floats {
			figure(f)
		}
	}
	// Links between captions and their floats.
	for _, c := range captions {
		j, ok := floatChunk[c.f]
		if !ok {
			continue
		}
		res.Chunks[c.i].Float = res.Chunks[j].ID
		res.Chunks[j].Caption = res.Chunks[c.i].ID
	}
	return res
}

// assessed reports whether AssessBlock accepts b: a figure's caption
// set in a font mapped to symbols is no figure chunk's text (the block is
// listed unquotable where it comes).
func assessed(b *layout.Block) bool {
	ok, _ := AssessBlock(b)
	return ok
}

func box(r pdf.Rect) [4]float64 {
	return [4]float64{round2(r.X0), round2(r.Y0), round2(r.X1), round2(r.Y1)}
}

// isFloatType reports whether chunks of type t are floats or their parts,
// which a paragraph broken by a column never continues into.
func isFloatType(t string) bool {
	switch t {
	case TypeFigure, TypeTable, TypeCaption, TypeFigureText, TypeTableText:
		return true
	}
	return false
}

// captionOf names what a caption block captions: what its label says
// for a figure's or a table's caption ("Figure 3" over a program is a
// figure), else the kind of its float.
func captionOf(b *layout.Block) string {
	k := b.Kind
	if b.Float != nil && k != layout.Figure && k != layout.Table {
		k = b.Float.Kind
	}
	switch k {
	case layout.Figure:
		return "figure"
	case layout.Table:
		return "table"
	}
	return "code"
}

// equationText returns an equation block's text without its number and
// the number: a line that is an equation number alone (layout's
// Block.Label) is left out of the text.
func equationText(b *layout.Block) (text, label string) {
	if b.Label == "" {
		return b.Text(), ""
	}
	var parts, nums []string
	for _, l := range b.Lines {
		if layout.EquationNumber(l.Text) {
			nums = append(nums, l.Text)
			continue
		}
		parts = append(parts, l.Text)
	}
	return strings.Join(parts, "\n"), strings.Join(nums, " ")
}

// Quotable reports whether a block's text has something to quote: a
// letter, a digit, or a symbol other than ASCII punctuation and
// private-use characters. A lone period after a display equation, a dot
// leader or the pieces of a large bracket are not made chunks.
func Quotable(text string) bool {
	for _, r := range text {
		switch {
		case r <= 0x7F && (unicode.IsPunct(r) || unicode.IsSymbol(r) || unicode.IsSpace(r)):
		case unicode.Is(unicode.Co, r), unicode.IsSpace(r):
		default:
			return true
		}
	}
	return false
}

func round2(f float64) float64 {
	if f < 0 {
		return -round2(-f)
	}
	return float64(int64(f*100+0.5)) / 100
}

// section tracks an open section while walking the document.
type section struct {
	title string
	label string // "0" when unnumbered
	major string // label of the enclosing numbered top-level section
	level int
}

var (
	arabicNumber = regexp.MustCompile(`^(\d{1,3}(?:\.\d{1,3})*)\.?\s+\S`)
	letterNumber = regexp.MustCompile(`^([A-Z])(?:\.(\d{1,3}(?:\.\d{1,3})*))?\.?\s+\S`)
	romanNumber  = regexp.MustCompile(`^([IVXLC]{1,6})\.\s+\S`)
	romanDotted  = regexp.MustCompile(`^([IVXLC]{1,6}(?:\.[IVXLC]{1,6})+)\.?\s+\S`)
	appendixName = regexp.MustCompile(`^(?i:appendix)\s+([A-Z])\b`)
)

// enter returns the section state after a heading with the given text,
// inside s; backMatter says the heading follows the references or an
// appendix, where "A Title" numbers an appendix.
func (s section) enter(heading string, backMatter bool) section {
	title := strings.Join(strings.Fields(heading), " ")
	next := section{title: title, label: "0", major: s.major}
	switch {
	case arabicNumber.MatchString(title):
		num := arabicNumber.FindStringSubmatch(title)[1]
		next.label = strings.ReplaceAll(num, ".", "")
		next.major = strings.SplitN(num, ".", 2)[0]
	case romanNumber.MatchString(title) && sectionRoman(romanNumber.FindStringSubmatch(title)[1]) > 0:
		next.label = fmt.Sprint(sectionRoman(romanNumber.FindStringSubmatch(title)[1]))
		next.major = next.label
	case romanDotted.MatchString(title) && romanParts(romanDotted.FindStringSubmatch(title)[1]) != "":
		// "V.I.II Model Implementation": subsection II of I of V.
		next.label = romanParts(romanDotted.FindStringSubmatch(title)[1])
		next.major = strings.SplitN(next.label, ".", 2)[0]
		next.label = strings.ReplaceAll(next.label, ".", "")
	case appendixName.MatchString(title):
		next.label = strings.ToLower(appendixName.FindStringSubmatch(title)[1])
		next.major = next.label
	case letterNumber.MatchString(title) && (title[1] == '.' || backMatter || s.inBackMatter()):
		m := letterNumber.FindStringSubmatch(title)
		letter := strings.ToLower(m[1])
		if m[2] != "" {
			next.label = letter + strings.ReplaceAll(m[2], ".", "")
			next.major = letter
		} else if isDigits(s.major) && strings.HasPrefix(title[1:], ".") {
			// IEEE style: "A. Subsection" inside "III. Section".
			next.label = s.major + letter
		} else {
			next.label = letter
			next.major = letter
		}
	}
	return next
}

// inBackMatter reports whether the current section is the references or
// an appendix, after which "A Title" headings number appendices.
func (s section) inBackMatter() bool {
	t := strings.ToLower(strings.TrimLeft(s.title, "0123456789. "))
	if layout.IsBibliographyTitle(s.title) || strings.HasPrefix(t, "appendi") {
		return true
	}
	return s.major != "" && !isDigits(s.major) && len(s.major) == 1
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// sectionRoman is the value of a Roman section number (I to LX), 0 when
// s is none.
func sectionRoman(s string) int {
	if v := roman.Value(s); v <= 60 {
		return v
	}
	return 0
}

// romanParts converts dotted Roman numerals ("V.I.II") to dotted numbers
// ("5.1.2"), "" when a part is invalid.
func romanParts(s string) string {
	var out []string
	for _, part := range strings.Split(s, ".") {
		v := sectionRoman(part)
		if v == 0 {
			return ""
		}
		out = append(out, fmt.Sprint(v))
	}
	return strings.Join(out, ".")
}
