package citation

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/csl"
)

// toolItems are the golden items (the 36 GROUNDTRUTH works and
// testdata/extra.csl.json) and a few made to stress escaping: every LaTeX
// special character, braces, a name holding "and" and a comma, particles,
// suffixes, Unicode in every part.
func toolItems(t *testing.T) []csl.Item {
	t.Helper()
	items := goldenItems(t)
	date := &csl.Date{DateParts: [][]csl.Number{{"2021", "11", "5"}}}
	return append(items,
		csl.Item{
			ID: "specials", Type: "article-journal", Issued: date,
			Title:          `50% of R&D: $5 #1 in_situ {x} ~ ^ \ "quoted" <i>CO</i><sub>2</sub> – ‘a’ “b” … naïve Ærø Łódź δ-Scorpii 宮地`,
			Author:         []csl.Name{{Family: "Smith and Sons", Given: "Bob"}, {Family: "Doe, Jr.", Given: "J. R. R."}, {Literal: "Ørsted & Co, A/S"}, {Family: "Gogh", Given: "Vincent", NonDroppingParticle: "van"}, {Family: "Beethoven", Given: "Ludwig", DroppingParticle: "van"}, {Family: "Müller", Given: "Jürgen", Suffix: "III"}, {Given: "Sheherazade"}},
			ContainerTitle: "J. {Weird} & Co %", Volume: "LIX", Issue: "1–2", Page: "e1_2", ISSN: "0028-0836",
			DOI: `10.1000/a{b}c\d e`, URL: "https://example.org/a b?c=1&d=%7E#frag", Note: "Note with 100% of {it}",
		},
		csl.Item{
			ID: "thesis:ma_2020", Type: "thesis", Genre: "Master's thesis", Title: "On ~tildes~", Issued: date,
			Author: []csl.Name{{Family: "Ng", Given: "A."}}, Publisher: "Universität Zürich", PublisherPlace: "Zürich",
		},
		csl.Item{
			ID: "web-2020", Type: "webpage", Title: "A page", Issued: date, URL: "https://example.org/",
			Author: []csl.Name{{Literal: "W3C"}}, ContainerTitle: "W3C site",
		},
		csl.Item{
			ID: "doc.x", Type: "", Title: "Untyped", Editor: []csl.Name{{Family: "Ed", Given: "Ed"}},
		},
	)
}

