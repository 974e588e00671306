package csl

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/metadata"
)

func TestDecodeGroundTruth(t *testing.T) {
	items, err := Decode(corpustest.File(t, "api", "GROUNDTRUTH.csl.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(items) < 30 {
		t.Fatalf("%d items, want the 36 ground-truth works", len(items))
	}
	byID := map[string]Item{}
	for _, it := range items {
		byID[it.ID] = it
	}
	v := byID["vaswani2017attention"].Record()
	if v.ArxivID != "1706.03762" || v.DOIPreprint != "10.48550/arXiv.1706.03762" || v.Issued.Year != 2017 || len(v.Authors) != 8 {
		t.Errorf("vaswani: %+v", v)
	}
	s := byID["smith2018twenty"].Record()
	if got := s.Authors[0]; got.Family != "Smith" || got.Given != "Amos B., III" {
		t.Errorf("smith: suffix not kept after a comma in the given name: %+v", got)
	}
	if NameOf(s.Authors[0]).Suffix != "III" {
		t.Errorf("smith: NameOf lost the suffix")
	}
	// Every item survives Record → FromRecord on the fields both carry.
	for _, it := range items {
		back := FromRecord(it.Record(), it.ID)
		if back.Title != strings.Join(strings.Fields(it.Title), " ") {
			t.Errorf("%s: title %q → %q", it.ID, it.Title, back.Title)
		}
		if back.Issued.Start() != it.Issued.Start() {
			t.Errorf("%s: issued %v → %v", it.ID, it.Issued.Start(), back.Issued.Start())
		}
		if len(back.Author) != len(it.Author) {
			t.Errorf("%s: %d authors → %d", it.ID, len(it.Author), len(back.Author))
		}
		if !strings.EqualFold(back.DOI, it.DOI) {
			t.Errorf("%s: DOI %q → %q", it.ID, it.DOI, back.DOI)
		}
	}
}

func TestNameParts(t *testing.T) {
	cases := []struct {
		in   metadata.Name
		want Name
	}{
		{metadata.Name{Family: "dos Santos", Given: "Valérie"}, Name{Family: "Santos", Given: "Valérie", NonDroppingParticle: "dos"}},
		{metadata.Name{Family: "van der Putten", Given: "Peter"}, Name{Family: "Putten", Given: "Peter", NonDroppingParticle: "van der"}},
		{metadata.Name{Family: "Del Maestro", Given: "Adrian"}, Name{Family: "Del Maestro", Given: "Adrian"}},
		{metadata.Name{Family: "Smith", Given: "Amos B., III"}, Name{Family: "Smith", Given: "Amos B.", Suffix: "III"}},
		{metadata.Name{Family: "King, Jr.", Given: "Martin Luther"}, Name{Family: "King", Given: "Martin Luther", Suffix: "Jr."}},
		{metadata.Name{Literal: "  World  Health Organization "}, Name{Literal: "World Health Organization"}},
		{metadata.Name{Given: "Sheherazade"}, Name{Family: "Sheherazade"}},
	}
	for _, c := range cases {
		got := NameOf(c.in)
		if got != c.want {
			t.Errorf("NameOf(%+v) = %+v, want %+v", c.in, got, c.want)
		}
		if again := NameOf(got.MetadataName()); again != got {
			t.Errorf("NameOf(MetadataName(%+v)) = %+v", got, again)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	cases := map[string]string{
		"":                                  "empty",
		"@article{x,}":                      "array of items",
		"[{\"id\": \"a\",}]":                "line 1",
		"[\n{\"id\": \"a\"},\n{\"id\": 3}]": "item 2 (line 3)",
		"[{\"id\": \"a\", \"volume\": {}}]": "string or a number",
	}
	for in, want := range cases {
		_, err := Decode([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Decode(%q) = %v, want an error containing %q", in, err, want)
		}
	}
}

func TestDecodeLines(t *testing.T) {
	in := "[\n  {\"id\": \"a\"},\n\n  {\"id\": \"b\",\n   \"title\": \"T\"}\n]"
	items, lines, err := DecodeLines([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 || lines[0] != 2 || lines[1] != 4 {
		t.Errorf("items %v lines %v, want lines [2 4]", items, lines)
	}
	if _, _, err := DecodeLines([]byte("[1]")); err == nil || !strings.Contains(err.Error(), "want an object") {
		t.Errorf("array of numbers: %v", err)
	}
}

func TestNumbersAndDates(t *testing.T) {
	items, err := Decode([]byte(`[{"id":"k","type":"book","volume":12,"page":"1-3","edition":2,
		"issued":{"raw":"1999-07"},"number":"arXiv:2101.00001v3","editor":[{"family":"Doe","given":"J."}]}]`))
	if err != nil {
		t.Fatal(err)
	}
	rec := items[0].Record()
	if rec.Volume != "12" || rec.Edition != "2" || rec.Issued != (metadata.Date{Year: 1999, Month: 7}) {
		t.Errorf("record %+v", rec)
	}
	if rec.ArxivID != "2101.00001" || rec.ArxivVersion != 3 {
		t.Errorf("arXiv id %q v%d", rec.ArxivID, rec.ArxivVersion)
	}
	if len(rec.Editors) != 1 || rec.Editors[0].Family != "Doe" {
		t.Errorf("editors %+v", rec.Editors)
	}
	out, err := json.Marshal(FromRecord(rec, "k"))
	if err != nil {
		t.Fatal(err)
	}
	var back []Item
	if back, err = Decode(out); err != nil {
		t.Fatal(err)
	}
	if got := back[0].Record(); !reflect.DeepEqual(got.Editors, rec.Editors) || got.Issued != rec.Issued || got.ArxivID != rec.ArxivID {
		t.Errorf("round trip: %+v", got)
	}
	if d := (&Date{DateParts: [][]Number{{"2020", "13", "40"}}}).Start(); d != (metadata.Date{Year: 2020}) {
		t.Errorf("out-of-range month kept: %+v", d)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`[{"id":"a","type":"article-journal","title":"T","author":[{"family":"F","given":"G"}],"issued":{"date-parts":[[2020,1,2]]}}]`))
	f.Add([]byte(`{"id":"b","issued":{"raw":"2019"},"volume":3}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		items, err := Decode(data)
		if err != nil {
			return
		}
		for _, it := range items {
			rec := it.Record()
			_ = FromRecord(rec, it.ID)
			if d := rec.Issued; d.Month > 12 || d.Day > 31 || d.Month < 0 || d.Day < 0 {
				t.Fatalf("date out of range: %+v", d)
			}
		}
	})
}

func TestArxivPrimaryCategory(t *testing.T) {
	rec := &metadata.Record{Type: "article", Title: "T", ArxivID: "1706.03762", ArxivPrimaryCategory: "cs.CL"}
	it := FromRecord(rec, "k")
	if it.Note != "arXiv:1706.03762 [cs.CL]" || it.Number != "arXiv:1706.03762" || it.Publisher != "arXiv" {
		t.Errorf("item %+v", it)
	}
	back := it.Record()
	if back.ArxivPrimaryCategory != "cs.CL" || back.Note != "" || back.ArxivID != "1706.03762" {
		t.Errorf("record %+v", back)
	}
	rec.JournalRef = "NeurIPS 2017"
	if it := FromRecord(rec, "k"); it.Note != "Journal reference: NeurIPS 2017" {
		t.Errorf("journal reference note %q", it.Note)
	}
}

func TestBareDOI(t *testing.T) {
	for in, want := range map[string]string{
		" 10.1093/mind/LIX.236.433 ":               "10.1093/mind/LIX.236.433",
		"https://doi.org/10.1093/mind/LIX.236.433": "10.1093/mind/LIX.236.433",
		"HTTP://DX.DOI.ORG/10.1000/abc":            "10.1000/abc",
		"https://www.doi.org/10.1000/a%3Cb%3E":     "10.1000/a<b>",
		"doi: 10.1000/abc.":                        "10.1000/abc",
		"doi.org/10.1000/abc":                      "10.1000/abc",
		"doi:not a doi":                            "not a doi",
		"":                                         "",
	} {
		if got := BareDOI(in); got != want {
			t.Errorf("BareDOI(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRecordArxivVersion(t *testing.T) {
	for number, want := range map[string]struct {
		id string
		v  int
	}{
		"arXiv:1706.03762v5":      {"1706.03762", 5},
		"arXiv:1706.03762":        {"1706.03762", 0},
		"arXiv:hep-th/9901001v2":  {"hep-th/9901001", 2},
		"arXiv:math.GT/0309136v1": {"math/0309136", 1},
	} {
		rec := Item{ID: "k", Type: "article", Number: Number(number)}.Record()
		if rec.ArxivID != want.id || rec.ArxivVersion != want.v {
			t.Errorf("number %q: arXiv id %q v%d, want %q v%d", number, rec.ArxivID, rec.ArxivVersion, want.id, want.v)
		}
	}
	rec := Item{ID: "k", Type: "article", DOI: "https://doi.org/10.48550/arXiv.2101.00001"}.Record()
	if rec.ArxivID != "2101.00001" || rec.DOIPreprint != "10.48550/arXiv.2101.00001" {
		t.Errorf("arXiv DOI: id %q, preprint DOI %q", rec.ArxivID, rec.DOIPreprint)
	}
}
