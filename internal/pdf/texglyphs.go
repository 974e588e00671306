package pdf

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"unicode/utf16"

	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
)

// Glyph names from the font program.
//
// A simple font with no ToUnicode map and no /Encoding in the PDF draws
// its character codes through the built-in encoding of its embedded font
// program, which names the glyph of each code. pdfium turns a glyph name
// into Unicode only when the name is in the Adobe Glyph List; for any
// other name it reports the character code itself as the character (and
// FPDFText_HasUnicodeMapError says so). pdfTeX without \pdfgentounicode
// writes TeX's math fonts (cmsy, cmmi, cmex, msam, msbm) exactly so, and
// their names are mostly TeX's own: ⟨x⟩ in cmsy is codes 0x68 0x78 0x69
// under the names angbracketleft, x, angbracketright, which pdfium reports
// as "hxi"; cmex's summationtext (code 0x50) comes out as "P".
//
// fixGlyphNames reads, for those characters only, the built-in encoding of
// the font program (Type 1: the cleartext "dup <code> /<name> put" entries;
// CFF: the Encoding and charset tables) and replaces the character by the
// Unicode character texGlyphs gives for the glyph's name. That is the PDF's
// own encoding, not a guess: the font program names the glyph the page
// draws. Characters whose glyph name is not in texGlyphs stay as pdfium
// reported them.

// maxFontData bounds the font program fixGlyphNames reads (bytes); a font
// program past it is not read.
const maxFontData = 8 << 20

// pageFonts holds the built-in encodings fixGlyphNames has read on one
// page, by the font's name as pdfium reports it (FPDFText_GetFontInfo,
// with its subset prefix); nil for a font with none naming a glyph in
// texGlyphs. It lives for one page only: a name does not identify a font
// program across pages (PDFs that name their fonts F1, F2 … on each page
// name different programs alike), and one page's text must not depend on
// which pages were read before it on the same pdfium instance.
type pageFonts struct {
	d   *Document
	tp  references.FPDF_TEXTPAGE
	enc map[string]*[256]string
}

// fixGlyphNames replaces the characters of p (read from text page tp)
// that pdfium could not map to Unicode by the Unicode character of their
// glyph's name in the font program's built-in encoding (see texGlyphs).
// It looks at the characters (a call each) only on a page one of whose
// word fonts (Page.Fonts, the fonts of words' first characters) is a
// symbolic font with such names; on other pages it costs reading the
// program of each symbolic word font.
func (d *Document) fixGlyphNames(tp references.FPDF_TEXTPAGE, p *Page) {
	pf := &pageFonts{d: d, tp: tp}
	first := func(k int) int { // the text-page index of font k's first character
		ti := 0
		for _, c := range p.Chars {
			if c.Font == k {
				break
			}
			ti += charUnits(c.Rune)
		}
		return ti
	}
	if !pf.texWordFont(p.Fonts, first) {
		return
	}
	ti := 0
	for j := range p.Chars {
		c := &p.Chars[j]
		i := ti
		ti += charUnits(c.Rune)
		if c.Generated || c.Hyphen || c.Rune > 0xFF {
			continue
		}
		if r, ok := pf.glyphRune(i, c.Rune); ok {
			c.Rune = r
		}
	}
}

