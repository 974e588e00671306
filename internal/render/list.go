package render

import (
	"fmt"
	"strings"

	"github.com/crossmem/crossmem/internal/catalog"
)

// List renders a listing: a count line, then one line per paper (cite
// key, year, authors, title) with its state, chunks and the number of its
// warnings. With warnings (list --warnings, which asks for papers with
// warnings in order to read them) each warning follows on its own
// "  warning: …" line.
func List(r *catalog.Result, warnings bool) string {
	if r.Total == 0 {
		return "No papers match."
	}
	var b strings.Builder
	if len(r.Papers) < r.Total {
		fmt.Fprintf(&b, "%d papers (the first %d shown)\n", r.Total, len(r.Papers))
	} else {
		fmt.Fprintf(&b, "%d paper(s)\n", r.Total)
	}
	for _, p := range r.Papers {
		year := "----"
		if p.Year != 0 {
			year = fmt.Sprint(p.Year)
		}
		title := TitleOrNone(p.Title)
		fmt.Fprintf(&b, "\n%s  %s  %s — %s\n", p.CiteKey, year, authorList(p.Authors), title)
		state := p.State
		if p.State == catalog.Compiled {
			state += fmt.Sprintf(", %d chunks", p.Chunks)
		}
		if p.Edited > 0 {
			state += fmt.Sprintf(", %d edited by hand (not served)", p.Edited)
		}
		if n := len(p.Warnings); n > 0 {
			state += fmt.Sprintf(", %d metadata warning(s)", n)
		}
		if len(p.Aliases) > 0 {
			state += ", also " + strings.Join(p.Aliases, ", ")
		}
		fmt.Fprintf(&b, "  %s\n", state)
		if warnings {
			for _, w := range p.Warnings {
				fmt.Fprintf(&b, "  warning: %s\n", w)
			}
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// authorList is "A", "A and B", or "A et al." from display names.
func authorList(authors []string) string {
	switch len(authors) {
	case 0:
		return "(no authors)"
	case 1:
		return authors[0]
	case 2:
		return authors[0] + " and " + authors[1]
	}
	return authors[0] + " et al."
}

// LibraryInfo is what the MCP server says about the library it serves.
type LibraryInfo struct {
	Home string
	// Missing is true when the folder does not exist.
	Missing bool
	// Papers is the number of papers; Compiled those with a note; Chunks
	// the chunks served; Edited those withheld.
	Papers, Compiled, Chunks, Edited int
}

// Instructions are the MCP server's instructions to the agent: the
// library it serves and its state, and how to use the tools so that no
// quotation or citation is invented.
func Instructions(l LibraryInfo) string {
	var b strings.Builder
	switch {
	case l.Missing:
		fmt.Fprintf(&b, "crossmem serves the research library at %s, which DOES NOT EXIST: there are no papers, and every tool answers with an error. "+
			"Tell the user to check CROSSMEM_HOME (or home in ~/.crossmem/config.toml).", l.Home)
		return b.String()
	case l.Papers == 0:
		fmt.Fprintf(&b, "crossmem serves the research library at %s, which is EMPTY: no papers have been captured yet (crossmem capture <pdf|doi|arXiv id>, then crossmem compile <cite_key>). Nothing can be cited or quoted from it yet.", l.Home)
		return b.String()
	}
	fmt.Fprintf(&b, "crossmem serves the research library at %s: %d paper(s), %d compiled into %d verbatim chunks", l.Home, l.Papers, l.Compiled, l.Chunks)
	if l.Edited > 0 {
		fmt.Fprintf(&b, " (%d chunk(s) edited by hand are withheld)", l.Edited)
	}
	b.WriteString(".\n")
	b.WriteString(`Use it so that no citation or quotation is invented:
- Find passages with crossmem_recall; read a chunk's (or a page's, or a section's) full verbatim text with crossmem_read, and quote only text it returns.
- Check every quotation with crossmem_verify_quote (with its cite_key and page) or a whole draft with crossmem_check_draft before you use it; use the returned text of a repaired one.
- Cite only keys crossmem_list or crossmem_cite know; crossmem_cite gives the reference in any style.
- Text edited by hand in a note is never served as a source; paraphrases marked advisory are model-written and never quotable.`)
	return b.String()
}

// TitleOrNone is a paper's title for display, "(no title)" for a paper
// that gives none (a PDF whose first page prints no title and whose
// metadata names none): its cite key is never shown in a title's place.
func TitleOrNone(title string) string {
	if strings.TrimSpace(title) == "" {
		return "(no title)"
	}
	return title
}
