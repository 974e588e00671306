package draft

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// cite is a compact expectation: key, command, line. Columns are checked
// against the offsets by checkOffsets.
type cite struct {
	Key, Cmd string
	Line     int
}

func found(cs []Citation) []cite {
	var out []cite
	for _, c := range cs {
		out = append(out, cite{c.Key, c.Command, c.Line})
	}
	return out
}

// checkOffsets checks that each citation's key is at its offset, and
// that its line and column are those of the offset.
func checkOffsets(t *testing.T, text string, cs []Citation) {
	t.Helper()
	for _, c := range cs {
		if c.Offset < 0 || c.Offset+len(c.Key) > len(text) || text[c.Offset:c.Offset+len(c.Key)] != c.Key {
			t.Errorf("citation %+v: text at its offset is not its key", c)
			continue
		}
		line := strings.Count(text[:c.Offset], "\n") + 1
		col := c.Offset - (strings.LastIndex(text[:c.Offset], "\n") + 1) + 1
		if c.Line != line || c.Col != col {
			t.Errorf("citation %+v: offset %d is line %d, column %d", c, c.Offset, line, col)
		}
	}
}

func TestLaTeX(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []cite
	}{
		{"plain", `see \cite{knuth84} and \nocite{a1,b2}`, []cite{{"knuth84", `\cite`, 1}, {"a1", `\nocite`, 1}, {"b2", `\nocite`, 1}}},
		{"natbib with optional arguments", `\citep[see][p.~3]{smith2020} \citet[ch.~2]{doe:2019} \citealt{x}`, []cite{{"smith2020", `\citep`, 1}, {"doe:2019", `\citet`, 1}, {"x", `\citealt`, 1}}},
		{"multi-line list with spaces", "\\citep[see][p.~3]{a,\n  b ,\n\tc}", []cite{{"a", `\citep`, 1}, {"b", `\citep`, 2}, {"c", `\citep`, 3}}},
		{"arguments on the next line", "\\citep\n  [see]\n  {a}", []cite{{"a", `\citep`, 3}}},
		{"starred and capitalised", `\citet*{a} \Citep{b} \Textcite{c} \citeauthor*{d}`, []cite{{"a", `\citet*`, 1}, {"b", `\Citep`, 1}, {"c", `\Textcite`, 1}, {"d", `\citeauthor*`, 1}}},
		{"biblatex", `\autocite{a} \parencite[12]{b} \textcite{c} \footcite{d} \smartcite{e} \fullcite{f} \supercite{g} \citetitle{h} \citeyear{i} \citeyearpar{j}`,
			[]cite{{"a", `\autocite`, 1}, {"b", `\parencite`, 1}, {"c", `\textcite`, 1}, {"d", `\footcite`, 1}, {"e", `\smartcite`, 1}, {"f", `\fullcite`, 1}, {"g", `\supercite`, 1}, {"h", `\citetitle`, 1}, {"i", `\citeyear`, 1}, {"j", `\citeyearpar`, 1}}},
		{"multicite", `\autocites{a}{b} \cites(pre)(post)[see][1]{c}[2]{d,e} and {f}`, []cite{{"a", `\autocites`, 1}, {"b", `\autocites`, 1}, {"c", `\cites`, 1}, {"d", `\cites`, 1}, {"e", `\cites`, 1}}},
		{"volcite", `\volcite[see]{2}[45]{kant} \pvolcites(pre)(post){1}[3]{a}{2}{b}`, []cite{{"kant", `\volcite`, 1}, {"a", `\pvolcites`, 1}, {"b", `\pvolcites`, 1}}},
		{"nocite star is not a key", `\nocite{*} \nocite{a,*}`, []cite{{"a", `\nocite`, 1}}},
		{"key characters", `\cite{DBLP:conf/x/A21,x_y-z.1+2,Lála2023}`, []cite{{"DBLP:conf/x/A21", `\cite`, 1}, {"x_y-z.1+2", `\cite`, 1}, {"Lála2023", `\cite`, 1}}},
		{"macro parameters are not keys", `\newcommand{\mycite}[1]{\citep{#1}} \citep{\foo,ok}`, []cite{{"ok", `\citep`, 1}}},
		{"a key with inner space is not a key", `\cite{a b,c}`, []cite{{"c", `\cite`, 1}}},
		{"comments", "% \\cite{no}\ntext \\cite{yes} % \\cite{no2}\n50\\% \\cite{pct}", []cite{{"yes", `\cite`, 2}, {"pct", `\cite`, 3}}},
		{"comment inside the key list", "\\cite{a,% b,\n c}", []cite{{"a", `\cite`, 1}, {"c", `\cite`, 2}}},
		{"comment right after a key", "\\cite{a% note\n,b%\nc}", []cite{{"a", `\cite`, 1}}},
		{"comment between arguments", "\\citep[see]% note\n{a}", []cite{{"a", `\citep`, 2}}},
		{"verbatim environments", "\\begin{verbatim}\\cite{v}\\end{verbatim}\\begin{lstlisting}[x]\n\\cite{l}\n\\end{lstlisting}\\begin{minted}{tex}\\cite{m}\\end{minted}\\begin{comment}\\cite{c}\\end{comment}\\cite{ok}", []cite{{"ok", `\cite`, 3}}},
		{"unclosed verbatim", "\\cite{a}\\begin{verbatim}\\cite{b}", []cite{{"a", `\cite`, 1}}},
		{"verb", `\verb|\cite{v}| \verb*+\cite{w}+ \lstinline!\cite{x}! \mintinline{tex}{\cite{y}} \cite{ok}`, []cite{{"ok", `\cite`, 1}}},
		{"not citation commands", `\citex{a} \cite \cite[only] text \citenothing{b} \\cite{c}`, nil},
		{"escaped backslash before a command", `\\ \cite{a}`, []cite{{"a", `\cite`, 1}}},
		{"unclosed arguments", `\cite{a \citep[x{b}`, nil},
		{"empty items", `\cite{,a,,b,}`, []cite{{"a", `\cite`, 1}, {"b", `\cite`, 1}}},
		{"optional argument with braces and brackets", `\citep[{see [1]}][]{a}`, []cite{{"a", `\citep`, 1}}},
		{"group closes before the optional argument", `{\citep[x}]{a}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Citations("draft.tex", []byte(tt.in))
			if diff := cmp.Diff(tt.want, found(got)); diff != "" {
				t.Errorf("Citations(%q) (-want +got):\n%s", tt.in, diff)
			}
			checkOffsets(t, tt.in, got)
		})
	}
}

func TestMarkdown(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []cite
	}{
		{"bracketed", "Blah [@doe99; @smith2000, p. 33].", []cite{{"doe99", "[@", 1}, {"smith2000", "[@", 1}}},
		{"prefix and locator", "[see @doe99, pp. 33-35 and *passim*; @smith04, chap. 1]", []cite{{"doe99", "[@", 1}, {"smith04", "[@", 1}}},
		{"suppress author", "Smith says blah [-@smith04].", []cite{{"smith04", "[-@", 1}}},
		{"in text", "@smith04 says blah, and -@doe99 too.", []cite{{"smith04", "@", 1}, {"doe99", "-@", 1}}},
		{"in-text with locator", "@smith04 [p. 33] says", []cite{{"smith04", "@", 1}}},
		{"trailing punctuation", "As @Foo_bar.baz. said, @a: and @b--c and @d.", []cite{{"Foo_bar.baz", "@", 1}, {"a", "@", 1}, {"b", "@", 1}, {"d", "@", 1}}},
		{"internal punctuation", "@a:b @x-y+z @p#q?r<s>t~u/v$w%x&y", []cite{{"a:b", "@", 1}, {"x-y+z", "@", 1}, {"p#q?r<s>t~u/v$w%x&y", "@", 1}}},
		{"URL keys", "[@http://example.org/a] and @{https://example.com/bib?name=foo&date=2000}, p. 33", []cite{{"http://example.org/a", "[@", 1}, {"https://example.com/bib?name=foo&date=2000", "@", 1}}},
		{"braced key", "@{Foo_bar.baz.} and [@{odd key}] and @{a{b}c}", []cite{{"Foo_bar.baz.", "@", 1}, {"a{b}c", "@", 1}}},
		{"digits and underscore first", "@1657:huygens @_x", []cite{{"1657:huygens", "@", 1}, {"_x", "@", 1}}},
		{"unicode", "[@Lála2023] and (@Müller_2019)", []cite{{"Lála2023", "[@", 1}, {"Müller_2019", "@", 1}}},
		{"e-mail addresses", "Write to user@example.org or <ada@lovelace.org> or a.b_c@x.io.", nil},
		{"escaped at", `\@notakey and \[@bracketed\]`, []cite{{"bracketed", "@", 1}}},
		{"not keys", "@ alone, @. and @-x and @*", nil},
		{"code spans", "`@code` and ``a ` @b`` and `unclosed @c", []cite{{"c", "@", 1}}},
		{"code span across lines", "`code\n@x` @y", []cite{{"y", "@", 2}}},
		{"fenced code", "@a\n```python\n@decorator\n```\n@b\n~~~~\n@c\n~~~\n~~~~\n@d", []cite{{"a", "@", 1}, {"b", "@", 5}, {"d", "@", 10}}},
		{"unclosed fence", "@a\n```\n@b", []cite{{"a", "@", 1}}},
		{"inline triple backticks are not a fence", "```x``` @a", []cite{{"a", "@", 1}}},
		{"HTML comment", "<!-- @hidden\n@too --> @shown", []cite{{"shown", "@", 2}}},
		{"autolink and link destination", "<https://x.org/@user> [text](https://x.org/@user) [@real](x)", []cite{{"real", "[@", 1}}},
		{"brackets end with the paragraph", "[unclosed\n\n@a", []cite{{"a", "@", 3}}},
		{"multi-line bracket", "[see\n@a; @b]", []cite{{"a", "[@", 2}, {"b", "[@", 2}}},
		{"front matter nocite", "---\ntitle: By me@x.org and @notme\nnocite: |\n  @a, @b\n  [@c]\nauthor: x\n---\nText @d.", []cite{{"a", "nocite", 4}, {"b", "nocite", 4}, {"c", "nocite", 5}, {"d", "@", 8}}},
		{"front matter wildcard", "---\nnocite: '[@*]'\n---\n", nil},
		{"unclosed front matter is text", "---\n@a", []cite{{"a", "@", 2}}},
		{"raw LaTeX commands are not read in markdown", `\cite{a}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Citations("draft.md", []byte(tt.in))
			if diff := cmp.Diff(tt.want, found(got)); diff != "" {
				t.Errorf("Citations(%q) (-want +got):\n%s", tt.in, diff)
			}
			checkOffsets(t, tt.in, got)
		})
	}
}

func TestKindOf(t *testing.T) {
	for name, want := range map[string]Kind{
		"a.tex": LaTeX, "b.LaTeX": LaTeX, "c.ltx": LaTeX,
		"d.md": Markdown, "e.markdown": Markdown, "f.qmd": Markdown, "g.Rmd": Markdown, "h.txt": Markdown,
		"i.docx": Unknown, "noext": Unknown, "dir.tex/file": Unknown,
	} {
		if got := KindOf(name); got != want {
			t.Errorf("KindOf(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestScanUnknownKind(t *testing.T) {
	d := Scan("draft", []byte(`\citep{a} and @b`))
	if d.Kind != LaTeX || fmt.Sprint(d.Keys()) != "[a]" {
		t.Errorf("LaTeX-looking draft: kind %v keys %v, want LaTeX [a]", d.Kind, d.Keys())
	}
	d = Scan("draft", []byte(`[@a] and @b and me@x.org`))
	if d.Kind != Markdown || fmt.Sprint(d.Keys()) != "[a b]" {
		t.Errorf("markdown-looking draft: kind %v keys %v, want markdown [a b]", d.Kind, d.Keys())
	}
	d = Scan("draft", []byte("nothing here"))
	if d.Kind != Markdown || len(d.Citations) != 0 {
		t.Errorf("empty draft: kind %v citations %v", d.Kind, d.Citations)
	}
}

func TestKeys(t *testing.T) {
	d := Scan("x.tex", []byte(`\cite{b,a} \citep{b} \nocite{c}`))
	if got := strings.Join(d.Keys(), " "); got != "b a c" {
		t.Errorf("Keys = %q, want \"b a c\"", got)
	}
	if d.Name != "x.tex" || len(d.Citations) != 4 {
		t.Errorf("Draft = %+v", d)
	}
}

// TestRealisticDrafts reads a LaTeX paper and a pandoc markdown paper in
// testdata and checks every key, command and line.
func TestRealisticDrafts(t *testing.T) {
	tests := []struct {
		file string
		want []cite
	}{
		{"testdata/paper.tex", []cite{
			{"vaswani2017attention", `\citep`, 18},
			{"devlin2019bert", `\citep`, 18},
			{"lala2023paperqa", `\citet`, 19},
			{"bran2024augmenting", `\citep`, 21},
			{"skarlinski2015effect", `\citep`, 22},
			{"DBLP:conf/sigmod/PandeyCDBFJ21", `\autocite`, 26},
			{"knuth1984texbook", `\textcite`, 29},
			{"turing1950computing", `\parencites`, 34},
			{"frank1970structure", `\parencites`, 34},
			{"immink2017proceedings", `\nocite`, 41},
		}},
		{"testdata/paper.md", []cite{
			{"a", "nocite", 4},
			{"vaswani2017attention", "[@", 12},
			{"devlin2019bert", "[@", 12},
			{"lala2023paperqa", "@", 14},
			{"bran2024augmenting", "[-@", 14},
			{"skarlinski2015effect", "[@", 16},
			{"knuth1984texbook", "[@", 16},
			{"turing1950computing", "@", 27},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			d := scanFile(t, tt.file)
			if diff := cmp.Diff(tt.want, found(d.Citations)); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tt.file, diff)
			}
		})
	}
}

func scanFile(t *testing.T, name string) *Draft {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	d := Scan(name, data)
	checkOffsets(t, string(data), d.Citations)
	return d
}
