package capture

import (
	"fmt"
	"strings"

	"github.com/crossmem/crossmem/internal/frontmatter"
	"github.com/crossmem/crossmem/internal/identifier"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/metadata/pdfmeta"
	"github.com/crossmem/crossmem/internal/metadata/reconcile"
	"github.com/crossmem/crossmem/internal/pdf"
)

// Identity is what a PDF says about itself, before any network: its
// document information dictionary, its XMP packet and what its first pages
// print (internal/frontmatter).
type Identity struct {
	// Record combines the three, each field naming the sources that gave
	// it (metadata.SourcePDFXMP, SourcePDFInfo, SourcePDFText); where they
	// disagree, Warnings say so and name the value kept.
	Record *metadata.Record
	// Text is what the first pages print (never nil).
	Text *frontmatter.Result
}

// identifyPages is how many pages Identify reads.
const identifyPages = 2

// Identify reads what an open PDF says about itself: doc is the document,
// data its bytes (the XMP packet is read from them). A page that cannot be
// read counts as a page without text.
func Identify(doc *pdf.Document, data []byte) *Identity {
	info := doc.Info()
	meta := pdfmeta.FromInfo(info.Title, info.Author, info.CreationDate)
	if x, ok := pdfmeta.ParseXMP(data); ok {
		meta = pdfmeta.Merge(meta, x)
	}
	var pages []*pdf.Page
	for n := 1; n <= min(identifyPages, doc.NumPages()); n++ {
		p, err := doc.Page(n)
		if err != nil {
			break
		}
		pages = append(pages, p)
	}
	fm := frontmatter.Read(pages)
	return &Identity{Record: combine(meta, fm), Text: fm}
}

// NoTitle says why the PDF gives no title: its text layer is missing or
// unreadable, or its first page prints none. "" when it gives one.
func (id *Identity) NoTitle() string {
	if id.Record.Title != "" {
		return ""
	}
	switch id.Text.Problem {
	case frontmatter.NoText:
		return "it has no text layer (a scan or an image without OCR; " + id.Text.ProblemDetail + ")"
	case frontmatter.Unreadable:
		return "its text layer is unreadable: its fonts map the glyphs to other characters (" + id.Text.ProblemDetail + ")"
	}
	return "its first page prints no title (it may be a page from inside a paper), and its metadata names none"
}

