package metadata

import "testing"

func TestParseName(t *testing.T) {
	tests := []struct {
		in   string
		want Name
	}{
		{"Ashish Vaswani", Name{Family: "Vaswani", Given: "Ashish"}},
		{"Aidan N. Gomez", Name{Family: "Gomez", Given: "Aidan N."}},
		{"  Quan   Thoi Minh\nNguyen ", Name{Family: "Nguyen", Given: "Quan Thoi Minh"}},
		{"Ludwig van Beethoven", Name{Family: "van Beethoven", Given: "Ludwig"}},
		{"Peter H. N. de With", Name{Family: "de With", Given: "Peter H. N."}},
		{"Joost van der Putten", Name{Family: "van der Putten", Given: "Joost"}},
		{"Adrian Del Maestro", Name{Family: "Del Maestro", Given: "Adrian"}},
		{"Jéssica da C. Mendonça", Name{Family: "Mendonça", Given: "Jéssica da C."}},
		{"Ivo H. M. van Stokkum", Name{Family: "van Stokkum", Given: "Ivo H. M."}},
		{"Dirk Wübben", Name{Family: "Wübben", Given: "Dirk"}},
		{"Amos B. Smith III", Name{Family: "Smith", Given: "Amos B., III"}},
		{"Donald Hora Jr.", Name{Family: "Hora", Given: "Donald, Jr."}},
		{"Donald Hora, Jr.", Name{Family: "Hora", Given: "Donald, Jr."}},
		{"Smith, John", Name{Family: "Smith", Given: "John"}},
		{"van Beethoven, Ludwig", Name{Family: "van Beethoven", Given: "Ludwig"}},
		{"Smith, Jr., John", Name{Family: "Smith", Given: "John, Jr."}},
		{"Plato", Name{Literal: "Plato"}},
		{"Sheherazade", Name{Literal: "Sheherazade"}},
		{"De Gaulle", Name{Family: "Gaulle", Given: "De"}}, // a first token is never a particle
		{"", Name{}},
	}
	for _, tc := range tests {
		if got := ParseName(tc.in); got != tc.want {
			t.Errorf("ParseName(%q) = %+v; want %+v", tc.in, got, tc.want)
		}
	}
}

func TestParseNameCapitalisedParticles(t *testing.T) {
	for in, family := range map[string]string{"Yann Le Gorrec": "Le Gorrec", "Anna La Rosa": "La Rosa", "Le Zhang": "Zhang"} {
		if got := ParseName(in).Family; got != family {
			t.Errorf("ParseName(%q).Family = %q, want %q", in, got, family)
		}
	}
}
