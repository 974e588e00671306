// Command figures measures crossmem's figure, table, caption and equation
// chunks (issue 12's acceptance figures), per file.
//
// For every PDF it runs compile.Extract and compile.RenderFigures (what
// "crossmem compile" runs before writing the note and its crops) and
// compares the chunks with docling's ground truth
// (../shared/corpus/groundtruth/docling_*.json), which crossmem does not
// produce:
//
//   - pictures: the share of docling's pictures matched by a figure chunk
//     on the same page whose bbox has an intersection over union of at
//     least 0.7 with the picture's and whose crop was drawn (a PNG of at
//     least one pixel each way);
//   - captions: the share of docling's caption items that equal (compared
//     by quote.Key: white space, hyphenation, ligatures and case
//     normalised) the text of a figure or caption chunk on the same page,
//     and of those the share whose kind agrees (a picture's caption is a
//     figure chunk or a caption of a figure, a table's a caption of a
//     table);
//   - tables: the share of docling's tables matched by one table chunk on
//     the same page (IoU of the boxes at least 0.5, the best one) whose
//     cells are at least 90 % right: a docling cell with text is right
//     when the table chunk's cell at its row and column (after the one
//     shift of rows and of columns that puts the most cells right) has the
//     same text (quote.Key; docling's names for glyphs without a
//     character, "SM590000", are left out). Beside it, each table's
//     GriTS-Con (grits.go), the field's grid similarity, which aligns
//     rows and columns instead of asking for one shift, so that a row
//     dropped or merged on either side costs that row only.
//
// It also runs olmOCR-bench's table tests (olmocr_bench_tests.jsonl in
// the same folder; olmocr.go): a cell's text and its neighbours.
//
// On every PDF of the corpus it also counts: chunks whose text is an
// equation number alone ("(3)"), equation chunks, those with a label and
// those in pieces (sharing their band with another equation chunk of the
// page less than 40 pt away across: one display shattered into several);
// "Figure N"/"Table N" captions (figure and caption chunks with a label)
// and those linked to a float (a figure chunk with its own region, a
// caption chunk with a float) on the same or an adjacent page.
//
// Usage, from the repository root:
//
//	go run ./bench/figures                  # tables on stdout
//	go run ./bench/figures -v               # plus every miss
//	go run ./bench/figures -out /tmp/figs   # also write the crops, to look at
//	go run ./bench/figures -only dl_redp5110_sampled.pdf
//
// It exits 1 when a file fails to extract, and with -strict when an
// acceptance threshold is not met.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/crossmem/crossmem/bench/internal/corpus"
	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/compile"
	"github.com/crossmem/crossmem/internal/pdf"
	"github.com/crossmem/crossmem/internal/quote"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

