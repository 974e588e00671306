package pdf

import (
	"github.com/klippa-app/go-pdfium/enums"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
	"github.com/klippa-app/go-pdfium/structs"
)

// Limits on the graphics read per page (Page.Graphics), so that a dense
// vector plot costs bounded time: objects visited (page objects and the
// objects of form XObjects) and form nesting.
const (
	maxGraphicsVisited = 20_000
	maxFormDepth       = 4
)

// GraphicKind says what a Graphic is.
type GraphicKind uint8

// Graphic kinds.
const (
	// GraphicPath is a vector path: a line, a rule, a box, a curve.
	GraphicPath GraphicKind = iota + 1
	// GraphicImage is a raster image.
	GraphicImage
	// GraphicShading is a smooth shading (a gradient).
	GraphicShading
)

// Graphic is one non-text object drawn on a page, as pdfium reports it
// (FPDFPageObj_GetBounds); the objects of form XObjects are reported
// one by one.
type Graphic struct {
	Kind GraphicKind
	// Box is the object's bounding box: PDF points, origin bottom-left of
	// the CropBox, as Char boxes.
	Box Rect
	// Fill and Stroke tell how a path is painted (both false for a
	// clipping-only path, which is not reported, and for images).
	Fill, Stroke bool
	// Blank is true for a path of at least blankMin points each way that
	// paints nothing but white or fully transparent colour: no ink on a
	// white page (a white box a word processor draws behind a frame).
	// Smaller paths are not looked at (false).
	Blank bool
}

// blankMin is the size, in points each way, from which a path's colours
// are read to tell a blank path (Graphic.Blank).
const blankMin = 10

// graphics reads the page's non-text objects, at most
// maxGraphicsVisited objects visited. It never fails: objects pdfium
// cannot read are left out. complete is false when the limit cut the
// walk short.
func (d *Document) graphics(pageReq requests.Page, ox, oy float64) (out []Graphic, complete bool) {
	inst := d.inst
	oc, err := inst.FPDFPage_CountObjects(&requests.FPDFPage_CountObjects{Page: pageReq})
	if err != nil {
		return nil, false
	}
	visited := 0
	// The objects of a form XObject report their bounds in the form's
	// space; m maps that space to the page's.
	// clip is the form's bounding box on the page, which clips what the
	// form draws.
	var visit func(obj references.FPDF_PAGEOBJECT, depth int, m matrix, clip *Rect)
	visit = func(obj references.FPDF_PAGEOBJECT, depth int, m matrix, clip *Rect) {
		if visited >= maxGraphicsVisited {
			return
		}
		visited++
		t, err := inst.FPDFPageObj_GetType(&requests.FPDFPageObj_GetType{PageObject: obj})
		if err != nil {
			return
		}
		g := Graphic{}
		switch t.Type {
		case enums.FPDF_PAGEOBJ_FORM:
			if depth >= maxFormDepth {
				return
			}
			n, err := inst.FPDFFormObj_CountObjects(&requests.FPDFFormObj_CountObjects{PageObject: obj})
			if err != nil {
				return
			}
			fm, err := inst.FPDFPageObj_GetMatrix(&requests.FPDFPageObj_GetMatrix{PageObject: obj})
			if err != nil {
				return
			}
			fb, err := inst.FPDFPageObj_GetBounds(&requests.FPDFPageObj_GetBounds{PageObject: obj})
			if err != nil {
				return
			}
			box := m.rect(Rect{float64(min(fb.Left, fb.Right)), float64(min(fb.Bottom, fb.Top)), float64(max(fb.Left, fb.Right)), float64(max(fb.Bottom, fb.Top))})
			if clip != nil {
				if box = box.Intersect(*clip); box == (Rect{}) {
					return
				}
			}
			inner := matrix{float64(fm.Matrix.A), float64(fm.Matrix.B), float64(fm.Matrix.C), float64(fm.Matrix.D), float64(fm.Matrix.E), float64(fm.Matrix.F)}.then(m)
			for i := 0; i < n.Count && visited < maxGraphicsVisited; i++ {
				c, err := inst.FPDFFormObj_GetObject(&requests.FPDFFormObj_GetObject{PageObject: obj, Index: uint64(i)})
				if err != nil {
					continue
				}
				visit(c.PageObject, depth+1, inner, &box)
			}
			return
		case enums.FPDF_PAGEOBJ_PATH:
			g.Kind = GraphicPath
			m, err := inst.FPDFPath_GetDrawMode(&requests.FPDFPath_GetDrawMode{PageObject: obj})
			if err != nil {
				return
			}
			g.Fill, g.Stroke = m.FillMode != enums.FPDF_FILLMODE_NONE, m.Stroke
			if !g.Fill && !g.Stroke {
				return // a clipping path: draws nothing
			}
		case enums.FPDF_PAGEOBJ_IMAGE:
			g.Kind = GraphicImage
		case enums.FPDF_PAGEOBJ_SHADING:
			g.Kind = GraphicShading
		default:
			return
		}
		b, err := inst.FPDFPageObj_GetBounds(&requests.FPDFPageObj_GetBounds{PageObject: obj})
		if err != nil {
			return
		}
		r := m.rect(Rect{float64(min(b.Left, b.Right)), float64(min(b.Bottom, b.Top)), float64(max(b.Left, b.Right)), float64(max(b.Bottom, b.Top))})
		if clip != nil {
			if r = r.Intersect(*clip); r == (Rect{}) {
				return
			}
		}
		g.Box = Rect{r.X0 - ox, r.Y0 - oy, r.X1 - ox, r.Y1 - oy}
		if g.Kind == GraphicPath && g.Box.Width() >= blankMin && g.Box.Height() >= blankMin {
			g.Blank = d.blank(obj, g.Fill, g.Stroke)
		}
		out = append(out, g)
	}
	for i := 0; i < oc.Count && visited < maxGraphicsVisited; i++ {
		o, err := inst.FPDFPage_GetObject(&requests.FPDFPage_GetObject{Page: pageReq, Index: i})
		if err != nil {
			continue
		}
		visit(o.PageObject, 0, identity, nil)
	}
	return out, visited < maxGraphicsVisited
}

