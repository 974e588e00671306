package status

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/metadata"
)

func kinds(r *Report) string {
	var ks []string
	for _, f := range r.Findings {
		ks = append(ks, f.Kind)
	}
	return strings.Join(ks, " ")
}

func TestMissingHome(t *testing.T) {
	home := filepath.Join(t.TempDir(), "nope")
	r, err := Run(context.Background(), Options{Home: home})
	if err != nil || r.Exists || kinds(r) != MissingHome || r.Errors() != 1 || r.Findings[0].Hint.Kind != hint.CheckHome {
		t.Errorf("%+v %v", r, err)
	}
	if _, err := os.Stat(home); !errors.Is(err, os.ErrNotExist) {
		t.Error("status created the library folder")
	}
}

func TestFindings(t *testing.T) {
	lib, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	add := func(key string, edit func(*library.Paper)) *library.Paper {
		p, err := lib.NewPaper(key, 1)
		if err != nil {
			t.Fatal(err)
		}
		p.Title = key
		edit(p)
		if err := lib.WriteSidecar(p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// Captured, not compiled; its lookups failed (offline); a warning.
	p := add("offline2024", func(p *library.Paper) {
		p.PDFSHA256 = "ab"
		p.Consulted = []metadata.Consultation{{Source: "crossref", Query: "title:x", Outcome: metadata.OutcomeFailed}}
		p.Metadata.Warnings = []string{"metadata sources could not be reached"}
	})
	os.WriteFile(p.PDFPath, []byte("%PDF-1.4"), 0o644)
	// A sidecar whose PDF is gone.
	add("lost2024", func(p *library.Paper) { p.PDFSHA256 = "cd" })
	// Imported, metadata only.
	add("turing1950", func(*library.Paper) {})
	var asked bool
	r, err := Run(context.Background(), Options{Home: lib.Home, Lib: lib, LLMName: "ollama", LLM: func(context.Context) error {
		asked = true
		return hint.Wrap(errors.New("no Ollama server answers"), hint.Action{Kind: hint.StartOllama})
	}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "missing-pdf not-compiled pending warnings llm"; kinds(r) != want {
		t.Errorf("findings %s, want %s", kinds(r), want)
	}
	if r.Papers != 3 || r.Captured != 2 || r.MetadataOnly != 1 || r.Errors() != 1 || !asked || r.LLMOK {
		t.Errorf("report %+v", r)
	}
	for _, f := range r.Findings {
		if f.Hint.Kind == hint.None {
			t.Errorf("%s has no hint", f.Kind)
		}
		if f.Kind == NotCompiled && strings.Join(f.Keys, ",") != "lost2024,offline2024" {
			t.Errorf("not compiled: %v", f.Keys)
		}
		if f.Kind == Pending && (f.Hint.Kind != hint.RefreshPending || strings.Join(f.Keys, ",") != "offline2024") {
			t.Errorf("pending: %+v", f)
		}
	}
}