// fixGlyphNamesText applies fixGlyphNames's decoding to text, pdfium's
// text of the count characters of text page tp (FPDFText_GetText): the
// same word fonts (found as Page finds them) decide whether to look, the
// same characters change. It reads every character (test-time cost: only
// the corpus tests call PageText).
func (d *Document) fixGlyphNamesText(tp references.FPDF_TEXTPAGE, count int, text string) string {
	inst := d.inst
	us := make([]rune, count)
	for i := range us {
		u, err := inst.FPDFText_GetUnicode(&requests.FPDFText_GetUnicode{TextPage: tp, Index: i})
		if err != nil {
			return text
		}
		us[i] = rune(u.Unicode)
	}
	// The word fonts, as Page reads them: a word starts after a space or
	// line break; its font is that of its first character that is no
	// generated character and no space.
	var fonts []Font
	var firsts []int
	seen := map[Font]bool{}
	wordStart := true
	for i := 0; i < count; i++ {
		r, first := us[i], i
		if utf16.IsSurrogate(r) && r < 0xDC00 && i+1 < count && utf16.DecodeRune(r, us[i+1]) != 0xFFFD {
			i++
		}
		generated := false
		if r == '\r' || r == '\n' || r == ' ' {
			wordStart = true
			g, err := inst.FPDFText_IsGenerated(&requests.FPDFText_IsGenerated{TextPage: tp, Index: i})
			generated = err == nil && g.IsGenerated
		}
		if generated || r == ' ' || !wordStart {
			continue
		}
		wordStart = false
		fi, err := inst.FPDFText_GetFontInfo(&requests.FPDFText_GetFontInfo{TextPage: tp, Index: first})
		if err != nil {
			continue
		}
		f := Font{Name: stripSubset(fi.FontName), Flags: fi.Flags}
		if !seen[f] {
			seen[f] = true
			fonts, firsts = append(fonts, f), append(firsts, first)
		}
	}
	pf := &pageFonts{d: d, tp: tp}
	if !pf.texWordFont(fonts, func(k int) int { return firsts[k] }) {
		return text
	}
	// FPDFText_GetText leaves out some control characters pdfium reports
	// for codes with no Unicode (U+0000, U+0002) and writes its line-end
	// hyphens (U+0002 per character) as U+FFFE: walk the characters
	// beside the text to keep the two aligned, and give up (pdfium's text
	// as it is) should they disagree otherwise.
	rs := []rune(text)
	out := make([]rune, 0, len(rs))
	k := 0 // index in rs
	for i, r := range us {
		switch {
		case k < len(rs) && rs[k] > 0xFFFF && utf16.IsSurrogate(r):
			if r >= 0xDC00 { // the second half
				out = append(out, rs[k])
				k++
			}
		case k < len(rs) && rs[k] == r:
			g, ok := rune(0), false
			if r <= 0xFF {
				g, ok = pf.glyphRune(i, r)
			}
			if !ok {
				g = r
			}
			out = append(out, g)
			k++
		case k < len(rs) && r == 2 && rs[k] == 0xFFFE:
			out = append(out, rs[k])
			k++
		case r < 0x20:
			if g, ok := pf.glyphRune(i, r); ok {
				out = append(out, g)
			}
		default:
			return text
		}
	}
	if k != len(rs) {
		return text
	}
	return string(out)
}

// texWordFont reports whether one of fonts (a page's word fonts) is
// symbolic (PDF font flag 3: its glyphs are the font program's own) with
// a built-in encoding naming a glyph in texGlyphs. first gives the
// text-page index of a character in font k, to read its font program.
func (pf *pageFonts) texWordFont(fonts []Font, first func(k int) int) bool {
	found := false
	for k, f := range fonts {
		if f.Flags&4 != 0 && pf.encoding(first(k)) != nil {
			found = true
		}
	}
	return found
}

// charUnits is the number of text-page characters (UTF-16 units) a Char
// with rune r took.
func charUnits(r rune) int {
	if r > 0xFFFF {
		return 2
	}
	return 1
}

// glyphRune returns the Unicode character of the glyph of text-page
// character i, which pdfium reported as r, when pdfium could not map it
// (r is then the character code) and its font program's built-in encoding
// names the glyph with a name in texGlyphs.
func (pf *pageFonts) glyphRune(i int, r rune) (rune, bool) {
	if r == ' ' || r == '\r' || r == '\n' {
		// Page treats these as white space (no font, size from the box);
		// a glyph behind them (cmex's parenleftBigg is code 0x20) stays
		// as pdfium reports it rather than become a fontless character.
		return 0, false
	}
	e, err := pf.d.inst.FPDFText_HasUnicodeMapError(&requests.FPDFText_HasUnicodeMapError{TextPage: pf.tp, Index: i})
	// pdfium reports a character code with no Unicode as the character,
	// except code 0, which it reports as U+0000 without the flag.
	if err != nil || !e.HasUnicodeMapError && r != 0 {
		return 0, false
	}
	enc := pf.encoding(i)
	if enc == nil {
		return 0, false
	}
	u, ok := texGlyphs[enc[byte(r)]]
	return u, ok
}

