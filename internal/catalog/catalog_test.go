package catalog

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/metadata"
)

func TestList(t *testing.T) {
	lib, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []struct {
		key, title, author string
		year               int
		pdf, note          bool
		warnings           []string
		aliases            []string
	}{
		{"vaswani2017attention", "Attention Is All You Need", "Vaswani", 2017, true, true, nil, []string{"transformer"}},
		{"devlin2019bert", "BERT", "Devlin", 2019, true, false, []string{"year: arxiv says 2018"}, nil},
		{"turing1950computing", "Computing Machinery and Intelligence", "Turing", 1950, false, false, nil, nil},
	} {
		pp, err := lib.NewPaper(p.key, 1)
		if err != nil {
			t.Fatal(err)
		}
		pp.Title, pp.Aliases = p.title, p.aliases
		pp.Metadata = metadata.Record{Title: p.title, Authors: []metadata.Name{{Family: p.author, Given: "A."}}, Issued: metadata.Date{Year: p.year}, Warnings: p.warnings}
		if p.pdf {
			pp.PDFSHA256 = strings.Repeat("a", 64)
		}
		if err := lib.WriteSidecar(pp); err != nil {
			t.Fatal(err)
		}
		if p.note {
			os.WriteFile(pp.NotePath, []byte("---\ncite_key: "+p.key+"\n---\n"), 0o644)
		}
	}
	ctx := context.Background()
	for _, tc := range []struct {
		q    Query
		want string
	}{
		{Query{}, "devlin2019bert:captured turing1950computing:metadata-only vaswani2017attention:compiled"},
		{Query{Text: "transformer"}, "vaswani2017attention:compiled"},
		{Query{Text: "MACHINERY"}, "turing1950computing:metadata-only"},
		{Query{Author: "devl"}, "devlin2019bert:captured"},
		{Query{YearFrom: 2000, YearTo: 2018}, "vaswani2017attention:compiled"},
		{Query{State: Captured}, "devlin2019bert:captured"},
		{Query{Warnings: true}, "devlin2019bert:captured"},
		{Query{Limit: 1}, "devlin2019bert:captured"},
	} {
		r, err := List(ctx, lib, nil, tc.q)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range r.Papers {
			got = append(got, e.CiteKey+":"+e.State)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%+v: %v, want %s", tc.q, got, tc.want)
		}
		if tc.q.Limit == 1 && r.Total != 3 {
			t.Errorf("limit 1: total %d, want 3", r.Total)
		}
	}
	for _, q := range []Query{{State: "lost"}, {YearFrom: 2020, YearTo: 2019}, {Limit: -1}} {
		if _, err := List(ctx, lib, nil, q); err == nil {
			t.Errorf("%+v: no error", q)
		}
	}
}
