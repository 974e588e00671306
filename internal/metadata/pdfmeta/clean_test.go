package pdfmeta

import (
	"testing"
)

// TestControlCharactersAlike: NUL, BEL and U+202E in the Info dictionary
// and in XMP give the same clean title and author.
func TestControlCharactersAlike(t *testing.T) {
	title := "Zed\x00 of \u202Ethings\x07 and stuff"
	author := "Ann\x1b Smith"
	info := FromInfo(title, author, "")
	packet := []byte(`%PDF-1.7
<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">` + title + `</rdf:li></rdf:Alt></dc:title><dc:creator><rdf:Seq><rdf:li>` + author + `</rdf:li></rdf:Seq></dc:creator></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`)
	x, ok := ParseXMP(packet)
	if !ok {
		t.Fatal("the XMP packet was not read")
	}
	xr := x.Record()
	const want = "Zed of things and stuff"
	if info.Title != want || xr.Title != want {
		t.Errorf("titles: Info %q, XMP %q, want %q", info.Title, xr.Title, want)
	}
	if len(info.Authors) != 1 || len(xr.Authors) != 1 || info.Authors[0] != xr.Authors[0] || info.Authors[0].Family != "Smith" {
		t.Errorf("authors: Info %+v, XMP %+v", info.Authors, xr.Authors)
	}
}
