// Command structure measures the document structure crossmem's notes
// record — sections, headings, paragraphs, page furniture, page labels and
// number tokens — against references that crossmem does not produce, on a
// folder of PDFs (issue 9's acceptance figures).
//
// For every PDF it runs compile.Extract (what "crossmem compile" runs
// before writing the note) and compares the chunks with:
//
//   - the outline as MuPDF reads it ("mutool show FILE outline"): section
//     accuracy (for files with at least 3 usable outline entries, the share
//     of body paragraphs — paragraph chunks of at least 8 words — whose
//     section is the outline entry that precedes the paragraph on the page,
//     or one of that entry's ancestors) and heading precision and recall
//     (heading chunks against outline entries, same page, same title);
//   - docling's ground truth (../shared/corpus/groundtruth/docling_*.json):
//     heading precision and recall against its section_header items, and
//     the share of its text, list_item, caption and footnote items of at
//     least 8 words that equal one chunk (compared by quote.Key, which
//     normalises white space, hyphenation, ligatures and case);
//   - poppler's pdftotext: page furniture found by position and
//     repetition in "pdftotext -bbox-layout" (page numbers, running heads,
//     margin stamps), which must not appear as paragraph or heading chunks;
//     every number of 4 or more digits in a chunk must be a number in
//     pdftotext's text of the page (no digits joined that the PDF draws
//     apart);
//   - the anchors hyperref sets at bibliography entries (named
//     destinations "cite.*", read with "mutool run"): the share of
//     entries a reference chunk starts at, and the share of reference
//     chunks (other than continuations) that start at an entry — a
//     reported figure, not an acceptance check;
//   - the page labels the PDF declares ("mutool show FILE
//     trailer/Root/PageLabels", decoded here by the rules of PDF 1.7
//     §12.4.2): every chunk's page_label must be its page's printed label.
//
// It also reports the share of paragraph chunks under 5 words and the
// same-column mid-sentence breaks per 100 paragraph chunks (two paragraph
// chunks one below the other in a column, the first ending without
// sentence punctuation and the second starting in lower case).
//
// Usage, from the repository root (needs mutool from mupdf-tools and
// pdftotext from poppler-utils):
//
//	go run ./bench/structure              # tables on stdout
//	go run ./bench/structure -v           # plus every miss, per file
//	go run ./bench/structure -furniture   # list the furniture chunks (for the hand check)
//	go run ./bench/structure -only gr_sample1.pdf
//	go run ./bench/structure -nooutline   # typography alone, the outline still the reference
//
// With -nooutline the PDFs are laid out as if they had no outline
// (layout.Document given the pages and page labels but no outline
// entries), so that headings and sections come from typography alone, as
// on the many papers that have no bookmarks; the outline still serves as
// the reference.
//
// It exits 1 when a file fails to extract or a reference tool is missing,
// and with -strict when an acceptance threshold is not met.
package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"

	"golang.org/x/text/unicode/norm"

	"github.com/crossmem/crossmem/bench/internal/corpus"
	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/compile"
	"github.com/crossmem/crossmem/internal/layout"
	"github.com/crossmem/crossmem/internal/pdf"
	"github.com/crossmem/crossmem/internal/quote"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

