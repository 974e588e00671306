package pdfmeta

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/crossmem/crossmem/internal/identifier"
	"github.com/crossmem/crossmem/internal/metadata"
)

// XMP holds the raw values of a document's XMP packet that crossmem uses.
// Values are as written (white space trimmed); Record applies the junk
// filters.
type XMP struct {
	Title           string   // dc:title, the x-default alternative (else the first)
	Creators        []string // dc:creator items in order (rdf:Seq or rdf:Bag)
	Date            string   // dc:date, first item
	CreateDate      string   // xmp:CreateDate
	PublicationDate string   // prism:publicationDate, else prism:coverDate
	DOI             string   // prism:doi, pdfx:doi, crossmark:DOI or a DOI dc:identifier, parsed
	// ArxivID and ArxivVersion come from a dc:identifier that is an arXiv
	// id or URL ("arXiv:2301.00001v2", "https://arxiv.org/abs/2301.00001v2");
	// ArxivID is versionless, ArxivVersion 0 when none is given.
	ArxivID      string
	ArxivVersion int
}

// ParseXMP finds the document's uncompressed XMP packet in the raw PDF
// bytes and extracts its title, creators, dates and DOI. ok is false when
// there is no such packet.
//
// The packet is the one the document catalog names (/Metadata n g R); a
// catalog without /Metadata means the document has none, even if images or
// pages embedded from other files carry packets of their own (they do, and
// they describe those files). Only when no catalog can be seen (it sits in a
// compressed object stream) is the first packet with any of these values
// taken instead. A packet in a compressed (Flate) stream is not found.
func ParseXMP(pdf []byte) (*XMP, bool) {
	if pkt, found := catalogPacket(pdf); found {
		if pkt == nil {
			return nil, false
		}
		return parsePacket(pkt)
	}
	for _, pkt := range allPackets(pdf) {
		if x, ok := parsePacket(pkt); ok && (x.Title != "" || len(x.Creators) > 0 || x.DOI != "") {
			return x, true
		}
	}
	return nil, false
}

// Record maps the packet to a Record with source metadata.SourcePDFXMP,
// dropping junk values with warnings like FromInfo. Issued is the
// publication date when the packet has one, else dc:date or xmp:CreateDate
// (with the creation-date warning).
func (x *XMP) Record() *metadata.Record {
	r := &metadata.Record{}
	setTitle(r, x.Title, metadata.SourcePDFXMP)
	setAuthors(r, x.Creators, metadata.SourcePDFXMP)
	if d, ok := parseDate(x.PublicationDate); ok {
		r.Issued = d
		r.SetSource(metadata.FieldIssued, metadata.SourcePDFXMP)
	} else {
		for _, s := range []string{x.Date, x.CreateDate} {
			if d, ok := parseDate(s); ok && plausibleCreation(d) {
				r.Issued = d
				r.SetSource(metadata.FieldIssued, metadata.SourcePDFXMP)
				r.Warn(creationWarning(d))
				break
			}
		}
	}
	if x.DOI != "" && r.DOI == "" {
		r.DOI = x.DOI
		r.SetSource(metadata.FieldDOI, metadata.SourcePDFXMP)
	}
	if x.ArxivID != "" {
		r.ArxivID, r.ArxivVersion = x.ArxivID, x.ArxivVersion
		r.SetSource(metadata.FieldArxivID, metadata.SourcePDFXMP)
	}
	r.Normalize()
	return r
}

var (
	catalogRe = regexp.MustCompile(`/Type\s*/Catalog\b`)
	metaRefRe = regexp.MustCompile(`/Metadata\s+(\d+)\s+(\d+)\s+R`)
)

