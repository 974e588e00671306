package reconcile

import (
	"fmt"
	"strings"

	"github.com/crossmem/crossmem/internal/identifier"
	"github.com/crossmem/crossmem/internal/metadata"
)

// Witness checks the record the metadata sources gave (rec) against what
// the PDF says about itself (own: a record whose fields name the PDF's
// sources, metadata.SourcePDFText, SourcePDFXMP or SourcePDFInfo). Each
// field on which they agree gets the PDF's sources added to its
// FieldSources (and to Sources); each disagreement becomes a warning that
// names both values. The values of rec are never changed: the PDF is a
// witness, not a source to pick from. Fields compared: title, first
// author, year, DOI, the published version's DOI, arXiv id, container title (agreement only: journals
// abbreviate their names in banners), volume, issue and pages. own may be
// nil.
func Witness(rec, own *metadata.Record) {
	if rec == nil || own == nil {
		return
	}
	agree := func(field string) {
		for _, s := range own.FieldSources[field] {
			if metadata.FromPDF(s) {
				rec.SetSource(field, s)
			}
		}
	}
	differ := func(what, field, pdfValue, value string) {
		rec.Warn(fmt.Sprintf("the PDF's %s (%s) %q differs from the sources' %q", what, strings.Join(own.FieldSources[field], ", "), pdfValue, value))
	}
	if own.Title != "" && rec.Title != "" {
		if TitleSimilarity(own.Title, rec.Title) >= 0.9 {
			agree(metadata.FieldTitle)
		} else {
			differ("title", metadata.FieldTitle, own.Title, rec.Title)
		}
	}
	if len(own.Authors) > 0 && len(rec.Authors) > 0 {
		oa, _ := RepairNames(own.Authors[:1])
		ra, _ := RepairNames(rec.Authors[:1])
		if FamilyKey(oa[0]) == FamilyKey(ra[0]) {
			agree(metadata.FieldAuthors)
		} else {
			differ("first author", metadata.FieldAuthors, own.Authors[0].Display(), rec.Authors[0].Display())
		}
	}
	if y, ry := own.Issued.Year, rec.Issued.Year; y > 0 && ry > 0 {
		switch {
		case y == ry:
			agree(metadata.FieldIssued)
		case own.ArxivVersion > 1 && own.ArxivID != "" && own.ArxivID == rec.ArxivID && y > ry:
			// The arXiv stamp dates the version captured; the record dates
			// the first.
		default:
			differ("year", metadata.FieldIssued, fmt.Sprint(y), fmt.Sprint(ry))
		}
	}
	if own.DOI != "" {
		n := identifier.NormalizeDOI(own.DOI)
		switch {
		case n == identifier.NormalizeDOI(rec.DOI), n == identifier.NormalizeDOI(rec.DOIPublished), n == identifier.NormalizeDOI(rec.DOIPreprint):
			agree(metadata.FieldDOI)
		default:
			rec.Warn(fmt.Sprintf("the PDF prints the DOI %s (%s), which the sources do not give for this work", own.DOI, strings.Join(own.FieldSources[metadata.FieldDOI], ", ")))
		}
	}
	if own.DOIPublished != "" {
		n := identifier.NormalizeDOI(own.DOIPublished)
		switch {
		case n == identifier.NormalizeDOI(rec.DOIPublished), n == identifier.NormalizeDOI(rec.DOI):
			agree(metadata.FieldDOIPublished)
		default:
			rec.Warn(fmt.Sprintf("the PDF prints the DOI %s of its published version (%s), which the sources do not give for this work", own.DOIPublished, strings.Join(own.FieldSources[metadata.FieldDOIPublished], ", ")))
		}
	}
	if own.ArxivID != "" && rec.ArxivID != "" {
		if own.ArxivID == rec.ArxivID {
			agree(metadata.FieldArxivID)
		} else {
			differ("arXiv id", metadata.FieldArxivID, own.ArxivID, rec.ArxivID)
		}
	}
	if own.ContainerTitle != "" && rec.ContainerTitle != "" && sameVenue(own.ContainerTitle, rec.ContainerTitle) {
		agree(metadata.FieldContainerTitle)
	}
	for _, f := range []struct {
		field, what string
		a, b        string
		same        func(a, b string) bool
	}{
		{metadata.FieldVolume, "volume", own.Volume, rec.Volume, sameNumber},
		{metadata.FieldIssue, "issue", own.Issue, rec.Issue, sameNumber},
		{metadata.FieldPage, "pages", own.Page, rec.Page, samePages},
	} {
		if f.a == "" || f.b == "" {
			continue
		}
		if f.same(f.a, f.b) {
			agree(f.field)
		} else {
			differ(f.what, f.field, f.a, f.b)
		}
	}
	rec.Normalize()
}

// Printed reports whether s appears in text once both are folded (case,
// diacritics, punctuation and markup ignored): whether a page prints a
// title or a name.
func Printed(text, s string) bool {
	fs := fold(s)
	return fs != "" && strings.Contains(" "+fold(text)+" ", " "+fs+" ")
}
