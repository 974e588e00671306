package bibtex

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Entry
	}{
		{
			name: "braces, quotes, numbers, order and lines",
			in: "@Article{Key:2020-a,\n" +
				"  TITLE = {A {Nested {Deep}} Title},\n" +
				"  author = \"Doe, J{\\\"o}hn and {Acme \"Quoted\" Inc.}\",\n" +
				"  year = 2020,\n" +
				"}\n",
			want: []Entry{{Type: "article", Key: "Key:2020-a", Line: 1, Fields: []Field{
				{Name: "title", Value: "A {Nested {Deep}} Title", Line: 2},
				{Name: "author", Value: "Doe, J{\\\"o}hn and {Acme \"Quoted\" Inc.}", Line: 3},
				{Name: "year", Value: "2020", Line: 4},
			}}},
		},
		{
			name: "@string, # and predefined months",
			in: "@string{ acm = {ACM} }\n" +
				"@STRING(proc = \"Proc. of \" # acm)\n" +
				"@inproceedings{a, booktitle = proc # { Conf.}, month = jun, publisher = ACM}\n",
			want: []Entry{{Type: "inproceedings", Key: "a", Line: 3, Fields: []Field{
				{Name: "booktitle", Value: "Proc. of ACM Conf.", Line: 3},
				{Name: "month", Value: "June", Line: 3},
				{Name: "publisher", Value: "ACM", Line: 3},
			}}},
		},
		{
			name: "parentheses, no trailing comma, key only",
			in:   "@misc(b, title = {T})\n@misc{c}\n",
			want: []Entry{
				{Type: "misc", Key: "b", Line: 1, Fields: []Field{{Name: "title", Value: "T", Line: 1}}},
				{Type: "misc", Key: "c", Line: 2},
			},
		},
		{
			name: "comments, preamble and text outside entries",
			in: "% Encoding: UTF-8\n" +
				"Some notes by ada@example.org, ignored.\n" +
				"@preamble{ \"\\newcommand{\\noop}[1]{}\" }\n" +
				"@comment{ @article{old, title = {ignored}} }\n" +
				"% @article{commented, title = {also ignored}}\n" +
				"@book{d,\n" +
				"  % title = {not this one},\n" +
				"  title = {This one}, % trailing comment\n" +
				"}\n" +
				"@Comment{jabref-meta: databaseType:bibtex;}\n",
			want: []Entry{{Type: "book", Key: "d", Line: 6, Fields: []Field{{Name: "title", Value: "This one", Line: 8}}}},
		},
		{
			name: "byte-order mark, CRLF, spaces after @, unicode key",
			in:   "\xef\xbb\xbf@ article {Müller2020,\r\n  title = {Ü},\r\n}\r\n",
			want: []Entry{{Type: "article", Key: "Müller2020", Line: 1, Fields: []Field{{Name: "title", Value: "Ü", Line: 2}}}},
		},
		{
			name: "quoted value with braces and escaped brace pairs",
			in:   "@misc{e, title = \"{\\\"U}ber \\{x\\} {\"}\"}",
			want: []Entry{{Type: "misc", Key: "e", Line: 1, Fields: []Field{{Name: "title", Value: "{\\\"U}ber \\{x\\} {\"}", Line: 1}}}},
		},
		{
			name: "duplicate fields are kept",
			in:   "@misc{f, year = 2001, year = 2002}",
			want: []Entry{{Type: "misc", Key: "f", Line: 1, Fields: []Field{{Name: "year", Value: "2001", Line: 1}, {Name: "year", Value: "2002", Line: 1}}}},
		},
		{
			name: "empty file",
			in:   "",
			want: nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.in))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parse (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEntryGet(t *testing.T) {
	e := Entry{Fields: []Field{{Name: "title", Value: "A"}, {Name: "title", Value: "B"}, {Name: "note", Value: ""}}}
	if got := e.Get("TITLE"); got != "A" {
		t.Errorf("Get(TITLE) = %q, want A", got)
	}
	if v, ok := e.Lookup("note"); !ok || v != "" {
		t.Errorf("Lookup(note) = %q, %v; want \"\", true", v, ok)
	}
	if _, ok := e.Lookup("year"); ok {
		t.Error("Lookup(year) found a field that is not there")
	}
}

// TestParseErrors checks that each kind of malformed input is reported
// with its exact line and reason, and that nothing is returned.
func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string // one per reported error, in order
	}{
		{
			name: "unclosed brace runs into the next entry",
			in:   "@article{a,\n  title = {Foo,\n  year = 2020\n}\n\n@article{b, title = {B}}\n@article{b2, title = }\n",
			want: []string{
				`line 1: entry "a" is not closed before the @ at line 6; add the missing }`,
				`line 7: field "title" has no value: expected {text}, "text", a number or a @string name, found '}'`,
			},
		},
		{
			name: "value never closed at end of file",
			in:   "@article{a,\n  title = {Foo\n",
			want: []string{`line 2: the value of field "title" is never closed: the file ends inside it; add the missing }`},
		},
		{
			name: "value runs into a new entry",
			in:   "@article{a,\n  title = {Foo,\n  year = 2020,\n\n@book{b, title = {B}}\n",
			want: []string{`line 2: the value of field "title" is not closed before the entry at line 5: a closing } is probably missing`},
		},
		{
			name: "quoted value runs into a new entry",
			in:   "@article{a,\n  title = \"Foo,\n\n@book{b, title = {B}}\n",
			want: []string{`line 2: the value of field "title" is not closed before the entry at line 4: a closing " is probably missing`},
		},
		{
			name: "quoted value not closed before the entry's }",
			in:   "@article{a,\n  title = \"Foo,\n}\n@book{b, title = {B}}\n",
			want: []string{`line 3: in field "title": this } has no matching { inside the quoted value that starts at line 2 (is its closing " missing?)`},
		},
		{
			name: "missing key",
			in:   "\n@article{\n  title = {No key},\n}\n",
			want: []string{`line 2: @article has no cite key: it starts with the field "title"; write @article{somekey, title = ...}`},
		},
		{
			name: "empty key",
			in:   "@book{, title = {No key}}\n",
			want: []string{`line 1: @book has no cite key; write @book{somekey, ...}`},
		},
		{
			name: "key with a space",
			in:   "@book{two words, title = {T}}\n",
			want: []string{`line 1: cite key "two" is followed by 'w': a cite key cannot contain spaces or any of , { } ( ) = " # % \, and a comma must follow it`},
		},
		{
			name: "missing comma",
			in:   "@article{a,\n  title = {T}\n  year = 2020,\n}\n",
			want: []string{`line 2: in entry "a": missing comma after the value of field "title" (before "year" at line 3)`},
		},
		{
			name: "missing equals",
			in:   "@article{a,\n  title = {T},\n  year 2020,\n}\n",
			want: []string{`line 3: in entry "a": field "year" needs = and a value`},
		},
		{
			name: "unknown macro",
			in:   "@article{a,\n  journal = jacs,\n}\n",
			want: []string{`line 2: field "journal" uses "jacs", which is not a defined @string; define it first with @string{jacs = {...}} or put the value in braces: {jacs}`},
		},
		{
			name: "macro defined after use",
			in:   "@article{a, journal = j}\n@string{j = {J}}\n",
			want: []string{`line 1: field "journal" uses "j", which is not a defined @string; define it first with @string{j = {...}} or put the value in braces: {j}`},
		},
		{
			name: "duplicate key",
			in:   "@article{a, title = {1}}\n\n@book{a, title = {2}}\n",
			want: []string{`line 3: duplicate cite key "a" (first used at line 1); rename or delete one of the two entries`},
		},
		{
			name: "entry not closed at end of file",
			in:   "@article{a,\n  title = {T},\n",
			want: []string{`line 1: entry "a" is not closed: the file ends inside it; add the missing }`},
		},
		{
			name: "stray closing brace in a quoted value",
			in:   "@article{a,\n  title = \"T}\",\n}\n",
			want: []string{`line 2: in field "title": this } has no matching { inside the quoted value that starts at line 2 (is its closing " missing?)`},
		},
		{
			name: "unbraced accent in a quoted value",
			in:   "@article{a,\n  author = \"M\\\"uller, J.\",\n}\n",
			want: []string{`line 2: in field "author": the \" accent ends the quoted value; write it in braces, like {\"u}`},
		},
		{
			name: "no delimiter after the type",
			in:   "@article a, title = {T}}\n",
			want: []string{`line 1: @article must be followed by { or (`},
		},
		{
			name: "@ alone",
			in:   "text\n@ {a}\n",
			want: []string{`line 2: @ must be followed by an entry type such as article (write \@ or put the text in a field to keep a literal @)`},
		},
		{
			name: "unclosed comment",
			in:   "@comment{ never closed\n@article{a, title={T}}\n",
			want: []string{`line 1: @comment is never closed: its { has no matching }`},
		},
		{
			name: "bad @string",
			in:   "@string{ = {x}}\n@string{y {x}}\n@string{z = {x}\n",
			want: []string{
				`line 1: @string needs a name: @string{name = {text}}`,
				`line 2: @string{y ...} needs = and a value`,
				`line 3: @string is not closed: the file ends inside it; add the missing }`,
			},
		},
		{
			name: "garbage after a value",
			in:   "@article{a, title = {T} ; year = 1}\n",
			want: []string{`line 1: in entry "a": unexpected ';' after the value of field "title"; expected , or }`},
		},
		{
			name: "not UTF-8",
			in:   "@article{a,\n  title = {Caf\xe9},\n}\n",
			want: []string{`line 2: the file is not UTF-8 (byte 0xE9); convert it to UTF-8 (for example: iconv -f latin1 -t utf-8 refs.bib) and import it again`},
		},
		{
			name: "several errors, good entries in between",
			in:   "@article{a, title = {T}\n@book{ok, title = {fine}}\n@misc{b title = {T}}\n",
			want: []string{
				`line 1: entry "a" is not closed before the @ at line 2; add the missing }`,
				`line 3: cite key "b" is followed by 't': a cite key cannot contain spaces or any of , { } ( ) = " # % \, and a comma must follow it`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			entries, err := Parse([]byte(tt.in))
			if err == nil {
				t.Fatalf("Parse succeeded with %d entries; want errors %q", len(entries), tt.want)
			}
			if entries != nil {
				t.Errorf("Parse returned %d entries with an error; want none", len(entries))
			}
			got := strings.Split(err.Error(), "\n")
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			var se *SyntaxError
			if !errors.As(err, &se) || se.Line == 0 {
				t.Errorf("error %v carries no *SyntaxError with a line", err)
			}
			if _, _, err := Items([]byte(tt.in)); err == nil {
				t.Error("Items succeeded where Parse failed")
			}
		})
	}
}

