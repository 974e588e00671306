package compile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/media"
	"github.com/crossmem/crossmem/internal/note"
	"github.com/crossmem/crossmem/internal/talk"
	"github.com/crossmem/crossmem/internal/webvtt"
)

// TalkOptions configures the compile of a recorded talk.
type TalkOptions struct {
	// Tools says where to find ffmpeg, ffprobe, tesseract and whisper.cpp.
	Tools media.Config
	// Params are the segmentation's durations (zero: the seed's).
	Params talk.Params
	// Log receives progress lines; may be nil.
	Log func(format string, args ...any)
}

// ErrNoTranscript is returned for a talk with no subtitles, no automatic
// captions and no whisper.cpp to transcribe it.
var ErrNoTranscript = errors.New("no transcript")

// TalkParser is the note's parser for talks: the transcript is read from
// WebVTT or SubRip.
const TalkParser = "webvtt"

// keyframesFile records the keyframes of a talk (times, files, OCR text)
// in its folder, so a compile again reuses them.
const keyframesFile = "keyframes.json"

// compileTalk compiles a talk: the transcript (human subtitles, else
// whisper.cpp when it is installed with its model, else the site's
// automatic captions), keyframes (scene cuts and chapter starts, when the
// recording has video) and their slide text (tesseract, when installed),
// segmentation and chunks (internal/talk), citations, the note.
func compileTalk(ctx context.Context, lib *library.Library, paper *library.Paper, opts Options) (*Result, error) {
	o := opts.Talk
	logf := o.Log
	if logf == nil {
		logf = func(string, ...any) {}
	}
	tk := paper.Talk
	dir := lib.TalkDir(paper)
	if dir == "" {
		return nil, fmt.Errorf("%s: invalid video id %q in its sidecar", paper.CiteKey, tk.VideoID)
	}
	audio, err := lib.TalkFile(paper, tk.Audio)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(audio); err != nil {
		return nil, hint.Wrap(fmt.Errorf("the recording of %s is missing: %w", paper.CiteKey, err), hint.Action{Kind: hint.RestoreRecording, Path: audio})
	}
	// ffmpeg only for what this compile does: keyframes of a video, the
	// audio for whisper.cpp when no human subtitles and no transcript
	// made before are there. Human subtitles alone need no tool.
	human := tk.Subtitles != "" && tk.SubtitlesFrom != "auto"
	_, statErr := os.Stat(filepath.Join(dir, "transcript.vtt"))
	made := statErr == nil
	tools, _, err := media.Find(o.Tools, media.Need{Video: tk.Video != "", Transcribe: !human && !made})
	if err != nil {
		return nil, err
	}

	// The transcript, in the seed's order of preference.
	var cues []webvtt.Cue
	var tr talk.Transcript
	rel := func(p string) string {
		r, err := filepath.Rel(lib.Home, p)
		if err != nil {
			return p
		}
		return filepath.ToSlash(r)
	}
	readSubs := func(name string) ([]webvtt.Cue, string, error) {
		p, err := lib.TalkFile(paper, name)
		if err != nil {
			return nil, "", err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, "", err
		}
		c, err := webvtt.Parse(data)
		if err != nil {
			return nil, "", fmt.Errorf("subtitles %s: %w", p, err)
		}
		return c, p, nil
	}
	switch {
	case tk.Subtitles != "" && tk.SubtitlesFrom != "auto":
		c, p, err := readSubs(tk.Subtitles)
		if err != nil {
			return nil, err
		}
		cues = c
		src := "subtitles"
		if tk.SubtitlesFrom == "file" {
			src = "file"
		}
		tr = talk.Transcript{Kind: chunk.TranscriptSubtitles, Source: src, File: rel(p), Language: tk.SubtitleLang}
		logf("transcript: human subtitles (%s)", filepath.Base(p))
	case tools.Whisper != "":
		out := filepath.Join(dir, "transcript")
		vtt := out + ".vtt"
		if _, err := os.Stat(vtt); err != nil {
			logf("transcribing with %s", tools.WhisperModelName())
			wav := filepath.Join(dir, ".whisper-input.wav")
			if err := tools.WAV(ctx, audio, wav); err != nil {
				return nil, err
			}
			tmpBase := filepath.Join(dir, ".transcript-tmp")
			got, err := tools.Transcribe(ctx, wav, tmpBase)
			os.Remove(wav)
			if err != nil {
				return nil, err
			}
			if err := os.Rename(got, vtt); err != nil {
				return nil, err
			}
		}
		data, err := os.ReadFile(vtt)
		if err != nil {
			return nil, err
		}
		if cues, err = webvtt.Parse(data); err != nil {
			return nil, fmt.Errorf("whisper.cpp transcript %s: %w", vtt, err)
		}
		tr = talk.Transcript{Kind: chunk.TranscriptASR, Source: "whisper.cpp", Model: tools.WhisperModelName(), File: rel(vtt), Language: tools.Language}
		logf("transcript: speech recognition by %s (not verbatim)", tools.WhisperModelName())
	case tk.Subtitles != "":
		c, p, err := readSubs(tk.Subtitles)
		if err != nil {
			return nil, err
		}
		cues = talk.Dedupe(c)
		model := "automatic captions"
		if tk.Kind == "youtube" {
			model = "YouTube automatic captions"
		}
		tr = talk.Transcript{Kind: chunk.TranscriptASR, Source: "auto-captions", Model: model, File: rel(p), Language: tk.SubtitleLang}
		logf("transcript: the site's automatic captions (speech recognition, not verbatim)")
	default:
		return nil, hint.Wrap(fmt.Errorf("%w for %s: the recording has no subtitles and whisper.cpp is not installed", ErrNoTranscript, paper.CiteKey),
			hint.Action{Kind: hint.GiveSubtitles, Key: paper.CiteKey})
	}

	var chapters []talk.Chapter
	for _, c := range tk.Chapters {
		chapters = append(chapters, talk.Chapter{Title: c.Title, StartMS: c.StartMS, EndMS: c.EndMS})
	}

	// Keyframes and their text.
	var kfs []talk.Keyframe
	var cuts []int64
	if tk.Video != "" {
		video, err := lib.TalkFile(paper, tk.Video)
		if err != nil {
			return nil, err
		}
		kfs, cuts, err = keyframes(ctx, tools, video, filepath.Join(dir, "keyframes"), chapters, tk.DurationMS, rel, logf)
		if err != nil {
			return nil, err
		}
	}

	segs := talk.Segments(cues, chapters, cuts, tk.DurationMS, o.Params)
	var link talk.Linker
	switch {
	case tk.Kind == "youtube":
		link = talk.YouTubeLink(tk.VideoID)
	case tk.URL != "":
		link = talk.FragmentLink(tk.URL)
	default:
		link = talk.FragmentLink(rel(audio))
	}
	chunks := talk.Chunks(segs, kfs, tr, link)
	if len(chunks) == 0 {
		return nil, hint.Wrap(fmt.Errorf("%w for %s: the transcript has no text", ErrNoTranscript, paper.CiteKey),
			hint.Action{Kind: hint.GiveSubtitles, Key: paper.CiteKey})
	}
	n := &note.Note{Chunks: chunks}
	n.Front.Transcript = &note.Transcript{Kind: tr.Kind, Source: tr.Source, Model: tr.Model, File: tr.File, Language: tr.Language}
	stamp(n, paper, &opts.Cite)
	n.Front.Chunks = len(chunks)
	return save(ctx, lib, paper, &Result{Note: n}, nil)
}

