package draft

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// quot is a compact expectation for a quotation.
type quot struct {
	Kind QuoteKind
	Cmd  string
	Text string
	Raw  string
}

func quots(qs []Quotation) []quot {
	var out []quot
	for _, q := range qs {
		out = append(out, quot{q.Kind, q.Command, q.Text, q.Raw})
	}
	return out
}

// checkQuotations checks the invariants every quotation keeps.
func checkQuotations(t testing.TB, text string, d *Draft) {
	t.Helper()
	prevEnd := 0
	for i, q := range d.Quotations {
		if !(0 <= q.MarkupOffset && q.MarkupOffset <= q.Offset && q.Offset <= q.End && q.End <= q.MarkupEnd && q.MarkupEnd <= len(text)) {
			t.Fatalf("quotation %d %+v: offsets out of order", i, q)
		}
		if q.MarkupOffset < prevEnd {
			t.Fatalf("quotation %d %+v overlaps the one before (ending at %d)", i, q, prevEnd)
		}
		prevEnd = q.MarkupEnd
		if q.Raw != text[q.Offset:q.End] {
			t.Fatalf("quotation %d %+v: Raw is not text[Offset:End]", i, q)
		}
		if q.Text == "" || q.Text != strings.Join(strings.Fields(q.Text), " ") {
			t.Fatalf("quotation %d %+v: Text empty or not collapsed", i, q)
		}
		if line := strings.Count(text[:q.Offset], "\n") + 1; q.Line != line {
			t.Fatalf("quotation %d %+v: Line is not %d", i, q, line)
		}
		if line := strings.Count(text[:max(q.Offset, q.End-1)], "\n") + 1; q.EndLine != line {
			t.Fatalf("quotation %d %+v: EndLine is not %d", i, q, line)
		}
		for _, c := range q.Citations {
			if c.Offset < q.MarkupOffset || c.Offset >= q.MarkupEnd {
				t.Fatalf("quotation %d %+v: citation %+v outside its markup", i, q, c)
			}
		}
	}
	for i := -1; i <= len(d.Quotations); i++ {
		d.CitedKeys(i)
		if p, ok := d.ProvenanceFor(i); ok && (p.Key == "" || p.ChunkID == "" || text[p.Offset:p.End] == "") {
			t.Fatalf("quotation %d: bad provenance %+v", i, p)
		}
	}
	for _, p := range d.Provenance {
		if p.Offset < 0 || p.Offset >= p.End || p.End > len(text) || p.Line != strings.Count(text[:p.Offset], "\n")+1 {
			t.Fatalf("provenance %+v: bad offsets or line", p)
		}
	}
}

const long = "one two three four five six"

