package note

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossmem/crossmem/internal/chunk"
)

var update = flag.Bool("update", false, "rewrite golden files")

func sample() *Note {
	text1 := "3.2 Scaled Dot-Product Attention"
	text2 := "We call our particular attention \"Scaled Dot-Product Attention\".\nThe input consists of queries and keys of dimension dk, and values\nof dimension dv: # not a heading, > not a quote, ``` not a fence"
	return &Note{
		Front: Frontmatter{
			CiteKey:    "vaswani2017attention",
			Title:      "Attention Is All You Need: \"quotes\" & colons",
			Authors:    []string{"Ashish Vaswani", "Noam Shazeer"},
			Year:       2017,
			ArxivID:    "1706.03762",
			DOI:        "10.48550/arXiv.1706.03762",
			CapturedAt: "1776227254",
			Raw:        "raw/1776227254_vaswani2017attention.pdf",
			PDFSHA256:  strings.Repeat("ab", 32),
			Parser:     Parser,
			Chunks:     7,
			Pages:      15,
			UnquotablePages: []Unquotable{
				{Page: 3, Reason: chunk.ReasonNoTextLayer},
				{Page: 5, Reason: chunk.ReasonSymbolFont, BBox: &[4]float64{72, 300.5, 540, 340}},
			},
			Meta:       Meta{Sources: []string{"arxiv"}, Reconciled: false, Warnings: []string{"only one source: arxiv"}},
			WikiFormat: FormatVersion,
		},
		Citations: []Citation{
			{Style: "APA", Text: "Vaswani, A., & Shazeer, N. (2017). Attention is all you need. arXiv. https://doi.org/10.48550/arXiv.1706.03762"},
			{Style: "BibTeX", Text: "@misc{vaswani2017attention,\n  title = {Attention Is All You Need},\n  year = {2017}\n}"},
		},
		Chunks: []chunk.Chunk{
			{ID: "p4s32c1", Type: chunk.TypeHeading, Text: text1, Page: 4, PageLabel: "46", Section: text1,
				SectionPath: []string{"3 Model Architecture", text1},
				BBox:        [4]float64{72, 700.5, 300.25, 712}, TextSHA256: chunk.Hash(text1), ByteRange: [2]int{0, len(text1)}},
			{ID: "p4s32c2", Type: chunk.TypeParagraph, Text: text2, Page: 4, PageLabel: "46", Section: text1,
				SectionPath: []string{"3 Model Architecture", text1}, Continues: "p3s31c7",
				BBox: [4]float64{72, 340.5, 523.8, 412.1}, TextSHA256: chunk.Hash(text2),
				ByteRange:  [2]int{len(text1) + 2, len(text1) + 2 + len(text2)},
				Paraphrase: "The authors name their mechanism.\nSecond line.", Implication: "It became standard."},
			{ID: "p5s32c1", Type: chunk.TypeFigure, Text: figText, Page: 5, Section: text1, Label: "Figure 2",
				BBox: [4]float64{72, 400, 540, 700}, CaptionBBox: &[4]float64{72, 380, 540, 392}, TextSHA256: chunk.Hash(figText),
				ByteRange: [2]int{0, len(figText)}, Image: "raw/figs/vaswani2017attention_fig1.png", ImageSHA256: strings.Repeat("cd", 32)},
			{ID: "p5s32c2", Type: chunk.TypeFigure, Text: "", Page: 5, Section: text1,
				BBox: [4]float64{72, 100, 300, 200}, TextSHA256: chunk.Hash(""),
				ByteRange: [2]int{len(figText) + 2, len(figText) + 2}, Image: "raw/figs/vaswani2017attention_fig2.png", ImageSHA256: strings.Repeat("ef", 32)},
			{ID: "p5s32c3", Type: chunk.TypeCaption, Text: capText, Page: 5, Section: text1, Label: "Table 1", CaptionOf: "table", Float: "p5s32c4",
				BBox: [4]float64{72, 90, 540, 98}, TextSHA256: chunk.Hash(capText), ByteRange: [2]int{len(figText) + 4, len(figText) + 4 + len(capText)}},
			{ID: "p5s32c4", Type: chunk.TypeTable, Text: tabText, Page: 5, Section: text1, Caption: "p5s32c3",
				BBox: [4]float64{72, 20, 540, 88}, TextSHA256: chunk.Hash(tabText), ByteRange: [2]int{len(figText) + 6 + len(capText), len(figText) + 6 + len(capText) + len(tabText)}},
			{ID: "p5s32c5", Type: chunk.TypeEquation, Text: "E = mc2", Page: 5, Section: text1, Label: "(3)",
				BBox: [4]float64{72, 10, 540, 18}, TextSHA256: chunk.Hash("E = mc2"), ByteRange: [2]int{0, 7}, AltText: "E equals m c squared"},
		},
	}
}

