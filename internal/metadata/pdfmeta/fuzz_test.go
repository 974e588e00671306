package pdfmeta

import "testing"

// FuzzParseXMP checks that arbitrary bytes never panic the packet finder
// and that whatever it returns maps to a record.
func FuzzParseXMP(f *testing.F) {
	f.Add([]byte("1 0 obj<</Type/Catalog/Metadata 2 0 R>>endobj 2 0 obj<<>>stream\n<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'><rdf:Description xmlns:dc='http://purl.org/dc/elements/1.1/'><dc:creator><rdf:Seq><rdf:li>A B, C D</rdf:li></rdf:Seq></dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>\nendstream endobj"))
	f.Add([]byte("<?xpacket begin='' id='x'?><rdf:RDF><?xpacket end='r'?>"))
	f.Add([]byte("/Type /Catalog /Metadata 99999999999999999999 0 R"))
	f.Fuzz(func(t *testing.T, b []byte) {
		x, ok := ParseXMP(b)
		if ok {
			_ = Merge(FromInfo(string(b), string(b), string(b)), x)
		}
	})
}