// keyframes returns the talk's keyframes (with OCR text when tesseract is
// installed) and the scene cuts, from dir/keyframes.json when an earlier
// compile made them, else by running ffmpeg (and tesseract) now.
func keyframes(ctx context.Context, tools *media.Tools, video, dir string, chapters []talk.Chapter, durationMS int64, rel func(string) string, logf func(string, ...any)) ([]talk.Keyframe, []int64, error) {
	type saved struct {
		Keyframes []talk.Keyframe `json:"keyframes"`
		Cuts      []int64         `json:"scene_cuts"`
		OCR       bool            `json:"ocr"`
	}
	idx := filepath.Join(dir, keyframesFile)
	if data, err := os.ReadFile(idx); err == nil {
		var s saved
		if json.Unmarshal(data, &s) == nil && (s.OCR || tools.Tesseract == "") {
			return s.Keyframes, s.Cuts, nil
		}
	}
	logf("keyframes: scene detection with ffmpeg")
	if err := os.RemoveAll(dir); err != nil {
		return nil, nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	var lc []talk.Chapter
	lc = append(lc, chapters...)
	frames, err := tools.Keyframes(ctx, video, dir, lc, durationMS)
	if err != nil {
		return nil, nil, err
	}
	s := saved{OCR: tools.Tesseract != ""}
	for _, f := range frames {
		k := talk.Keyframe{TimeMS: f.TimeMS, Path: rel(f.Path)}
		if f.Scene {
			s.Cuts = append(s.Cuts, f.TimeMS)
		}
		if tools.Tesseract != "" {
			text, err := tools.OCR(ctx, f.Path)
			if err != nil {
				if ctx.Err() != nil {
					return nil, nil, ctx.Err()
				}
				logf("OCR of %s failed: %v", filepath.Base(f.Path), err)
			}
			k.OCR = strings.TrimSpace(text)
		}
		s.Keyframes = append(s.Keyframes, k)
	}
	if tools.Tesseract != "" {
		logf("keyframes: %d, slide text read by tesseract (OCR)", len(frames))
	} else {
		logf("keyframes: %d (tesseract is not installed: no slide text)", len(frames))
	}
	data, err := json.MarshalIndent(&s, "", "  ")
	if err != nil {
		return nil, nil, err
	}
	if err := library.WriteFileAtomic(idx, append(data, '\n'), 0o644); err != nil {
		return nil, nil, err
	}
	return s.Keyframes, s.Cuts, nil
}

// stampTalk sets the talk fields of a note's frontmatter from its sidecar
// (keep holds what the compile found: the transcript).
func stampTalk(f *note.Frontmatter, paper *library.Paper, keep note.Frontmatter) {
	tk := paper.Talk
	f.Channel = tk.Channel
	f.UploadDate = tk.UploadDate
	f.VideoID = tk.VideoID
	f.URL = tk.URL
	f.DurationSec = tk.DurationMS / 1000
	f.Raw = filepath.ToSlash(filepath.Join("raw", "youtube", tk.VideoID, tk.Audio))
	f.PDFSHA256 = ""
	f.MediaSHA256 = tk.MediaSHA256
	f.SourceType = tk.Kind
	f.Parser = TalkParser
	f.Transcript = keep.Transcript
}
