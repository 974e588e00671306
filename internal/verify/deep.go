package verify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/note"
)

// PDFProblem is a captured PDF that no longer has the SHA-256 recorded at
// capture (or is missing).
type PDFProblem struct {
	CiteKey  string `json:"cite_key"`
	Path     string `json:"path"`
	Expected string `json:"expected"` // pdf_sha256 in the sidecar
	Actual   string `json:"actual"`   // SHA-256 of the file now, "" when missing
	Err      string `json:"error,omitempty"`
}

// PDFs re-hashes the raw PDF of every paper that has one (metadata-only
// entries have none); it returns how many it checked and those that
// changed or went missing.
func PDFs(papers []*library.Paper) (int, []PDFProblem) {
	out := []PDFProblem{}
	checked := 0
	for _, p := range papers {
		if !p.HasPDF() {
			continue
		}
		checked++
		sum, err := fileSHA256(p.PDFPath)
		switch {
		case err != nil:
			out = append(out, PDFProblem{CiteKey: p.CiteKey, Path: p.PDFPath, Expected: p.PDFSHA256, Err: err.Error()})
		case sum != p.PDFSHA256:
			out = append(out, PDFProblem{CiteKey: p.CiteKey, Path: p.PDFPath, Expected: p.PDFSHA256, Actual: sum})
		}
	}
	return checked, out
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Extractor re-extracts a PDF's chunks as compile would
// (compile.Extract over a pdf.Engine).
type Extractor func(ctx context.Context, pdf []byte) (chunk.Result, error)

// Deep problem kinds.
const (
	NoteEdited       = "note edited"
	PDFChanged       = "PDF changed"
	ExtractorChanged = "extractor output changed"
)

// DeepProblem is one finding of a deep verification.
type DeepProblem struct {
	Kind    string `json:"kind"` // NoteEdited, PDFChanged, ExtractorChanged
	CiteKey string `json:"cite_key"`
	ChunkID string `json:"chunk_id,omitempty"`
	Page    int    `json:"page,omitempty"`
	Detail  string `json:"detail"`
	// Fix is what to do about it (internal/render words it).
	Fix hint.Action `json:"-"`
}

// DeepResult is the deep verification of one paper.
type DeepResult struct {
	CiteKey   string        `json:"cite_key"`
	Chunks    int           `json:"chunks"`
	Confirmed int           `json:"confirmed"` // chunks re-extracted at their page and bbox
	Problems  []DeepProblem `json:"problems"`
}

// Deep confirms that the note of p still says what its PDF says: the
// note's chunks hash to their text_sha256 (else NoteEdited), the raw PDF
// has its recorded SHA-256 (else PDFChanged, and the chunks are not
// compared), and extracting the PDF again produces each chunk's text on
// the same page with a bounding box that overlaps the recorded one by at
// least half (else ExtractorChanged: typically after a crossmem upgrade).
// A raw PDF that cannot be read is a PDFChanged problem, not an error. p
// must have a note and a PDF (HasNote, HasPDF). Errors: reading or parsing
// the note, and extract's error (wrapped).
func Deep(ctx context.Context, p *library.Paper, extract Extractor) (*DeepResult, error) {
	res := &DeepResult{CiteKey: p.CiteKey, Problems: []DeepProblem{}}
	data, err := os.ReadFile(p.NotePath)
	if err != nil {
		return nil, fmt.Errorf("read note of %s: %w", p.CiteKey, err)
	}
	n, err := note.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("parse note %s: %w", p.NotePath, err)
	}
	res.Chunks = len(n.Chunks)
	intact := make([]bool, len(n.Chunks))
	for i, c := range n.Chunks {
		if chunk.Hash(c.Text) != c.TextSHA256 {
			res.Problems = append(res.Problems, DeepProblem{Kind: NoteEdited, CiteKey: p.CiteKey, ChunkID: c.ID, Page: c.Page,
				Detail: "the chunk's text no longer hashes to its text_sha256",
				Fix:    hint.Action{Kind: hint.RestoreNote, Key: p.CiteKey}})
			continue
		}
		intact[i] = true
	}
	pdf, err := os.ReadFile(p.PDFPath)
	if err != nil {
		res.Problems = append(res.Problems, DeepProblem{Kind: PDFChanged, CiteKey: p.CiteKey, Detail: fmt.Sprintf("the raw PDF cannot be read: %v", err),
			Fix: hint.Action{Kind: hint.RestoreRawPDF, Path: p.PDFPath}})
		return res, nil
	}
	sum := sha256.Sum256(pdf)
	if got := hex.EncodeToString(sum[:]); got != p.PDFSHA256 {
		res.Problems = append(res.Problems, DeepProblem{Kind: PDFChanged, CiteKey: p.CiteKey,
			Detail: fmt.Sprintf("raw PDF SHA-256 is %s, the sidecar records %s", got[:16], shortSHA(p.PDFSHA256)),
			Fix:    hint.Action{Kind: hint.RestorePDF}})
		return res, nil
	}
	got, err := extract(ctx, pdf)
	if err != nil {
		return nil, fmt.Errorf("re-extract %s: %w", p.PDFPath, err)
	}
	byText := map[string][]chunk.Chunk{}
	for _, c := range got.Chunks {
		byText[c.TextSHA256] = append(byText[c.TextSHA256], c)
	}
	for i, c := range n.Chunks {
		if !intact[i] {
			continue
		}
		found, moved, redrawn := false, false, ""
		for _, e := range byText[c.TextSHA256] {
			if e.Page != c.Page {
				continue
			}
			if overlap(e.BBox, c.BBox) >= 0.5 {
				found, redrawn = true, e.ImageSHA256
				break
			}
			moved = true
		}
		switch {
		case found && c.ImageSHA256 != "" && redrawn != "" && redrawn != c.ImageSHA256:
			// A figure: its crop, drawn again from the unchanged PDF, must
			// be the PNG the note records.
			res.Problems = append(res.Problems, DeepProblem{Kind: ExtractorChanged, CiteKey: p.CiteKey, ChunkID: c.ID, Page: c.Page,
				Detail: fmt.Sprintf("the figure's crop drawn again has SHA-256 %s, the note records %s", shortSHA(redrawn), shortSHA(c.ImageSHA256)),
				Fix:    hint.Action{Kind: hint.Reextract, Key: p.CiteKey}})
		case found:
			res.Confirmed++
		case moved:
			res.Problems = append(res.Problems, DeepProblem{Kind: ExtractorChanged, CiteKey: p.CiteKey, ChunkID: c.ID, Page: c.Page,
				Detail: "the text is still extracted on its page, but at another position (bbox)",
				Fix:    hint.Action{Kind: hint.RecordBBox, Key: p.CiteKey}})
		default:
			res.Problems = append(res.Problems, DeepProblem{Kind: ExtractorChanged, CiteKey: p.CiteKey, ChunkID: c.ID, Page: c.Page,
				Detail: "extracting the unchanged PDF no longer produces this chunk's text on its page",
				Fix:    hint.Action{Kind: hint.Reextract, Key: p.CiteKey}})
		}
	}
	return res, nil
}

func shortSHA(s string) string {
	if len(s) > 16 {
		return s[:16]
	}
	return s
}

// overlap is the area of the intersection of boxes a and b divided by the
// smaller box's area (1 for identical boxes, 0 for disjoint ones).
func overlap(a, b [4]float64) float64 {
	if a == b {
		return 1
	}
	w := min(a[2], b[2]) - max(a[0], b[0])
	h := min(a[3], b[3]) - max(a[1], b[1])
	if w <= 0 || h <= 0 {
		return 0
	}
	area := func(r [4]float64) float64 { return (r[2] - r[0]) * (r[3] - r[1]) }
	small := min(area(a), area(b))
	if small <= 0 {
		return 0
	}
	return w * h / small
}
