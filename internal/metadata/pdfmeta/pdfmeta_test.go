package pdfmeta

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/metadata"
)

// TestFromInfo uses Info dictionary values of the PDFs in corpus/pdf (as
// pdfinfo prints them).
func TestFromInfo(t *testing.T) {
	tests := []struct {
		name                  string
		title, author, date   string
		wantTitle             string
		wantAuthors           []metadata.Name
		wantIssued            metadata.Date
		wantWarningSubstrings []string
	}{
		{
			name: "gr_sample1 dvi file name", title: "p020-dutot.dvi", date: "D:20050330184919Z",
			wantIssued:            metadata.Date{Year: 2005, Month: 3, Day: 30},
			wantWarningSubstrings: []string{`PDF title "p020-dutot.dvi" looks like a file name`, "creation date (2005)"},
		},
		{
			name: "gr_submission_161 digit title and one-letter author", title: "5", author: "z",
			wantWarningSubstrings: []string{`PDF title "5" has no letters`, `PDF author "z" is not a name`},
		},
		{
			name: "ol_failing_pdf_pg9 untitled", title: "untitled", date: "D:20130807172019+05'30'",
			wantIssued:            metadata.Date{Year: 2013, Month: 8, Day: 7},
			wantWarningSubstrings: []string{`PDF title "untitled" is a placeholder`},
		},
		{
			// The EJP/ECP class (ejpecp) writes the journal's citation as
			// /Title and a pointer to the DOI as /Author.
			name:   "journal citation and a pointer as metadata",
			title:  "Electron. Commun. Probab. 0 (2020), article no. 0, https://doi.org/10.1214/YY-TN",
			author: "Please see https://doi.org/10.1214/YY-TN",
			wantWarningSubstrings: []string{"holds a web address (a citation or a banner, not a title)",
				`PDF author "Please see https://doi.org/10.1214/YY-TN" holds a web address`},
		},
		{
			name: "ol_dolma-page-1 pdf file name", title: "2024.acl-long.840.pdf",
			wantWarningSubstrings: []string{"looks like a file name"},
		},
		{
			name:      "pm_2020.acl-main.447 semicolons",
			title:     "S2ORC: The Semantic Scholar Open Research Corpus",
			author:    "Kyle Lo ; Lucy Lu Wang ; Mark Neumann ; Rodney Kinney ; Daniel Weld",
			date:      "D:20200502083329Z",
			wantTitle: "S2ORC: The Semantic Scholar Open Research Corpus",
			wantAuthors: []metadata.Name{
				{Family: "Lo", Given: "Kyle"}, {Family: "Wang", Given: "Lucy Lu"}, {Family: "Neumann", Given: "Mark"},
				{Family: "Kinney", Given: "Rodney"}, {Family: "Weld", Given: "Daniel"},
			},
			wantIssued: metadata.Date{Year: 2020, Month: 5, Day: 2},
		},
		{
			name:      "dp_ligatures_01 commas and Oxford and",
			title:     "DocLayNet: A Large Human-Annotated Dataset for Document-Layout Analysis",
			author:    "Birgit Pfitzmann, Christoph Auer, Michele Dolfi, Ahmed S. Nassar, and Peter Staar",
			wantTitle: "DocLayNet: A Large Human-Annotated Dataset for Document-Layout Analysis",
			wantAuthors: []metadata.Name{
				{Family: "Pfitzmann", Given: "Birgit"}, {Family: "Auer", Given: "Christoph"}, {Family: "Dolfi", Given: "Michele"},
				{Family: "Nassar", Given: "Ahmed S."}, {Family: "Staar", Given: "Peter"},
			},
		},
		{
			name:        "gr_MullenJSSv18i03 particle",
			title:       "TIMP: An R Package for Modeling Multi-way Spectroscopic Measurements",
			author:      "Katharine M. Mullen, Ivo H. M. van Stokkum",
			wantTitle:   "TIMP: An R Package for Modeling Multi-way Spectroscopic Measurements",
			wantAuthors: []metadata.Name{{Family: "Mullen", Given: "Katharine M."}, {Family: "van Stokkum", Given: "Ivo H. M."}},
		},
		{
			name:        "pm_2304.02623v1 double space, trailing space",
			title:       "Beyond Summarization:  Designing AI Support for Real-World Expository Writing Tasks ",
			wantTitle:   "Beyond Summarization: Designing AI Support for Real-World Expository Writing Tasks",
			wantAuthors: nil,
		},
		{
			name: "inverted single name", title: "A Title", author: "Smith, John",
			wantTitle: "A Title", wantAuthors: []metadata.Name{{Family: "Smith", Given: "John"}},
		},
		{
			name: "Word file name and account", title: "Microsoft Word - draft3.doc", author: "Administrator",
			wantWarningSubstrings: []string{"written by the authoring tool", "placeholder account"},
		},
		{
			name: "PowerPoint title and login (dl_redp5110 embedded XMP values)", title: "Microsoft PowerPoint - Diagrams.pptx", author: "dalandon",
			wantWarningSubstrings: []string{"written by the authoring tool", "login name"},
		},
		{
			name: "title that is a DOI", title: "doi:10.1016/j.jcp.2008.01.001", author: "user",
			wantWarningSubstrings: []string{"is a DOI", "placeholder account"},
		},
		{
			name: "epoch date", title: "Real Title", date: "D:19700101000000Z",
			wantTitle: "Real Title",
		},
		{
			name: "and plus semicolon, trailing and", title: "T", author: "Ann Lee; Bo Chen and Cy Dee and",
			wantAuthors:           []metadata.Name{{Family: "Lee", Given: "Ann"}, {Family: "Chen", Given: "Bo"}, {Family: "Dee", Given: "Cy"}},
			wantWarningSubstrings: []string{"single character"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := FromInfo(tc.title, tc.author, tc.date)
			if r.Title != tc.wantTitle {
				t.Errorf("title = %q; want %q", r.Title, tc.wantTitle)
			}
			want := tc.wantAuthors
			if want == nil {
				want = []metadata.Name{}
			}
			if diff := cmp.Diff(want, r.Authors); diff != "" {
				t.Errorf("authors (-want +got):\n%s", diff)
			}
			if r.Issued != tc.wantIssued {
				t.Errorf("issued = %+v; want %+v", r.Issued, tc.wantIssued)
			}
			for _, w := range tc.wantWarningSubstrings {
				if !strings.Contains(strings.Join(r.Warnings, "\n"), w) {
					t.Errorf("warnings %q lack %q", r.Warnings, w)
				}
			}
			if r.Title != "" && !cmp.Equal(r.FieldSources[metadata.FieldTitle], []string{metadata.SourcePDFInfo}) {
				t.Errorf("title source = %v", r.FieldSources[metadata.FieldTitle])
			}
			if len(r.Authors) > 0 && !cmp.Equal(r.FieldSources[metadata.FieldAuthors], []string{metadata.SourcePDFInfo}) {
				t.Errorf("authors source = %v", r.FieldSources[metadata.FieldAuthors])
			}
			if r.Title == "" && len(r.Authors) == 0 && r.Issued.IsZero() && r.DOI == "" && len(r.Sources) != 0 {
				t.Errorf("sources = %v for an empty record", r.Sources)
			}
		})
	}
	if r := FromInfo("doi:10.1016/j.jcp.2008.01.001", "", ""); r.DOI != "10.1016/j.jcp.2008.01.001" {
		t.Errorf("DOI from title = %q", r.DOI)
	}
}

