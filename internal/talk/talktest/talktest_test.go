package talktest

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/corpustest"
)

// TestMake checks the material against ffprobe: the duration, the
// chapters of talk.mp4 and none in plain.mp4.
func TestMake(t *testing.T) {
	corpustest.Slow(t, "runs ffmpeg and espeak-ng")
	m := Make(t)
	out, err := exec.Command("ffprobe", "-v", "error", "-show_chapters", "-show_entries", "format=duration", "-of", "compact", m.Video).Output()
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(out), "chapter|"); n != len(m.Chapters) {
		t.Errorf("talk.mp4 has %d chapters, want %d:\n%s", n, len(m.Chapters), out)
	}
	if !strings.Contains(string(out), "duration=80.0") {
		t.Errorf("talk.mp4 duration: %s", out)
	}
	out, _ = exec.Command("ffprobe", "-v", "error", "-show_chapters", "-of", "compact", m.Plain).Output()
	if strings.Contains(string(out), "chapter|") {
		t.Errorf("plain.mp4 has chapters: %s", out)
	}
	if len(m.Cues) != len(Sentences) || m.Cues[len(m.Cues)-1].EndMS > m.DurationMS {
		t.Errorf("cues %+v", m.Cues)
	}
}
