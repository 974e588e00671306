package talk

import (
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/crossmem/crossmem/internal/chunk"
)

// Keyframe is one still image of the video: when it was taken, its PNG
// file (relative to the library home) and the text tesseract read in it
// ("" when OCR did not run or found nothing).
type Keyframe struct {
	TimeMS int64  `json:"time_ms"`
	Path   string `json:"path"`
	OCR    string `json:"ocr,omitempty"`
}

// Transcript says where a talk's words come from.
type Transcript struct {
	// Kind is chunk.TranscriptSubtitles or chunk.TranscriptASR.
	Kind string `json:"kind" yaml:"kind"`
	// Source is what produced it: "subtitles" (the site's human
	// subtitles), "file" (given with --subs), "whisper.cpp", "auto-captions"
	// (the site's automatic captions).
	Source string `json:"source" yaml:"source"`
	// Model names the speech recognition model of an ASR transcript.
	Model string `json:"model,omitempty" yaml:"model,omitempty"`
	// File is the subtitle file, relative to the library home.
	File string `json:"file,omitempty" yaml:"file,omitempty"`
	// Language is the subtitles' language code, when known.
	Language string `json:"language,omitempty" yaml:"language,omitempty"`
}

// Linker makes the deep link that opens a recording at a time.
type Linker func(startMS int64) string

// YouTubeLink links to a YouTube video at a time:
// https://youtu.be/{id}?t={floor(ms/1000)}.
func YouTubeLink(id string) Linker {
	return func(ms int64) string {
		return "https://youtu.be/" + url.PathEscape(id) + "?t=" + strconv.FormatInt(ms/1000, 10)
	}
}

// FragmentLink links to a recording at a time with a media fragment,
// {base}#t={floor(ms/1000)}: a web page's URL, or a local recording's
// path (relative to the library home). A fragment already in base is
// replaced.
func FragmentLink(base string) Linker {
	if i := strings.IndexByte(base, '#'); i >= 0 {
		base = base[:i]
	}
	return func(ms int64) string { return base + "#t=" + strconv.FormatInt(ms/1000, 10) }
}

// Chunks builds the note's chunks from segments (Segments): one chunk of
// type chunk.TypeTranscript per segment with cues, its text the cues'
// lines as the transcript has them, joined by "\n". Its ID is
// "t{start seconds}c{n}" (n counts chunks starting in the same second);
// its section the chapter; its byte range is within the transcript as the
// note records it (the chunk texts joined by chunk.PageSeparator). The
// keyframes whose time falls in a chunk's range are its keyframes and
// their OCR text its SlideOCR (one line per keyframe, joined by " / ").
func Chunks(segs []Segment, keyframes []Keyframe, tr Transcript, link Linker) []chunk.Chunk {
	kfs := append([]Keyframe(nil), keyframes...)
	sort.SliceStable(kfs, func(i, j int) bool { return kfs[i].TimeMS < kfs[j].TimeMS })
	var out []chunk.Chunk
	ids := map[string]int{}
	offset := 0
	for i, s := range segs {
		if len(s.Cues) == 0 {
			continue
		}
		var lines []string
		for _, c := range s.Cues {
			lines = append(lines, c.Lines...)
		}
		text := strings.Join(lines, "\n")
		base := fmt.Sprintf("t%d", s.StartMS/1000)
		ids[base]++
		m := &chunk.Media{StartMS: s.StartMS, EndMS: s.EndMS, Link: link(s.StartMS), Transcript: tr.Kind}
		if tr.Kind == chunk.TranscriptASR {
			m.ASRModel = tr.Model
		}
		var ocr []string
		for _, k := range kfs {
			last := i == len(segs)-1
			if k.TimeMS >= s.StartMS && (k.TimeMS < s.EndMS || (last && k.TimeMS <= s.EndMS)) {
				m.Keyframes = append(m.Keyframes, k.Path)
				if t := strings.Join(strings.Fields(k.OCR), " "); t != "" {
					ocr = append(ocr, t)
				}
			}
		}
		m.SlideOCR = strings.Join(ocr, " / ")
		c := chunk.Chunk{
			ID:         fmt.Sprintf("%sc%d", base, ids[base]),
			Type:       chunk.TypeTranscript,
			Text:       text,
			Section:    s.Chapter,
			TextSHA256: chunk.Hash(text),
			Media:      m,
		}
		if s.Chapter != "" {
			c.SectionPath = []string{s.Chapter}
		}
		if len(out) > 0 {
			offset += len(chunk.PageSeparator)
		}
		c.ByteRange = [2]int{offset, offset + len(text)}
		offset += len(text)
		out = append(out, c)
	}
	return out
}
