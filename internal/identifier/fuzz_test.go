package identifier

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// FuzzClassify checks that Classify never panics and that what it extracts
// round-trips: an arXiv id re-parses to itself, a DOI re-parses to itself,
// and normalising is idempotent.
func FuzzClassify(f *testing.F) {
	for _, s := range []string{
		"https://arxiv.org/abs/1706.03762v5",
		"https://arxiv.org/pdf/hep-th/9901001v2.pdf",
		"math.GT/0309136",
		"arXiv:2409.05654v9",
		"https://doi.org/10.1016%2Fj.xgen.2025.100814",
		"doi:10.1023/A:1007154515475",
		"10.1002/(SICI)1097-4636(199706)35:4<413::AID-JBM1>3.0.CO;2-F",
		"10.48550/arXiv.1706.03762",
		"https://example.org/a.pdf?x=1",
		"(10.1038/srep16696).",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, err := Classify(s, noFiles)
		if err != nil {
			if !errors.Is(err, ErrUnrecognized) {
				t.Fatalf("Classify(%q) error %v does not wrap ErrUnrecognized", s, err)
			}
			return
		}
		switch id.Kind {
		case KindArxiv:
			got, v, ok := ParseArxivID(id.ArxivID)
			if !ok || got != id.ArxivID || v != 0 {
				t.Fatalf("ParseArxivID(%q) = %q, %d, %v; want itself, 0", id.ArxivID, got, v, ok)
			}
			versioned := id.ArxivID
			if id.Version > 0 {
				versioned += "v" + strconv.Itoa(id.Version)
			}
			if got, v, ok := ParseArxivID(versioned); !ok || got != id.ArxivID || v != id.Version {
				t.Fatalf("ParseArxivID(%q) = %q, %d, %v", versioned, got, v, ok)
			}
			if got, ok := ArxivIDFromDOI(ArxivDOI(id.ArxivID)); !ok || got != id.ArxivID {
				t.Fatalf("ArxivIDFromDOI(ArxivDOI(%q)) = %q, %v", id.ArxivID, got, ok)
			}
		case KindDOI:
			got, ok := ParseDOI(id.DOI)
			if !ok || got != id.DOI {
				t.Fatalf("ParseDOI(%q) = %q, %v; want itself", id.DOI, got, ok)
			}
			n := NormalizeDOI(id.DOI)
			if NormalizeDOI(n) != n {
				t.Fatalf("NormalizeDOI not idempotent on %q", id.DOI)
			}
			if !strings.HasPrefix(id.DOI, "10.") {
				t.Fatalf("DOI %q does not start with 10.", id.DOI)
			}
		case KindPDFURL:
			if !strings.HasSuffix(strings.ToLower(strings.SplitN(strings.SplitN(id.URL, "?", 2)[0], "#", 2)[0]), ".pdf") {
				t.Fatalf("PDF URL %q does not end in .pdf", id.URL)
			}
		case KindLocalPDF:
			t.Fatalf("Classify(%q) = local PDF with no files", s)
		default:
			t.Fatalf("Classify(%q) returned kind %v without error", s, id.Kind)
		}
	})
}
