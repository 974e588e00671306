package pdf

import (
	"strings"

	"github.com/klippa-app/go-pdfium/enums"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
)

// Limits on the document outline read by Outline, so that a hostile or
// looping outline tree costs bounded time.
const (
	maxOutlineEntries = 5000
	maxOutlineDepth   = 12
)

// OutlineEntry is one entry of the document outline (bookmarks, PDF 1.7
// §12.3.3), in the order a reader's bookmark panel lists them (depth
// first).
type OutlineEntry struct {
	// Title is the entry's text as stored, surrounding white space trimmed.
	Title string
	// Level is the depth in the outline tree: 0 for top-level entries.
	Level int
	// Page is the 1-based page the entry's destination points to; 0 when
	// the destination is missing or names no page of this document.
	Page int
	// Y is the top of the destination's view on that page in PDF points,
	// origin bottom-left of the page's CropBox (as Char boxes), for /XYZ,
	// /FitH, /FitBH and /FitR destinations; HasY is false for others (the
	// entry then points to the whole page). X likewise, for /XYZ and /FitR.
	X, Y       float64
	HasX, HasY bool
}

// Structure is what a PDF says about its own structure, independent of
// its text layer: the outline and the printed page labels.
type Structure struct {
	// Outline is the document outline, depth first; empty when the PDF has
	// none.
	Outline []OutlineEntry
	// Labels holds the printed page label (/PageLabels, PDF 1.7 §12.4.2) of
	// each page, index 0 for page 1; nil when the PDF declares no labels.
	Labels []string
}

// Structure reads the document outline and page labels. It never fails:
// parts pdfium cannot read are left out.
func (d *Document) Structure() Structure {
	return Structure{Outline: d.Outline(), Labels: d.PageLabels()}
}

// rawStructure is Structure with the outline's positions not yet moved to
// their page's origin (see fixOutline): it loads no page, where Outline
// loads every page a bookmark points to (to read its CropBox), which
// Read then loads again for its text.
func (d *Document) rawStructure() Structure {
	d.mu.Lock()
	outline := d.outline(func(int) [2]float64 { return [2]float64{} })
	d.mu.Unlock()
	return Structure{Outline: outline, Labels: d.PageLabels()}
}

// fixOutline moves the positions of a rawStructure's outline to the
// origins its pages were read with (Page.origin), as Outline has them.
func fixOutline(outline []OutlineEntry, pages []*Page) {
	for i := range outline {
		e := &outline[i]
		if e.Page < 1 || e.Page > len(pages) {
			continue
		}
		o := pages[e.Page-1].origin
		if e.HasX {
			e.X -= o[0]
		}
		if e.HasY {
			e.Y -= o[1]
		}
	}
}

// PageLabels returns the printed label of every page (index 0 for page 1)
// as pdfium computes it from /PageLabels (style, prefix and start number),
// or nil when the document declares no page labels.
func (d *Document) PageLabels() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	labels := make([]string, d.numPages)
	any := false
	for i := range labels {
		r, err := d.inst.FPDF_GetPageLabel(&requests.FPDF_GetPageLabel{Document: d.ref, Page: i})
		if err != nil {
			continue
		}
		labels[i] = strings.TrimSpace(r.Label)
		any = any || labels[i] != ""
	}
	if !any {
		return nil
	}
	return labels
}

// Outline returns the document outline, depth first, at most 5000 entries
// and 12 levels deep. Entries whose title cannot be read get an empty
// Title.
func (d *Document) Outline() []OutlineEntry {
	d.mu.Lock()
	defer d.mu.Unlock()
	origins := map[int][2]float64{} // page index → CropBox origin
	return d.outline(func(i int) [2]float64 {
		o, ok := origins[i]
		if !ok {
			o = d.origin(i)
			origins[i] = o
		}
		return o
	})
}

// origin returns the origin of page index i's coordinates (origin of its
// CropBox, else of its MediaBox); it loads the page. d.mu is held.
func (d *Document) origin(i int) [2]float64 {
	var o [2]float64
	pageReq := requests.Page{ByIndex: &requests.PageByIndex{Document: d.ref, Index: i}}
	if cb, err := d.inst.FPDFPage_GetCropBox(&requests.FPDFPage_GetCropBox{Page: pageReq}); err == nil && cb.Right > cb.Left && cb.Top > cb.Bottom {
		o = [2]float64{float64(cb.Left), float64(cb.Bottom)}
	} else if mb, err := d.inst.FPDFPage_GetMediaBox(&requests.FPDFPage_GetMediaBox{Page: pageReq}); err == nil {
		o = [2]float64{float64(mb.Left), float64(mb.Bottom)}
	}
	return o
}

