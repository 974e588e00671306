package identifier

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossmem/crossmem/internal/corpustest"
)

func noFiles(string) bool { return false }

func TestClassify(t *testing.T) {
	tests := []struct {
		in   string
		want ID
	}{
		// arXiv URLs
		{"https://arxiv.org/abs/1706.03762", ID{Kind: KindArxiv, ArxivID: "1706.03762"}},
		{"https://arxiv.org/abs/1706.03762v5", ID{Kind: KindArxiv, ArxivID: "1706.03762", Version: 5}},
		{"http://arxiv.org/abs/1111.2011v2", ID{Kind: KindArxiv, ArxivID: "1111.2011", Version: 2}},
		{"https://arxiv.org/pdf/1706.03762", ID{Kind: KindArxiv, ArxivID: "1706.03762"}},
		{"https://arxiv.org/pdf/1706.03762v7.pdf", ID{Kind: KindArxiv, ArxivID: "1706.03762", Version: 7}},
		{"https://arxiv.org/pdf/1706.03762.pdf", ID{Kind: KindArxiv, ArxivID: "1706.03762"}},
		{"https://arxiv.org/html/2402.12345v2", ID{Kind: KindArxiv, ArxivID: "2402.12345", Version: 2}},
		{"https://arxiv.org/html/2402.12345v2/", ID{Kind: KindArxiv, ArxivID: "2402.12345", Version: 2}},
		{"https://arxiv.org/html/2402.12345v2#S3", ID{Kind: KindArxiv, ArxivID: "2402.12345", Version: 2}},
		{"https://export.arxiv.org/abs/2104.12255v1", ID{Kind: KindArxiv, ArxivID: "2104.12255", Version: 1}},
		{"https://www.arxiv.org/abs/1810.04805v2", ID{Kind: KindArxiv, ArxivID: "1810.04805", Version: 2}},
		{"arxiv.org/abs/1810.04805", ID{Kind: KindArxiv, ArxivID: "1810.04805"}},
		{"https://arxiv.org/abs/hep-th/9901001", ID{Kind: KindArxiv, ArxivID: "hep-th/9901001"}},
		{"https://arxiv.org/abs/quant-ph/0201082v1", ID{Kind: KindArxiv, ArxivID: "quant-ph/0201082", Version: 1}},
		{"https://arxiv.org/pdf/astro-ph/0601001v1", ID{Kind: KindArxiv, ArxivID: "astro-ph/0601001", Version: 1}},
		{"https://arxiv.org/pdf/astro-ph/0603274.pdf", ID{Kind: KindArxiv, ArxivID: "astro-ph/0603274"}},
		{"https://arxiv.org/abs/1706.03762?context=cs", ID{Kind: KindArxiv, ArxivID: "1706.03762"}},
		{"  https://arxiv.org/abs/1706.03762  ", ID{Kind: KindArxiv, ArxivID: "1706.03762"}},
		// bare arXiv ids
		{"1706.03762", ID{Kind: KindArxiv, ArxivID: "1706.03762"}},
		{"1706.03762v5", ID{Kind: KindArxiv, ArxivID: "1706.03762", Version: 5}},
		{"arXiv:1706.03762v5", ID{Kind: KindArxiv, ArxivID: "1706.03762", Version: 5}},
		{"arxiv:2312.07559", ID{Kind: KindArxiv, ArxivID: "2312.07559"}},
		{"2409.05654v9", ID{Kind: KindArxiv, ArxivID: "2409.05654", Version: 9}},
		{"0704.0001", ID{Kind: KindArxiv, ArxivID: "0704.0001"}},
		{"hep-th/9901001", ID{Kind: KindArxiv, ArxivID: "hep-th/9901001"}},
		{"math.GT/0309136", ID{Kind: KindArxiv, ArxivID: "math/0309136"}},
		{"arXiv:cond-mat/0702661v2", ID{Kind: KindArxiv, ArxivID: "cond-mat/0702661", Version: 2}},
		{"cs/0503050", ID{Kind: KindArxiv, ArxivID: "cs/0503050"}},
		// DOIs
		{"https://doi.org/10.1063/5.0012345", ID{Kind: KindDOI, DOI: "10.1063/5.0012345"}},
		{"http://dx.doi.org/10.1103/PhysRevB.85.115117", ID{Kind: KindDOI, DOI: "10.1103/PhysRevB.85.115117"}},
		{"https://doi.org/10.1016%2Fj.xgen.2025.100814", ID{Kind: KindDOI, DOI: "10.1016/j.xgen.2025.100814"}},
		{"https://doi.org/10.1023/A:1007154515475", ID{Kind: KindDOI, DOI: "10.1023/A:1007154515475"}},
		{"doi.org/10.7554/eLife.01567", ID{Kind: KindDOI, DOI: "10.7554/eLife.01567"}},
		{"10.1063/5.0012345", ID{Kind: KindDOI, DOI: "10.1063/5.0012345"}},
		{"doi:10.1038/s42256-024-00832-8", ID{Kind: KindDOI, DOI: "10.1038/s42256-024-00832-8"}},
		{"DOI: 10.1038/s42256-024-00832-8", ID{Kind: KindDOI, DOI: "10.1038/s42256-024-00832-8"}},
		{"10.1038/s42256-024-00832-8.", ID{Kind: KindDOI, DOI: "10.1038/s42256-024-00832-8"}},
		{"10.1038/s42256-024-00832-8);", ID{Kind: KindDOI, DOI: "10.1038/s42256-024-00832-8"}},
		{"10.1016/S0140-6736(20)30183-5", ID{Kind: KindDOI, DOI: "10.1016/S0140-6736(20)30183-5"}},
		{"10.1002/(SICI)1097-4636(199706)35:4<413::AID-JBM1>3.0.CO;2-F", ID{Kind: KindDOI, DOI: "10.1002/(SICI)1097-4636(199706)35:4<413::AID-JBM1>3.0.CO;2-F"}},
		{"10.2210/pdb4hhb/pdb", ID{Kind: KindDOI, DOI: "10.2210/pdb4hhb/pdb"}},
		{"10.1111/(issn)1442-9993", ID{Kind: KindDOI, DOI: "10.1111/(issn)1442-9993"}},
		{"10.48550/arXiv.1706.03762", ID{Kind: KindDOI, DOI: "10.48550/arXiv.1706.03762"}},
		{"https://doi.org/10.48550/arXiv.astro-ph/0601001", ID{Kind: KindDOI, DOI: "10.48550/arXiv.astro-ph/0601001"}},
		{"info:doi/10.1145/3544548.3580847", ID{Kind: KindDOI, DOI: "10.1145/3544548.3580847"}},
		// PDF URLs
		{"https://chemrxiv.org/paper.pdf", ID{Kind: KindPDFURL, URL: "https://chemrxiv.org/paper.pdf"}},
		{"https://example.org/files/Paper.PDF?download=1", ID{Kind: KindPDFURL, URL: "https://example.org/files/Paper.PDF?download=1"}},
		{"https://www.nature.com/articles/s42256-024-00832-8.pdf", ID{Kind: KindPDFURL, URL: "https://www.nature.com/articles/s42256-024-00832-8.pdf"}},
		{"http://example.org/paper.pdf", ID{Kind: KindPDFURL, URL: "http://example.org/paper.pdf", Insecure: true}},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := Classify(tc.in, noFiles)
			if err != nil {
				t.Fatalf("Classify(%q): %v", tc.in, err)
			}
			tc.want.Input = strings.TrimSpace(tc.in)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Classify(%q) mismatch (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}

func TestClassifyUnrecognized(t *testing.T) {
	for _, in := range []string{
		"",
		"   ",
		"hello world",
		"https://example.org/paper.html",
		"ftp://example.org/paper.pdf", // only http(s) PDF URLs
		"ftp://example.org/paper.pdf",
		"https://arxiv.org/list/cs.CL/recent",
		"0808.05394",   // 5-digit number before 2015 does not exist
		"1501.0001",    // 4-digit number from 2015 does not exist
		"1713.00001",   // month 13
		"0703.0001",    // before the new scheme
		"1706.03762v0", // versions start at 1
		"abc",
		"10.1/abc", // registrant too short
		"10.1234/",
		"doi:",
		"https://doi.org/",
		"https://example.org/10.1234/abc",
		"./missing.pdf",
	} {
		t.Run(in, func(t *testing.T) {
			got, err := Classify(in, noFiles)
			if !errors.Is(err, ErrUnrecognized) {
				t.Fatalf("Classify(%q) = %+v, %v; want ErrUnrecognized", in, got, err)
			}
		})
	}
}

func TestErrUnrecognizedNamesForms(t *testing.T) {
	_, err := Classify("nonsense", noFiles)
	msg := err.Error()
	for _, want := range []string{"local PDF path", "arXiv URL or id", "DOI URL or bare DOI", "http(s) URL ending in .pdf", `"nonsense"`} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not mention %q", msg, want)
		}
	}
}

