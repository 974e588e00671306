// Package pdftest writes small PDFs at test time: well-formed one-page
// documents around a content stream of the caller's choice, and the
// hostile ones of the reliability suite (a flate bomb, a page of many
// text operations, a truncated file).
package pdftest

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"sort"
	"strings"
)

// Doc returns a one-page PDF (US Letter, Helvetica as /F1) whose page
// content is content, written with /FlateDecode when compressed is true.
func Doc(content []byte, compressed bool) []byte {
	stream, filter := content, ""
	if compressed {
		var b bytes.Buffer
		w, _ := zlib.NewWriterLevel(&b, zlib.DefaultCompression)
		w.Write(content)
		w.Close()
		stream, filter = b.Bytes(), " /Filter /FlateDecode"
	}
	return build(stream, filter, "/MediaBox [0 0 612 792]")
}

// Box is a page's boxes and rotation for Boxed: MediaBox and CropBox as
// [llx lly urx ury] in points (a zero CropBox is left out), Rotate in
// degrees clockwise (0, 90, 180, 270).
type Box struct {
	MediaBox, CropBox [4]float64
	Rotate            int
}

// Boxed returns a one-page PDF like Doc (uncompressed) whose page has the
// boxes and /Rotate of box.
func Boxed(content []byte, box Box) []byte {
	attrs := fmt.Sprintf("/MediaBox [%g %g %g %g]", box.MediaBox[0], box.MediaBox[1], box.MediaBox[2], box.MediaBox[3])
	if box.CropBox != ([4]float64{}) {
		attrs += fmt.Sprintf(" /CropBox [%g %g %g %g]", box.CropBox[0], box.CropBox[1], box.CropBox[2], box.CropBox[3])
	}
	if box.Rotate != 0 {
		attrs += fmt.Sprintf(" /Rotate %d", box.Rotate)
	}
	return build(content, "", attrs)
}

// build writes the document around one content stream, already encoded,
// with the page attributes attrs (its boxes).
func build(stream []byte, filter, attrs string) []byte {
	var b bytes.Buffer
	var offsets []int
	obj := func(body string) {
		offsets = append(offsets, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", len(offsets), body)
	}
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	obj("<< /Type /Catalog /Pages 2 0 R >>")
	obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
	obj("<< /Type /Page /Parent 2 0 R " + attrs + " /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>")
	offsets = append(offsets, b.Len())
	fmt.Fprintf(&b, "4 0 obj\n<< /Length %d%s >>\nstream\n", len(stream), filter)
	b.Write(stream)
	b.WriteString("\nendstream\nendobj\n")
	obj("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offsets)+1)
	for _, o := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offsets)+1, xref)
	return b.Bytes()
}

// Text returns a page content stream that shows each line at 12 pt from
// the top of the page down.
func Text(lines ...string) []byte {
	var b strings.Builder
	b.WriteString("BT /F1 12 Tf 72 720 Td 14 TL\n")
	for _, l := range lines {
		l = strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`).Replace(l)
		fmt.Fprintf(&b, "(%s) Tj T*\n", l)
	}
	b.WriteString("ET\n")
	return []byte(b.String())
}

// FlateBomb returns a one-page PDF whose content stream inflates to
// inflated bytes of white space (legal in a content stream): about
// inflated/1000 bytes on disk (1 GiB gives ~1 MB).
func FlateBomb(inflated int64) []byte {
	var b bytes.Buffer
	w, _ := zlib.NewWriterLevel(&b, zlib.BestCompression)
	w.Write(Text("A page with a very long content stream."))
	block := bytes.Repeat([]byte{' '}, 1<<20)
	for n := inflated; n > 0; n -= int64(len(block)) {
		w.Write(block[:min(int64(len(block)), n)])
	}
	w.Close()
	return build(b.Bytes(), " /Filter /FlateDecode", "/MediaBox [0 0 612 792]")
}

// TextOps returns a one-page PDF whose content stream shows n one-letter
// strings, each placed by its own text matrix (n = 300,000: a few MB of
// content, a few hundred KB compressed).
func TextOps(n int) []byte {
	var b bytes.Buffer
	b.WriteString("BT /F1 1 Tf\n")
	for i := range n {
		fmt.Fprintf(&b, "1 0 0 1 %d %d Tm (x) Tj\n", 20+i%570, 20+(i/570)%750)
	}
	b.WriteString("ET\n")
	return Doc(b.Bytes(), true)
}

// Truncate returns the first frac (0..1) of data: a PDF cut short, as an
// interrupted download leaves it.
func Truncate(data []byte, frac float64) []byte {
	return append([]byte(nil), data[:int(float64(len(data))*frac)]...)
}

// FrontPage describes the first page of a paper, for testing how a paper
// is identified from what it prints: a title in large type, author lines
// under it, small lines (affiliations, a DOI), a stamp up the left margin
// (as arXiv prints its identifier) and running text. Text is ASCII
// (Helvetica's standard encoding).
type FrontPage struct {
	Title   []string // 18 pt, from the top
	Authors []string // 12 pt
	Small   []string // 9 pt: affiliations, "doi: 10.…", a journal banner
	Stamp   string   // 20 pt, turned to read up the left margin; "" for none
	Body    []string // 10 pt running text
}

// PDF returns a one-page PDF that prints f.
func (f FrontPage) PDF() []byte {
	var b strings.Builder
	esc := strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`)
	y := 700.0
	block := func(size, lead float64, lines []string) {
		for _, l := range lines {
			fmt.Fprintf(&b, "BT /F1 %g Tf 1 0 0 1 72 %g Tm (%s) Tj ET\n", size, y, esc.Replace(l))
			y -= lead
		}
		y -= lead / 2
	}
	block(18, 22, f.Title)
	block(12, 15, f.Authors)
	block(9, 11, f.Small)
	y -= 10
	block(10, 12.5, f.Body)
	if f.Stamp != "" {
		fmt.Fprintf(&b, "BT /F1 20 Tf 0 1 -1 0 32 220 Tm (%s) Tj ET\n", esc.Replace(f.Stamp))
	}
	return Doc([]byte(b.String()), true)
}