func TestLaTeXQuotations(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []quot
	}{
		{"quote environment", "As they say:\n\\begin{quote}\n  Words  of the\n  source.\n\\end{quote}", []quot{{QuoteEnvironment, `\begin{quote}`, "Words of the source.", "Words  of the\n  source."}}},
		{"quotation and displayquote", `\begin{quotation}A b.\end{quotation} \begin{displayquote}[\cite{x}][.]C d\end{displayquote}`,
			[]quot{{QuoteEnvironment, `\begin{quotation}`, "A b.", "A b."}, {QuoteEnvironment, `\begin{displayquote}`, "C d", "C d"}}},
		{"displaycquote", `\begin{displaycquote}[p.~3]{key}Some words.\end{displaycquote}`, []quot{{QuoteEnvironment, `\begin{displaycquote}`, "Some words.", "Some words."}}},
		{"foreign displayquote", `\begin{foreigndisplayquote}{german}Ein Satz.\end{foreigndisplayquote}`, []quot{{QuoteEnvironment, `\begin{foreigndisplayquote}`, "Ein Satz.", "Ein Satz."}}},
		{"nested quote environments", `\begin{quote}a \begin{quote}b\end{quote} c\end{quote}`, []quot{{QuoteEnvironment, `\begin{quote}`, "a b c", `a \begin{quote}b\end{quote} c`}}},
		{"unclosed environment", `\begin{quote}never closed`, nil},
		{"blockquote commands", `\blockquote[\cite{a}]{Short.} \blockcquote[p.~1]{b}{Also short.}`, []quot{{QuoteEnvironment, `\blockquote`, "Short.", "Short."}, {QuoteEnvironment, `\blockcquote`, "Also short.", "Also short."}}},
		{"textquote forms", `\textquote{Short.} \textcquote[3]{k}[.]{Two.} \foreignquote{french}{Trois} \hyphenquote*{german}{Vier} \foreigntextcquote{german}[5]{k}{Fünf}`,
			[]quot{{TextQuote, `\textquote`, "Short.", "Short."}, {TextQuote, `\textcquote`, "Two.", "Two."}, {TextQuote, `\foreignquote`, "Trois", "Trois"}, {TextQuote, `\hyphenquote*`, "Vier", "Vier"}, {TextQuote, `\foreigntextcquote`, "Fünf", "Fünf"}}},
		{"enquote threshold", `\enquote{so called} \enquote*{` + long + `} \mkbibquote{` + long + `}`, []quot{{Enquote, `\enquote*`, long, long}, {Enquote, `\mkbibquote`, long, long}}},
		{"enquote with a citation after", `\enquote{short} \cite{a} and \enquote{short2}.~\citep{b} and \enquote{term} here`, []quot{{Enquote, `\enquote`, "short", "short"}, {Enquote, `\enquote`, "short2", "short2"}}},
		{"TeX quotes threshold", "the ``attention'' of ``" + long + "''", []quot{{LaTeXQuotes, "``", long, long}}},
		{"TeX quotes with a citation after", "``short'', \\cite{a} and ``short'' (\\cite{b}) and ``short''\\footnote{\\cite{c}} and ``no'' x \\cite{d}",
			[]quot{{LaTeXQuotes, "``", "short", "short"}, {LaTeXQuotes, "``", "short", "short"}, {LaTeXQuotes, "``", "short", "short"}}},
		{"a citation after a blank line does not follow", "``short''\n\n\\cite{a}", nil},
		{"nocite does not follow", "``short'' \\nocite{a}", nil},
		{"double quotes", `"` + long + `" and “` + long + `” and „` + long + `“ and «` + long + `»`,
			[]quot{{DoubleQuotes, `"`, long, long}, {DoubleQuotes, "“", long, long}, {DoubleQuotes, "„", long, long}, {DoubleQuotes, "«", long, long}}},
		{"nested typographic quotes", "“a “b” c d e f”", []quot{{DoubleQuotes, "“", "a “b” c d e f", "a “b” c d e f"}}},
		{"single quotes are not quotations", "`" + long + "' and ‘" + long + "’", nil},
		{"a span closes in its paragraph", "``" + long + "\n\nmore''", nil},
		{"inch marks and accents", `a 5" x 3" card \"u and \"{o} ` + long, nil},
		{"not nested", "\\begin{quote}He said ``" + long + "'' \\enquote{x}\\end{quote}", []quot{{QuoteEnvironment, `\begin{quote}`, "He said “" + long + "” “x”", "He said ``" + long + "'' \\enquote{x}"}}},
		{"comments skipped", "% ``" + long + "''\n\\begin{quote}% note\nWords%\n  joined % comment\nhere.\n% last\n\\end{quote}", []quot{{QuoteEnvironment, `\begin{quote}`, "Wordsjoined here.", "Words%\n  joined % comment\nhere."}}},
		{"verbatim skipped", "\\verb|``" + long + "''| \\begin{verbatim}\n``" + long + "''\n\\end{verbatim} \\lstinline!\"" + long + "\"!", nil},
		{"verbatim delimited by % skipped", "\\verb%``" + long + "''% \\lstinline%\"" + long + "\"%", nil},
		{"math skipped", `$"` + long + `"$ \(` + "``" + long + `''\) \[“` + long + `”\] \begin{align}"` + long + `"\end{align} $$"` + long + `"$$`, nil},
		{"url skipped", `\url{"` + long + `"} \href{"` + long + `"}{x}`, nil},
		{"escaped dollar is not math", `\$5 and "` + long + `" \$`, []quot{{DoubleQuotes, `"`, long, long}}},
		{"elisions kept", `\begin{quote}A \ldots{} b ... c … d [\dots] e \textelp{} f \textelp{g} h \textins{i} j [...] k.\end{quote}`,
			[]quot{{QuoteEnvironment, `\begin{quote}`, "A … b ... c … d […] e […] f […] g h [i] j [...] k.", `A \ldots{} b ... c … d [\dots] e \textelp{} f \textelp{g} h \textins{i} j [...] k.`}}},
		{"decoding", "\\begin{quote}Caf\\'e na\\\"\\i ve~text\n--- \\emph{emph} 50\\% M\\\"uller's\\footnote{A note.}\\label{q}\\index{x} ``in''.\\end{quote}",
			[]quot{{QuoteEnvironment, `\begin{quote}`, "Café naïve text — emph 50% Müller's “in”.", "Caf\\'e na\\\"\\i ve~text\n--- \\emph{emph} 50\\% M\\\"uller's\\footnote{A note.}\\label{q}\\index{x} ``in''."}}},
		{"citations removed from Text", `\begin{quote}Words here~\cite{a}, and there \citep[p.~3]{b,c}.\end{quote}`, []quot{{QuoteEnvironment, `\begin{quote}`, "Words here, and there.", `Words here~\cite{a}, and there \citep[p.~3]{b,c}.`}}},
		{"outer quotes stripped from display text", "\\begin{quote}``Words.''\\end{quote} \\begin{quote}“A” and “B”\\end{quote} \\blockquote{``C''.}",
			[]quot{{QuoteEnvironment, `\begin{quote}`, "Words.", "``Words.''"}, {QuoteEnvironment, `\begin{quote}`, "“A” and “B”", "“A” and “B”"}, {QuoteEnvironment, `\blockquote`, "C.", "``C''."}}},
		{"attribution dash removed", "\\begin{quote}Words.\\\\\n--- \\cite{a}\\end{quote}", []quot{{QuoteEnvironment, `\begin{quote}`, "Words.", "Words.\\\\\n--- \\cite{a}"}}},
		{"empty text is not a quotation", `\begin{quote} % only a comment` + "\n" + `\end{quote} \enquote{} ` + "``  ''" + ` \textquote{\cite{x}}`, nil},
		{"missing arguments", `\textcquote{Words} \blockquote text \enquote`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Scan("draft.tex", []byte(tt.in))
			if diff := cmp.Diff(tt.want, quots(d.Quotations)); diff != "" {
				t.Errorf("Quotations(%q) (-want +got):\n%s", tt.in, diff)
			}
			checkQuotations(t, tt.in, d)
		})
	}
}

