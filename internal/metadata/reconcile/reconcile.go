// Package reconcile merges what several metadata sources say about one work
// into a single record, keeping the provenance of every field and turning
// every disagreement into a human-readable warning instead of silently
// picking a side.
//
// It is pure: Merge and the helpers take Observations (internal/metadata)
// and return values. The Resolver (resolve.go) decides which sources to ask
// and is the only part that does I/O, through the functions it is given.
//
// The rules:
//
//   - Observations are grouped by the version of the work they describe:
//     the preprint (arXiv and other preprint servers) or the published
//     version (the version of record). Versions are told apart by DOI, and
//     an arXiv id is the same work as its DataCite DOI 10.48550/arXiv.<id>.
//   - Within a version, each field takes the value of the most
//     authoritative source that has one (fieldPriority), and records every
//     source whose value agrees (Record.FieldSources). A source whose value
//     differs produces a warning naming both values.
//   - A record is Reconciled only when at least two sources agree on the
//     title, the first author's family name and the year.
//   - Differences between the preprint and the published version (year,
//     title, author list) are reported as warnings too: they are the usual
//     cause of references that look fabricated.
package reconcile

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/crossmem/crossmem/internal/editdist"
	"github.com/crossmem/crossmem/internal/identifier"
	"github.com/crossmem/crossmem/internal/metadata"
)

// fieldPriority lists, per field, the sources in the order their values
// are preferred. Registration agencies (Crossref, DataCite) describe the
// work as deposited by its publisher; arXiv is authoritative for its own
// preprints; OpenAlex and Unpaywall aggregate.
var fieldPriority = map[string][]string{
	metadata.FieldTitle:          {metadata.SourceCrossref, metadata.SourceDataCite, metadata.SourceArxiv, metadata.SourceOpenAlex, metadata.SourceUnpaywall, metadata.SourcePDFText, metadata.SourcePDFXMP, metadata.SourcePDFInfo, metadata.SourcePDF},
	metadata.FieldAuthors:        {metadata.SourceCrossref, metadata.SourceDataCite, metadata.SourceArxiv, metadata.SourceOpenAlex, metadata.SourceUnpaywall, metadata.SourcePDFText, metadata.SourcePDFXMP, metadata.SourcePDFInfo, metadata.SourcePDF},
	metadata.FieldIssued:         {metadata.SourceArxiv, metadata.SourceCrossref, metadata.SourceDataCite, metadata.SourceOpenAlex, metadata.SourceUnpaywall, metadata.SourcePDFText, metadata.SourcePDFXMP, metadata.SourcePDFInfo, metadata.SourcePDF},
	metadata.FieldContainerTitle: {metadata.SourceCrossref, metadata.SourceOpenAlex, metadata.SourceUnpaywall, metadata.SourceDataCite},
	metadata.FieldVolume:         {metadata.SourceCrossref, metadata.SourceOpenAlex},
	metadata.FieldIssue:          {metadata.SourceCrossref, metadata.SourceOpenAlex},
	metadata.FieldPage:           {metadata.SourceCrossref, metadata.SourceOpenAlex},
	metadata.FieldPublisher:      {metadata.SourceCrossref, metadata.SourceDataCite, metadata.SourceArxiv, metadata.SourceOpenAlex},
	metadata.FieldType:           {metadata.SourceCrossref, metadata.SourceDataCite, metadata.SourceArxiv, metadata.SourceOpenAlex, metadata.SourceUnpaywall},
	metadata.FieldAbstract:       {metadata.SourceArxiv, metadata.SourceCrossref, metadata.SourceDataCite, metadata.SourceOpenAlex},
	metadata.FieldURL:            {metadata.SourceArxiv, metadata.SourceCrossref, metadata.SourceDataCite, metadata.SourceOpenAlex},
	metadata.FieldJournalRef:     {metadata.SourceArxiv},
}

func rank(field, source string) int {
	p := fieldPriority[field]
	if i := slices.Index(p, source); i >= 0 {
		return i
	}
	return len(p)
}

