// Package metadata defines the bibliographic record crossmem keeps for a
// captured work, with the provenance of every field.
//
// A Record is shaped like a CSL-JSON item (title, author names split into
// family/given, issued date, container title, volume/issue/page, DOI, CSL
// type) plus the arXiv identity (versionless id, version, primary category).
// Each field remembers which metadata sources supplied it (FieldSources) so
// that disagreements between sources can be surfaced as Warnings instead of
// being silently resolved.
//
// This package holds only values; the HTTP clients that fill a Record live in
// its sub-packages (arxiv, crossref, openalex, datacite, unpaywall), and
// pdfmeta reads a PDF's own document information and XMP.
package metadata

import (
	"sort"
	"strings"
)

// The versions of a work a citation describes (config [citation] version,
// a note's cited_version, cite's CitedVersion).
const (
	VersionCaptured  = "captured"  // the version whose PDF was captured and is quoted (the default)
	VersionPublished = "published" // the version of record, when the sidecar knows it
)

// Source names used in Record.Sources and Record.FieldSources.
const (
	SourceArxiv     = "arxiv"     // arXiv API (Atom)
	SourceCrossref  = "crossref"  // Crossref REST /works/{doi} and /works?query
	SourceOpenAlex  = "openalex"  // OpenAlex /works
	SourceDataCite  = "datacite"  // DataCite REST /dois/{doi} (arXiv's 10.48550 DOIs among others)
	SourceUnpaywall = "unpaywall" // Unpaywall /v2/{doi}: open-access locations
	SourcePDFInfo   = "pdf-info"  // the PDF's document information dictionary (Title, Author, CreationDate)
	SourcePDFXMP    = "pdf-xmp"   // the PDF's XMP packet (dc:title, dc:creator, prism:doi, dc:identifier)
	SourcePDFText   = "pdf-text"  // the PDF's first pages as printed: title block, author lines, arXiv stamp, DOI, banner
	// SourcePDF is what captures before crossmem 0.2 wrote for the Info
	// dictionary and XMP alike; sidecars may still hold it.
	SourcePDF    = "pdf"
	SourceUser   = "user"   // a value given on the command line (--doi, --cite-key)
	SourceImport = "import" // an entry of a BibTeX, BibLaTeX or CSL-JSON file read by `crossmem import`
)

// FromPDF reports whether source names what a PDF says about itself
// (SourcePDFInfo, SourcePDFXMP, SourcePDFText, or the older SourcePDF)
// rather than a metadata service or the user.
func FromPDF(source string) bool {
	switch source {
	case SourcePDF, SourcePDFInfo, SourcePDFXMP, SourcePDFText:
		return true
	}
	return false
}

// Field names used as keys of Record.FieldSources.
const (
	FieldTitle          = "title"
	FieldAuthors        = "authors"
	FieldIssued         = "issued"
	FieldContainerTitle = "container_title"
	FieldVolume         = "volume"
	FieldIssue          = "issue"
	FieldPage           = "page"
	FieldPublisher      = "publisher"
	FieldDOI            = "doi"
	FieldArxivID        = "arxiv_id"
	FieldAbstract       = "abstract"
	FieldType           = "type"
	FieldURL            = "url"
	FieldJournalRef     = "journal_ref"
	FieldDOIPublished   = "doi_published"
)

// Name is one author as CSL-JSON names it. A person has Family and usually
// Given; a single-name or corporate author ("OpenAI", "Plato") has only
// Literal.
type Name struct {
	Family  string `json:"family,omitempty"`
	Given   string `json:"given,omitempty"`
	Literal string `json:"literal,omitempty"`
}

// Display returns the name as people write it: "Given Family", or Literal.
func (n Name) Display() string {
	if n.Literal != "" {
		return n.Literal
	}
	return strings.TrimSpace(n.Given + " " + n.Family)
}

// FamilyOrLiteral returns the family name, or the literal name for
// single-name and corporate authors.
func (n Name) FamilyOrLiteral() string {
	if n.Family != "" {
		return n.Family
	}
	return n.Literal
}

// Date is a calendar date with optional month and day (0 = unknown), as in a
// CSL-JSON "date-parts" triple.
type Date struct {
	Year  int `json:"year,omitempty"`
	Month int `json:"month,omitempty"`
	Day   int `json:"day,omitempty"`
}

// IsZero reports whether no year is known.
func (d Date) IsZero() bool { return d.Year == 0 }

