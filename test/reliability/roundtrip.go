package reliability

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
)

// Hostile are strings that broke out of BibTeX fields, did not read back,
// or carried control and bidi characters into citations (issue 11).
var Hostile = []string{
	"Zed}, year = 1999, note = OOPS",
	`}\input{/etc/passwd}`,
	"Unbalanced {{{",
	"}}} closing first",
	`\{ escaped \} and \\ two`,
	`\textbf{bold} and \"a and \'e`,
	"100% of $5 & #1 _x_ ~tilde^caret",
	"@article{evil, title = {x}}",
	`"quoted" and 'single' and ` + "`back`",
	"en -- dash --- em and ``open'' quotes",
	"Smith and Jones, a,b",
	"{braced} }{ x {y} z",
	"Ünïcödé Straße — ﬁ ß ł Ø 日本語のタイトル",
	"math $\\alpha$ %comment end\\",
	"NUL\x00 BEL\x07 ESC\x1b",
	"evil\u202Egnp.exe \u2066iso\u2069 \ufeffbom",
	"-- leading dashes and !` ?`",
	"tab\there",
}

// RoundTripFigures are the export/import campaign's.
type RoundTripFigures struct {
	Entries    int      // hostile entries imported
	Formats    int      // export formats tried
	Compared   int      // entry × format comparisons
	Mismatches int      // comparisons whose fields differ
	Failures   []string // the first few differences or errors
}

// roundTripFields are the record fields (sidecar metadata JSON names) that
// must come back from an export and import as they went in.
var roundTripFields = []string{"type", "title", "author_names", "issued", "container_title", "volume", "issue", "page",
	"publisher", "doi", "url", "editor_names", "collection_title", "publisher_place", "note"}

// RoundTrip imports one CSL-JSON entry per hostile string into l (the
// string in title, authors, editors, container title, publisher, place and
// note of a conference paper or book chapter: types whose BibTeX and
// BibLaTeX entries have all these fields),
// exports every entry with `crossmem bib` as BibTeX, BibLaTeX and CSL-JSON,
// imports each export into a fresh library beside l, and compares the
// records field by field with l's.
func RoundTrip(ctx context.Context, l Lib, hostile []string) (RoundTripFigures, error) {
	var f RoundTripFigures
	var items []map[string]any
	var keys []string
	for i, s := range hostile {
		key := fmt.Sprintf("hostile%02d", i)
		keys = append(keys, key)
		items = append(items, map[string]any{
			"id": key, "type": []string{"paper-conference", "chapter"}[i%2],
			"title": "T " + s, "container-title": "C " + s, "publisher": "P " + s, "publisher-place": "Q " + s, "note": "N " + s,
			"author": []map[string]string{{"family": "F" + s, "given": "G" + s}, {"literal": "L " + s}},
			"editor": []map[string]string{{"family": "E" + s, "given": "H"}},
			"issued": map[string]any{"date-parts": [][]int{{1990 + i}}}, "volume": "12", "page": "3-4",
			"DOI": fmt.Sprintf("10.1234/x%d", i), "URL": fmt.Sprintf("https://example.org/%d?q=a%%20b&c=~d#e", i),
		})
	}
	data, err := json.Marshal(items)
	if err != nil {
		return f, err
	}
	in, err := l.WriteFile("hostile.json", data)
	if err != nil {
		return f, err
	}
	if _, err := l.MustRun(ctx, "import", in); err != nil {
		return f, err
	}
	want, err := l.Sidecars()
	if err != nil {
		return f, err
	}
	f.Entries = len(items)
	for _, format := range []string{"bibtex", "biblatex", "csl-json"} {
		f.Formats++
		ext := map[string]string{"bibtex": ".bib", "biblatex": ".bib", "csl-json": ".json"}[format]
		out := filepath.Join(l.Home, "export-"+format+ext)
		if _, err := l.MustRun(ctx, append([]string{"bib", "-f", format, "-o", out}, keys...)...); err != nil {
			return f, err
		}
		b, err := NewLib(l.Bin, filepath.Join(filepath.Dir(l.Home), filepath.Base(l.Home)+"-"+format), l.Cache)
		if err != nil {
			return f, err
		}
		if _, err := b.MustRun(ctx, "import", out); err != nil {
			return f, fmt.Errorf("re-import of the %s export: %w", format, err)
		}
		got, err := b.Sidecars()
		if err != nil {
			return f, err
		}
		for _, k := range keys {
			f.Compared++
			if diff := compareRecords(want[k], got[k]); diff != "" {
				f.Mismatches++
				if len(f.Failures) < 10 {
					f.Failures = append(f.Failures, fmt.Sprintf("%s via %s: %s", k, format, diff))
				}
			}
		}
	}
	return f, nil
}

// compareRecords lists the round-trip fields that differ between a and b,
// white space collapsed (BibTeX reads any run of white space as one
// space). BibTeX has no literal names: a literal name reads back as a
// family name, so names compare by their parts joined.
func compareRecords(a, b map[string]any) string {
	if a == nil || b == nil {
		return "entry missing after the round trip"
	}
	var diffs []string
	for _, k := range roundTripFields {
		x, y := a[k], b[k]
		if k == "author_names" || k == "editor_names" {
			x, y = names(x), names(y)
		}
		x, y = collapse(x), collapse(y)
		if !reflect.DeepEqual(x, y) {
			diffs = append(diffs, fmt.Sprintf("%s: %v ≠ %v", k, x, y))
		}
	}
	sort.Strings(diffs)
	return strings.Join(diffs, "; ")
}

func names(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, n := range list {
		m, _ := n.(map[string]any)
		var parts []string
		for _, p := range []string{"given", "family", "literal"} {
			if s, _ := m[p].(string); s != "" {
				parts = append(parts, s)
			}
		}
		out = append(out, strings.Join(parts, " "))
	}
	return out
}

// collapse collapses the white space of a string value (or of each name).
func collapse(v any) any {
	switch v := v.(type) {
	case string:
		return strings.Join(strings.Fields(v), " ")
	case []string:
		out := make([]string, len(v))
		for i, s := range v {
			out[i] = strings.Join(strings.Fields(s), " ")
		}
		return out
	}
	return v
}
