package citekey

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/metadata"
)

// This file checks Make and Unique against Better BibTeX's own test
// fixtures (../shared/corpus/citekeys/bbt_fixture_cases.json): for every case
// whose key BBT generated (pinned_in_input=false), translate the case's BBT
// formula into a crossmem pattern when the DSL can express it, build the
// metadata.Record crossmem would hold for the BBT item, make the key, settle
// collisions against the keys the other items of the same fixture hold, and
// compare with the key BBT exported. docs/cite-keys.md reports the numbers.

// bbtCase is one entry of bbt_fixture_cases.json.
type bbtCase struct {
	Fixture        string  `json:"fixture"`
	OutputFile     string  `json:"expected_output_file"`
	Formula        string  `json:"citekeyFormat"`
	Fold           bool    `json:"citekeyFold"`
	SkipOverridden bool    `json:"skipWords_overridden"`
	Pinned         bool    `json:"pinned_in_input"`
	Expected       string  `json:"expected_key"`
	Item           bbtItem `json:"item"`
}

type bbtItem struct {
	ItemType string `json:"itemType"`
	Title    string `json:"title"`
	Creators []struct {
		CreatorType string `json:"creatorType"`
		FirstName   string `json:"firstName"`
		LastName    string `json:"lastName"`
		Name        string `json:"name"`
	} `json:"creators"`
	Date     *string `json:"date"`
	Language *string `json:"language"`
}

// bbtPrimaryCreator is Zotero's primary creator type for the item types in
// the fixtures whose primary creator is not "author". BBT's auth uses the
// primary creators, else the editors; crossmem's Record holds the primary
// creators as Authors.
var bbtPrimaryCreator = map[string]string{
	"patent":          "inventor",
	"film":            "director",
	"tvBroadcast":     "director",
	"radioBroadcast":  "director",
	"videoRecording":  "director",
	"computerProgram": "programmer",
	"presentation":    "presenter",
	"podcast":         "podcaster",
	"audioRecording":  "performer",
	"artwork":         "artist",
	"interview":       "interviewee",
	"map":             "cartographer",
	"bill":            "sponsor",
}

var (
	bbtBracketed = regexp.MustCompile(`\[[^\]]*\]`)
	bbtYear      = regexp.MustCompile(`\d{4}`)
)

// record returns the metadata.Record crossmem would hold for the item: the
// title as given; the primary creators as Authors and the editors and series
// editors as Editors, a two-field name with Family = lastName as stored
// (particles included) and a single-field name as Literal; the year is the
// first four-digit number of the date outside brackets ("2004 [1929]" →
// 2004), else inside them ("[2007]" → 2007), none when there is no such
// number ("Forthcoming").
func (it bbtItem) record() *metadata.Record {
	rec := &metadata.Record{Title: it.Title}
	primary := bbtPrimaryCreator[it.ItemType]
	if primary == "" {
		primary = "author"
	}
	for _, c := range it.Creators {
		n := metadata.Name{Family: c.LastName, Given: c.FirstName}
		if c.Name != "" {
			n = metadata.Name{Literal: c.Name}
		}
		switch c.CreatorType {
		case primary:
			rec.Authors = append(rec.Authors, n)
		case "editor", "seriesEditor":
			rec.Editors = append(rec.Editors, n)
		}
	}
	if it.Date != nil {
		y := bbtYear.FindString(bbtBracketed.ReplaceAllString(*it.Date, ""))
		if y == "" {
			y = bbtYear.FindString(*it.Date)
		}
		rec.Issued.Year, _ = strconv.Atoi(y)
	}
	return rec
}

// bbtTranslation is a BBT formula rendered in crossmem's DSL.
type bbtTranslation struct {
	pattern string
	// collisions is how BBT disambiguates: "" for its default a, b, …
	// (crossmem's a..z), or the postfix template the formula sets.
	collisions string
	// fields are the crossmem fields the pattern reads; unfolded those
	// that BBT leaves untransliterated (citekeyFold=false and no .fold or
	// .transliterate in the part).
	fields, unfolded map[string]bool
}

