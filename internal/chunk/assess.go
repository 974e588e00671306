package chunk

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/crossmem/crossmem/internal/layout"
	"github.com/crossmem/crossmem/internal/pdf"
)

// Reasons a page is not quotable, as recorded in the note.
const (
	ReasonNoTextLayer = "no text layer (image-only page)"
	ReasonScrambled   = "text layer not trustworthy (scrambled characters, e.g. a broken ToUnicode map)"
	ReasonSymbolFont  = "text layer not trustworthy (letters mapped to dingbats or private-use characters)"
)

// ReasonOverLimit is the reason recorded for a page whose text layer was
// not read because the page is over one of crossmem's per-page limits
// (pdf.Page.Refused: more than pdf.MaxPageObjects graphics objects or
// pdf.MaxPageChars characters), e.g. "text layer not read: more than
// 100000 characters on the page (crossmem's limit, docs/limits.md)".
func ReasonOverLimit(le *pdf.LimitError) string {
	return fmt.Sprintf("text layer not read: more than %d %s on the page (crossmem's limit, docs/limits.md)", le.Limit, le.Unit)
}

// Thresholds for text whose font maps letters to dingbats or private-use
// code points ("P❡♥❛❧✐③❡❞ ❧❡❛st sq✉❛r❡s"). A word with two or more
// such characters is mapped. Such a font draws a run of words, so a block
// of running text is not quotable when it holds a run of at least
// minMappedRun words that each hold a dingbat or private-use character,
// minMappedInRun of them mapped, or when at least minMappedWords of its
// words, and a third of them, are mapped (a short heading in such a
// font); the letters such a font does map right ("st" above) cannot be
// told from the rest, so the whole block goes (AssessBlock). The page goes
// when such blocks hold at least half the words of its running text, or
// when, the blocks aside, at least minPageMapped words, and
// maxMappedShare of the words, are still mapped (the font scattered over
// the page) (Assess). Symbols set on their own (a tick ✓ in a table, a
// Wingdings bullet, a Symbol-font α) are single characters and do not
// count; nor do figures, tables and equations, whose labels are often set
// in symbol fonts mapped to private-use code points.
const (
	minMappedRun   = 3
	minMappedInRun = 2
	minMappedWords = 2
	minPageMapped  = 5
	maxMappedShare = 0.03
)

// Thresholds for judging a text layer. Real prose in the languages listed
// in functionWords has 25-50 % function words and 32-45 % vowels among its
// Latin letters; text whose glyphs map to the wrong letters (a shifted or
// broken ToUnicode map) has almost no function words and few vowels
// (measured on the corpus: 3 % and 7-12 % for the two broken PDFs, at
// least 32 % vowels on every sound page).
const (
	minJudgedLetters   = 200  // pages with fewer Latin letters are accepted unjudged
	maxScrambledVowels = 0.22 // vowel share below which text may be scrambled
	maxScrambledWords  = 0.06 // function-word share below which text may be scrambled
)

// Assess decides whether a page's text layer can be quoted. It returns
// false with ReasonNoTextLayer for a page without characters, and with
// ReasonScrambled when the words look like no language: among at least 200
// Latin letters fewer than 22 % are vowels and fewer than 6 % of the words
// are common function words of English, German, French, Spanish, Italian,
// Portuguese or Dutch; and with ReasonSymbolFont when its font maps
// letters to dingbats (U+2700–U+27BF) or private-use characters over the
// page: blocks that AssessBlock rejects hold half the words of its running
// text, or the other blocks still hold at least 5 words, and 3 % of their
// words, with two or more such characters. A page that passes may still
// hold blocks that AssessBlock rejects.
func Assess(p *layout.Page) (bool, string) {
	if p.Chars == 0 || len(p.Blocks) == 0 {
		return false, ReasonNoTextLayer
	}
	var words, inMapped, scattered int
	for _, b := range p.Blocks {
		if !runningText(b) {
			continue
		}
		s := symbolWords(b.Text())
		words += s.words
		if s.mappedBlock() {
			inMapped += s.words
		} else {
			scattered += s.mapped
		}
	}
	if words > 0 && inMapped*2 >= words {
		return false, ReasonSymbolFont
	}
	if rest := words - inMapped; scattered >= minPageMapped && float64(scattered) >= maxMappedShare*float64(rest) {
		return false, ReasonSymbolFont
	}
	m := measure(p)
	if m.letters < minJudgedLetters {
		return true, ""
	}
	if m.vowelShare() < maxScrambledVowels && m.functionShare() < maxScrambledWords {
		return false, ReasonScrambled
	}
	return true, ""
}

