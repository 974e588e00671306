package pdf

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"testing"

	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/pdf/pdftest"
)

func TestToDisplay(t *testing.T) {
	// A 100×200 pt page; the box [10 20 30 60] (y up, unrotated).
	r := Rect{10, 20, 30, 60}
	for _, tc := range []struct {
		rot  int
		want Rect
		w, h float64
	}{
		{0, Rect{10, 140, 30, 180}, 100, 200},   // y flips: 200-60 .. 200-20
		{90, Rect{20, 10, 60, 30}, 200, 100},    // clockwise: the bottom edge becomes the left
		{180, Rect{70, 20, 90, 60}, 100, 200},   // upside down
		{270, Rect{140, 70, 180, 90}, 200, 100}, // the top edge becomes the left
	} {
		g := Geometry{Width: 100, Height: 200, Rotation: tc.rot}
		if got := g.ToDisplay(r); got != tc.want {
			t.Errorf("rotation %d: ToDisplay = %v, want %v", tc.rot, got, tc.want)
		}
		if w, h := g.Display(); w != tc.w || h != tc.h {
			t.Errorf("rotation %d: Display = %v×%v, want %v×%v", tc.rot, w, h, tc.w, tc.h)
		}
	}
}

// dark reports whether the pixel is ink (not near white).
func dark(img *image.RGBA, x, y int) bool {
	i := img.PixOffset(x, y)
	return int(img.Pix[i])+int(img.Pix[i+1])+int(img.Pix[i+2]) < 3*128
}

// TestRenderGeometry draws a black rectangle on pages with a CropBox away
// from the MediaBox origin and every /Rotate, and checks that the box
// ToDisplay × Scale predicts is where pdfium put the ink: black inside,
// white in a ring around it. The reference is the drawing itself, not our
// mapping.
func TestRenderGeometry(t *testing.T) {
	e := testEngine(t)
	// In user space the rectangle is [200 400 280 440]; the CropBox starts
	// at (50, 100), so in the package's coordinates it is [150 300 230 340].
	content := []byte("0 g 200 400 80 40 re f\n")
	bbox := Rect{150, 300, 230, 340}
	for _, rot := range []int{0, 90, 180, 270} {
		t.Run(fmt.Sprint(rot), func(t *testing.T) {
			doc, err := e.OpenBytes(pdftest.Boxed(content, pdftest.Box{MediaBox: [4]float64{0, 0, 612, 792}, CropBox: [4]float64{50, 100, 550, 700}, Rotate: rot}))
			if err != nil {
				t.Fatal(err)
			}
			defer doc.Close()
			r, err := doc.Render(1, RenderOptions{Width: 700})
			if err != nil {
				t.Fatal(err)
			}
			if r.Geometry.Width != 500 || r.Geometry.Height != 600 || r.Geometry.Rotation != rot {
				t.Fatalf("Geometry = %+v", r.Geometry)
			}
			dw, dh := r.Geometry.Display()
			b := r.Image.Bounds()
			if b.Dx() != 700 || math.Abs(float64(b.Dy())-dh*700/dw) > 1 {
				t.Errorf("image %v, want 700 × %.0f", b, dh*700/dw)
			}
			box := r.Geometry.ToDisplay(bbox)
			x0, y0, x1, y1 := box.X0*r.Scale, box.Y0*r.Scale, box.X1*r.Scale, box.Y1*r.Scale
			checkInk(t, r.Image, x0, y0, x1, y1)

			// The region alone: all ink, at the asked width.
			c, err := doc.Render(1, RenderOptions{Width: 160, Region: bbox})
			if err != nil {
				t.Fatal(err)
			}
			cb := c.Image.Bounds()
			if cb.Dx() != 160 {
				t.Errorf("region width %d, want 160", cb.Dx())
			}
			for _, p := range []image.Point{{2, 2}, {cb.Dx() - 3, cb.Dy() - 3}, {cb.Dx() / 2, cb.Dy() / 2}} {
				if !dark(c.Image, p.X, p.Y) {
					t.Errorf("region render: pixel %v is not ink", p)
				}
			}
		})
	}
}

