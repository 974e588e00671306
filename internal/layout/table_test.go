package layout

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/pdf"
)

// tablesOf returns the table floats of a page of a laid-out document.
func tablesOf(pages []*Page, number int) []*Float {
	var out []*Float
	for _, p := range pages {
		if p.Number != number {
			continue
		}
		for _, f := range p.Floats {
			if f.Kind == Table {
				out = append(out, f)
			}
		}
	}
	return out
}

func corpusDocument(t *testing.T, name string) []*Page {
	t.Helper()
	return Document(readPages(t, filepath.Join(corpustest.Dir(t, "pdf"), name)), pdf.Structure{})
}

// A table turned on the page (set with its rows running up the page, as
// a landscape table is): a PDF made at test time by pdfTeX from
// testdata/turned_table.tex, whose cells are known from the source.
func TestTurnedTable(t *testing.T) {
	pages := texDocument(t, "turned_table.tex")
	tables := tablesOf(pages, 1)
	if len(tables) != 1 {
		t.Fatalf("%d tables, want 1", len(tables))
	}
	want := [][]string{
		{"Method", "Precision", "Recall", "Runs"},
		{"Baseline", "71.2", "64.0", "12"},
		{"Ours", "83.5", "80.1", "12"},
		{"Ours, no rules", "79.9", "77.3", "9"},
		{"Oracle", "95.0", "93.8", "3"},
	}
	f := tables[0]
	if !f.Rotated {
		t.Error("the table is not marked turned")
	}
	if !slices.EqualFunc(f.Cells, want, slices.Equal[[]string]) {
		t.Errorf("cells\n%q\nwant\n%q", f.Cells, want)
	}
	// Its box is where it is drawn: taller than wide on the page.
	if f.Box.Height() <= f.Box.Width() {
		t.Errorf("box %v is not the turned table's", f.Box)
	}
}

// Column heads turned up the page over a table's columns (Table 2-2 of
// dl_redp5110_sampled.pdf, page 9) are the cells of its head row, and
// keep a column whose cells are all empty.
func TestTurnedHeads(t *testing.T) {
	corpustest.Slow(t, "lays out a corpus PDF")
	tables := tablesOf(corpusDocument(t, "dl_redp5110_sampled.pdf"), 9)
	if len(tables) != 1 {
		t.Fatalf("%d tables on page 9, want 1", len(tables))
	}
	cells := tables[0].Cells
	head := []string{"User action", "*JOBCTL", "QIBM_DB_SECADM", "QIBM_DB_SQLADM", "QIBM_DB_SYSMON", "No Authority"}
	if len(cells) == 0 || !slices.Equal(cells[0], head) {
		t.Fatalf("rows %q, want a head row %q", cells, head)
	}
	// "SET CURRENT DEGREE": X under *JOBCTL and QIBM_DB_SQLADM.
	if row := []string{"SET CURRENT DEGREE (SQL statement)", "X", "", "X", "", ""}; len(cells) < 2 || !slices.Equal(cells[1], row) {
		t.Errorf("rows %q, want row 2 %q", cells, row)
	}
}

// Grids that are not tables: an author block of names, affiliations and
// e-mail addresses side by side (pm_2302.07302v1.pdf and
// dp_ligatures_01.pdf, page 1), a single column of dates (gr_0807.3577.pdf,
// page 1).
func TestNotTables(t *testing.T) {
	corpustest.Slow(t, "lays out corpus PDFs")
	for _, name := range []string{"pm_2302.07302v1.pdf", "dp_ligatures_01.pdf", "gr_0807.3577.pdf"} {
		for _, f := range tablesOf(corpusDocument(t, name), 1) {
			t.Errorf("%s page 1: a table %v with cells %q", name, f.Box, f.Cells)
		}
	}
}

