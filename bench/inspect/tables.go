package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/compile"
	"github.com/crossmem/crossmem/internal/pdf"
)

// tables prints every table chunk of the files matching pattern, as the
// note shows it (a markdown table), with its id, page, bbox and the
// caption linked to it: the printout to hand-check tables by (a false
// table, a column read wrong).
func tables(ctx context.Context, e *pdf.Engine, pattern string) error {
	files, err := glob(pattern)
	if err != nil {
		return err
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		res, err := compile.Extract(ctx, e, data, nil)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		caption := map[string]string{}
		for _, c := range res.Chunks {
			if c.Type == chunk.TypeCaption && c.Float != "" {
				caption[c.Float] = c.Text
			}
		}
		for _, c := range res.Chunks {
			if c.Type != chunk.TypeTable {
				continue
			}
			rows := chunk.Cells(c.Text)
			fmt.Printf("=== %s %s p%d [%.0f %.0f %.0f %.0f] %d rows × %d cols\n", filepath.Base(path), c.ID, c.Page, c.BBox[0], c.BBox[1], c.BBox[2], c.BBox[3], len(rows), len(rows[0]))
			if t := caption[c.ID]; t != "" {
				if len(t) > 90 {
					t = t[:90] + "…"
				}
				fmt.Printf("caption: %s\n", strings.ReplaceAll(t, "\n", " "))
			}
			for _, l := range chunk.TableMarkdown(c.Text) {
				fmt.Println(l)
			}
		}
	}
	return nil
}
