package check

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/compile"
	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/index"
	"github.com/crossmem/crossmem/internal/note"
	"github.com/crossmem/crossmem/internal/pdf"
)

// A quotation of a table's cell or row is verified against the table
// chunk and reports where in the table it is: a real table (Table 2-1 of
// dl_redp5110_sampled.pdf, compiled as crossmem compiles it), indexed from
// its note.
func TestQuoteTableCell(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a corpus PDF")
	}
	data, err := os.ReadFile(filepath.Join(corpustest.Dir(t, "pdf"), "dl_redp5110_sampled.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	e, err := pdf.Open(t.Context(), pdf.Options{CacheDir: filepath.Join(os.TempDir(), "crossmem-test-wazero"), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	res, err := compile.Extract(t.Context(), e, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	var table chunk.Chunk
	for _, c := range res.Chunks {
		if c.Type == chunk.TypeTable && strings.Contains(c.Text, "FUNCTION_ID") {
			table = c
		}
	}
	if table.ID == "" {
		t.Fatal("no table chunk holds FUNCTION_ID (Table 2-1 on page 8)")
	}
	cells := chunk.Cells(table.Text)
	// Where the test's quotations are, from the cells themselves.
	find := func(text string) (int, int) {
		for r, row := range cells {
			for k, c := range row {
				if strings.Contains(c, text) {
					return r + 1, k + 1
				}
			}
		}
		t.Fatalf("no cell holds %q in\n%s", text, table.Text)
		return 0, 0
	}
	descRow, descCol := find("Name of the user profile that has a usage setting")
	nameRow, nameCol := find("USER_NAME")

	home := t.TempDir()
	wiki := filepath.Join(home, "wiki")
	os.MkdirAll(wiki, 0o755)
	table.ByteRange = [2]int{0, len(table.Text)}
	n := &note.Note{Front: note.Frontmatter{CiteKey: "ibm2014rcac", Title: "Row and Column Access Control", Year: 2014, CapturedAt: "1",
		Raw: "raw/1_ibm2014rcac.pdf", Parser: note.Parser, Chunks: 1, Pages: 1, WikiFormat: note.FormatVersion}, Chunks: []chunk.Chunk{table}}
	out, err := note.Format(n)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(wiki, "1_ibm2014rcac.md"), out, 0o644)
	ix, err := index.Open(filepath.Join(home, index.FileName), wiki)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Sync(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	c := &Checker{Index: ix}

	for _, tc := range []struct {
		name, quote string
		want        TableCell
	}{
		{"a cell", "Name of the user profile that has a usage setting for this function.",
			TableCell{Row: descRow, Column: descCol, Head: collapse(cells[0][descCol-1])}},
		{"a row", "USER_NAME VARCHAR(10) Name of the user profile",
			TableCell{Row: nameRow, Column: nameCol, EndRow: nameRow, EndColumn: descCol}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := c.Quote(t.Context(), tc.quote, []string{"ibm2014rcac"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != Verified || r.Source == nil || len(r.Source.Chunks) != 1 {
				t.Fatalf("status %s, source %+v; want verified in %s", r.Status, r.Source, table.ID)
			}
			got := r.Source.Chunks[0].Cell
			if got == nil || *got != tc.want {
				t.Errorf("cell %+v, want %+v", got, tc.want)
			}
		})
	}
	// A paragraph's source carries no cell.
	if r, err := c.Quote(t.Context(), "no such words in the table at all", []string{"ibm2014rcac"}, nil); err != nil || r.Source != nil {
		t.Errorf("unrelated quotation: %+v, %v", r, err)
	}
}