// Rows of wrapped text: a table whose cells wrap over several lines
// (pm_2203.00130v1.pdf, Table 1 on page 9: five barriers, each a row of
// four cells) has one row per record, not one per line.
func TestWrappedRows(t *testing.T) {
	corpustest.Slow(t, "lays out a corpus PDF")
	tables := tablesOf(corpusDocument(t, "pm_2203.00130v1.pdf"), 9)
	if len(tables) != 1 {
		t.Fatalf("%d tables on page 9, want 1", len(tables))
	}
	var firsts []string
	for _, r := range tables[0].Cells {
		firsts = append(firsts, r[0])
	}
	want := []string{"Barrier", "Unfamiliar terminology", "Dense text", "Knowing what to read", "Searching for answers", "Relating findings to personal circumstances"}
	if !slices.Equal(firsts, want) {
		t.Errorf("first column %q, want %q", firsts, want)
	}
	for _, r := range tables[0].Cells {
		if strings.Contains(strings.Join(r, " "), "Processing") {
			t.Errorf("the running head is in the table: %q", r)
		}
	}
}

// Tables whose reading needs more than the gaps between columns, one a
// page of a PDF made at test time by pdfTeX from
// testdata/table_reading.tex: a grid ruled after its first column only,
// its other columns a word space apart (vertical rules cut a phrase, and
// words starting at one x in every row mark a column); a grid ruled
// between its columns but across only at head and foot (each line of its
// body a row); a table with notes under its last rule (rows of their own:
// text does not wrap across a rule); groups of rows between rules, each
// group's label set on its middle line (one row a group); columns a word
// space apart with no rule (where their words start).
func TestTableReading(t *testing.T) {
	pages := texDocument(t, "table_reading.tex")
	want := map[int][][]string{
		1: {
			{"Specifier", "Arity", "Fixity", "Associativity"},
			{"fx", "unary", "prefix", "non-associative"},
			{"fy", "unary", "prefix", "right-associative"},
			{"xf", "unary", "postfix", "non-associative"},
			{"yfx", "binary", "infix", "left-associative"},
		},
		2: {
			{"Monoid", "Type", "Unit"},
			{"union", "set", "empty set"},
			{"bag union", "bag", "empty bag"},
			{"append", "list", "empty list"},
		},
		3: {
			{"Sample", "Count", "Share"},
			{"Alpha", "120", "0.25"},
			{"Beta", "360", "0.75"},
			{"a First note of the table.", "", ""},
			{"b Second note.", "", ""},
		},
		4: {
			{"Always include", "The first complaint The last amended complaint Settlement agreements"},
			{"Sometimes include", "Amicus briefs Orders that settle an issue Motions without an order"},
			{"Rarely include", "Answers Attorney appearances Other orders"},
		},
		5: {
			{"No.", "Isolate", "Pathotype", "Source"},
			{"1", "G31", "Japanese pear", "Gifu, Japan"},
			{"2", "T88-52", "Japanese pear", "Tottori, Japan"},
			{"6", "O-187", "Strawberry", "Iwate, Japan"},
			{"11", "ATCC38963", "Tangerine", "United States"},
			{"12", "ATCC38962", "Rough lemon", "United States"},
		},
	}
	for page := 1; page <= len(want); page++ {
		tables := tablesOf(pages, page)
		if len(tables) != 1 {
			t.Errorf("page %d: %d tables, want 1", page, len(tables))
			continue
		}
		if got := tables[0].Cells; !slices.EqualFunc(got, want[page], slices.Equal[[]string]) {
			t.Errorf("page %d: cells\n%q\nwant\n%q", page, got, want[page])
		}
	}
}

// A hostile table region of 3,000 lines of 30 words each, their starts
// scattered: alignedStarts judges each distinct start against every line,
// so it reads no column starts there rather than work for minutes
// (without the bound it did not return in 20 s). A real table's starts
// are judged as before (TestTableReading and the pdfTeX tables).
func TestAlignedStartsHostile(t *testing.T) {
	var lines []*Line
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		var cs []char
		y := float64(3000 - i)
		x := 10 + 3*rnd.Float64()
		for range 30 {
			for range 3 {
				cs = append(cs, char{Char: pdf.Char{Rune: 'a', Box: pdf.Rect{X0: x, Y0: y, X1: x + 1.1, Y1: y + 1}, Size: 1}})
				x += 1.1
			}
			cs = append(cs, char{Char: pdf.Char{Rune: ' ', Box: pdf.Rect{X0: x, Y0: y, X1: x + 0.9, Y1: y + 1}, Size: 1}})
			x += 0.9 + 1.5*rnd.Float64()
		}
		lines = append(lines, newLine(cs, nil))
	}
	done := make(chan []float64, 1)
	go func() { done <- alignedStarts(lines) }()
	select {
	case s := <-done:
		if len(s) != 0 {
			t.Errorf("column starts %v in scattered words", s)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("alignedStarts did not return in 20 s")
	}
}

