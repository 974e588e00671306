// Package talk turns a recorded talk (a transcript's cues, chapters, scene
// cuts and keyframes) into the time-coded chunks of a wiki note, as the
// seed's YouTube ingestion design lays out: segmentation by chapters, then
// scene cuts, then 60-second windows snapped to sentence ends (10 s
// minimum, 5 min maximum); each chunk with its start and end in
// milliseconds, a deep link into the recording, its keyframes and the slide
// text read from them (labelled OCR, never quotable), and the kind of
// transcript its words come from (human subtitles, or a speech model's).
//
// It is pure: no I/O, no clock. internal/media runs the tools that make
// its inputs; internal/compile sequences the stages.
package talk

import (
	"sort"
	"strings"
	"unicode"

	"github.com/crossmem/crossmem/internal/webvtt"
)

// Chapter is a titled part of a recording: [StartMS, EndMS).
type Chapter struct {
	Title   string `json:"title"`
	StartMS int64  `json:"start_ms"`
	EndMS   int64  `json:"end_ms"`
}

// Params are the segmentation's durations in milliseconds.
type Params struct {
	// Window is the length a fallback segment aims at.
	Window int64
	// Min is the shortest segment a split may leave (chapters are kept as
	// their author set them, however short).
	Min int64
	// Max is the longest segment: longer chapters and scenes are split.
	Max int64
}

// DefaultParams are the seed's: 60 s windows, 10 s minimum, 5 min maximum.
func DefaultParams() Params { return Params{Window: 60_000, Min: 10_000, Max: 300_000} }

// Basis says why a segment starts where it does.
type Basis string

// Segment bases.
const (
	BasisStart   Basis = "start"   // the start of the recording
	BasisChapter Basis = "chapter" // a chapter start
	BasisScene   Basis = "scene"   // a scene cut (a slide change)
	BasisWindow  Basis = "window"  // a window boundary, snapped to a sentence end
)

// Segment is one chunk's time range, the chapter it is in ("" when the
// recording has none), why it starts there, and its cues.
type Segment struct {
	StartMS, EndMS int64
	Chapter        string
	Basis          Basis
	Cues           []webvtt.Cue
}

// Segments partitions a recording of durationMS milliseconds into
// segments, in order, and assigns each cue to the segment its start falls
// in. The boundaries, in the seed's priority order:
//
//  1. chapters, when there are any: each chapter is a segment;
//  2. otherwise the scene cuts (cuts, in milliseconds, any order): a cut
//     starts a segment when it is at least p.Min after the previous
//     boundary and before the end;
//  3. a segment still longer than p.Max (a long chapter or scene), or the
//     whole recording when there are neither chapters nor cuts, is cut
//     into windows of about p.Window: each boundary is the end of the cue
//     that ends a sentence nearest to the window's end, at least p.Min
//     after the previous boundary and at most p.Max after it (the end of
//     the nearest cue when no cue there ends a sentence, the window's end
//     when no cue ends there at all).
//
// A duration of 0 (unknown) is taken from the cues and chapters.
// Segments without cues are kept (a silent chapter); callers drop them.
func Segments(cues []webvtt.Cue, chapters []Chapter, cuts []int64, durationMS int64, p Params) []Segment {
	if p.Window <= 0 || p.Min < 0 || p.Max <= 0 {
		p = DefaultParams()
	}
	cues = sortedCues(cues)
	end := durationMS
	for _, c := range cues {
		end = max(end, c.EndMS)
	}
	chapters = normalChapters(chapters, end)
	for _, ch := range chapters {
		end = max(end, ch.EndMS)
	}
	if end <= 0 {
		return nil
	}
	type span struct {
		start, end int64
		title      string
		basis      Basis
	}
	var top []span
	if len(chapters) > 0 {
		for _, ch := range chapters {
			top = append(top, span{ch.StartMS, ch.EndMS, ch.Title, BasisChapter})
		}
		if top[0].start > 0 {
			top = append([]span{{0, top[0].start, "", BasisStart}}, top...)
		}
	} else {
		top = []span{{0, end, "", BasisStart}}
	}
	cuts = sortedTimes(cuts)
	var out []Segment
	for _, t := range top {
		pieces := []span{t}
		if len(chapters) == 0 || t.end-t.start > p.Max {
			pieces = splitAt(t.start, t.end, cuts, p.Min, func(s, e int64, b Basis) span { return span{s, e, t.title, b} }, t.basis)
		}
		for _, pc := range pieces {
			if pc.end-pc.start <= p.Max && (len(chapters) > 0 || len(cuts) > 0) {
				out = append(out, Segment{StartMS: pc.start, EndMS: pc.end, Chapter: pc.title, Basis: pc.basis})
				continue
			}
			for i, w := range windows(pc.start, pc.end, cues, p) {
				b := BasisWindow
				if i == 0 {
					b = pc.basis
				}
				out = append(out, Segment{StartMS: w[0], EndMS: w[1], Chapter: pc.title, Basis: b})
			}
		}
	}
	if len(out) > 0 && out[0].StartMS == 0 && out[0].Basis != BasisChapter {
		out[0].Basis = BasisStart
	}
	// Cues to the segment their start falls in.
	j := 0
	for _, c := range cues {
		for j+1 < len(out) && c.StartMS >= out[j+1].StartMS {
			j++
		}
		out[j].Cues = append(out[j].Cues, c)
	}
	return out
}

