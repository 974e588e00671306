package cli

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/index"
	"github.com/crossmem/crossmem/internal/render"
)

// readOptions are read's arguments and flags.
type readOptions struct {
	app   *app
	query index.ReadQuery // Key and ChunkID from the arguments
	page  string          // --page: a PDF page number
}

func newReadCommand(a *app) *cobra.Command {
	o := &readOptions{app: a}
	cmd := &cobra.Command{
		Use:   "read <cite_key> [<chunk_id>] [--page N | --page-label L | --section S]",
		Short: "Print a chunk's, a page's or a section's verbatim text with its provenance (the CLI face of crossmem_read)",
		Long: `Print the full verbatim text of one chunk (its id, as search prints it), of one
page (--page: the PDF page number; --page-label: the printed page, as "p." shows
it: the PDF's page label, else the number in its running head or foot) or of
one section (--section: part of its title; subsections included) of a compiled
paper, each chunk with its provenance: type, page and printed page label,
section path, bbox in PDF points and text_sha256, then the previous and next
chunks. The text is exactly what the note holds; "reading:" gives it on one
line with line-end hyphens resolved (docs/verification.md), ready to quote.
A chunk edited by hand in the note is never printed: crossmem verify shows the
edit.

Exit status: 0 printed, 1 unknown paper, chunk, page or section, or an edited
chunk, 2 usage error.`,
		Args: args(cobra.RangeArgs(1, 2)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			o.query.Key = argv[0]
			if len(argv) == 2 {
				o.query.ChunkID = argv[1]
			}
			return runRead(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.page, "page", "", "every chunk of this PDF page (1-based)")
	f.StringVar(&o.query.PageLabel, "page-label", "", "every chunk of the page with this printed page (page label, else running head or foot number)")
	f.StringVar(&o.query.Section, "section", "", "every chunk of the first section whose title contains this")
	f.BoolVar(&o.query.Furniture, "furniture", false, "include running heads, page numbers and margin notes")
	a.addJSONFlag(cmd)
	cmd.ValidArgsFunction = completeKeys(a)
	return cmd
}

func runRead(ctx context.Context, o *readOptions) error {
	a, q := o.app, o.query
	if o.page != "" {
		n, err := strconv.Atoi(o.page)
		if err != nil || n < 1 {
			return usageError{fmt.Errorf("--page %q: give a PDF page number (1, 2, ...); --page-label takes a printed label", o.page)}
		}
		q.Page = n
	}
	set := 0
	for _, b := range []bool{q.ChunkID != "", q.Page != 0, q.PageLabel != "", q.Section != ""} {
		if b {
			set++
		}
	}
	if set != 1 {
		return usageError{errors.New("name one thing to read: a chunk id, --page, --page-label or --section")}
	}
	ix, err := a.syncedIndex(ctx)
	if err != nil {
		return err
	}
	r, err := ix.Read(ctx, q)
	if errors.Is(err, index.ErrUnknownPaper) {
		c, cerr := a.citer()
		if cerr != nil {
			return cerr
		}
		err = c.NotCompiled(q.Key)
	}
	if err != nil {
		return err
	}
	out := render.Read(q.Key, r)
	if a.json {
		return a.writeJSON(out)
	}
	fmt.Fprintln(a.io.Out, render.ReadText(out))
	return nil
}
