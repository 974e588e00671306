package cli_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/cli"
	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/golden"
	"github.com/crossmem/crossmem/internal/pdf/pdftest"
)

// messageStep is one command of the messages scenario: crossmem with args
// (split on spaces), or a change to the library made by hand (do).
type messageStep struct {
	args string
	do   func(t *testing.T, work string)
	// offline points every metadata source at a port nothing listens on.
	offline bool
}

// TestMessages runs a scenario that reaches every verb's main outputs,
// notices, warnings, hints and errors, and compares the transcript (each
// command with its exit code, stdout and stderr) with
// testdata/messages.golden. It is the record of what crossmem says: a
// change of wording shows up as a diff of that file (go test
// ./internal/cli -run TestMessages -update rewrites it).
func TestMessages(t *testing.T) {
	// Not parallel: it changes the working directory.
	pdfDir := corpustest.Dir(t, "pdf")
	warmPDFium(t)
	api := apiEnv(t)
	work := t.TempDir()
	for dst, src := range scriptPDFs {
		data, err := os.ReadFile(filepath.Join(pdfDir, src))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(work, dst), string(data))
	}
	for name, text := range messageFiles {
		writeFile(t, filepath.Join(work, name), text)
	}
	for dst, src := range map[string]string{"stamped.pdf": "gr_1001._0908.0054.pdf", "batch/a.pdf": "gr_sample1.pdf", "batch/more/b.PDF": "ol_math_2503_04086.pdf"} {
		data, err := os.ReadFile(filepath.Join(pdfDir, src))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(filepath.Join(work, dst)), 0o755)
		writeFile(t, filepath.Join(work, dst), string(data))
	}
	// A file named .pdf that is not one fails in a batch without stopping it.
	writeFile(t, filepath.Join(work, "batch", "more", "notes.pdf"), "not a PDF\n")
	// A first page printing a recorded work's title, authors and DOI.
	writeFile(t, filepath.Join(work, "bran.pdf"), string(pdftest.FrontPage{
		Title:   []string{"Augmenting large language models with", "chemistry tools"},
		Authors: []string{"Andres M. Bran, Sam Cox, Oliver Schilter, Carlo Baldassari"},
		Small:   []string{"Laboratory of Artificial Chemical Intelligence, EPFL, Lausanne", "Nature Machine Intelligence, 2024, 6:525-535", "doi: 10.1038/s42256-024-00832-8"},
		Body:    pdftest.Prose(12),
	}.PDF()))
	cache := filepath.Join(work, "cache")
	if err := os.MkdirAll(cache, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(wazeroDir, filepath.Join(cache, "wazero")); err != nil {
		t.Fatal(err)
	}
	dead, err := unusedAddr()
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"CROSSMEM_HOME":   filepath.Join(work, "home"),
		"CROSSMEM_CONFIG": filepath.Join(work, "config.toml"),
		"CROSSMEM_CACHE":  cache,
		"OLLAMA_HOST":     "http://" + dead,
	}
	for k, v := range api {
		env[k] = v
	}
	goldenFile, err := filepath.Abs(filepath.Join("testdata", "messages.golden"))
	if err != nil {
		t.Fatal(err)
	}
	// Commands name files relative to work; cli.Main reads them from the
	// process's working directory.
	t.Chdir(work)

	var transcript strings.Builder
	for _, s := range messageSteps {
		if s.do != nil {
			s.do(t, work)
			continue
		}
		var out, errOut bytes.Buffer
		getenv := func(k string) string { return env[k] }
		if s.offline {
			getenv = func(k string) string {
				if strings.HasSuffix(k, "_API") && strings.HasPrefix(k, "CROSSMEM_") {
					return "http://" + dead
				}
				return env[k]
			}
		}
		code := cli.Main(t.Context(), strings.Fields(s.args), cli.IO{
			In: strings.NewReader(""), Out: &out, Err: &errOut,
			Getenv: getenv,
		}, cli.Servers{})
		fmt.Fprintf(&transcript, "$ crossmem %s\n[exit %d]\n", s.args, code)
		if out.Len() > 0 {
			fmt.Fprintf(&transcript, "--- stdout\n%s", ensureNewline(out.String()))
		}
		if errOut.Len() > 0 {
			fmt.Fprintf(&transcript, "--- stderr\n%s", ensureNewline(errOut.String()))
		}
		transcript.WriteString("\n")
	}
	golden.Check(t, goldenFile, normalizeTranscript(transcript.String(), work, strings.TrimSuffix(api["CROSSMEM_ARXIV_PDF"], "/pdf")))
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func ensureNewline(s string) string {
	if strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}

