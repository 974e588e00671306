package citation

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossmem/crossmem/internal/csl"
	"github.com/crossmem/crossmem/internal/latex"
)

func TestLaTeXEscape(t *testing.T) {
	tests := []struct{ in, keep, latex string }{
		{"plain", "plain", "plain"},
		{`R&D 50% $5 #1 a_b {x} ~ ^ \`, `R\&D 50\% \$5 \#1 a\_b \textbraceleft{}x\textbraceright{} \textasciitilde{} \textasciicircum{} \textbackslash{}`, `R\&D 50\% \$5 \#1 a\_b \textbraceleft{}x\textbraceright{} \textasciitilde{} \textasciicircum{} \textbackslash{}`},
		{"Müller", "Müller", `M{\"u}ller`},
		{"Straße", "Straße", `Stra{\ss}e`},
		{"café naïve", "café naïve", `caf{\'e} na{\"\i}ve`},
		{"Kupče Łódź", "Kupče Łódź", `Kup{\v{c}}e {\L}{\'o}d{\'z}`},
		{"François Ærø", "François Ærø", `Fran{\c{c}}ois {\AE}r{\o}`},
		{"Ēriks Ångström", "Ēriks Ångström", `{\=E}riks {\AA}ngstr{\"o}m`},
		{"Nguyễn", "Nguyễn", `Nguy{\~{\^{e}}}n`},
		{"δ Scorpii", "δ Scorpii", `{$\delta$} Scorpii`},
		{"a–b — “q” ‘s’ …", "a–b — “q” ‘s’ …", "a--b --- ``q'' `s' {\\ldots}"},
		{"宮地", "宮地", "宮地"},
	}
	for _, tc := range tests {
		if got := texEscape(tc.in, Options{}); got != tc.keep {
			t.Errorf("texEscape(%q) = %q, want %q", tc.in, got, tc.keep)
		}
		if got := texEscape(tc.in, Options{Unicode: UnicodeLaTeX}); got != tc.latex {
			t.Errorf("texEscape(%q, LaTeX) = %q, want %q", tc.in, got, tc.latex)
		}
	}
}

// TestLaTeXEscapeReadsBack checks that every letter and symbol texEscape
// writes as LaTeX reads back as the same character with latex.Decode, the
// decoder bibtex import uses.
func TestLaTeXEscapeReadsBack(t *testing.T) {
	var runes []rune
	for r := range latexLetters {
		runes = append(runes, r)
	}
	for r := range greek {
		runes = append(runes, r)
	}
	runes = append(runes, []rune("üéèêñçšőąåǘḗíǰÅŻ")...)
	for _, r := range runes {
		if r == '’' {
			continue // written as ', which LaTeX prints as ’ and latex.Decode keeps as '
		}
		in := "a" + string(r) + "b"
		tex := texEscape(in, Options{Unicode: UnicodeLaTeX})
		if tex == in {
			t.Errorf("texEscape(%q, LaTeX) wrote no LaTeX", in)
		}
		if got := latex.Decode(tex); got != in {
			t.Errorf("latex.Decode(texEscape(%q, LaTeX) = %q) = %q", in, tex, got)
		}
	}
	const specials = `R&D 50% $5 #1 a_b {x} ~ ^ \`
	for _, u := range []Unicode{UnicodeKeep, UnicodeLaTeX} {
		if got := latex.Decode(texEscape(specials, Options{Unicode: u})); got != specials {
			t.Errorf("latex.Decode(texEscape(%q)) = %q", specials, got)
		}
	}
}

func TestBibName(t *testing.T) {
	tests := []struct {
		in   csl.Name
		want string
	}{
		{csl.Name{Family: "Vaswani", Given: "Ashish"}, "Vaswani, Ashish"},
		{csl.Name{Family: "Perutz", Given: "M.F."}, "Perutz, M. F."},
		{csl.Name{Family: "Gogh", Given: "Vincent", NonDroppingParticle: "van"}, "van Gogh, Vincent"},
		{csl.Name{Family: "Beethoven", Given: "Ludwig", DroppingParticle: "van"}, "van Beethoven, Ludwig"},
		{csl.Name{Family: "dos Santos", Given: "Valérie"}, "dos Santos, Valérie"},
		{csl.Name{Family: "King", Given: "Martin Luther", Suffix: "Jr."}, "King, Jr., Martin Luther"},
		{csl.Name{Family: "Smith", Given: "Amos B., III"}, "Smith, III, Amos B."},
		{csl.Name{Literal: "World Health Organization"}, "{World Health Organization}"},
		{csl.Name{Family: "Sheherazade"}, "{Sheherazade}"},
		{csl.Name{Given: "Sheherazade"}, "{Sheherazade}"},
		{csl.Name{Family: "Smith and Sons", Given: "Bob"}, "{Smith and Sons}, Bob"},
		{csl.Name{Family: "Doe", Given: "A, B"}, "Doe, {A, B}"},
		{csl.Name{Family: "宮地", Given: "元彦"}, "宮地, 元彦"},
		{csl.Name{}, ""},
	}
	for _, tc := range tests {
		if got := bibName(tc.in, Options{}); got != tc.want {
			t.Errorf("bibName(%+v) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := bibName(csl.Name{Family: "Müller", Given: "Jürgen"}, Options{Unicode: UnicodeLaTeX}); got != `M{\"u}ller, J{\"u}rgen` {
		t.Errorf("LaTeX name = %q", got)
	}
}

func TestBibTitleSentenceCase(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Letter from Birmingham jail", "Letter from {Birmingham} jail"},
		{"Letter From Birmingham Jail", "Letter From Birmingham Jail"},
		{"The Structure of Ordinary Water: New data and interpretations", "The Structure of Ordinary Water: New data and interpretations"},
		{"Open citations with CROCI -- An analysis of Europe", "Open citations with {CROCI} -{}- An analysis of {Europe}"}, // "--" would read back as an en dash,
		{"Is it? Yes, says Darwin", "Is it? Yes, says {Darwin}"},
		{"Quantum criticality on a Bethe-lattice", "Quantum criticality on a {Bethe}-lattice"},
	}
	for _, tc := range tests {
		if got := bibTitle(tc.in, Options{}); got != tc.want {
			t.Errorf("bibTitle(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestBibLaTeX(t *testing.T) {
	date := &csl.Date{DateParts: [][]csl.Number{{"2015", "6"}}}
	tests := []struct {
		name string
		it   csl.Item
		want string
	}{
		{
			name: "article",
			it: csl.Item{ID: "k", Type: "article-journal", Title: "A study", Author: []csl.Name{{Family: "Doe", Given: "Jane"}},
				Issued: date, ContainerTitle: "J & Co", Volume: "3", Issue: "2", Page: "10-20", Publisher: "Pub", ISSN: "0028-0836",
				DOI: "10.1/x", Number: "arXiv:1501.00001 [hep-th]"},
			want: "@article{k,\n  title = {A study},\n  author = {Doe, Jane},\n  date = {2015-06},\n  journaltitle = {J \\& Co},\n  volume = {3},\n  number = {2},\n  pages = {10--20},\n  issn = {0028-0836},\n  doi = {10.1/x},\n  eprint = {1501.00001},\n  eprinttype = {arxiv},\n  eprintclass = {hep-th}\n}",
		},
		{
			name: "non-arXiv preprint",
			it:   csl.Item{ID: "k", Type: "article", Title: "P", Publisher: "bioRxiv", Issued: date, DOI: "10.1101/x"},
			want: "@online{k,\n  title = {P},\n  date = {2015-06},\n  organization = {bioRxiv},\n  doi = {10.1101/x}\n}",
		},
		{
			name: "master's thesis",
			it:   csl.Item{ID: "k", Type: "thesis", Title: "T", Genre: "Master's thesis", Publisher: "MIT", PublisherPlace: "Cambridge, MA", Issued: date},
			want: "@thesis{k,\n  title = {T},\n  date = {2015-06},\n  institution = {MIT},\n  location = {Cambridge, MA},\n  type = {mathesis}\n}",
		},
		{
			name: "dataset in a repository",
			it:   csl.Item{ID: "k", Type: "dataset", Title: "D", ContainerTitle: "Zenodo", Publisher: "CERN", Issued: date},
			want: "@dataset{k,\n  title = {D},\n  date = {2015-06},\n  publisher = {CERN},\n  note = {Zenodo}\n}",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Format(tc.it, BibLaTeX)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestBibTeXEntryTypes(t *testing.T) {
	for typ, want := range map[string][2]string{
		"article-journal":  {"article", "article"},
		"article-magazine": {"article", "article"},
		"paper-conference": {"inproceedings", "inproceedings"},
		"book":             {"book", "book"},
		"chapter":          {"incollection", "incollection"},
		"report":           {"techreport", "report"},
		"thesis":           {"phdthesis", "thesis"},
		"dataset":          {"misc", "dataset"},
		"article":          {"misc", "online"},
		"webpage":          {"misc", "online"},
		"software":         {"misc", "misc"},
		"":                 {"misc", "misc"},
	} {
		it := csl.Item{ID: "k", Type: typ, Title: "T"}
		for i, st := range []Style{BibTeX, BibLaTeX} {
			got, err := Format(it, st)
			if err != nil {
				t.Fatal(err)
			}
			if prefix := "@" + want[i] + "{k,"; got[:len(prefix)] != prefix {
				t.Errorf("%s of type %q starts %q, want %q", st, typ, got[:len(prefix)], prefix)
			}
		}
	}
}
