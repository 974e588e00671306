package media

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossmem/crossmem/internal/talk"
)

func TestParseInfo(t *testing.T) {
	in, err := ParseInfo([]byte(`{"id":"aircAruvnKk","title":"But what is a neural network?","channel":"3Blue1Brown","uploader":"3Blue1Brown",
		"upload_date":"20171005","timestamp":1507228205.0,"duration":1119,"tags":["neural networks"],"webpage_url":"https://www.youtube.com/watch?v=aircAruvnKk",
		"extractor":"youtube","extractor_key":"Youtube","chapters":[{"start_time":0.0,"end_time":92.5,"title":"Introduction"},{"start_time":92.5,"end_time":1119,"title":"Neurons"}],
		"subtitles":{"en":[{"ext":"vtt"}],"live_chat":[]},"automatic_captions":{"en":[],"de":[]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if in.Duration != 1119 || in.Channel != "3Blue1Brown" || in.UploadDate != "20171005" || int64(in.Timestamp) != 1507228205 {
		t.Errorf("info %+v", in)
	}
	want := []talk.Chapter{{Title: "Introduction", StartMS: 0, EndMS: 92500}, {Title: "Neurons", StartMS: 92500, EndMS: 1119000}}
	if d := cmp.Diff(want, in.Chapters); d != "" {
		t.Errorf("chapters (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"en"}, in.Subtitles); d != "" {
		t.Errorf("subtitles: %s", d)
	}
	// A live stream has no duration yet.
	if in, err := ParseInfo([]byte(`{"id":"x","duration":null}`)); err != nil || in.Duration != 0 {
		t.Errorf("null duration: %+v %v", in, err)
	}
	if _, err := ParseInfo([]byte(`{`)); err == nil {
		t.Error("bad JSON accepted")
	}
}

func TestChooseSubtitles(t *testing.T) {
	in := &Info{Subtitles: []string{"en-GB"}, AutomaticCaptions: []string{"en", "en-GB"}}
	f, lang, auto := chooseSubtitles([]string{"v.en.vtt", "v.en-GB.vtt"}, "v", in)
	if f != "v.en-GB.vtt" || lang != "en-GB" || auto {
		t.Errorf("human first: %s %s %v", f, lang, auto)
	}
	f, lang, auto = chooseSubtitles([]string{"v.en.vtt"}, "v", &Info{AutomaticCaptions: []string{"en"}})
	if f != "v.en.vtt" || lang != "en" || !auto {
		t.Errorf("automatic captions: %s %s %v", f, lang, auto)
	}
	if f, _, _ := chooseSubtitles(nil, "v", &Info{}); f != "" {
		t.Errorf("no subtitles: %s", f)
	}
}

func TestParseProbe(t *testing.T) {
	p, err := parseProbe([]byte(`{"streams":[{"codec_type":"audio"},{"codec_type":"video","disposition":{"attached_pic":1}}],
		"chapters":[{"start_time":"0.000000","end_time":"30.000000","tags":{"title":"Intro"}},{"start_time":"30.000000","end_time":"80.500000","tags":{"TITLE":"Rest"}}],
		"format":{"duration":"80.500000","tags":{"TITLE":"A talk","artist":"Someone"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if p.DurationMS != 80500 || p.HasVideo || !p.HasAudio || p.Tags["title"] != "A talk" || p.Tags["artist"] != "Someone" {
		t.Errorf("probe %+v (cover art is not video)", p)
	}
	if len(p.Chapters) != 2 || p.Chapters[1] != (talk.Chapter{Title: "Rest", StartMS: 30000, EndMS: 80500}) {
		t.Errorf("chapters %+v", p.Chapters)
	}
}

func TestClassifyDownload(t *testing.T) {
	for stderr, network := range map[string]bool{
		"ERROR: [youtube] aircAruvnKk: Unable to download API page: <urlopen error [Errno -3] Temporary failure in name resolution>": true,
		"ERROR: [generic] Unable to download webpage: <urlopen error [Errno 111] Connection refused>":                                true,
		"ERROR: [generic] Unable to download webpage: HTTP Error 404: Not Found":                                                     false,
		"ERROR: [youtube] xxxxxxxxxxx: Video unavailable":                                                                            false,
	} {
		err := classifyDownload(&ToolError{Tool: YTDLP, Action: "download", Stderr: stderr})
		if errors.Is(err, ErrNetwork) != network {
			t.Errorf("%q: network = %v", stderr, !network)
		}
	}
}

func TestFind(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"ffmpeg", "ffprobe", "whisper-cli"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "tesseract"), []byte("not executable"), 0o644)
	tools, st, err := Find(Config{Path: dir, Home: t.TempDir()}, Need{Download: true, Video: true})
	var me *MissingError
	if !errors.As(err, &me) {
		t.Fatalf("err %v, want a MissingError", err)
	}
	if me.Error() != "missing required tools for capturing online talks: yt-dlp" || strings.Join(me.Install(), " ") != "yt-dlp" {
		t.Errorf("%q %v", me.Error(), me.Install())
	}
	if tools.FFmpeg == "" || tools.Tesseract != "" || tools.Whisper != "" {
		t.Errorf("tools %+v", tools)
	}
	// whisper-cli without its model is reported with the download command.
	for _, s := range st {
		if s.Name == Whisper && (s.Problem == "" || !strings.Contains(s.Fix, "ggml-large-v3-turbo.bin")) {
			t.Errorf("whisper status %+v", s)
		}
	}
	// With a model, and nothing to download, all is well.
	model := filepath.Join(dir, "m.bin")
	os.WriteFile(model, []byte("x"), 0o644)
	tools, _, err = Find(Config{Path: dir, WhisperModel: model}, Need{Video: true})
	if err != nil || tools.Whisper == "" || tools.WhisperModel != model || tools.WhisperModelName() != "whisper.cpp m.bin" {
		t.Errorf("with a model: %+v %v", tools, err)
	}
}

// TestFindNeeds: a tool is required only for what the work does. On a
// PATH without ffmpeg and ffprobe, a compile of subtitles alone needs
// nothing; keyframes need ffmpeg, a capture's probe ffprobe, and a
// transcript from whisper.cpp ffmpeg only when whisper.cpp is usable.
func TestFindNeeds(t *testing.T) {
	empty := t.TempDir()
	missing := func(need Need, c Config) string {
		t.Helper()
		_, _, err := Find(c, need)
		if err == nil {
			return ""
		}
		var me *MissingError
		if !errors.As(err, &me) {
			t.Fatalf("%+v: %v, want a MissingError", need, err)
		}
		return me.Error()
	}
	c := Config{Path: empty, Home: t.TempDir()}
	for _, tc := range []struct {
		need Need
		want string
	}{
		{Need{}, ""},                 // human subtitles, no video
		{Need{Transcribe: true}, ""}, // no whisper.cpp: nothing to decode audio for
		{Need{Video: true}, "missing required tools for taking keyframes from the video: ffmpeg"},
		{Need{Probe: true}, "missing required tools for capturing recordings: ffprobe"},
		{Need{Download: true, Probe: true}, "missing required tools for capturing online talks: yt-dlp, ffmpeg, ffprobe"},
	} {
		if got := missing(tc.need, c); got != tc.want {
			t.Errorf("%+v on a PATH without tools: %q, want %q", tc.need, got, tc.want)
		}
	}
	// whisper.cpp with its model: its audio is decoded by ffmpeg.
	whisper := filepath.Join(t.TempDir(), "whisper-cli")
	os.WriteFile(whisper, []byte("#!/bin/sh\n"), 0o755)
	model := filepath.Join(t.TempDir(), "m.bin")
	os.WriteFile(model, []byte("x"), 0o644)
	c.Whisper, c.WhisperModel = whisper, model
	if got, want := missing(Need{Transcribe: true}, c), "missing required tools for transcribing with whisper.cpp: ffmpeg"; got != want {
		t.Errorf("whisper.cpp without ffmpeg: %q, want %q", got, want)
	}
	if got := missing(Need{}, c); got != "" {
		t.Errorf("subtitles with whisper.cpp installed: %q, want nothing missing", got)
	}
}

// fakeTool writes an executable shell script named name in a new folder
// and returns its path.
func fakeTool(t *testing.T, name, script string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSceneCutsLongStderr: ffmpeg's showinfo lines are all read though
// its stderr runs past the 1 MiB that run keeps (here: three scene cuts,
// then 2 MiB of other lines, as a long video's warnings give).
func TestSceneCutsLongStderr(t *testing.T) {
	ffmpeg := fakeTool(t, "ffmpeg", `for a in "$@"; do out=$a; done
dir=$(dirname "$out")
for n in 0 1 2; do
  : > "$dir/scene_000$((n+1)).png"
  echo "[Parsed_showinfo_1 @ 0x5] n:   $n pts:  $((n*90000)) pts_time:$((n*10)).5 duration: 1" >&2
done
i=0
while [ $i -lt 16384 ]; do
  echo "[h264 @ 0x5] a warning line that is about one hundred and twenty-eight bytes long, repeated to fill the stderr pipe........" >&2
  i=$((i+1))
done
`)
	tools := &Tools{FFmpeg: ffmpeg}
	frames, err := tools.SceneCuts(t.Context(), "talk.mp4", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var times []int64
	for _, f := range frames {
		times = append(times, f.TimeMS)
	}
	if d := cmp.Diff([]int64{500, 10_500, 20_500}, times); d != "" {
		t.Errorf("scene cuts (-want +got):\n%s", d)
	}
}

// TestAnswerOverLimit: a tool whose answer (stdout) is over maxStdout is
// an error that says so, not a cut answer parsed as if whole.
func TestAnswerOverLimit(t *testing.T) {
	ffprobe := fakeTool(t, "ffprobe", `head -c 17000000 /dev/zero | tr '\0' ' '; echo '{}'`)
	_, err := (&Tools{FFprobe: ffprobe}).Probe(t.Context(), "talk.mp4")
	var te *ToolError
	if !errors.As(err, &te) || te.Tool != FFprobe || !strings.Contains(err.Error(), "more than 16 MiB of output") {
		t.Fatalf("err = %v, want a ToolError of ffprobe naming the 16 MiB limit", err)
	}
	// Under the limit it is read.
	ffprobe = fakeTool(t, "ffprobe", `echo '{"format":{"duration":"12.5"}}'`)
	if p, err := (&Tools{FFprobe: ffprobe}).Probe(t.Context(), "talk.mp4"); err != nil || p.DurationMS != 12_500 {
		t.Errorf("a short answer: %+v %v", p, err)
	}
}

// pickKeyframes: time order, a frame within 5 s of the last kept one
// dropped (a scene cut replacing a chapter-start frame), at most
// MaxKeyframes spread over the whole recording.
func TestPickKeyframes(t *testing.T) {
	got := pickKeyframes([]Frame{{TimeMS: 12_000, Scene: true}, {TimeMS: 2000}, {TimeMS: 14_000}, {TimeMS: 9000, Scene: true}, {TimeMS: 10_000, Scene: true}})
	var times []int64
	for _, f := range got {
		times = append(times, f.TimeMS)
	}
	if d := cmp.Diff([]int64{2000, 9000, 14_000}, times); d != "" {
		t.Errorf("picked (-want +got):\n%s", d)
	}
	// A chapter-start frame 1 s before a scene cut gives way to it.
	got = pickKeyframes([]Frame{{TimeMS: 30_000}, {TimeMS: 31_000, Scene: true}})
	if len(got) != 1 || got[0].TimeMS != 31_000 || !got[0].Scene {
		t.Errorf("chapter frame then scene cut: %+v", got)
	}
	// A two-hour lecture with a cut every 6 s: 1200 frames, 200 kept,
	// from its start to its end.
	var many []Frame
	for i := 0; i < 1200; i++ {
		many = append(many, Frame{TimeMS: int64(i) * 6000, Scene: true})
	}
	got = pickKeyframes(many)
	if len(got) != MaxKeyframes || got[0].TimeMS != 0 || got[len(got)-1].TimeMS < 7_000_000 {
		t.Errorf("%d frames from %d to %d ms, want %d spread over 0–7194000", len(got), got[0].TimeMS, got[len(got)-1].TimeMS, MaxKeyframes)
	}
	for i := 1; i < len(got); i++ {
		if got[i].TimeMS <= got[i-1].TimeMS {
			t.Fatalf("frames out of order at %d: %d after %d", i, got[i].TimeMS, got[i-1].TimeMS)
		}
	}
}
