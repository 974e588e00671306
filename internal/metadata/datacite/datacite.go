// Package datacite looks up one DOI in the DataCite REST API
// (GET /dois/{doi}, https://support.datacite.org/docs/api) and maps it to a
// metadata.Observation with every field attributed to
// metadata.SourceDataCite. DataCite registers arXiv's DOIs
// (10.48550/arXiv.<id>), which Crossref answers 404 for, and the DOIs of
// many repositories (Zenodo, Dagstuhl, university presses). It does no
// merging with other sources.
//
// # Mapping
//
//   - Title: the first title without a titleType (else the first title),
//     with a "Subtitle" title appended after a colon.
//   - Authors: creators. Personal names take familyName/givenName (or, when
//     those are missing, "Family, Given" from name); Organizational names
//     and names without a type that are not written "Family, Given" become
//     Literal.
//   - Issued: the date of type Issued, with the precision given ("2019" is
//     a year alone), else publicationYear. For arXiv, when the dates of
//     the first and the latest version ("Submitted", dateInformation v1,
//     v2, ...) fall in different years, a warning says so: the year of an
//     arXiv paper depends on its version.
//   - Publisher: publisher (a string, or an object with a name).
//   - Container, volume, issue, page: container.title, .volume, .issue,
//     .firstPage-.lastPage.
//   - Type (resourceTypeGeneral → CSL): Preprint → article; JournalArticle
//     → article-journal; ConferencePaper → paper-conference; Book → book;
//     BookChapter → chapter; Dissertation → thesis; Dataset, DataPaper →
//     dataset; Report → report; Software, ComputationalNotebook →
//     software; Standard → standard; PeerReview → review; others take
//     types.citeproc when DataCite gives one.
//   - DOI: the requested capitalisation when it matches (DataCite
//     lower-cases DOIs); an arXiv DOI is written 10.48550/arXiv.<id>, its
//     versionless ArxivID is set (and ArxivVersion when the DOI or an arXiv
//     identifier carries a version), and the work is a preprint.
//   - Preprint and published DOIs: the work's own DOI is the preprint DOI
//     of a preprint (arXiv, resourceTypeGeneral Preprint) and the published
//     DOI otherwise. relatedIdentifiers of type DOI: IsPreprintOf gives the
//     published DOI and HasPreprint the preprint DOI; for a preprint,
//     IsVersionOf, IsIdenticalTo and IsPublishedIn also name the published
//     version when the related DOI has another registrant's prefix (Zenodo
//     links a version to its concept DOI with IsVersionOf under its own
//     prefix 10.5281, and that is no publication).
//   - PDFURLs: contentUrl entries ending in .pdf.
package datacite

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/crossmem/crossmem/internal/fetch"
	"github.com/crossmem/crossmem/internal/identifier"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/metadata/internal/field"
)

// DefaultBaseURL is the DataCite REST API used when Client.BaseURL is
// empty.
const DefaultBaseURL = "https://api.datacite.org"

// ErrNotFound is matched (errors.Is) by the error of a lookup for a DOI
// DataCite does not have (HTTP 404). It also matches fetch.ErrNotFound.
var ErrNotFound = fmt.Errorf("datacite: %w", fetch.ErrNotFound)

// Client queries the DataCite REST API. HTTP is required. A Client is safe
// for concurrent use if its HTTP client is.
type Client struct {
	BaseURL string // default DefaultBaseURL
	HTTP    *fetch.Client
}

