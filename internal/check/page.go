package check

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/crossmem/crossmem/internal/draft"
	"github.com/crossmem/crossmem/internal/index"
	"github.com/crossmem/crossmem/internal/roman"
)

// pageOf is how a quotation's chunk should be cited: its printed page
// label, else the number printed on its page, else its PDF page number.
func pageOf(c SourceChunk, printed map[int]string) (page, from string) {
	switch {
	case c.PageLabel != "":
		return strings.ToLower(c.PageLabel), "page_label"
	case printed[c.Page] != "":
		return printed[c.Page], "printed"
	}
	return strconv.Itoa(c.Page), "pdf_page"
}

// checkPage checks res's page locator (as written) against the pages of
// its source, when the locator names pages (draft.Pages); a mismatch makes
// the status WrongPage, keeping how the text matched in Match.
func (c *Checker) checkPage(res *QuoteResult, locator string, chunks []index.Chunk) {
	if locator == "" || res.Source == nil || len(res.Source.Chunks) == 0 {
		return
	}
	first, last, ok := draft.Pages(locator)
	if !ok {
		res.Notes = append(res.Notes, fmt.Sprintf("the locator %q is not a page locator: not checked", locator))
		return
	}
	printed := index.PrintedPages(chunks)
	pc := &PageCheck{Locator: locator, Pages: first, PDFPage: res.Source.Chunks[0].Page}
	if last != first {
		pc.Pages = first + "-" + last
	}
	var pages []string
	for _, ch := range res.Source.Chunks {
		p, from := pageOf(ch, printed)
		if len(pages) == 0 {
			pc.FoundFrom = from
		}
		if len(pages) == 0 || pages[len(pages)-1] != p {
			pages = append(pages, p)
		}
		if inRange(p, first, last) {
			pc.OK = true
		}
	}
	pc.Found = pages[0]
	if len(pages) > 1 {
		pc.Found = pages[0] + "-" + pages[len(pages)-1]
	}
	res.Page = pc
	if !pc.OK {
		res.Match, res.Status = res.Status, WrongPage
		where := "p. " + pc.Found
		if pc.FoundFrom != "pdf_page" {
			where += fmt.Sprintf(" (page %d of the PDF)", pc.PDFPage)
		}
		res.Notes = append(res.Notes, fmt.Sprintf("the citation says %s, but the quotation is on %s", locator, where))
	}
}

// inRange reports whether page p lies in first..last: numerically for
// Arabic or Roman numerals, else by equality with either end.
func inRange(p, first, last string) bool {
	if p == first || p == last {
		return true
	}
	pv, a, b := pageValue(p), pageValue(first), pageValue(last)
	if pv < 0 || a < 0 || b < 0 || (isRoman(p) != isRoman(first)) {
		return false
	}
	return a <= pv && pv <= b
}

func isRoman(s string) bool { return roman.Value(s) > 0 }

// pageValue is the number of an Arabic or Roman page, or -1.
func pageValue(s string) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	if v := roman.Value(s); v > 0 {
		return v
	}
	return -1
}
