package bibtex

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossmem/crossmem/internal/csl"
)

func TestNames(t *testing.T) {
	tests := []struct {
		in       string
		want     []csl.Name
		warnings int
	}{
		{"Donald E. Knuth", []csl.Name{{Family: "Knuth", Given: "Donald E."}}, 0},
		{"Knuth, Donald E.", []csl.Name{{Family: "Knuth", Given: "Donald E."}}, 0},
		{"D.~E. Knuth", []csl.Name{{Family: "Knuth", Given: "D. E."}}, 0},
		{"Ludwig van Beethoven", []csl.Name{{Family: "Beethoven", Given: "Ludwig", NonDroppingParticle: "van"}}, 0},
		{"van Beethoven, Ludwig", []csl.Name{{Family: "Beethoven", Given: "Ludwig", NonDroppingParticle: "van"}}, 0},
		{"Jean de La Fontaine", []csl.Name{{Family: "La Fontaine", Given: "Jean", NonDroppingParticle: "de"}}, 0},
		{"de la Fontaine, Jean", []csl.Name{{Family: "Fontaine", Given: "Jean", NonDroppingParticle: "de la"}}, 0},
		{"Joost van der Putten", []csl.Name{{Family: "Putten", Given: "Joost", NonDroppingParticle: "van der"}}, 0},
		{"Smith, Jr., John", []csl.Name{{Family: "Smith", Given: "John", Suffix: "Jr."}}, 0},
		{"Amos, III, Chris", []csl.Name{{Family: "Amos", Given: "Chris", Suffix: "III"}}, 0},
		{"Schouhamer Immink, Kees A.", []csl.Name{{Family: "Schouhamer Immink", Given: "Kees A."}}, 0},
		{"{van Gogh}, Vincent", []csl.Name{{Family: "van Gogh", Given: "Vincent"}}, 0},
		{"{World Health Organization}", []csl.Name{{Literal: "World Health Organization"}}, 0},
		{"{Barnes and Noble} and Doe, J.", []csl.Name{{Literal: "Barnes and Noble"}, {Family: "Doe", Given: "J."}}, 0},
		{"{Sheherazade} and {Ardiantiono}", []csl.Name{{Literal: "Sheherazade"}, {Literal: "Ardiantiono"}}, 0},
		{"Aristotle", []csl.Name{{Family: "Aristotle"}}, 0},
		{"M{\\\"u}ller, J{\\\"o}rg", []csl.Name{{Family: "Müller", Given: "Jörg"}}, 0},
		{"{\\v S}tefl, S.", []csl.Name{{Family: "Štefl", Given: "S."}}, 0},
		{"{\\'E}douard Duchesnay", []csl.Name{{Family: "Duchesnay", Given: "Édouard"}}, 0},
		{"Charles {\\'e}t Cetera", []csl.Name{{Family: "Cetera", Given: "Charles", NonDroppingParticle: "ét"}}, 0},
		{"Kaiser, {\\L}ukasz", []csl.Name{{Family: "Kaiser", Given: "Łukasz"}}, 0},
		{"A and B and others", []csl.Name{{Family: "A"}, {Family: "B"}}, 1},
		{"Doe, John AND Roe, Jane", []csl.Name{{Family: "Doe", Given: "John"}, {Family: "Roe", Given: "Jane"}}, 0},
		{"Doe, John and\n   Roe, Jane", []csl.Name{{Family: "Doe", Given: "John"}, {Family: "Roe", Given: "Jane"}}, 0},
		{"family=Putten, given=Joost, prefix=van der, useprefix=false", []csl.Name{{Family: "Putten", Given: "Joost", NonDroppingParticle: "van der"}}, 0},
		{"given=Jean, family={La Fontaine}, prefix=de", []csl.Name{{Family: "La Fontaine", Given: "Jean", NonDroppingParticle: "de"}}, 0},
		{", John", []csl.Name{{Family: "John"}}, 0},
		{",  and , ", nil, 2},
		{"a, b, c, d", []csl.Name{{Family: "a", Given: "c, d", Suffix: "b"}}, 1},
	}
	for _, tt := range tests {
		c := &conv{e: Entry{Fields: []Field{{Name: "author", Value: tt.in}}}}
		got := c.names("author")
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("names(%q) (-want +got):\n%s", tt.in, diff)
		}
		if len(c.warnings) != tt.warnings {
			t.Errorf("names(%q): warnings %q, want %d", tt.in, c.warnings, tt.warnings)
		}
	}
}