// translateBBT renders a BBT formula (current, "javascript-ish" syntax; the
// fixtures hold no legacy bracket formulas) in crossmem's pattern DSL, or
// says why the DSL cannot express it. The rendering is by formula shape, the
// same for every case:
//
//   - the formula must be one alternative: parts joined with "+", without
//     "|", "||", ";" or type() conditions;
//   - a quoted string is literal text, which crossmem allows only from
//     A-Z a-z 0-9 _ - .;
//   - auth (n=0, m=1, creator="*", initials=false: the whole family name of
//     the first primary creator) is [auth]; authorsn (n=0, sep=" ": every
//     family name, concatenated) is [authors]; year is [year];
//   - shorttitle(n, m) and veryshorttitle (= shorttitle(1, 0)) are
//     [shorttitle:n], but only when a later .lower or .upper fixes the
//     letter case: BBT keeps the title's capitals (and upper-cases the first
//     m words), crossmem's shorttitle is always lower case;
//   - Title (the raw title field) with .skipwords, .select(1,n) and .nopunct
//     or .alphanum is the first n significant title words, [shorttitle:n]
//     (again only with .lower or .upper); a bare Title is [title];
//   - filters: .fold and .transliterate without a mode are what every
//     crossmem token does already; .lower, .upper and .condense (no
//     separator) are the modifiers of the same name; .nopunct, .alphanum and
//     .nopunctordash are :nopunct; .select(1,n) on a name is the word count
//     :n; .prefix(s) and .postfix(s) are literal text before or after the
//     token (BBT adds them only when the token is not empty);
//   - a bare postfix("…") sets BBT's collision suffix template; crossmem's
//     is always a..z then _<n>, so only keys that needed a suffix can
//     differ.
//
// Everything else (auth with n or m, authorsn with n or sep, shortyear,
// origyear, title, creatornames, authEtal2, authEtAl, authorsAlpha,
// authIni, authForeIni, authshort, zotero, capitalize, abbr, replace, len,
// default, condense with a separator, fold with a language mode, select
// from a word other than the first, custom skip-word lists, …) is not
// expressible, and the reason is returned.
func translateBBT(c bbtCase) (bbtTranslation, string) {
	f := strings.TrimSpace(strings.TrimPrefix(c.Formula, "(default)"))
	out := bbtTranslation{fields: map[string]bool{}, unfolded: map[string]bool{}}
	// Leading statements that only set something are settings, not
	// alternatives.
	statements := splitTop(f, ";")
	for len(statements) > 1 {
		name, args, filters, _ := parseCall(strings.TrimSpace(statements[0]))
		if len(filters) > 0 || (name != "creatornames" && name != "postfix") {
			break
		}
		if name == "creatornames" {
			return bbtTranslation{}, "creatornames(…) sets a name template: crossmem's names are always family names"
		}
		if len(args) > 1 {
			return bbtTranslation{}, "postfix with a start offset: BBT always adds a collision suffix"
		}
		if len(args) == 1 {
			out.collisions = args[0].value
		}
		statements = statements[1:]
	}
	f = strings.TrimSpace(statements[0])
	if len(statements) > 1 || len(splitTop(f, "|")) > 1 {
		return bbtTranslation{}, "alternative formulas (; or |, tried in turn or by item type): a crossmem pattern is one formula"
	}
	var b strings.Builder
	for _, p := range splitTop(f, "+") {
		p = strings.TrimSpace(p)
		if lit, ok := unquote(p); ok {
			if !safeLiteral(lit) {
				return bbtTranslation{}, fmt.Sprintf("literal %q: crossmem literal text is A-Z a-z 0-9 _ - . only", lit)
			}
			b.WriteString(lit)
			continue
		}
		name, args, filters, err := parseCall(p)
		if err != "" {
			return bbtTranslation{}, err
		}
		if name == "postfix" {
			if len(args) > 1 {
				return bbtTranslation{}, "postfix with a start offset: BBT always adds a collision suffix"
			}
			if len(args) == 1 {
				out.collisions = args[0].value
			}
			continue
		}
		tok, field, folded, why := translateToken(name, args, filters, c)
		if why != "" {
			return bbtTranslation{}, why
		}
		out.fields[field] = true
		if !c.Fold && !folded {
			out.unfolded[field] = true
		}
		b.WriteString(tok)
	}
	out.pattern = b.String()
	if out.pattern == "" {
		return bbtTranslation{}, "formula produces no key part"
	}
	return out, ""
}