type options struct {
	corpus, only, out string
	verbose, strict   bool
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("figures", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.StringVar(&o.corpus, "corpus", "", "folder of PDFs (default ../shared/corpus/pdf)")
	fs.StringVar(&o.only, "only", "", "measure only this file (base name)")
	fs.StringVar(&o.out, "out", "", "write the figure crops to this folder")
	fs.BoolVar(&o.verbose, "v", false, "list every miss per file")
	fs.BoolVar(&o.strict, "strict", false, "exit 1 when an acceptance threshold is not met")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	dir, err := corpus.Dir(o.corpus)
	if err != nil {
		fmt.Fprintln(stderr, "figures:", err)
		return 1
	}
	files, err := corpus.PDFs(dir)
	if err != nil {
		fmt.Fprintln(stderr, "figures:", err)
		return 1
	}
	gtDir := filepath.Join(dir, "..", "groundtruth")
	e, err := pdf.Open(context.Background(), pdf.Options{CacheDir: corpus.WazeroCache()})
	if err != nil {
		fmt.Fprintln(stderr, "figures:", err)
		return 1
	}
	defer e.Close()
	var all []*result
	failed := false
	for _, f := range files {
		name := filepath.Base(f)
		if o.only != "" && name != o.only {
			continue
		}
		r, err := measure(e, f, gtDir, o)
		if err != nil {
			fmt.Fprintf(stderr, "figures: %s: %v\n", name, err)
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

type ratio struct{ hit, total int }

func (r *ratio) add(ok bool) {
	r.total++
	if ok {
		r.hit++
	}
}

func (r ratio) String() string {
	if r.total == 0 {
		return "–"
	}
	return fmt.Sprintf("%d/%d (%.0f %%)", r.hit, r.total, 100*float64(r.hit)/float64(r.total))
}

type result struct {
	name                                 string
	docling                              bool
	pictures, captions, kinds            ratio
	tables                               ratio
	olmocr                               ratio // olmOCR-bench's table tests (olmocr.go)
	cellShare                            []float64
	grits                                []float64 // GriTS-Con per docling table (grits.go), 0 when no table chunk matched
	figures, tableChunks                 int
	eqNumbers, equations, eqLb, eqPieces int
	labelled                             ratio
	inside                               int // paragraph or heading chunks inside a figure's region
	misses                               []string
	sideBySide                           []sideBySide // docling tables missed
}

func (r *result) miss(format string, args ...any) {
	r.misses = append(r.misses, fmt.Sprintf(format, args...))
}

var (
	eqNumberAlone = regexp.MustCompile(`^\(\s*([A-Z]\.?\s*)?[0-9]{1,3}(\.[0-9]{1,3})?[a-z]?\s*\)$`)
	numberedLabel = regexp.MustCompile(`^(?i)(figure|fig\.|table)\s*\S+`)
)

func measure(e *pdf.Engine, path, gtDir string, o options) (*result, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	name := filepath.Base(path)
	res, err := compile.Extract(context.Background(), e, data, nil)
	if err != nil {
		return nil, err
	}
	key := strings.TrimSuffix(name, ".pdf")
	figs, err := compile.RenderFigures(e, data, res.Chunks, key)
	if err != nil {
		return nil, err
	}
	drawn := map[int]bool{}
	for _, f := range figs {
		if len(f.PNG) > 0 {
			drawn[f.Chunk] = true
		}
		if o.out != "" {
			if err := os.MkdirAll(o.out, 0o755); err != nil {
				return nil, err
			}
			if err := os.WriteFile(filepath.Join(o.out, filepath.Base(f.Path)), f.PNG, 0o644); err != nil {
				return nil, err
			}
		}
	}
	r := &result{name: name}
	chunks := res.Chunks
	byID := map[string]chunk.Chunk{}
	for _, c := range chunks {
		byID[c.ID] = c
		switch c.Type {
		case chunk.TypeFigure:
			r.figures++
		case chunk.TypeTable:
			r.tableChunks++
		case chunk.TypeEquation:
			r.equations++
			if c.Label != "" {
				r.eqLb++
			}
		}
		if eqNumberAlone.MatchString(strings.TrimSpace(c.Text)) {
			r.eqNumbers++
			r.miss("equation number alone: p%d %s %s %q", c.Page, c.ID, c.Type, c.Text)
		}
	}
	// Displays in pieces: an equation chunk that shares its band with
	// another equation chunk of the page (the vertical overlap at least
	// half the lower one's height) less than 40 pt away across.
	for i, a := range chunks {
		if a.Type != chunk.TypeEquation {
			continue
		}
		for j, b := range chunks {
			if i == j || b.Type != chunk.TypeEquation || b.Page != a.Page {
				continue
			}
			ov := math.Min(a.BBox[3], b.BBox[3]) - math.Max(a.BBox[1], b.BBox[1])
			h := math.Min(a.BBox[3]-a.BBox[1], b.BBox[3]-b.BBox[1])
			gap := math.Max(a.BBox[0]-b.BBox[2], b.BBox[0]-a.BBox[2])
			if ov > 0.5*h && gap < 40 {
				r.eqPieces++
				r.miss("equation in pieces: p%d %s %q beside %s", a.Page, a.ID, head(a.Text, 40), b.ID)
				break
			}
		}
	}
	// Text inside a figure that came out as a paragraph or a heading.
	for _, f := range chunks {
		if f.Type != chunk.TypeFigure {
			continue
		}
		for _, c := range chunks {
			if c.Page != f.Page || c.Type != chunk.TypeParagraph && c.Type != chunk.TypeHeading {
				continue
			}
			if within(c.BBox, f.BBox) >= 0.8 {
				r.inside++
				r.miss("p%d %s %s inside figure %s: %q", c.Page, c.ID, c.Type, f.ID, head(c.Text, 50))
			}
		}
	}
	// Numbered figure and table captions and their floats.
	for _, c := range chunks {
		if (c.Type != chunk.TypeFigure && c.Type != chunk.TypeCaption) || !numberedLabel.MatchString(c.Label) {
			continue
		}
		ok := false
		switch c.Type {
		case chunk.TypeFigure:
			ok = c.CaptionBBox != nil && *c.CaptionBBox != c.BBox
		case chunk.TypeCaption:
			if f, found := byID[c.Float]; found && abs(f.Page-c.Page) <= 1 {
				ok = true
			}
		}
		r.labelled.add(ok)
		if !ok {
			r.miss("caption without float: p%d %s %q", c.Page, c.ID, head(c.Text, 60))
		}
	}
	tests, err := olmocrTables(gtDir, name)
	if err != nil {
		return nil, err
	}
	for _, t := range tests {
		ok := t.passes(chunks)
		r.olmocr.add(ok)
		if !ok {
			r.miss("olmOCR table test %s: cell %q not as given", t.ID, t.Cell)
		}
	}
	gt := filepath.Join(gtDir, "docling_"+strings.TrimSuffix(name, ".pdf")+".json")
	if _, err := os.Stat(gt); err != nil {
		return r, nil
	}
	r.docling = true
	doc, err := readDocling(gt)
	if err != nil {
		return nil, err
	}
	for _, p := range doc.Pictures {
		if len(p.Prov) == 0 {
			continue
		}
		pv := p.Prov[0]
		box := pv.BBox.rect(doc.height(pv.Page))
		best, bi := 0.0, -1
		for i, c := range chunks {
			if c.Type != chunk.TypeFigure || c.Page != pv.Page {
				continue
			}
			if v := iou(box, c.BBox); v > best {
				best, bi = v, i
			}
		}
		ok := best >= 0.7 && drawn[bi]
		r.pictures.add(ok)
		if !ok {
			r.miss("picture p%d %v: best figure IoU %.2f", pv.Page, round(box), best)
		}
	}
	for _, t := range doc.Texts {
		if t.Label != "caption" || len(t.Prov) == 0 {
			continue
		}
		key := quote.Key(t.Text)
		var found *chunk.Chunk
		for j, c := range chunks {
			if c.Page == t.Prov[0].Page && (c.Type == chunk.TypeFigure || c.Type == chunk.TypeCaption) && quote.Key(c.Text) == key {
				found = &chunks[j]
				break
			}
		}
		r.captions.add(found != nil)
		if found == nil {
			var got string
			for _, c := range chunks {
				if c.Page == t.Prov[0].Page && strings.Contains(quote.Key(c.Text), key) {
					got = c.Type + " " + c.ID
				}
			}
			r.miss("caption p%d %q not found (in: %s)", t.Prov[0].Page, head(t.Text, 60), got)
			continue
		}
		want := "figure"
		if strings.HasPrefix(t.Parent.Ref, "#/tables/") {
			want = "table"
		}
		kind := found.CaptionOf
		if found.Type == chunk.TypeFigure {
			kind = "figure"
		}
		r.kinds.add(kind == want)
		if kind != want {
			r.miss("caption p%d %q: %s, docling's parent is a %s", t.Prov[0].Page, head(t.Text, 40), kind, want)
		}
	}
	for _, t := range doc.Tables {
		if len(t.Prov) == 0 {
			continue
		}
		pv := t.Prov[0]
		box := pv.BBox.rect(doc.height(pv.Page))
		best, bi := 0.0, -1
		for i, c := range chunks {
			if c.Type != chunk.TypeTable || c.Page != pv.Page {
				continue
			}
			if v := iou(box, c.BBox); v > best {
				best, bi = v, i
			}
		}
		if best < 0.5 {
			r.tables.add(false)
			r.grits = append(r.grits, 0)
			r.miss("table p%d %v: best table IoU %.2f", pv.Page, round(box), best)
			ours := overlapping(chunks, pv.Page, box)
			r.sideBySide = append(r.sideBySide, sideBySide{
				title:   fmt.Sprintf("p%d %v: no table chunk (best IoU %.2f)", pv.Page, round(box), best),
				docling: doclingGrid(t.Data.Rows, t.Data.Cols, t.Data.Cells),
				ours:    ours.rows, oursName: ours.name,
			})
			continue
		}
		ours := chunk.Cells(chunks[bi].Text)
		share := cellShare(ours, t.Data.Cells)
		r.cellShare = append(r.cellShare, share)
		g, _, _ := gritsCon(doclingGrid(t.Data.Rows, t.Data.Cols, t.Data.Cells), ours)
		r.grits = append(r.grits, g)
		r.tables.add(share >= 0.9)
		if share < 0.9 {
			r.miss("table p%d %s: %.0f %% of cells right (%d×%d docling, %d rows ours)", pv.Page, chunks[bi].ID, 100*share, t.Data.Rows, t.Data.Cols, len(ours))
			r.sideBySide = append(r.sideBySide, sideBySide{
				title:   fmt.Sprintf("p%d %s: %.0f %% of cells right", pv.Page, chunks[bi].ID, 100*share),
				docling: doclingGrid(t.Data.Rows, t.Data.Cols, t.Data.Cells),
				ours:    ours, oursName: "table chunk " + chunks[bi].ID,
			})
		}
	}
	return r, nil
}

// glyphName matches what docling writes for a glyph the PDF maps to no
// character (a bullet drawn from a symbol font: "SM590000",
// "GLYPH<c=1,font=…>"): not text of the text layer, so not compared.
var glyphName = regexp.MustCompile(`\bSM[0-9]{6}\b|GLYPH<[^>]*>`)

// noLeaders drops the tokens of dot leaders (dots only) from a cell's
// text: how many leader dots a table of contents' cell holds is where a
// cell's box was cut (docling's entry cells stop dots short of the page
// column and its page cells may start with one), not its content.
func noLeaders(s string) string {
	var out []string
	for _, t := range strings.Fields(s) {
		if strings.Trim(t, ".·…") != "" {
			out = append(out, t)
		}
	}
	return strings.Join(out, " ")
}

// cellShare returns the share of docling's cells with text that are at
// their row and column in ours, after the best shift; dot leaders are
// left out on both sides (noLeaders).
func cellShare(ours [][]string, cells []doclingCell) float64 {
	var want []doclingCell
	for _, c := range cells {
		c.Text = noLeaders(glyphName.ReplaceAllString(c.Text, ""))
		if quote.Key(c.Text) != "" {
			want = append(want, c)
		}
	}
	if len(want) == 0 {
		return 1
	}
	best := 0
	for dr := -3; dr <= 3; dr++ {
		for dc := -2; dc <= 2; dc++ {
			n := 0
			for _, c := range want {
				r, k := c.Row+dr, c.Col+dc
				if r >= 0 && r < len(ours) && k >= 0 && k < len(ours[r]) && quote.Key(noLeaders(ours[r][k])) == quote.Key(c.Text) {
					n++
				}
			}
			best = max(best, n)
		}
	}
	return float64(best) / float64(len(want))
}

type bbox struct {
	L, T, R, B float64
	Origin     string `json:"coord_origin"`
}

// rect returns the box as [x0 y0 x1 y1] with the origin bottom-left.
func (b bbox) rect(height float64) [4]float64 {
	if strings.EqualFold(b.Origin, "TOPLEFT") {
		return [4]float64{b.L, height - b.B, b.R, height - b.T}
	}
	return [4]float64{b.L, math.Min(b.B, b.T), b.R, math.Max(b.B, b.T)}
}

type prov struct {
	Page int  `json:"page_no"`
	BBox bbox `json:"bbox"`
}

type doclingCell struct {
	Text string `json:"text"`
	Row  int    `json:"start_row_offset_idx"`
	Col  int    `json:"start_col_offset_idx"`
}

type docling struct {
	Texts []struct {
		Label  string `json:"label"`
		Text   string `json:"text"`
		Prov   []prov `json:"prov"`
		Parent struct {
			Ref string `json:"$ref"`
		} `json:"parent"`
	} `json:"texts"`
	Pictures []struct {
		Prov []prov `json:"prov"`
	} `json:"pictures"`
	Tables []struct {
		Prov []prov `json:"prov"`
		Data struct {
			Rows  int           `json:"num_rows"`
			Cols  int           `json:"num_cols"`
			Cells []doclingCell `json:"table_cells"`
		} `json:"data"`
	} `json:"tables"`
	Pages map[string]struct {
		Size struct {
			Height float64 `json:"height"`
		} `json:"size"`
	} `json:"pages"`
}

func (d *docling) height(page int) float64 { return d.Pages[fmt.Sprint(page)].Size.Height }

func readDocling(path string) (*docling, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var d docling
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &d, nil
}

func iou(a, b [4]float64) float64 {
	x0, y0 := math.Max(a[0], b[0]), math.Max(a[1], b[1])
	x1, y1 := math.Min(a[2], b[2]), math.Min(a[3], b[3])
	if x1 <= x0 || y1 <= y0 {
		return 0
	}
	i := (x1 - x0) * (y1 - y0)
	u := (a[2]-a[0])*(a[3]-a[1]) + (b[2]-b[0])*(b[3]-b[1]) - i
	return i / u
}

// within is the share of box a's area that lies in box b.
func within(a, b [4]float64) float64 {
	x0, y0 := math.Max(a[0], b[0]), math.Max(a[1], b[1])
	x1, y1 := math.Min(a[2], b[2]), math.Min(a[3], b[3])
	area := (a[2] - a[0]) * (a[3] - a[1])
	if x1 <= x0 || y1 <= y0 || area <= 0 {
		return 0
	}
	return (x1 - x0) * (y1 - y0) / area
}

func round(b [4]float64) [4]float64 {
	for i := range b {
		b[i] = math.Round(b[i])
	}
	return b
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func head(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

func report(w io.Writer, rs []*result, o options) bool {
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].name < rs[j].name })
	fmt.Fprintln(w, "## Against docling's ground truth")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| file | pictures (IoU ≥ 0.7, PNG) | captions found and typed | caption kind agrees | tables (≥ 90 % cells right) | cells right per table | GriTS-Con per table |")
	fmt.Fprintln(w, "| --- | --- | --- | --- | --- | --- | --- |")
	var pics, caps, kinds, tabs ratio
	var grits []float64
	for _, r := range rs {
		if !r.docling {
			continue
		}
		var shares []string
		for _, s := range r.cellShare {
			shares = append(shares, fmt.Sprintf("%.0f %%", 100*s))
		}
		var gs []string
		for _, g := range r.grits {
			gs = append(gs, fmt.Sprintf("%.3f", g))
		}
		grits = append(grits, r.grits...)
		fmt.Fprintf(w, "| %s | %v | %v | %v | %v | %s | %s |\n", r.name, r.pictures, r.captions, r.kinds, r.tables, strings.Join(shares, ", "), strings.Join(gs, ", "))
		pics = ratio{pics.hit + r.pictures.hit, pics.total + r.pictures.total}
		caps = ratio{caps.hit + r.captions.hit, caps.total + r.captions.total}
		kinds = ratio{kinds.hit + r.kinds.hit, kinds.total + r.kinds.total}
		tabs = ratio{tabs.hit + r.tables.hit, tabs.total + r.tables.total}
	}
	fmt.Fprintf(w, "| **all** | %v | %v | %v | %v | | %s |\n\n", pics, caps, kinds, tabs, gritsSummary(grits))
	for _, r := range rs {
		for _, s := range r.sideBySide {
			fmt.Fprintf(w, "Docling table missed, %s %s — the first %d rows, docling's | ours (%s):\n\n", r.name, s.title, sideRows, s.oursName)
			s.write(w)
			fmt.Fprintln(w)
		}
	}
	fmt.Fprintln(w, "## Against olmOCR-bench's table tests")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| file | table tests passed |")
	fmt.Fprintln(w, "| --- | --- |")
	var olm ratio
	for _, r := range rs {
		if r.olmocr.total > 0 {
			fmt.Fprintf(w, "| %s | %v |\n", r.name, r.olmocr)
			olm = ratio{olm.hit + r.olmocr.hit, olm.total + r.olmocr.total}
		}
	}
	fmt.Fprintf(w, "| **all** | %v |\n\n", olm)
	fmt.Fprintln(w, "## Whole corpus")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| file | figure chunks | table chunks | equation chunks (with label; in pieces) | equation number alone | Figure/Table captions linked to a float | paragraphs/headings inside a figure |")
	fmt.Fprintln(w, "| --- | --- | --- | --- | --- | --- | --- |")
	var eqn, figs, tables, eqs, eqlb, eqp, inside int
	var linked ratio
	for _, r := range rs {
		fmt.Fprintf(w, "| %s | %d | %d | %d (%d; %d) | %d | %v | %d |\n", r.name, r.figures, r.tableChunks, r.equations, r.eqLb, r.eqPieces, r.eqNumbers, r.labelled, r.inside)
		inside += r.inside
		eqn += r.eqNumbers
		figs += r.figures
		tables += r.tableChunks
		eqs += r.equations
		eqlb += r.eqLb
		eqp += r.eqPieces
		linked = ratio{linked.hit + r.labelled.hit, linked.total + r.labelled.total}
	}
	fmt.Fprintf(w, "| **all** | %d | %d | %d (%d; %d) | %d | %v | %d |\n", figs, tables, eqs, eqlb, eqp, eqn, linked, inside)
	if o.verbose {
		for _, r := range rs {
			if len(r.misses) == 0 {
				continue
			}
			fmt.Fprintf(w, "\n### %s\n\n", r.name)
			for _, m := range r.misses {
				fmt.Fprintln(w, "- "+m)
			}
		}
	}
	share := func(r ratio) float64 {
		if r.total == 0 {
			return 1
		}
		return float64(r.hit) / float64(r.total)
	}
	return share(pics) >= 0.9 && share(caps) >= 0.95 && share(tabs) >= 0.9 && eqn == 0 && linked.hit == linked.total
}
