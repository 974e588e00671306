package cite

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/citation"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/metadata"
)

func add(t *testing.T, lib *library.Library, key string, stamp int64, rec metadata.Record, edit func(*library.Paper)) {
	t.Helper()
	p, err := lib.NewPaper(key, stamp)
	if err != nil {
		t.Fatal(err)
	}
	p.CiteKey, p.Title, p.Metadata = key, rec.Title, rec
	if edit != nil {
		edit(p)
	}
	if err := lib.WriteSidecar(p); err != nil {
		t.Fatal(err)
	}
}

func testLibrary(t *testing.T) *library.Library {
	t.Helper()
	lib, err := library.Open(filepath.Join(t.TempDir(), "home"))
	if err != nil {
		t.Fatal(err)
	}
	preprint := metadata.Record{
		Type: "article", Title: "Attention Is All You Need", ArxivID: "1706.03762",
		Authors: []metadata.Name{{Family: "Vaswani", Given: "Ashish"}, {Family: "Shazeer", Given: "Noam"}},
		Issued:  metadata.Date{Year: 2017, Month: 6, Day: 12}, DOI: "10.48550/arXiv.1706.03762",
		Warnings: []string{"not cross-checked"},
	}
	published := metadata.Record{
		Type: "paper-conference", Title: "Attention is All you Need", ContainerTitle: "Advances in Neural Information Processing Systems",
		Authors: preprint.Authors, Issued: metadata.Date{Year: 2017}, Volume: "30",
	}
	add(t, lib, "vaswani2017attention", 1, preprint, func(p *library.Paper) {
		p.Published = &published
		p.Aliases = []string{"transformer"}
	})
	add(t, lib, "turing1950computing", 2, metadata.Record{
		Type: "article-journal", Title: "Computing Machinery and Intelligence", ContainerTitle: "Mind",
		Authors: []metadata.Name{{Family: "Turing", Given: "A. M."}}, Issued: metadata.Date{Year: 1950, Month: 10},
		Volume: "LIX", Issue: "236", Page: "433-460", DOI: "10.1093/mind/LIX.236.433",
	}, nil)
	add(t, lib, "scan2024", 3, metadata.Record{}, nil)
	return lib
}

func TestCite(t *testing.T) {
	lib := testLibrary(t)
	c := &Citer{Lib: lib}
	got, err := c.Cite("vaswani2017attention", citation.APA)
	if err != nil {
		t.Fatal(err)
	}
	want := "Vaswani, A., & Shazeer, N. (2017). Attention Is All You Need (arXiv:1706.03762). arXiv. https://doi.org/10.48550/arXiv.1706.03762"
	if got.Text != want || got.CitedVersion != metadata.VersionCaptured || len(got.Warnings) != 1 {
		t.Errorf("APA:\n got %q (%s)\nwant %q", got.Text, got.CitedVersion, want)
	}
	// An alias resolves, and a BibTeX entry takes the key as cited.
	got, err = c.Cite("transformer", citation.BibTeX)
	if err != nil {
		t.Fatal(err)
	}
	if got.CiteKey != "vaswani2017attention" || !strings.HasPrefix(got.Text, "@misc{transformer,") {
		t.Errorf("alias: %q %q", got.CiteKey, got.Text)
	}
	// The published version when asked for.
	c.Version = metadata.VersionPublished
	got, err = c.Cite("vaswani2017attention", citation.APA)
	if err != nil {
		t.Fatal(err)
	}
	if got.CitedVersion != metadata.VersionPublished || !strings.Contains(got.Text, "Advances in Neural Information Processing Systems, 30") {
		t.Errorf("published: %s %q", got.CitedVersion, got.Text)
	}
	// The Chicago edition switch.
	c.Version = metadata.VersionCaptured
	ch18, _ := c.Cite("turing1950computing", citation.Chicago)
	c.ChicagoEdition = 17
	ch17, _ := c.Cite("turing1950computing", citation.Chicago)
	if !strings.Contains(ch18.Text, "(1950)") || !strings.Contains(ch17.Text, "(October 1950)") {
		t.Errorf("Chicago 18: %q\nChicago 17: %q", ch18.Text, ch17.Text)
	}
	if ch17.Style != citation.Chicago {
		t.Errorf("style reported as %s, want the style asked for", ch17.Style)
	}
}

