package compile

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/cite"
	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/note"
	"github.com/crossmem/crossmem/internal/verify"
)

// newPaper puts a corpus PDF into a fresh library as if captured, with
// the given metadata, and returns the library and the paper.
func newPaper(t *testing.T, file string, rec metadata.Record) (*library.Library, *library.Paper) {
	t.Helper()
	data := corpustest.PDF(t, file)
	lib, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p, err := lib.NewPaper("shen2023summarization", 1700000000)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	rec.Normalize()
	p.Sidecar = library.Sidecar{CiteKey: p.CiteKey, Title: rec.Title, PDFSHA256: hex.EncodeToString(sum[:]),
		CapturedAt: "1700000000", Metadata: rec}
	if err := library.WriteFileAtomic(p.PDFPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := lib.WriteSidecar(p); err != nil {
		t.Fatal(err)
	}
	return lib, p
}

func record() metadata.Record {
	r := metadata.Record{
		Type:    "article",
		Title:   "Beyond Summarization: Designing AI Support for Real-World Expository Writing Tasks",
		Authors: []metadata.Name{{Family: "Shen", Given: "Zejiang"}, {Family: "August", Given: "Tal"}},
		Issued:  metadata.Date{Year: 2023, Month: 4, Day: 5},
		ArxivID: "2304.02623", ArxivVersion: 1, DOI: "10.48550/arXiv.2304.02623",
	}
	r.SetSource(metadata.FieldTitle, metadata.SourceArxiv)
	return r
}

func TestRunWritesNoteAndReusesAnnotations(t *testing.T) {
	lib, p := newPaper(t, "pm_2304.02623v1.pdf", record())
	e := newEngine(t)
	var pagesSeen int
	res, err := Run(t.Context(), lib, p.CiteKey, Options{Engine: e, Progress: func(stage string, i, n int) {
		if stage == "page" {
			pagesSeen = i
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if pagesSeen != 4 {
		t.Errorf("progress reached page %d, want 4", pagesSeen)
	}
	data, err := os.ReadFile(p.NotePath)
	if err != nil {
		t.Fatal(err)
	}
	n, err := note.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	fm := n.Front
	if fm.CiteKey != p.CiteKey || fm.Year != 2023 || fm.ArxivID != "2304.02623" || fm.Pages != 4 ||
		fm.Chunks != len(n.Chunks) || fm.Parser != "pdfium" || fm.Raw != "raw/1700000000_shen2023summarization.pdf" ||
		fm.PDFSHA256 != p.PDFSHA256 || fm.WikiFormat != note.FormatVersion || strings.Join(fm.Authors, ";") != "Zejiang Shen;Tal August" {
		t.Errorf("frontmatter = %+v", fm)
	}
	for _, style := range []string{"APA", "MLA", "Chicago", "IEEE", "BibTeX"} {
		if s, ok := n.Citation(style); !ok || s == "" {
			t.Errorf("note has no %s citation", style)
		}
	}
	for _, c := range n.Chunks {
		if c.Paraphrase != "" || c.Implication != "" {
			t.Errorf("compile wrote advisory text for chunk %s", c.ID)
		}
	}
	if fm.Advisory != nil || res.Reused != 0 {
		t.Errorf("fresh note: advisory %+v, reused %d", fm.Advisory, res.Reused)
	}
	if r := verify.Files([]string{p.NotePath}); !r.Clean() {
		t.Errorf("fresh note does not verify: %+v", r)
	}

	// A later stage (crossmem enrich) annotated some chunks; re-compiling
	// keeps them, with the model that wrote them, and the note byte for
	// byte.
	annotated := 0
	for i := range n.Chunks {
		if n.Chunks[i].Type == chunk.TypeParagraph && annotated < 5 {
			n.Chunks[i].Paraphrase, n.Chunks[i].Implication = "A restatement.", "It matters."
			annotated++
		}
	}
	n.Front.Advisory = &note.Advisory{Server: "ollama", Model: "m", ModelDigest: "d", PromptVersion: 1}
	enriched, err := note.Format(n)
	if err != nil {
		t.Fatal(err)
	}
	if err := library.WriteFileAtomic(p.NotePath, enriched, 0o644); err != nil {
		t.Fatal(err)
	}
	res2, err := Run(t.Context(), lib, p.CiteKey, Options{Engine: e})
	if err != nil {
		t.Fatal(err)
	}
	if res2.Reused != annotated {
		t.Errorf("re-compile reused %d annotations, want %d", res2.Reused, annotated)
	}
	again, _ := os.ReadFile(p.NotePath)
	if string(again) != string(enriched) {
		t.Error("re-compiling an unchanged paper changed the enriched note")
	}
	entries, _ := os.ReadDir(lib.WikiDir())
	if len(entries) != 1 {
		t.Errorf("wiki folder has %d files after two compiles, want 1 (no temp files left)", len(entries))
	}

	// Paraphrases no model is named for (an older crossmem wrote them
	// during compile, on any chunk type) are not carried over.
	n.Front.Advisory = nil
	n.Chunks[0].Paraphrase = "A heading's paraphrase."
	legacy, err := note.Format(n)
	if err != nil {
		t.Fatal(err)
	}
	if err := library.WriteFileAtomic(p.NotePath, legacy, 0o644); err != nil {
		t.Fatal(err)
	}
	res3, err := Run(t.Context(), lib, p.CiteKey, Options{Engine: e})
	if err != nil {
		t.Fatal(err)
	}
	if res3.Reused != 0 || res3.Note.Front.Advisory != nil {
		t.Errorf("re-compile kept %d paraphrases of unknown origin", res3.Reused)
	}
	if again, _ := os.ReadFile(p.NotePath); string(again) != string(data) {
		t.Error("re-compiling a note with paraphrases of unknown origin did not give the fresh note")
	}
}

func TestRunRefusesChangedPDF(t *testing.T) {
	lib, p := newPaper(t, "pm_2304.02623v1.pdf", record())
	f, err := os.OpenFile(p.PDFPath, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\n% appended\n")
	f.Close()
	_, err = Run(t.Context(), lib, p.CiteKey, Options{Engine: newEngine(t)})
	if !errors.Is(err, ErrPDFChanged) {
		t.Fatalf("err = %v, want ErrPDFChanged", err)
	}
	if _, err := os.Stat(p.NotePath); !os.IsNotExist(err) {
		t.Error("a note was written for a changed PDF")
	}
}

func TestRunUnknownKey(t *testing.T) {
	lib, _ := newPaper(t, "pm_2304.02623v1.pdf", record())
	_, err := Run(t.Context(), lib, "nosuchkey2020", Options{Engine: newEngine(t)})
	if !errors.Is(err, library.ErrNotFound) {
		t.Fatalf("err = %v, want library.ErrNotFound", err)
	}
}

func TestRunCancelled(t *testing.T) {
	lib, p := newPaper(t, "pm_2304.02623v1.pdf", record())
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := Run(ctx, lib, p.CiteKey, Options{Engine: newEngine(t)})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if _, err := os.Stat(p.NotePath); !os.IsNotExist(err) {
		t.Error("a cancelled compile wrote a note")
	}
}

func TestRunMetadataOnly(t *testing.T) {
	lib, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p, err := lib.NewPaper("shen2023summarization", 1700000000)
	if err != nil {
		t.Fatal(err)
	}
	rec := record()
	p.Sidecar = library.Sidecar{CiteKey: p.CiteKey, Title: rec.Title, CapturedAt: "1700000000", Metadata: rec}
	if err := lib.WriteSidecar(p); err != nil {
		t.Fatal(err)
	}
	_, err = Run(t.Context(), lib, p.CiteKey, Options{Engine: newEngine(t)})
	if a, _ := hint.Of(err); !errors.Is(err, library.ErrNoPDF) || a.Kind != hint.AttachPDF || a.Key != "shen2023summarization" {
		t.Fatalf("err = %v (hint %+v), want library.ErrNoPDF with the hint to attach the PDF", err, a)
	}
	if _, err := os.Stat(p.NotePath); !os.IsNotExist(err) {
		t.Error("a note was written for an entry without a PDF")
	}
}

func TestRunMissingPDF(t *testing.T) {
	lib, p := newPaper(t, "pm_2304.02623v1.pdf", record())
	if err := os.Remove(p.PDFPath); err != nil {
		t.Fatal(err)
	}
	_, err := Run(t.Context(), lib, p.CiteKey, Options{Engine: newEngine(t)})
	if a, _ := hint.Of(err); !errors.Is(err, os.ErrNotExist) || a.Kind != hint.RestoreRawPDF || a.Path != p.PDFPath {
		t.Fatalf("err = %v (hint %+v), want a missing-file error saying to restore the raw PDF", err, a)
	}
}

// TestRekeyUpdatesNote renames a compiled paper: the note moves with it,
// its frontmatter and citations name the new key, the old key becomes an
// alias, and the chunks are kept as they were.
func TestRekeyUpdatesNote(t *testing.T) {
	lib, p := newPaper(t, "pm_2304.02623v1.pdf", record())
	text := "Beyond summarization."
	old := &note.Note{
		Front: note.Frontmatter{CiteKey: p.CiteKey, Title: "stale title", CapturedAt: "1700000000", Raw: "raw/" + p.PDF,
			PDFSHA256: p.PDFSHA256, Parser: note.Parser, Chunks: 1, Pages: 4, WikiFormat: note.FormatVersion},
		Chunks: []chunk.Chunk{{ID: "p1s0c1", Type: chunk.TypeParagraph, Text: text, Page: 1, BBox: [4]float64{72, 600, 540, 680},
			TextSHA256: chunk.Hash(text), ByteRange: [2]int{0, len(text)}, Paraphrase: "kept"}},
	}
	data, err := note.Format(old)
	if err != nil {
		t.Fatal(err)
	}
	if err := library.WriteFileAtomic(p.NotePath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	np, path, err := Rekey(t.Context(), lib, p.CiteKey, "shen2023beyond", cite.Citer{})
	if err != nil {
		t.Fatal(err)
	}
	if np.CiteKey != "shen2023beyond" || path != np.NotePath || path == p.NotePath {
		t.Fatalf("renamed paper %s, note %s", np.CiteKey, path)
	}
	if _, err := os.Stat(p.NotePath); !os.IsNotExist(err) {
		t.Error("the note is still at its old path")
	}
	data, err = os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n, err := note.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	fm := n.Front
	if fm.CiteKey != "shen2023beyond" || strings.Join(fm.Aliases, ",") != "shen2023summarization" || fm.Title != record().Title ||
		fm.Raw != "raw/"+np.PDF || fm.Chunks != 1 || fm.Pages != 4 {
		t.Errorf("frontmatter = %+v", fm)
	}
	if bib, ok := n.Citation("BibTeX"); !ok || !strings.Contains(bib, "shen2023beyond") {
		t.Errorf("BibTeX citation = %q, want the new key", bib)
	}
	if len(n.Chunks) != 1 || !reflect.DeepEqual(n.Chunks[0], old.Chunks[0]) {
		t.Errorf("chunks = %+v, want them unchanged", n.Chunks)
	}

	// UpdateNote after a metadata change rewrites the title, keeping the rest.
	np.Metadata.Title = "A new title"
	if err := lib.WriteSidecar(np); err != nil {
		t.Fatal(err)
	}
	if _, err := UpdateNote(t.Context(), lib, "shen2023summarization", cite.Citer{}); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(path)
	if n, err := note.Parse(data); err != nil || n.Front.Title != "A new title" || !reflect.DeepEqual(n.Chunks[0], old.Chunks[0]) {
		t.Errorf("updated note: %v %+v", err, n)
	}
}