// byRank returns a copy of obs ordered by the priority of their sources
// for field (fieldPriority), keeping the given order among equals.
func byRank(obs []*metadata.Observation, field string) []*metadata.Observation {
	out := slices.Clone(obs)
	slices.SortStableFunc(out, func(a, b *metadata.Observation) int { return rank(field, a.Source) - rank(field, b.Source) })
	return out
}

// Merge reconciles observations that describe the same version of a work
// into one record. It never modifies the observations. The result's
// Sources lists every source that contributed, FieldSources the sources
// that agree with each chosen value, Warnings every disagreement, and
// Reconciled whether two sources agree on title, first author and year.
func Merge(obs []*metadata.Observation) *metadata.Record {
	out := &metadata.Record{}
	var live []*metadata.Observation
	for _, o := range obs {
		if o != nil && o.Record != nil {
			live = append(live, o)
		}
	}
	if len(live) == 0 {
		out.Normalize()
		return out
	}
	// Stable order: by source priority for the title, then as given.
	live = byRank(live, metadata.FieldTitle)
	for _, o := range live {
		if !slices.Contains(out.Sources, o.Source) {
			out.Sources = append(out.Sources, o.Source)
		}
	}

	mergeText(out, live, metadata.FieldTitle, func(r *metadata.Record) string { return r.Title }, func(r *metadata.Record, v string) { r.Title = v }, sameTitle)
	mergeAuthors(out, live)
	mergeIssued(out, live)
	mergeText(out, live, metadata.FieldContainerTitle, func(r *metadata.Record) string { return r.ContainerTitle }, func(r *metadata.Record, v string) { r.ContainerTitle = v }, sameVenue)
	mergeText(out, live, metadata.FieldVolume, func(r *metadata.Record) string { return r.Volume }, func(r *metadata.Record, v string) { r.Volume = v }, sameNumber)
	mergeText(out, live, metadata.FieldIssue, func(r *metadata.Record) string { return r.Issue }, func(r *metadata.Record, v string) { r.Issue = v }, sameNumber)
	mergeText(out, live, metadata.FieldPage, func(r *metadata.Record) string { return r.Page }, func(r *metadata.Record, v string) { r.Page = v }, samePages)
	mergeText(out, live, metadata.FieldPublisher, func(r *metadata.Record) string { return r.Publisher }, func(r *metadata.Record, v string) { r.Publisher = v }, nil)
	mergeText(out, live, metadata.FieldType, func(r *metadata.Record) string { return r.Type }, func(r *metadata.Record, v string) { r.Type = v }, nil)
	mergeText(out, live, metadata.FieldAbstract, func(r *metadata.Record) string { return r.Abstract }, func(r *metadata.Record, v string) { r.Abstract = v }, nil)
	mergeText(out, live, metadata.FieldURL, func(r *metadata.Record) string { return r.URL }, func(r *metadata.Record, v string) { r.URL = v }, nil)
	mergeText(out, live, metadata.FieldJournalRef, func(r *metadata.Record) string { return r.JournalRef }, func(r *metadata.Record, v string) { r.JournalRef = v }, nil)
	mergeIdentifiers(out, live)
	for _, o := range live {
		for _, w := range o.Record.Warnings {
			out.Warn(o.Source + ": " + w)
		}
	}
	out.Reconciled = agree(live)
	out.Normalize()
	return out
}

// mergeText picks the value of the highest-priority source for a string
// field and records agreement. same compares two values (nil: compare
// after collapsing whitespace, case-insensitively). Only title, venue,
// volume, issue and pages are compared for warnings; other fields (type,
// abstract, URL, publisher) differ harmlessly between sources.
func mergeText(out *metadata.Record, obs []*metadata.Observation, field string, get func(*metadata.Record) string, set func(*metadata.Record, string), same func(a, b string) bool) {
	ranked := byRank(obs, field)
	var chosen *metadata.Observation
	for _, o := range ranked {
		if v := strings.TrimSpace(get(o.Record)); v != "" {
			chosen = o
			break
		}
	}
	if chosen == nil {
		return
	}
	value := strings.TrimSpace(get(chosen.Record))
	set(out, value)
	eq := same
	if eq == nil {
		eq = func(a, b string) bool { return strings.EqualFold(collapse(a), collapse(b)) }
	}
	for _, o := range ranked {
		v := strings.TrimSpace(get(o.Record))
		if v == "" {
			continue
		}
		if eq(v, value) {
			out.SetSource(field, o.Source)
			if field == metadata.FieldTitle && fold(v) != fold(value) {
				longer, shorter := chosen.Source, o.Source
				if len(fold(v)) > len(fold(value)) {
					longer, shorter = o.Source, chosen.Source
				}
				out.Warn(fmt.Sprintf("title: %s omits the subtitle that %s gives (%q vs %q)", shorter, longer, v, value))
			}
		} else if same != nil {
			out.Warn(fmt.Sprintf("%s differs: %s gives %q, %s gives %q (kept %s's)", fieldLabel(field), chosen.Source, value, o.Source, v, chosen.Source))
		}
	}
}