// Record is the metadata of one work. Zero values mean "unknown".
type Record struct {
	// Type is the CSL item type: "article" (preprint), "article-journal",
	// "paper-conference", "book", "chapter", "report", "thesis", ...
	Type           string `json:"type,omitempty"`
	Title          string `json:"title"`
	Authors        []Name `json:"author_names"`
	Issued         Date   `json:"issued"`
	ContainerTitle string `json:"container_title,omitempty"`
	Volume         string `json:"volume,omitempty"`
	Issue          string `json:"issue,omitempty"`
	Page           string `json:"page,omitempty"`
	Publisher      string `json:"publisher,omitempty"`
	// DOI is the DOI this capture is identified by, lower-cased prefix kept
	// as given (DOIs compare case-insensitively).
	DOI string `json:"doi,omitempty"`
	// DOIPreprint and DOIPublished record the preprint DOI (for arXiv
	// 10.48550/arXiv.<id>) and the DOI of the published version, when known.
	DOIPreprint  string `json:"doi_preprint,omitempty"`
	DOIPublished string `json:"doi_published,omitempty"`
	// ArxivID is the versionless arXiv identifier ("1706.03762",
	// "hep-th/9901001"); ArxivVersion is the version captured (1-based, 0 =
	// unknown).
	ArxivID              string `json:"arxiv_id,omitempty"`
	ArxivVersion         int    `json:"arxiv_version,omitempty"`
	ArxivPrimaryCategory string `json:"arxiv_primary_category,omitempty"`
	JournalRef           string `json:"journal_ref,omitempty"`
	Abstract             string `json:"abstract,omitempty"`
	URL                  string `json:"url,omitempty"`

	// Fields that imported entries (BibTeX, CSL-JSON) may carry and the
	// styles print for books, chapters, reports and theses. They have the
	// meaning of the CSL variables of the same name.
	Editors         []Name `json:"editor_names,omitempty"`
	CollectionTitle string `json:"collection_title,omitempty"` // series
	Number          string `json:"number,omitempty"`           // report or series number
	Edition         string `json:"edition,omitempty"`
	PublisherPlace  string `json:"publisher_place,omitempty"`
	Genre           string `json:"genre,omitempty"` // e.g. "PhD thesis", "Technical report"
	ISBN            string `json:"isbn,omitempty"`
	ISSN            string `json:"issn,omitempty"`
	Note            string `json:"note,omitempty"`
	// Accessed is when an online recording was retrieved (its capture);
	// Dimensions its running time ("18:39"): what citations of online
	// video print.
	Accessed   *Date  `json:"accessed,omitempty"`
	Dimensions string `json:"dimensions,omitempty"`

	// Sources lists every metadata source that contributed, in the order
	// consulted.
	Sources []string `json:"sources"`
	// FieldSources maps a field name (Field* constants) to the sources that
	// supplied its value.
	FieldSources map[string][]string `json:"field_sources,omitempty"`
	// Reconciled is true only when at least two independent sources agree on
	// title, first author and year.
	Reconciled bool `json:"reconciled"`
	// Warnings are human-readable notes about disagreements or gaps.
	Warnings []string `json:"warnings"`
}

// Year returns the issued year, 0 when unknown.
func (r *Record) Year() int { return r.Issued.Year }

// AuthorDisplay returns the authors as display strings ("Ashish Vaswani").
func (r *Record) AuthorDisplay() []string {
	out := make([]string, 0, len(r.Authors))
	for _, a := range r.Authors {
		if s := a.Display(); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// SetSource records that source supplied field, and adds source to
// r.Sources if it is new. It keeps both lists sorted and free of duplicates.
func (r *Record) SetSource(field, source string) {
	if r.FieldSources == nil {
		r.FieldSources = map[string][]string{}
	}
	r.FieldSources[field] = addSorted(r.FieldSources[field], source)
	for _, s := range r.Sources {
		if s == source {
			return
		}
	}
	r.Sources = append(r.Sources, source)
}

// Warn appends a warning unless the same text is already present.
func (r *Record) Warn(msg string) {
	for _, w := range r.Warnings {
		if w == msg {
			return
		}
	}
	r.Warnings = append(r.Warnings, msg)
}

// Normalize makes nil slices empty so that JSON output always carries
// "sources": [] and "warnings": [] rather than null, and removes control
// and bidirectional characters from every text field (CleanText). Every
// source client, the reconciliation and imports call it, so no source's
// record keeps them.
func (r *Record) Normalize() {
	r.clean()
	if r.Sources == nil {
		r.Sources = []string{}
	}
	if r.Warnings == nil {
		r.Warnings = []string{}
	}
	if r.Authors == nil {
		r.Authors = []Name{}
	}
}

func addSorted(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	list = append(list, s)
	sort.Strings(list)
	return list
}

// Observation is what one source said about a work when asked one
// question: its Record (fields as that source gives them, FieldSources
// naming only that source), the other versions of the work it links to,
// and the PDFs it knows. Reconciliation compares observations; it never
// edits them.
type Observation struct {
	// Source is one of the Source* constants.
	Source string `json:"source"`
	// Query is how the source was asked: "doi:10.1038/...", "arxiv:1706.03762",
	// "arxiv:1706.03762v2" or "title:Attention Is All You Need".
	Query string `json:"query"`
	// Record is the work as this source describes it. Never nil.
	Record *Record `json:"record"`
	// PreprintDOI and PublishedDOI are the DOIs of the preprint and the
	// published version this source links the work to (its own DOI may be
	// either), "" when unknown.
	PreprintDOI  string `json:"preprint_doi,omitempty"`
	PublishedDOI string `json:"published_doi,omitempty"`
	// IsPreprint reports whether the source describes the work as a
	// preprint (arXiv, bioRxiv, an OpenAlex "preprint" work).
	IsPreprint bool `json:"is_preprint,omitempty"`
	// PDFURLs are direct PDF links the source knows, best first.
	PDFURLs []string `json:"pdf_urls,omitempty"`
}

// Consultation records one question asked of one metadata source and what
// came of it, so that a capture can say which sources were consulted and
// which failed (a failure is never reported as "not found").
type Consultation struct {
	Source  string `json:"source"`
	Query   string `json:"query"`            // "doi:...", "arxiv:...", "title:..."
	Outcome string `json:"outcome"`          // one of the Outcome* constants
	Detail  string `json:"detail,omitempty"` // the error, or why a hit was rejected
}

// Outcomes of a Consultation.
const (
	OutcomeOK       = "ok"
	OutcomeNotFound = "not found"
	OutcomeFailed   = "failed"   // timeout, 5xx, 429 after retries, unreadable answer
	OutcomeRejected = "rejected" // a title-search hit that is a different work
)
