// Package openalex looks up works in the OpenAlex API
// (https://docs.openalex.org/api-entities/works) by DOI, by arXiv id or by
// title, and maps each to a metadata.Observation with every field
// attributed to metadata.SourceOpenAlex. It does no merging with other
// sources and never downloads anything but the JSON records.
//
// # Mapping
//
//   - Title: display_name (title when empty), HTML tags such as <i> and
//     <sub> stripped, entities decoded. OpenAlex has works without a title;
//     they get a warning.
//   - Authors: each authorship's raw_author_name, the name as printed on
//     the work, split by metadata.ParseName ("Bran, Andres M" works too);
//     author.display_name, OpenAlex's disambiguated profile name, only when
//     there is no raw name or the two differ only in case ("Valérie dos
//     Santos" for the raw "Valérie Dos Santos"). Profile names are
//     sometimes another person's ("Marc de Perrot" for Matthieu Perrot) or
//     add accents the work does not print ("Fabián", "Xénarios"). A name that is all Chinese,
//     Japanese or Korean script is family name first ("宮地 元彦"). An
//     "author" that is an affiliation string (it starts with a comma) is
//     dropped with a warning.
//   - Issued: publication_date. OpenAlex pads a year-only date to January 1,
//     so YYYY-01-01 is recorded as the year alone (month and day unknown);
//     a work really published on January 1 loses its month and day, which
//     is the price of never claiming precision the source does not have.
//     publication_year when there is no date.
//   - Container: primary_location.source.display_name when that source is a
//     journal, conference or book series (not a repository, an ebook
//     platform or a metadata index).
//   - Volume, issue, page from biblio; page is first_page-last_page, or
//     first_page alone when both are equal or last_page is missing.
//   - DOI: doi without https://doi.org/. For an arXiv DOI (10.48550/arxiv.*)
//     the DOI is written as arXiv writes it (10.48550/arXiv.<id>) and
//     ArxivID is set.
//   - Abstract: rebuilt from abstract_inverted_index, without a leading
//     "Abstract" heading.
//   - Type (OpenAlex → CSL): article → article-journal with a journal
//     source, paper-conference with a conference source, article-journal
//     when type_crossref is journal-article, else article; preprint →
//     article; review, editorial, letter, erratum → article-journal;
//     book-chapter → chapter; book, monograph → book; conference-paper →
//     paper-conference; dissertation → thesis; dataset → dataset;
//     report → report; standard → standard; peer-review → review;
//     reference-entry → entry-encyclopedia; other types are left unset.
//   - IsPreprint: type preprint, or a primary location on a preprint server
//     (arXiv, bioRxiv, medRxiv, SSRN, Research Square, ChemRxiv,
//     Preprints.org, OSF Preprints, ...) or a DOI with a preprint server's
//     prefix.
//   - PreprintDOI and PublishedDOI: the work's own DOI is the preprint DOI
//     of a preprint and the published DOI otherwise; a location on arXiv
//     gives the arXiv DOI as the preprint DOI of a published work, and a
//     location whose landing page is another DOI gives that DOI as the
//     preprint DOI (preprint server) or the published DOI (published
//     version in a journal). Record.DOIPreprint and DOIPublished carry the
//     same values.
//   - PDFURLs: best_oa_location.pdf_url, then every other location's
//     pdf_url, deduplicated.
package openalex

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/crossmem/crossmem/internal/fetch"
	"github.com/crossmem/crossmem/internal/identifier"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/metadata/internal/field"
)

// DefaultBaseURL is the OpenAlex API used when Client.BaseURL is empty.
const DefaultBaseURL = "https://api.openalex.org"

// ErrNotFound is matched (errors.Is) by the error of a lookup for a work
// OpenAlex does not have (HTTP 404). It also matches fetch.ErrNotFound.
var ErrNotFound = fmt.Errorf("openalex: %w", fetch.ErrNotFound)

// Client queries the OpenAlex API. HTTP is required. Mailto, when set, is
// sent as the mailto query parameter, which puts requests in OpenAlex's
// "polite pool". A Client is safe for concurrent use if its HTTP client is.
type Client struct {
	BaseURL string // default DefaultBaseURL
	HTTP    *fetch.Client
	Mailto  string
}