const (
	figText = "Figure 2: Scaled Dot-Product Attention."
	capText = "Table 1: Maximum path lengths."
	tabText = "Layer Type\tComplexity | per layer\nSelf-Attention\tO(n^2 · d)\n\t\\"
)

func TestFormatGolden(t *testing.T) {
	got, err := Format(sample())
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "sample.md")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("Format output changed (-want +got):\n%s", diff)
	}
}

// TestParseVersion1 reads a note written in wiki_format 1 (no page_label,
// section_path or continues): its chunks must come back with everything
// version 1 recorded, so old notes still verify.
func TestParseVersion1(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "v1.md"))
	if err != nil {
		t.Fatal(err)
	}
	n, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	want := sample().Chunks[:2] // v1.md holds the first two
	for i := range want {
		want[i].PageLabel, want[i].SectionPath, want[i].Continues = "", nil, ""
		want[i].Paraphrase = strings.Join(strings.Fields(want[i].Paraphrase), " ")
	}
	if n.Front.WikiFormat != 1 {
		t.Errorf("wiki_format = %d, want 1", n.Front.WikiFormat)
	}
	if diff := cmp.Diff(want, n.Chunks); diff != "" {
		t.Errorf("version 1 chunks (-want +got):\n%s", diff)
	}
}

func TestRoundTrip(t *testing.T) {
	n := sample()
	data, err := Format(n)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	// Paraphrases are stored on one line.
	n.Chunks[1].Paraphrase = "The authors name their mechanism. Second line."
	if diff := cmp.Diff(n, back); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	again, err := Format(back)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, again) {
		t.Error("Format(Parse(Format(n))) differs from Format(n)")
	}
	if s, ok := back.Citation("bibtex"); !ok || !strings.HasPrefix(s, "@misc{vaswani2017attention,") {
		t.Errorf("Citation(bibtex) = %q, %v", s, ok)
	}
	if _, ok := back.Citation("mla"); ok {
		t.Error("Citation(mla) found in a note without an MLA section")
	}
}

// The model that wrote a note's paraphrases survives the round trip, in
// the frontmatter.
func TestAdvisoryRoundTrip(t *testing.T) {
	n := sample()
	n.Front.Advisory = &Advisory{Server: "ollama", Model: "llama3.2:3b", ModelDigest: "a80c4f17", PromptVersion: 1}
	data, err := Format(n)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte("advisory:\n  server: \"ollama\"\n  model: \"llama3.2:3b\"\n  model_digest: \"a80c4f17\"\n  prompt_version: 1\nwiki_format:")) {
		t.Errorf("frontmatter:\n%s", data)
	}
	back, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if back.Front.Advisory == nil || *back.Front.Advisory != *n.Front.Advisory {
		t.Errorf("advisory after the round trip: %+v", back.Front.Advisory)
	}
}

func TestParseErrors(t *testing.T) {
	good, err := Format(sample())
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, data string
		line       int
		is         error
	}{
		{"not a note", "# Just markdown\n\ntext\n", 1, ErrNoFrontmatter},
		{"unclosed frontmatter", "---\ncite_key: x\n", 1, nil},
		{"no cite key", "---\ntitle: x\n---\n", 2, nil},
		{"bad bbox", strings.Replace(string(good), "bbox: [72.00, 340.50, 523.80, 412.10]", "bbox: [72.00, 340.50]", 1), 0, nil},
		{"missing hash", strings.Replace(string(good), "  text_sha256: \""+chunk.Hash("3.2 Scaled Dot-Product Attention")+"\"\n", "", 1), 0, nil},
		{"stray line", strings.Replace(string(good), "**Implication:**", "stray\n**Implication:**", 1), 0, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.data))
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Parse error = %v, want *ParseError", err)
			}
			if tc.line > 0 && pe.Line != tc.line {
				t.Errorf("line = %d, want %d (%v)", pe.Line, tc.line, err)
			}
			if pe.Line == 0 {
				t.Errorf("error has no line number: %v", err)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v is not %v", err, tc.is)
			}
		})
	}
}

// FuzzRoundTrip checks that any chunk text and section the layout could
// produce (no empty lines, no leading/trailing spaces per line) survives
// Format and Parse unchanged, and that Parse never panics on mutations.
func FuzzRoundTrip(f *testing.F) {
	f.Add("plain text", "Intro", "The authors")
	f.Add("a\nb\n> c\n```\n<!-- chunk id=x -->", "\"quoted\"\n", "**Paraphrase:** x")
	f.Add("---\n# x", "3.2 Scaled: Dot", "")
	f.Fuzz(func(t *testing.T, text, section, para string) {
		var lines []string
		for _, l := range strings.Split(text, "\n") {
			l = strings.Join(strings.Fields(l), " ")
			if l != "" {
				lines = append(lines, l)
			}
		}
		if len(lines) == 0 {
			return
		}
		text = strings.Join(lines, "\n")
		n := sample()
		n.Chunks = n.Chunks[:1]
		n.Chunks[0].Text = text
		n.Chunks[0].Section = section
		n.Chunks[0].TextSHA256 = chunk.Hash(text)
		n.Chunks[0].Paraphrase = oneLine(para)
		data, err := Format(n)
		if err != nil {
			return // e.g. invalid UTF-8 in a YAML value
		}
		back, err := Parse(data)
		if err != nil {
			t.Fatalf("Parse(Format(n)): %v\n%s", err, data)
		}
		if len(back.Chunks) != 1 || back.Chunks[0].Text != text {
			t.Fatalf("text changed: %q -> %+v", text, back.Chunks)
		}
		if back.Chunks[0].Section != section && strings.ToValidUTF8(section, "") == section {
			t.Fatalf("section changed: %q -> %q", section, back.Chunks[0].Section)
		}
		// Parse must not panic on arbitrary edits.
		_, _ = Parse(append(data[:len(data)/2:len(data)/2], []byte(para)...))
	})
}