// AssessBlock decides whether one block of a quotable page can be quoted:
// it returns false with ReasonSymbolFont for running text (not a figure's,
// a table's, an equation's or code) set in a font that maps letters to
// dingbats or private-use characters: a run of at least 3 words that each
// hold such a character, 2 of them holding two or more, or at least 2
// words with two or more making a third of the block's words.
func AssessBlock(b *layout.Block) (bool, string) {
	if runningText(b) && symbolWords(b.Text()).mappedBlock() {
		return false, ReasonSymbolFont
	}
	return true, ""
}

// runningText reports whether a block is running text, where a symbol
// font's characters are words rather than labels.
func runningText(b *layout.Block) bool {
	switch b.Kind {
	case layout.FigureText, layout.TableText, layout.Equation, layout.Code:
		return false
	}
	return true
}

// symbolCount is the count of a text's words and of those with two or
// more dingbats or private-use characters (mapped); run is true when it
// holds a run of at least minMappedRun consecutive words with at least
// one, minMappedInRun of them mapped.
type symbolCount struct {
	words, mapped int
	run           bool
}

func (s symbolCount) mappedBlock() bool {
	return s.run ||
		s.mapped >= minMappedWords && s.mapped*3 >= s.words
}

func isSymbolMapped(r rune) bool { return (r >= 0x2700 && r <= 0x27BF) || unicode.Is(unicode.Co, r) }

func symbolWords(text string) symbolCount {
	var s symbolCount
	run, runMapped := 0, 0
	// U+F020 is the space of a symbol font whose codes are mapped to
	// U+F000 + code (the Microsoft Symbol convention): it separates words.
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return unicode.IsSpace(r) || r == 0xF020 }) {
		s.words++
		n := 0
		for _, r := range w {
			if isSymbolMapped(r) {
				n++
			}
		}
		if n >= 2 {
			s.mapped++
		}
		if n == 0 {
			run, runMapped = 0, 0
			continue
		}
		run++
		if n >= 2 {
			runMapped++
		}
		if run >= minMappedRun && runMapped >= minMappedInRun {
			s.run = true
		}
	}
	return s
}

type measures struct{ words, functionWords, letters, vowels int }

func (m measures) vowelShare() float64    { return float64(m.vowels) / float64(max(m.letters, 1)) }
func (m measures) functionShare() float64 { return float64(m.functionWords) / float64(max(m.words, 1)) }

func measure(p *layout.Page) measures {
	var m measures
	for _, b := range p.Blocks {
		text := strings.ToLower(b.Text())
		for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) }) {
			if len([]rune(w)) < 2 {
				continue
			}
			m.words++
			if functionWords[w] {
				m.functionWords++
			}
		}
		for _, r := range text {
			if r >= 'a' && r <= 'z' {
				m.letters++
				if strings.ContainsRune("aeiou", r) {
					m.vowels++
				}
			}
		}
	}
	return m
}

// Diagnose returns the measures Assess uses, for diagnostics.
func Diagnose(p *layout.Page) string {
	m := measure(p)
	return fmt.Sprintf("letters=%d vowels=%.3f words=%d function=%.3f", m.letters, m.vowelShare(), m.words, m.functionShare())
}

var functionWords = func() map[string]bool {
	m := map[string]bool{}
	for _, list := range []string{
		// English
		"the of and to in is that for it as was with be by on not he this are or his from at which but have an they you were her she there one all we their has been if more when will would who so no its our can these than into also such only other may use used our between each both however using based",
		// German
		"der die und in den von zu das mit sich des auf für ist im dem nicht ein eine als auch es an werden aus er hat dass sie nach wird bei einer um am sind noch wie einem über einen so zum war haben nur oder aber vor zur bis mehr durch man",
		// French
		"de la le et les des en un une du est que pour qui dans par sur au plus pas ne se ce il avec sont aux ou son elle mais nous vous leur cette été",
		// Spanish, Italian, Portuguese
		"el los las del por con para una al lo como más pero sus le ya o este sí porque esta entre cuando muy sin sobre también me hasta hay donde quien desde todo nos durante todos uno les ni contra otros ese eso ante ellos e esto mí antes algunos qué unos yo otro otras otra él tanto esa estos mucho quienes nada muchos cual poco ella estar estas algunas algo nosotros il di che è non si per una sono della nel dei delle alla più anche come ma da dal ha gli nella questo essere do da em um para é com não uma os no se na por mais as dos como mas foi ao ele das tem à seu sua ou ser quando muito há nos já está eu também só pelo pela até isso",
		// Dutch
		"het een van en in is dat op te zijn met voor niet aan er om ook als bij door maar dan nog wordt worden tot uit naar kan deze hij ze al werd",
	} {
		for _, w := range strings.Fields(list) {
			m[w] = true
		}
	}
	return m
}()