func TestParseErrorLimit(t *testing.T) {
	in := strings.Repeat("@article{a b}\n", 30)
	_, err := Parse([]byte(in))
	if err == nil {
		t.Fatal("no error")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != maxErrors+1 || !strings.Contains(lines[maxErrors], "more errors may follow") {
		t.Errorf("got %d error lines, want %d and a last line saying more may follow:\n%s", len(lines), maxErrors+1, err)
	}
}

// TestStringExpansionLimits: @string macros that double each other fail
// with a line-numbered error naming the limit instead of running out of
// memory (issue 11: 816 bytes exhausted memory, 641 bytes wrote 50 MB).
func TestStringExpansionLimits(t *testing.T) {
	var b strings.Builder
	b.WriteString("@string{a0 = {xxxxxxxxxxxxxxxx}}\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "@string{a%d = a%d # a%d}\n", i, i-1, i-1)
	}
	b.WriteString("@misc{k, title = a40}\n")
	_, err := Parse([]byte(b.String()))
	var se *SyntaxError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "256 KiB") {
		t.Fatalf("doubling macros: want a SyntaxError naming the 256 KiB limit, got %v", err)
	}
	// Many values under the per-value limit add up past the file limit.
	b.Reset()
	fmt.Fprintf(&b, "@string{big = {%s}}\n", strings.Repeat("y", 200<<10))
	for i := range 100 {
		fmt.Fprintf(&b, "@misc{k%d, title = big # { }}\n", i)
	}
	if _, err := Parse([]byte(b.String())); err == nil || !strings.Contains(err.Error(), "16 MiB") {
		t.Fatalf("many large values: want the 16 MiB limit, got %v", err)
	}
}