// ByDOI returns OpenAlex's work for doi (bare, doi: or doi.org URL form),
// asked as GET /works/https://doi.org/<doi>. The Observation's Query is
// "doi:<doi>". Errors: ErrNotFound for a DOI OpenAlex does not know; a
// *fetch.Error when the API failed (never ErrNotFound); a parse error for
// a malformed response.
func (c *Client) ByDOI(ctx context.Context, doi string) (*metadata.Observation, error) {
	d, ok := identifier.ParseDOI(doi)
	if !ok {
		return nil, fmt.Errorf("openalex: %q is not a DOI", doi)
	}
	return c.work(ctx, d, "doi:"+d)
}

// ByArxiv returns OpenAlex's work for arXiv paper id ("1706.03762",
// "hep-th/9901001"; a version suffix is accepted and ignored, because
// OpenAlex has one work for all versions). OpenAlex knows arXiv papers by
// their DataCite DOI, so this asks for 10.48550/arXiv.<id>. The Query is
// "arxiv:<id>" as given. Errors as ByDOI.
func (c *Client) ByArxiv(ctx context.Context, id string) (*metadata.Observation, error) {
	pid, v, ok := identifier.ParseArxivID(id)
	if !ok {
		return nil, fmt.Errorf("openalex: %q is not an arXiv id", id)
	}
	q := "arxiv:" + pid
	if v > 0 {
		q += "v" + strconv.Itoa(v)
	}
	return c.work(ctx, identifier.ArxivDOI(pid), q)
}

// SearchTitle returns the works OpenAlex finds for title (GET
// /works?filter=title.search:<title>, first page, best match first); each
// Observation's Query is "title:<title>". No hits is an empty slice and no
// error. The hits are candidates: OpenAlex returns related works too (the
// arXiv preprint next to the journal article), and the caller must
// confirm a hit before using it. Commas, which separate OpenAlex filters,
// are replaced by spaces in the search. Errors: ErrNotFound for an HTTP
// 404; a *fetch.Error when the API failed; a parse error for a malformed
// response.
func (c *Client) SearchTitle(ctx context.Context, title string) ([]*metadata.Observation, error) {
	if c.HTTP == nil {
		return nil, errors.New("openalex: client has no HTTP client")
	}
	t := field.Collapse(strings.NewReplacer(",", " ", "|", " ").Replace(title))
	if t == "" {
		return nil, errors.New("openalex: empty title")
	}
	v := url.Values{}
	v.Set("filter", "title.search:"+t)
	if c.Mailto != "" {
		v.Set("mailto", c.Mailto)
	}
	u := c.base() + "/works?" + v.Encode()
	resp, err := c.HTTP.Get(ctx, u, "application/json")
	if err != nil {
		if errors.Is(err, fetch.ErrNotFound) {
			return nil, fmt.Errorf("openalex title search: %w", ErrNotFound)
		}
		return nil, fmt.Errorf("openalex title search: %w", err)
	}
	var list struct {
		Results *[]json.RawMessage `json:"results"`
	}
	if err := json.Unmarshal(resp.Body, &list); err != nil {
		return nil, fmt.Errorf("openalex title search: %w", field.ParseError("OpenAlex", err))
	}
	if list.Results == nil {
		return nil, errors.New("openalex title search: parse OpenAlex JSON: no results list")
	}
	out := make([]*metadata.Observation, 0, len(*list.Results))
	for i, raw := range *list.Results {
		o, err := parse(raw, "")
		if err != nil {
			return nil, fmt.Errorf("openalex title search: result %d: %w", i+1, err)
		}
		o.Query = "title:" + title
		out = append(out, o)
	}
	return out, nil
}

func (c *Client) base() string {
	if c.BaseURL == "" {
		return DefaultBaseURL
	}
	return strings.TrimSuffix(c.BaseURL, "/")
}

// work fetches /works/https://doi.org/<doi>.
func (c *Client) work(ctx context.Context, doi, query string) (*metadata.Observation, error) {
	if c.HTTP == nil {
		return nil, errors.New("openalex: client has no HTTP client")
	}
	u := c.base() + "/works/https://doi.org/" + escapeDOI(doi)
	if c.Mailto != "" {
		u += "?mailto=" + url.QueryEscape(c.Mailto)
	}
	resp, err := c.HTTP.Get(ctx, u, "application/json")
	if err != nil {
		if errors.Is(err, fetch.ErrNotFound) {
			return nil, fmt.Errorf("openalex %s: %w", query, ErrNotFound)
		}
		return nil, fmt.Errorf("openalex lookup %s: %w", query, err)
	}
	o, err := parse(resp.Body, doi)
	if err != nil {
		return nil, fmt.Errorf("openalex lookup %s: %w", query, err)
	}
	o.Query = query
	return o, nil
}

