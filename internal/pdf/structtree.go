package pdf

import (
	"strings"
	"unicode/utf8"

	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
)

// Limits on the structure tree read for one page (Page.Tags), so that a
// hostile or looping tree costs bounded time and memory. A page that
// reaches one is read no further and its Tags.Cut is true.
const (
	maxTagElements = 20000 // structure elements per page
	maxTagDepth    = 64    // nesting depth
	maxTagWords    = 50000 // words whose marked content is looked up
	maxTagText     = 4096  // bytes of /Alt or /ActualText kept
)

// Tag is one element of a tagged page's structure tree (PDF 1.7 §14.7,
// §14.8.4).
type Tag struct {
	// Type is the structure type after the document's role map, as pdfium
	// reports it (FPDF_StructElement_GetType): a standard type such as
	// "H1", "P", "LI", "Figure", or the producer's own name when the role
	// map does not map it.
	Type string
	// Parent indexes Tags.Elements; -1 for a child of the tree's root.
	Parent int
	// Alt and ActualText are the /Alt and /ActualText of a Formula or
	// Figure element (at most 4096 bytes each; "" when absent, and for
	// other types, which are not read). They describe the content for
	// assistive technology; they are not the text layer and are never
	// quoted as such.
	Alt, ActualText string
}

// Tags is what a tagged page's structure tree says about its characters.
type Tags struct {
	// Elements are the structure elements with content on the page, depth
	// first, a parent before its children.
	Elements []Tag
	// Of holds, for each Page.Chars index, the index in Elements of the
	// innermost element whose marked content draws the character; -1 for
	// characters outside any element (artifacts, untagged content, and
	// the spaces and line ends pdfium generates). It is looked up once per
	// word (the first character of each run of non-space characters) and
	// copied to the rest of the word.
	Of []int32
	// Cut is true when the tree or the page reached a limit and was read
	// in part.
	Cut bool
}

// Level returns the heading level of a structure type: 1–6 for "H1".."H6",
// 0 for the untyped heading "H" (its level is its nesting), -1 for other
// types.
func Level(typ string) int {
	if typ == "H" {
		return 0
	}
	if len(typ) == 2 && typ[0] == 'H' && typ[1] >= '1' && typ[1] <= '6' {
		return int(typ[1] - '0')
	}
	return -1
}

