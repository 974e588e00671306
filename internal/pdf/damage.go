package pdf

import (
	"bytes"
	"regexp"
	"strconv"
)

var (
	startXref = regexp.MustCompile(`startxref\s+(\d+)`)
	objAt     = regexp.MustCompile(`^\s*\d+\s+\d+\s+obj\b`)
	xrefHead  = regexp.MustCompile(`^\s*xref\s+(\d+)\s+(\d+)\s*[\r\n]`)
)

// Damage says why pdfium will have to repair data (rebuild its
// cross-reference table by scanning the file), or "" when the file ends as
// a PDF should: "startxref" near the end pointing at a cross-reference
// table or stream, whose first section's entries point at their objects,
// and "%%EOF". A repaired file opens, but a truncated one has lost text,
// and pdfium does not say it repaired anything; callers warn.
func Damage(data []byte) string {
	tail := data[max(0, len(data)-2048):]
	ms := startXref.FindAllSubmatchIndex(tail, -1)
	if len(ms) == 0 {
		return "the file does not end with a cross-reference pointer (startxref): it is truncated or damaged"
	}
	m := ms[len(ms)-1]
	if !bytes.Contains(tail[m[1]:], []byte("%%EOF")) {
		return "the file does not end with %%EOF: it is truncated or damaged"
	}
	off, err := strconv.Atoi(string(tail[m[2]:m[3]]))
	if err != nil || off <= 0 || off >= len(data) {
		return "its cross-reference pointer (startxref) points outside the file"
	}
	at := data[off:]
	if objAt.Match(at[:min(len(at), 64)]) {
		return "" // a cross-reference stream (PDF 1.5): its entries are not checked here
	}
	h := xrefHead.FindSubmatchIndex(at[:min(len(at), 64)])
	if h == nil {
		return "its cross-reference pointer (startxref) does not point at a cross-reference table"
	}
	first, _ := strconv.Atoi(string(at[h[2]:h[3]]))
	count, _ := strconv.Atoi(string(at[h[4]:h[5]]))
	entries := at[h[1]:]
	for i := range min(count, len(entries)/20) {
		e := entries[i*20 : i*20+20]
		if e[17] != 'n' {
			continue
		}
		if string(e[:10]) == "0000000000" {
			continue // some producers mark missing objects so; readers skip them
		}
		o, err := strconv.Atoi(string(bytes.TrimLeft(e[:10], "0")))
		if err != nil || o >= len(data) || !bytes.HasPrefix(bytes.TrimLeft(data[o:min(len(data), o+32)], " \r\n\t"), []byte(strconv.Itoa(first+i)+" ")) {
			return "its cross-reference table points at the wrong places (object " + strconv.Itoa(first+i) + ")"
		}
	}
	return ""
}