// ByDOI returns DataCite's record of doi (bare, doi: or doi.org URL form),
// asked as GET /dois/<doi>?include=media,client. The Observation's Query
// is "doi:<doi>". Errors: ErrNotFound for a DOI DataCite does not have
// (Crossref DOIs among them); a *fetch.Error when the API failed (never
// ErrNotFound); a parse error for a malformed response.
func (c *Client) ByDOI(ctx context.Context, doi string) (*metadata.Observation, error) {
	if c.HTTP == nil {
		return nil, errors.New("datacite: client has no HTTP client")
	}
	d, ok := identifier.ParseDOI(doi)
	if !ok {
		return nil, fmt.Errorf("datacite: %q is not a DOI", doi)
	}
	base := c.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	u := strings.TrimSuffix(base, "/") + "/dois/" + strings.ReplaceAll(url.PathEscape(d), "%2F", "/") +
		"?include=media,client"
	resp, err := c.HTTP.Get(ctx, u, "application/vnd.api+json, application/json")
	if err != nil {
		if errors.Is(err, fetch.ErrNotFound) {
			return nil, fmt.Errorf("datacite %s: %w", d, ErrNotFound)
		}
		return nil, fmt.Errorf("datacite lookup %s: %w", d, err)
	}
	o, err := parse(resp.Body, d)
	if err != nil {
		return nil, fmt.Errorf("datacite lookup %s: %w", d, err)
	}
	o.Query = "doi:" + d
	return o, nil
}

// --- JSON --------------------------------------------------------------------

type document struct {
	Data *struct {
		ID         string      `json:"id"`
		Attributes *attributes `json:"attributes"`
	} `json:"data"`
}

type attributes struct {
	DOI         string `json:"doi"`
	Identifiers []struct {
		Identifier     string `json:"identifier"`
		IdentifierType string `json:"identifierType"`
	} `json:"identifiers"`
	Creators []creator `json:"creators"`
	Titles   []struct {
		Title     string `json:"title"`
		TitleType string `json:"titleType"`
	} `json:"titles"`
	Publisher       publisher        `json:"publisher"`
	Container       *container       `json:"container"`
	PublicationYear field.FlexString `json:"publicationYear"`
	Dates           []struct {
		Date            string `json:"date"`
		DateType        string `json:"dateType"`
		DateInformation string `json:"dateInformation"`
	} `json:"dates"`
	Types struct {
		Citeproc            string `json:"citeproc"`
		ResourceTypeGeneral string `json:"resourceTypeGeneral"`
	} `json:"types"`
	RelatedIdentifiers []struct {
		RelationType          string `json:"relationType"`
		RelatedIdentifier     string `json:"relatedIdentifier"`
		RelatedIdentifierType string `json:"relatedIdentifierType"`
	} `json:"relatedIdentifiers"`
	URL        string          `json:"url"`
	ContentURL json.RawMessage `json:"contentUrl"`
}

type creator struct {
	Name       string `json:"name"`
	NameType   string `json:"nameType"`
	GivenName  string `json:"givenName"`
	FamilyName string `json:"familyName"`
}

type container struct {
	Title     string           `json:"title"`
	Volume    field.FlexString `json:"volume"`
	Issue     field.FlexString `json:"issue"`
	FirstPage field.FlexString `json:"firstPage"`
	LastPage  field.FlexString `json:"lastPage"`
}

// publisher is a string or, in newer API responses, {"name": "..."}.
type publisher string

func (p *publisher) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || string(b) == "null":
		return nil
	case b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*p = publisher(s)
		return nil
	}
	var o struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return err
	}
	*p = publisher(o.Name)
	return nil
}

// --- mapping -----------------------------------------------------------------

// parse maps a DataCite response: a JSON:API document {"data": {
// "attributes": ...}}, or a bare attributes object as DataCite's
// metadata exports hold it. requested is the DOI as the caller wrote it.
func parse(body []byte, requested string) (*metadata.Observation, error) {
	var doc document
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, field.ParseError("DataCite", err)
	}
	a := (*attributes)(nil)
	if doc.Data != nil && doc.Data.Attributes != nil {
		a = doc.Data.Attributes
	} else {
		var bare attributes
		if err := json.Unmarshal(body, &bare); err != nil {
			return nil, field.ParseError("DataCite", err)
		}
		a = &bare
	}
	if a.DOI == "" {
		return nil, errors.New("parse DataCite JSON: no DOI record in the response")
	}
	return a.observation(requested), nil
}