type options struct {
	corpus    string
	verbose   bool
	furniture bool
	only      string
	strict    bool
	chunks    bool
	noOutline bool
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("structure", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.StringVar(&o.corpus, "corpus", "", "folder of PDFs (default ../shared/corpus/pdf)")
	fs.BoolVar(&o.verbose, "v", false, "list every miss per file")
	fs.BoolVar(&o.furniture, "furniture", false, "list every furniture chunk (page_header, page_footer, margin)")
	fs.StringVar(&o.only, "only", "", "measure only this file (base name)")
	fs.BoolVar(&o.strict, "strict", false, "exit 1 when an acceptance threshold is not met")
	fs.BoolVar(&o.chunks, "chunks", false, "print every chunk (type, id, section, text) of the files measured")
	fs.BoolVar(&o.noOutline, "nooutline", false, "lay the PDFs out as if they had no outline (typography alone); the outline still is the reference")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	for _, tool := range []string{"mutool", "pdftotext"} {
		if _, err := exec.LookPath(tool); err != nil {
			fmt.Fprintf(stderr, "structure: %s not found (apt-get install mupdf-tools poppler-utils)\n", tool)
			return 1
		}
	}
	dir, err := corpus.Dir(o.corpus)
	if err != nil {
		fmt.Fprintln(stderr, "structure:", err)
		return 1
	}
	files, err := corpus.PDFs(dir)
	if err != nil {
		fmt.Fprintln(stderr, "structure:", err)
		return 1
	}
	gtDir := filepath.Join(dir, "..", "groundtruth")
	e, err := pdf.Open(context.Background(), pdf.Options{CacheDir: corpus.WazeroCache()})
	if err != nil {
		fmt.Fprintln(stderr, "structure:", err)
		return 1
	}
	defer e.Close()
	var all []*fileResult
	failed := false
	for _, f := range files {
		name := filepath.Base(f)
		if o.only != "" && name != o.only {
			continue
		}
		r, err := measure(e, f, gtDir, o, stdout)
		if err != nil {
			fmt.Fprintf(stderr, "structure: %s: %v\n", name, err)
			failed = true
			continue
		}
		all = append(all, r)
	}
	ok := report(stdout, all, o)
	if failed {
		return 1
	}
	if o.strict && !ok {
		return 1
	}
	return 0
}

// ratio is a count of hits among a total.
type ratio struct{ hit, total int }

func (r *ratio) add(ok bool) {
	r.total++
	if ok {
		r.hit++
	}
}
func (r ratio) plus(o ratio) ratio { return ratio{r.hit + o.hit, r.total + o.total} }
func (r ratio) share() float64 {
	if r.total == 0 {
		return math.NaN()
	}
	return float64(r.hit) / float64(r.total)
}
func (r ratio) String() string {
	if r.total == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f %% (%d/%d)", 100*r.share(), r.hit, r.total)
}

type fileResult struct {
	name  string
	pages int
	// outline
	outlineEntries, outlineUsable   int
	sections                        ratio // body paragraphs with the right section
	outlineHeadPrec, outlineHeadRec ratio
	// docling
	doclingHeadPrec, doclingHeadRec ratio
	doclingParas                    ratio
	// own
	paragraphs, shortParas int
	midBreaks              int
	// pdftotext
	furnitureInBody int
	furnitureChunks []string
	digitRuns       ratio // number tokens of >= 4 digits found in pdftotext
	// bibliography entries against hyperref's cite anchors
	bibFound, bibPieces ratio
	// page labels
	hasLabels bool
	labels    ratio
	misses    []string
}

func (r *fileResult) miss(format string, args ...any) {
	r.misses = append(r.misses, fmt.Sprintf(format, args...))
}

func measure(e *pdf.Engine, path, gtDir string, o options, w io.Writer) (*fileResult, error) {
	dump := o.chunks
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var res chunk.Result
	if o.noOutline {
		pages, st, err := e.Read(context.Background(), data, nil)
		if err != nil {
			return nil, err
		}
		st.Outline = nil
		res = chunk.Build(layout.Document(pages, st))
	} else if res, err = compile.Extract(context.Background(), e, data, nil); err != nil {
		return nil, err
	}
	name := filepath.Base(path)
	r := &fileResult{name: name, pages: res.Pages}
	if dump {
		for _, c := range res.Chunks {
			cont := ""
			if c.Continues != "" {
				cont = " (continues " + c.Continues + ")"
			}
			fmt.Fprintf(w, "%-11s %-10s %-5s [%s]%s %s\n", c.Type, c.ID, c.PageLabel, strings.Join(c.SectionPath, " > "), cont, oneLine(c.Text))
		}
	}
	sizes, err := pageSizes(path)
	if err != nil {
		return nil, err
	}
	lines, pageText, err := popplerLines(path)
	if err != nil {
		return nil, err
	}
	chunks := res.Chunks

	// Outline.
	entries, err := mutoolOutline(path)
	if err != nil {
		return nil, err
	}
	r.outlineEntries = len(entries)
	usable := usableEntries(entries, res.Pages)
	r.outlineUsable = len(usable)
	if len(usable) >= 3 {
		sectionAccuracy(r, chunks, usable, sizes)
		headingsVsOutline(r, chunks, usable)
	}

	// docling.
	if items, err := doclingItems(filepath.Join(gtDir, "docling_"+strings.TrimSuffix(name, ".pdf")+".json")); err == nil {
		doclingCompare(r, chunks, items)
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}

	// Paragraph shape.
	for i, c := range chunks {
		if c.Type != chunk.TypeParagraph {
			continue
		}
		r.paragraphs++
		if len(strings.Fields(c.Text)) < 5 {
			r.shortParas++
		}
		if i > 0 && midSentenceBreak(chunks[i-1], c) {
			r.midBreaks++
			r.miss("mid-sentence break p%d: %q | %q", c.Page, tail(chunks[i-1].Text, 40), head(c.Text, 40))
		}
	}

	// Furniture and digits.
	furn := furnitureLines(lines, sizes)
	for _, c := range chunks {
		switch c.Type {
		case chunk.TypeParagraph, chunk.TypeHeading:
			for _, l := range strings.Split(c.Text, "\n") {
				if kind, ok := furn[furnKey{c.Page, normLine(l)}]; ok && overlaps(c.BBox, kind.box, sizes[c.Page-1]) {
					r.furnitureInBody++
					r.miss("furniture (%s) in %s %s p%d: %q", kind.kind, c.Type, c.ID, c.Page, l)
					break
				}
			}
		case chunk.TypePageHeader, chunk.TypePageFooter, "margin":
			r.furnitureChunks = append(r.furnitureChunks, fmt.Sprintf("%s p%d %s: %q", name, c.Page, c.Type, oneLine(c.Text)))
		}
		for _, run := range digitRun.FindAllString(norm.NFKC.String(c.Text), -1) {
			if len(run) < 4 {
				continue
			}
			ok := pageText[c.Page][run]
			r.digitRuns.add(ok)
			if !ok {
				r.miss("digits %q in %s p%d not a number in pdftotext's text", run, c.ID, c.Page)
			}
		}
	}

	// Bibliography entries.
	if as, err := citeAnchors(path); err != nil {
		return nil, err
	} else {
		bibliographyEntries(r, chunks, as)
	}

	// Page labels.
	if want, ok, err := mutoolLabels(path, res.Pages); err != nil {
		return nil, err
	} else if ok {
		r.hasLabels = true
		for _, c := range chunks {
			good := c.PageLabel == want[c.Page-1]
			r.labels.add(good)
			if !good && r.labels.total-r.labels.hit <= 3 {
				r.miss("page label of %s is %q, want %q", c.ID, c.PageLabel, want[c.Page-1])
			}
		}
	}
	return r, nil
}

// ---------------------------------------------------------------- outline

type entry struct {
	title  string
	level  int
	page   int
	x, top float64 // MuPDF's coordinates: from the top-left corner
	hasPos bool
	parent int // index of the parent entry, -1 at top level
}

var (
	outlineLine = regexp.MustCompile(`^[|+-](\t+)"(.*)"\t#page=(\d+)(?:&zoom=[^,]*,([-0-9.]+),([-0-9.]+))?`)
	// fitH is the destination form "/FitH top" (and "/FitBH top"): a
	// vertical position only.
	fitH = regexp.MustCompile(`&view=FitB?H,([-0-9.]+)`)
)

// mutoolOutline parses "mutool show FILE outline": one entry per line, a
// tab per level, the title in double quotes, then "#page=N&zoom=Z,X,Y"
// (an /XYZ destination) or "#page=N&view=FitH,Y" (x is then unknown: -1).
func mutoolOutline(path string) ([]entry, error) {
	out, err := exec.Command("mutool", "show", path, "outline").Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, nil // no outline
		}
		return nil, err
	}
	var es []entry
	var stack []int // last entry index per level
	for _, line := range strings.Split(string(out), "\n") {
		m := outlineLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		level := len(m[1]) - 1
		title := m[2]
		if u, err := strconv.Unquote(`"` + title + `"`); err == nil {
			title = u
		}
		page, _ := strconv.Atoi(m[3])
		en := entry{title: title, level: level, page: page, parent: -1}
		if m[4] != "" {
			x, err1 := strconv.ParseFloat(m[4], 64)
			y, err2 := strconv.ParseFloat(m[5], 64)
			en.x, en.top, en.hasPos = x, y, err1 == nil && err2 == nil
		} else if f := fitH.FindStringSubmatch(line); f != nil {
			y, err := strconv.ParseFloat(f[1], 64)
			en.x, en.top, en.hasPos = -1, y, err == nil
		}
		for len(stack) > level {
			stack = stack[:len(stack)-1]
		}
		if level > 0 && len(stack) >= level {
			en.parent = stack[level-1]
		}
		stack = append(stack, len(es))
		es = append(es, en)
	}
	return es, nil
}