// combine merges the Info/XMP record (meta) with what the pages print
// (fm). Where both give a field and agree, the field names all their
// sources and keeps the metadata's spelling (typed by the authors, where
// the page may set the title in capitals); where they disagree, the one
// the page confirms is kept and a warning names both.
func combine(meta *metadata.Record, fm *frontmatter.Result) *metadata.Record {
	text := fm.Record()
	out := cloneRecord(meta)
	if fm.Problem == frontmatter.Unreadable {
		out.Warn("the PDF's text layer is unreadable (" + fm.ProblemDetail + "): its fonts map the glyphs to other characters, so nothing was read from its pages")
	}
	page := fm.Text

	// Title.
	switch {
	case text.Title == "":
	case out.Title == "":
		out.Title = text.Title
		out.SetSource(metadata.FieldTitle, metadata.SourcePDFText)
		if fm.TitleRule == frontmatter.RuleRunningHead {
			out.Warn("the title was read from the running head of the first page, which has no title block (it may be a page from inside a paper); a running head may shorten the title")
		}
	case reconcile.TitleSimilarity(out.Title, text.Title) >= 0.9:
		out.SetSource(metadata.FieldTitle, metadata.SourcePDFText)
	case reconcile.Printed(page, out.Title):
		out.Warn(fmt.Sprintf("the title set largest on the first page, %q, differs from the PDF's metadata title %q, which the page also prints; using the metadata title", text.Title, out.Title))
	default:
		out.Warn(fmt.Sprintf("the PDF's metadata title %q (%s) is not what its first page prints, %q; using the printed title", out.Title, strings.Join(out.FieldSources[metadata.FieldTitle], ", "), text.Title))
		out.Title = text.Title
		replaceSource(out, metadata.FieldTitle, metadata.SourcePDFText)
	}

	// Authors: compared by the first author's family name.
	switch {
	case len(text.Authors) == 0:
	case len(out.Authors) == 0:
		out.Authors = text.Authors
		out.SetSource(metadata.FieldAuthors, metadata.SourcePDFText)
	case reconcile.FamilyKey(out.Authors[0]) == reconcile.FamilyKey(text.Authors[0]):
		if len(out.Authors) != len(text.Authors) && printedNames(page, text.Authors) > printedNames(page, out.Authors) {
			// The same first author, but the metadata's list runs names
			// together or misses some the page prints.
			out.Warn(fmt.Sprintf("the PDF's metadata lists %d authors (%s), its first page prints %d; using the printed list", len(out.Authors), strings.Join(out.FieldSources[metadata.FieldAuthors], ", "), len(text.Authors)))
			out.Authors = text.Authors
			replaceSource(out, metadata.FieldAuthors, metadata.SourcePDFText)
			break
		}
		out.SetSource(metadata.FieldAuthors, metadata.SourcePDFText)
	case reconcile.Printed(page, out.Authors[0].FamilyOrLiteral()):
		out.Warn(fmt.Sprintf("the first author printed under the title, %s, differs from the PDF's metadata, %s, which the page also prints; using the metadata's authors", text.Authors[0].Display(), out.Authors[0].Display()))
	default:
		out.Warn(fmt.Sprintf("the PDF's metadata names %s (%s) as first author, not what its first page prints, %s; using the printed authors", out.Authors[0].Display(), strings.Join(out.FieldSources[metadata.FieldAuthors], ", "), text.Authors[0].Display()))
		out.Authors = text.Authors
		replaceSource(out, metadata.FieldAuthors, metadata.SourcePDFText)
	}

	// Year: the page's (banner, arXiv stamp, copyright) over the file's
	// creation date; XMP's publication date, when it has one, is checked.
	if text.Issued.Year > 0 {
		fromCreation := hasWarningPrefix(out, "year taken from the PDF's creation date")
		switch {
		case out.Issued.Year == text.Issued.Year:
			out.Issued = text.Issued
			out.SetSource(metadata.FieldIssued, metadata.SourcePDFText)
		case out.Issued.Year == 0 || fromCreation:
		default:
			out.Warn(fmt.Sprintf("the PDF's metadata dates it %d (%s), its first page %d; using the page's year", out.Issued.Year, strings.Join(out.FieldSources[metadata.FieldIssued], ", "), text.Issued.Year))
		}
		if out.Issued.Year != text.Issued.Year {
			out.Issued = text.Issued
			replaceSource(out, metadata.FieldIssued, metadata.SourcePDFText)
		}
		dropWarningPrefix(out, "year taken from the PDF's creation date")
	}

	// DOI and arXiv id. A PDF with arXiv's stamp is the preprint: a DOI it
	// prints (an ACM or a journal reference) is the published version's.
	if text.DOI != "" && text.ArxivID != "" && !isArxivDOI(text.DOI) {
		out.DOIPublished = text.DOI
		out.SetSource(metadata.FieldDOIPublished, metadata.SourcePDFText)
		if identifier.NormalizeDOI(out.DOI) == identifier.NormalizeDOI(text.DOI) {
			out.DOI = ""
			out.SetSource(metadata.FieldDOIPublished, metadata.SourcePDFXMP)
			delete(out.FieldSources, metadata.FieldDOI)
		}
		text.DOI = ""
	}
	if text.DOI != "" {
		switch {
		case out.DOI == "":
			out.DOI = text.DOI
			out.SetSource(metadata.FieldDOI, metadata.SourcePDFText)
		case identifier.NormalizeDOI(out.DOI) == identifier.NormalizeDOI(text.DOI):
			out.SetSource(metadata.FieldDOI, metadata.SourcePDFText)
		default:
			out.Warn(fmt.Sprintf("the PDF's metadata gives the DOI %s, its first page prints %s; looking up %s", out.DOI, text.DOI, out.DOI))
		}
	}
	if text.ArxivID != "" {
		if out.ArxivID != "" && out.ArxivID != text.ArxivID {
			out.Warn(fmt.Sprintf("the PDF's metadata gives the arXiv id %s, its first page prints %s; using the printed one", out.ArxivID, text.ArxivID))
			delete(out.FieldSources, metadata.FieldArxivID)
		}
		if out.ArxivID == text.ArxivID && text.ArxivVersion == 0 {
			text.ArxivVersion = out.ArxivVersion
		}
		out.ArxivID, out.ArxivVersion, out.ArxivPrimaryCategory = text.ArxivID, text.ArxivVersion, text.ArxivPrimaryCategory
		out.SetSource(metadata.FieldArxivID, metadata.SourcePDFText)
	}

	// Where it appeared: only the page says.
	for _, f := range []struct {
		field    string
		dst, src *string
	}{
		{metadata.FieldContainerTitle, &out.ContainerTitle, &text.ContainerTitle},
		{metadata.FieldVolume, &out.Volume, &text.Volume},
		{metadata.FieldIssue, &out.Issue, &text.Issue},
		{metadata.FieldPage, &out.Page, &text.Page},
	} {
		if *f.src != "" && *f.dst == "" {
			*f.dst = *f.src
			out.SetSource(f.field, metadata.SourcePDFText)
		}
	}
	pruneSources(out)
	out.Normalize()
	return out
}

// printedNames counts the names of ns the page prints as written (given
// names and family name).
func printedNames(page string, ns []metadata.Name) int {
	n := 0
	for _, x := range ns {
		if reconcile.Printed(page, x.Display()) {
			n++
		}
	}
	return n
}

func isArxivDOI(doi string) bool {
	_, ok := identifier.ArxivIDFromDOI(doi)
	return ok
}

// replaceSource makes source the only source of field.
func replaceSource(r *metadata.Record, field, source string) {
	delete(r.FieldSources, field)
	r.SetSource(field, source)
}

// pruneSources keeps in Sources only the sources some field names.
func pruneSources(r *metadata.Record) {
	used := map[string]bool{}
	for _, ss := range r.FieldSources {
		for _, s := range ss {
			used[s] = true
		}
	}
	var keep []string
	for _, s := range r.Sources {
		if used[s] {
			keep = append(keep, s)
		}
	}
	r.Sources = keep
}

func hasWarningPrefix(r *metadata.Record, prefix string) bool {
	for _, w := range r.Warnings {
		if strings.HasPrefix(w, prefix) {
			return true
		}
	}
	return false
}

func dropWarningPrefix(r *metadata.Record, prefix string) {
	var keep []string
	for _, w := range r.Warnings {
		if !strings.HasPrefix(w, prefix) {
			keep = append(keep, w)
		}
	}
	r.Warnings = keep
}

func cloneRecord(r *metadata.Record) *metadata.Record {
	c := *r
	c.Authors = append([]metadata.Name(nil), r.Authors...)
	c.Sources = append([]string(nil), r.Sources...)
	c.Warnings = append([]string(nil), r.Warnings...)
	c.FieldSources = map[string][]string{}
	for k, v := range r.FieldSources {
		c.FieldSources[k] = append([]string(nil), v...)
	}
	return &c
}
