package pdf

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crossmem/crossmem/internal/pdf/pdftest"
)

// pdfTeX without \pdfgentounicode writes TeX's math fonts with their
// built-in encodings and no ToUnicode map: pdfium reports the codes of
// glyphs whose names are not in the Adobe Glyph List (⟨x⟩ as "hxi", ∑ as
// "P"). Page and PageText read the names from the font programs. The PDF
// is made at test time by pdfTeX from testdata/texglyphs.tex.
func TestTeXGlyphNames(t *testing.T) {
	pdfPath := pdftest.PDFTeX(t, filepath.Join("testdata", "texglyphs.tex"))
	doc, err := testEngine(t).OpenFile(pdfPath)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	p, err := doc.Page(1)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, c := range p.Chars {
		if !c.Generated {
			b.WriteRune(c.Rune)
		}
	}
	chars := b.String()
	text, err := doc.PageText(1)
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.NewReplacer("\r\n", "", " ", "").Replace(text)
	for _, want := range []string{
		"Angle⟨x⟩",                     // cmsy angbracketleft/right
		"sum∑",                         // cmex summationtext
		"a⋄b",                          // cmsy diamondmath (code 5)
		"integral∫", "∈S", "a≤b", "∀y", // AGL names: pdfium's own mapping
		"box⊡",   // msam squaredot (code 0)
		"nleq≰",  // msbm notlessequal
		"(", ")", // cmex parenleftBig, parenrightBig
	} {
		if !strings.Contains(strings.ReplaceAll(chars, " ", ""), want) {
			t.Errorf("Page chars %q lack %q", chars, want)
		}
		if !strings.Contains(flat, want) {
			t.Errorf("PageText %q lacks %q", text, want)
		}
	}
	if strings.Contains(chars, "hxi") {
		t.Errorf("Page chars %q still have the codes of ⟨x⟩", chars)
	}
	// cmex's parenleftBigg is code 0x20, which pdfium reports as a space:
	// it stays white space, never a character with no font.
	for _, c := range p.Chars {
		if !c.Generated && c.Rune != ' ' && c.Rune != '\r' && c.Rune != '\n' && c.Font < 0 {
			t.Errorf("character %q has no font", c.Rune)
		}
	}
	if got := strings.Count(chars, "∑"); got != 2 {
		t.Errorf("%d ∑ in %q, want 2 (text and display size)", got, chars)
	}
}

// BuiltinEncoding reads the cleartext /Encoding of TeX Live's Type 1
// fonts, PFB as installed and bare (the segments a PDF embeds).
func TestBuiltinEncodingType1(t *testing.T) {
	path := func(name string) string {
		out, err := exec.Command("kpsewhich", name).Output()
		if err != nil || len(bytes.TrimSpace(out)) == 0 {
			t.Skipf("kpsewhich %s: not found (texlive-base)", name)
		}
		return string(bytes.TrimSpace(out))
	}
	for _, tc := range []struct {
		font string
		code byte
		name string
	}{
		{"cmsy10.pfb", 0x68, "angbracketleft"},
		{"cmsy10.pfb", 0x05, "diamondmath"},
		{"cmex10.pfb", 0x50, "summationtext"},
		{"cmex10.pfb", 0x00, "parenleftbig"},
		{"msbm10.pfb", 0x7E, "planckover2pi1"},
	} {
		data, err := os.ReadFile(path(tc.font))
		if err != nil {
			t.Fatal(err)
		}
		for form, d := range map[string][]byte{"pfb": data, "bare": pfbSegments(t, data)} {
			enc := BuiltinEncoding(d)
			if enc == nil {
				t.Fatalf("%s (%s): no encoding", tc.font, form)
			}
			if enc[tc.code] != tc.name {
				t.Errorf("%s (%s): code %#x is %q, want %q", tc.font, form, tc.code, enc[tc.code], tc.name)
			}
		}
	}
	// A font that uses StandardEncoding has no built-in names to read.
	if enc := BuiltinEncoding([]byte("%!PS-AdobeFont-1.0: X\n/Encoding StandardEncoding def\ncurrentfile eexec\x00\x01")); enc != nil {
		t.Errorf("StandardEncoding: %v, want nil", enc)
	}
}