func TestMarkdownQuotations(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []quot
	}{
		{"blockquote", "Intro:\n\n> Words of\n>   the *source*.\n\nAfter.", []quot{{Blockquote, ">", "Words of the source.", "Words of\n>   the *source*."}}},
		{"blockquote with blank quoted lines and nesting", ">\n> a\n>\n> > b\n>\n", []quot{{Blockquote, ">", "a b", "a\n>\n> > b"}}},
		{"indented marker", "   > a b", []quot{{Blockquote, ">", "a b", "a b"}}},
		{"four spaces is not a blockquote", "    > a b", nil},
		{"two blockquotes", "> a\n\n> b", []quot{{Blockquote, ">", "a", "a"}, {Blockquote, ">", "b", "b"}}},
		{"empty blockquote", ">\n>  \n", nil},
		{"blockquote attribution line", "> Words here.\n> — [@a, p. 3]", []quot{{Blockquote, ">", "Words here.", "Words here.\n> — [@a, p. 3]"}}},
		{"outer quotes stripped", "> “Words.”\n\n> \"More\".", []quot{{Blockquote, ">", "Words.", "“Words.”"}, {Blockquote, ">", "More.", `"More".`}}},
		{"double quote threshold", `the "attention" of "` + long + `" and “` + long + `”`, []quot{{DoubleQuotes, `"`, long, long}, {DoubleQuotes, "“", long, long}}},
		{"citation after", `"short" [@a] and "short2", @b says; "short3"^[@c.] and "no" x [@d]`, []quot{{DoubleQuotes, `"`, "short", "short"}, {DoubleQuotes, `"`, "short2", "short2"}, {DoubleQuotes, `"`, "short3", "short3"}}},
		{"span does not cross a blockquote or paragraph", "\"" + long + "\n> x\n\" and \"" + long + "\n\nmore\"", []quot{{Blockquote, ">", "x", "x"}}},
		{"span inside a blockquote is part of it", "> He said \"" + long + "\".", []quot{{Blockquote, ">", "He said \"" + long + "\".", "He said \"" + long + "\"."}}},
		{"code, comments, front matter and math skipped", "---\ntitle: \"" + long + "\"\n---\n`\"" + long + "\"`\n```\n\"" + long + "\"\n> not a quote\n```\n<!-- \"" + long + "\" -->\n$\"" + long + "\"$\n<http://x.org/\"a> [x](http://x.org/\"" + long + "\")", nil},
		{"escaped quote", `\"` + long + `\"`, nil},
		{"text decoding", "> *Emphasis*, **strong**, _under_ and snake_case, `code`, [a link](http://x.org) and ![img](x.png), [ref][1],\n> a footnote[^1] and^[inline], \\*escaped\\*, &amp; &eacute; <!-- hidden --> [@a; @b] @c too.",
			[]quot{{Blockquote, ">", "Emphasis, strong, under and snake_case, code, a link and img, ref, a footnote and, *escaped*, & é too.", "*Emphasis*, **strong**, _under_ and snake_case, `code`, [a link](http://x.org) and ![img](x.png), [ref][1],\n> a footnote[^1] and^[inline], \\*escaped\\*, &amp; &eacute; <!-- hidden --> [@a; @b] @c too."}}},
		{"elisions kept", `"a ... b … c […] d [...] e f"`, []quot{{DoubleQuotes, `"`, "a ... b … c […] d [...] e f", "a ... b … c […] d [...] e f"}}},
		{"LaTeX is not read in markdown", "``" + long + "''", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Scan("draft.md", []byte(tt.in))
			if diff := cmp.Diff(tt.want, quots(d.Quotations)); diff != "" {
				t.Errorf("Quotations(%q) (-want +got):\n%s", tt.in, diff)
			}
			checkQuotations(t, tt.in, d)
		})
	}
}