func fieldLabel(field string) string {
	switch field {
	case metadata.FieldContainerTitle:
		return "venue"
	case metadata.FieldIssued:
		return "date"
	}
	return field
}

// mergeIssued picks the date of the highest-priority source and records
// which sources agree on the year (months and days are not compared: sources
// disagree about print versus online dates).
func mergeIssued(out *metadata.Record, obs []*metadata.Observation) {
	ranked := byRank(obs, metadata.FieldIssued)
	var chosen *metadata.Observation
	for _, o := range ranked {
		if o.Record.Issued.Year > 0 {
			chosen = o
			break
		}
	}
	if chosen == nil {
		return
	}
	out.Issued = chosen.Record.Issued
	for _, o := range ranked {
		y := o.Record.Issued.Year
		if y == 0 {
			continue
		}
		if y == out.Issued.Year {
			out.SetSource(metadata.FieldIssued, o.Source)
			if d := o.Record.Issued; o != chosen && d.Month > 0 && out.Issued.Month > 0 &&
				(d.Month != out.Issued.Month || d.Day > 0 && out.Issued.Day > 0 && d.Day != out.Issued.Day) {
				// Sources often date the online and the print version
				// differently; the year agrees.
				out.Warn(fmt.Sprintf("date differs (same year): %s gives %s, %s gives %s (kept %s's)", chosen.Source, dateString(chosen.Record.Issued), o.Source, dateString(d), chosen.Source))
			}
			// A more precise date from an agreeing source completes a
			// year-only one.
			if out.Issued.Month == 0 && o.Record.Issued.Month > 0 {
				out.Issued = o.Record.Issued
			}
		} else {
			out.Warn(fmt.Sprintf("year differs: %s gives %d, %s gives %d (kept %s's)", chosen.Source, out.Issued.Year, o.Source, y, chosen.Source))
		}
	}
}

func dateString(d metadata.Date) string {
	switch {
	case d.Day > 0:
		return fmt.Sprintf("%04d-%02d-%02d", d.Year, d.Month, d.Day)
	case d.Month > 0:
		return fmt.Sprintf("%04d-%02d", d.Year, d.Month)
	}
	return strconv.Itoa(d.Year)
}

// mergeAuthors picks the author list of the highest-priority source after
// repairing names split wrongly, and reports differing counts and family
// names.
func mergeAuthors(out *metadata.Record, obs []*metadata.Observation) {
	ranked := byRank(obs, metadata.FieldAuthors)
	var chosen *metadata.Observation
	for _, o := range ranked {
		if len(o.Record.Authors) > 0 {
			chosen = o
			break
		}
	}
	if chosen == nil {
		return
	}
	authors, fixes := RepairNames(chosen.Record.Authors)
	for _, f := range fixes {
		out.Warn(fmt.Sprintf("%s splits author name %s", chosen.Source, f))
	}
	out.Authors = authors
	for _, o := range ranked {
		other, _ := RepairNames(o.Record.Authors)
		if len(other) == 0 {
			continue
		}
		if diff := compareAuthors(authors, other); diff == "" {
			out.SetSource(metadata.FieldAuthors, o.Source)
			for i := range authors {
				if a, b := authors[i].Given, other[i].Given; !givenCompatible(a, b) {
					out.Warn(fmt.Sprintf("author %d's given name differs: %s gives %q, %s gives %q (kept %s's)", i+1, chosen.Source, a, o.Source, b, chosen.Source))
				}
			}
		} else {
			out.Warn(fmt.Sprintf("authors differ: %s (kept %s's list) vs %s: %s", chosen.Source, chosen.Source, o.Source, diff))
		}
	}
}

