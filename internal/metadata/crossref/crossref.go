// Package crossref looks up one work in the Crossref REST API
// (GET /works/{doi}, https://api.crossref.org/swagger-ui/) and maps it to a
// metadata.Record with every field attributed to metadata.SourceCrossref,
// plus the work's publisher-declared PDF links; Observe gives the same as a
// metadata.Observation. SearchTitle (GET /works?query.title=...) returns
// candidate works for a title, which the caller must confirm: Crossref
// returns a different paper when it lacks the one asked for. It does no
// merging with other sources and never downloads anything but JSON.
//
// Crossref only knows Crossref DOIs: arXiv DOIs (10.48550/arXiv.*) are
// DataCite DOIs and answer 404 here.
package crossref

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/crossmem/crossmem/internal/fetch"
	"github.com/crossmem/crossmem/internal/identifier"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/metadata/internal/field"
)

// DefaultBaseURL is the Crossref REST API used when Client.BaseURL is empty.
const DefaultBaseURL = "https://api.crossref.org"

// ErrNotFound is matched (errors.Is) by the error of a lookup for a DOI
// Crossref does not have (HTTP 404). It also matches fetch.ErrNotFound.
var ErrNotFound = fmt.Errorf("crossref: %w", fetch.ErrNotFound)

// Client queries the Crossref REST API. HTTP is required. Mailto, when set,
// is sent as the mailto query parameter, which puts requests in Crossref's
// "polite" pool. A Client is safe for concurrent use if its HTTP client is.
type Client struct {
	BaseURL string
	HTTP    *fetch.Client
	Mailto  string
}

// Work is a Crossref work: its Record (title[0] with subtitle[0] appended
// after a colon, other titles such as translations ignored) and the URLs
// of its full text that the publisher declares as application/pdf
// (deduplicated, in Crossref's order; they may require a subscription).
type Work struct {
	Record   *metadata.Record
	PDFLinks []string
	// CrossrefType and CrossrefSubtype are Crossref's own work type
	// ("journal-article", "posted-content") and subtype ("preprint"),
	// before the mapping to a CSL type.
	CrossrefType, CrossrefSubtype string
}

// Work fetches and maps the work with the given DOI (bare, doi: or doi.org
// URL form). Errors: ErrNotFound for an unknown DOI; a *fetch.Error when the
// API failed; a parse error for a malformed response.
func (c *Client) Work(ctx context.Context, doi string) (*Work, error) {
	if c.HTTP == nil {
		return nil, errors.New("crossref: client has no HTTP client")
	}
	d, ok := identifier.ParseDOI(doi)
	if !ok {
		return nil, fmt.Errorf("crossref: %q is not a DOI", doi)
	}
	base := c.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	u := strings.TrimSuffix(base, "/") + "/works/" + url.PathEscape(d)
	if c.Mailto != "" {
		u += "?mailto=" + url.QueryEscape(c.Mailto)
	}
	resp, err := c.HTTP.Get(ctx, u, "application/json")
	if err != nil {
		if errors.Is(err, fetch.ErrNotFound) {
			return nil, fmt.Errorf("crossref %s: %w", d, ErrNotFound)
		}
		return nil, fmt.Errorf("crossref lookup %s: %w", d, err)
	}
	w, err := Parse(resp.Body, d)
	if err != nil {
		return nil, fmt.Errorf("crossref lookup %s: %w", d, err)
	}
	return w, nil
}

// Parse maps a Crossref /works/{doi} JSON response to a Work. requested is
// the DOI as the caller wrote it: when it equals Crossref's DOI ignoring
// case, its capitalisation is kept (Crossref lower-cases DOIs).
func Parse(body []byte, requested string) (*Work, error) {
	var env envelope
	if err := json.Unmarshal(body, &env); err != nil {
		return nil, fmt.Errorf("parse Crossref JSON: %w", err)
	}
	if env.Status != "" && env.Status != "ok" {
		return nil, fmt.Errorf("parse Crossref JSON: status %q", env.Status)
	}
	if env.Message == nil || env.Message.DOI == "" {
		return nil, errors.New("parse Crossref JSON: no work in message")
	}
	return env.Message.toWork(requested), nil
}

// --- JSON --------------------------------------------------------------------

type envelope struct {
	Status      string   `json:"status"`
	MessageType string   `json:"message-type"`
	Message     *message `json:"message"`
}

type message struct {
	DOI             string                     `json:"DOI"`
	URL             string                     `json:"URL"`
	Type            string                     `json:"type"`
	Subtype         string                     `json:"subtype"`
	Title           []string                   `json:"title"`
	Subtitle        []string                   `json:"subtitle"`
	ContainerTitle  []string                   `json:"container-title"`
	Author          []person                   `json:"author"`
	Issued          dateParts                  `json:"issued"`
	PublishedPrint  dateParts                  `json:"published-print"`
	PublishedOnline dateParts                  `json:"published-online"`
	Created         dateParts                  `json:"created"`
	Volume          field.FlexString           `json:"volume"`
	Issue           field.FlexString           `json:"issue"`
	Page            field.FlexString           `json:"page"`
	ArticleNumber   field.FlexString           `json:"article-number"`
	Publisher       string                     `json:"publisher"`
	Abstract        string                     `json:"abstract"`
	Link            []link                     `json:"link"`
	Relation        map[string]json.RawMessage `json:"relation"`
}