// escapeDOI escapes a DOI for a URL path, keeping its slashes as OpenAlex
// documents the DOI form of a work id.
func escapeDOI(doi string) string {
	return strings.ReplaceAll(url.PathEscape(doi), "%2F", "/")
}

// --- JSON --------------------------------------------------------------------

type work struct {
	ID              string           `json:"id"`
	DOI             string           `json:"doi"`
	Title           string           `json:"title"`
	DisplayName     string           `json:"display_name"`
	PublicationYear int              `json:"publication_year"`
	PublicationDate string           `json:"publication_date"`
	Type            string           `json:"type"`
	TypeCrossref    string           `json:"type_crossref"`
	Authorships     []authorship     `json:"authorships"`
	Biblio          biblio           `json:"biblio"`
	PrimaryLocation *location        `json:"primary_location"`
	BestOALocation  *location        `json:"best_oa_location"`
	Locations       []location       `json:"locations"`
	Abstract        map[string][]int `json:"abstract_inverted_index"`
}

type authorship struct {
	Author struct {
		DisplayName string `json:"display_name"`
	} `json:"author"`
	RawAuthorName string `json:"raw_author_name"`
}

type biblio struct {
	Volume    string `json:"volume"`
	Issue     string `json:"issue"`
	FirstPage string `json:"first_page"`
	LastPage  string `json:"last_page"`
}

type location struct {
	LandingPageURL string  `json:"landing_page_url"`
	PDFURL         string  `json:"pdf_url"`
	Version        string  `json:"version"`
	Source         *source `json:"source"`
}

type source struct {
	DisplayName string `json:"display_name"`
	Type        string `json:"type"`
}

// --- mapping -----------------------------------------------------------------

// parse maps one OpenAlex work object. requested is the DOI as the caller
// wrote it ("" for search hits): when it equals OpenAlex's DOI ignoring
// case, its capitalisation is kept (OpenAlex lower-cases DOIs).
func parse(body []byte, requested string) (*metadata.Observation, error) {
	var w work
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, field.ParseError("OpenAlex", err)
	}
	if w.ID == "" && w.DOI == "" && w.DisplayName == "" && w.Title == "" {
		return nil, errors.New("parse OpenAlex JSON: not a work")
	}
	return w.observation(requested), nil
}

