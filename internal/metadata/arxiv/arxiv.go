// Package arxiv looks up one paper in the arXiv API (Atom feed,
// https://info.arxiv.org/help/api/) and maps it to a metadata.Record with
// every field attributed to metadata.SourceArxiv. It also builds arXiv PDF
// URLs. It does no merging with other sources and never downloads PDFs.
//
// arXiv responses carry no charset in Content-Type; the body is always
// decoded as UTF-8, which is what the XML prolog declares (decoding by HTTP
// defaults turns "Wübben" into "WÃ¼bben").
//
// The date of a capture is the date of the captured version: arXiv's
// <updated> for the entry returned (a versioned id_list query returns that
// version), not <published>, which is always the v1 date. When the two
// years differ the Record carries a warning, because the cite key year
// depends on it (BERT: v1 2018, v2 2019).
package arxiv

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/crossmem/crossmem/internal/fetch"
	"github.com/crossmem/crossmem/internal/identifier"
	"github.com/crossmem/crossmem/internal/metadata"
)

// Defaults for Client fields left empty.
const (
	DefaultBaseURL = "https://export.arxiv.org/api/query"
	DefaultPDFBase = "https://arxiv.org/pdf"
)

// ErrNotFound is matched (errors.Is) by the error of a lookup for a paper
// arXiv does not have, or an id arXiv rejects. It also matches
// fetch.ErrNotFound.
var ErrNotFound = fmt.Errorf("arxiv: %w", fetch.ErrNotFound)

// Client queries the arXiv API. HTTP is required; it provides rate
// limiting (arXiv asks for one request every 3 s), retries and caching.
// A Client is safe for concurrent use if its HTTP client is.
type Client struct {
	BaseURL string // API endpoint; default DefaultBaseURL
	PDFBase string // PDF URL prefix; default DefaultPDFBase
	HTTP    *fetch.Client
}

// Entry is one arXiv API entry mapped to a Record, plus the arXiv-only
// details a Record has no field for.
type Entry struct {
	Record *metadata.Record
	// Published is the date of v1; Updated the date of the version
	// returned (also Record.Issued).
	Published, Updated metadata.Date
	Comment            string   // the authors' comment ("32 pages"), whitespace-collapsed
	Categories         []string // all categories, primary first as arXiv lists them
	PDFURL             string   // the versioned PDF URL
}

// Lookup returns the Record of arXiv paper id (versionless, e.g.
// "1706.03762" or "hep-th/9901001"; a "vN" suffix is accepted when version
// is 0) at version (0 = latest). Errors: ErrNotFound (with arXiv's message
// when it gave one) for an unknown or malformed id; a *fetch.Error when the
// API failed; a parse error for a response that is not a valid Atom feed.
func (c *Client) Lookup(ctx context.Context, id string, version int) (*metadata.Record, error) {
	e, err := c.LookupEntry(ctx, id, version)
	if err != nil {
		return nil, err
	}
	return e.Record, nil
}

// LookupEntry is Lookup returning the whole Entry.
func (c *Client) LookupEntry(ctx context.Context, id string, version int) (*Entry, error) {
	if c.HTTP == nil {
		return nil, errors.New("arxiv: client has no HTTP client")
	}
	id = strings.TrimSpace(id)
	if pid, v, ok := identifier.ParseArxivID(id); ok {
		id = pid
		if version == 0 {
			version = v
		}
	}
	query := id
	if version > 0 {
		query += "v" + strconv.Itoa(version)
	}
	base := c.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	u := base + "?id_list=" + url.QueryEscape(query)

	resp, err := c.HTTP.Get(ctx, u, "application/atom+xml")
	var body []byte
	switch {
	case err == nil:
		body = resp.Body
	default:
		// arXiv answers a malformed id with HTTP 400 and an Atom error
		// entry; read arXiv's message from it.
		var fe *fetch.Error
		if errors.As(err, &fe) && fe.Status >= 400 && fe.Status < 500 && len(fe.Body) > 0 {
			if f, perr := parseFeed(fe.Body); perr == nil {
				if msg, ok := f.errorMessage(); ok {
					return nil, fmt.Errorf("arxiv %s: %s: %w", query, msg, ErrNotFound)
				}
			}
		}
		if errors.Is(err, fetch.ErrNotFound) {
			return nil, fmt.Errorf("arxiv %s: %w", query, ErrNotFound)
		}
		return nil, fmt.Errorf("arxiv lookup %s: %w", query, err)
	}

	f, err := parseFeed(body)
	if err != nil {
		return nil, fmt.Errorf("arxiv lookup %s: %w", query, err)
	}
	if msg, ok := f.errorMessage(); ok {
		return nil, fmt.Errorf("arxiv %s: %s: %w", query, msg, ErrNotFound)
	}
	ent, ok := f.find(id)
	if !ok {
		return nil, fmt.Errorf("arxiv %s: no entry in the API response: %w", query, ErrNotFound)
	}
	return c.toEntry(ent, id), nil
}

