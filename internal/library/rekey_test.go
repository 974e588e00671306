package library

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
)

func TestRenameKey(t *testing.T) {
	lib := openLib(t)
	p := addPaper(t, lib, "vaswani2017attention", 1700000000)
	addPaper(t, lib, "other2020", 1700000001)
	if err := WriteFileAtomic(p.NotePath, []byte("note"), 0o644); err != nil {
		t.Fatal(err)
	}

	np, err := lib.RenameKey("vaswani2017attention", "transformer")
	if err != nil {
		t.Fatal(err)
	}
	if np.CiteKey != "transformer" || !slices.Equal(np.Aliases, []string{"vaswani2017attention"}) {
		t.Fatalf("renamed paper: key %q aliases %v", np.CiteKey, np.Aliases)
	}
	want := []string{"1700000000_transformer.meta.json", "1700000000_transformer.pdf", "1700000001_other2020.meta.json", "1700000001_other2020.pdf"}
	if got := names(t, lib.RawDir()); !slices.Equal(got, want) {
		t.Errorf("raw/ = %v, want %v", got, want)
	}
	if got := names(t, lib.WikiDir()); !slices.Equal(got, []string{"1700000000_transformer.md"}) {
		t.Errorf("wiki/ = %v", got)
	}
	if b, _ := os.ReadFile(np.PDFPath); string(b) != "%PDF-1.4 vaswani2017attention" {
		t.Errorf("PDF content changed: %q", b)
	}

	// The old key resolves to the renamed paper and stays taken.
	got, err := lib.Find("vaswani2017attention")
	if err != nil || got.CiteKey != "transformer" {
		t.Fatalf("Find(old) = %v, %v", got, err)
	}
	papers, errs := lib.Papers()
	if len(errs) > 0 || len(papers) != 2 {
		t.Fatalf("Papers = %d, %v", len(papers), errs)
	}
	if !KeyTaken(papers, "VASWANI2017ATTENTION") {
		t.Error("an alias is not taken (case-insensitively)")
	}

	// Renaming by the alias is refused with a hint; onto a taken key too.
	if _, err := lib.RenameKey("vaswani2017attention", "x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("rename by alias: %v", err)
	}
	if _, err := lib.RenameKey("transformer", "Other2020"); !errors.Is(err, ErrKeyInUse) {
		t.Errorf("rename onto another paper's key: %v", err)
	}
	if _, err := lib.RenameKey("transformer", "../evil"); err == nil {
		t.Error("unsafe key accepted")
	}
	// Back to the old key: it leaves the aliases.
	back, err := lib.RenameKey("transformer", "vaswani2017attention")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Aliases, []string{"transformer"}) {
		t.Errorf("aliases after renaming back = %v", back.Aliases)
	}
	// A case-only change works.
	if _, err := lib.RenameKey("vaswani2017attention", "Vaswani2017Attention"); err != nil {
		t.Fatalf("case-only rename: %v", err)
	}
	if p, err := lib.Find("Vaswani2017Attention"); err != nil || !p.HasNote() {
		t.Fatalf("after case-only rename: %v, %v", p, err)
	}
	papers, _ = lib.Papers()
	if len(papers) != 2 {
		t.Errorf("%d papers after case-only rename, want 2", len(papers))
	}
}

// A rekey interrupted after the new sidecar was written leaves the old one
// behind; it must not show up as a second paper or shadow the new key.
func TestRenameKeyInterrupted(t *testing.T) {
	lib := openLib(t)
	p := addPaper(t, lib, "old2020", 1700000000)
	np := lib.paper(p.Stamp, p.Sidecar)
	np.CiteKey, np.Aliases, np.PDF = "new2020", []string{"old2020"}, ""
	np = lib.paper(p.Stamp, np.Sidecar)
	if err := lib.WriteSidecar(np); err != nil {
		t.Fatal(err)
	}
	papers, _ := lib.Papers()
	if len(papers) != 1 || papers[0].CiteKey != "new2020" {
		t.Fatalf("papers = %v", papers)
	}
	if got, err := lib.Find("old2020"); err != nil || got.CiteKey != "new2020" {
		t.Errorf("Find(old) = %v, %v", got, err)
	}
}

func TestMetadataOnlyEntry(t *testing.T) {
	lib := openLib(t)
	p, err := lib.NewPaper("imported2019", 1700000000)
	if err != nil {
		t.Fatal(err)
	}
	p.Title = "Imported"
	if err := lib.WriteSidecar(p); err != nil {
		t.Fatal(err)
	}
	got, err := lib.Find("imported2019")
	if err != nil {
		t.Fatal(err)
	}
	if got.HasPDF() || got.HasNote() {
		t.Errorf("metadata-only entry has PDF %v note %v", got.HasPDF(), got.HasNote())
	}
	if _, err := lib.RenameKey("imported2019", "imp"); err != nil {
		t.Fatal(err)
	}
	if got := names(t, lib.RawDir()); !slices.Equal(got, []string{"1700000000_imp.meta.json"}) {
		t.Errorf("raw/ = %v", got)
	}
}

func TestValidAliasAndFind(t *testing.T) {
	for _, ok := range []string{"DBLP:conf/sigmod/PandeyCDBFJ21", "Müller2020", "a+b", "x"} {
		if err := ValidAlias(ok); err != nil {
			t.Errorf("ValidAlias(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"", "a b", "a,b", "a{b", "a%b", "a\\b", "tab\tkey", strings.Repeat("x", MaxAliasLen+1)} {
		if ValidAlias(bad) == nil {
			t.Errorf("ValidAlias(%q) accepted", bad)
		}
	}
	lib := openLib(t)
	p := addPaper(t, lib, "pandey2021vector", 1700000000)
	p.Aliases = []string{"DBLP:conf/sigmod/PandeyCDBFJ21"}
	if err := lib.WriteSidecar(p); err != nil {
		t.Fatal(err)
	}
	got, err := lib.Find("DBLP:conf/sigmod/PandeyCDBFJ21")
	if err != nil || got.CiteKey != "pandey2021vector" {
		t.Errorf("Find(DBLP key) = %v, %v", got, err)
	}
	if _, err := lib.Find("../raw/x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Find(path) = %v", err)
	}
}