// usableEntries keeps the entries whose destination is a page of the
// document at or after every usable entry before it (an entry pointing
// backwards names a page outside this copy of the document, as in an
// excerpt whose outline still lists the full paper's sections).
func usableEntries(es []entry, pages int) []entry {
	var out []entry
	index := map[int]int{}
	last := 0
	for i, en := range es {
		if en.page < 1 || en.page > pages || en.page < last || normTitle(en.title) == "" {
			continue
		}
		last = en.page
		if p, ok := index[en.parent]; ok {
			en.parent = p
		} else {
			en.parent = -1
		}
		index[i] = len(out)
		out = append(out, en)
	}
	return out
}

// after reports whether a chunk's box on its page lies after the entry's
// destination in reading order: a later page, or the same page in a later
// column, or in the same column below the destination.
func after(en entry, page int, box [4]float64, size [2]float64) bool {
	if page != en.page {
		return page > en.page
	}
	if !en.hasPos {
		return true
	}
	w, h := size[0], size[1]
	y := h - en.top // bottom-up, as chunk boxes
	switch {
	case en.x < 0:
		// no horizontal position (/FitH): below the destination only
	case box[2] <= en.x+2:
		return false // an earlier column
	case box[0] >= en.x+0.25*w:
		return true // a later column
	}
	return (box[1]+box[3])/2 < y
}

func sectionAccuracy(r *fileResult, chunks []chunk.Chunk, es []entry, sizes [][2]float64) {
	for _, c := range chunks {
		if c.Type != chunk.TypeParagraph || len(strings.Fields(c.Text)) < 8 {
			continue
		}
		prev := -1
		for i, en := range es {
			if after(en, c.Page, c.BBox, sizes[c.Page-1]) {
				prev = i
			}
		}
		if prev < 0 {
			continue // before the first entry
		}
		ok := false
		var want []string
		for i := prev; i >= 0; i = es[i].parent {
			want = append(want, es[i].title)
			if sameTitle(c.Section, es[i].title) {
				ok = true
			}
		}
		// A numbered subsection the outline does not list (it stops at a
		// shallower depth: the entry is a leaf) inside the entry's
		// section is right too.
		if !ok && !slices.ContainsFunc(es, func(e entry) bool { return sameTitle(c.Section, e.title) }) {
			ok = subsectionOf(c.Section, c.SectionPath, es, prev)
		}
		r.sections.add(ok)
		if !ok {
			r.miss("section of %s (p%d %q) is %q, want %q", c.ID, c.Page, head(c.Text, 30), c.Section, strings.Join(want, " < "))
		}
	}
}

// belowLeaf reports whether heading chunk c opens a subsection of an
// outline entry that has no entries below it (an outline that stops at a
// shallower depth than the document's headings): its section path runs
// through that entry's title to c's own.
func belowLeaf(c chunk.Chunk, es []entry) bool {
	if len(c.SectionPath) < 2 || !sameTitle(c.SectionPath[len(c.SectionPath)-1], c.Text) {
		return false
	}
	for i := range es {
		if subsectionOf(c.Text, c.SectionPath, es, i) {
			return true
		}
	}
	return false
}

// headNumber is a heading's leading number: "2.1 Data" → "2.1",
// "Appendix A. Tools" → "A"; "" when it has none.
var headNumberRe = regexp.MustCompile(`^(?:(?i:appendix|chapter|part)\s+)?((?:\d{1,2}|[A-Z])(?:\.\d{1,2})*)(?:\.?\s|\.?$)`)

func headNumber(t string) string {
	if m := headNumberRe.FindStringSubmatch(strings.TrimSpace(t)); m != nil {
		return m[1]
	}
	return ""
}