// encoding returns the built-in encoding of the font of text-page
// character i when it names a glyph in texGlyphs (see
// fontProgramEncoding), read once per font name on the page.
func (pf *pageFonts) encoding(i int) *[256]string {
	inst := pf.d.inst
	fi, err := inst.FPDFText_GetFontInfo(&requests.FPDFText_GetFontInfo{TextPage: pf.tp, Index: i})
	if err != nil {
		return nil
	}
	if enc, ok := pf.enc[fi.FontName]; ok {
		return enc
	}
	var enc *[256]string
	if to, err := inst.FPDFText_GetTextObject(&requests.FPDFText_GetTextObject{TextPage: pf.tp, Index: i}); err == nil {
		if f, err := inst.FPDFTextObj_GetFont(&requests.FPDFTextObj_GetFont{PageObject: to.TextObject}); err == nil {
			enc = pf.d.fontProgramEncoding(f.Font)
		}
	}
	if pf.enc == nil {
		pf.enc = map[string]*[256]string{}
	}
	pf.enc[fi.FontName] = enc
	return enc
}

// fontProgramEncoding reads the built-in encoding of font f's program
// when it names a glyph in texGlyphs; nil when the font is not embedded,
// is not Type 1 or CFF, or has no such names.
func (d *Document) fontProgramEncoding(f references.FPDF_FONT) *[256]string {
	inst := d.inst
	if e, err := inst.FPDFFont_GetIsEmbedded(&requests.FPDFFont_GetIsEmbedded{Font: f}); err != nil || !e.IsEmbedded {
		return nil
	}
	fd, err := inst.FPDFFont_GetFontData(&requests.FPDFFont_GetFontData{Font: f})
	if err != nil || len(fd.FontData) > maxFontData {
		return nil
	}
	if enc := BuiltinEncoding(fd.FontData); hasTeXNames(enc) {
		return enc
	}
	return nil
}

// hasTeXNames reports whether enc names a glyph that texGlyphs maps.
func hasTeXNames(enc *[256]string) bool {
	if enc == nil {
		return false
	}
	for _, n := range enc {
		if _, ok := texGlyphs[n]; ok {
			return true
		}
	}
	return false
}

// BuiltinEncoding returns the glyph name of each character code in the
// built-in encoding of a Type 1 (PFA, PFB or the bare form a PDF embeds)
// or bare CFF font program; "" for codes it does not encode. It returns
// nil for other data, for a font that uses StandardEncoding, and for data
// it cannot parse. It reads at most the font's cleartext part (Type 1) or
// its header tables (CFF), in time linear in their size.
func BuiltinEncoding(data []byte) *[256]string {
	switch {
	case len(data) >= 6 && data[0] == 0x80 && data[1] == 0x01:
		// PFB: the first segment is the cleartext part.
		n := int(binary.LittleEndian.Uint32(data[2:6]))
		if n < 0 || n > len(data)-6 {
			n = len(data) - 6
		}
		return type1Encoding(data[6 : 6+n])
	case bytes.HasPrefix(data, []byte("%!")):
		return type1Encoding(data)
	case len(data) >= 4 && data[0] == 1 && data[1] == 0:
		return cffEncoding(data)
	}
	return nil
}

// type1Encoding parses the /Encoding array of a Type 1 font's cleartext
// part (Adobe Type 1 Font Format §2.3: "dup <code> /<name> put" entries,
// up to "eexec").
func type1Encoding(data []byte) *[256]string {
	if i := bytes.Index(data, []byte("eexec")); i >= 0 {
		data = data[:i]
	}
	i := bytes.Index(data, []byte("/Encoding"))
	if i < 0 {
		return nil
	}
	data = data[i+len("/Encoding"):]
	var enc [256]string
	found := false
	// A small tokenizer: whitespace-separated words; stop at "def" after
	// the entries (the array's end) or at StandardEncoding.
	var toks [4][]byte
	nt := 0
	for len(data) > 0 {
		// Skip white space.
		j := 0
		for j < len(data) && isPSSpace(data[j]) {
			j++
		}
		data = data[j:]
		if len(data) == 0 {
			break
		}
		k := 1
		for k < len(data) && !isPSSpace(data[k]) && data[k] != '/' {
			k++
		}
		tok := data[:k]
		data = data[k:]
		if bytes.Equal(tok, []byte("StandardEncoding")) && !found {
			return nil
		}
		if bytes.Equal(tok, []byte("def")) || bytes.Equal(tok, []byte("readonly")) {
			if found {
				break
			}
			continue
		}
		copy(toks[:], toks[1:])
		toks[3] = tok
		if nt < 4 {
			nt++
		}
		if nt == 4 && bytes.Equal(toks[0], []byte("dup")) && bytes.Equal(toks[3], []byte("put")) && len(toks[2]) > 1 && toks[2][0] == '/' {
			code, err := strconv.Atoi(string(toks[1]))
			if err == nil && code >= 0 && code < 256 && len(toks[2]) <= 128 {
				enc[code] = string(toks[2][1:])
				found = true
			}
		}
	}
	if !found {
		return nil
	}
	return &enc
}