// catalogPacket returns the packet of the object the last catalog's
// /Metadata names. found is false when no catalog is visible; pkt is nil
// when the catalog has no /Metadata or its stream holds no readable packet.
func catalogPacket(pdf []byte) (pkt []byte, found bool) {
	locs := catalogRe.FindAllIndex(pdf, -1)
	if len(locs) == 0 {
		return nil, false
	}
	// Incremental updates append newer catalogs; the last one wins.
	pos := locs[len(locs)-1][0]
	start := bytes.LastIndex(pdf[:pos], []byte(" obj"))
	if alt := bytes.LastIndex(pdf[:pos], []byte("\nobj")); alt > start {
		start = alt
	}
	if start < 0 || pos-start > 1<<16 {
		start = max(0, pos-1<<16)
	}
	end := bytes.Index(pdf[pos:], []byte("endobj"))
	if end < 0 || end > 1<<16 {
		end = min(len(pdf)-pos, 1<<16)
	}
	m := metaRefRe.FindSubmatch(pdf[start : pos+end])
	if m == nil {
		return nil, true
	}
	objRe := regexp.MustCompile(string(m[1]) + `\s+` + string(m[2]) + `\s+obj\b`)
	objStart := -1
	for _, loc := range objRe.FindAllIndex(pdf, -1) {
		if loc[0] == 0 || !isDigit(pdf[loc[0]-1]) {
			objStart = loc[1] // the last definition wins
		}
	}
	if objStart < 0 {
		return nil, true
	}
	objEnd := bytes.Index(pdf[objStart:], []byte("endobj"))
	if objEnd < 0 {
		objEnd = len(pdf) - objStart
	}
	pkts := allPackets(pdf[objStart : objStart+objEnd])
	if len(pkts) == 0 {
		return nil, true
	}
	return pkts[0], true
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// allPackets returns the XMP packets found in b, in order: each
// <x:xmpmeta>…</x:xmpmeta> (or the older x:xapmeta), or, for packets
// without that wrapper, the <?xpacket begin … <?xpacket end?> span.
func allPackets(b []byte) [][]byte {
	var out [][]byte
	for i := 0; i < len(b); {
		begin := indexAny(b[i:], "<?xpacket begin", "<x:xmpmeta", "<x:xapmeta")
		if begin < 0 {
			break
		}
		begin += i
		var end int
		if bytes.HasPrefix(b[begin:], []byte("<?xpacket")) {
			e := bytes.Index(b[begin:], []byte("<?xpacket end"))
			if e < 0 {
				break
			}
			end = begin + e
			if c := bytes.Index(b[end:], []byte("?>")); c >= 0 {
				end += c + 2
			}
			// Prefer the x:xmpmeta element inside, which parses without
			// the processing instructions around it.
			inner := b[begin:end]
			if s := indexAny(inner, "<x:xmpmeta", "<x:xapmeta"); s >= 0 {
				if e := indexAny(inner[s:], "</x:xmpmeta>", "</x:xapmeta>"); e >= 0 {
					inner = inner[s : s+e+len("</x:xmpmeta>")]
				}
			}
			out = append(out, inner)
		} else {
			e := indexAny(b[begin:], "</x:xmpmeta>", "</x:xapmeta>")
			if e < 0 {
				break
			}
			end = begin + e + len("</x:xmpmeta>")
			out = append(out, b[begin:end])
		}
		i = end
	}
	return out
}

// indexAny returns the first index in b of any of subs, or -1.
func indexAny(b []byte, subs ...string) int {
	best := -1
	for _, s := range subs {
		if i := bytes.Index(b, []byte(s)); i >= 0 && (best < 0 || i < best) {
			best = i
		}
	}
	return best
}

// XML namespaces of the properties read.
const (
	nsRDF       = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
	nsDC        = "http://purl.org/dc/elements/1.1/"
	nsXMP       = "http://ns.adobe.com/xap/1.0/"
	nsPRISM     = "http://prismstandard.org/namespaces/" // + basic/2.0/, 2.1/, 3.0/ ...
	nsPDFX      = "http://ns.adobe.com/pdfx/1.3/"
	nsCrossmark = "http://crossref.org/crossmark/1.0/"
)

// property names the XMP properties read.
func property(n xml.Name) string {
	switch {
	case n.Space == nsDC && (n.Local == "title" || n.Local == "creator" || n.Local == "date" || n.Local == "identifier"):
		return "dc:" + n.Local
	case n.Space == nsXMP && n.Local == "CreateDate":
		return "xmp:CreateDate"
	case strings.HasPrefix(n.Space, nsPRISM) && (n.Local == "publicationDate" || n.Local == "coverDate" || n.Local == "doi"):
		return "prism:" + n.Local
	case n.Space == nsPDFX && strings.EqualFold(n.Local, "doi"):
		return "pdfx:doi"
	case n.Space == nsCrossmark && n.Local == "DOI":
		return "crossmark:DOI"
	}
	return ""
}

type xmpItem struct{ lang, text string }

// parsePacket reads the properties from one packet. A packet that stops
// being well-formed part-way keeps what was read before the error.
func parsePacket(pkt []byte) (*XMP, bool) {
	// Control characters are not allowed in XML and would fail the whole
	// packet; they are dropped, as from the Info dictionary
	// (metadata.CleanText), so one junk byte does not lose every field.
	pkt = bytes.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f {
			return -1
		}
		return r
	}, bytes.ToValidUTF8(pkt, []byte("\uFFFD")))
	d := xml.NewDecoder(bytes.NewReader(pkt))
	d.Strict = false
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	values := map[string][]xmpItem{}
	var (
		cur      string // property being read
		curDepth int
		depth    int
		text     strings.Builder
		inLi     bool
		liLang   string
		items    []xmpItem
		parsed   bool
	)
	for {
		tok, err := d.Token()
		if err != nil {
			if !errors.Is(err, io.EOF) && !parsed {
				return nil, false
			}
			break
		}
		parsed = true
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if cur == "" {
				if t.Name.Space == nsRDF && t.Name.Local == "Description" {
					for _, a := range t.Attr {
						if p := property(a.Name); p != "" {
							values[p] = append(values[p], xmpItem{text: a.Value})
						}
					}
				}
				if p := property(t.Name); p != "" {
					cur, curDepth = p, depth
					text.Reset()
					items = nil
				}
				continue
			}
			if t.Name.Space == nsRDF && t.Name.Local == "li" {
				inLi = true
				liLang = ""
				text.Reset()
				for _, a := range t.Attr {
					if a.Name.Local == "lang" {
						liLang = a.Value
					}
				}
			}
		case xml.CharData:
			if cur != "" {
				text.Write(t)
			}
		case xml.EndElement:
			if cur != "" && inLi && t.Name.Space == nsRDF && t.Name.Local == "li" {
				items = append(items, xmpItem{lang: liLang, text: strings.TrimSpace(text.String())})
				inLi = false
				text.Reset()
			} else if cur != "" && depth == curDepth {
				if items == nil {
					items = []xmpItem{{text: strings.TrimSpace(text.String())}}
				}
				values[cur] = append(values[cur], items...)
				cur = ""
			}
			depth--
		}
	}
	if !parsed {
		return nil, false
	}
	x := &XMP{
		Title:      pickLang(values["dc:title"]),
		Date:       first(values["dc:date"]),
		CreateDate: first(values["xmp:CreateDate"]),
	}
	for _, it := range values["dc:creator"] {
		if s := strings.TrimSpace(it.text); s != "" {
			x.Creators = append(x.Creators, s)
		}
	}
	x.PublicationDate = first(values["prism:publicationDate"])
	if x.PublicationDate == "" {
		x.PublicationDate = first(values["prism:coverDate"])
	}
	for _, key := range []string{"prism:doi", "pdfx:doi", "crossmark:DOI", "dc:identifier"} {
		for _, it := range values[key] {
			v := strings.TrimSpace(it.text)
			if doi, ok := identifier.ParseDOI(v); ok && x.DOI == "" {
				if id, ok := identifier.ArxivIDFromDOI(doi); ok && x.ArxivID == "" {
					x.ArxivID = id
				}
				x.DOI = doi
			}
		}
	}
	for _, it := range values["dc:identifier"] {
		if id, v, ok := identifier.ArxivFromText(strings.TrimSpace(it.text)); ok && x.ArxivID == "" {
			x.ArxivID, x.ArxivVersion = id, v
		}
	}
	return x, true
}

// pickLang returns the x-default alternative, else the first non-empty one.
func pickLang(items []xmpItem) string {
	for _, it := range items {
		if it.lang == "x-default" && it.text != "" {
			return it.text
		}
	}
	return first(items)
}

func first(items []xmpItem) string {
	for _, it := range items {
		if it.text != "" {
			return it.text
		}
	}
	return ""
}

// String summarises the packet for debugging and test failures.
func (x *XMP) String() string {
	return "XMP{title=" + strconv.Quote(x.Title) + " creators=" + strconv.Quote(strings.Join(x.Creators, "|")) +
		" date=" + x.Date + " created=" + x.CreateDate + " published=" + x.PublicationDate + " doi=" + x.DOI + "}"
}
