// Package talktest makes a recorded talk at test time with real tools:
// four slides drawn by ffmpeg (a title on a coloured background each), a
// speech track spoken by espeak-ng, the WebVTT subtitles of that speech,
// chapters and tags in the MP4's metadata, the same video without
// chapters, its audio alone, and a web page with the video and its
// subtitle track for yt-dlp's generic extractor, served over loopback
// HTTP. Tests skip when ffmpeg, ffprobe or espeak-ng are missing (.ci/run
// installs them).
package talktest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crossmem/crossmem/internal/talk"
	"github.com/crossmem/crossmem/internal/webvtt"
)

// Slide is one slide: shown during [StartMS, EndMS), its title drawn
// large (what OCR must read).
type Slide struct {
	StartMS, EndMS int64
	Title          string
	// Color and Text are the ffmpeg colours of the background and the
	// title; light and dark slides alternate, so that each change is a
	// scene cut at ffmpeg's threshold.
	Color, Text string
}

// Material is the talk, in Dir.
type Material struct {
	Dir string
	// Video is talk.mp4: slides, speech, chapters and tags (title, artist,
	// date). Plain is plain.mp4, the same without chapters and tags.
	// Audio is talk.m4a (speech only, no chapters, no tags); WAV talk.wav
	// likewise.
	Video, Plain, Audio, WAV string
	// VTT is talk.en.vtt, the subtitles (one cue per sentence); Page
	// talk.html, a page with the video and the subtitles as a track.
	VTT, Page           string
	Title, Artist, Date string
	Cues                []webvtt.Cue
	Slides              []Slide
	Chapters            []talk.Chapter
	DurationMS          int64
}

// Sentences are what the talk says, one cue each.
var Sentences = []string{
	"Welcome to this short talk about searching graphs.",
	"We start with a simple question about paths.",
	"Breadth first search visits every node level by level.",
	"It keeps a queue of the nodes it has yet to visit.",
	"Depth first search goes as deep as it can first.",
	"Both methods touch each edge a constant number of times.",
	"Shortest paths need weights on the edges.",
	"Dijkstra's method settles one node at a time.",
	"A priority queue makes each step cheap.",
	"Negative weights break that simple method.",
	"Many open questions remain for huge graphs.",
	"Thank you for listening to this talk.",
}

const (
	cueSpacingMS = 6500
	firstCueMS   = 1200
	durationMS   = 80_000
)

var (
	once   sync.Once
	shared *Material
	errMk  error
)

// EnvRequireTools, when set to anything but "" or "0" (.ci/run sets it),
// turns a skip for a missing tool into a failure.
const EnvRequireTools = "CROSSMEM_REQUIRE_TOOLS"

// Need skips t when a tool the material needs is missing (fails it under
// EnvRequireTools).
func Need(t testing.TB, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			msg := fmt.Sprintf("%s is not installed (Debian: apt-get install yt-dlp ffmpeg tesseract-ocr espeak-ng): %v", tool, err)
			if v := os.Getenv(EnvRequireTools); v != "" && v != "0" {
				t.Fatalf("%s (%s is set)", msg, EnvRequireTools)
			}
			t.Skip(msg)
		}
	}
}

// Make returns the material, made once per test binary in a temporary
// folder of its own (removed when the process exits is left to the OS's
// temporary folder cleaning; it is small).
func Make(t testing.TB) *Material {
	t.Helper()
	Need(t, "ffmpeg", "ffprobe", "espeak-ng")
	once.Do(func() {
		dir, err := os.MkdirTemp("", "crossmem-talktest-")
		if err != nil {
			errMk = err
			return
		}
		shared, errMk = build(dir)
	})
	if errMk != nil {
		t.Fatalf("make the test talk: %v", errMk)
	}
	return shared
}