func isPSSpace(b byte) bool {
	return b == ' ' || b == '\n' || b == '\r' || b == '\t' || b == '\f' || b == 0
}

// cffEncoding reads the built-in encoding of the first font of a bare CFF
// font program (Adobe Technical Note #5176: the Top DICT's Encoding and
// charset, names from the String INDEX). Glyph names among CFF's 391
// standard strings (all Adobe Glyph List names, which pdfium maps itself)
// are left "". It returns nil for a CID-keyed font, a predefined
// encoding or charset, and data it cannot parse.
func cffEncoding(data []byte) *[256]string {
	if len(data) < 4 {
		return nil
	}
	pos := int(data[2]) // header size
	var names, top, strs cffIndex
	var ok bool
	if names, pos, ok = readCFFIndex(data, pos); !ok || names.count < 1 {
		return nil
	}
	if top, pos, ok = readCFFIndex(data, pos); !ok || top.count < 1 {
		return nil
	}
	if strs, _, ok = readCFFIndex(data, pos); !ok {
		return nil
	}
	dict, ok := top.item(data, 0)
	if !ok {
		return nil
	}
	var charsetOff, encodingOff, charStringsOff int
	var operands []int
	for i := 0; i < len(dict); {
		b := dict[i]
		switch {
		case b <= 21: // operator
			op := int(b)
			i++
			if b == 12 {
				if i >= len(dict) {
					return nil
				}
				op = 1200 + int(dict[i])
				i++
			}
			last := -1
			if len(operands) > 0 {
				last = operands[len(operands)-1]
			}
			switch op {
			case 15:
				charsetOff = last
			case 16:
				encodingOff = last
			case 17:
				charStringsOff = last
			case 1230: // ROS: a CID-keyed font
				return nil
			}
			operands = operands[:0]
		case b == 28:
			if i+3 > len(dict) {
				return nil
			}
			operands = append(operands, int(int16(binary.BigEndian.Uint16(dict[i+1:]))))
			i += 3
		case b == 29:
			if i+5 > len(dict) {
				return nil
			}
			operands = append(operands, int(int32(binary.BigEndian.Uint32(dict[i+1:]))))
			i += 5
		case b == 30: // real: nibbles up to 0xf
			i++
			for i < len(dict) && dict[i]&0x0f != 0x0f && dict[i]>>4 != 0x0f {
				i++
			}
			i++
			operands = append(operands, 0)
		case b >= 32 && b <= 246:
			operands = append(operands, int(b)-139)
			i++
		case b >= 247 && b <= 250:
			if i+2 > len(dict) {
				return nil
			}
			operands = append(operands, (int(b)-247)*256+int(dict[i+1])+108)
			i += 2
		case b >= 251 && b <= 254:
			if i+2 > len(dict) {
				return nil
			}
			operands = append(operands, -(int(b)-251)*256-int(dict[i+1])-108)
			i += 2
		default:
			return nil
		}
		if len(operands) > 48 { // the DICT operand stack limit
			return nil
		}
	}
	if encodingOff <= 1 || charsetOff <= 2 || charStringsOff <= 0 || encodingOff >= len(data) || charsetOff >= len(data) {
		return nil // a predefined encoding or charset: standard names only
	}
	cs, _, ok := readCFFIndex(data, charStringsOff)
	if !ok || cs.count < 1 {
		return nil
	}
	nGlyphs := cs.count
	// charset: the SID of each glyph (glyph 0 is .notdef).
	sids := make([]int, nGlyphs)
	p := charsetOff
	u8 := func(at int) (int, bool) {
		if at < 0 || at >= len(data) {
			return 0, false
		}
		return int(data[at]), true
	}
	u16 := func(at int) (int, bool) {
		if at < 0 || at+2 > len(data) {
			return 0, false
		}
		return int(binary.BigEndian.Uint16(data[at:])), true
	}
	format, ok := u8(p)
	if !ok {
		return nil
	}
	p++
	switch format {
	case 0:
		for g := 1; g < nGlyphs; g++ {
			if sids[g], ok = u16(p); !ok {
				return nil
			}
			p += 2
		}
	case 1, 2:
		for g := 1; g < nGlyphs; {
			first, ok1 := u16(p)
			var left int
			var ok2 bool
			if format == 1 {
				left, ok2 = u8(p + 2)
				p += 3
			} else {
				left, ok2 = u16(p + 2)
				p += 4
			}
			if !ok1 || !ok2 {
				return nil
			}
			for k := 0; k <= left && g < nGlyphs; k++ {
				sids[g] = first + k
				g++
			}
		}
	default:
		return nil
	}
	name := func(sid int) string {
		if sid < 391 {
			return ""
		}
		s, ok := strs.item(data, sid-391)
		if !ok || len(s) > 128 {
			return ""
		}
		return string(s)
	}
	var enc [256]string
	p = encodingOff
	format, ok = u8(p)
	if !ok {
		return nil
	}
	p++
	switch format & 0x7f {
	case 0:
		n, ok := u8(p)
		if !ok {
			return nil
		}
		p++
		for g := 1; g <= n; g++ {
			code, ok := u8(p)
			if !ok {
				return nil
			}
			p++
			if g < nGlyphs {
				enc[code] = name(sids[g])
			}
		}
	case 1:
		n, ok := u8(p)
		if !ok {
			return nil
		}
		p++
		g := 1
		for r := 0; r < n; r++ {
			first, ok1 := u8(p)
			left, ok2 := u8(p + 1)
			if !ok1 || !ok2 {
				return nil
			}
			p += 2
			for k := 0; k <= left && first+k < 256; k++ {
				if g < nGlyphs {
					enc[first+k] = name(sids[g])
				}
				g++
			}
		}
	default:
		return nil
	}
	if format&0x80 != 0 { // supplements: more codes for glyphs by SID
		n, ok := u8(p)
		if !ok {
			return nil
		}
		p++
		for s := 0; s < n; s++ {
			code, ok1 := u8(p)
			sid, ok2 := u16(p + 1)
			if !ok1 || !ok2 {
				return nil
			}
			p += 3
			enc[code] = name(sid)
		}
	}
	return &enc
}