// hasHint reports whether err says to do k.
func hasHint(err error, k hint.Kind) bool {
	a, ok := hint.Of(err)
	return ok && a.Kind == k
}

func TestCiteErrors(t *testing.T) {
	c := &Citer{Lib: testLibrary(t)}
	_, err := c.Cite("vaswani2017atention", citation.APA)
	var nf *NotFoundError
	if !errors.As(err, &nf) || len(nf.Suggestions) == 0 || nf.Suggestions[0].CiteKey != "vaswani2017attention" {
		t.Fatalf("typo: %v", err)
	}
	if err.Error() != "cite_key 'vaswani2017atention' not found" {
		t.Errorf("message: %q", err)
	}
	if _, ok := hint.Of(err); ok {
		t.Errorf("a key with suggestions has a hint: %v", err)
	}
	// An alias typo suggests the paper too.
	if _, err := c.Cite("transformr", citation.APA); !errors.As(err, &nf) || nf.Suggestions[0].CiteKey != "vaswani2017attention" {
		t.Errorf("alias typo: %v", err)
	}
	if _, err := c.Cite("zzzz", citation.APA); !errors.As(err, &nf) || len(nf.Suggestions) != 0 || !hasHint(err, hint.CaptureOrImport) {
		t.Errorf("no suggestion: %v", err)
	}
	if _, err := c.Cite("scan2024", citation.APA); !errors.Is(err, ErrNothingToCite) || !hasHint(err, hint.DescribeByImport) {
		t.Errorf("thin record: %v", err)
	}
}

// TestCiteUnreadableSidecar: a sidecar that is not JSON is reported with
// its path, not as an unknown key with suggestions.
func TestCiteUnreadableSidecar(t *testing.T) {
	lib := testLibrary(t)
	p, err := lib.Find("turing1950computing")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p.SidecarPath, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = (&Citer{Lib: lib}).Cite(" turing1950computing ", citation.APA)
	var nf *NotFoundError
	if err == nil || errors.As(err, &nf) || !strings.Contains(err.Error(), p.SidecarPath) || !hasHint(err, hint.RepairSidecar) {
		t.Errorf("unreadable sidecar: %v", err)
	}
}

func TestBibliography(t *testing.T) {
	c := &Citer{Lib: testLibrary(t)}
	b, err := c.Bibliography([]string{"turing1950computing", "transformer", "nosuch", "scan2024", "turing1950computing", "vaswani2017attention"}, citation.BibTeX)
	if err != nil {
		t.Fatal(err)
	}
	text := b.Text
	if strings.Count(text, "\n@") != 1 || !strings.HasPrefix(text, "@article{turing1950computing,") || !strings.Contains(text, "\n\n@misc{transformer,") || !strings.HasSuffix(text, "}\n") {
		t.Errorf("bibliography:\n%s", text)
	}
	// Every problem, in the order asked: an unknown key, a paper without
	// metadata, a second key of one work.
	var got []string
	for _, p := range b.Problems {
		got = append(got, p.Key+":"+p.Kind+":"+p.Entry)
	}
	if want := "nosuch:unknown: scan2024:no-metadata: vaswani2017attention:same-work:transformer"; strings.Join(got, " ") != want {
		t.Errorf("problems = %v, want %s", got, want)
	}
	if !b.Failed() || len(b.Entries) != 2 || !hasHint(b.Problems[1].Err, hint.DescribeByImport) {
		t.Errorf("failed %v, entries %+v, no-metadata error %v", b.Failed(), b.Entries, b.Problems[1].Err)
	}
	// BibLaTeX: the other key of the work is in the entry's ids, which
	// resolves it.
	b, err = c.Bibliography([]string{"transformer", "vaswani2017attention"}, citation.BibLaTeX)
	if err != nil || b.Failed() || !strings.Contains(b.Text, "@online{transformer,\n  ids = {vaswani2017attention},\n") && !strings.Contains(b.Text, "{transformer,\n  ids = {vaswani2017attention},\n") {
		t.Errorf("biblatex with two keys of one work (%v, failed %v):\n%s", err, b.Failed(), b.Text)
	}
	b, err = c.Bibliography([]string{"turing1950computing", "transformer"}, citation.CSLJSON)
	if err != nil {
		t.Fatal(err)
	}
	var items []map[string]any
	if err := json.Unmarshal([]byte(b.Text), &items); err != nil || len(items) != 2 || items[1]["id"] != "transformer" {
		t.Errorf("CSL-JSON bibliography %v:\n%s", err, b.Text)
	}
	if b, _ := c.Bibliography(nil, citation.CSLJSON); b.Text != "[]\n" {
		t.Errorf("empty CSL-JSON = %q", b.Text)
	}
	// A reference list: APA alphabetical, IEEE numbered in citation order.
	b, _ = c.Bibliography([]string{"vaswani2017attention", "turing1950computing"}, citation.APA)
	if !strings.HasPrefix(b.Text, "Turing, A. M. (1950).") || !strings.Contains(b.Text, "\n\nVaswani, A., & Shazeer, N. (2017).") {
		t.Errorf("APA reference list:\n%s", b.Text)
	}
	b, _ = c.Bibliography([]string{"vaswani2017attention", "turing1950computing"}, citation.IEEE)
	if !strings.HasPrefix(b.Text, "[1] A. Vaswani and N. Shazeer,") || !strings.Contains(b.Text, "\n\n[2] A. M. Turing,") {
		t.Errorf("IEEE reference list:\n%s", b.Text)
	}
}

