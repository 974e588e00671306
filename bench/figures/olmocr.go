package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/quote"
)

// olmOCR-bench's table tests (../shared/corpus/groundtruth/
// olmocr_bench_tests.jsonl, "type": "table"): a cell's text and, for
// some, the text of its neighbour to the left, right, above or below, of
// its column's head (top_heading) or its row's (left_heading). A test
// passes when a table chunk on its page has a cell with that text whose
// neighbours are as given (texts compared by quote.Key; a column's head is
// its first non-empty cell from the top, a row's its first from the left).
type olmocrTable struct {
	Page        int    `json:"page"`
	Type        string `json:"type"`
	Cell        string `json:"cell"`
	Up          string `json:"up"`
	Down        string `json:"down"`
	Left        string `json:"left"`
	Right       string `json:"right"`
	TopHeading  string `json:"top_heading"`
	LeftHeading string `json:"left_heading"`
	File        string `json:"corpus_file"`
	ID          string `json:"id"`
}

// olmocrTables returns the table tests of the corpus file name.
func olmocrTables(gtDir, name string) ([]olmocrTable, error) {
	f, err := os.Open(filepath.Join(gtDir, "olmocr_bench_tests.jsonl"))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []olmocrTable
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for n := 1; sc.Scan(); n++ {
		var t olmocrTable
		if err := json.Unmarshal(sc.Bytes(), &t); err != nil {
			return nil, fmt.Errorf("%s line %d: %w", f.Name(), n, err)
		}
		if t.Type == "table" && t.File == name {
			out = append(out, t)
		}
	}
	return out, sc.Err()
}

// passes reports whether a table chunk of the test's page satisfies it.
func (t olmocrTable) passes(chunks []chunk.Chunk) bool {
	key := quote.Key
	for _, c := range chunks {
		if c.Type != chunk.TypeTable || c.Page != t.Page {
			continue
		}
		rows := chunk.Cells(c.Text)
		at := func(r, k int) string {
			if r < 0 || r >= len(rows) || k < 0 || k >= len(rows[r]) {
				return ""
			}
			return rows[r][k]
		}
		for r, row := range rows {
			for k, cell := range row {
				if key(cell) != key(t.Cell) {
					continue
				}
				ok := true
				check := func(want, got string) {
					if want != "" && key(want) != key(got) {
						ok = false
					}
				}
				check(t.Left, at(r, k-1))
				check(t.Right, at(r, k+1))
				check(t.Up, at(r-1, k))
				check(t.Down, at(r+1, k))
				head := ""
				for i := range rows {
					if s := strings.TrimSpace(at(i, k)); s != "" {
						head = s
						break
					}
				}
				check(t.TopHeading, head)
				check(t.LeftHeading, strings.TrimSpace(row[0]))
				if ok {
					return true
				}
			}
		}
	}
	return false
}
