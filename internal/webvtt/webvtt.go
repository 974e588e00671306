// Package webvtt reads subtitle files, WebVTT (W3C WebVTT, the format
// yt-dlp and whisper.cpp write) and SubRip (.srt), into cues: a start and
// end time and the text a viewer reads on screen.
//
// The cue text is the caption as displayed, line by line: WebVTT cue tags
// (<v Speaker>, <c.class>, <i>, <b>, <u>, <ruby>, <rt>, <lang>) and inline
// timestamps (<00:00:01.240>) are removed and the character references
// (&amp; &lt; &gt; &nbsp; &lrm; &rlm; and numeric ones) decoded; SubRip's
// <i>/<b>/<u>/<font> tags and {\an8}-style position codes likewise.
// Nothing else is changed: words, punctuation and line breaks are the
// file's, so text quoted from a human-made subtitle file is its text byte
// for byte (white space at the ends of a line aside). Blank cues are
// dropped.
//
// Structure follows the WebVTT parsing rules where they matter for text:
// a NOTE, STYLE or REGION block is recognised only where a block starts
// (after a blank line), never inside a cue's text, and a cue ends at the
// first blank line. Times are milliseconds from the start of the media.
//
// The reader is pure, bounded (MaxBytes, MaxCues) and never panics on
// hostile input (fuzzed); errors name the line.
package webvtt

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits on what Parse accepts.
const (
	MaxBytes = 64 << 20 // a larger file is refused
	MaxCues  = 200_000
)

// Cue is one caption: [StartMS, EndMS) in milliseconds and its text lines
// as displayed (never empty).
type Cue struct {
	StartMS, EndMS int64
	Lines          []string
}

// Text returns the cue's lines joined by "\n".
func (c Cue) Text() string { return strings.Join(c.Lines, "\n") }

// Format names a subtitle format.
type Format string

// The formats Parse reads.
const (
	WebVTT Format = "vtt"
	SubRip Format = "srt"
)

// ErrFormat is wrapped by errors about input that is not a subtitle file
// of the expected format.
var ErrFormat = errors.New("not a subtitle file")

// Error reports malformed input with its 1-based line number.
type Error struct {
	Line int
	Err  error
}

func (e *Error) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *Error) Unwrap() error { return e.Err }

// Detect guesses the format of data: WebVTT when it starts with the
// "WEBVTT" signature (after an optional byte order mark), SubRip when its
// first block is a counter line followed by a "-->" timing line; "" when
// neither.
func Detect(data []byte) Format {
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	if bytes.HasPrefix(data, []byte("WEBVTT")) {
		rest := data[6:]
		if len(rest) == 0 || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\n' || rest[0] == '\r' {
			return WebVTT
		}
	}
	lines := splitLines(string(bytes.TrimLeft(data, " \t\r\n")))
	if len(lines) >= 2 && strings.Contains(lines[1], "-->") {
		if _, err := strconv.Atoi(strings.TrimSpace(lines[0])); err == nil {
			return SubRip
		}
	}
	return ""
}

// Parse reads data in the format Detect finds. Errors wrap ErrFormat when
// it is neither WebVTT nor SubRip.
func Parse(data []byte) ([]Cue, error) {
	switch Detect(data) {
	case WebVTT:
		return ParseVTT(data)
	case SubRip:
		return ParseSRT(data)
	}
	return nil, fmt.Errorf("%w: neither WebVTT (no WEBVTT signature) nor SubRip", ErrFormat)
}

func splitLines(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.Split(s, "\n")
}

func checkInput(data []byte) error {
	if len(data) > MaxBytes {
		return fmt.Errorf("%w: larger than %d MB", ErrFormat, MaxBytes>>20)
	}
	if !utf8.Valid(data) {
		return fmt.Errorf("%w: not UTF-8 text", ErrFormat)
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return fmt.Errorf("%w: contains NUL bytes", ErrFormat)
	}
	return nil
}

// ParseVTT reads a WebVTT file. Cues are returned in file order, which
// the format requires to be by start time; a file with no cues gives an
// empty slice and no error.
func ParseVTT(data []byte) ([]Cue, error) {
	if err := checkInput(data); err != nil {
		return nil, err
	}
	lines := splitLines(strings.TrimPrefix(string(data), "\uFEFF"))
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "WEBVTT") || (len(lines[0]) > 6 && lines[0][6] != ' ' && lines[0][6] != '\t') {
		return nil, &Error{Line: 1, Err: fmt.Errorf("%w: the first line is not WEBVTT", ErrFormat)}
	}
	i := 1
	// The header ends at the first blank line.
	for i < len(lines) && strings.TrimSpace(lines[i]) != "" {
		i++
	}
	var cues []Cue
	for i < len(lines) {
		if strings.TrimSpace(lines[i]) == "" {
			i++
			continue
		}
		// A block: NOTE, STYLE, REGION, or a cue (optional identifier line,
		// then the timing line, then the text up to a blank line).
		start := i
		for i < len(lines) && strings.TrimSpace(lines[i]) != "" {
			i++
		}
		block := lines[start:i]
		first := block[0]
		if isKeywordBlock(first, "NOTE") || isKeywordBlock(first, "STYLE") || isKeywordBlock(first, "REGION") {
			continue
		}
		timing := 0
		if !strings.Contains(first, "-->") {
			if len(block) < 2 || !strings.Contains(block[1], "-->") {
				continue // not a cue: the parsing rules skip it
			}
			timing = 1
		}
		s, e, err := parseTiming(block[timing])
		if err != nil {
			return nil, &Error{Line: start + timing + 1, Err: err}
		}
		var text []string
		for _, l := range block[timing+1:] {
			if t := cueText(l, true); t != "" {
				text = append(text, t)
			}
		}
		if len(text) == 0 {
			continue
		}
		if len(cues) >= MaxCues {
			return nil, &Error{Line: start + 1, Err: fmt.Errorf("more than %d cues", MaxCues)}
		}
		cues = append(cues, Cue{StartMS: s, EndMS: e, Lines: text})
	}
	return cues, nil
}