// subsectionOf reports whether section title, with its section path,
// is a numbered subsection of outline entry i where the outline goes no
// deeper: entry i is a leaf, its title (or the printed heading in the
// path that matches it) is numbered, and title's number extends that
// number ("2.1" under "2 Methods").
func subsectionOf(title string, path []string, es []entry, i int) bool {
	if slices.ContainsFunc(es, func(o entry) bool { return o.parent == i }) {
		return false // not a leaf
	}
	k := slices.IndexFunc(path, func(t string) bool { return sameTitle(t, es[i].title) })
	if k < 0 || k == len(path)-1 {
		return false
	}
	n, p := headNumber(title), headNumber(es[i].title)
	if p == "" {
		p = headNumber(path[k])
	}
	return n != "" && p != "" && strings.HasPrefix(n, p+".")
}

func headingsVsOutline(r *fileResult, chunks []chunk.Chunk, es []entry) {
	matched := make([]bool, len(es))
	for _, c := range chunks {
		if c.Type != chunk.TypeHeading {
			continue
		}
		ok := false
		for i, en := range es {
			if en.page == c.Page && sameTitle(c.Text, en.title) {
				ok, matched[i] = true, true
			}
		}
		if !ok && belowLeaf(c, es) {
			continue // a subsection where the outline goes no deeper: not measured
		}
		r.outlineHeadPrec.add(ok)
		if !ok {
			r.miss("heading %s p%d %q is no outline entry", c.ID, c.Page, oneLine(c.Text))
		}
	}
	for i, en := range es {
		r.outlineHeadRec.add(matched[i])
		if !matched[i] {
			r.miss("outline entry p%d %q is no heading", en.page, en.title)
		}
	}
}

// ---------------------------------------------------------------- docling

type doclingItem struct {
	label  string
	text   string
	marker string // a list item's marker ("·", "1."), which text leaves out
	page   int
}