func (a *attributes) observation(requested string) *metadata.Observation {
	r := &metadata.Record{}
	set := func(field string) { r.SetSource(field, metadata.SourceDataCite) }
	o := &metadata.Observation{Source: metadata.SourceDataCite, Record: r}

	doi := a.DOI
	if d, ok := identifier.ParseDOI(doi); ok {
		doi = d
	}
	if strings.EqualFold(doi, requested) {
		doi = requested
	}
	arxivID, isArxiv := identifier.ArxivIDFromDOI(doi)
	if isArxiv {
		doi = identifier.ArxivDOI(arxivID)
		r.ArxivID = arxivID
		r.ArxivVersion = a.arxivVersion(requested)
		set(metadata.FieldArxivID)
	}
	r.DOI = doi
	set(metadata.FieldDOI)

	if t := a.title(); t != "" {
		r.Title = t
		set(metadata.FieldTitle)
	} else {
		r.Warn("DataCite record has no title")
	}

	for _, c := range a.Creators {
		if n := c.name(); n != (metadata.Name{}) {
			r.Authors = append(r.Authors, n)
		}
	}
	if len(r.Authors) > 0 {
		set(metadata.FieldAuthors)
	}

	r.Issued = a.issued()
	if !r.Issued.IsZero() {
		set(metadata.FieldIssued)
	}
	if isArxiv {
		if first, last, lastV, ok := a.versionYears(); ok && first != last {
			r.Warn(fmt.Sprintf("arXiv v1 was submitted in %d; v%d in %d", first, lastV, last))
		}
	}

	if p := field.Clean(string(a.Publisher)); p != "" {
		r.Publisher = p
		set(metadata.FieldPublisher)
	}
	if ct := a.Container; ct != nil {
		if t := field.Clean(ct.Title); t != "" {
			r.ContainerTitle = t
			set(metadata.FieldContainerTitle)
		}
		if v := field.Collapse(string(ct.Volume)); v != "" {
			r.Volume = v
			set(metadata.FieldVolume)
		}
		if v := field.Collapse(string(ct.Issue)); v != "" {
			r.Issue = v
			set(metadata.FieldIssue)
		}
		if p := pages(string(ct.FirstPage), string(ct.LastPage)); p != "" {
			r.Page = p
			set(metadata.FieldPage)
		}
	}

	o.IsPreprint = isArxiv || a.Types.ResourceTypeGeneral == "Preprint"
	if t := a.cslType(); t != "" {
		r.Type = t
		set(metadata.FieldType)
	}
	if u := strings.TrimSpace(a.URL); u != "" {
		r.URL = u
		set(metadata.FieldURL)
	}

	if o.IsPreprint {
		o.PreprintDOI = doi
	} else {
		o.PublishedDOI = doi
	}
	for _, rel := range a.RelatedIdentifiers {
		if !strings.EqualFold(rel.RelatedIdentifierType, "DOI") {
			continue
		}
		d, ok := identifier.ParseDOI(rel.RelatedIdentifier)
		if !ok || strings.EqualFold(d, doi) {
			continue
		}
		switch rel.RelationType {
		case "IsPreprintOf":
			o.PublishedDOI = d
		case "HasPreprint":
			o.PreprintDOI = d
		case "IsVersionOf", "IsIdenticalTo", "IsPublishedIn":
			if o.IsPreprint && o.PublishedDOI == "" && !samePrefix(d, doi) {
				o.PublishedDOI = d
			}
		}
	}
	r.DOIPreprint, r.DOIPublished = o.PreprintDOI, o.PublishedDOI

	for _, u := range contentURLs(a.ContentURL) {
		if strings.HasSuffix(strings.ToLower(u), ".pdf") && !contains(o.PDFURLs, u) {
			o.PDFURLs = append(o.PDFURLs, u)
		}
	}

	r.Normalize()
	return o
}

// title returns the main title with its subtitle.
func (a *attributes) title() string {
	var main, sub string
	for _, t := range a.Titles {
		switch t.TitleType {
		case "":
			if main == "" {
				main = field.Clean(t.Title)
			}
		case "Subtitle":
			if sub == "" {
				sub = field.Clean(t.Title)
			}
		}
	}
	if main == "" && len(a.Titles) > 0 {
		main = field.Clean(a.Titles[0].Title)
	}
	return field.JoinSubtitle(main, sub)
}