// compareAuthors returns "" when two author lists have the same length
// and family names (normalised), else a short description of the first
// difference.
func compareAuthors(a, b []metadata.Name) string {
	if len(a) != len(b) {
		return fmt.Sprintf("%d authors vs %d", len(a), len(b))
	}
	for i := range a {
		if FamilyKey(a[i]) != FamilyKey(b[i]) {
			return fmt.Sprintf("author %d is %q vs %q", i+1, a[i].Display(), b[i].Display())
		}
	}
	return ""
}

// givenCompatible reports whether two given names can be the same
// person's: token by token equal after folding, or an initial matching the
// other's first letter ("Andrew D." and "Andrew Dickson"; "Michael D." and
// "Michael"). "Debashis" and "Debasish" are not compatible.
func givenCompatible(a, b string) bool {
	ta, tb := strings.Fields(fold(a)), strings.Fields(fold(b))
	for i := 0; i < len(ta) && i < len(tb); i++ {
		x, y := ta[i], tb[i]
		if x == y {
			continue
		}
		short, long := x, y
		if len(short) > len(long) {
			short, long = long, short
		}
		// fold drops the period of an initial: "d" vs "dickson".
		if len(short) == 1 && strings.HasPrefix(long, short) {
			continue
		}
		return false
	}
	return true
}

// mergeIdentifiers collects DOIs, arXiv id and version.
func mergeIdentifiers(out *metadata.Record, obs []*metadata.Observation) {
	for _, o := range obs {
		r := o.Record
		if out.DOI == "" && r.DOI != "" {
			out.DOI = r.DOI
		}
		if r.DOI != "" && identifier.NormalizeDOI(r.DOI) == identifier.NormalizeDOI(out.DOI) {
			out.SetSource(metadata.FieldDOI, o.Source)
		}
		if out.ArxivID == "" && r.ArxivID != "" {
			out.ArxivID = r.ArxivID
		}
		if r.ArxivID != "" && r.ArxivID == out.ArxivID {
			out.SetSource(metadata.FieldArxivID, o.Source)
			if r.ArxivVersion > out.ArxivVersion && o.Source == metadata.SourceArxiv {
				out.ArxivVersion = r.ArxivVersion
			}
		}
		if out.ArxivPrimaryCategory == "" {
			out.ArxivPrimaryCategory = r.ArxivPrimaryCategory
		}
		if out.DOIPreprint == "" {
			out.DOIPreprint = cmp.Or(r.DOIPreprint, o.PreprintDOI)
		}
		if out.DOIPublished == "" {
			out.DOIPublished = cmp.Or(r.DOIPublished, o.PublishedDOI)
		}
	}
	if out.ArxivVersion == 0 {
		for _, o := range obs {
			out.ArxivVersion = max(out.ArxivVersion, o.Record.ArxivVersion)
		}
	}
}

// agree reports whether two different sources agree on title, first
// author and year.
func agree(obs []*metadata.Observation) bool {
	for i, a := range obs {
		for _, b := range obs[i+1:] {
			if a.Source == b.Source {
				continue
			}
			ra, rb := a.Record, b.Record
			if ra.Title == "" || rb.Title == "" || ra.Issued.Year == 0 || ra.Issued.Year != rb.Issued.Year {
				continue
			}
			if !sameTitle(ra.Title, rb.Title) {
				continue
			}
			fa, _ := RepairNames(ra.Authors)
			fb, _ := RepairNames(rb.Authors)
			switch {
			case len(fa) == 0 && len(fb) == 0:
				// Both say the work has no author (an unsigned news item).
			case len(fa) == 0 || len(fb) == 0 || FamilyKey(fa[0]) != FamilyKey(fb[0]):
				continue
			}
			return true
		}
	}
	return false
}