// pfbSegments joins the data of a PFB file's segments, as a PDF's
// FontFile stream holds them.
func pfbSegments(t *testing.T, pfb []byte) []byte {
	var out []byte
	for len(pfb) >= 6 && pfb[0] == 0x80 && pfb[1] != 3 {
		n := int(pfb[2]) | int(pfb[3])<<8 | int(pfb[4])<<16 | int(pfb[5])<<24
		if n > len(pfb)-6 {
			t.Fatal("truncated PFB")
		}
		out = append(out, pfb[6:6+n]...)
		pfb = pfb[6+n:]
	}
	return out
}

// A CFF font program (Adobe TN #5176) with a custom charset and encoding
// (format 0 with a supplement), built here byte by byte.
func TestBuiltinEncodingCFF(t *testing.T) {
	enc := BuiltinEncoding(testCFF())
	if enc == nil {
		t.Fatal("no encoding")
	}
	for code, name := range map[byte]string{0x68: "angbracketleft", 0x69: "angbracketright", 0x05: "diamondmath", 0x20: "angbracketleft"} {
		if enc[code] != name {
			t.Errorf("code %#x is %q, want %q", code, enc[code], name)
		}
	}
	if enc['A'] != "" {
		t.Errorf("code 'A' is %q, want none", enc['A'])
	}
}

// testCFF returns a small CFF font: glyphs .notdef, angbracketleft,
// angbracketright, diamondmath (custom strings 391–393) at codes 0x68,
// 0x69, 0x05, and 0x20 as a supplement for angbracketleft.
func testCFF() []byte {
	index := func(items ...[]byte) []byte {
		if len(items) == 0 {
			return []byte{0, 0}
		}
		b := []byte{0, byte(len(items)), 1} // count, offSize 1
		off := 1
		b = append(b, byte(off))
		for _, it := range items {
			off += len(it)
			b = append(b, byte(off))
		}
		for _, it := range items {
			b = append(b, it...)
		}
		return b
	}
	i16 := func(v int) []byte { return []byte{28, byte(v >> 8), byte(v)} }
	header := []byte{1, 0, 4, 1}
	names := index([]byte("CMSY10"))
	strs := index([]byte("angbracketleft"), []byte("angbracketright"), []byte("diamondmath"))
	gsubrs := index()
	charStrings := index([]byte{14}, []byte{14}, []byte{14}, []byte{14}) // endchar ×4
	charset := []byte{0, 0x01, 0x87, 0x01, 0x88, 0x01, 0x89}             // format 0: SIDs 391, 392, 393
	encoding := []byte{0x80, 3, 0x68, 0x69, 0x05, 1, 0x20, 0x01, 0x87}   // format 0 + supplement
	// The Top DICT's size does not depend on the offsets (int16 operands).
	topLen := 3*3 + 3
	base := len(header) + len(names) + len(index(make([]byte, topLen))) + len(strs) + len(gsubrs)
	top := append(i16(base), 15) // charset
	top = append(top, append(i16(base+len(charset)), 16)...)
	top = append(top, append(i16(base+len(charset)+len(encoding)), 17)...)
	var b []byte
	b = append(b, header...)
	b = append(b, names...)
	b = append(b, index(top)...)
	b = append(b, strs...)
	b = append(b, gsubrs...)
	b = append(b, charset...)
	b = append(b, encoding...)
	b = append(b, charStrings...)
	return b
}

// FuzzBuiltinEncoding: font programs are untrusted input; the parsers
// must not panic, and answer in time linear in the input.
func FuzzBuiltinEncoding(f *testing.F) {
	f.Add(testCFF())
	f.Add([]byte("%!PS-AdobeFont-1.0: CMSY10\n/Encoding 256 array\n0 1 255 {1 index exch /.notdef put} for\ndup 104 /angbracketleft put\nreadonly def\ncurrentfile eexec\n"))
	f.Add([]byte{0x80, 0x01, 0x10, 0, 0, 0, '%', '!', '/', 'E', 'n', 'c', 'o', 'd', 'i', 'n', 'g', ' ', 'd', 'u', 'p', ' '})
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		enc := BuiltinEncoding(data)
		if d := time.Since(start); d > time.Second+time.Duration(len(data))*time.Microsecond {
			t.Errorf("%d bytes took %v", len(data), d)
		}
		if enc != nil {
			for _, n := range enc {
				if len(n) > 128 {
					t.Errorf("glyph name of %d bytes", len(n))
				}
			}
		}
	})
}