// Prose returns n lines of ordinary English running text, about 80
// characters each, for FrontPage.Body.
func Prose(n int) []string {
	words := strings.Fields(`We study the problem of identifying a scientific paper from the text printed on its
		first page and show that the title, the authors and the identifiers of the work can be read
		from the layout of the page in most cases. The method is simple and it is evaluated on a
		collection of documents from several publishers, with results that are reported in the
		tables of this paper for each of the fields and for the whole record of the work.`)
	var out []string
	var line []string
	for i := 0; len(out) < n; i++ {
		line = append(line, words[i%len(words)])
		if len(strings.Join(line, " ")) > 75 {
			out = append(out, strings.Join(line, " "))
			line = nil
		}
	}
	return out
}

// Structured describes a document of one or more pages of text blocks,
// optionally tagged (a structure tree, PDF 1.7 §14.7): each block is one
// structure element of its Tag type under a /Document element, drawn as
// one marked-content sequence. Text is ASCII (Helvetica's standard
// encoding).
type Structured struct {
	Pages [][]Block
	// Tagged writes /MarkInfo << /Marked true >>, the /StructTreeRoot and
	// the marked-content ids; otherwise the pages are plain.
	Tagged bool
	// RoleMap maps custom structure types to standard ones ("Heading1":
	// "H1"), written as the tree root's /RoleMap.
	RoleMap map[string]string
}

// Block is a run of lines in one font for Structured.
type Block struct {
	// Tag is the structure type ("H1", "P", "LI", or a RoleMap key);
	// "Artifact" draws the block as an artifact (no element); "" draws it
	// outside any marked content.
	Tag string
	// Size is the font size in points (10 when 0); lines are 1.25 Size
	// apart and a block is followed by a gap of one line.
	Size float64
	// Bold sets the block in Helvetica-Bold.
	Bold bool
	// Mapped sets the block in a font whose ToUnicode map gives most
	// lower-case letters dingbats (U+2701 onward) while s, t, q and r
	// keep their values (see DingbatOf): text drawn right but extracted
	// as dingbats.
	Mapped bool
	Lines  []string
	// ActualText and Alt, when set, are written as the element's
	// /ActualText and /Alt (ASCII).
	ActualText, Alt string
	// X is the left edge in points (72 when 0); Y, when not 0, is the
	// baseline of the first line (else the block follows the previous).
	X, Y float64
}

// DingbatOf returns what the Mapped font's ToUnicode map gives for the
// byte r: a dingbat for the lower-case letters other than s, t, q and r,
// r itself otherwise.
func DingbatOf(r rune) rune {
	if r >= 'a' && r <= 'z' && !strings.ContainsRune("stqr", r) {
		return 0x2701 + (r - 'a')
	}
	return r
}