// --- normalisation -------------------------------------------------------

var tagRe = regexp.MustCompile(`<[^>]+>`)

// fold lower-cases s, removes diacritics and markup, and turns every run of
// characters other than letters and digits into one space.
func fold(s string) string {
	s = tagRe.ReplaceAllString(s, " ")
	var b strings.Builder
	space := true
	for _, r := range norm.NFKD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
			space = false
		default:
			if !space {
				b.WriteByte(' ')
				space = true
			}
		}
	}
	return strings.TrimSpace(b.String())
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// TitleSimilarity compares two titles after folding case, diacritics,
// punctuation and markup: 1 minus their edit distance over the longer
// length, so 1 means the same words in the same order. A title that is the
// other plus a subtitle ("X" and "X: a study of Y", at least four words in
// common) counts as 1.
func TitleSimilarity(a, b string) float64 {
	fa, fb := []rune(fold(a)), []rune(fold(b))
	if len(fa) == 0 || len(fb) == 0 {
		return 0
	}
	if sameTitle(a, b) && min(len(strings.Fields(string(fa))), len(strings.Fields(string(fb)))) >= 4 {
		return 1
	}
	return 1 - float64(editdist.Levenshtein(fa, fb))/float64(max(len(fa), len(fb)))
}

// SameTitleWords reports whether two titles are the same words in the same
// order after folding case, diacritics, punctuation and markup: a
// near-exact match, for deciding that two records are one work without an
// identifier.
func SameTitleWords(a, b string) bool {
	fa := fold(a)
	return fa != "" && fa == fold(b)
}

// sameTitle treats titles as the same when they fold to the same words,
// or when one is the other plus a subtitle.
func sameTitle(a, b string) bool {
	fa, fb := fold(a), fold(b)
	if fa == fb {
		return true
	}
	return strings.HasPrefix(fa, fb+" ") || strings.HasPrefix(fb, fa+" ")
}

func sameVenue(a, b string) bool { return fold(a) == fold(b) }

func sameNumber(a, b string) bool { return fold(a) == fold(b) }

// samePages compares page ranges ignoring spaces and dash style, and
// abbreviated end pages (1234-56 = 1234-1256).
func samePages(a, b string) bool {
	pa, pb := pageRange(a), pageRange(b)
	return pa == pb
}

func pageRange(s string) string {
	s = strings.NewReplacer("–", "-", "—", "-", " ", "", "--", "-").Replace(s)
	first, last, ok := strings.Cut(s, "-")
	if !ok || first == last {
		return first
	}
	if len(last) < len(first) {
		if _, err := strconv.Atoi(first); err == nil {
			last = first[:len(first)-len(last)] + last
		}
	}
	return first + "-" + last
}

// FamilyKey folds a name's family name (or literal name) for comparison:
// lower case, no diacritics, no spaces or punctuation ("de Oliveira" and
// "De Oliveira" match; "Müller" and "Muller" match).
func FamilyKey(n metadata.Name) string {
	return strings.ReplaceAll(fold(n.FamilyOrLiteral()), " ", "")
}

var leadingInitials = regexp.MustCompile(`^((?:\p{Lu}\.\s*)+)(\p{Lu}\p{Ll}.*)$`)

// RepairNames fixes a name split that sources get wrong: initials at the
// start of the family name belong to the given name (Crossref's
// "Andres" / "M. Bran" is "Andres M." / "Bran"). It returns the repaired
// list (a new slice; the input is not modified) and a description of each
// repair.
func RepairNames(names []metadata.Name) ([]metadata.Name, []string) {
	out := make([]metadata.Name, len(names))
	var fixes []string
	for i, n := range names {
		out[i] = n
		if m := leadingInitials.FindStringSubmatch(n.Family); m != nil {
			initials := strings.TrimSpace(m[1])
			out[i].Family = m[2]
			out[i].Given = strings.TrimSpace(n.Given + " " + initials)
			fixes = append(fixes, fmt.Sprintf("%q as given %q, family %q; read as given %q, family %q", n.Display(), n.Given, n.Family, out[i].Given, out[i].Family))
		}
	}
	return out, fixes
}