// checkInk asserts ink inside the pixel box (2 px in from its edges) and
// none in a ring 3 px outside it.
func checkInk(t *testing.T, img *image.RGBA, x0, y0, x1, y1 float64) {
	t.Helper()
	in := func(x, y float64) bool { return dark(img, int(x), int(y)) }
	for _, p := range [][2]float64{{x0 + 2, y0 + 2}, {x1 - 2, y0 + 2}, {x0 + 2, y1 - 2}, {x1 - 2, y1 - 2}, {(x0 + x1) / 2, (y0 + y1) / 2}} {
		if !in(p[0], p[1]) {
			t.Errorf("pixel (%.0f, %.0f) inside the mapped box [%.1f %.1f %.1f %.1f] is not ink", p[0], p[1], x0, y0, x1, y1)
		}
	}
	for _, p := range [][2]float64{{x0 - 3, y0 - 3}, {x1 + 3, y0 - 3}, {x0 - 3, y1 + 3}, {x1 + 3, y1 + 3}, {(x0 + x1) / 2, y0 - 3}, {x0 - 3, (y0 + y1) / 2}} {
		if in(p[0], p[1]) {
			t.Errorf("pixel (%.0f, %.0f) outside the mapped box [%.1f %.1f %.1f %.1f] is ink", p[0], p[1], x0, y0, x1, y1)
		}
	}
}