func (w *work) observation(requested string) *metadata.Observation {
	r := &metadata.Record{}
	set := func(field string) { r.SetSource(field, metadata.SourceOpenAlex) }
	o := &metadata.Observation{Source: metadata.SourceOpenAlex, Record: r}

	src := w.primarySource()

	if d, ok := identifier.ParseDOI(w.DOI); ok {
		if strings.EqualFold(d, requested) {
			d = requested
		}
		if id, ok := identifier.ArxivIDFromDOI(d); ok {
			d = identifier.ArxivDOI(id)
			r.ArxivID = id
			set(metadata.FieldArxivID)
		}
		r.DOI = d
		set(metadata.FieldDOI)
		r.URL = "https://doi.org/" + d
		set(metadata.FieldURL)
	} else if w.PrimaryLocation != nil && w.PrimaryLocation.LandingPageURL != "" {
		r.URL = w.PrimaryLocation.LandingPageURL
		set(metadata.FieldURL)
	}

	title := w.DisplayName
	if strings.TrimSpace(title) == "" {
		title = w.Title
	}
	if r.Title = field.Clean(title); r.Title != "" {
		set(metadata.FieldTitle)
	} else {
		r.Warn("OpenAlex record has no title")
	}

	for _, a := range w.Authorships {
		raw, display := field.Collapse(a.RawAuthorName), field.Collapse(a.Author.DisplayName)
		if raw == "" || strings.EqualFold(raw, display) {
			raw = display
		}
		if raw == "" {
			continue
		}
		if strings.HasPrefix(raw, ",") {
			r.Warn(fmt.Sprintf("OpenAlex lists an affiliation as an author; dropped: %q", raw))
			continue
		}
		if n := parseName(raw); n != (metadata.Name{}) {
			r.Authors = append(r.Authors, n)
		}
	}
	if len(r.Authors) > 0 {
		set(metadata.FieldAuthors)
	}

	if d, ok := parseDate(w.PublicationDate); ok {
		r.Issued = d
	} else if w.PublicationYear > 0 {
		r.Issued = metadata.Date{Year: w.PublicationYear}
	}
	if !r.Issued.IsZero() {
		set(metadata.FieldIssued)
	}

	if src != nil {
		switch src.Type {
		case "journal", "conference", "book series":
			if ct := field.Clean(src.DisplayName); ct != "" {
				r.ContainerTitle = ct
				set(metadata.FieldContainerTitle)
			}
		}
	}
	if v := field.Collapse(w.Biblio.Volume); v != "" {
		r.Volume = v
		set(metadata.FieldVolume)
	}
	if v := field.Collapse(w.Biblio.Issue); v != "" {
		r.Issue = v
		set(metadata.FieldIssue)
	}
	if p := pages(w.Biblio.FirstPage, w.Biblio.LastPage); p != "" {
		r.Page = p
		set(metadata.FieldPage)
	}
	if a := abstract(w.Abstract); a != "" {
		r.Abstract = a
		set(metadata.FieldAbstract)
	}

	o.IsPreprint = w.Type == "preprint" || isPreprintServer(src) || isPreprintDOI(r.DOI)
	if t := w.cslType(src); t != "" {
		r.Type = t
		set(metadata.FieldType)
	}

	if r.DOI != "" {
		if o.IsPreprint {
			o.PreprintDOI = r.DOI
		} else {
			o.PublishedDOI = r.DOI
		}
	}
	for _, l := range w.Locations {
		if id, _, ok := arxivLanding(l.LandingPageURL); ok {
			if o.PreprintDOI == "" {
				o.PreprintDOI = identifier.ArxivDOI(id)
			}
			continue
		}
		d, ok := doiLanding(l.LandingPageURL)
		if !ok || strings.EqualFold(d, r.DOI) {
			continue
		}
		switch {
		case isPreprintServer(l.Source) || isPreprintDOI(d):
			if o.PreprintDOI == "" {
				o.PreprintDOI = d
			}
		case l.Version == "publishedVersion" && l.Source != nil && l.Source.Type == "journal":
			if o.PublishedDOI == "" {
				o.PublishedDOI = d
			}
		}
	}
	r.DOIPreprint, r.DOIPublished = o.PreprintDOI, o.PublishedDOI
	if r.DOIPreprint != "" || r.DOIPublished != "" {
		set(metadata.FieldDOI)
	}

	seen := map[string]bool{}
	addPDF := func(l *location) {
		if l == nil || l.PDFURL == "" || seen[l.PDFURL] {
			return
		}
		seen[l.PDFURL] = true
		o.PDFURLs = append(o.PDFURLs, l.PDFURL)
	}
	addPDF(w.BestOALocation)
	for i := range w.Locations {
		addPDF(&w.Locations[i])
	}

	r.Normalize()
	return o
}

func (w *work) primarySource() *source {
	if w.PrimaryLocation == nil {
		return nil
	}
	return w.PrimaryLocation.Source
}

// cslType maps OpenAlex's type (see the package doc).
func (w *work) cslType(src *source) string {
	srcType := ""
	if src != nil {
		srcType = src.Type
	}
	switch w.Type {
	case "article":
		switch {
		case srcType == "journal":
			return "article-journal"
		case srcType == "conference":
			return "paper-conference"
		case w.TypeCrossref == "journal-article":
			return "article-journal"
		case w.TypeCrossref == "proceedings-article":
			return "paper-conference"
		}
		return "article"
	case "preprint":
		return "article"
	case "review", "editorial", "letter", "erratum":
		return "article-journal"
	case "book-chapter":
		return "chapter"
	case "book", "monograph":
		return "book"
	case "conference-paper":
		return "paper-conference"
	case "dissertation":
		return "thesis"
	case "dataset":
		return "dataset"
	case "report":
		return "report"
	case "standard":
		return "standard"
	case "peer-review":
		return "review"
	case "reference-entry":
		return "entry-encyclopedia"
	}
	return ""
}

// preprintServers are lower-case fragments of the names OpenAlex gives
// preprint servers' sources.
func preprintServers() []string {
	return []string{"arxiv", "biorxiv", "medrxiv", "chemrxiv", "ssrn", "research square",
		"preprints.org", "osf preprints", "psyarxiv", "socarxiv", "edarxiv", "engrxiv",
		"techrxiv", "authorea", "earth and space science open archive", "eartharxiv"}
}