type bbtArg struct{ key, value string }

type bbtFilter struct {
	name string
	args []bbtArg
}

// argument returns the value of a call's parameter, by name or by position,
// and whether it was given.
func argument(args []bbtArg, name string, pos int) (string, bool) {
	for _, a := range args {
		if a.key == name {
			return a.value, true
		}
	}
	if pos < len(args) && args[pos].key == "" {
		return args[pos].value, true
	}
	return "", false
}

// onlyDefaults reports whether every argument is one of the allowed
// parameters (by name, or by position in order) with its default value.
func onlyDefaults(args []bbtArg, params []string, defaults map[string]string) (string, bool) {
	for i, a := range args {
		key := a.key
		if key == "" {
			if i >= len(params) {
				return fmt.Sprintf("extra argument %q", a.value), false
			}
			key = params[i]
		}
		def, known := defaults[key]
		if !known {
			return fmt.Sprintf("argument %s=%s", key, a.value), false
		}
		if a.value != def {
			return fmt.Sprintf("argument %s=%s", key, a.value), false
		}
	}
	return "", true
}

// translateToken renders one BBT function call with its filters as a
// crossmem token, and says which crossmem field it reads and whether a
// filter transliterates it; or it says why it cannot.
func translateToken(name string, args []bbtArg, filters []bbtFilter, c bbtCase) (tok, field string, folded bool, why string) {
	var mods []string
	kind := "" // "name", "year", "short" (a shorttitle), "title" (raw Title)
	words := 0
	switch name {
	case "auth":
		if why, ok := onlyDefaults(args, []string{"n", "m", "creator", "initials"},
			map[string]string{"n": "0", "m": "1", "creator": "*", "initials": "false"}); !ok {
			return "", "", false, "auth with " + why + ": crossmem's auth is the whole family name of the first author"
		}
		field, kind = "auth", "name"
	case "authorsn":
		if why, ok := onlyDefaults(args, []string{"n", "creator", "initials", "sep"},
			map[string]string{"n": "0", "creator": "*", "initials": "false", "sep": " "}); !ok {
			return "", "", false, "authorsn with " + why + ": crossmem's authors is every family name, concatenated"
		}
		field, kind = "authors", "name"
	case "year":
		if len(args) > 0 {
			return "", "", false, "year with arguments"
		}
		field, kind = "year", "year"
	case "shorttitle", "veryshorttitle":
		// The second argument, m, upper-cases the first letter of the
		// first m words; the .lower or .upper this kind requires below
		// undoes it.
		n := "3"
		if name == "veryshorttitle" {
			n = "1"
		}
		if v, ok := argument(args, "n", 0); ok {
			n = v
		}
		var err error
		if words, err = strconv.Atoi(n); err != nil || words < 1 {
			return "", "", false, name + " with word count " + n
		}
		field, kind = "shorttitle", "short"
	case "Title":
		if len(args) > 0 {
			return "", "", false, "Title with arguments"
		}
		field, kind = "title", "title"
	default:
		if why, ok := bbtNoToken[name]; ok {
			return "", "", false, name + ": " + why
		}
		return "", "", false, "function " + name + ": no crossmem token"
	}
	if c.SkipOverridden && (kind == "short" || kind == "title") {
		return "", "", false, "custom skip-word list: crossmem's skip-words are fixed"
	}
	caseFixed, skip, punct := false, false, false
	var pre, post string
	for _, f := range filters {
		switch f.name {
		case "fold", "transliterate":
			folded = true
			if len(f.args) > 0 {
				return "", "", false, fmt.Sprintf(".%s(%s): crossmem has one language-independent transliteration", f.name, f.args[0].value)
			}
		case "lower", "upper":
			caseFixed = true
			mods = append(mods, f.name)
		case "nopunct", "alphanum", "nopunctordash":
			if len(f.args) > 0 {
				return "", "", false, "." + f.name + " with arguments"
			}
			punct = true
			if kind != "title" && kind != "short" {
				mods = append(mods, "nopunct")
			}
		case "condense":
			if len(f.args) > 0 && f.args[0].value != "" {
				return "", "", false, fmt.Sprintf(".condense(%s): crossmem's condense removes whitespace, with no separator", f.args[0].value)
			}
			mods = append(mods, "condense")
		case "skipwords":
			if len(f.args) > 0 {
				return "", "", false, ".skipwords with arguments"
			}
			switch kind {
			case "title":
				skip = true
			case "short":
				// shorttitle has dropped the skip-words already.
			default:
				return "", "", false, ".skipwords on " + name + ": crossmem applies skip-words to shorttitle only"
			}
		case "select":
			start, _ := argument(f.args, "start", 0)
			if start == "" {
				start = "1"
			}
			if start != "1" {
				return "", "", false, ".select(" + start + ", …): crossmem counts words from the first"
			}
			n, ok := argument(f.args, "n", 1)
			if !ok {
				continue // select(1): every word
			}
			k, err := strconv.Atoi(n)
			if err != nil || k < 1 {
				return "", "", false, ".select with word count " + n
			}
			switch {
			case kind == "title" && skip && words == 0:
				words = k
			case kind == "name" || kind == "year":
				mods = append(mods, strconv.Itoa(k))
			default:
				return "", "", false, ".select here has no crossmem equivalent"
			}
		case "prefix", "postfix":
			if len(f.args) != 1 {
				return "", "", false, "." + f.name + " without one argument"
			}
			if !safeLiteral(f.args[0].value) {
				return "", "", false, fmt.Sprintf(".%s(%q): crossmem literal text is A-Z a-z 0-9 _ - . only", f.name, f.args[0].value)
			}
			if f.name == "prefix" {
				pre = f.args[0].value + pre
			} else {
				post += f.args[0].value
			}
		default:
			return "", "", false, "." + f.name + ": no crossmem modifier"
		}
	}
	switch kind {
	case "short":
		if !caseFixed {
			return "", "", false, name + " without .lower: BBT keeps (or capitalises) the title's letter case, crossmem's shorttitle is lower case"
		}
		mods = append([]string{strconv.Itoa(words)}, mods...)
	case "title":
		if skip || words > 0 || punct {
			if !(skip && words > 0 && punct) {
				return "", "", false, "Title with only some of .skipwords, .select(1,n), .nopunct: no crossmem token"
			}
			if !caseFixed {
				return "", "", false, "Title words without .lower: BBT keeps the title's letter case, crossmem's shorttitle is lower case"
			}
			field = "shorttitle"
			mods = append([]string{strconv.Itoa(words)}, mods...)
		}
	}
	return pre + "[" + strings.Join(append([]string{field}, mods...), ":") + "]" + post, field, folded, ""
}

