package draft

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/crossmem/crossmem/internal/hint"
)

// NotTextError is returned by CheckText for input that is not a draft's
// text: a PDF, an office document, an image or other binary data.
type NotTextError struct {
	Name string // the file's name ("" for text given directly)
	What string // "a PDF", "a ZIP archive (.docx, .odt, .epub)", "binary data"
}

func (e *NotTextError) Error() string {
	name := e.Name
	if name == "" {
		name = "the draft"
	}
	return fmt.Sprintf("%s is %s, not the text of a draft: crossmem reads LaTeX, pandoc markdown or plain text", name, e.What)
}

// Hint is to export the document as text first.
func (e *NotTextError) Hint() hint.Action { return hint.Action{Kind: hint.ExportDraft, Path: e.Name} }

// magics are the file signatures CheckText names.
var magics = []struct {
	prefix, what string
}{
	{"%PDF-", "a PDF"},
	{"PK\x03\x04", "a ZIP archive (.docx, .odt, .epub)"},
	{"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an old Office document (.doc)"},
	{"{\\rtf", "an RTF document"},
	{"\x89PNG", "a PNG image"},
	{"\xff\xd8\xff", "a JPEG image"},
	{"GIF8", "a GIF image"},
	{"\x1f\x8b", "gzip-compressed data"},
}

// CheckText returns a *NotTextError when data (the file name) is not a
// draft's text: a known binary format by its signature, or data with NUL
// bytes or mostly invalid UTF-8 in its first 64 KiB.
func CheckText(name string, data []byte) error {
	for _, m := range magics {
		if bytes.HasPrefix(data, []byte(m.prefix)) {
			return &NotTextError{Name: name, What: m.what}
		}
	}
	head := data[:min(len(data), 64<<10)]
	if bytes.IndexByte(head, 0) >= 0 {
		return &NotTextError{Name: name, What: "binary data"}
	}
	bad := 0
	for i := 0; i < len(head); {
		r, size := utf8.DecodeRune(head[i:])
		if r == utf8.RuneError && size == 1 && len(head)-i >= utf8.UTFMax {
			bad++
		}
		i += size
	}
	if bad > 16 && bad*20 > len(head) {
		return &NotTextError{Name: name, What: "binary data (not UTF-8 text)"}
	}
	return nil
}
