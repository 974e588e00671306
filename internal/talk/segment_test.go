package talk

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/webvtt"
)

// speech makes cues of 4 s each from start to end; every third cue ends a
// sentence.
func speech(startMS, endMS int64) []webvtt.Cue {
	var out []webvtt.Cue
	for t, i := startMS, 0; t+4000 <= endMS; t, i = t+4000, i+1 {
		text := fmt.Sprintf("words at %d", t/1000)
		if i%3 == 2 {
			text += "."
		}
		out = append(out, webvtt.Cue{StartMS: t, EndMS: t + 4000, Lines: []string{text}})
	}
	return out
}

func bounds(segs []Segment) [][2]int64 {
	var out [][2]int64
	for _, s := range segs {
		out = append(out, [2]int64{s.StartMS, s.EndMS})
	}
	return out
}

func TestSegmentsChapters(t *testing.T) {
	cues := speech(0, 400_000)
	chapters := []Chapter{{Title: "Intro", StartMS: 0}, {Title: "Method", StartMS: 30_000}, {Title: "Long", StartMS: 60_000, EndMS: 400_000}}
	segs := Segments(cues, chapters, nil, 400_000, DefaultParams())
	// Intro and Method as authored; Long (340 s > 5 min) cut into windows
	// snapped to sentence ends (cue ends at multiples of 12 s).
	var got []string
	for _, s := range segs {
		got = append(got, fmt.Sprintf("%s %d-%d %s", s.Chapter, s.StartMS/1000, s.EndMS/1000, s.Basis))
		if s.Chapter == "Long" && s.Basis == BasisWindow {
			if !EndsSentence(s.Cues[0].Text()) && s.StartMS != 60_000 {
				// the cue before the boundary ends a sentence
				prev := segs[len(got)-2].Cues
				if !EndsSentence(prev[len(prev)-1].Text()) {
					t.Errorf("window at %d s does not follow a sentence end", s.StartMS/1000)
				}
			}
		}
	}
	want := []string{"Intro 0-30 chapter", "Method 30-60 chapter", "Long 60-120 chapter", "Long 120-180 window", "Long 180-240 window", "Long 240-300 window", "Long 300-360 window", "Long 360-400 window"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("segments (-want +got):\n%s", d)
	}
	n := 0
	for _, s := range segs {
		n += len(s.Cues)
		for _, c := range s.Cues {
			if c.StartMS < s.StartMS || c.StartMS >= s.EndMS {
				t.Errorf("cue at %d in segment %d-%d", c.StartMS, s.StartMS, s.EndMS)
			}
		}
	}
	if n != len(cues) {
		t.Errorf("%d cues assigned, want %d", n, len(cues))
	}
}