// bbtNoToken says why common BBT functions have no crossmem token.
var bbtNoToken = map[string]string{
	"title":        "BBT's title is the title words without skip-words and one-letter words, in their case; crossmem's [title] is the whole title",
	"zotero":       "Zotero's own generator (family_firstword_year with its own stop-words, spaces in names kept as _)",
	"shortyear":    "the last two digits of the year: no crossmem token",
	"origyear":     "the original publication year: crossmem records one year",
	"authEtal2":    "one or two family names or first-author + etal: no crossmem token",
	"authEtAl":     "one or two family names or first-author + EtAl: no crossmem token",
	"authorsAlpha": "BibTeX alpha-style author initials: no crossmem token",
	"authForeIni":  "the first author's given-name initial: no crossmem token",
	"authIni":      "author initials: no crossmem token",
	"authshort":    "the first author, or initials of several: no crossmem token",
	"authors":      "authors with min, n or etal: no crossmem token",
	"creatornames": "a name template setting: crossmem's names are always family names",
	"creators":     "creators of chosen types: no crossmem token",
}

// splitTop splits s at sep outside quotes and parentheses. A "|" that is
// part of "||" is not a separator but still makes the formula two
// alternatives, so it is split too.
func splitTop(s, sep string) []string {
	var out []string
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case ch == '"' || ch == '\'':
			quote = ch
		case ch == '(' || ch == '[':
			depth++
		case ch == ')' || ch == ']':
			depth--
		case depth == 0 && strings.HasPrefix(s[i:], sep):
			out = append(out, s[start:i])
			start = i + len(sep)
		}
	}
	out = append(out, s[start:])
	if strings.TrimSpace(out[len(out)-1]) == "" && len(out) > 1 {
		out = out[:len(out)-1] // a trailing ";"
	}
	return out
}

