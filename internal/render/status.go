package render

import (
	"fmt"
	"strings"

	"github.com/crossmem/crossmem/internal/status"
)

// StatusFinding is one finding of `crossmem status --json`: the finding
// and its words.
type StatusFinding struct {
	status.Finding
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
}

// StatusOutput is the JSON shape of `crossmem status --json`.
type StatusOutput struct {
	*status.Report
	Findings []StatusFinding `json:"findings"` // never null
}

// Status returns the JSON shape of r, each finding worded.
func Status(r *status.Report) StatusOutput {
	out := StatusOutput{Report: r, Findings: []StatusFinding{}}
	for _, f := range r.Findings {
		out.Findings = append(out.Findings, StatusFinding{Finding: f, Message: finding(f), Hint: Hint(f.Hint)})
	}
	return out
}

// finding words one finding.
func finding(f status.Finding) string {
	keys := keyList(f.Keys)
	switch f.Kind {
	case status.MissingHome:
		return "the library folder does not exist"
	case status.Unreadable:
		return fmt.Sprintf("%d sidecar(s) cannot be read: %s", f.Count, f.Detail)
	case status.Drift:
		return fmt.Sprintf("%d chunk(s) edited by hand in the notes of %s: their text no longer matches its text_sha256, so they are not served", f.Count, keys)
	case status.MissingPDF:
		return fmt.Sprintf("the raw PDF of %s is missing", keys)
	case status.IndexDamaged:
		return "the search index is damaged: " + f.Detail
	case status.IndexStale:
		return fmt.Sprintf("%d note(s) changed since the search index read them", f.Count)
	case status.NotCompiled:
		return fmt.Sprintf("%d paper(s) captured but not compiled: %s", f.Count, keys)
	case status.Pending:
		return fmt.Sprintf("%d paper(s) with metadata lookups that failed (offline?): %s", f.Count, keys)
	case status.Warnings:
		return fmt.Sprintf("%d paper(s) with metadata warnings: %s", f.Count, keys)
	case status.LLMDown:
		return "the language model server does not answer (crossmem enrich and compile --llm need it; nothing else does): " + f.Detail
	case status.Trash:
		return fmt.Sprintf("%d removed paper(s) in the trash: %s", f.Count, keys)
	}
	return f.Kind
}

// keyList lists up to 8 keys, then "and N more".
func keyList(keys []string) string {
	if len(keys) <= 8 {
		return strings.Join(keys, ", ")
	}
	return strings.Join(keys[:8], ", ") + fmt.Sprintf(" and %d more", len(keys)-8)
}

// StatusText renders a status for people: the library and its counts,
// then each finding (errors first) with what to do.
func StatusText(o StatusOutput) string {
	var b strings.Builder
	r := o.Report
	fmt.Fprintf(&b, "library: %s\n", r.Home)
	if r.Exists {
		fmt.Fprintf(&b, "papers: %d (%d compiled, %d captured, %d metadata only)\n", r.Papers, r.Compiled, r.Captured, r.MetadataOnly)
		fmt.Fprintf(&b, "chunks served: %d", r.Chunks)
		if r.Edited > 0 {
			fmt.Fprintf(&b, " (%d edited by hand, withheld)", r.Edited)
		}
		b.WriteString("\n")
		if r.LLM != "" {
			state := "answers"
			if !r.LLMOK {
				state = "not answering"
			}
			fmt.Fprintf(&b, "language model: %s: %s\n", r.LLM, state)
		}
	}
	if len(o.Findings) == 0 {
		b.WriteString("\nNothing to do.\n")
		return b.String()
	}
	b.WriteString("\n")
	for _, f := range o.Findings {
		mark := "todo"
		switch {
		case f.Error:
			mark = "error"
		case f.Kind == status.Trash:
			mark = "note"
		}
		fmt.Fprintf(&b, "%s: %s\n", mark, f.Message)
		if f.Hint != "" {
			fmt.Fprintf(&b, "  hint: %s\n", f.Hint)
		}
	}
	return b.String()
}