func TestSegmentsScenes(t *testing.T) {
	cues := speech(0, 100_000)
	// 5 s after the start is too close (min 10 s); 96 s too close to the end.
	segs := Segments(cues, nil, []int64{50_000, 5_000, 23_500, 96_000}, 100_000, DefaultParams())
	want := [][2]int64{{0, 23_500}, {23_500, 50_000}, {50_000, 100_000}}
	if d := cmp.Diff(want, bounds(segs)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if segs[1].Basis != BasisScene || segs[0].Basis != BasisStart {
		t.Errorf("bases %s %s", segs[0].Basis, segs[1].Basis)
	}
}

func TestSegmentsWindows(t *testing.T) {
	cues := speech(0, 150_000)
	segs := Segments(cues, nil, nil, 150_000, DefaultParams())
	// Sentence ends every 12 s: 60 s is one; then 120 s; the rest (30 s)
	// stays one window.
	want := [][2]int64{{0, 60_000}, {60_000, 120_000}, {120_000, 150_000}}
	if d := cmp.Diff(want, bounds(segs)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	// Without sentence ends the nearest cue end; cues every 7 s.
	var plain []webvtt.Cue
	for t := int64(0); t+7000 <= 130_000; t += 7000 {
		plain = append(plain, webvtt.Cue{StartMS: t, EndMS: t + 7000, Lines: []string{"and so on"}})
	}
	segs = Segments(plain, nil, nil, 130_000, DefaultParams())
	// (a rest of 67 s is not split: a window and a minimum do not fit)
	want = [][2]int64{{0, 63_000}, {63_000, 130_000}}
	if d := cmp.Diff(want, bounds(segs)); d != "" {
		t.Errorf("no sentence ends (-want +got):\n%s", d)
	}
	// A short tail is not a window of its own (min 10 s).
	segs = Segments(speech(0, 66_000), nil, nil, 66_000, DefaultParams())
	if len(segs) != 1 {
		t.Errorf("66 s: %v, want one segment", bounds(segs))
	}
	// No cues at all: hard cuts at the window.
	segs = Segments(nil, nil, nil, 140_000, DefaultParams())
	want = [][2]int64{{0, 60_000}, {60_000, 120_000}, {120_000, 140_000}}
	if d := cmp.Diff(want, bounds(segs)); d != "" {
		t.Errorf("no cues (-want +got):\n%s", d)
	}
}

func TestSegmentsMax(t *testing.T) {
	// One scene of 12 minutes: windows; no segment over 5 min, none under 10 s.
	cues := speech(0, 720_000)
	segs := Segments(cues, nil, []int64{700_000}, 720_000, Params{Window: 400_000, Min: 10_000, Max: 300_000})
	for _, s := range segs {
		if d := s.EndMS - s.StartMS; d > 300_000 || d < 10_000 {
			t.Errorf("segment %d-%d lasts %d ms", s.StartMS, s.EndMS, d)
		}
	}
}

func TestEndsSentence(t *testing.T) {
	for s, want := range map[string]bool{"Done.": true, "Really?\"": true, "wait…": true, "(see this.)": true, "and": false, "3.5": false, "": false} {
		if EndsSentence(s) != want {
			t.Errorf("EndsSentence(%q) = %v", s, !want)
		}
	}
}

func TestChunks(t *testing.T) {
	cues := []webvtt.Cue{
		{StartMS: 500, EndMS: 3000, Lines: []string{"Hello and welcome.", "Second line"}},
		{StartMS: 12_000, EndMS: 14_000, Lines: []string{"Next part."}},
	}
	segs := Segments(cues, []Chapter{{Title: "Intro", StartMS: 0}, {Title: "Empty", StartMS: 5000}, {Title: "Next", StartMS: 10_000, EndMS: 20_000}}, nil, 20_000, DefaultParams())
	kfs := []Keyframe{{TimeMS: 12_500, Path: "raw/youtube/x/keyframes/frame_0002.png", OCR: "Slide  two\ntitle"}, {TimeMS: 0, Path: "raw/youtube/x/keyframes/frame_0001.png"}}
	got := Chunks(segs, kfs, Transcript{Kind: chunk.TranscriptASR, Source: "whisper.cpp", Model: "ggml-tiny.bin"}, YouTubeLink("abc_DEF-123"))
	if len(got) != 2 {
		t.Fatalf("%d chunks, want 2 (the empty chapter has none)", len(got))
	}
	c0, c1 := got[0], got[1]
	if c0.ID != "t0c1" || c1.ID != "t10c1" || c0.Type != chunk.TypeTranscript {
		t.Errorf("ids %s %s type %s", c0.ID, c1.ID, c0.Type)
	}
	if c0.Text != "Hello and welcome.\nSecond line" || c0.TextSHA256 != chunk.Hash(c0.Text) {
		t.Errorf("text %q", c0.Text)
	}
	if c1.Media.Link != "https://youtu.be/abc_DEF-123?t=10" || c1.Media.StartMS != 10_000 || c1.Media.EndMS != 20_000 {
		t.Errorf("media %+v", c1.Media)
	}
	if c1.Media.SlideOCR != "Slide two title" || len(c1.Media.Keyframes) != 1 || len(c0.Media.Keyframes) != 1 {
		t.Errorf("keyframes %+v / %+v", c0.Media, c1.Media)
	}
	if c0.Media.Transcript != chunk.TranscriptASR || c0.Media.ASRModel != "ggml-tiny.bin" {
		t.Errorf("transcript %+v", c0.Media)
	}
	all := c0.Text + chunk.PageSeparator + c1.Text
	for _, c := range got {
		if all[c.ByteRange[0]:c.ByteRange[1]] != c.Text {
			t.Errorf("byte range of %s", c.ID)
		}
	}
	if c1.Section != "Next" || strings.Join(c1.SectionPath, "/") != "Next" {
		t.Errorf("section %q", c1.Section)
	}
	if l := FragmentLink("raw/youtube/file-1/a.mp4#old")(61_999); l != "raw/youtube/file-1/a.mp4#t=61" {
		t.Errorf("fragment link %s", l)
	}
}

func TestDedupe(t *testing.T) {
	in := []webvtt.Cue{
		{StartMS: 0, EndMS: 2000, Lines: []string{"so today we"}},
		{StartMS: 2000, EndMS: 2010, Lines: []string{"so today we"}},
		{StartMS: 2010, EndMS: 4000, Lines: []string{"so today we", "talk about graphs"}},
		{StartMS: 4000, EndMS: 4010, Lines: []string{"talk about graphs"}},
		{StartMS: 4010, EndMS: 6000, Lines: []string{"talk about graphs", "and trees"}},
	}
	got := Dedupe(in)
	var lines []string
	for _, c := range got {
		lines = append(lines, c.Lines...)
	}
	if d := cmp.Diff([]string{"so today we", "talk about graphs", "and trees"}, lines); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}