// cffIndex is a CFF INDEX: count items whose offsets (offSize bytes each,
// 1-based from the byte before the data) start at offs.
type cffIndex struct {
	count, offSize, offs, data int
}

// readCFFIndex reads the INDEX at pos and returns it and the position
// after it.
func readCFFIndex(b []byte, pos int) (cffIndex, int, bool) {
	if pos < 0 || pos+2 > len(b) {
		return cffIndex{}, 0, false
	}
	x := cffIndex{count: int(binary.BigEndian.Uint16(b[pos:]))}
	if x.count == 0 {
		return x, pos + 2, true
	}
	if pos+3 > len(b) {
		return cffIndex{}, 0, false
	}
	x.offSize = int(b[pos+2])
	if x.offSize < 1 || x.offSize > 4 {
		return cffIndex{}, 0, false
	}
	x.offs = pos + 3
	x.data = x.offs + (x.count+1)*x.offSize - 1
	if x.data >= len(b) {
		return cffIndex{}, 0, false
	}
	end, ok := x.offset(b, x.count)
	if !ok {
		return cffIndex{}, 0, false
	}
	return x, x.data + end, true
}

// offset returns the i-th offset of x (1-based, as stored).
func (x cffIndex) offset(b []byte, i int) (int, bool) {
	at := x.offs + i*x.offSize
	if at+x.offSize > len(b) {
		return 0, false
	}
	v := 0
	for k := 0; k < x.offSize; k++ {
		v = v<<8 | int(b[at+k])
	}
	if v < 1 || x.data+v > len(b) {
		return 0, false
	}
	return v, true
}

// item returns the i-th item of x.
func (x cffIndex) item(b []byte, i int) ([]byte, bool) {
	if i < 0 || i >= x.count {
		return nil, false
	}
	s, ok1 := x.offset(b, i)
	e, ok2 := x.offset(b, i+1)
	if !ok1 || !ok2 || e < s {
		return nil, false
	}
	return b[x.data+s : x.data+e], true
}
