package pdf

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"math"
	"sync"

	"github.com/klippa-app/go-pdfium/enums"
	"github.com/klippa-app/go-pdfium/requests"
)

// Rendering limits: a request past them is refused before pdfium
// allocates the bitmap (4 bytes per pixel inside its WebAssembly memory,
// then a copy in Go).
const (
	// MaxRenderSide bounds the width and the height of a rendering in
	// pixels: 6,000 (a US Letter page at ~540 dpi).
	MaxRenderSide = 6000
	// MaxRenderPixels bounds width × height: 24 megapixels (96 MB as
	// RGBA).
	MaxRenderPixels = 24 << 20
)

// ErrRenderSize is returned by Render for a size outside 1..MaxRenderSide
// or past MaxRenderPixels.
var ErrRenderSize = errors.New("rendering size out of range")

// Geometry is where a page's coordinates are: the size of its CropBox (the
// MediaBox when it has none) in points, in unrotated user space, and the
// /Rotate a viewer applies to show it.
type Geometry struct {
	Width, Height float64 // CropBox size in points, unrotated
	Rotation      int     // /Rotate in degrees clockwise: 0, 90, 180 or 270
}

// Display returns the size in points of the page as shown, /Rotate
// applied (width and height swap for 90 and 270).
func (g Geometry) Display() (w, h float64) {
	if g.Rotation == 90 || g.Rotation == 270 {
		return g.Height, g.Width
	}
	return g.Width, g.Height
}

// ToDisplay maps r, a box in the package's coordinates (points, origin at
// the bottom-left corner of the CropBox, y up, unrotated: a chunk's bbox),
// to the page as shown: points from the top-left corner of the displayed
// page, x to the right and y down, /Rotate applied clockwise. The result
// has X0 <= X1 and Y0 <= Y1 (X0, Y0 the top-left corner). Multiply by a
// Rendering's Scale for pixels.
func (g Geometry) ToDisplay(r Rect) Rect {
	// One corner at a time: (x, y) unrotated, y up → (u, v) shown, v down.
	at := func(x, y float64) (u, v float64) {
		switch g.Rotation {
		case 90:
			return y, x
		case 180:
			return g.Width - x, y
		case 270:
			return g.Height - y, g.Width - x
		}
		return x, g.Height - y
	}
	u0, v0 := at(r.X0, r.Y0)
	u1, v1 := at(r.X1, r.Y1)
	return Rect{min(u0, u1), min(v0, v1), max(u0, u1), max(v0, v1)}
}

// Rendering is a page, or a region of one, drawn by pdfium.
type Rendering struct {
	// Image is opaque (transparent areas composited on white), in the
	// page's displayed orientation.
	Image    *image.RGBA
	Geometry Geometry
	// Scale is pixels per point: a point (u, v) of the displayed page
	// (Geometry.ToDisplay) is pixel (u·Scale, v·Scale) of a full-page
	// image, (u·Scale − Origin.X, v·Scale − Origin.Y) of a region's.
	Scale float64
	// Origin is the pixel of the full page at the image's top-left corner:
	// (0, 0) unless a region was rendered.
	Origin image.Point
}

// RenderOptions says what to draw.
type RenderOptions struct {
	// Width is the width of the image in pixels (of the region when Region
	// is set); the height follows the shape. 1..MaxRenderSide.
	Width int
	// Region, when not the zero Rect, is the part of the page to draw, in
	// the package's coordinates (like a chunk's bbox); it is clipped to
	// the page.
	Region Rect
}

// Geometry returns page n's (1-based) CropBox size and /Rotate.
func (d *Document) Geometry(n int) (Geometry, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.geometry(n)
}

// geometry is Geometry with d.mu held.
func (d *Document) geometry(n int) (Geometry, error) {
	if n < 1 || n > d.numPages {
		return Geometry{}, fmt.Errorf("page %d out of range 1..%d", n, d.numPages)
	}
	inst := d.inst
	pageReq := requests.Page{ByIndex: &requests.PageByIndex{Document: d.ref, Index: n - 1}}
	var g Geometry
	if cb, err := inst.FPDFPage_GetCropBox(&requests.FPDFPage_GetCropBox{Page: pageReq}); err == nil && cb.Right > cb.Left && cb.Top > cb.Bottom {
		g.Width, g.Height = float64(cb.Right-cb.Left), float64(cb.Top-cb.Bottom)
	} else if mb, err := inst.FPDFPage_GetMediaBox(&requests.FPDFPage_GetMediaBox{Page: pageReq}); err == nil && mb.Right > mb.Left && mb.Top > mb.Bottom {
		g.Width, g.Height = float64(mb.Right-mb.Left), float64(mb.Top-mb.Bottom)
	} else if sz, err := inst.FPDF_GetPageSizeByIndexF(&requests.FPDF_GetPageSizeByIndexF{Document: d.ref, Index: n - 1}); err == nil {
		g.Width, g.Height = float64(sz.Size.Width), float64(sz.Size.Height)
		if rot, err := inst.FPDFPage_GetRotation(&requests.FPDFPage_GetRotation{Page: pageReq}); err == nil && (rot.PageRotation == 1 || rot.PageRotation == 3) {
			g.Width, g.Height = g.Height, g.Width // that size is the displayed one
		}
	}
	if rot, err := inst.FPDFPage_GetRotation(&requests.FPDFPage_GetRotation{Page: pageReq}); err == nil {
		g.Rotation = int(rot.PageRotation) * 90
	}
	if g.Width <= 0 || g.Height <= 0 {
		return Geometry{}, fmt.Errorf("page %d has no size", n)
	}
	return g, nil
}

