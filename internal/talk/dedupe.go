package talk

import (
	"strings"

	"github.com/crossmem/crossmem/internal/webvtt"
)

// Dedupe removes the repetition of roll-up captions, as sites' automatic
// captions write them (YouTube's: each cue repeats the previous cue's last
// line above its new one, and a short cue holds a line alone between
// them): the lines at the start of a cue that repeat the end of the text
// so far are dropped, and cues left without lines with them. Only for ASR
// captions: human subtitles are never changed.
func Dedupe(cues []webvtt.Cue) []webvtt.Cue {
	var out []webvtt.Cue
	var tail []string // the last lines kept
	for _, c := range cues {
		lines := c.Lines
		// The longest prefix of lines that equals a suffix of tail.
		drop := 0
		for k := min(len(lines), len(tail)); k > 0; k-- {
			if equalLines(lines[:k], tail[len(tail)-k:]) {
				drop = k
				break
			}
		}
		lines = lines[drop:]
		if len(lines) == 0 {
			continue
		}
		out = append(out, webvtt.Cue{StartMS: c.StartMS, EndMS: c.EndMS, Lines: append([]string(nil), lines...)})
		tail = append(tail, lines...)
		if len(tail) > 8 {
			tail = tail[len(tail)-8:]
		}
	}
	return out
}

func equalLines(a, b []string) bool {
	for i := range a {
		if strings.TrimSpace(a[i]) != strings.TrimSpace(b[i]) {
			return false
		}
	}
	return true
}