func TestClassifyLocalFile(t *testing.T) {
	dir := t.TempDir()
	pdf := filepath.Join(dir, "smith2023.pdf")
	if err := os.WriteFile(pdf, []byte("%PDF-1.4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A file whose name looks like an arXiv id still is a local file: the
	// file check comes first.
	looksLikeID := filepath.Join(dir, "1706.03762")
	if err := os.WriteFile(looksLikeID, []byte("%PDF-1.4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{pdf, looksLikeID, "file://" + pdf} {
		got, err := Classify(in, nil)
		if err != nil {
			t.Fatalf("Classify(%q): %v", in, err)
		}
		wantPath := strings.TrimPrefix(in, "file://")
		if got.Kind != KindLocalPDF || got.Path != wantPath {
			t.Errorf("Classify(%q) = %+v; want local PDF %q", in, got, wantPath)
		}
	}
	// A directory is not a PDF.
	if got, err := Classify(dir, nil); err == nil {
		t.Errorf("Classify(dir) = %+v; want error", got)
	}
	// The injected check decides.
	got, err := Classify("10.1063/5.0012345", func(string) bool { return true })
	if err != nil || got.Kind != KindLocalPDF {
		t.Errorf("Classify with exists=true = %+v, %v; want local PDF", got, err)
	}
}

func TestParseArxivID(t *testing.T) {
	tests := []struct {
		in      string
		id      string
		version int
		ok      bool
	}{
		{"1706.03762", "1706.03762", 0, true},
		{"1706.03762v5", "1706.03762", 5, true},
		{"arXiv:1706.03762v5", "1706.03762", 5, true},
		{"ARXIV:1412.6529v2", "1412.6529", 2, true},
		{"2501.05022v4", "2501.05022", 4, true},
		{"hep-th/9901001", "hep-th/9901001", 0, true},
		{"HEP-TH/9901001v3", "hep-th/9901001", 3, true},
		{"math.GT/0309136", "math/0309136", 0, true},
		{"quant-ph/0201082v1", "quant-ph/0201082", 1, true},
		{"1706.3762", "", 0, false},
		{"1706.037621", "", 0, false},
		{"1706.03762v", "", 0, false},
		{"hep-th/990100", "", 0, false},
		{"hep-th/9913001", "", 0, false},
		{"10.1063/5.0012345", "", 0, false},
	}
	for _, tc := range tests {
		id, v, ok := ParseArxivID(tc.in)
		if id != tc.id || v != tc.version || ok != tc.ok {
			t.Errorf("ParseArxivID(%q) = %q, %d, %v; want %q, %d, %v", tc.in, id, v, ok, tc.id, tc.version, tc.ok)
		}
	}
}

func TestArxivDOI(t *testing.T) {
	for _, id := range []string{"1706.03762", "astro-ph/0601001", "2104.12255"} {
		doi := ArxivDOI(id)
		if want := "10.48550/arXiv." + id; doi != want {
			t.Errorf("ArxivDOI(%q) = %q; want %q", id, doi, want)
		}
		got, ok := ArxivIDFromDOI(doi)
		if !ok || got != id {
			t.Errorf("ArxivIDFromDOI(%q) = %q, %v; want %q", doi, got, ok, id)
		}
	}
	for in, want := range map[string]string{
		"10.48550/arxiv.2312.07559":                     "2312.07559", // DataCite lower-cases the suffix
		"https://doi.org/10.48550/arXiv.1810.04805":     "1810.04805",
		"doi:10.48550/ARXIV.1902.02534":                 "1902.02534",
		"https://doi.org/10.48550/arXiv.hep-th/9901001": "hep-th/9901001",
	} {
		if got, ok := ArxivIDFromDOI(in); !ok || got != want {
			t.Errorf("ArxivIDFromDOI(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"10.1038/s42256-024-00832-8", "10.48550/arXiv.nonsense", "10.48550/zenodo.123"} {
		if got, ok := ArxivIDFromDOI(in); ok {
			t.Errorf("ArxivIDFromDOI(%q) = %q, true; want false", in, got)
		}
	}
}

func TestNormalizeDOI(t *testing.T) {
	a := NormalizeDOI("10.1023/A:1007154515475")
	b := NormalizeDOI("https://doi.org/10.1023/a:1007154515475")
	if a != b || a != "10.1023/a:1007154515475" {
		t.Errorf("NormalizeDOI: %q vs %q; want both 10.1023/a:1007154515475", a, b)
	}
	if got := NormalizeDOI("10.1103/PhysRevA.106.022212"); got != "10.1103/physreva.106.022212" {
		t.Errorf("NormalizeDOI = %q", got)
	}
}

// TestClassifyRecordedArxivIDs classifies every entry id in the recorded
// arXiv API responses, bare and as abs/pdf URLs.
func TestClassifyRecordedArxivIDs(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(corpustest.Dir(t, "api", "arxiv"), "*.xml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no arXiv recordings: %v", err)
	}
	idRe := regexp.MustCompile(`<id>https?://arxiv\.org/abs/([^<]+?)(?:v(\d+))?</id>`)
	seen := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range idRe.FindAllStringSubmatch(string(b), -1) {
			seen++
			wantID := m[1]
			wantV := 0
			if m[2] != "" {
				wantV = int(m[2][0] - '0')
				for _, c := range m[2][1:] {
					wantV = wantV*10 + int(c-'0')
				}
			}
			versioned := m[1]
			if m[2] != "" {
				versioned += "v" + m[2]
			}
			for _, in := range []string{
				versioned,
				"arXiv:" + versioned,
				"https://arxiv.org/abs/" + versioned,
				"https://arxiv.org/pdf/" + versioned,
				"https://arxiv.org/pdf/" + versioned + ".pdf",
				"https://export.arxiv.org/abs/" + versioned,
			} {
				got, err := Classify(in, noFiles)
				if err != nil || got.Kind != KindArxiv || got.ArxivID != wantID || got.Version != wantV {
					t.Errorf("Classify(%q) = %+v, %v; want arXiv %s v%d", in, got, err, wantID, wantV)
				}
			}
			doi := ArxivDOI(wantID)
			got, err := Classify(doi, noFiles)
			if err != nil || got.Kind != KindDOI || got.DOI != doi {
				t.Errorf("Classify(%q) = %+v, %v; want DOI", doi, got, err)
			}
		}
	}
	if seen < 100 {
		t.Errorf("found only %d arXiv entry ids in the recordings", seen)
	}
}

// TestClassifyRecordedDOIs classifies the DOI of every recorded Crossref
// work in its bare, doi:, and doi.org URL forms.
func TestClassifyRecordedDOIs(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(corpustest.Dir(t, "api", "crossref"), "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Crossref recordings: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var env struct {
			Message struct {
				DOI string `json:"DOI"`
			} `json:"message"`
		}
		if err := json.Unmarshal(b, &env); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		doi := env.Message.DOI
		if doi == "" {
			t.Fatalf("%s: no DOI", f)
		}
		for _, in := range []string{
			doi,
			"doi:" + doi,
			"https://doi.org/" + doi,
			"https://doi.org/" + strings.ReplaceAll(doi, "/", "%2F"),
			"http://dx.doi.org/" + doi,
			doi + ".",
		} {
			got, err := Classify(in, noFiles)
			if err != nil || got.Kind != KindDOI || got.DOI != doi {
				t.Errorf("Classify(%q) = %+v, %v; want DOI %q", in, got, err, doi)
			}
		}
	}
}