// Render draws page n (1-based) with pdfium (FPDF_RenderPageBitmap, with
// annotations), as a viewer shows it: the CropBox, /Rotate applied, on
// white. It returns ErrRenderSize for a width or a resulting height
// outside 1..MaxRenderSide or past MaxRenderPixels, and an error for a
// region outside the page.
func (d *Document) Render(n int, opts RenderOptions) (*Rendering, error) {
	// Held until the deferred Cleanup has run: it calls into the instance.
	d.mu.Lock()
	defer d.mu.Unlock()
	g, err := d.geometry(n)
	if err != nil {
		return nil, err
	}
	dw, dh := g.Display()
	full := Rect{0, 0, dw, dh}
	region := full
	if opts.Region != (Rect{}) {
		region = g.ToDisplay(opts.Region).Intersect(full)
		if region.Width() <= 0 || region.Height() <= 0 {
			return nil, fmt.Errorf("region %v is outside page %d", opts.Region, n)
		}
	}
	if opts.Width < 1 || opts.Width > MaxRenderSide {
		return nil, fmt.Errorf("%w: width %d (1..%d)", ErrRenderSize, opts.Width, MaxRenderSide)
	}
	scale := float64(opts.Width) / region.Width()
	pageW, pageH := int(math.Round(dw*scale)), int(math.Round(dh*scale))
	height := int(math.Round(region.Height() * scale))
	if height < 1 || height > MaxRenderSide || opts.Width*height > MaxRenderPixels || pageW > 8*MaxRenderSide || pageH > 8*MaxRenderSide {
		return nil, fmt.Errorf("%w: %d×%d pixels (at most %d per side, %d in all)", ErrRenderSize, opts.Width, height, MaxRenderSide, MaxRenderPixels)
	}
	req := &requests.RenderPageInPixels{
		Page:        requests.Page{ByIndex: &requests.PageByIndex{Document: d.ref, Index: n - 1}},
		Width:       pageW,
		Height:      pageH,
		RenderFlags: enums.FPDF_RENDER_FLAG_ANNOT,
	}
	origin := image.Point{}
	if region != full {
		// go-pdfium's crop is in points of the displayed page from its
		// top-left corner, and the size asked is the region's.
		req.Crop = &requests.RenderPageCrop{X: region.X0, Y: region.Y0, Width: region.Width(), Height: region.Height()}
		req.Width, req.Height = opts.Width, height
		origin = image.Point{int(math.Round(region.X0 * scale)), int(math.Round(region.Y0 * scale))}
	}
	res, err := d.inst.RenderPageInPixels(req)
	if err != nil {
		return nil, fmt.Errorf("render page %d: %w", n, err)
	}
	defer res.Cleanup()
	src, ok := res.Result.RenderedImage.(*image.RGBA)
	if !ok || src == nil {
		return nil, fmt.Errorf("render page %d: no RGBA image (%T)", n, res.Result.RenderedImage)
	}
	// The image is a view of pdfium's memory: copy it, compositing any
	// transparency on white.
	b := src.Bounds()
	img := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := 0; y < b.Dy(); y++ {
		copyOnWhite(img.Pix[y*img.Stride:y*img.Stride+4*b.Dx()], src.Pix[y*src.Stride:y*src.Stride+4*b.Dx()])
	}
	// The scale pdfium used (it rounds the page to whole pixels).
	if req.Crop == nil && dw > 0 {
		scale = float64(b.Dx()) / dw
	}
	return &Rendering{Image: img, Geometry: g, Scale: scale, Origin: origin}, nil
}

// copyOnWhite copies the premultiplied RGBA pixels of src into dst (as
// long) composited on opaque white: an opaque pixel as it is, another's
// colour c becomes c + 255 − alpha and its alpha 255. The row is copied
// whole, then only the pixels that are not opaque are changed: most of a
// rendering is opaque.
func copyOnWhite(dst, src []byte) {
	copy(dst, src)
	for i := 3; i < len(dst); i += 4 {
		if a := dst[i]; a != 0xff {
			w := 0xff - a
			dst[i-3], dst[i-2], dst[i-1], dst[i] = dst[i-3]+w, dst[i-2]+w, dst[i-1]+w, 0xff
		}
	}
}

// pngBuffers keeps the PNG encoder's buffers and zlib writer between
// encodings (the bytes written are the same as without it).
var pngBuffers pngPool

// pngPool is a png.EncoderBufferPool on a sync.Pool.
type pngPool struct{ p sync.Pool }

func (p *pngPool) Get() *png.EncoderBuffer {
	b, _ := p.p.Get().(*png.EncoderBuffer)
	return b
}

func (p *pngPool) Put(b *png.EncoderBuffer) { p.p.Put(b) }

// PNG encodes the image as PNG at zlib's best speed: 8-bit grey when
// every pixel is grey (most pages of text: a third of the bytes to filter
// and compress), else 8-bit RGB.
func (r *Rendering) PNG() ([]byte, error) {
	img := r.Image
	var out image.Image = img
	grey := true
	pix := img.Pix
	for i := 0; i+3 < len(pix); i += 4 {
		if pix[i] != pix[i+1] || pix[i] != pix[i+2] {
			grey = false
			break
		}
	}
	if grey {
		b := img.Bounds()
		g := image.NewGray(b)
		for y := 0; y < b.Dy(); y++ {
			row := pix[y*img.Stride : y*img.Stride+4*b.Dx()]
			dst := g.Pix[y*g.Stride : y*g.Stride+b.Dx()]
			for x := range dst {
				dst[x] = row[4*x]
			}
		}
		out = g
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &pngBuffers}
	if err := enc.Encode(&buf, out); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