func TestOffsetsAndLines(t *testing.T) {
	in := "x\n\\begin{quote}\n  Words\n  here.\n\\end{quote}\n``" + long + "''"
	d := Scan("d.tex", []byte(in))
	if len(d.Quotations) != 2 {
		t.Fatalf("got %d quotations, want 2", len(d.Quotations))
	}
	q := d.Quotations[0]
	if q.MarkupOffset != 2 || in[q.MarkupEnd-len(`\end{quote}`):q.MarkupEnd] != `\end{quote}` || q.Line != 3 || q.EndLine != 4 {
		t.Errorf("environment: %+v", q)
	}
	q = d.Quotations[1]
	if in[q.MarkupOffset:q.Offset] != "``" || in[q.End:q.MarkupEnd] != "''" || q.Line != 6 || q.EndLine != 6 {
		t.Errorf("span: %+v", q)
	}
	in = "> a\n> b\n"
	d = Scan("d.md", []byte(in))
	if q := d.Quotations[0]; q.MarkupOffset != 0 || q.Offset != 2 || q.End != 7 || q.MarkupEnd != 7 || q.Line != 1 || q.EndLine != 2 {
		t.Errorf("blockquote: %+v", q)
	}
}

func TestCitedKeys(t *testing.T) {
	q := "``" + long + "''"
	tests := []struct {
		name, file, in string
		want           [][]string // per quotation
	}{
		{"own citations", "d.tex", `\textcquote{a}{Words.} \blockquote[\cite{b,c}]{Words.} \begin{quote}W \cite{d}.\end{quote} \cite{e}`, [][]string{{"a"}, {"b", "c"}, {"d"}}},
		{"own before outside", "d.tex", `\cite{x} \textquote[\cite{a}]{Words.} \cite{y}`, [][]string{{"a"}}},
		{"after in sentence wins over before", "d.tex", `As \citet{a} wrote, ` + q + ` \citep{b}.`, [][]string{{"b"}}},
		{"all keys of one command", "d.tex", q + ` \citep{a,b} and \cite{c}.`, [][]string{{"a", "b"}}},
		{"multicite is one command", "d.tex", q + ` \cites{a}{b}.`, [][]string{{"a", "b"}}},
		{"before in sentence", "d.tex", `First \cite{x}. As \citet{a} wrote, ` + q + `. Later \cite{c}.`, [][]string{{"a"}}},
		{"after in paragraph", "d.tex", `First. ` + q + `. Later \cite{c}. Then \cite{d}.`, [][]string{{"c"}}},
		{"before in paragraph", "d.tex", `First \cite{x}. Then \cite{y}. ` + q + `. Nothing.`, [][]string{{"y"}}},
		{"not across paragraphs", "d.tex", "\\cite{x}.\n\n" + q + ".\n\nLater \\cite{y}.", [][]string{nil}},
		{"sentence ends after a quotation ending in a period", "d.tex", "As \\citet{a} wrote, ``" + long + ".'' The \\cite{b}.", [][]string{{"a"}}},
		{"lower case does not start a sentence", "d.tex", "As \\citet{a} wrote, e.g. ``" + long + "'' which \\cite{b}.", [][]string{{"b"}}},
		{"nocite does not attribute", "d.tex", q + ` \nocite{a}.`, [][]string{nil}},
		{"citations inside another quotation are not candidates", "d.tex", q + ` and \textcquote{b}{Words.}`, [][]string{nil, {"b"}}},
		{"two quotations share a citation after them", "d.tex", q + " and " + q + ` \cite{a}.`, [][]string{{"a"}, {"a"}}},
		{"display: citation right after the block", "d.tex", "As \\citet{a} wrote:\n\\begin{quote}\nWords.\n\\end{quote}\n\\citep[p.~3]{b}", [][]string{{"b"}}},
		{"display: before in sentence wins over later text", "d.tex", "As \\citet{a} wrote:\n\\begin{quote}\nWords.\n\\end{quote}\nThis is what \\cite{b} said.", [][]string{{"a"}}},
		{"display: after in paragraph", "d.tex", "Thus:\n\\begin{quote}\nWords.\n\\end{quote}\nThis is what \\cite{b} said.", [][]string{{"b"}}},
		{"display: comment and dash before the citation", "d.tex", "\\begin{quote}\nWords.\n\\end{quote} % note\n--- \\cite{b}", [][]string{{"b"}}},
		{"markdown own", "d.md", "> Words.\n> — [@a; @b, p. 3]", [][]string{{"a", "b"}}},
		{"markdown line after blockquote", "d.md", "As @x wrote:\n\n> Words.\n[@a]\n", [][]string{{"a"}}},
		{"markdown blank line after blockquote", "d.md", "> Words.\n\n[@a]\n", [][]string{nil}},
		{"markdown in-text before", "d.md", "As @a wrote, \"" + long + "\". Later [@b].", [][]string{{"a"}}},
		{"markdown after", "d.md", "As @a wrote, \"" + long + "\" [@b; @c].", [][]string{{"b", "c"}}},
		{"markdown repeated key once", "d.md", "> Words [@a] and [@a, p. 2].", [][]string{{"a"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Scan(tt.file, []byte(tt.in))
			var got [][]string
			for i := range d.Quotations {
				got = append(got, d.CitedKeys(i))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("CitedKeys for %q (-want +got):\n%s", tt.in, diff)
			}
			checkQuotations(t, tt.in, d)
		})
	}
	d := Scan("d.tex", nil)
	if d.CitedKeys(0) != nil || d.CitedKeys(-1) != nil {
		t.Error("CitedKeys out of range is not nil")
	}
	if _, ok := d.ProvenanceFor(0); ok {
		t.Error("ProvenanceFor out of range is found")
	}
}

func TestProvenance(t *testing.T) {
	q := "``" + long + "''"
	tests := []struct {
		name, file, in string
		want           []string // chunk id per quotation, "" for none
	}{
		{"same line", "d.tex", q + ` \cite{a}. % crossmem: a c1 sha256=ff`, []string{"c1"}},
		{"line after", "d.tex", q + " \\cite{a}.\n% crossmem: a c1 sha256=ff", []string{"c1"}},
		{"after comment lines", "d.tex", q + "\n% a note\n%% crossmem: a c1", []string{"c1"}},
		{"not after text", "d.tex", q + "\nMore text.\n% crossmem: a c1", []string{""}},
		{"not after a blank line", "d.tex", q + "\n\n% crossmem: a c1", []string{""}},
		{"line before", "d.tex", "% crossmem: a c1 sha256=ff\n\\begin{quote}\nWords.\n\\end{quote}", []string{"c1"}},
		{"inside the environment, before", "d.tex", "\\begin{quote} % crossmem: a c1\nWords.\n\\end{quote}", []string{"c1"}},
		{"inside the environment, after", "d.tex", "\\begin{quote}\nWords. % crossmem: a c1\n\\end{quote}", []string{"c1"}},
		{"two lines before is too far", "d.tex", "% crossmem: a c1\n\n" + q, []string{""}},
		{"after wins over before", "d.tex", q + "\n% crossmem: a c1\n" + q + "\n% crossmem: b c2", []string{"c1", "c2"}},
		{"between: the one before takes it", "d.tex", q + "\n% crossmem: a c1\n" + q, []string{"c1", ""}},
		{"the nearer quotation on the line", "d.tex", q + " " + q + " % crossmem: a c1", []string{"", "c1"}},
		{"not a provenance comment", "d.tex", q + " % crossmem: onlykey", []string{""}},
		{"markdown HTML comment after", "d.md", "> Words.\n<!-- crossmem: a c1 sha256=ff -->", []string{"c1"}},
		{"markdown HTML comment before", "d.md", "<!-- crossmem: a c1 -->\n> Words.", []string{"c1"}},
		{"markdown same line", "d.md", "\"" + long + "\" [@a] <!-- crossmem: a c1 -->", []string{"c1"}},
		{"markdown percent line", "d.md", "> Words.\n% crossmem: a c1 sha256:ab", []string{"c1"}},
		{"markdown in a blockquote line", "d.md", "> Words. <!-- crossmem: a c1 -->", []string{"c1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Scan(tt.file, []byte(tt.in))
			var got []string
			for i := range d.Quotations {
				p, ok := d.ProvenanceFor(i)
				if ok != (p.ChunkID != "") {
					t.Errorf("ProvenanceFor(%d) = %+v, %v", i, p, ok)
				}
				got = append(got, p.ChunkID)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ProvenanceFor for %q (-want +got):\n%s", tt.in, diff)
			}
			checkQuotations(t, tt.in, d)
		})
	}
}

func TestParseProvenance(t *testing.T) {
	d := Scan("d.tex", []byte("% crossmem: vaswani2017attention p4s32c1 sha256=5f3e extra\n%%crossmem: k c other sha256:ab\n% crossmem:\n% not crossmem: a b\n"))
	want := []Provenance{
		{Key: "vaswani2017attention", ChunkID: "p4s32c1", SHA256: "5f3e", Offset: 0, End: 58, Line: 1},
		{Key: "k", ChunkID: "c", SHA256: "ab", Offset: 59, End: 90, Line: 2},
	}
	if diff := cmp.Diff(want, d.Provenance); diff != "" {
		t.Errorf("Provenance (-want +got):\n%s", diff)
	}
}

// TestQuoteDrafts reads the realistic drafts in testdata.
func TestQuoteDrafts(t *testing.T) {
	type row struct {
		Kind  QuoteKind
		Text  string
		Line  int
		Keys  []string
		Chunk string
	}
	tests := []struct {
		file string
		want []row
	}{
		{"testdata/quotes.tex", []row{
			{LaTeXQuotes, "the Transformer allows for significantly more parallelization and can reach a new state of the art", 12, []string{"vaswani2017attention"}, "p2s1c3"},
			{Enquote, "conceptually simple and empirically powerful", 16, []string{"devlin2019bert"}, ""},
			{QuoteEnvironment, "Retrieval-augmented agents answer questions about the scientific literature with fewer hallucinations than Café-style chatbots.", 21, []string{"lala2023paperqa"}, "p1s2c1"},
			{QuoteEnvironment, "Chemistry tools […] extend what a model can do [in the lab].", 26, []string{"bran2024augmenting"}, "p12s1c2"},
			{QuoteEnvironment, "A machine can be said to think if its answers cannot be told from a person's.", 31, []string{"turing1950computing"}, ""},
			{TextQuote, "Science is what we understand well enough to explain to a computer.", 43, []string{"knuth1984texbook"}, ""},
		}},
		{"testdata/quotes.md", []row{
			{DoubleQuotes, "the Transformer allows for significantly more parallelization and can reach a new state of the art", 9, []string{"vaswani2017attention"}, "p2s1c3"},
			{DoubleQuotes, "conceptually simple and empirically powerful", 13, []string{"devlin2019bert"}, ""},
			{Blockquote, "Retrieval-augmented agents answer questions about the scientific literature with fewer hallucinations than chatbots [...] *today*.", 17, []string{"lala2023paperqa"}, "p1s2c1"},
			{Blockquote, "A machine can be said to think if its answers cannot be told from a person’s.", 21, []string{"turing1950computing"}, ""},
		}},
		{"testdata/paper.tex", nil},
		{"testdata/paper.md", nil},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(tt.file)
			if err != nil {
				t.Fatal(err)
			}
			d := Scan(tt.file, data)
			var got []row
			for i, q := range d.Quotations {
				p, _ := d.ProvenanceFor(i)
				got = append(got, row{q.Kind, q.Text, q.Line, d.CitedKeys(i), p.ChunkID})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			checkQuotations(t, string(data), d)
		})
	}
}