func (c creator) name() metadata.Name {
	family, given, name := field.Collapse(c.FamilyName), field.Collapse(c.GivenName), field.Collapse(c.Name)
	switch {
	case c.NameType == "Organizational":
		return metadata.Name{Literal: name}
	case family != "":
		return metadata.Name{Family: family, Given: given}
	case strings.Contains(name, ","):
		return metadata.ParseName(name)
	case name != "":
		return metadata.Name{Literal: name}
	}
	return metadata.Name{}
}

// issued returns the Issued date, else publicationYear.
func (a *attributes) issued() metadata.Date {
	for _, d := range a.Dates {
		if d.DateType == "Issued" {
			if v, ok := parseDate(d.Date); ok {
				return v
			}
		}
	}
	if y, err := strconv.Atoi(strings.TrimSpace(string(a.PublicationYear))); err == nil && y > 0 {
		return metadata.Date{Year: y}
	}
	return metadata.Date{}
}

var versionRe = regexp.MustCompile(`^v(\d+)$`)

// versionYears returns the years in which the first and the latest arXiv
// version were submitted, and the latest version's number.
func (a *attributes) versionYears() (first, last, lastVersion int, ok bool) {
	for _, d := range a.Dates {
		if d.DateType != "Submitted" {
			continue
		}
		m := versionRe.FindStringSubmatch(strings.TrimSpace(d.DateInformation))
		if m == nil {
			continue
		}
		v, _ := strconv.Atoi(m[1])
		date, okd := parseDate(d.Date)
		if !okd {
			continue
		}
		if v == 1 {
			first = date.Year
		}
		if v > lastVersion {
			lastVersion, last = v, date.Year
		}
	}
	return first, last, lastVersion, first > 0 && last > 0
}

// arxivVersion returns the version an arXiv DOI or identifier carries
// (arXiv DOIs are versionless, so this is usually 0).
func (a *attributes) arxivVersion(requested string) int {
	if _, v, ok := identifier.ParseArxivID(strings.TrimPrefix(strings.ToLower(requested), "10.48550/arxiv.")); ok && v > 0 {
		return v
	}
	for _, id := range a.Identifiers {
		if strings.EqualFold(id.IdentifierType, "arXiv") {
			if _, v, ok := identifier.ParseArxivID(id.Identifier); ok && v > 0 {
				return v
			}
		}
	}
	return 0
}

// cslType maps the resource type (see the package doc).
func (a *attributes) cslType() string {
	switch a.Types.ResourceTypeGeneral {
	case "Preprint":
		return "article"
	case "JournalArticle":
		return "article-journal"
	case "ConferencePaper":
		return "paper-conference"
	case "Book":
		return "book"
	case "BookChapter":
		return "chapter"
	case "Dissertation":
		return "thesis"
	case "Dataset", "DataPaper":
		return "dataset"
	case "Report":
		return "report"
	case "Software", "ComputationalNotebook":
		return "software"
	case "Standard":
		return "standard"
	case "PeerReview":
		return "review"
	}
	return strings.TrimSpace(a.Types.Citeproc)
}

// parseDate reads "2019", "2019-02", "2019-02-07" or an RFC 3339 date-time
// with the precision given (field.ISODate of the date part).
func parseDate(s string) (metadata.Date, bool) {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, 'T'); i >= 0 {
		s = s[:i]
	}
	return field.ISODate(s)
}

// pages joins first and last page; values with spaces ("No 1", "2 (2018)")
// are not page numbers and give "".
func pages(first, last string) string {
	first, last = field.Collapse(first), field.Collapse(last)
	if first == "" || strings.Contains(first, " ") {
		return ""
	}
	if last == "" || last == first || strings.Contains(last, " ") {
		return first
	}
	return first + "-" + last
}

// contentURLs reads contentUrl: null, a string or a list of strings.
func contentURLs(raw json.RawMessage) []string {
	var list []string
	if err := json.Unmarshal(raw, &list); err == nil {
		return list
	}
	var one string
	if err := json.Unmarshal(raw, &one); err == nil && one != "" {
		return []string{one}
	}
	return nil
}

// samePrefix reports whether two DOIs have the same registrant prefix
// ("10.5281").
func samePrefix(a, b string) bool {
	pa, _, _ := strings.Cut(a, "/")
	pb, _, _ := strings.Cut(b, "/")
	return strings.EqualFold(pa, pb)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
