package frontmatter

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/crossmem/crossmem/internal/identifier"
	"github.com/crossmem/crossmem/internal/layout"
	"github.com/crossmem/crossmem/internal/metadata"
)

// --- arXiv -------------------------------------------------------------------

// arxivStamp matches the identifier arXiv prints up the left margin of
// every PDF it serves: "arXiv:2206.10883v3 [cs.CL] 22 Jul 2022"
// (old-style ids: "arXiv:hep-th/9901001v2 [hep-th] 5 Jan 1999").
var arxivStamp = regexp.MustCompile(`(?i)\barxiv:\s*(\d{4}\.\d{4,5}|[a-z]+(?:-[a-z]+)?(?:\.[a-z]{2})?/\d{7})(v\d+)?\s*\[\s*([a-z-]+(?:\.[a-z-]+)?)\s*\]\s*(\d{1,2})\s+([a-z]{3})[a-z]*\.?\s+((?:19|20)\d\d)\b`)

// arxivLabel matches a line that is nothing but a labelled arXiv id, as
// journals print the preprint of an article ("ArXiv ePrint: 0807.3577",
// "arXiv:2301.00001v2", "arXiv e-print arXiv:…"). A reference that cites
// an arXiv paper has more on its line and does not match.
var arxivLabel = regexp.MustCompile(`(?i)^(?:arxiv)(?:\s*e-?print)?(?:\s*(?:id|no\.?|number))?\s*[:.]?\s*(?:arxiv:\s*)?(\d{4}\.\d{4,5}|[a-z]+(?:-[a-z]+)?(?:\.[a-z]{2})?/\d{7})(v\d+)?\.?$`)

var months = map[string]int{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12}

// Arxiv is an arXiv identifier as the PDF prints it.
type Arxiv struct {
	ID       string        // versionless ("2206.10883", "hep-th/9901001")
	Version  int           // 0 when not printed
	Category string        // primary category from the stamp ("cs.CL"), "" when not printed
	Date     metadata.Date // the stamp's date (of that version), zero when not printed
	Line     string        // the line it was read from
}

// findArxiv looks for the arXiv margin stamp on the lines, then for a line
// that is only a labelled arXiv id.
func findArxiv(ls []*line) *Arxiv {
	for _, l := range ls {
		if m := arxivStamp.FindStringSubmatch(l.Text); m != nil {
			id, v, ok := identifier.ParseArxivID(m[1] + m[2])
			if !ok {
				continue
			}
			a := &Arxiv{ID: id, Version: v, Category: m[3], Line: l.Text}
			day, _ := strconv.Atoi(m[4])
			year, _ := strconv.Atoi(m[6])
			if mon := months[strings.ToLower(m[5])]; mon > 0 && day >= 1 && day <= 31 {
				a.Date = metadata.Date{Year: year, Month: mon, Day: day}
			}
			return a
		}
	}
	for _, l := range ls {
		if l.kind == layout.Reference {
			continue
		}
		if m := arxivLabel.FindStringSubmatch(strings.TrimSpace(l.Text)); m != nil {
			if id, v, ok := identifier.ParseArxivID(m[1] + m[2]); ok {
				return &Arxiv{ID: id, Version: v, Line: l.Text}
			}
		}
	}
	return nil
}

// --- DOIs --------------------------------------------------------------------

