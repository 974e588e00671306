package render

import (
	"fmt"
	"strings"
)

// Statuses of a BatchItem.
const (
	StatusCaptured  = "captured"  // capture: stored
	StatusExisting  = "existing"  // capture: already in the library, nothing written
	StatusRefreshed = "refreshed" // refresh: the record changed
	StatusUnchanged = "unchanged" // refresh: the sources say what the record says
	StatusCompiled  = "compiled"  // compile: the note was written
	StatusFailed    = "failed"    // any verb: nothing was written for this input
)

// BatchItem is the outcome of one input of a batch (capture of several
// PDFs, refresh --pending, compile --all): one line of text, or one JSON
// line with --json.
type BatchItem struct {
	Input   string `json:"input"`  // as given: a file, URL or id (capture), a key (refresh, compile)
	Status  string `json:"status"` // one of the Status* constants
	CiteKey string `json:"cite_key,omitempty"`
	// Pending is true when the paper's metadata lookup is pending (the
	// sources could not be reached).
	Pending  bool     `json:"lookup_pending,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	// Detail says more in a few words ("12 chunks from 4 pages", "3
	// changes").
	Detail string `json:"detail,omitempty"`
	Error  string `json:"error,omitempty"`
	Hint   string `json:"hint,omitempty"`
}

// BatchLine words one item: its status, its cite key and its input, then
// what else there is to know, or, for a failure, the error.
//
//	captured   shen2022multilexsum   pm_2206.10883v3.pdf (lookup pending; 1 warning)
//	failed     dl_ocr_test.pdf: no title to make a cite key from: …
func BatchLine(it BatchItem) string {
	if it.Status == StatusFailed {
		return fmt.Sprintf("%-9s  %s: %s", it.Status, it.Input, it.Error)
	}
	var notes []string
	if it.Detail != "" {
		notes = append(notes, it.Detail)
	}
	if it.Pending {
		notes = append(notes, "lookup pending")
	}
	if n := len(it.Warnings); n > 0 {
		notes = append(notes, Count(n, "warning"))
	}
	line := fmt.Sprintf("%-9s  %-24s  %s", it.Status, it.CiteKey, it.Input)
	if it.Input == it.CiteKey {
		line = fmt.Sprintf("%-9s  %s", it.Status, it.CiteKey)
	}
	if len(notes) > 0 {
		line += " (" + strings.Join(notes, "; ") + ")"
	}
	return line
}

// statusOrder is the order of the statuses in a summary.
var statusOrder = []string{StatusCaptured, StatusExisting, StatusRefreshed, StatusUnchanged, StatusCompiled, StatusFailed}

// BatchSummary is the last line of a batch: how many inputs of what (noun:
// "PDF", "paper", made plural with an s) and how many had each status,
// with the pending lookups.
//
//	36 PDFs: 27 captured, 9 failed; 27 lookups pending
func BatchSummary(noun string, items []BatchItem) string {
	if len(items) != 1 {
		noun += "s"
	}
	counts := map[string]int{}
	pending := 0
	for _, it := range items {
		counts[it.Status]++
		if it.Pending {
			pending++
		}
	}
	var parts []string
	for _, s := range statusOrder {
		if counts[s] == 0 {
			continue
		}
		word := s
		if s == StatusExisting {
			word = "already in the library"
		}
		parts = append(parts, fmt.Sprintf("%d %s", counts[s], word))
	}
	out := fmt.Sprintf("%d %s", len(items), noun)
	if len(parts) > 0 {
		out += ": " + strings.Join(parts, ", ")
	}
	switch pending {
	case 0:
	case 1:
		out += "; 1 lookup pending"
	default:
		out += fmt.Sprintf("; %d lookups pending", pending)
	}
	return out
}

// BatchSummaryJSON is the last JSON line of a batch with --json.
type BatchSummaryJSON struct {
	Summary BatchCounts `json:"summary"`
}

// BatchCounts counts a batch's items by status.
type BatchCounts struct {
	Total   int            `json:"total"`
	Status  map[string]int `json:"status"`
	Pending int            `json:"lookup_pending"`
}

// Counts counts items by status.
func Counts(items []BatchItem) BatchSummaryJSON {
	c := BatchCounts{Total: len(items), Status: map[string]int{}}
	for _, it := range items {
		c.Status[it.Status]++
		if it.Pending {
			c.Pending++
		}
	}
	return BatchSummaryJSON{Summary: c}
}

// Count writes n and a noun, made plural with an s unless n is 1 ("1
// page", "4 chunks").
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