// splitAt cuts [start, end) at the cuts that leave at least min on both
// sides of each boundary.
func splitAt[S any](start, end int64, cuts []int64, min int64, mk func(s, e int64, b Basis) S, first Basis) []S {
	var out []S
	prev, basis := start, first
	for _, c := range cuts {
		if c-prev < min || end-c < min || c <= start || c >= end {
			continue
		}
		out = append(out, mk(prev, c, basis))
		prev, basis = c, BasisScene
	}
	return append(out, mk(prev, end, basis))
}

// windows cuts [start, end) into windows of about p.Window, each boundary
// snapped to a cue end (a sentence end first).
func windows(start, end int64, cues []webvtt.Cue, p Params) [][2]int64 {
	var out [][2]int64
	prev := start
	for end-prev > p.Max || end-prev > p.Window+p.Min {
		target := prev + p.Window
		lo, hi := prev+p.Min, min(prev+p.Max, end-p.Min)
		if hi < lo {
			break
		}
		b, ok := snap(cues, lo, hi, target, true)
		if !ok {
			b, ok = snap(cues, lo, hi, target, false)
		}
		if !ok {
			b = min(max(target, lo), hi)
		}
		out = append(out, [2]int64{prev, b})
		prev = b
	}
	return append(out, [2]int64{prev, end})
}

// snap returns the boundary nearest to target in [lo, hi] that falls
// after a cue (a cue ending a sentence when sentence is true): the cue's
// end, or the next cue's start when the next cue starts before it ends.
func snap(cues []webvtt.Cue, lo, hi, target int64, sentence bool) (int64, bool) {
	best, found := int64(0), false
	for i, c := range cues {
		if sentence && !EndsSentence(c.Text()) {
			continue
		}
		b := c.EndMS
		if i+1 < len(cues) && cues[i+1].StartMS < b && cues[i+1].StartMS > c.StartMS {
			b = cues[i+1].StartMS
		}
		if b < lo || b > hi {
			continue
		}
		if !found || abs(b-target) < abs(best-target) {
			best, found = b, true
		}
	}
	return best, found
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// EndsSentence reports whether text ends a sentence: its last letter or
// digit is followed by ".", "!", "?" or "…" (closing quotes and brackets
// after it allowed).
func EndsSentence(text string) bool {
	s := strings.TrimRightFunc(text, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(`"'”’»)]`, r)
	})
	if s == "" {
		return false
	}
	r := []rune(s)
	switch r[len(r)-1] {
	case '.', '!', '?', '…', '。', '！', '？':
		return true
	}
	return false
}

func sortedCues(cues []webvtt.Cue) []webvtt.Cue {
	out := append([]webvtt.Cue(nil), cues...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].StartMS < out[j].StartMS })
	return out
}

func sortedTimes(ts []int64) []int64 {
	out := append([]int64(nil), ts...)
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// normalChapters sorts chapters by start, drops empty and duplicate ones,
// and makes each end where the next starts (the last at end, when it has
// no end of its own or one past end).
func normalChapters(in []Chapter, end int64) []Chapter {
	var cs []Chapter
	for _, c := range in {
		if c.StartMS < 0 {
			continue
		}
		c.Title = strings.Join(strings.Fields(c.Title), " ")
		cs = append(cs, c)
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].StartMS < cs[j].StartMS })
	var out []Chapter
	for i, c := range cs {
		if len(out) > 0 && out[len(out)-1].StartMS == c.StartMS {
			continue
		}
		if i+1 < len(cs) {
			c.EndMS = cs[i+1].StartMS
		} else if c.EndMS <= c.StartMS || (end > 0 && c.EndMS > end) {
			c.EndMS = max(end, c.StartMS)
		}
		if c.EndMS <= c.StartMS {
			continue
		}
		out = append(out, c)
	}
	return out
}