// TestRenderCorpusGlyphs renders a page of a two-column paper and the
// corpus's one rotated page (/Rotate 90) and checks that the glyph boxes
// the text layer reports, mapped to pixels, land on ink.
func TestRenderCorpusGlyphs(t *testing.T) {
	e := testEngine(t)
	for _, tc := range []struct {
		file string
		page int
		rot  int
	}{
		{"pm_2302.07302v1.pdf", 2, 0},
		{"ol_overrun_on_pg8.pdf", 21, 90},
	} {
		t.Run(tc.file, func(t *testing.T) {
			doc, err := e.OpenBytes(corpustest.PDF(t, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			defer doc.Close()
			p, err := doc.Page(tc.page)
			if err != nil {
				t.Fatal(err)
			}
			r, err := doc.Render(tc.page, RenderOptions{Width: 1200})
			if err != nil {
				t.Fatal(err)
			}
			if r.Geometry.Rotation != tc.rot || r.Geometry.Width != p.Width || r.Geometry.Height != p.Height {
				t.Fatalf("Geometry %+v, page %v×%v rotation %d", r.Geometry, p.Width, p.Height, p.Rotation)
			}
			b := r.Image.Bounds()
			hit, n := 0, 0
			for _, c := range p.Chars {
				if c.Generated || c.Rune == ' ' || c.Box.Width() <= 0 || c.Box.Height() <= 0 {
					continue
				}
				n++
				box := r.Geometry.ToDisplay(c.Box)
				x0, y0 := int(box.X0*r.Scale), int(box.Y0*r.Scale)
				x1, y1 := int(math.Ceil(box.X1*r.Scale)), int(math.Ceil(box.Y1*r.Scale))
			search:
				for y := max(y0, 0); y < min(y1, b.Dy()); y++ {
					for x := max(x0, 0); x < min(x1, b.Dx()); x++ {
						if dark(r.Image, x, y) {
							hit++
							break search
						}
					}
				}
			}
			if n < 100 || float64(hit) < 0.97*float64(n) {
				t.Errorf("%d of %d glyph boxes land on ink at scale %.3f", hit, n, r.Scale)
			}
			t.Logf("%d of %d glyph boxes on ink", hit, n)
		})
	}
}

func TestRenderLimits(t *testing.T) {
	e := testEngine(t)
	doc, err := e.OpenBytes(pdftest.Doc(pdftest.Text("hello"), false))
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	for _, o := range []RenderOptions{{Width: 0}, {Width: MaxRenderSide + 1}, {Width: 100, Region: Rect{0, 0, 612, 0.01}}} {
		if _, err := doc.Render(1, o); !errors.Is(err, ErrRenderSize) {
			t.Errorf("Render(%+v) = %v, want ErrRenderSize", o, err)
		}
	}
	if _, err := doc.Render(1, RenderOptions{Width: 100, Region: Rect{700, 800, 900, 900}}); err == nil {
		t.Error("a region outside the page rendered")
	}
	if _, err := doc.Render(2, RenderOptions{Width: 100}); err == nil {
		t.Error("page 2 of 1 rendered")
	}
}

// TestRenderPNG: a grey page is encoded as 8-bit grey, a coloured one as
// RGB, and both decode to the pixels drawn.
func TestRenderPNG(t *testing.T) {
	e := testEngine(t)
	for _, tc := range []struct {
		content string
		grey    bool
	}{
		{"0 g 200 400 80 40 re f\n", true},
		{"1 0 0 rg 200 400 80 40 re f\n", false},
	} {
		doc, err := e.OpenBytes(pdftest.Boxed([]byte(tc.content), pdftest.Box{MediaBox: [4]float64{0, 0, 612, 792}}))
		if err != nil {
			t.Fatal(err)
		}
		r, err := doc.Render(1, RenderOptions{Width: 306})
		doc.Close()
		if err != nil {
			t.Fatal(err)
		}
		data, err := r.PNG()
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if _, isGrey := img.(*image.Gray); isGrey != tc.grey {
			t.Errorf("%q: decoded as %T, want grey %v", tc.content, img, tc.grey)
		}
		// (120, 176) is inside the rectangle: x 200..280 pt, y 352..392 pt from the top, at half scale.
		for _, p := range []image.Point{{120, 176}, {10, 10}} {
			got := color.RGBAModel.Convert(img.At(p.X, p.Y)).(color.RGBA)
			want := r.Image.RGBAAt(p.X, p.Y)
			if got != want {
				t.Errorf("%q: pixel %v decodes to %v, drawn %v", tc.content, p, got, want)
			}
		}
	}
}

// TestRenderConcurrentDocuments: documents opened by OpenBytes share one
// pdfium instance; drawing and reading them from several goroutines at once
// (a batch compile draws two papers' figures at a time, the viewer serves
// concurrent requests) gives the images a lone render gives. go-pdfium does
// not serialise calls on an instance, and a rendering's Cleanup calls into
// it: without the instance lock the race detector reports this test.
func TestRenderConcurrentDocuments(t *testing.T) {
	e := testEngine(t)
	data := pdftest.Doc(pdftest.Text("hello concurrent world"), false)
	want := func() []byte {
		doc, err := e.OpenBytes(data)
		if err != nil {
			t.Fatal(err)
		}
		defer doc.Close()
		r, err := doc.Render(1, RenderOptions{Width: 300})
		if err != nil {
			t.Fatal(err)
		}
		return r.Image.Pix
	}()
	const n = 4
	errs := make(chan error, n)
	for range n {
		go func() {
			doc, err := e.OpenBytes(data)
			if err != nil {
				errs <- err
				return
			}
			defer doc.Close()
			for range 5 {
				r, err := doc.Render(1, RenderOptions{Width: 300})
				if err != nil {
					errs <- err
					return
				}
				if !bytes.Equal(r.Image.Pix, want) {
					errs <- errors.New("a concurrent render differs from a lone one")
					return
				}
				if _, err := doc.Page(1); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// copyOnWhite composites premultiplied RGBA on white: opaque pixels stay,
// a transparent one becomes white, a half-covered one its colour plus the
// white showing through.
func TestCopyOnWhite(t *testing.T) {
	src := []byte{
		10, 20, 30, 0xff, // opaque
		0, 0, 0, 0, // nothing painted (pdfium's transparent black fill)
		0, 0, 0x80, 0x80, // blue at alpha 0x80, premultiplied
		0x40, 0x40, 0x40, 0xff, // opaque grey
	}
	want := []byte{
		10, 20, 30, 0xff,
		0xff, 0xff, 0xff, 0xff,
		0x7f, 0x7f, 0xff, 0xff,
		0x40, 0x40, 0x40, 0xff,
	}
	dst := make([]byte, len(src))
	copyOnWhite(dst, src)
	if !bytes.Equal(dst, want) {
		t.Errorf("copyOnWhite:\n got % x\nwant % x", dst, want)
	}
}

// copyOnWhitePixels is the copy Render did before copyOnWhite: a pixel
// at a time. The reference of BenchmarkCopyOnWhite.
func copyOnWhitePixels(t, s []byte) {
	for i := 0; i < len(s); i += 4 {
		a := s[i+3]
		if a == 0xff {
			copy(t[i:i+4], s[i:i+4])
			continue
		}
		w := 0xff - a
		t[i], t[i+1], t[i+2], t[i+3] = s[i]+w, s[i+1]+w, s[i+2]+w, 0xff
	}
}

// BenchmarkCopyOnWhite: a figure crop's 1,000 × 1,000 pixels, opaque but
// for one pixel in 50, copied out as Render does (copy) and as it did
// (pixels).
func BenchmarkCopyOnWhite(b *testing.B) {
	src := make([]byte, 4*1000*1000)
	for i := range src {
		src[i] = byte(i * 7)
	}
	for i := 3; i < len(src); i += 4 {
		if i%200 != 3 {
			src[i] = 0xff
		}
	}
	dst := make([]byte, len(src))
	want := make([]byte, len(src))
	copyOnWhitePixels(want, src)
	copyOnWhite(dst, src)
	if !bytes.Equal(dst, want) {
		b.Fatal("copyOnWhite and the pixel loop disagree")
	}
	b.SetBytes(int64(len(src)))
	b.Run("copy", func(b *testing.B) {
		for b.Loop() {
			copyOnWhite(dst, src)
		}
	})
	b.Run("pixels", func(b *testing.B) {
		for b.Loop() {
			copyOnWhitePixels(dst, src)
		}
	})
}