// PDFURL returns the PDF URL of id at version (0 = latest):
// PDFBase + "/" + id [+ "v" + version].
func (c *Client) PDFURL(id string, version int) string {
	base := c.PDFBase
	if base == "" {
		base = DefaultPDFBase
	}
	u := strings.TrimSuffix(base, "/") + "/" + id
	if version > 0 {
		u += "v" + strconv.Itoa(version)
	}
	return u
}

// --- Atom --------------------------------------------------------------------

type feed struct {
	XMLName      xml.Name `xml:"http://www.w3.org/2005/Atom feed"`
	TotalResults string   `xml:"http://a9.com/-/spec/opensearch/1.1/ totalResults"`
	Entries      []entry  `xml:"http://www.w3.org/2005/Atom entry"`
}

type entry struct {
	ID        string `xml:"http://www.w3.org/2005/Atom id"`
	Title     string `xml:"http://www.w3.org/2005/Atom title"`
	Summary   string `xml:"http://www.w3.org/2005/Atom summary"`
	Updated   string `xml:"http://www.w3.org/2005/Atom updated"`
	Published string `xml:"http://www.w3.org/2005/Atom published"`
	Authors   []struct {
		Name string `xml:"http://www.w3.org/2005/Atom name"`
	} `xml:"http://www.w3.org/2005/Atom author"`
	Categories []struct {
		Term string `xml:"term,attr"`
	} `xml:"http://www.w3.org/2005/Atom category"`
	DOI             string `xml:"http://arxiv.org/schemas/atom doi"`
	JournalRef      string `xml:"http://arxiv.org/schemas/atom journal_ref"`
	Comment         string `xml:"http://arxiv.org/schemas/atom comment"`
	PrimaryCategory struct {
		Term string `xml:"term,attr"`
	} `xml:"http://arxiv.org/schemas/atom primary_category"`
}

// parseFeed decodes an Atom feed, always as UTF-8.
func parseFeed(body []byte) (*feed, error) {
	body = bytes.ToValidUTF8(body, []byte("\uFFFD"))
	d := xml.NewDecoder(bytes.NewReader(body))
	// The prolog says UTF-8; if it ever says otherwise, still read UTF-8.
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	var f feed
	if err := d.Decode(&f); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("parse arXiv Atom feed: empty response")
		}
		var se *xml.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("parse arXiv Atom feed: malformed XML at line %d: %s", se.Line, se.Msg)
		}
		return nil, fmt.Errorf("parse arXiv Atom feed: %w", err)
	}
	return &f, nil
}

// errorMessage returns arXiv's message when the feed is an API error
// (an entry whose id is https://arxiv.org/api/errors#...).
func (f *feed) errorMessage() (string, bool) {
	for _, e := range f.Entries {
		if strings.Contains(e.ID, "/api/errors") {
			msg := collapse(e.Summary)
			if msg == "" {
				msg = "arXiv API error " + strings.TrimSpace(e.ID)
			}
			return msg, true
		}
	}
	return "", false
}