func build(dir string) (*Material, error) {
	m := &Material{
		Dir: dir, Video: filepath.Join(dir, "talk.mp4"), Plain: filepath.Join(dir, "plain.mp4"),
		Audio: filepath.Join(dir, "talk.m4a"), WAV: filepath.Join(dir, "talk.wav"),
		VTT: filepath.Join(dir, "talk.en.vtt"), Page: filepath.Join(dir, "talk.html"),
		Title: "Searching Graphs in Practice", Artist: "Ada Graph Lab", Date: "2024-05-01",
		DurationMS: durationMS,
		Slides: []Slide{
			{0, 19_000, "Graph Search", "white", "black"},
			{19_000, 39_000, "Breadth First", "navy", "white"},
			{39_000, 59_000, "Shortest Paths", "lightyellow", "black"},
			{59_000, durationMS, "Open Questions", "darkgreen", "white"},
		},
		Chapters: []talk.Chapter{{Title: "Introduction", StartMS: 0, EndMS: 30_000}, {Title: "Method and results", StartMS: 30_000, EndMS: durationMS}},
	}
	// Speech: one espeak-ng utterance per sentence, placed at its cue.
	const rate = 22050
	track := make([]int16, durationMS*rate/1000)
	var vtt strings.Builder
	vtt.WriteString("WEBVTT\n\n")
	for i, s := range Sentences {
		wav := filepath.Join(dir, fmt.Sprintf("s%02d.wav", i))
		if out, err := exec.Command("espeak-ng", "-s", "170", "-w", wav, s).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("espeak-ng: %v: %s", err, out)
		}
		pcm, r, err := readWAV(wav)
		if err != nil {
			return nil, err
		}
		if r != rate {
			return nil, fmt.Errorf("espeak-ng wrote %d Hz, want %d", r, rate)
		}
		start := int64(firstCueMS + i*cueSpacingMS)
		at := start * rate / 1000
		copy(track[at:], pcm)
		end := start + int64(len(pcm))*1000/rate
		if end > start+cueSpacingMS-300 {
			end = start + cueSpacingMS - 300
		}
		m.Cues = append(m.Cues, webvtt.Cue{StartMS: start, EndMS: end, Lines: []string{s}})
		fmt.Fprintf(&vtt, "%s --> %s\n%s\n\n", stamp(start), stamp(end), s)
		os.Remove(wav)
	}
	if err := os.WriteFile(m.VTT, []byte(vtt.String()), 0o644); err != nil {
		return nil, err
	}
	speech := filepath.Join(dir, "speech.wav")
	if err := writeWAV(speech, track, rate); err != nil {
		return nil, err
	}
	// Slides.
	var draw []string
	for _, s := range m.Slides {
		draw = append(draw, fmt.Sprintf("drawbox=x=0:y=0:w=iw:h=ih:color=%s:t=fill:enable='between(t,%g,%g)'", s.Color, float64(s.StartMS)/1000, float64(s.EndMS)/1000-0.001),
			fmt.Sprintf("drawtext=text='%s':fontsize=48:fontcolor=%s:x=40:y=120:enable='between(t,%g,%g)'", s.Title, s.Text, float64(s.StartMS)/1000, float64(s.EndMS)/1000-0.001))
	}
	meta := filepath.Join(dir, "meta.txt")
	var mb strings.Builder
	fmt.Fprintf(&mb, ";FFMETADATA1\ntitle=%s\nartist=%s\ndate=%s\n", m.Title, m.Artist, m.Date)
	for _, c := range m.Chapters {
		fmt.Fprintf(&mb, "\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=%d\nEND=%d\ntitle=%s\n", c.StartMS, c.EndMS, c.Title)
	}
	if err := os.WriteFile(meta, []byte(mb.String()), 0o644); err != nil {
		return nil, err
	}
	secs := fmt.Sprintf("%g", float64(durationMS)/1000)
	steps := [][]string{
		{"-f", "lavfi", "-i", "color=c=white:s=640x360:r=5:d=" + secs, "-i", speech,
			"-vf", strings.Join(draw, ","), "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "25",
			"-c:a", "aac", "-b:a", "64k", "-t", secs, m.Plain},
		{"-i", m.Plain, "-i", meta, "-map_metadata", "1", "-map_chapters", "1", "-c", "copy", m.Video},
		{"-i", m.Plain, "-vn", "-c:a", "copy", "-map_chapters", "-1", m.Audio},
		{"-i", speech, "-ar", "16000", "-ac", "1", m.WAV},
	}
	for _, args := range steps {
		full := append([]string{"-hide_banner", "-loglevel", "error", "-nostdin", "-y"}, args...)
		if out, err := exec.Command("ffmpeg", full...).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("ffmpeg %s: %v: %s", strings.Join(args, " "), err, out)
		}
	}
	os.Remove(speech)
	os.Remove(meta)
	page := `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>` + m.Title + `</title></head>
<body><h1>` + m.Title + `</h1>
<video controls width="640"><source src="talk.mp4" type="video/mp4"><track kind="subtitles" srclang="en" label="English" src="talk.en.vtt"></video>
</body></html>
`
	if err := os.WriteFile(m.Page, []byte(page), 0o644); err != nil {
		return nil, err
	}
	return m, nil
}