// isKeywordBlock reports whether a block's first line is the keyword
// alone or followed by a space, tab or line end.
func isKeywordBlock(line, kw string) bool {
	if !strings.HasPrefix(line, kw) {
		return false
	}
	return len(line) == len(kw) || line[len(kw)] == ' ' || line[len(kw)] == '\t'
}

// ParseSRT reads a SubRip file: blocks of a counter line, a timing line
// "00:00:01,000 --> 00:00:04,000" and text lines, separated by blank lines.
// The counter is not checked (files in the wild renumber badly); a block
// without a timing line is an error.
func ParseSRT(data []byte) ([]Cue, error) {
	if err := checkInput(data); err != nil {
		return nil, err
	}
	lines := splitLines(strings.TrimPrefix(string(data), "\uFEFF"))
	var cues []Cue
	i := 0
	for i < len(lines) {
		if strings.TrimSpace(lines[i]) == "" {
			i++
			continue
		}
		start := i
		timing := i
		if !strings.Contains(lines[i], "-->") {
			timing = i + 1
		}
		if timing >= len(lines) || !strings.Contains(lines[timing], "-->") {
			return nil, &Error{Line: start + 1, Err: fmt.Errorf("%w: a SubRip block without a \"-->\" timing line", ErrFormat)}
		}
		s, e, err := parseTiming(lines[timing])
		if err != nil {
			return nil, &Error{Line: timing + 1, Err: err}
		}
		i = timing + 1
		var text []string
		for i < len(lines) && strings.TrimSpace(lines[i]) != "" {
			if t := cueText(lines[i], false); t != "" {
				text = append(text, t)
			}
			i++
		}
		if len(text) == 0 {
			continue
		}
		if len(cues) >= MaxCues {
			return nil, &Error{Line: start + 1, Err: fmt.Errorf("more than %d cues", MaxCues)}
		}
		cues = append(cues, Cue{StartMS: s, EndMS: e, Lines: text})
	}
	// Some SubRip writers do not keep their blocks in time order.
	sort.SliceStable(cues, func(a, b int) bool { return cues[a].StartMS < cues[b].StartMS })
	return cues, nil
}

// parseTiming reads "start --> end [settings]". SubRip uses a comma before
// the milliseconds, WebVTT a period; both are accepted in either.
func parseTiming(line string) (int64, int64, error) {
	left, right, ok := strings.Cut(line, "-->")
	if !ok {
		return 0, 0, errors.New("no \"-->\" in the timing line")
	}
	s, err := parseTime(strings.TrimSpace(left))
	if err != nil {
		return 0, 0, err
	}
	fields := strings.Fields(right)
	if len(fields) == 0 {
		return 0, 0, errors.New("timing line has no end time")
	}
	e, err := parseTime(fields[0])
	if err != nil {
		return 0, 0, err
	}
	if e < s {
		return 0, 0, fmt.Errorf("cue ends (%s) before it starts (%s)", fields[0], strings.TrimSpace(left))
	}
	return s, e, nil
}

var timeRe = regexp.MustCompile(`^(?:(\d{1,9}):)?(\d{1,2}):(\d{2})(?:[.,](\d{1,3}))?$`)

// parseTime reads [hh:]mm:ss[.mmm] (or ,mmm) into milliseconds.
func parseTime(s string) (int64, error) {
	m := timeRe.FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("bad timestamp %q (want hh:mm:ss.mmm)", s)
	}
	var h, mi, sec, ms int64
	if m[1] != "" {
		h, _ = strconv.ParseInt(m[1], 10, 64)
	}
	mi, _ = strconv.ParseInt(m[2], 10, 64)
	sec, _ = strconv.ParseInt(m[3], 10, 64)
	if mi > 59 || sec > 59 {
		return 0, fmt.Errorf("bad timestamp %q: minutes and seconds run to 59", s)
	}
	if m[4] != "" {
		frac := m[4]
		for len(frac) < 3 {
			frac += "0"
		}
		ms, _ = strconv.ParseInt(frac, 10, 64)
	}
	return ((h*60+mi)*60+sec)*1000 + ms, nil
}

var (
	// tagRe matches a WebVTT or SubRip markup tag or an inline timestamp:
	// <v Name>, </v>, <c.a.b>, <i>, <00:00:01.000>, <font color="…">.
	tagRe = regexp.MustCompile(`</?(?:[A-Za-z][A-Za-z0-9]*(?:\.[^\s>]*)?(?:[ \t][^>]*)?|\d{1,9}(?::\d{2}){1,2}(?:\.\d{1,3})?)>`)
	// assRe matches SubRip's ASS-style override codes: {\an8}, {\i1}.
	assRe = regexp.MustCompile(`\{\\[^{}]*\}`)
)

// cueText is one line of a cue as displayed: markup removed, character
// references decoded, white space at the ends trimmed.
func cueText(line string, vtt bool) string {
	s := tagRe.ReplaceAllString(line, "")
	if !vtt {
		s = assRe.ReplaceAllString(s, "")
	}
	if strings.Contains(s, "&") {
		s = html.UnescapeString(s)
	}
	// &nbsp; is a no-break space on screen; &lrm;/&rlm; are invisible marks.
	s = strings.Map(func(r rune) rune {
		switch r {
		case '\u200e', '\u200f':
			return -1
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}