type person struct {
	Given    string `json:"given"`
	Family   string `json:"family"`
	Name     string `json:"name"`
	Suffix   string `json:"suffix"`
	Sequence string `json:"sequence"`
}

type link struct {
	URL         string `json:"URL"`
	ContentType string `json:"content-type"`
}

type relatedID struct {
	IDType string `json:"id-type"`
	ID     string `json:"id"`
}

// dateParts is a Crossref date: {"date-parts": [[2018, 1, 5]]}, where parts
// may be null ([[null]]) or, in old records, strings.
type dateParts struct {
	DateParts [][]json.RawMessage `json:"date-parts"`
}

func (d dateParts) date() metadata.Date {
	if len(d.DateParts) == 0 {
		return metadata.Date{}
	}
	var v [3]int
	for i, raw := range d.DateParts[0] {
		if i == 3 {
			break
		}
		var n json.Number
		if err := json.Unmarshal(raw, &n); err == nil {
			if x, err := strconv.Atoi(string(n)); err == nil {
				v[i] = x
			}
			continue
		}
		var s string
		if err := json.Unmarshal(raw, &s); err == nil {
			v[i], _ = strconv.Atoi(strings.TrimSpace(s))
		}
	}
	if v[0] <= 0 {
		return metadata.Date{}
	}
	out := metadata.Date{Year: v[0]}
	if v[1] >= 1 && v[1] <= 12 {
		out.Month = v[1]
		if v[2] >= 1 && v[2] <= 31 {
			out.Day = v[2]
		}
	}
	return out
}

// --- mapping -----------------------------------------------------------------

func (m *message) toWork(requested string) *Work {
	r := &metadata.Record{}
	set := func(field string) { r.SetSource(field, metadata.SourceCrossref) }

	doi := m.DOI
	if strings.EqualFold(requested, doi) {
		doi = requested
	}
	r.DOI = doi
	set(metadata.FieldDOI)

	if t := CSLType(m.Type); t != "" {
		r.Type = t
		set(metadata.FieldType)
	}
	if len(m.Title) > 0 {
		r.Title = cleanText(m.Title[0])
		if len(m.Subtitle) > 0 {
			r.Title = field.JoinSubtitle(r.Title, cleanText(m.Subtitle[0]))
		}
	}
	if r.Title != "" {
		set(metadata.FieldTitle)
	} else {
		r.Warn("Crossref record has no title")
	}

	authors := append([]person(nil), m.Author...)
	sort.SliceStable(authors, func(i, j int) bool {
		return authors[i].Sequence == "first" && authors[j].Sequence != "first"
	})
	for _, p := range authors {
		if n := p.name(); n != (metadata.Name{}) {
			r.Authors = append(r.Authors, n)
		}
	}
	if len(r.Authors) > 0 {
		set(metadata.FieldAuthors)
	}

	switch {
	case !m.Issued.date().IsZero():
		r.Issued = m.Issued.date()
	case !m.PublishedPrint.date().IsZero():
		r.Issued = m.PublishedPrint.date()
	case !m.PublishedOnline.date().IsZero():
		r.Issued = m.PublishedOnline.date()
	case !m.Created.date().IsZero():
		r.Issued = m.Created.date()
		r.Warn(fmt.Sprintf("Crossref has no publication date; using the DOI registration date (%d)", r.Issued.Year))
	}
	if !r.Issued.IsZero() {
		set(metadata.FieldIssued)
	}

	if len(m.ContainerTitle) > 0 {
		if ct := cleanText(m.ContainerTitle[0]); ct != "" {
			r.ContainerTitle = ct
			set(metadata.FieldContainerTitle)
		}
	}
	if v := field.Collapse(string(m.Volume)); v != "" {
		r.Volume = v
		set(metadata.FieldVolume)
	}
	if v := field.Collapse(string(m.Issue)); v != "" {
		r.Issue = v
		set(metadata.FieldIssue)
	}
	// Journals that number articles (eLife e01567, APS 022212) have an
	// article number instead of a page range; CSL puts it in page.
	page := field.Collapse(string(m.Page))
	if page == "" {
		page = field.Collapse(string(m.ArticleNumber))
	}
	if page != "" {
		r.Page = page
		set(metadata.FieldPage)
	}
	if p := cleanText(m.Publisher); p != "" {
		r.Publisher = p
		set(metadata.FieldPublisher)
	}
	if u := workURL(m.URL, doi); u != "" {
		r.URL = u
		set(metadata.FieldURL)
	}
	if a := cleanAbstract(m.Abstract); a != "" {
		r.Abstract = a
		set(metadata.FieldAbstract)
	}
	if d, ok := m.related("is-preprint-of"); ok {
		r.DOIPreprint, r.DOIPublished = doi, d
		set(metadata.FieldDOI)
	}
	if d, ok := m.related("has-preprint"); ok {
		r.DOIPreprint, r.DOIPublished = d, doi
		set(metadata.FieldDOI)
	}
	r.Normalize()

	w := &Work{Record: r, CrossrefType: m.Type, CrossrefSubtype: m.Subtype}
	seen := map[string]bool{}
	for _, l := range m.Link {
		ct := strings.ToLower(strings.TrimSpace(l.ContentType))
		if ct != "application/pdf" || l.URL == "" || seen[l.URL] {
			continue
		}
		seen[l.URL] = true
		w.PDFLinks = append(w.PDFLinks, l.URL)
	}
	return w
}