// PDF returns the document.
func (s Structured) PDF() []byte {
	var b bytes.Buffer
	var offsets []int
	// Object numbers: 1 catalog, 2 pages, 3 struct tree root, 4 Document
	// element, 5-7 fonts, 8 ToUnicode CMap, then per page: page, content;
	// then the block elements.
	nPages := len(s.Pages)
	pageObj := func(i int) int { return 9 + 2*i }
	next := 9 + 2*nPages
	type elem struct {
		tag        string
		page, mcid int
		num        int
		extra      string
	}
	var elems []elem
	parents := make([][]int, nPages) // per page: element object by MCID
	contents := make([]string, nPages)
	esc := strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`)
	for pi, blocks := range s.Pages {
		var c strings.Builder
		y := 720.0
		for _, bl := range blocks {
			size := bl.Size
			if size == 0 {
				size = 10
			}
			x := bl.X
			if x == 0 {
				x = 72
			}
			if bl.Y != 0 {
				y = bl.Y
			}
			font := "/F1"
			switch {
			case bl.Mapped:
				font = "/F3"
			case bl.Bold:
				font = "/F2"
			}
			switch {
			case bl.Tag == "Artifact":
				c.WriteString("/Artifact BMC\n")
			case bl.Tag != "" && s.Tagged:
				mcid := len(parents[pi])
				e := elem{tag: bl.Tag, page: pi, mcid: mcid, num: next}
				if bl.ActualText != "" {
					e.extra += " /ActualText (" + esc.Replace(bl.ActualText) + ")"
				}
				if bl.Alt != "" {
					e.extra += " /Alt (" + esc.Replace(bl.Alt) + ")"
				}
				next++
				elems = append(elems, e)
				parents[pi] = append(parents[pi], e.num)
				fmt.Fprintf(&c, "/%s <</MCID %d>> BDC\n", bl.Tag, mcid)
			}
			for _, l := range bl.Lines {
				fmt.Fprintf(&c, "BT %s %g Tf 1 0 0 1 %g %g Tm (%s) Tj ET\n", font, size, x, y, esc.Replace(l))
				y -= 1.25 * size
			}
			y -= 1.25 * size
			if bl.Tag == "Artifact" || bl.Tag != "" && s.Tagged {
				c.WriteString("EMC\n")
			}
		}
		contents[pi] = c.String()
	}
	obj := func(num int, body string) {
		for len(offsets) < num {
			offsets = append(offsets, 0)
		}
		offsets[num-1] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", num, body)
	}
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	if s.Tagged {
		obj(1, "<< /Type /Catalog /Pages 2 0 R /MarkInfo << /Marked true >> /StructTreeRoot 3 0 R >>")
	} else {
		obj(1, "<< /Type /Catalog /Pages 2 0 R >>")
	}
	var kids []string
	for i := range nPages {
		kids = append(kids, fmt.Sprintf("%d 0 R", pageObj(i)))
	}
	obj(2, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), nPages))
	var nums, roles []string
	for i, ps := range parents {
		var refs []string
		for _, n := range ps {
			refs = append(refs, fmt.Sprintf("%d 0 R", n))
		}
		nums = append(nums, fmt.Sprintf("%d [%s]", i, strings.Join(refs, " ")))
	}
	for k, v := range s.RoleMap {
		roles = append(roles, fmt.Sprintf("/%s /%s", k, v))
	}
	sort.Strings(roles)
	obj(3, fmt.Sprintf("<< /Type /StructTreeRoot /K [4 0 R] /ParentTree << /Nums [%s] >> /RoleMap << %s >> >>", strings.Join(nums, " "), strings.Join(roles, " ")))
	var top []string
	for _, e := range elems {
		top = append(top, fmt.Sprintf("%d 0 R", e.num))
	}
	obj(4, fmt.Sprintf("<< /Type /StructElem /S /Document /P 3 0 R /K [%s] >>", strings.Join(top, " ")))
	obj(5, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	obj(6, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>")
	obj(7, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /ToUnicode 8 0 R >>")
	var cmap strings.Builder
	cmap.WriteString("/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n/CMapName /Dingbats-Test def /CMapType 2 def\n1 begincodespacerange <00> <FF> endcodespacerange\n")
	fmt.Fprintf(&cmap, "%d beginbfchar\n", 0x7E-0x20+1)
	for r := rune(0x20); r <= 0x7E; r++ {
		fmt.Fprintf(&cmap, "<%02X> <%04X>\n", r, DingbatOf(r))
	}
	cmap.WriteString("endbfchar\nendcmap CMapName currentdict /CMap defineresource pop end end\n")
	obj(8, fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", cmap.Len(), cmap.String()))
	for i := range nPages {
		sp := ""
		if s.Tagged {
			sp = fmt.Sprintf(" /StructParents %d", i)
		}
		obj(pageObj(i), fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R /F2 6 0 R /F3 7 0 R >> >> /Contents %d 0 R%s >>", pageObj(i)+1, sp))
		obj(pageObj(i)+1, fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(contents[i]), contents[i]))
	}
	for _, e := range elems {
		obj(e.num, fmt.Sprintf("<< /Type /StructElem /S /%s /P 4 0 R /Pg %d 0 R /K %d%s >>", e.tag, pageObj(e.page), e.mcid, e.extra))
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offsets)+1)
	for _, o := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offsets)+1, xref)
	return b.Bytes()
}