var (
	stampRE   = regexp.MustCompile(`\b1\d{9}_`)
	secondsRE = regexp.MustCompile(`\(\d+\.\d s\)`)
	jsonSecRE = regexp.MustCompile(`"(seconds|captured_at|refreshed_at|removed_at)": "?[0-9.T:Z+-]+"?`)
	hostRE    = regexp.MustCompile(`127\.0\.0\.1:\d+`)
	dateRE    = regexp.MustCompile(`\d{4}-\d\d-\d\d \d\d:\d\d UTC`)
)

// normalizeTranscript replaces what differs between runs: the work folder,
// capture times in file names, durations and the fake API's address.
func normalizeTranscript(s, work, api string) string {
	s = strings.ReplaceAll(s, work, "$WORK")
	s = strings.ReplaceAll(s, api, "$API")
	s = stampRE.ReplaceAllString(s, "<ts>_")
	s = secondsRE.ReplaceAllString(s, "(N s)")
	s = jsonSecRE.ReplaceAllString(s, `"$1": N`)
	s = hostRE.ReplaceAllString(s, "127.0.0.1:PORT")
	s = dateRE.ReplaceAllString(s, "<date>")
	return s
}

// editNote changes one word of the first long blockquote line of key's
// note, as a careless hand edit would.
func editNote(key string) func(t *testing.T, work string) {
	return func(t *testing.T, work string) {
		t.Helper()
		m, _ := filepath.Glob(filepath.Join(work, "home", "wiki", "*_"+key+".md"))
		if len(m) != 1 {
			t.Fatalf("notes of %s: %v", key, m)
		}
		data, err := os.ReadFile(m[0])
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		for i, l := range lines {
			if w := strings.Fields(l); len(w) > 4 && w[0] == ">" {
				w[2] = "EDITED"
				lines[i] = strings.Join(w, " ")
				break
			}
		}
		writeFile(t, m[0], strings.Join(lines, "\n"))
	}
}

// swapPDF replaces key's raw PDF with another file, or restores it from
// the copy swapPDF kept.
func swapPDF(key, with string) func(t *testing.T, work string) {
	return func(t *testing.T, work string) {
		t.Helper()
		m, _ := filepath.Glob(filepath.Join(work, "home", "raw", "*_"+key+".pdf"))
		if len(m) != 1 {
			t.Fatalf("PDFs of %s: %v", key, m)
		}
		keep := filepath.Join(work, key+".orig.pdf")
		if with == "" {
			with = keep
		} else if err := os.Rename(m[0], keep); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(work, with))
		if err != nil {
			data, err = os.ReadFile(with)
		}
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, m[0], string(data))
	}
}

