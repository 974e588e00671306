package render

import (
	"fmt"
	"strings"

	"github.com/crossmem/crossmem/internal/citation"
	"github.com/crossmem/crossmem/internal/cite"
)

// StyleNames lists the citation formats `crossmem cite` and crossmem_cite
// accept (citation.Styles), comma-separated.
func StyleNames() string {
	names := make([]string, 0, len(citation.Styles()))
	for _, st := range citation.Styles() {
		names = append(names, string(st))
	}
	return strings.Join(names, ", ")
}

// CiteOutput is the JSON shape of a citation: crossmem_cite's structured
// result and `crossmem cite --json`.
type CiteOutput struct {
	// Key is the key asked for; CiteKey the paper's cite key (they differ
	// when Key is an alias of the paper: crossmem rekey, imported keys).
	Key      string `json:"key"`
	CiteKey  string `json:"cite_key"`
	Format   string `json:"format"`
	Citation string `json:"citation"`
	// CitedVersion is "captured" or "published" (config [citation] version).
	CitedVersion string `json:"cited_version"`
	// Warnings are the metadata reconciliation warnings of the cited record:
	// sources that disagreed or could not be cross-checked. Never null.
	Warnings []string `json:"warnings"`
}

// Cite returns the JSON shape of c.
func Cite(c *cite.Citation) CiteOutput {
	out := CiteOutput{Key: c.Key, CiteKey: c.CiteKey, Format: string(c.Style), Citation: c.Text, CitedVersion: c.CitedVersion, Warnings: c.Warnings}
	if out.Warnings == nil {
		out.Warnings = []string{}
	}
	return out
}

// DidYouMean renders the suggestions for an unknown cite key: "Did you
// mean:" and one "- key — title" line each (the seed's form; a paper
// without a title is "- key (no title)"), or "No similar cite keys in the
// library." when there are none. Every line after the first starts with
// indent.
func DidYouMean(suggestions []cite.Suggestion, indent string) string {
	if len(suggestions) == 0 {
		return "No similar cite keys in the library."
	}
	var b strings.Builder
	b.WriteString("Did you mean:")
	for _, s := range suggestions {
		if strings.TrimSpace(s.Title) == "" {
			fmt.Fprintf(&b, "\n%s- %s (no title)", indent, s.CiteKey)
			continue
		}
		fmt.Fprintf(&b, "\n%s- %s — %s", indent, s.CiteKey, s.Title)
	}
	return b.String()
}
