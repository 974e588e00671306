package compile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/media"
	"github.com/crossmem/crossmem/internal/metadata"
)

// newTalk puts a local recording into a fresh library as if captured:
// its audio (bytes that are not audio: a compile from subtitles does not
// decode it), its human subtitles and, when video is set, a video file.
func newTalk(t *testing.T, video bool) (*library.Library, *library.Paper) {
	t.Helper()
	lib, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p, err := lib.NewPaper("speaker2024talk", 1700000000)
	if err != nil {
		t.Fatal(err)
	}
	id := "file-0123456789abcdef"
	tk := &library.Talk{VideoID: id, Kind: "local", Audio: id + ".m4a", MediaSHA256: strings.Repeat("0", 64),
		Subtitles: id + ".subs.vtt", SubtitlesFrom: "file", DurationMS: 20_000}
	if video {
		tk.Video = id + ".mp4"
	}
	rec := metadata.Record{Type: "speech", Title: "A talk", Authors: []metadata.Name{{Family: "Speaker", Given: "Sam"}}, Issued: metadata.Date{Year: 2024}}
	rec.Normalize()
	p.Sidecar = library.Sidecar{CiteKey: p.CiteKey, Title: rec.Title, CapturedAt: "1700000000", Metadata: rec, Talk: tk}
	dir := lib.TalkDir(p)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		tk.Audio:     "not audio",
		tk.Subtitles: "WEBVTT\n\n00:00:01.000 --> 00:00:05.000\nWe begin with the question.\n\n00:00:06.000 --> 00:00:12.000\nThe answer takes the rest of the talk.\n",
	}
	if video {
		files[tk.Video] = "not video"
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := lib.WriteSidecar(p); err != nil {
		t.Fatal(err)
	}
	return lib, p
}

// TestTalkSubtitlesNeedNoTools: an audio-only recording with human
// subtitles compiles on a PATH without ffmpeg, ffprobe, tesseract or
// whisper.cpp; one with a video needs ffmpeg (for its keyframes), and
// says so.
func TestTalkSubtitlesNeedNoTools(t *testing.T) {
	noTools := media.Config{Path: t.TempDir(), Home: t.TempDir()}
	lib, p := newTalk(t, false)
	res, err := Run(t.Context(), lib, p.CiteKey, Options{Talk: TalkOptions{Tools: noTools}})
	if err != nil {
		t.Fatalf("an audio-only talk with subtitles, no tools on PATH: %v", err)
	}
	if len(res.Note.Chunks) == 0 || res.Note.Chunks[0].Media == nil || res.Note.Chunks[0].Media.Transcript != chunk.TranscriptSubtitles ||
		!strings.Contains(res.Note.Chunks[0].Text, "We begin with the question.") {
		t.Errorf("chunks %+v, want the subtitles' text", res.Note.Chunks)
	}

	lib, p = newTalk(t, true)
	_, err = Run(t.Context(), lib, p.CiteKey, Options{Talk: TalkOptions{Tools: noTools}})
	var me *media.MissingError
	if !errors.As(err, &me) || me.Error() != "missing required tools for taking keyframes from the video: ffmpeg" {
		t.Fatalf("a talk with video, no ffmpeg: %v, want ffmpeg missing for its keyframes", err)
	}
}