func doclingItems(path string) ([]doclingItem, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Texts []struct {
			Label  string `json:"label"`
			Text   string `json:"text"`
			Marker string `json:"marker"`
			Parent struct {
				Ref string `json:"$ref"`
			} `json:"parent"`
			Prov []struct {
				Page int `json:"page_no"`
			} `json:"prov"`
		} `json:"texts"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []doclingItem
	for _, t := range doc.Texts {
		if len(t.Prov) == 0 {
			continue
		}
		// Text docling places inside a picture or a table (a diagram's
		// labels, a figure's callouts, cells) is figure or table text by
		// docling's own structure, not a paragraph or a heading.
		if strings.HasPrefix(t.Parent.Ref, "#/pictures/") || strings.HasPrefix(t.Parent.Ref, "#/tables/") {
			continue
		}
		out = append(out, doclingItem{t.Label, t.Text, t.Marker, t.Prov[0].Page})
	}
	return out, nil
}

func doclingCompare(r *fileResult, chunks []chunk.Chunk, items []doclingItem) {
	// A section_header without a letter is a number docling split off its
	// heading ("1" of "Chapter 1. Securing …"), not a title.
	var heads []doclingItem
	for _, it := range items {
		if it.label == "section_header" && strings.IndexFunc(it.text, unicode.IsLetter) >= 0 {
			heads = append(heads, it)
		}
	}
	matched := make([]bool, len(heads))
	for _, c := range chunks {
		if c.Type != chunk.TypeHeading {
			continue
		}
		ok := false
		for i, h := range heads {
			if h.page == c.Page && sameTitle(c.Text, h.text) {
				ok, matched[i] = true, true
			}
		}
		r.doclingHeadPrec.add(ok)
		if !ok {
			r.miss("heading %s p%d %q is no docling section_header", c.ID, c.Page, oneLine(c.Text))
		}
	}
	for i, h := range heads {
		r.doclingHeadRec.add(matched[i])
		if !matched[i] {
			r.miss("docling section_header p%d %q is no heading", h.page, h.text)
		}
	}
	// A paragraph that a column or page break cuts is two chunks linked by
	// Continues (the design issue 9 allows); such a chain counts as one.
	keys := map[int]map[string]bool{}
	add := func(page int, text string) {
		if keys[page] == nil {
			keys[page] = map[string]bool{}
		}
		keys[page][itemKey(text)] = true
	}
	next := map[string]int{} // chunk ID → index of the chunk that continues it
	for i, c := range chunks {
		if c.Continues != "" {
			next[c.Continues] = i
		}
	}
	for _, c := range chunks {
		add(c.Page, c.Text)
		text, id := c.Text, c.ID
		for n := 0; n < 20; n++ {
			j, ok := next[id]
			if !ok {
				break
			}
			text += "\n" + chunks[j].Text
			add(c.Page, text)
			add(chunks[j].Page, text)
			id = chunks[j].ID
		}
	}
	for _, it := range items {
		switch it.label {
		case "text", "list_item", "caption", "footnote":
		default:
			continue
		}
		if len(strings.Fields(it.text)) < 8 {
			continue
		}
		ok := keys[it.page][itemKey(it.text)]
		r.doclingParas.add(ok)
		if !ok {
			r.miss("docling %s p%d is no single chunk: %q", it.label, it.page, head(it.text, 60))
		}
	}
}

// glyphName is a token docling writes for a glyph without a Unicode
// value (the bullet of dl_redp5110_sampled is "SM590000"); pdfium's text
// has no character there.
var (
	glyphName  = regexp.MustCompile(`^[A-Z]{2}[0-9]{6}\s+`)
	listMarker = regexp.MustCompile(`^\s*([•◦▪▫■□●○‣⁃∙·*►▶✓✔\-–—]|\(?[0-9]{1,3}[.)]|\(?[a-z][.)]|\([0-9a-z]{1,3}\))\s+`)
)

// itemKey is the form in which a docling item and a chunk are compared:
// quote.Key (white space, hyphenation, ligatures, dashes, quotes and case
// normalised, as crossmem's own quotation check does) without a leading
// list marker and without any white space. docling leaves a list item's
// marker out of its text (it keeps it in "marker"), writes glyph names for
// unmapped glyphs, and puts spaces where the font changes ("Word (1983) :
// Microsoft" for "Word (1983): Microsoft"); none of that is a difference
// of paragraph structure.
func itemKey(s string) string {
	s = glyphName.ReplaceAllString(strings.TrimSpace(s), "")
	s = listMarker.ReplaceAllString(s, "")
	return strings.Join(strings.Fields(quote.Key(s)), "")
}

// ---------------------------------------------------------------- pdftotext

type popLine struct {
	page                   int
	text                   string
	xMin, yMin, xMax, yMax float64 // from the top-left corner
}

var (
	xmlLine  = regexp.MustCompile(`<line xMin="([-0-9.]+)" yMin="([-0-9.]+)" xMax="([-0-9.]+)" yMax="([-0-9.]+)">`)
	xmlWord  = regexp.MustCompile(`<word [^>]*>([^<]*)</word>`)
	digitRun = regexp.MustCompile(`[0-9]+`)
)

// popplerLines runs "pdftotext -bbox-layout" and returns its lines, and per
// page the set of digit runs in its text.
func popplerLines(path string) ([]popLine, map[int]map[string]bool, error) {
	out, err := exec.Command("pdftotext", "-bbox-layout", "-enc", "UTF-8", path, "-").Output()
	if err != nil {
		return nil, nil, fmt.Errorf("pdftotext: %w", err)
	}
	var lines []popLine
	numbers := map[int]map[string]bool{}
	page := 0
	var cur *popLine
	for _, l := range strings.Split(string(out), "\n") {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "<page "):
			page++
			numbers[page] = map[string]bool{}
		case strings.HasPrefix(l, "<line "):
			m := xmlLine.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			cur = &popLine{page: page}
			cur.xMin, _ = strconv.ParseFloat(m[1], 64)
			cur.yMin, _ = strconv.ParseFloat(m[2], 64)
			cur.xMax, _ = strconv.ParseFloat(m[3], 64)
			cur.yMax, _ = strconv.ParseFloat(m[4], 64)
		case strings.HasPrefix(l, "<word ") && cur != nil:
			if m := xmlWord.FindStringSubmatch(l); m != nil {
				w := norm.NFKC.String(unescapeXML(m[1]))
				if cur.text != "" {
					cur.text += " "
				}
				cur.text += w
				for _, d := range digitRun.FindAllString(w, -1) {
					numbers[page][d] = true
				}
			}
		case strings.HasPrefix(l, "</line>") && cur != nil:
			lines = append(lines, *cur)
			cur = nil
		}
	}
	return lines, numbers, nil
}

func unescapeXML(s string) string {
	return strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&apos;", "'").Replace(s)
}

type furnKey struct {
	page int
	line string
}

// furnLine is a line of furniture: what kind, and poppler's line (its box).
type furnLine struct {
	kind string
	box  popLine
}

// overlaps reports whether a chunk's box (PDF points from the bottom-left)
// overlaps a poppler line's box (from the top-left) on a page of the given
// size: the furniture line is then part of the chunk, not a copy of its
// text elsewhere on the page (a "2" in a figure on page 2).
func overlaps(box [4]float64, l popLine, size [2]float64) bool {
	h := size[1]
	y0, y1 := h-l.yMax, h-l.yMin
	return box[0] < l.xMax+1 && box[2] > l.xMin-1 && box[1] < y1+1 && box[3] > y0-1
}

var (
	pageNumber = regexp.MustCompile(`^(?i:page\s+)?([0-9]{1,4}|[ivxlc]{1,7})(\s+(of|/)\s+[0-9]{1,4})?$`)
	digits     = regexp.MustCompile(`[0-9]+`)
)

// furnitureLines finds page furniture in poppler's lines by position and
// repetition alone: a line in the top or bottom 8 % of the page that is a
// page number ("12", "xii", "Page 3 of 9"); a line in the top or bottom 8 %
// whose text with digits masked recurs on at least 3 pages and a quarter
// of the pages in that margin (running heads, journal banners); a line
// anywhere whose masked text recurs at the same place on at least 3 pages
// and half the pages (stamps such as "Downloaded from … by guest on …");
// and a line wholly outside the horizontal extent of the page's text
// column(s) that is much taller than wide (text set up the margin, such as
// the arXiv identifier).
func furnitureLines(lines []popLine, sizes [][2]float64) map[furnKey]furnLine {
	out := map[furnKey]furnLine{}
	type place struct {
		top  bool
		text string
	}
	pagesWith := map[place]map[int]bool{}
	anywhere := map[string]map[int]bool{}
	pages := map[int]bool{}
	for _, l := range lines {
		pages[l.page] = true
		if l.page > len(sizes) {
			continue
		}
		h := sizes[l.page-1][1]
		masked := digits.ReplaceAllString(normLine(l.text), "#")
		if l.yMax < 0.08*h || l.yMin > 0.92*h {
			p := place{l.yMax < 0.08*h, masked}
			if pagesWith[p] == nil {
				pagesWith[p] = map[int]bool{}
			}
			pagesWith[p][l.page] = true
		}
		k := fmt.Sprintf("%s@%.0f,%.0f", masked, l.xMin/10, l.yMin/10)
		if anywhere[k] == nil {
			anywhere[k] = map[int]bool{}
		}
		anywhere[k][l.page] = true
	}
	n := len(pages)
	for _, l := range lines {
		if l.page > len(sizes) {
			continue
		}
		w, h := sizes[l.page-1][0], sizes[l.page-1][1]
		key := furnKey{l.page, normLine(l.text)}
		masked := digits.ReplaceAllString(key.line, "#")
		inMargin := l.yMax < 0.08*h || l.yMin > 0.92*h
		switch {
		case inMargin && pageNumber.MatchString(key.line):
			out[key] = furnLine{"page number", l}
		case inMargin && len(pagesWith[place{l.yMax < 0.08*h, masked}]) >= max(3, (n+3)/4):
			out[key] = furnLine{"running head", l}
		case len(anywhere[fmt.Sprintf("%s@%.0f,%.0f", masked, l.xMin/10, l.yMin/10)]) >= max(3, (n+1)/2) && len([]rune(key.line)) > 3:
			out[key] = furnLine{"stamp", l}
		case (l.xMax < 0.09*w || l.xMin > 0.91*w) && l.yMax-l.yMin > 3*(l.xMax-l.xMin):
			out[key] = furnLine{"margin stamp", l}
		}
	}
	return out
}

// normLine is a line's text for comparing poppler's lines with ours: NFKC,
// white space collapsed.
func normLine(s string) string {
	return strings.Join(strings.Fields(norm.NFKC.String(s)), " ")
}

// pageSizes returns each page's width and height in points, as pdfinfo
// reports them (the CropBox).
func pageSizes(path string) ([][2]float64, error) {
	out, err := exec.Command("pdfinfo", "-f", "1", "-l", "100000", path).Output()
	if err != nil {
		return nil, fmt.Errorf("pdfinfo: %w", err)
	}
	re := regexp.MustCompile(`(?m)^Page\s+(\d+) size:\s+([0-9.]+) x ([0-9.]+)`)
	var sizes [][2]float64
	for _, m := range re.FindAllStringSubmatch(string(out), -1) {
		w, _ := strconv.ParseFloat(m[2], 64)
		h, _ := strconv.ParseFloat(m[3], 64)
		sizes = append(sizes, [2]float64{w, h})
	}
	return sizes, nil
}

// ---------------------------------------------------------------- page labels

var labelRange = regexp.MustCompile(`(\d+)\s+(\d+\s+0\s+R|<<)`)

// mutoolLabels reads /PageLabels with mutool (following one level of
// indirect references) and computes every page's label by PDF 1.7
// §12.4.2: /S style (D decimal, R/r roman, A/a letters), /P prefix, /St
// start. It reports false when the PDF declares no labels.
func mutoolLabels(path string, pages int) ([]string, bool, error) {
	out, err := exec.Command("mutool", "show", path, "trailer/Root/PageLabels").Output()
	if err != nil || strings.TrimSpace(string(out)) == "null" || len(out) == 0 {
		return nil, false, nil
	}
	text := string(out)
	resolve := func(ref string) string {
		num := strings.Fields(ref)[0]
		o, err := exec.Command("mutool", "show", path, num).Output()
		if err != nil {
			return ""
		}
		return string(o)
	}
	// Flatten /Nums [ start dict start dict ... ]; dicts may be inline or
	// references. Kids (a number tree with several nodes) are not followed.
	i := strings.Index(text, "/Nums")
	if i < 0 {
		return nil, false, nil
	}
	body := text[i+len("/Nums"):]
	if m := regexp.MustCompile(`^\s*(\d+\s+0\s+R)`).FindStringSubmatch(body); m != nil {
		body = resolve(m[1])
	}
	type rng struct {
		start  int
		style  string
		prefix string
		st     int
	}
	var rs []rng
	for len(body) > 0 {
		m := labelRange.FindStringSubmatchIndex(body)
		if m == nil {
			break
		}
		start, _ := strconv.Atoi(body[m[2]:m[3]])
		var dict string
		rest := body[m[5]:]
		if body[m[4]:m[5]] == "<<" {
			end := strings.Index(rest, ">>")
			if end < 0 {
				break
			}
			dict, body = rest[:end], rest[end+2:]
		} else {
			dict, body = resolve(body[m[4]:m[5]]), rest
		}
		g := rng{start: start, st: 1}
		if mm := regexp.MustCompile(`/S\s*/([DRrAa])`).FindStringSubmatch(dict); mm != nil {
			g.style = mm[1]
		}
		if mm := regexp.MustCompile(`/St\s+(\d+)`).FindStringSubmatch(dict); mm != nil {
			g.st, _ = strconv.Atoi(mm[1])
		}
		if mm := regexp.MustCompile(`/P\s*\(([^)]*)\)`).FindStringSubmatch(dict); mm != nil {
			g.prefix = mm[1]
		} else if mm := regexp.MustCompile(`/P\s*<([0-9A-Fa-f\s]*)>`).FindStringSubmatch(dict); mm != nil {
			g.prefix = hexText(mm[1])
		}
		rs = append(rs, g)
	}
	if len(rs) == 0 {
		return nil, false, nil
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].start < rs[j].start })
	labels := make([]string, pages)
	for p := 0; p < pages; p++ {
		g := rng{start: -1}
		for _, x := range rs {
			if x.start <= p {
				g = x
			}
		}
		if g.start < 0 {
			continue
		}
		n := g.st + p - g.start
		var num string
		switch g.style {
		case "D":
			num = strconv.Itoa(n)
		case "R":
			num = strings.ToUpper(roman(n))
		case "r":
			num = roman(n)
		case "A", "a":
			letter := string(rune('A' + (n-1)%26))
			num = strings.Repeat(letter, (n-1)/26+1)
			if g.style == "a" {
				num = strings.ToLower(num)
			}
		}
		labels[p] = g.prefix + num
	}
	return labels, true, nil
}

// hexText decodes a PDF hex string's text: UTF-16BE after a byte order
// mark, else one byte per character (PDFDocEncoding, read as Latin-1).
func hexText(h string) string {
	b, err := hex.DecodeString(strings.Join(strings.Fields(h), ""))
	if err != nil {
		return ""
	}
	if len(b) >= 2 && b[0] == 0xfe && b[1] == 0xff {
		var u []uint16
		for i := 2; i+1 < len(b); i += 2 {
			u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
		}
		return string(utf16.Decode(u))
	}
	r := make([]rune, len(b))
	for i, c := range b {
		r[i] = rune(c)
	}
	return string(r)
}

func roman(n int) string {
	vals := []int{1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1}
	syms := []string{"m", "cm", "d", "cd", "c", "xc", "l", "xl", "x", "ix", "v", "iv", "i"}
	var b strings.Builder
	for i, v := range vals {
		for n >= v {
			b.WriteString(syms[i])
			n -= v
		}
	}
	return b.String()
}

// ---------------------------------------------------------------- text helpers

var leadingNumber = regexp.MustCompile(`^\s*((\d+|[A-Z]|[IVXL]+)(\.\d+)*\.?|(?i:appendix|chapter)\s+([A-Z]|\d+)\.?:?)\s+`)

// normTitle reduces a title for comparison: TeX accents and markup from
// bookmark strings removed, leading section numbers dropped ("2.1",
// "A.", "Appendix B:"), Unicode decomposed without marks, lower case,
// letters and digits only.
func normTitle(s string) string {
	return titleLetters(leadingNumber.ReplaceAllString(strings.TrimSpace(s), ""))
}

// titleLetters is normTitle without dropping a leading number: a title
// may start with a one-letter word that reads as one ("A sub-section").
func titleLetters(s string) string {
	var b strings.Builder
	for _, r := range norm.NFKD.String(s) {
		switch r {
		case 'ı', 'ȷ': // TeX sets î as a dotless i with a circumflex
			r = map[rune]rune{'ı': 'i', 'ȷ': 'j'}[r]
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// sameTitle reports whether two titles name the same section: equal after
// normTitle, or one a prefix of the other covering at least 80 % of it (a
// bookmark that abbreviates, a heading whose last line was cut). A side
// whose first word only looks like a section number ("A sub-section"
// beside the printed "4.1 A sub-section") is compared with it kept too.
func sameTitle(a, b string) bool {
	for _, x := range []string{normTitle(a), titleLetters(a)} {
		for _, y := range []string{normTitle(b), titleLetters(b)} {
			if sameKey(x, y) {
				return true
			}
		}
	}
	return false
}

func sameKey(x, y string) bool {
	if x == "" || y == "" {
		return false
	}
	if x == y {
		return true
	}
	if len(x) > len(y) {
		x, y = y, x
	}
	return strings.HasPrefix(y, x) && len(x)*5 >= len(y)*4
}

// midSentenceBreak reports whether b continues a's sentence in the same
// column right below it: a ends without sentence punctuation, b starts in
// lower case, b's top is within two lines of a's bottom and they overlap
// horizontally.
func midSentenceBreak(a, b chunk.Chunk) bool {
	if a.Type != chunk.TypeParagraph || a.Page != b.Page {
		return false
	}
	at := strings.TrimSpace(a.Text)
	bt := strings.TrimSpace(b.Text)
	if at == "" || bt == "" {
		return false
	}
	last, _ := lastRune(at)
	first := []rune(bt)[0]
	if !(unicode.IsLetter(last) || last == ',' || last == '-') || !unicode.IsLower(first) {
		return false
	}
	lines := strings.Count(a.Text, "\n") + 1
	lineH := (a.BBox[3] - a.BBox[1]) / float64(lines)
	gap := a.BBox[1] - b.BBox[3]
	ov := math.Min(a.BBox[2], b.BBox[2]) - math.Max(a.BBox[0], b.BBox[0])
	return gap > -lineH && gap < 2*lineH && ov > 0.5*math.Min(a.BBox[2]-a.BBox[0], b.BBox[2]-b.BBox[0])
}

func lastRune(s string) (rune, bool) {
	r := []rune(s)
	if len(r) == 0 {
		return 0, false
	}
	return r[len(r)-1], true
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func head(s string, n int) string {
	s = oneLine(s)
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

func tail(s string, n int) string {
	s = oneLine(s)
	if r := []rune(s); len(r) > n {
		return "…" + string(r[len(r)-n:])
	}
	return s
}

// ---------------------------------------------------------------- report

func pct(r ratio) string {
	if r.total == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f %%", 100*r.share())
}

func report(w io.Writer, rs []*fileResult, o options) bool {
	var b bytes.Buffer
	var tot fileResult
	fmt.Fprintln(&b, "## Sections and headings against the outline (mutool) and docling")
	fmt.Fprintln(&b)
	fmt.Fprintln(&b, "| file | outline entries (usable) | section accuracy | heading precision (outline) | heading recall (outline) | heading precision (docling) | heading recall (docling) | docling items = one chunk |")
	fmt.Fprintln(&b, "|---|---:|---:|---:|---:|---:|---:|---:|")
	ok := true
	for _, r := range rs {
		if r.outlineUsable < 3 && r.doclingHeadRec.total == 0 && r.doclingParas.total == 0 {
			continue
		}
		fmt.Fprintf(&b, "| %s | %d (%d) | %s | %s | %s | %s | %s | %s |\n", r.name, r.outlineEntries, r.outlineUsable,
			r.sections, pct(r.outlineHeadPrec), pct(r.outlineHeadRec), pct(r.doclingHeadPrec), pct(r.doclingHeadRec), r.doclingParas)
		if r.sections.total > 0 && r.sections.share() < 0.90 {
			ok = false
		}
	}
	for _, r := range rs {
		tot.sections = tot.sections.plus(r.sections)
		tot.outlineHeadPrec = tot.outlineHeadPrec.plus(r.outlineHeadPrec)
		tot.outlineHeadRec = tot.outlineHeadRec.plus(r.outlineHeadRec)
		tot.doclingHeadPrec = tot.doclingHeadPrec.plus(r.doclingHeadPrec)
		tot.doclingHeadRec = tot.doclingHeadRec.plus(r.doclingHeadRec)
		tot.doclingParas = tot.doclingParas.plus(r.doclingParas)
		tot.paragraphs += r.paragraphs
		tot.shortParas += r.shortParas
		tot.midBreaks += r.midBreaks
		tot.furnitureInBody += r.furnitureInBody
		tot.digitRuns = tot.digitRuns.plus(r.digitRuns)
		tot.labels = tot.labels.plus(r.labels)
		tot.bibFound = tot.bibFound.plus(r.bibFound)
		tot.bibPieces = tot.bibPieces.plus(r.bibPieces)
		tot.furnitureChunks = append(tot.furnitureChunks, r.furnitureChunks...)
	}
	fmt.Fprintf(&b, "| **total** | | %s | %s | %s | %s | %s | %s |\n\n", tot.sections,
		tot.outlineHeadPrec, tot.outlineHeadRec, tot.doclingHeadPrec, tot.doclingHeadRec, tot.doclingParas)

	fmt.Fprintln(&b, "## Paragraphs, furniture, digits and page labels")
	fmt.Fprintln(&b)
	fmt.Fprintln(&b, "| file | pages | paragraph chunks | under 5 words | mid-sentence breaks per 100 | furniture in body | furniture chunks | numbers ≥ 4 digits in pdftotext | page labels right |")
	fmt.Fprintln(&b, "|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range rs {
		lab := "–"
		if r.hasLabels {
			lab = r.labels.String()
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %s | %s | %d | %d | %s | %s |\n", r.name, r.pages, r.paragraphs,
			pctOf(r.shortParas, r.paragraphs), per100(r.midBreaks, r.paragraphs), r.furnitureInBody, len(r.furnitureChunks), pct(r.digitRuns), lab)
	}
	fmt.Fprintf(&b, "| **total** | | %d | %s | %s | %d | %d | %s | %s |\n\n", tot.paragraphs,
		pctOf(tot.shortParas, tot.paragraphs), per100(tot.midBreaks, tot.paragraphs), tot.furnitureInBody, len(tot.furnitureChunks), tot.digitRuns, tot.labels)

	fmt.Fprintln(&b, "## Bibliography entries against hyperref's cite anchors (files with ≥ 3)")
	fmt.Fprintln(&b)
	fmt.Fprintln(&b, "| file | entries (anchors) found as a reference chunk | reference chunks that start an entry |")
	fmt.Fprintln(&b, "|---|---:|---:|")
	for _, r := range rs {
		if r.bibFound.total > 0 {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", r.name, r.bibFound, r.bibPieces)
		}
	}
	fmt.Fprintf(&b, "| **total** | %s | %s |\n\n", tot.bibFound, tot.bibPieces)

	checks := []struct {
		name string
		pass bool
	}{
		{"section accuracy ≥ 95 % in total and ≥ 90 % per file", tot.sections.share() >= 0.95 && ok},
		{"heading precision and recall ≥ 90 % (outline)", tot.outlineHeadPrec.share() >= 0.9 && tot.outlineHeadRec.share() >= 0.9},
		{"heading precision and recall ≥ 90 % (docling)", tot.doclingHeadPrec.share() >= 0.9 && tot.doclingHeadRec.share() >= 0.9},
		{"docling items of ≥ 8 words = one chunk ≥ 90 %", tot.doclingParas.share() >= 0.9},
		{"paragraph chunks under 5 words ≤ 10 %", tot.shortParas*10 <= tot.paragraphs},
		{"mid-sentence breaks ≤ 1 per 100 paragraphs", tot.midBreaks*100 <= tot.paragraphs},
		{"no furniture in paragraph or heading chunks", tot.furnitureInBody == 0},
		{"no digit runs joined", tot.digitRuns.hit == tot.digitRuns.total},
		{"page labels right", tot.labels.hit == tot.labels.total},
	}
	all := true
	fmt.Fprintln(&b, "## Acceptance")
	fmt.Fprintln(&b)
	for _, c := range checks {
		mark := "pass"
		if !c.pass {
			mark, all = "FAIL", false
		}
		fmt.Fprintf(&b, "- %s: %s\n", mark, c.name)
	}
	if o.verbose {
		fmt.Fprintln(&b, "\n## Misses")
		for _, r := range rs {
			if len(r.misses) == 0 {
				continue
			}
			fmt.Fprintf(&b, "\n### %s\n\n", r.name)
			for _, m := range r.misses {
				fmt.Fprintln(&b, "-", m)
			}
		}
	}
	if o.furniture {
		fmt.Fprintln(&b, "\n## Furniture chunks")
		fmt.Fprintln(&b)
		for i, f := range tot.furnitureChunks {
			fmt.Fprintf(&b, "%d. %s\n", i+1, f)
		}
	}
	w.Write(b.Bytes())
	return all
}

func pctOf(n, of int) string {
	if of == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f %%", 100*float64(n)/float64(of))
}

func per100(n, of int) string {
	if of == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", 100*float64(n)/float64(of))
}