// TestSuggest is the seed's fuzzy score over the library's keys and
// titles.
func TestSuggest(t *testing.T) {
	lib, err := library.Open(filepath.Join(t.TempDir(), "home"))
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range []struct{ key, title string }{
		{"vaswani2017attention", "Attention Is All You Need"},
		{"devlin2019bert", "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding"},
		{"lecun2015deep", "Deep Learning"},
		{"bahdanau2015neural", "Neural Machine Translation by Jointly Learning to Align and Translate"},
	} {
		add(t, lib, p.key, int64(i+1), metadata.Record{Title: p.title}, nil)
	}
	papers, _ := lib.Papers()
	for _, tc := range []struct {
		q    string
		n    int
		want []string
	}{
		// Key substring (+10) and key token (+3) beat everything else.
		{"vaswani", 5, []string{"vaswani2017attention"}},
		// A typo in the cite key still finds it (+8).
		{"vaswani2017atention", 5, []string{"vaswani2017attention"}},
		{"devlin2019bret", 5, []string{"devlin2019bert"}},
		// Full title substring (+5) plus title tokens (+2 each) plus the
		// key token "deep" (+3): lecun 12; bahdanau ("Jointly Learning")
		// and devlin ("Deep Bidirectional") 2 each, tie broken by key.
		{"deep learning", 5, []string{"lecun2015deep", "bahdanau2015neural", "devlin2019bert"}},
		// Title tokens, case-insensitive; ties broken by cite key.
		{"TRANSLATE", 5, []string{"bahdanau2015neural"}},
		{"learning", 5, []string{"bahdanau2015neural", "lecun2015deep"}},
		// Shared year token in two keys, tie broken by key.
		{"2015", 5, []string{"bahdanau2015neural", "lecun2015deep"}},
		{"2015", 1, []string{"bahdanau2015neural"}},
		{"quantum chromodynamics", 5, []string{}},
		{"", 5, []string{}},
		{"   ", 5, []string{}},
	} {
		got := []string{}
		for _, s := range suggest(tc.q, papers, tc.n) {
			got = append(got, s.CiteKey)
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("suggest(%q, %d) = %v, want %v", tc.q, tc.n, got, tc.want)
		}
	}
}

func TestSuggestAtMostFive(t *testing.T) {
	lib, err := library.Open(filepath.Join(t.TempDir(), "home"))
	if err != nil {
		t.Fatal(err)
	}
	for i, k := range []string{"smith2020a", "smith2020b", "smith2020c", "smith2020d", "smith2020e", "smith2020f", "smith2020g"} {
		add(t, lib, k, int64(i+1), metadata.Record{Title: "Transport in " + k}, nil)
	}
	_, err = (&Citer{Lib: lib}).Cite("smith2020", citation.APA)
	var nf *NotFoundError
	if !errors.As(err, &nf) || len(nf.Suggestions) != 5 || nf.Suggestions[4].CiteKey != "smith2020e" {
		t.Errorf("suggestions: %v", err)
	}
}