// Serve serves the material's folder over loopback HTTP until the test
// ends and returns its base URL (http://127.0.0.1:port/). Responses carry
// a fixed Last-Modified (2026-01-02), which yt-dlp reads as a generic
// page's upload time.
func Serve(t testing.TB, m *Material) string {
	t.Helper()
	fs := http.FileServer(http.Dir(m.Dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Last-Modified", time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).Format(http.TimeFormat))
		fs.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

func stamp(ms int64) string {
	return fmt.Sprintf("%02d:%02d:%02d.%03d", ms/3600000, ms/60000%60, ms/1000%60, ms%1000)
}

// readWAV reads a 16-bit PCM mono WAV file.
func readWAV(path string) ([]int16, int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, err
	}
	if len(data) < 12 || string(data[:4]) != "RIFF" || string(data[8:12]) != "WAVE" {
		return nil, 0, errors.New(path + ": not a WAV file")
	}
	var rate int
	var channels, bits uint16
	for p := 12; p+8 <= len(data); {
		id := string(data[p : p+4])
		size := int(binary.LittleEndian.Uint32(data[p+4 : p+8]))
		body := data[p+8 : min(len(data), p+8+size)]
		switch id {
		case "fmt ":
			channels = binary.LittleEndian.Uint16(body[2:4])
			rate = int(binary.LittleEndian.Uint32(body[4:8]))
			bits = binary.LittleEndian.Uint16(body[14:16])
		case "data":
			if channels != 1 || bits != 16 {
				return nil, 0, fmt.Errorf("%s: %d channels of %d bits, want mono 16-bit", path, channels, bits)
			}
			pcm := make([]int16, len(body)/2)
			binary.Read(bytes.NewReader(body[:len(pcm)*2]), binary.LittleEndian, pcm)
			return pcm, rate, nil
		}
		p += 8 + size + size%2
	}
	return nil, 0, errors.New(path + ": no data chunk")
}

// writeWAV writes 16-bit PCM mono samples.
func writeWAV(path string, pcm []int16, rate int) error {
	var b bytes.Buffer
	n := len(pcm) * 2
	b.WriteString("RIFF")
	binary.Write(&b, binary.LittleEndian, uint32(36+n))
	b.WriteString("WAVEfmt ")
	for _, v := range []any{uint32(16), uint16(1), uint16(1), uint32(rate), uint32(rate * 2), uint16(2), uint16(16)} {
		binary.Write(&b, binary.LittleEndian, v)
	}
	b.WriteString("data")
	binary.Write(&b, binary.LittleEndian, uint32(n))
	binary.Write(&b, binary.LittleEndian, pcm)
	return os.WriteFile(path, b.Bytes(), 0o644)
}