// rowsInBand on a band of more than a thousand lines (a hostile grid:
// one rule under a head, then a thousand and two lines): each line is
// its own, so the band holds one line that fills both columns and no two
// — no rows left in one band. Lines were once numbered band*1000+line,
// which made the thousandth line of a band collide with the next band's
// first and gathered every later line into one that filled both columns.
func TestRowsInBandManyLines(t *testing.T) {
	const n = 1002
	box := pdf.Rect{X0: 0, Y0: 0, X1: 200, Y1: float64(n + 20)}
	rule := float64(n + 5)
	var ps []piece
	at := func(x0, base float64) {
		ps = append(ps, piece{text: "x", box: pdf.Rect{X0: x0, Y0: base, X1: x0 + 20, Y1: base + 0.7}, base: base, size: 1})
	}
	at(10, float64(n+10)) // the head, over the rule
	at(110, float64(n+10))
	at(10, float64(n)) // the band's one full line
	at(110, float64(n))
	for i := 1; i < n; i++ {
		at(10+100*float64(i%2), float64(n-i))
	}
	if rowsInBand(ps, []float64{100}, []float64{rule}, box) {
		t.Error("rowsInBand = true, want false: one line of the band fills both columns")
	}
}

// Ruled tables whose rules group rows (testdata/table_groups.tex, typeset
// by pdfTeX at test time): measurements with uncertainties in groups of
// three rows whose label is set on the middle row; a table split in two
// parts one above the other, each part its own table with its head; a
// table of words whose rules set off groups of single-line rows. Every
// row is its own, with the cells of the source.
func TestTableGroups(t *testing.T) {
	pages := texDocument(t, "table_groups.tex")
	if len(pages) != 1 {
		t.Fatalf("%d pages, want 1", len(pages))
	}
	var tables []*Float
	for _, f := range pages[0].Floats {
		if f.Kind == Table {
			tables = append(tables, f)
		}
	}
	want := [][][]string{
		{
			{"Model", "Component", "Shift", "Width", "Flux"},
			{"", "BELs", "−97.13", "9117±38", "1033±33"},
			{"Model 1", "IELs", "−4049.123", "1974±22", "2495±30"},
			{"", "NELs", "· · ·", "641±4", "449±23"},
			{"", "BELs", "−85", "8991±41", "988±29"},
			{"Model 2", "IELs", "−51000", "2025±26", "2494±32"},
			{"", "NELs", "52", "637±10", "477±17"},
		},
		{
			{"NV", "SiIV", "CIV", "MgII", "Hg", "Lya"},
			{"(6)", "(7)", "(8)", "(9)", "(10)", "(11)"},
			{"< 35", "< 166", "637±31", "1951±26", "991±30", "1033±33"},
			{"< 42", "< 109", "995±186", "83±30", "75±23", "2495±30"},
			{"< 6", "< 9", "–", "275±18", "150±11", "449±23"},
		},
		{
			{"Hb", "Ha", "HeI", "Pag"},
			{"3502±42", "20285±80", "2025±116", "1289±107"},
			{"130±25", "357±94", "194±64", "36±23"},
			{"313±12", "958±43", "318±34", "151±17"},
		},
		{
			{"New", "Old", "Output"},
			{"textbf", "bf", "boldface"},
			{"textit", "it", "italic"},
			{"textsf", "sf", "sans serif"},
			{"textsc", "sc", "small capitals"},
			{"mathcal", "cal", "calligraphy"},
			{"mib", "mib", "math bold italic"},
		},
	}
	if len(tables) != len(want) {
		t.Fatalf("%d tables, want %d", len(tables), len(want))
	}
	for i, f := range tables {
		if !slices.EqualFunc(f.Cells, want[i], slices.Equal) {
			t.Errorf("table %d: cells\n%q\nwant\n%q", i+1, f.Cells, want[i])
		}
	}
}