// writeBib writes every item in style (with opt) to dir/name.bib.
func writeBib(t *testing.T, dir, name string, items []csl.Item, style Style, opt Options) {
	t.Helper()
	var b strings.Builder
	for _, it := range items {
		s, err := FormatWith(it, style, opt)
		if err != nil {
			t.Fatalf("%s %s: %v", style, it.ID, err)
		}
		b.WriteString(s + "\n\n")
	}
	if err := os.WriteFile(filepath.Join(dir, name+".bib"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// bibtexContentWarning matches the warnings plain.bst gives about the
// content of an entry (a field the work does not have), which say nothing
// about the syntax.
var bibtexContentWarning = regexp.MustCompile(`^Warning--(empty |to sort, need |there's a number but no |can't use both |page numbers missing)`)

// TestBibTeXTool runs the bibtex program (TeX Live, Debian package
// texlive-base) with the standard plain.bst over the BibTeX entries of
// every tool item, with Unicode kept and escaped, and over the BibLaTeX
// entries (which bibtex must parse too), and fails on any error message
// and on any warning other than about missing content (plain.bst's
// "empty journal", and, for BibLaTeX entries only, entry types plain.bst
// does not define).
func TestBibTeXTool(t *testing.T) {
	corpustest.Slow(t, "runs bibtex")
	bibtexPath, err := exec.LookPath("bibtex")
	if err != nil {
		t.Skip("bibtex is not installed (Debian: apt-get install texlive-base); .ci/run installs it")
	}
	if out, err := exec.Command("kpsewhich", "plain.bst").Output(); err != nil || len(bytes.TrimSpace(out)) == 0 {
		t.Skip("plain.bst not found by kpsewhich (Debian: apt-get install texlive-base); .ci/run installs it")
	}
	items := toolItems(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		name     string
		style    Style
		opt      Options
		biblatex bool
	}{
		{"bibtex", BibTeX, Options{}, false},
		{"bibtexlatex", BibTeX, Options{Unicode: UnicodeLaTeX}, false},
		{"biblatex", BibLaTeX, Options{}, true},
		{"biblatexlatex", BibLaTeX, Options{Unicode: UnicodeLaTeX}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			writeBib(t, dir, tc.name, items, tc.style, tc.opt)
			aux := "\\relax\n\\citation{*}\n\\bibstyle{plain}\n\\bibdata{" + tc.name + "}\n"
			if err := os.WriteFile(filepath.Join(dir, tc.name+".aux"), []byte(aux), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, bibtexPath, "-terse", tc.name)
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			blg, _ := os.ReadFile(filepath.Join(dir, tc.name+".blg"))
			if strings.Contains(string(blg), "error message") || (err != nil && cmd.ProcessState.ExitCode() > 1) {
				t.Fatalf("bibtex reports errors (%v):\n%s", err, blg)
			}
			var bad []string
			for _, line := range strings.Split(string(out), "\n") {
				switch {
				case !strings.HasPrefix(line, "Warning--"):
				case bibtexContentWarning.MatchString(line):
				case tc.biblatex && strings.HasPrefix(line, "Warning--entry type for"):
				default:
					bad = append(bad, line)
				}
			}
			if len(bad) > 0 {
				t.Errorf("bibtex warnings about the entries:\n%s\n\nfull log:\n%s", strings.Join(bad, "\n"), blg)
			}
			bbl, err := os.ReadFile(filepath.Join(dir, tc.name+".bbl"))
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(bbl), `\bibitem`); n != len(items) {
				t.Errorf("bibtex wrote %d bibliography items for %d entries", n, len(items))
			}
		})
	}
}

// biberDataWarning matches the warnings biber's data-model validation
// gives about the work's data rather than the entry's form: a mandatory
// field the work does not have (an article without author), a volume that
// is not an integer (Mind's volume "LIX"), an ISBN or ISSN whose check
// digit is wrong.
var biberDataWarning = regexp.MustCompile(`Missing mandatory field|Invalid value of field 'volume' must be datatype 'integer'|ISBN '[^']*' in entry '[^']*' is invalid|Invalid ISSN in value of field 'issn'`)

// TestBiberTool runs biber in tool mode with data-model validation
// (Debian package biber) over the BibLaTeX entries of every tool item,
// with Unicode kept and escaped, and fails on any error and on any warning
// other than about missing or non-integer data: a syntax error, an
// undefined macro, an invalid entry type or field for biblatex's data
// model, an unparsable date or name.
func TestBiberTool(t *testing.T) {
	corpustest.Slow(t, "runs biber")
	biber, err := exec.LookPath("biber")
	if err != nil {
		t.Skip("biber is not installed (Debian: apt-get install biber); .ci/run installs it")
	}
	// One biber run (its start-up is most of the time) over the entries
	// with Unicode kept and, under keys prefixed "latex:", escaped.
	items := toolItems(t)
	dir := t.TempDir()
	var b strings.Builder
	for _, opt := range []Options{{}, {Unicode: UnicodeLaTeX}} {
		for _, it := range items {
			if opt.Unicode == UnicodeLaTeX {
				it.ID = "latex:" + it.ID
			}
			s, err := FormatWith(it, BibLaTeX, opt)
			if err != nil {
				t.Fatalf("%s: %v", it.ID, err)
			}
			b.WriteString(s + "\n\n")
		}
	}
	bib := filepath.Join(dir, "biblatex.bib")
	if err := os.WriteFile(bib, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, biber, "--tool", "--validate-datamodel", "--nolog", "--output-directory", dir, bib)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("biber failed: %v\n%s", err, out)
	}
	var bad []string
	for _, line := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(line, "ERROR"):
			bad = append(bad, line)
		case strings.HasPrefix(line, "WARN") && !biberDataWarning.MatchString(line):
			bad = append(bad, line)
		}
	}
	if len(bad) > 0 {
		t.Errorf("biber reports:\n%s", strings.Join(bad, "\n"))
	}
	// Every entry must come through (biber skips an entry it cannot parse).
	tool, err := os.ReadFile(filepath.Join(dir, "biblatex_bibertool.bib"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count("\n"+string(tool), "\n@"); n != 2*len(items) {
		t.Errorf("biber wrote %d entries for %d", n, 2*len(items))
	}
}
