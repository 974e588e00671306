package metadata

import "strings"

// ParseName splits a display-form personal name ("Ashish Vaswani",
// "Peter H. N. de With", "Smith, John") into a Name. It is used for sources
// that give names only as display strings (arXiv, a PDF's own metadata).
//
// Rules:
//   - "Family, Given" (one comma) is taken as inverted order; "Family,
//     Suffix, Given" as BibTeX order.
//   - Otherwise the last token is the family name, extended to the left over
//     lowercase particles (van, von, de, der, den, del, della, da, di, du,
//     le, la, dos, das, des, ten, ter: "Ludwig van Beethoven" → family "van
//     Beethoven") and, when not the first token, capitalised ones that are
//     unambiguous in academic names (Van, Von, De, Der, Den, Del, Della,
//     Da, Di, Du, Le, La, Dos, Das, Des, Ten, Ter: "Adrian Del Maestro" →
//     family "Del Maestro").
//   - A generational suffix (Jr., Sr., II, III, IV) never becomes the
//     family name; it is appended to Given after a comma ("Amos B. Smith
//     III" → family "Smith", given "Amos B., III"), so that
//     strings.Cut(given, ", ") recovers it.
//   - A single token ("Plato", "Sheherazade") becomes Literal.
//
// Compound surnames without a particle ("Kees A. Schouhamer Immink") cannot
// be recognised from a display string and come out as family "Immink".
func ParseName(display string) Name {
	s := strings.Join(strings.Fields(display), " ")
	if s == "" {
		return Name{}
	}
	if strings.Contains(s, ",") {
		parts := strings.Split(s, ",")
		for i := range parts {
			parts[i] = strings.TrimSpace(parts[i])
		}
		switch {
		case len(parts) == 2 && isNameSuffix(parts[1]) && strings.Contains(parts[0], " "):
			// "John Smith, Jr."
			n := ParseName(parts[0])
			return withSuffix(n, parts[1])
		case len(parts) == 2 && parts[0] != "" && parts[1] != "":
			// "Smith, John"
			return Name{Family: parts[0], Given: parts[1]}
		case len(parts) == 3 && parts[0] != "" && parts[2] != "" && isNameSuffix(parts[1]):
			// "Smith, Jr., John"
			return Name{Family: parts[0], Given: parts[2] + ", " + parts[1]}
		}
		s = strings.Join(strings.Fields(strings.ReplaceAll(s, ",", " ")), " ")
	}
	toks := strings.Fields(s)
	var suffix string
	if len(toks) > 2 && isNameSuffix(toks[len(toks)-1]) {
		suffix = toks[len(toks)-1]
		toks = toks[:len(toks)-1]
	}
	if len(toks) == 1 {
		if suffix != "" {
			return Name{Literal: toks[0] + " " + suffix}
		}
		return Name{Literal: toks[0]}
	}
	start := len(toks) - 1
	for start > 1 && isParticle(toks[start-1]) {
		start--
	}
	n := Name{
		Family: strings.Join(toks[start:], " "),
		Given:  strings.Join(toks[:start], " "),
	}
	return withSuffix(n, suffix)
}

func withSuffix(n Name, suffix string) Name {
	if suffix == "" {
		return n
	}
	if n.Literal != "" {
		n.Literal += " " + suffix
		return n
	}
	if n.Given == "" {
		n.Given = suffix
		return n
	}
	n.Given += ", " + suffix
	return n
}

func isNameSuffix(s string) bool {
	switch strings.TrimSuffix(s, ".") {
	case "Jr", "jr", "JR", "Sr", "sr", "SR", "II", "III", "IV", "2nd", "3rd":
		return true
	}
	return false
}

// isParticle reports whether tok belongs to the family name that follows it.
// The first token of a name is never passed here.
func isParticle(tok string) bool {
	switch tok {
	case "van", "von", "de", "der", "den", "del", "della", "da", "di", "du",
		"le", "la", "dos", "das", "des", "ten", "ter",
		"Van", "Von", "De", "Der", "Den", "Del", "Della", "Dos", "Das", "Du", "Des", "Ten", "Ter", "Le", "La", "Di", "Da":
		return true
	}
	return false
}