// matrix is a PDF transformation matrix [a b c d e f] (PDF 1.7 §8.3.3):
// x' = a·x + c·y + e, y' = b·x + d·y + f.
type matrix [6]float64

var identity = matrix{1, 0, 0, 1, 0, 0}

// then returns the matrix that applies m, then n.
func (m matrix) then(n matrix) matrix {
	return matrix{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

// rect maps a rectangle and returns the box around the result.
func (m matrix) rect(r Rect) Rect {
	if m == identity {
		return r
	}
	var out Rect
	for i, p := range [4][2]float64{{r.X0, r.Y0}, {r.X1, r.Y0}, {r.X0, r.Y1}, {r.X1, r.Y1}} {
		x, y := m[0]*p[0]+m[2]*p[1]+m[4], m[1]*p[0]+m[3]*p[1]+m[5]
		if i == 0 {
			out = Rect{x, y, x, y}
			continue
		}
		out = Rect{min(out.X0, x), min(out.Y0, y), max(out.X1, x), max(out.Y1, y)}
	}
	return out
}

// blank reports whether path obj paints only white or fully transparent
// colour with the fill and stroke it has; false when a colour cannot be
// read.
func (d *Document) blank(obj references.FPDF_PAGEOBJECT, fill, stroke bool) bool {
	white := func(c structs.FPDF_COLOR) bool {
		return c.A == 0 || c.R >= 250 && c.G >= 250 && c.B >= 250
	}
	if fill {
		c, err := d.inst.FPDFPageObj_GetFillColor(&requests.FPDFPageObj_GetFillColor{PageObject: obj})
		if err != nil || !white(c.FillColor) {
			return false
		}
	}
	if stroke {
		c, err := d.inst.FPDFPageObj_GetStrokeColor(&requests.FPDFPageObj_GetStrokeColor{PageObject: obj})
		if err != nil || !white(c.StrokeColor) {
			return false
		}
	}
	return true
}
