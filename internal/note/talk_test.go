package note

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossmem/crossmem/internal/chunk"
)

func TestTalkNoteRoundTrip(t *testing.T) {
	text := "Hello and welcome.\nSecond line"
	n := &Note{
		Front: Frontmatter{CiteKey: "chan2024slides", Title: "Slides", Authors: []string{"Chan"}, Year: 2024,
			Channel: "Chan", UploadDate: "2024-05-01", VideoID: "url-0123456789abcdef", URL: "http://127.0.0.1/talk.html", DurationSec: 75,
			CapturedAt: "1", Raw: "raw/youtube/url-0123456789abcdef/url-0123456789abcdef.m4a", Parser: "webvtt",
			SourceType: "url", MediaSHA256: strings.Repeat("a", 64),
			Transcript: &Transcript{Kind: "asr", Source: "whisper.cpp", Model: "whisper.cpp ggml-tiny.bin"},
			Chunks:     1, UnquotablePages: []Unquotable{}, Meta: Meta{Sources: []string{}, Warnings: []string{}}, WikiFormat: FormatVersion},
		Chunks: []chunk.Chunk{{
			ID: "t0c1", Type: chunk.TypeTranscript, Text: text, Section: "Intro (part 1)", SectionPath: []string{"Intro (part 1)"},
			TextSHA256: chunk.Hash(text), ByteRange: [2]int{0, len(text)}, Paraphrase: "A greeting.",
			Media: &chunk.Media{StartMS: 0, EndMS: 20_000, Link: "http://127.0.0.1/talk.html#t=0", Keyframes: []string{"raw/youtube/x/keyframes/frame_0001.png"},
				SlideOCR: "Slide one\n  Title", Transcript: chunk.TranscriptASR, ASRModel: "whisper.cpp ggml-tiny.bin"},
		}},
	}
	out, err := Format(n)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"**Slide OCR:** Slide one Title\n", "**Source:** [0:00–0:20](http://127.0.0.1/talk.html#t=0)\n", "  start_ms: 0\n", "  transcript: \"asr\"\n", "video_id: \"url-0123456789abcdef\"\n", "source_type: \"url\"\n"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("note lacks %q:\n%s", want, out)
		}
	}
	back, err := Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	n.Chunks[0].Media.SlideOCR = "Slide one Title"
	if d := cmp.Diff(n.Chunks, back.Chunks); d != "" {
		t.Errorf("chunks (-want +got):\n%s", d)
	}
	if d := cmp.Diff(n.Front, back.Front); d != "" {
		t.Errorf("frontmatter (-want +got):\n%s", d)
	}
	again, _ := Format(back)
	if !bytes.Equal(out, again) {
		t.Errorf("not byte-stable:\n%s\n---\n%s", out, again)
	}
}
