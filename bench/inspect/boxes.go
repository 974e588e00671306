package main

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"strconv"
	"strings"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/compile"
	"github.com/crossmem/crossmem/internal/pdf"
)

// boxColour is the colour a chunk type's box is drawn in.
var boxColour = map[string]color.RGBA{
	chunk.TypeFigure:  {0xd0, 0x00, 0x00, 0xff},
	chunk.TypeTable:   {0x00, 0x80, 0x00, 0xff},
	chunk.TypeCaption: {0xe0, 0x80, 0x00, 0xff},
}

// boxes draws page PAGE of FILE.pdf with every chunk's box (compile.Extract,
// what `crossmem compile` writes) to OUT.png: figures red, tables green,
// captions orange, a figure's caption box orange too, every other chunk
// blue. It prints each chunk's type, box and the start of its text.
func boxes(ctx context.Context, e *pdf.Engine, arg string) error {
	spec, out, ok := strings.Cut(arg, "=")
	path, pageArg, _ := strings.Cut(spec, ":")
	n, err := strconv.Atoi(pageArg)
	if !ok || err != nil || n < 1 {
		return fmt.Errorf("boxes wants FILE.pdf:PAGE=OUT.png, got %q", arg)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	res, err := compile.Extract(ctx, e, data, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	d, err := e.OpenBytes(data)
	if err != nil {
		return err
	}
	defer d.Close()
	r, err := d.Render(n, pdf.RenderOptions{Width: 1000})
	if err != nil {
		return err
	}
	img := r.Image
	rect := func(b [4]float64, c color.RGBA) {
		q := r.Geometry.ToDisplay(pdf.Rect{X0: b[0], Y0: b[1], X1: b[2], Y1: b[3]})
		x0, y0 := int(q.X0*r.Scale), int(q.Y0*r.Scale)
		x1, y1 := int(q.X1*r.Scale), int(q.Y1*r.Scale)
		for t := 0; t < 2; t++ {
			for x := x0; x <= x1; x++ {
				img.SetRGBA(x, y0+t, c)
				img.SetRGBA(x, y1-t, c)
			}
			for y := y0; y <= y1; y++ {
				img.SetRGBA(x0+t, y, c)
				img.SetRGBA(x1-t, y, c)
			}
		}
	}
	for _, c := range res.Chunks {
		if c.Page != n {
			continue
		}
		col, ok := boxColour[c.Type]
		if !ok {
			col = color.RGBA{0x20, 0x40, 0xff, 0xff}
		}
		rect(c.BBox, col)
		if c.CaptionBBox != nil {
			rect(*c.CaptionBBox, boxColour[chunk.TypeCaption])
		}
		t := strings.Join(strings.Fields(c.Text), " ")
		if len(t) > 60 {
			t = t[:60]
		}
		fmt.Printf("%-10s [%3.0f %3.0f %3.0f %3.0f] %s\n", c.Type, c.BBox[0], c.BBox[1], c.BBox[2], c.BBox[3], t)
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := png.Encode(f, image.Image(img)); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