func unquote(p string) (string, bool) {
	if len(p) >= 2 && (p[0] == '"' || p[0] == '\'') && p[len(p)-1] == p[0] {
		return p[1 : len(p)-1], true
	}
	return "", false
}

func safeLiteral(s string) bool {
	for _, r := range s {
		if !isSafeRune(r) && r != '.' {
			return false
		}
	}
	return s != ""
}

var bbtIdent = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*`)

// parseCall parses name(args).filter(args).filter… .
func parseCall(p string) (string, []bbtArg, []bbtFilter, string) {
	var name string
	var args []bbtArg
	var filters []bbtFilter
	for first := true; p != ""; first = false {
		if !first {
			if p[0] != '.' {
				return "", nil, nil, fmt.Sprintf("expression %q: no crossmem equivalent", p)
			}
			p = p[1:]
		}
		id := bbtIdent.FindString(p)
		if id == "" {
			return "", nil, nil, fmt.Sprintf("expression %q: no crossmem equivalent", p)
		}
		p = p[len(id):]
		var a []bbtArg
		if strings.HasPrefix(p, "(") {
			end := closingParen(p)
			if end < 0 {
				return "", nil, nil, "unbalanced parentheses"
			}
			for _, s := range splitTop(p[1:end], ",") {
				s = strings.TrimSpace(s)
				if s == "" {
					continue
				}
				var arg bbtArg
				if k, v, ok := strings.Cut(s, "="); ok && bbtIdent.MatchString(strings.TrimSpace(k)) && !strings.ContainsAny(k, `"'`) {
					arg.key, s = strings.TrimSpace(k), strings.TrimSpace(v)
				}
				if v, ok := unquote(s); ok {
					s = v
				}
				arg.value = s
				a = append(a, arg)
			}
			p = p[end+1:]
		}
		if first {
			name, args = id, a
		} else {
			filters = append(filters, bbtFilter{id, a})
		}
	}
	return name, args, filters, ""
}

