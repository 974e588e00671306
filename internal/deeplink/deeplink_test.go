package deeplink

import (
	"errors"
	"testing"
)

func TestForms(t *testing.T) {
	l := Chunk("vaswani2017attention", 4, [4]float64{72, 340.5, 523.8, 412.1})
	if got, want := l.String(), "crossmem://pdf/vaswani2017attention#p=4&bbox=72,340.5,523.8,412.1"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	if got, want := l.Viewer("http://127.0.0.1:7600/"), "http://127.0.0.1:7600/pdf/vaswani2017attention?p=4&bbox=72,340.5,523.8,412.1"; got != want {
		t.Errorf("Viewer = %q, want %q", got, want)
	}
	byID := Link{Key: "a:b.c", Chunk: "p4s32c1"}
	if got, want := byID.Path(), "/pdf/a:b.c?chunk=p4s32c1"; got != want {
		t.Errorf("Path = %q, want %q", got, want)
	}
	for _, s := range []string{l.String(), l.Viewer("http://127.0.0.1:7600"), l.Viewer("https://localhost:1")} {
		got, err := Parse(s)
		if err != nil {
			t.Fatalf("Parse(%q): %v", s, err)
		}
		if got != l {
			t.Errorf("Parse(%q) = %+v, want %+v", s, got, l)
		}
	}
	// The seed writes whole points; a query instead of a fragment is read too.
	got, err := Parse("crossmem://pdf/k?p=2&bbox=1,2,3,4&chunk=p2s0c3")
	if err != nil || got.Page != 2 || got.BBox != [4]float64{1, 2, 3, 4} || got.Chunk != "p2s0c3" {
		t.Errorf("Parse with a query = %+v, %v", got, err)
	}
}

func TestParseRefuses(t *testing.T) {
	for _, s := range []string{
		"",
		"file:///etc/passwd",
		"crossmem://evil/k#p=1",
		"crossmem://pdf/#p=1",
		"crossmem://pdf/..#p=1",
		"crossmem://pdf/a%2F..%2F..%2Fetc#p=1",
		"crossmem://pdf/k#p=0",
		"crossmem://pdf/k#p=-3",
		"crossmem://pdf/k#p=1e9",
		"crossmem://pdf/k#bbox=1,2,3",
		"crossmem://pdf/k#bbox=1,2,3,x",
		"crossmem://pdf/k#bbox=3,2,1,4",
		"crossmem://pdf/k#bbox=NaN,0,1,1",
		"crossmem://pdf/k#bbox=0,0,1e300,1",
		"crossmem://pdf/k#chunk=<script>",
		"http://127.0.0.1:7600/paper/k",
		"javascript:alert(1)",
	} {
		if l, err := Parse(s); !errors.Is(err, ErrInvalid) {
			t.Errorf("Parse(%q) = %+v, %v; want ErrInvalid", s, l, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"crossmem://pdf/k#p=4&bbox=72,340,523,412", "http://127.0.0.1:7600/pdf/k?chunk=p1s0c1", "crossmem://pdf/%ZZ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := Parse(s)
		if err != nil {
			return
		}
		// What parses round-trips through both forms.
		for _, form := range []string{l.String(), l.Viewer("http://127.0.0.1:7600")} {
			back, err := Parse(form)
			if err != nil {
				t.Fatalf("Parse(%q) of Parse(%q): %v", form, s, err)
			}
			if back != l {
				t.Fatalf("round trip of %q via %q: %+v, want %+v", s, form, back, l)
			}
		}
	})
}