func isPreprintServer(s *source) bool {
	if s == nil {
		return false
	}
	name := strings.ToLower(s.DisplayName)
	for _, p := range preprintServers() {
		if strings.Contains(name, p) {
			return true
		}
	}
	return false
}

// isPreprintDOI reports whether doi has the prefix of a preprint server:
// arXiv 10.48550, bioRxiv/medRxiv 10.1101, SSRN 10.2139, Research Square
// 10.21203, ChemRxiv 10.26434, Preprints.org 10.20944, OSF Preprints
// 10.31219 (and PsyArXiv 10.31234, SocArXiv 10.31235, EdArXiv 10.35542),
// TechRxiv 10.36227, Authorea 10.22541, ESSOAr 10.1002/essoar.
func isPreprintDOI(doi string) bool {
	d := strings.ToLower(doi)
	for _, p := range []string{"10.48550/", "10.1101/", "10.2139/", "10.21203/", "10.26434/",
		"10.20944/", "10.31219/", "10.31234/", "10.31235/", "10.35542/", "10.36227/",
		"10.22541/", "10.1002/essoar."} {
		if strings.HasPrefix(d, p) {
			return true
		}
	}
	return false
}

var arxivAbsRe = regexp.MustCompile(`^https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/(.+?)(?:\.pdf)?$`)

// arxivLanding returns the arXiv id of an arxiv.org abs/pdf URL.
func arxivLanding(u string) (string, int, bool) {
	m := arxivAbsRe.FindStringSubmatch(strings.TrimSpace(u))
	if m == nil {
		return "", 0, false
	}
	return identifier.ParseArxivID(m[1])
}

// doiLanding returns the DOI of a doi.org landing page URL.
func doiLanding(u string) (string, bool) {
	lower := strings.ToLower(u)
	if !strings.HasPrefix(lower, "https://doi.org/") && !strings.HasPrefix(lower, "http://doi.org/") &&
		!strings.HasPrefix(lower, "https://dx.doi.org/") && !strings.HasPrefix(lower, "http://dx.doi.org/") {
		return "", false
	}
	d, ok := identifier.ParseDOI(u)
	if !ok {
		return "", false
	}
	if id, ok := identifier.ArxivIDFromDOI(d); ok {
		d = identifier.ArxivDOI(id)
	}
	return d, true
}

// parseName splits an author name; names in CJK scripts are family name
// first ("宮地 元彦" → family 宮地, given 元彦).
func parseName(s string) metadata.Name {
	if f := strings.Fields(s); len(f) == 2 && isCJK(s) {
		return metadata.Name{Family: f[0], Given: f[1]}
	}
	return metadata.ParseName(s)
}

// isCJK reports whether every letter of s is Han, Hiragana, Katakana or
// Hangul.
func isCJK(s string) bool {
	letters := 0
	for _, r := range s {
		if !unicode.IsLetter(r) {
			continue
		}
		letters++
		if !unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
			return false
		}
	}
	return letters > 0
}

// parseDate reads publication_date ("2024-04-01", field.ISODate); a
// January 1 date is read as the year alone (see the package doc).
func parseDate(s string) (metadata.Date, bool) {
	d, ok := field.ISODate(s)
	if d.Month == 1 && d.Day == 1 {
		d.Month, d.Day = 0, 0 // padded year-only date
	}
	return d, ok
}

func pages(first, last string) string {
	first, last = field.Collapse(first), field.Collapse(last)
	switch {
	case first == "":
		return ""
	case last == "" || last == first:
		return first
	}
	return first + "-" + last
}

// abstract rebuilds the text of an inverted index (word → positions).
func abstract(inv map[string][]int) string {
	if len(inv) == 0 {
		return ""
	}
	type wp struct {
		pos  int
		word string
	}
	var words []wp
	for w, ps := range inv {
		for _, p := range ps {
			words = append(words, wp{p, w})
		}
	}
	sort.Slice(words, func(i, j int) bool { return words[i].pos < words[j].pos })
	parts := make([]string, len(words))
	for i, w := range words {
		parts[i] = w.word
	}
	// Publishers' "Abstract" heading often leaks in as the first word.
	if len(parts) > 1 && strings.EqualFold(strings.TrimRight(parts[0], ":."), "abstract") {
		parts = parts[1:]
	}
	return field.Clean(strings.Join(parts, " "))
}