// readTags reads the structure tree of the page pageReq (whose text page
// is tp and whose characters, read from tp, are chars) and maps each
// character to its element. It returns nil when the document is not
// tagged (pdfium loads a structure tree only for a catalog with
// /StructTreeRoot and /MarkInfo /Marked true), when the page has no
// structure elements, or when the characters cannot be matched to
// pdfium's character indices. The caller holds d.mu.
func (d *Document) readTags(pageReq requests.Page, tp references.FPDF_TEXTPAGE, chars []Char) *Tags {
	inst := d.inst
	tree, err := inst.FPDF_StructTree_GetForPage(&requests.FPDF_StructTree_GetForPage{Page: pageReq})
	if err != nil {
		return nil
	}
	defer inst.FPDF_StructTree_Close(&requests.FPDF_StructTree_Close{StructTree: tree.StructTree})
	n, err := inst.FPDF_StructTree_CountChildren(&requests.FPDF_StructTree_CountChildren{StructTree: tree.StructTree})
	if err != nil || n.Count <= 0 {
		return nil
	}
	t := &Tags{}
	byMCID := map[int]int{} // marked-content id → element
	var walk func(el references.FPDF_STRUCTELEMENT, parent, depth int)
	walk = func(el references.FPDF_STRUCTELEMENT, parent, depth int) {
		if depth > maxTagDepth || len(t.Elements) >= maxTagElements {
			t.Cut = true
			return
		}
		tag := Tag{Parent: parent}
		if r, err := inst.FPDF_StructElement_GetType(&requests.FPDF_StructElement_GetType{StructElement: el}); err == nil {
			tag.Type = strings.TrimPrefix(r.Type, "/")
		}
		if tag.Type == "Formula" || tag.Type == "Figure" {
			if r, err := inst.FPDF_StructElement_GetAltText(&requests.FPDF_StructElement_GetAltText{StructElement: el}); err == nil {
				tag.Alt = clip(r.AltText, maxTagText)
			}
			if r, err := inst.FPDF_StructElement_GetActualText(&requests.FPDF_StructElement_GetActualText{StructElement: el}); err == nil {
				tag.ActualText = clip(r.Actualtext, maxTagText)
			}
		}
		self := len(t.Elements)
		t.Elements = append(t.Elements, tag)
		kids, err := inst.FPDF_StructElement_CountChildren(&requests.FPDF_StructElement_CountChildren{StructElement: el})
		if err != nil {
			return
		}
		for i := 0; i < kids.Count; i++ {
			if len(t.Elements) >= maxTagElements {
				t.Cut = true
				return
			}
			// A kid is marked content on this page (an MCID, or an MCR
			// naming this page), or an element; pdfium leaves out kids
			// on other pages.
			if m, err := inst.FPDF_StructElement_GetChildMarkedContentID(&requests.FPDF_StructElement_GetChildMarkedContentID{StructElement: el, Index: i}); err == nil && m.ChildMarkedContentID >= 0 {
				byMCID[m.ChildMarkedContentID] = self
				continue
			}
			if c, err := inst.FPDF_StructElement_GetChildAtIndex(&requests.FPDF_StructElement_GetChildAtIndex{StructElement: el, Index: i}); err == nil {
				walk(c.StructElement, self, depth+1)
			}
		}
	}
	for i := 0; i < n.Count; i++ {
		c, err := inst.FPDF_StructTree_GetChildAtIndex(&requests.FPDF_StructTree_GetChildAtIndex{StructTree: tree.StructTree, Index: i})
		if err != nil {
			continue
		}
		walk(c.StructElement, -1, 0)
		if t.Cut {
			break
		}
	}
	if len(byMCID) == 0 {
		return nil
	}

	// Each word's first character → its text object → the object's
	// marked-content id. pdfium's character indices count the two halves
	// of a character outside the BMP, which Page joins.
	t.Of = make([]int32, len(chars))
	cur, idx, words := int32(-1), 0, 0
	for j, c := range chars {
		gen := c.Generated || c.Rune == ' ' || c.Rune == '\r' || c.Rune == '\n'
		switch {
		case gen:
			cur = -1
		case j == 0 || startsWord(chars, j):
			cur = -1
			if words >= maxTagWords {
				t.Cut = true
				break
			}
			words++
			obj, err := inst.FPDFText_GetTextObject(&requests.FPDFText_GetTextObject{TextPage: tp, Index: idx})
			if err != nil {
				break
			}
			m, err := inst.FPDFPageObj_GetMarkedContentID(&requests.FPDFPageObj_GetMarkedContentID{PageObject: obj.TextObject})
			if err != nil || m.MarkedContentID < 0 {
				break
			}
			if e, ok := byMCID[m.MarkedContentID]; ok {
				cur = int32(e)
			}
		}
		if gen {
			t.Of[j] = -1
		} else {
			t.Of[j] = cur
		}
		idx++
		if c.Rune > 0xFFFF {
			idx++ // the second UTF-16 half
		}
	}
	if cc, err := inst.FPDFText_CountChars(&requests.FPDFText_CountChars{TextPage: tp}); err != nil || cc.Count != idx {
		return nil // the characters are not pdfium's: no mapping
	}
	return t
}

// startsWord reports whether chars[j] (not white space) follows white
// space or a generated character.
func startsWord(chars []Char, j int) bool {
	p := chars[j-1]
	return p.Generated || p.Rune == ' ' || p.Rune == '\r' || p.Rune == '\n'
}

// clip returns s cut to at most n bytes, at a rune boundary.
func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