var messageSteps = []messageStep{
	// Help of every verb.
	{args: "--help"},
	{args: "capture --help"},
	{args: "compile --help"},
	{args: "enrich --help"},
	{args: "refresh --help"},
	{args: "verify --help"},
	{args: "search --help"},
	{args: "index --help"},
	{args: "cite --help"},
	{args: "import --help"},
	{args: "rekey --help"},
	{args: "bib --help"},
	{args: "check --help"},
	{args: "read --help"},
	{args: "list --help"},
	{args: "remove --help"},
	{args: "restore --help"},
	{args: "status --help"},
	{args: "mcp --help"},
	{args: "mcp serve --help"},

	// Usage errors.
	{args: "--bogus"},
	{args: "nosuchverb"},
	{args: "mcp bogus"},
	{args: "cite"},

	// capture: a local PDF, again, and its failures.
	{args: "capture paper.pdf"},
	{args: "capture paper.pdf"},
	{args: "capture nometa.pdf"},
	{args: "rekey nometa smith2023transport"},
	{args: "capture scan.pdf --cite-key smith2023transport"},
	{args: "capture scan.pdf --cite-key ../x"},
	{args: "capture not-a-paper"},
	{args: "capture missing.pdf"},
	{args: "capture notes.pdf"},
	{args: "capture paper.pdf --doi not-a-doi"},
	// capture: remote (the recordings), a DOI without an open-access PDF,
	// a DOI no source knows.
	{args: "capture 2104.12255v1"},
	{args: "capture 10.1016/j.tcs.2015.06.001"},
	{args: "capture 10.9999/nosuchdoi"},
	{args: "capture --json scan.pdf --cite-key ocrscan2024"},

	// compile.
	{args: "compile --no-llm shen2023summarization"},
	{args: "compile shen2023summarization"},
	{args: "compile --no-llm ocrscan2024"},
	{args: "compile nosuchkey2020"},
	// compile --llm and enrich without a model server.
	{args: "compile --llm shen2023summarization"},
	{args: "enrich shen2023summarization"},
	{args: "enrich --all"},
	{args: "enrich"},
	{args: "enrich --all shen2023summarization"},
	{args: "enrich nosuchkey2020"},

	// import, and compiling a metadata-only entry.
	{args: "import refs.json"},
	{args: "import refs.json"},
	{args: "import bad.json"},
	{args: "import conflict.json"},
	{args: "compile turing1950computing"},

	// cite.
	{args: "cite shen2023summarization --format apa"},
	{args: "cite --json shen2023summarization --format mla"},
	{args: "cite shen2023summ"},
	{args: "cite nothinglikeit"},
	{args: "cite --json nothinglikeit"},
	{args: "cite ocrscan2024"},
	{args: "cite shen2023summarization --format bad"},

	// search.
	{args: "search expository writing support"},
	{args: "search zzyzxqq"},
	{args: "search --year 2030-2020 writing"},
	{args: "search --explain --limit 2 expository writing"},

	// bib.
	{args: "bib draft.tex"},
	{args: "bib typo.tex -o partial.bib"},
	{args: "bib --json typo.tex"},
	{args: "bib missing.tex"},
	{args: "bib draft.tex --format apa"},
	{args: "bib plain.txt"},

	// check.
	{args: "check good.tex"},
	{args: "check bad.tex"},
	{args: "check --json bad.tex"},
	{args: "check plain.txt"},
	{args: "check nosuch.tex"},

	// verify: clean, drift, changed PDF, deep, unknown and uncompiled keys.
	{args: "verify"},
	{do: editNote("shen2023summarization")},
	{args: "verify"},
	{args: "verify --json shen2023summarization"},
	{args: "compile --no-llm shen2023summarization"},
	{args: "verify --deep shen2023summarization"},
	{do: swapPDF("shen2023summarization", "nometa.pdf")},
	{args: "verify shen2023summarization"},
	{args: "verify --deep --json shen2023summarization"},
	{args: "compile --no-llm shen2023summarization"},
	{do: swapPDF("shen2023summarization", "")},
	{args: "verify nosuchkey2020"},
	{args: "verify smith2023transport"},

	// rekey and aliases.
	{args: "rekey shen2023summarization shen2023beyond"},
	{args: "cite shen2023summarization --format ieee"},
	{args: "cite --json shen2023summarization --format ieee"},
	{args: "rekey nosuchkey2020 x2020"},
	{args: "rekey shen2023beyond ../x"},
	{args: "rekey shen2023beyond smith2023transport"},

	// refresh with the sources offline or not knowing the paper.
	{args: "refresh smith2023transport"},
	{args: "refresh nosuchkey2020"},

	// index.
	{args: "index"},
	{do: func(t *testing.T, work string) {
		writeFile(t, filepath.Join(work, "home", "wiki", "README.md"), "not a note\n")
	}},
	{args: "index"},

	// Identification from the PDF itself, many at once, offline.
	{args: "capture paper.pdf --cite-key another2023key"},
	{args: "capture -q stamped.pdf"},
	{args: "capture batch"},
	{args: "capture --json batch"},
	{args: "capture batch --doi 10.1038/s42256-024-00832-8"},
	{args: "capture bran.pdf", offline: true},
	{args: "refresh --pending"},
	{args: "refresh --pending"},
	{args: "refresh"},
	{args: "compile --all"},
	{args: "compile smith2023transport nosuchkey2020"},
	{args: "compile"},

	// read, list, status, remove and restore (issue 13).
	{args: "read shen2023beyond p1s1c2"},
	{args: "read shen2023beyond --page 9"},
	{args: "read shen2023beyond p9s9c9"},
	{args: "read shen2023beyond"},
	{args: "read turing1950computing --page 1"},
	{args: "read nosuchkey2020 --page 1"},
	{args: "list"},
	{args: "list --state metadata-only --json"},
	{args: "list --state lost"},
	{args: "status --no-llm"},
	{args: "status"},
	{args: "remove shen2023beyond"},
	{args: "remove nosuchkey2020"},
	{args: "restore"},
	{args: "restore shen2023beyond"},
	{args: "restore shen2023beyond"},
	{do: editNote("shen2023beyond")},
	{args: "search --limit 1 EDITED"},
	{args: "status --no-llm"},
	{args: "bib problems.tex"},
	{args: "check gate.md"},
	{args: "check --strict gate.md"},
	{args: "check paper.pdf"},
}

