package frontmatter

import (
	"fmt"
	"strings"
	"unicode"
)

// Problem says why a PDF's text cannot identify it.
type Problem int

const (
	// Readable: the text layer reads as words.
	Readable Problem = iota
	// NoText: the first pages carry (almost) no text layer: a scan or an
	// image without OCR.
	NoText
	// Unreadable: the text layer does not read as words in any language
	// the check knows: the fonts map glyphs to the wrong characters (a
	// shifted or private encoding), so the characters are not what the
	// page shows.
	Unreadable
)

// minChars is the number of characters (other than white space) below
// which the first pages count as having no text layer.
const minChars = 10

// minWords is the number of Latin-script words from which the text is
// judged; shorter texts are taken as readable.
const minWords = 40

// minCommon is the share of Latin-script words that must be common
// function words (the, of, und, de, …) for the text to read as words. Prose
// in the languages below has 25–50 %; text whose characters are shifted or
// scrambled has almost none.
const minCommon = 0.06

// common holds frequent function words of English, German, French,
// Spanish, Italian, Portuguese and Dutch, lower case.
var common = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		the of and to in a is for that on with as by are we this be from or an at which it
		not can our was were these their has have its also than into such between using
		der die das und in zu den von mit ist des für auf im dem nicht ein eine als auch es an
		le la les de des et un une du en est pour dans que qui sur par au avec ce sont
		el los las y en del que por con para una se lo como
		il lo di che per con non sono della nel gli da
		o os as e do da em um para com não uma dos
		het een van en de is op te dat voor met zijn niet
	`) {
		m[w] = true
	}
	return m
}()

// readability judges text (the first pages' characters): NoText when it
// has fewer than minChars characters other than white space, Unreadable
// when it has at least minWords Latin-script words and fewer than
// minCommon of them are common function words, or when most of its
// characters are control or private-use characters; detail says what was
// measured.
func readability(text string) (Problem, string) {
	ink, odd := 0, 0
	for _, r := range text {
		if unicode.IsSpace(r) {
			continue
		}
		ink++
		if unicode.Is(unicode.Co, r) || unicode.IsControl(r) || r == unicode.ReplacementChar {
			odd++
		}
	}
	if ink < minChars {
		return NoText, fmt.Sprintf("%d characters of text on the first pages", ink)
	}
	if odd*2 > ink {
		return Unreadable, fmt.Sprintf("%d of %d characters have no Unicode meaning", odd, ink)
	}
	words, hits := 0, 0
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' }) {
		if !latinWord(f) {
			continue
		}
		words++
		if common[strings.ToLower(f)] {
			hits++
		}
	}
	if words >= minWords && float64(hits) < minCommon*float64(words) {
		return Unreadable, fmt.Sprintf("%d of %d words are common words", hits, words)
	}
	return Readable, ""
}

// latinWord reports whether w is a word of Latin letters.
func latinWord(w string) bool {
	if w == "" {
		return false
	}
	for _, r := range w {
		if r != '\'' && !unicode.Is(unicode.Latin, r) {
			return false
		}
	}
	return true
}
