package layout

import (
	"slices"
	"strings"
	"testing"
)

// Code listings (testdata/listings.tex, typeset by pdfTeX at test time):
// two listings whose lines are numbered in a small text face, indented
// with typewriter spaces, one whose first lines fell into the paragraph
// above it (no space between, the paragraph's last line full), a query whose keywords are set apart from
// their arguments, and a listing in a frame of rules with its numbers
// outside the frame are Code blocks with every line whole and in order —
// no table, no figure; a table of typewriter cells in two groups of
// columns, and one with a typewriter column beside descriptions and
// numbers, stay tables.
func TestCodeListings(t *testing.T) {
	pages := texDocument(t, "listings.tex")
	var code [][]string
	tables := 0
	for _, p := range pages {
		for _, b := range p.Blocks {
			switch b.Kind {
			case Code:
				code = append(code, strings.Split(b.Text(), "\n"))
			case TableText:
				tables++
				text := b.Text()
				if !(strings.Contains(text, "width") && strings.Contains(text, "120")) && !(strings.Contains(text, `\dotplus`) && strings.Contains(text, `\curlywedge`)) {
					t.Errorf("table text %q, want the options' or the operators' table", text)
				}
			}
		}
	}
	want := [][]string{
		{`76 \let\thanks=\@gobble`, `77 \let\footnote=\@gobble`, `78 \begin{tabular}[t]{@{}c@{}}%`, `79 \@author`, `80 \end{tabular}%`, `81 }%`},
		{`82 \if@ieee@correct@geometry@`, `83 \vskip -\baselineskip`, `84 \vskip 24pt%`, `85 \else`, `86 \vspace*{0.5em}%`, `87 \vspace*{12pt}%`, `88 \fi`, `89 }`},
		{`90 \let\ieee@old@maketitle=\maketitle`, `91 \renewcommand{\maketitle}{%`},
		{`SELECT function_id,`, `user_name,`, `usage,`, `user_type`, `FROM function_usage`, `WHERE function_id=’QIBM_DB_SECADM’`, `ORDER BY user_name;`},
		{`92 \DeclareOption{editorial}{\let\dccp@type=\dccp@editorial%`, `93 \AtBeginDocument{% Editorials number pages in roman`, `94 \pagenumbering{roman}%`, `95 \renewcommand{\thelastpage}{\@roman\c@lastpage}%`, `96 }%`, `97 }`},
	}
	if len(code) != len(want) {
		t.Fatalf("%d code blocks, want %d: %q", len(code), len(want), code)
	}
	for i := range want {
		if !slices.Equal(code[i], want[i]) {
			t.Errorf("code block %d:\n got %q\nwant %q", i+1, code[i], want[i])
		}
	}
	for _, p := range pages {
		for _, f := range p.Floats {
			if f.Kind == Figure {
				t.Errorf("figure %v on page %d, want none (the framed listing is code)", f.Box, p.Number)
			}
		}
	}
	if tables != 2 {
		t.Errorf("%d tables, want the operators' and the options' tables", tables)
	}
}