// The fast provenance reader and the YAML decoder agree on every block
// Format writes.
func TestFastProvenanceMatchesYAMLFloats(t *testing.T) {
	n := sample()
	data, err := Format(n)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	k := 0
	for i, l := range lines {
		if l != "```yaml" {
			continue
		}
		var body []string
		for _, b := range lines[i+1:] {
			if b == "```" {
				break
			}
			body = append(body, b)
		}
		var fast chunk.Chunk
		if !fastProvenance(body, &fast) {
			t.Errorf("chunk %d: fast path not taken", k)
		}
		want := n.Chunks[k]
		if fast.Label != want.Label || fast.CaptionOf != want.CaptionOf || fast.Float != want.Float || fast.Caption != want.Caption ||
			fast.Image != want.Image || fast.ImageSHA256 != want.ImageSHA256 || !cmp.Equal(fast.CaptionBBox, want.CaptionBBox) {
			t.Errorf("chunk %d: fast %+v, want %+v", k, fast, want)
		}
		k++
	}
	// The same fields through the YAML decoder (a provenance block in
	// another order).
	yamlNote := strings.Replace(string(data), "  label: \"Figure 2\"\n", "", 1)
	yamlNote = strings.Replace(yamlNote, "  page: 5\n  section", "  label: \"Figure 2\"\n  page: 5\n  section", 1)
	back, err := Parse([]byte(yamlNote))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(n.Chunks[2:], back.Chunks[2:]); diff != "" {
		t.Errorf("YAML path (-want +got):\n%s", diff)
	}
}

func TestFastProvenanceMatchesYAML(t *testing.T) {
	for _, section := range []string{"", "3.2 Scaled Dot-Product Attention", "Müller: a # b 'c' {d} [e] & *f", "  spaced  ", "tab\there", `quote " inside`, `back\slash`, "ünïcødé — ☃"} {
		c := chunk.Chunk{ID: "p1s0c1", Type: "paragraph", Text: "x", Page: 12, Section: section,
			BBox: [4]float64{1.5, -2, 300.25, 4e3}, TextSHA256: chunk.Hash("x"), ByteRange: [2]int{7, 8}}
		n := &Note{Front: Frontmatter{CiteKey: "k", Title: "T", CapturedAt: "1", Raw: "raw/1_k.pdf", Parser: Parser, Chunks: 1, Pages: 1, WikiFormat: FormatVersion}, Chunks: []chunk.Chunk{c}}
		data, err := Format(n)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		var body []string
		for i, l := range lines {
			if l == "```yaml" {
				for _, b := range lines[i+1:] {
					if b == "```" {
						break
					}
					body = append(body, b)
				}
			}
		}
		var fast chunk.Chunk
		ok := fastProvenance(body, &fast)
		back, err := Parse(data)
		if err != nil {
			t.Fatalf("section %q: %v", section, err)
		}
		got := back.Chunks[0]
		if got.Section != section || got.BBox != c.BBox || got.ByteRange != c.ByteRange || got.Page != 12 {
			t.Errorf("section %q: parsed %+v", section, got)
		}
		if ok && (fast.Section != got.Section || fast.BBox != got.BBox || fast.ByteRange != got.ByteRange || fast.TextSHA256 != got.TextSHA256 || fast.Page != got.Page) {
			t.Errorf("section %q: fast %+v, yaml %+v", section, fast, got)
		}
		if !ok && !strings.ContainsAny(section, "\"\\\t") {
			t.Errorf("section %q: fast path not taken", section)
		}
	}
}

// An equation's alt_text with backslashes and quotes (LaTeX source) is
// written escaped and read back as it was.
func TestAltTextRoundTrip(t *testing.T) {
	n := sample()
	alt := `E = m c^{2} \quad "rest energy"`
	n.Chunks[len(n.Chunks)-1].AltText = alt
	data, err := Format(n)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Chunks[len(back.Chunks)-1].AltText; got != alt {
		t.Errorf("alt_text read back as %q, want %q", got, alt)
	}
}