// name maps a Crossref contributor. Organisations ("name") and single names
// become Literal, except a family-only name, which Crossref marks as a
// family name ("Sheherazade"). A suffix is appended to Given after a comma
// ("Amos B., III"), as metadata.ParseName does.
func (p person) name() metadata.Name {
	given, family, lit := field.Collapse(p.Given), field.Collapse(p.Family), field.Collapse(p.Name)
	suffix := field.Collapse(p.Suffix)
	switch {
	case family != "":
		n := metadata.Name{Family: family, Given: given}
		if suffix != "" {
			if n.Given != "" {
				n.Given += ", " + suffix
			} else {
				n.Given = suffix
			}
		}
		return n
	case lit != "":
		return metadata.Name{Literal: lit}
	case given != "":
		return metadata.Name{Literal: given}
	}
	return metadata.Name{}
}

// related returns the first DOI of a relation type.
func (m *message) related(kind string) (string, bool) {
	raw, ok := m.Relation[kind]
	if !ok {
		return "", false
	}
	var ids []relatedID
	if err := json.Unmarshal(raw, &ids); err != nil {
		var one relatedID
		if err := json.Unmarshal(raw, &one); err != nil {
			return "", false
		}
		ids = []relatedID{one}
	}
	for _, id := range ids {
		if !strings.EqualFold(id.IDType, "doi") {
			continue
		}
		if d, ok := identifier.ParseDOI(id.ID); ok {
			return d, true
		}
	}
	return "", false
}

// CSLType maps a Crossref work type ("journal-article", "posted-content",
// as /works gives it in type and Unpaywall in genre) to a CSL item type
// ("article-journal", "article"); unknown types are returned unchanged.
func CSLType(t string) string {
	switch t {
	case "journal-article":
		return "article-journal"
	case "proceedings-article":
		return "paper-conference"
	case "book-chapter", "book-section", "book-part":
		return "chapter"
	case "posted-content":
		return "article"
	case "monograph", "book", "edited-book", "reference-book":
		return "book"
	case "report":
		return "report"
	case "dissertation":
		return "thesis"
	case "dataset":
		return "dataset"
	case "peer-review":
		return "review"
	case "reference-entry":
		return "entry"
	}
	return t
}

// workURL returns Crossref's resolver URL in its https://doi.org form.
func workURL(u, doi string) string {
	u = strings.TrimSpace(u)
	for _, p := range []string{"http://dx.doi.org/", "https://dx.doi.org/", "http://doi.org/"} {
		if strings.HasPrefix(u, p) {
			return "https://doi.org/" + u[len(p):]
		}
	}
	if u == "" && doi != "" {
		return "https://doi.org/" + doi
	}
	return u
}

// tagRe is field.TagRe; cleanAbstract tells block tags from inline ones.
var tagRe = field.TagRe

// titleRe matches a JATS/HTML title element, such as the "Abstract"
// heading Crossref puts in front of abstracts.
var titleRe = regexp.MustCompile(`(?s)<(?:[A-Za-z0-9]+:)?title(?:\s[^<>]*)?>.*?</(?:[A-Za-z0-9]+:)?title>`)

// cleanText is field.Clean: inline markup (<i>, <sub>, <jats:italic>)
// stripped, HTML entities decoded, white space collapsed.
func cleanText(s string) string { return field.Clean(s) }

// cleanAbstract is cleanText after dropping title elements; block elements
// (paragraphs, sections, line breaks) become a space, inline ones vanish.
func cleanAbstract(s string) string {
	s = titleRe.ReplaceAllString(s, " ")
	s = tagRe.ReplaceAllStringFunc(s, func(tag string) string {
		name := strings.TrimLeft(tag, "</")
		if i := strings.IndexAny(name, " \t\n\r/>"); i >= 0 {
			name = name[:i]
		}
		if i := strings.LastIndexByte(name, ':'); i >= 0 {
			name = name[i+1:]
		}
		switch strings.ToLower(name) {
		case "p", "sec", "list", "list-item", "br", "div", "abstract", "para":
			return " "
		}
		return ""
	})
	return field.Collapse(html.UnescapeString(s))
}
