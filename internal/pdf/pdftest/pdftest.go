// Package pdftest writes small PDFs at test time: well-formed one-page
// documents around a content stream of the caller's choice, and the
// hostile ones of the reliability suite (a flate bomb, a page of many
// text operations, a truncated file).
package pdftest

import (
	"bytes"
	"compress/zlib"
	"fmt"
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
