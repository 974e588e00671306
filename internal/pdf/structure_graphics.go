package pdf

import (
	"math"

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
		if g.Kind == GraphicPath && g.Stroke && !g.Fill {
			if sb, ok := d.strokeBox(obj); ok {
				r = m.rect(sb)
			}
		}
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

// strokeMin is the line width, in points, from which a stroked path's
// box is computed from its points (strokeBox) rather than taken from
// pdfium.
const strokeMin = 2

// strokeBox returns the box a stroked path paints, in page space: pdfium's
// bounds (FPDFPageObj_GetBounds) add the full line width on every side,
// so a thick line — the way a PostScript distiller draws a filled
// rectangle (\rule), a line 85 points wide — comes out twice its width
// and as long again, reaching over the text around it or off the page.
// Here a straight line is the rectangle it paints: its ends, widened by
// half the line width across it, and along it too unless its caps are
// butt; a longer path is its points' box widened by half the line width.
// ok is false for thin lines (under strokeMin points, where the
// difference is below a rule's thickness), curves and anything pdfium
// cannot read.
func (d *Document) strokeBox(obj references.FPDF_PAGEOBJECT) (Rect, bool) {
	inst := d.inst
	sw, err := inst.FPDFPageObj_GetStrokeWidth(&requests.FPDFPageObj_GetStrokeWidth{PageObject: obj})
	if err != nil || sw.StrokeWidth < strokeMin {
		return Rect{}, false
	}
	n, err := inst.FPDFPath_CountSegments(&requests.FPDFPath_CountSegments{PageObject: obj})
	if err != nil || n.Count < 2 || n.Count > 64 {
		return Rect{}, false
	}
	fm, err := inst.FPDFPageObj_GetMatrix(&requests.FPDFPageObj_GetMatrix{PageObject: obj})
	if err != nil {
		return Rect{}, false
	}
	om := matrix{float64(fm.Matrix.A), float64(fm.Matrix.B), float64(fm.Matrix.C), float64(fm.Matrix.D), float64(fm.Matrix.E), float64(fm.Matrix.F)}
	var pts [][2]float64
	for i := 0; i < n.Count; i++ {
		seg, err := inst.FPDFPath_GetPathSegment(&requests.FPDFPath_GetPathSegment{PageObject: obj, Index: i})
		if err != nil {
			return Rect{}, false
		}
		t, err := inst.FPDFPathSegment_GetType(&requests.FPDFPathSegment_GetType{PathSegment: seg.PathSegment})
		if err != nil || t.Type == enums.FPDF_SEGMENT_BEZIERTO || t.Type == enums.FPDF_SEGMENT_UNKNOWN {
			return Rect{}, false
		}
		p, err := inst.FPDFPathSegment_GetPoint(&requests.FPDFPathSegment_GetPoint{PathSegment: seg.PathSegment})
		if err != nil {
			return Rect{}, false
		}
		pts = append(pts, [2]float64{float64(p.X), float64(p.Y)})
	}
	h := float64(sw.StrokeWidth) / 2
	var box Rect
	if len(pts) == 2 {
		// One straight line: the rectangle it paints.
		dx, dy := pts[1][0]-pts[0][0], pts[1][1]-pts[0][1]
		l := math.Hypot(dx, dy)
		if l == 0 {
			return Rect{}, false
		}
		ux, uy := dx/l, dy/l // along the line
		along := 0.0
		if c, err := inst.FPDFPageObj_GetLineCap(&requests.FPDFPageObj_GetLineCap{PageObject: obj}); err != nil || c.LineCap != enums.FPDF_LINECAP_BUTT {
			along = h
		}
		for i, q := range [4][2]float64{
			{pts[0][0] - ux*along - uy*h, pts[0][1] - uy*along + ux*h},
			{pts[0][0] - ux*along + uy*h, pts[0][1] - uy*along - ux*h},
			{pts[1][0] + ux*along - uy*h, pts[1][1] + uy*along + ux*h},
			{pts[1][0] + ux*along + uy*h, pts[1][1] + uy*along - ux*h},
		} {
			if i == 0 {
				box = Rect{q[0], q[1], q[0], q[1]}
				continue
			}
			box = Rect{min(box.X0, q[0]), min(box.Y0, q[1]), max(box.X1, q[0]), max(box.Y1, q[1])}
		}
	} else {
		for i, q := range pts {
			if i == 0 {
				box = Rect{q[0], q[1], q[0], q[1]}
				continue
			}
			box = Rect{min(box.X0, q[0]), min(box.Y0, q[1]), max(box.X1, q[0]), max(box.Y1, q[1])}
		}
		box = Rect{box.X0 - h, box.Y0 - h, box.X1 + h, box.Y1 + h}
	}
	return om.rect(box), true
}