func closingParen(p string) int {
	depth := 0
	var quote byte
	for i := 0; i < len(p); i++ {
		switch ch := p[i]; {
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case ch == '"' || ch == '\'':
			quote = ch
		case ch == '(':
			depth++
		case ch == ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

func TestBBTTranslate(t *testing.T) {
	tests := []struct{ formula, want string }{
		{"auth.lower + year", "[auth:lower][year]"},
		{`auth(n=0,m=1,creator="*",initials=false).fold + year`, "[auth][year]"},
		{`auth(n=0,m=1,creator="*",initials=false).fold.lower + "_" + veryshorttitle.lower + "_" + year`, "[auth:lower]_[shorttitle:1:lower]_[year]"},
		{`auth(n=0,m=1,creator="*",initials=false).fold.lower + Title.transliterate.nopunct.skipwords.select(1,1).lower.alphanum.prefix(_) + year.prefix(_) + postfix("-%(n)s")`, "[auth:lower]_[shorttitle:1:lower]_[year]"},
		{`authorsn(n=0,creator="*",initials=false,sep=" ").fold + year`, "[authors][year]"},
		{"auth.lower + shorttitle(3,3).lower + year", "[auth:lower][shorttitle:3:lower][year]"},
		{"Title", "[title]"},
	}
	for _, tc := range tests {
		tr, why := translateBBT(bbtCase{Formula: tc.formula})
		if why != "" || tr.pattern != tc.want {
			t.Errorf("translate %s = %q (%s), want %q", tc.formula, tr.pattern, why, tc.want)
		}
		if _, err := Make(tr.pattern, vaswani); err != nil {
			t.Errorf("translation %q: %v", tr.pattern, err)
		}
	}
	for _, f := range []string{
		"(default) auth.lower + shorttitle(3,3) + year",
		`auth(n=5,m=1,creator="*",initials=false).fold.lower + shortyear`,
		`auth + "(" + year + ")" + shorttitle(3,3)`,
		"auth.fold.lower + year | auth + year",
		"auth.capitalize + year",
		`auth(n=0,m=1,creator="*",initials=false).condense(_).lower + year`,
		"title.lower",
		"zotero.clean",
	} {
		if tr, why := translateBBT(bbtCase{Formula: f}); why == "" {
			t.Errorf("translate %s = %q, want not expressible", f, tr.pattern)
		}
	}
}

// designDifference says why crossmem's key for this case differs from
// BBT's by design, whatever the formula: decided from the case's input (the
// record crossmem holds and citekeyFold), never from the expected key.
func designDifference(tr bbtTranslation, c bbtCase, rec *metadata.Record, base, got string) string {
	if got != base && tr.collisions != "" && tr.collisions != "%(a)s" {
		return fmt.Sprintf("the key collides and BBT's formula sets the suffix template %q: crossmem always uses a..z, then _<n>", tr.collisions)
	}
	if (tr.fields["auth"] || tr.fields["authors"]) && len(keyNames(rec)) == 0 {
		return `no author or editor name: crossmem writes the fallback "anon" where BBT leaves the part empty`
	}
	if tr.fields["year"] && rec.Issued.Year == 0 {
		return fmt.Sprintf(`no year number in the date %q: crossmem writes the fallback "nd" where BBT leaves the part empty or copies the date`, deref(c.Item.Date))
	}
	for field := range tr.unfolded {
		var v string
		switch field {
		case "auth", "authors":
			for _, n := range append(append([]metadata.Name{}, rec.Authors...), rec.Editors...) {
				v += n.Family + n.Literal + n.Given
			}
		case "shorttitle", "title":
			v = rec.Title
		}
		for _, r := range v {
			if r > 0x7f {
				return "citekeyFold=false and non-ASCII input: BBT keeps the characters, crossmem always transliterates"
			}
		}
	}
	return ""
}

// bbtStale lists fixture cases whose key BBT's own formula does not make:
// the fixture's key was made by an older formula than the one it records.
// bbt_reimpl_validation.json, which re-implements BBT's semantics, does not
// reproduce them either. They are no oracle for the formula and are left
// out, with the reason.
var bbtStale = map[string]string{
	"test/fixtures/export/Include first name initial(s) in cite key generation pattern (86).bibtex HuF2014":    "the key has the first-name initial (legacy [auth+initials]) but the formula says initials=false; BBT's semantics give Hu2014",
	"test/fixtures/export/Journal abbreviations exported in bibtex (81).bibtex HammondBortz2011ApplMathComput": "the key has two authors and the journal abbreviation, the formula is auth + year; BBT's semantics give Hammond2011",
	"test/fixtures/export/Journal abbreviations.bibtex BaltesStaudinger2000Am.Psychol.":                        "the key has two authors and the journal abbreviation, the formula is auth + year; BBT's semantics give Baltes2000",
}

// bbtMismatches explains every remaining case whose key crossmem makes
// differently, keyed by output file and expected key. The test fails on an
// unexplained mismatch and on an explanation that no longer applies, so
// this list and docs/cite-keys.md stay true.
var bbtMismatches = map[string]string{
	"test/fixtures/export/date ranges #747+#746.bibtex P.Widhalm2011": `"." in a name: BBT keeps it ("P.Widhalm"), crossmem keeps only A-Z a-z 0-9 _ - from metadata ("PWidhalm")`,
}

func TestBBTFixtures(t *testing.T) {
	b := corpustest.File(t, "citekeys", "bbt_fixture_cases.json")
	var file struct {
		Cases []bbtCase `json:"cases"`
	}
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	// The library of each fixture: every key its items hold.
	held := map[string][]string{}
	for _, c := range file.Cases {
		held[c.OutputFile] = append(held[c.OutputFile], strings.ToLower(c.Expected))
	}
	var unpinned, formulaOK, byDesign, stale, evaluated, exact int
	notExpressible := map[string]int{}
	for i, c := range file.Cases {
		if c.Pinned {
			continue
		}
		unpinned++
		tr, why := translateBBT(c)
		if why != "" {
			notExpressible[why]++
			continue
		}
		formulaOK++
		rec := c.Item.record()
		base, err := Make(tr.pattern, rec)
		if err != nil {
			t.Fatalf("case %d: Make(%q): %v", i, tr.pattern, err)
		}
		// Every other item of the fixture holds the key BBT gave it (a key
		// held twice in the fixture counts once for this item).
		taken := map[string]bool{}
		self := false
		for _, k := range held[c.OutputFile] {
			if k == strings.ToLower(c.Expected) && !self {
				self = true
				continue
			}
			taken[k] = true
		}
		got, err := Unique(base, func(k string) bool { return taken[strings.ToLower(k)] })
		if err != nil {
			t.Fatalf("case %d: Unique(%q): %v", i, base, err)
		}
		id := c.OutputFile + " " + c.Expected
		if d := designDifference(tr, c, rec, base, got); d != "" {
			byDesign++
			t.Logf("by design: %s: crossmem %q, BBT %q: %s", tr.pattern, got, c.Expected, d)
			continue
		}
		if reason, ok := bbtStale[id]; ok {
			stale++
			if got == c.Expected {
				t.Errorf("case %d listed as stale matches (%s)", i, got)
			}
			t.Logf("stale fixture: %s: crossmem %q, BBT fixture %q: %s", tr.pattern, got, c.Expected, reason)
			continue
		}
		evaluated++
		reason, explained := bbtMismatches[id]
		if got == c.Expected {
			exact++
			if explained {
				t.Errorf("case %d matches now (%s); remove its bbtMismatches entry %q", i, got, id)
			}
			continue
		}
		if !explained {
			t.Errorf("case %d: %s → pattern %s: got %q, BBT %q (title %q, date %v, lang %v); unexplained",
				i, c.Formula, tr.pattern, got, c.Expected, c.Item.Title, deref(c.Item.Date), deref(c.Item.Language))
			continue
		}
		t.Logf("mismatch: %s: crossmem %q, BBT %q: %s", tr.pattern, got, c.Expected, reason)
	}
	t.Logf("BBT fixture cases: %d total, %d generated (not pinned); %d with a formula crossmem's DSL expresses, of which %d hit a documented design difference and %d are stale fixtures; %d evaluated, %d exact, %d mismatched",
		len(file.Cases), unpinned, formulaOK, byDesign, stale, evaluated, exact, evaluated-exact)
	var reasons []string
	for r, n := range notExpressible {
		reasons = append(reasons, fmt.Sprintf("%3d  %s", n, r))
	}
	sort.Strings(reasons)
	t.Logf("formula not expressible (%d):\n%s", unpinned-formulaOK, strings.Join(reasons, "\n"))
	if evaluated == 0 {
		t.Fatal("no case evaluated")
	}
	if 100*exact < 95*evaluated {
		t.Errorf("%d of %d expressible BBT cases exact (%.1f%%), want at least 95%%", exact, evaluated, 100*float64(exact)/float64(evaluated))
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}