// doiForms match a DOI in its printed forms: "doi:10.…", "DOI 10.…",
// "doi: 10.…", "https://doi.org/10.…", "dx.doi.org/10.…", and publisher
// URLs with a /doi/ path ("…/cgi/doi/10.…", "dl.acm.org/doi/abs/10.…").
var doiForms = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\bdoi\s*[:.]?\s*(10\.\d{4,9}/\S*)`),
	regexp.MustCompile(`(?i)\bdoi\.org/(10\.\d{4,9}/\S*)`),
	regexp.MustCompile(`(?i)/doi/(?:abs/|full/|pdf/|epdf/|book/)?(10\.\d{4,9}/\S*)`),
}

// DOI is a DOI as the PDF prints it.
type DOI struct {
	DOI  string // parsed (identifier.ParseDOI), case as printed
	Line string // the line it was read from
	// Own is true when where and how it is printed say it is the paper's
	// own DOI: labelled on a line of its own, in a banner at the top or the
	// foot of the page, or next to "cite", "published" or "reference
	// format".
	Own bool
}

var ownDOIContext = regexp.MustCompile(`(?i)\b(cite|citation|reference format|published|publication|copyright|©|licen[cs]e|permission|article|journal|received|accepted|access)\b`)

// findDOIs returns the distinct DOIs printed on the lines outside
// bibliography entries, the paper's own first (see DOI.Own), then in the
// order printed. A DOI broken at the end of a line continues on the next.
func findDOIs(ls []*line, height float64) []DOI {
	var out []DOI
	seen := map[string]bool{}
	for i, l := range ls {
		if l.kind == layout.Reference {
			continue
		}
		for _, re := range doiForms {
			for _, m := range re.FindAllStringSubmatchIndex(l.Text, -1) {
				raw := l.Text[m[2]:m[3]]
				if m[3] == len(l.Text) && i+1 < len(ls) {
					if next := strings.Fields(ls[i+1].Text); len(next) > 0 && continues(raw, next[0]) {
						raw += next[0]
					}
				}
				doi, ok := identifier.ParseDOI(raw)
				if !ok {
					continue
				}
				key := identifier.NormalizeDOI(doi)
				if seen[key] {
					continue
				}
				seen[key] = true
				rest := strings.TrimSpace(l.Text[:m[0]] + l.Text[m[1]:])
				own := len(strings.Fields(rest)) <= 3 || l.margin(height) || ownDOIContext.MatchString(l.Text)
				out = append(out, DOI{DOI: doi, Line: l.Text, Own: own})
			}
		}
	}
	// The paper's own first, keeping the printed order otherwise.
	var own, other []DOI
	for _, d := range out {
		if d.Own {
			own = append(own, d)
		} else {
			other = append(other, d)
		}
	}
	return append(own, other...)
}

// continues reports whether a DOI at the end of a line is probably cut
// there and goes on with next, the first word of the next line: it ends
// with "/", "-" or "_", has almost no suffix, or ends with "." and the
// next line starts with a digit (a period before a capital ends a
// sentence).
func continues(raw, next string) bool {
	if strings.HasSuffix(raw, "/") || strings.HasSuffix(raw, "-") || strings.HasSuffix(raw, "_") {
		return true
	}
	if strings.HasSuffix(raw, ".") {
		return next != "" && next[0] >= '0' && next[0] <= '9'
	}
	_, suffix, _ := strings.Cut(raw, "/")
	return len(suffix) < 3
}

// --- banners -----------------------------------------------------------------

// Banner is what a journal's or a conference's banner on the first page
// says about where the paper appeared.
type Banner struct {
	Container string // journal or proceedings, as printed
	Volume    string
	Issue     string
	Page      string // page range
	Year      int
	Line      string // the line it was read from
}

var (
	// "British Medical Bulletin, 2015, 113:45–58", "J Gen Plant Pathol
	// (2005) 71:107–116", "Tobacco Control 2004;13:447–453".
	bannerYearVolPages = regexp.MustCompile(`^(\p{Lu}[\p{L}.&' -]*?\p{L}\.?)[,]?\s*\(?((?:19|20)\d\d)\)?\s*[,;]?\s*(\d+)(?:\s*\((\d+)\))?\s*:\s*([A-Za-z]?\d+(?:\s*[–—-]\s*[A-Za-z]?\d+)?)`)
	// "Z. Naturforsch. 54 a, 272-273 (1999)", "Phys. Rev. B 85, 115117 (2012)".
	bannerVolPagesYear = regexp.MustCompile(`^(\p{Lu}[\p{L}.&' ]*?\p{L}\.?)\s+(\d+)\s*(?:[a-zA-Z]\b)?\s*,\s*([A-Za-z]?\d+(?:\s*[–—-]\s*[A-Za-z]?\d+)?)\s*\(((?:19|20)\d\d)\)`)
	// "January 2007, Volume 18, Issue 3.", "Vol. 12, No. 4, 2019".
	bannerVolume = regexp.MustCompile(`(?i)\b(?:vol\.?|volume)\s*(\d+)(?:\s*,?\s*(?:no\.?|issue|number)\s*(\d+))?`)
	// "Proceedings of the 58th Annual Meeting …, pages 4969–4983".
	bannerPages = regexp.MustCompile(`(?i)^(proceedings of .*?|.*?(?:conference|symposium|workshop).*?),\s*pages?\s*(\d+\s*[–—-]\s*\d+)`)
	// "2010 International Conference on Data Storage and Data Engineering".
	bannerEvent = regexp.MustCompile(`^(?:((?:19|20)\d\d)\s+)?((?:\d+(?:st|nd|rd|th)\s+)?(?:(?:IEEE|ACM|IEEE/ACM)\s+)?(?:International |Annual |European |Asian )?(?:Conference|Symposium|Workshop)\b.*?)(?:\s+((?:19|20)\d\d))?$`)
	// A journal's name set as a banner: "Journal of Statistical Software".
	bannerJournal = regexp.MustCompile(`^(?:The\s+)?(?:Journal|Proceedings|Transactions|Annals|Bulletin|Letters|Archives|Acta|Advances|Reports|Review)s?\s+(?:of|on|in|for)\s+\p{Lu}[\p{L} &,-]+$`)
	// A conference's dates: "July 5 - 10, 2020", "May 2-6, 2023".
	eventDate = regexp.MustCompile(`(?i)\b(?:january|february|march|april|may|june|july|august|september|october|november|december)\s+\d{1,2}(?:\s*[-–]\s*\d{1,2})?,\s*((?:19|20)\d\d)\b`)
	// "© 2005", "©2020 Association for …", "Copyright © 2009 ACM".
	copyrightYear = regexp.MustCompile(`(?i)(?:©|\(c\)|copyright)\s*(?:©\s*)?((?:19|20)\d\d)\b`)
	// "Published 3 October 2008", "Published online: 12 May 2019".
	publishedYear = regexp.MustCompile(`(?i)\bpublished(?:\s+online)?\s*:?\s*(?:\d{1,2}\s+)?(?:[a-z]+\.?\s+)?(?:\d{1,2},?\s+)?((?:19|20)\d\d)\b`)
	anyYear       = regexp.MustCompile(`\b((?:19|20)\d\d)\b`)
	// Dates that are not the publication's.
	notEvent = regexp.MustCompile(`(?i)\b(?:received|accepted|submitted|revised)\b`)
)

// findBanner reads the journal or proceedings banner from the lines of
// the page's top and foot and the front matter (ls, in reading order).
func findBanner(ls []*line) *Banner {
	var b Banner
	found := false
	set := func(field *string, v string) {
		if *field == "" && v != "" {
			*field = strings.TrimSpace(v)
			found = true
		}
	}
	for _, l := range ls {
		t := strings.TrimSpace(l.Text)
		if m := bannerYearVolPages.FindStringSubmatch(t); m != nil && journalLike(m[1]) {
			set(&b.Container, strings.TrimRight(m[1], ", "))
			b.Year = atoi(m[2], b.Year)
			set(&b.Volume, m[3])
			set(&b.Issue, m[4])
			set(&b.Page, dashes(m[5]))
			b.Line = t
			continue
		}
		if m := bannerVolPagesYear.FindStringSubmatch(t); m != nil && journalLike(m[1]) {
			set(&b.Container, m[1])
			set(&b.Volume, m[2])
			set(&b.Page, dashes(m[3]))
			b.Year = atoi(m[4], b.Year)
			b.Line = t
			continue
		}
		if m := bannerPages.FindStringSubmatch(t); m != nil {
			set(&b.Container, m[1])
			set(&b.Page, dashes(m[2]))
			if y := anyYear.FindAllString(t, -1); len(y) > 0 {
				b.Year = atoi(y[len(y)-1], b.Year)
			}
			continue
		}
		if m := bannerVolume.FindStringSubmatch(t); m != nil && len(strings.Fields(t)) <= 10 {
			set(&b.Volume, m[1])
			set(&b.Issue, m[2])
			if y := anyYear.FindString(t); y != "" && b.Year == 0 {
				b.Year = atoi(y, b.Year)
				b.Line = t
			}
			continue
		}
		if bannerJournal.MatchString(t) && len(strings.Fields(t)) <= 10 {
			set(&b.Container, t)
			continue
		}
		if m := bannerEvent.FindStringSubmatch(t); m != nil && len(strings.Fields(t)) <= 14 {
			set(&b.Container, m[2])
			if y := m[1] + m[3]; y != "" && b.Year == 0 {
				b.Year = atoi(y, b.Year)
				b.Line = t
			}
		}
	}
	if !found && b.Year == 0 {
		return nil
	}
	return &b
}

// journalLike reports whether s can be a journal's name: at least two
// letters per word on average and no sentence punctuation inside.
func journalLike(s string) bool {
	w := strings.Fields(s)
	if len(w) == 0 || len(w) > 10 {
		return false
	}
	letters := 0
	for _, r := range s {
		if r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r > 127 {
			letters++
		}
	}
	return letters >= 2*len(w) && !strings.ContainsAny(s, ";!?")
}

// findYear returns the year a copyright line, a "Published" line or a
// conference's dates on the page state, 0 when there is none.
func findYear(ls []*line) (int, string) {
	for _, l := range ls {
		if m := copyrightYear.FindStringSubmatch(l.Text); m != nil {
			return atoi(m[1], 0), l.Text
		}
	}
	for _, l := range ls {
		if m := publishedYear.FindStringSubmatch(l.Text); m != nil {
			return atoi(m[1], 0), l.Text
		}
	}
	for _, l := range ls {
		if m := eventDate.FindStringSubmatch(l.Text); m != nil && !notEvent.MatchString(l.Text) {
			return atoi(m[1], 0), l.Text
		}
	}
	return 0, ""
}

func atoi(s string, def int) int {
	if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil {
		return n
	}
	return def
}

// dashes writes a page range as Crossref does: a hyphen, no spaces.
func dashes(s string) string {
	s = strings.Join(strings.Fields(s), "")
	return strings.NewReplacer("—", "-", "–", "-").Replace(s)
}