var absIDRe = regexp.MustCompile(`^https?://(?:www\.|export\.)?arxiv\.org/abs/(.+)$`)

// find returns the entry for versionless id. An entry without a title is
// how arXiv has reported unknown ids, so it does not count.
func (f *feed) find(id string) (entry, bool) {
	for _, e := range f.Entries {
		if collapse(e.Title) == "" {
			continue
		}
		eid, _ := entryID(e.ID)
		if eid == id {
			return e, true
		}
	}
	return entry{}, false
}

// entryID returns the versionless id and version of an entry's <id>
// ("http://arxiv.org/abs/1111.2011v2" → "1111.2011", 2).
func entryID(s string) (string, int) {
	m := absIDRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return "", 0
	}
	id, v, ok := identifier.ParseArxivID(m[1])
	if !ok {
		return m[1], 0
	}
	return id, v
}

func (c *Client) toEntry(e entry, id string) *Entry {
	r := &metadata.Record{}
	set := func(field string) { r.SetSource(field, metadata.SourceArxiv) }

	_, version := entryID(e.ID)
	r.Type = "article"
	set(metadata.FieldType)
	r.Title = collapse(e.Title)
	set(metadata.FieldTitle)
	for _, a := range e.Authors {
		if n := metadata.ParseName(a.Name); n != (metadata.Name{}) {
			r.Authors = append(r.Authors, n)
		}
	}
	if len(r.Authors) > 0 {
		set(metadata.FieldAuthors)
	}
	published, _ := parseDate(e.Published)
	updated, ok := parseDate(e.Updated)
	if !ok {
		updated = published
	}
	if !updated.IsZero() {
		r.Issued = updated
		set(metadata.FieldIssued)
	}
	if !published.IsZero() && !updated.IsZero() && published.Year != updated.Year {
		v := "a later version"
		if version > 0 {
			v = "v" + strconv.Itoa(version)
		}
		r.Warn(fmt.Sprintf("arXiv v1 was submitted in %d; this capture is %s (%d)", published.Year, v, updated.Year))
	}
	r.ArxivID = id
	r.ArxivVersion = version
	r.ArxivPrimaryCategory = strings.TrimSpace(e.PrimaryCategory.Term)
	set(metadata.FieldArxivID)
	r.DOI = identifier.ArxivDOI(id)
	r.DOIPreprint = r.DOI
	if d, ok := identifier.ParseDOI(firstField(e.DOI)); ok {
		r.DOIPublished = d
	}
	set(metadata.FieldDOI)
	if jr := collapse(e.JournalRef); jr != "" {
		r.JournalRef = jr
		set(metadata.FieldJournalRef)
	}
	r.Publisher = "arXiv"
	set(metadata.FieldPublisher)
	if abs := collapse(e.Summary); abs != "" {
		r.Abstract = abs
		set(metadata.FieldAbstract)
	}
	r.URL = "https://arxiv.org/abs/" + id
	if version > 0 {
		r.URL += "v" + strconv.Itoa(version)
	}
	set(metadata.FieldURL)
	r.Normalize()

	out := &Entry{
		Record:    r,
		Published: published,
		Updated:   updated,
		Comment:   collapse(e.Comment),
		PDFURL:    c.PDFURL(id, version),
	}
	for _, cat := range e.Categories {
		if t := strings.TrimSpace(cat.Term); t != "" {
			out.Categories = append(out.Categories, t)
		}
	}
	return out
}

// parseDate reads an Atom date-time ("2012-04-02T12:38:54Z") as a calendar
// date in its own offset.
func parseDate(s string) (metadata.Date, bool) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return metadata.Date{Year: t.Year(), Month: int(t.Month()), Day: t.Day()}, true
	}
	if len(s) >= 10 {
		if t, err := time.Parse("2006-01-02", s[:10]); err == nil {
			return metadata.Date{Year: t.Year(), Month: int(t.Month()), Day: t.Day()}, true
		}
	}
	return metadata.Date{}, false
}

// collapse trims s and replaces each run of white space with one space.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

func firstField(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}