// messageFiles are the drafts and import files of the scenario.
var messageFiles = map[string]string{
	"notes.pdf": "These are my notes, not a PDF.\n",
	"refs.json": `[
  {"id": "turing1950computing", "type": "article-journal", "title": "Computing Machinery and Intelligence",
   "author": [{"family": "Turing", "given": "A. M."}], "container-title": "Mind", "volume": "LIX", "issue": "236",
   "page": "433-460", "issued": {"date-parts": [[1950, 10]]}, "DOI": "10.1093/mind/LIX.236.433"},
  {"id": "knuth1984texbook", "type": "book", "title": "The TeXbook", "author": [{"family": "Knuth", "given": "Donald E."}],
   "publisher": "Addison-Wesley", "publisher-place": "Reading, MA", "issued": {"date-parts": [[1984]]}}
]
`,
	"bad.json":     "[\n  {\"id\": \"x\",\n   \"title\": }\n]\n",
	"problems.tex": "\\cite{turing1950computing,knuth1984texbook} \\cite{shen2023beyond, nosuchkey2020} \\cite{ocrscan2024}\n",
	"gate.md":      "# Draft\n\n\"Large language models have introduced exciting new opportunities\" [@shen2023beyond, p. 1] and \"the\" [@shen2023beyond].\n\n\"Large language models have introduced exciting new opportunities\" [@shen2023beyond, p. 4].\n",
	"conflict.json": `[
  {"id": "knuth1984texbook", "type": "book", "title": "Another Book", "author": [{"family": "Other", "given": "A."}], "issued": {"date-parts": [[1999]]}},
  {"id": "x"}
]
`,
	"draft.tex": `\documentclass{article}
\begin{document}
As \citet{turing1950computing} asked, and as typeset by
\citep[see][p.~3]{knuth1984texbook,
  shen2023summarization}.
\end{document}
`,
	"typo.tex": `\documentclass{article}
\cite{turing1950computing}
\citep{knuth1984texbok}
\autocite{zzqqxx}
`,
	"plain.txt": "Nothing cited here, and nothing quoted.\n",
	"good.tex": `\section{Introduction}
Writing support is changing: ` + "``" + `Large language models have introduced exciting new opportunities
and challenges in designing and developing new AI-assisted writing support tools'' \citep{shen2023summarization}.
They argue that ` + "``" + `expository writing has unique and exciting research challenges'' \citep{shen2023summarization}.
`,
	"bad.tex": `\section{Introduction}
` + "``" + `Large language models have introduced boring new opportunities and challenges'' \citep{shen2023summarization}.
` + "``" + `Computing machines will one day write every literature review for us'' \citep{shen2023summarization}.
Turing wrote that ` + "``" + `expository writing has unique and exciting research challenges'' \citep{turing1950computing}.

See also \cite{shen2023summarisation}.
`,
}