// outline is Outline with origin(i) the origin of page index i's
// coordinates. d.mu is held.
func (d *Document) outline(origin func(i int) [2]float64) []OutlineEntry {
	var out []OutlineEntry
	var walk func(parent *references.FPDF_BOOKMARK, level int)
	walk = func(parent *references.FPDF_BOOKMARK, level int) {
		if level >= maxOutlineDepth {
			return
		}
		fc, err := d.inst.FPDFBookmark_GetFirstChild(&requests.FPDFBookmark_GetFirstChild{Document: d.ref, Bookmark: parent})
		if err != nil || fc.Bookmark == nil {
			return
		}
		seen := map[references.FPDF_BOOKMARK]bool{}
		for bm := fc.Bookmark; bm != nil && len(out) < maxOutlineEntries; {
			if seen[*bm] {
				return
			}
			seen[*bm] = true
			e := OutlineEntry{Level: level}
			if t, err := d.inst.FPDFBookmark_GetTitle(&requests.FPDFBookmark_GetTitle{Bookmark: *bm}); err == nil {
				e.Title = strings.TrimSpace(t.Title)
			}
			d.destination(*bm, &e, origin)
			out = append(out, e)
			walk(bm, level+1)
			ns, err := d.inst.FPDFBookmark_GetNextSibling(&requests.FPDFBookmark_GetNextSibling{Document: d.ref, Bookmark: *bm})
			if err != nil {
				return
			}
			bm = ns.Bookmark
		}
	}
	walk(nil, 0)
	return out
}

// destination fills e.Page and the position from the bookmark's /Dest or
// its GoTo action.
func (d *Document) destination(bm references.FPDF_BOOKMARK, e *OutlineEntry, origin func(i int) [2]float64) {
	var dest *references.FPDF_DEST
	if r, err := d.inst.FPDFBookmark_GetDest(&requests.FPDFBookmark_GetDest{Document: d.ref, Bookmark: bm}); err == nil && r.Dest != nil {
		dest = r.Dest
	} else if a, err := d.inst.FPDFBookmark_GetAction(&requests.FPDFBookmark_GetAction{Bookmark: bm}); err == nil && a.Action != nil {
		if r, err := d.inst.FPDFAction_GetDest(&requests.FPDFAction_GetDest{Document: d.ref, Action: *a.Action}); err == nil && r.Dest != nil {
			dest = r.Dest
		}
	}
	if dest == nil {
		return
	}
	pi, err := d.inst.FPDFDest_GetDestPageIndex(&requests.FPDFDest_GetDestPageIndex{Document: d.ref, Dest: *dest})
	if err != nil || pi.Index < 0 || pi.Index >= d.numPages {
		return
	}
	e.Page = pi.Index + 1
	o := origin(pi.Index)
	if loc, err := d.inst.FPDFDest_GetLocationInPage(&requests.FPDFDest_GetLocationInPage{Dest: *dest}); err == nil {
		if loc.X != nil {
			e.X, e.HasX = float64(*loc.X)-o[0], true
		}
		if loc.Y != nil {
			e.Y, e.HasY = float64(*loc.Y)-o[1], true
		}
		if e.HasY {
			return
		}
	}
	v, err := d.inst.FPDFDest_GetView(&requests.FPDFDest_GetView{Dest: *dest})
	if err != nil {
		return
	}
	switch v.DestView {
	case enums.FPDF_PDFDEST_VIEW_FITH, enums.FPDF_PDFDEST_VIEW_FITBH:
		if len(v.Params) >= 1 {
			e.Y, e.HasY = float64(v.Params[0])-o[1], true
		}
	case enums.FPDF_PDFDEST_VIEW_FITR:
		if len(v.Params) >= 4 {
			e.X, e.HasX = float64(v.Params[0])-o[0], true
			e.Y, e.HasY = float64(v.Params[3])-o[1], true
		}
	}
}