func TestSplitAuthors(t *testing.T) {
	tests := map[string][]string{
		"Smith, John":                        {"Smith, John"},
		"Ann Lee, Bo Chen":                   {"Ann Lee", "Bo Chen"},
		"Ann Lee and Bo Chen":                {"Ann Lee", "Bo Chen"},
		"Ann Lee & Bo Chen":                  {"Ann Lee", "Bo Chen"},
		"Smith, John and Doe, Jane":          {"Smith, John", "Doe, Jane"},
		"Krzysztof Bolejko, Lars Andersson":  {"Krzysztof Bolejko", "Lars Andersson"},
		"A. B. Cee, and D. E. Eff":           {"A. B. Cee", "D. E. Eff"},
		"  ":                                 nil,
		"Kyle Lo ; ; Lucy Lu Wang":           {"Kyle Lo", "Lucy Lu Wang"},
		"Usama Ahmed, Faisal Bashir Hussain": {"Usama Ahmed", "Faisal Bashir Hussain"},
	}
	for in, want := range tests {
		if diff := cmp.Diff(want, SplitAuthors(in)); diff != "" {
			t.Errorf("SplitAuthors(%q) (-want +got):\n%s", in, diff)
		}
	}
}

func TestParseDate(t *testing.T) {
	tests := map[string]metadata.Date{
		"D:20230214123456+01'00'":   {Year: 2023, Month: 2, Day: 14},
		"D:20050330184919Z":         {Year: 2005, Month: 3, Day: 30},
		"D:2019":                    {Year: 2019},
		"D:201903":                  {Year: 2019, Month: 3},
		"20190310":                  {Year: 2019, Month: 3, Day: 10},
		"2023-02-17T19:58:53Z":      {Year: 2023, Month: 2, Day: 17},
		"2008-10-01T16:47:50+05:30": {Year: 2008, Month: 10, Day: 1},
		"2023-04":                   {Year: 2023, Month: 4},
		"D:20231399":                {Year: 2023},
	}
	for in, want := range tests {
		if got, ok := parseDate(in); !ok || got != want {
			t.Errorf("parseDate(%q) = %+v, %v; want %+v", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "D:", "D:12", "yesterday"} {
		if got, ok := parseDate(in); ok {
			t.Errorf("parseDate(%q) = %+v; want failure", in, got)
		}
	}
}

func TestParseXMPCorpus(t *testing.T) {
	tests := []struct {
		file string
		ok   bool
		want XMP
	}{
		{
			file: "pm_2302.07302v1.pdf", ok: true,
			want: XMP{
				Title:      "CiteSee: Augmenting Citations in Scientific Papers with Persistent and Personalized Historical Context",
				Creators:   []string{"Joseph Chee Chang", "Amy X. Zhang", "Jonathan Bragg", "Andrew Head", "Kyle Lo", "Doug Downey", "Daniel S. Weld"},
				Date:       "2023-02-17T19:58:53Z",
				CreateDate: "2023-02-17T19:58:53Z",
				DOI:        "10.1145/3544548.3580847",
			},
		},
		{
			file: "pm_2203.00130v1.pdf", ok: true,
			want: XMP{
				Title:      "Paper Plain: Making Medical Research Papers Approachable to Healthcare Consumers with Natural Language Processing",
				Creators:   []string{"Tal August", "Lucy Lu Wang", "Jonathan Bragg", "Marti A. Hearst", "Andrew Head", "Kyle Lo"},
				Date:       "2022-03-02T02:22:38Z",
				CreateDate: "2022-03-02T02:22:38Z",
			},
		},
		{
			// Element form, one rdf:li holding two comma-separated names,
			// trailing space in the title.
			file: "gr_0807.3577.pdf", ok: true,
			want: XMP{
				Title:      "Apparent and average accelerations of the Universe",
				Creators:   []string{"Krzysztof Bolejko, Lars Andersson"},
				CreateDate: "2008-10-01T16:47:50+05:30",
			},
		},
		{
			// Attribute form (xap:CreateDate='...') and several descriptions.
			file: "dp_case_01.pdf", ok: true,
			want: XMP{
				Title:      "MesozoicCenozoic evolution of North Atlantic continental-slope basins: The Peniche basin, western Iberian margin",
				Creators:   []string{"Tiago M. Alves, Carlos Moita, Frode Sandnes, Tiago Cunha, Jose H. Monteiro, Luis M. Pinheiro"},
				CreateDate: "2005-12-19T20:07:12Z",
			},
		},
		{
			// rdf:Bag creators, one with a leading space.
			file: "gr_test_Grobid_2_05982691.pdf", ok: true,
			want: XMP{
				Title:      "Energy Efficient Routing Protocol for Zone based Mobile Sensor Networks",
				Creators:   []string{"Usama Ahmed", "Faisal Bashir Hussain"},
				CreateDate: "2011-04-12T10:22:28+05:00",
			},
		},
		{
			file: "ol_failing_pdf_pg9.pdf", ok: true,
			want: XMP{Title: "untitled", CreateDate: "2013-08-07T17:20:19+05:30"},
		},
		{
			file: "ol_overrun_on_pg8.pdf", ok: true, // empty title and creator
			want: XMP{CreateDate: "2019-03-10T08:20:31+01:00"},
		},
		{
			file: "gr_ZFN-A-054-0304-0272.pdf", ok: true,
			want: XMP{CreateDate: "2009-08-27T21:02:29+02:00"},
		},
		{
			// The catalog names an old packet without x:xmpmeta; a packet of
			// another paper (Bolejko & Andersson) sits further on in the file
			// and must not be taken.
			file: "ol_repeating_references_on_pg9_pg10.pdf", ok: true,
			want: XMP{CreateDate: "2005-04-04T10:23:50+08:00"},
		},
		// The catalog has no /Metadata: the packets in these files belong to
		// embedded images ("Microsoft PowerPoint - Diagrams.pptx", Photoshop).
		{file: "dl_redp5110_sampled.pdf", ok: false},
		{file: "gr_test_Grobid_1_05452615.pdf", ok: false},
		// No packet at all.
		{file: "gr_sample1.pdf", ok: false},
		{file: "pm_2020.acl-main.447.pdf", ok: false},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			x, ok := ParseXMP(corpustest.PDF(t, tc.file))
			if ok != tc.ok {
				t.Fatalf("ParseXMP ok = %v (%v); want %v", ok, x, tc.ok)
			}
			if !ok {
				return
			}
			if diff := cmp.Diff(tc.want, *x); diff != "" {
				t.Errorf("XMP mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestXMPRecordAndMerge(t *testing.T) {
	// pm_2302.07302v1: Info has the title but no author; XMP has both and a DOI.
	x, ok := ParseXMP(corpustest.PDF(t, "pm_2302.07302v1.pdf"))
	if !ok {
		t.Fatal("no XMP")
	}
	info := FromInfo("CiteSee: Augmenting Citations in Scientific Papers with Persistent and Personalized Historical Context", "", "D:20230217195853Z")
	r := Merge(info, x)
	if len(r.Authors) != 7 || r.Authors[6] != (metadata.Name{Family: "Weld", Given: "Daniel S."}) {
		t.Errorf("authors = %+v", r.Authors)
	}
	if r.DOI != "10.1145/3544548.3580847" || r.Issued != (metadata.Date{Year: 2023, Month: 2, Day: 17}) {
		t.Errorf("DOI %q issued %+v", r.DOI, r.Issued)
	}
	// The title is in both and agrees; the authors and DOI are only XMP's.
	if diff := cmp.Diff([]string{metadata.SourcePDFInfo, metadata.SourcePDFXMP}, r.Sources); diff != "" {
		t.Errorf("sources (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{metadata.SourcePDFInfo, metadata.SourcePDFXMP}, r.FieldSources[metadata.FieldTitle]); diff != "" {
		t.Errorf("title sources (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{metadata.SourcePDFXMP}, r.FieldSources[metadata.FieldAuthors]); diff != "" {
		t.Errorf("author sources (-want +got):\n%s", diff)
	}
	if len(info.Authors) != 0 {
		t.Error("Merge modified its info argument")
	}

	// gr_0807.3577: one XMP creator item with two names is split.
	x, _ = ParseXMP(corpustest.PDF(t, "gr_0807.3577.pdf"))
	xr := x.Record()
	want := []metadata.Name{{Family: "Bolejko", Given: "Krzysztof"}, {Family: "Andersson", Given: "Lars"}}
	if diff := cmp.Diff(want, xr.Authors); diff != "" {
		t.Errorf("authors (-want +got):\n%s", diff)
	}

	// XMP "untitled" does not replace a good Info title, and the junk
	// warning about the Info title is dropped when XMP supplies one.
	x, _ = ParseXMP(corpustest.PDF(t, "ol_failing_pdf_pg9.pdf"))
	r = Merge(FromInfo("A Real Title", "", ""), x)
	if r.Title != "A Real Title" {
		t.Errorf("title = %q", r.Title)
	}
	r = Merge(FromInfo("p020-dutot.dvi", "", ""), &XMP{Title: "Good Title", PublicationDate: "2004-06"})
	if r.Title != "Good Title" || r.Issued != (metadata.Date{Year: 2004, Month: 6}) {
		t.Errorf("merged = %+v", r)
	}
	for _, w := range r.Warnings {
		if strings.Contains(w, "dutot") {
			t.Errorf("stale warning %q", w)
		}
	}

	// Nil arguments.
	if r := Merge(nil, nil); r == nil || r.Title != "" || r.Warnings == nil {
		t.Errorf("Merge(nil, nil) = %+v", r)
	}
}

func TestParseXMPSynthetic(t *testing.T) {
	pdf := []byte("%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Metadata 2 0 R >>\nendobj\n" +
		"2 0 obj\n<< /Type /Metadata /Subtype /XML >>\nstream\n" +
		`<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>` +
		`<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">` +
		`<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:prism="http://prismstandard.org/namespaces/basic/3.0/" prism:doi="10.1234/ABC.5" prism:publicationDate="2021-05-06">` +
		`<dc:title><rdf:Alt><rdf:li xml:lang="de">Titel</rdf:li><rdf:li xml:lang="x-default">Title &amp; More</rdf:li></rdf:Alt></dc:title>` +
		`<dc:creator><rdf:Seq><rdf:li>Ludwig van Beethoven</rdf:li><rdf:li>Plato</rdf:li></rdf:Seq></dc:creator>` +
		`</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>` +
		"\nendstream\nendobj\n")
	x, ok := ParseXMP(pdf)
	if !ok {
		t.Fatal("no XMP")
	}
	want := XMP{Title: "Title & More", Creators: []string{"Ludwig van Beethoven", "Plato"}, PublicationDate: "2021-05-06", DOI: "10.1234/ABC.5"}
	if diff := cmp.Diff(want, *x); diff != "" {
		t.Errorf("XMP (-want +got):\n%s", diff)
	}
	r := x.Record()
	if diff := cmp.Diff([]metadata.Name{{Family: "van Beethoven", Given: "Ludwig"}, {Literal: "Plato"}}, r.Authors); diff != "" {
		t.Errorf("authors (-want +got):\n%s", diff)
	}
	if r.Issued != (metadata.Date{Year: 2021, Month: 5, Day: 6}) || len(r.Warnings) != 0 {
		t.Errorf("issued %+v warnings %q", r.Issued, r.Warnings)
	}

	// Garbage never panics and finds nothing.
	for _, b := range [][]byte{nil, []byte("<x:xmpmeta"), []byte("<?xpacket begin <?xpacket end"), []byte("/Type/Catalog /Metadata 9 0 R")} {
		if x, ok := ParseXMP(b); ok {
			t.Errorf("ParseXMP(%q) = %v", b, x)
		}
	}
}
