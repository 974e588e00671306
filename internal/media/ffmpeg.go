package media

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/crossmem/crossmem/internal/search"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/crossmem/crossmem/internal/talk"
)

// Probe is what ffprobe says about a media file.
type Probe struct {
	DurationMS int64
	HasVideo   bool
	HasAudio   bool
	Chapters   []talk.Chapter
	// Tags are the container's metadata tags, keys lower-cased (title,
	// artist, album_artist, date, creation_time, comment, description).
	Tags map[string]string
}

type probeJSON struct {
	Format struct {
		Duration string            `json:"duration"`
		Tags     map[string]string `json:"tags"`
	} `json:"format"`
	Streams []struct {
		CodecType   string `json:"codec_type"`
		Disposition struct {
			AttachedPic int `json:"attached_pic"`
		} `json:"disposition"`
	} `json:"streams"`
	Chapters []struct {
		StartTime string            `json:"start_time"`
		EndTime   string            `json:"end_time"`
		Tags      map[string]string `json:"tags"`
	} `json:"chapters"`
}

// Probe runs ffprobe on path.
func (t *Tools) Probe(ctx context.Context, path string) (*Probe, error) {
	out, _, err := runWith(ctx, output{answer: true}, FFprobe, "read "+filepath.Base(path), "", nil, t.FFprobe,
		"-v", "error", "-print_format", "json", "-show_format", "-show_streams", "-show_chapters", "--", path)
	if err != nil {
		return nil, err
	}
	return parseProbe(out)
}

func parseProbe(out []byte) (*Probe, error) {
	var j probeJSON
	if err := json.Unmarshal(out, &j); err != nil {
		return nil, fmt.Errorf("read ffprobe output: %w", err)
	}
	p := &Probe{Tags: map[string]string{}, DurationMS: secondsMS(j.Format.Duration)}
	for k, v := range j.Format.Tags {
		p.Tags[strings.ToLower(k)] = v
	}
	for _, s := range j.Streams {
		switch s.CodecType {
		case "video":
			if s.Disposition.AttachedPic == 0 { // cover art is not video
				p.HasVideo = true
			}
		case "audio":
			p.HasAudio = true
		}
	}
	for _, c := range j.Chapters {
		title := ""
		for k, v := range c.Tags {
			if strings.EqualFold(k, "title") {
				title = v
			}
		}
		p.Chapters = append(p.Chapters, talk.Chapter{Title: title, StartMS: secondsMS(c.StartTime), EndMS: secondsMS(c.EndTime)})
	}
	return p, nil
}

func secondsMS(s string) int64 {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
		return 0
	}
	return int64(math.Round(f * 1000))
}

// SceneThreshold is ffmpeg's scene score above which a frame starts a new
// scene (the seed's 0.3, which suits slides).
const SceneThreshold = 0.3

// MaxKeyframes caps the keyframes of one video (the seed's 200).
const MaxKeyframes = 200

// Frame is a still image taken from a video.
type Frame struct {
	TimeMS int64
	Path   string // absolute
	// Scene is true for a scene cut, false for a chapter start.
	Scene bool
}

var ptsTimeRe = regexp.MustCompile(`\bn:\s*(\d+)\b.*\bpts_time:\s*([0-9.]+)`)

// SceneCuts writes the first frame of every scene of video (ffmpeg's scene
// detection, select='gt(scene,SceneThreshold)') to dir as
// scene_0001.png… and returns them with their times, in order.
func (t *Tools) SceneCuts(ctx context.Context, video, dir string) ([]Frame, error) {
	filter := fmt.Sprintf("select='gt(scene,%g)',showinfo", SceneThreshold)
	// showinfo's lines are read as ffmpeg writes them: a long video's
	// stderr can be far over run's cap, which keeps only its end.
	type cut struct {
		n  int   // the frame's number among those selected, from 0
		ms int64 // its time
	}
	var cuts []cut
	o := output{stderrLine: func(line string) {
		if !strings.Contains(line, "Parsed_showinfo") {
			return
		}
		if m := ptsTimeRe.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[1])
			cuts = append(cuts, cut{n, secondsMS(m[2])})
		}
	}}
	_, _, err := runWith(ctx, o, FFmpeg, "detect scene cuts in "+filepath.Base(video), dir, nil, t.FFmpeg,
		"-hide_banner", "-nostats", "-nostdin", "-i", video, "-an", "-sn", "-vf", filter, "-vsync", "vfr", "-f", "image2", filepath.Join(dir, "scene_%04d.png"))
	if err != nil {
		return nil, err
	}
	var out []Frame
	for _, c := range cuts {
		p := filepath.Join(dir, fmt.Sprintf("scene_%04d.png", c.n+1))
		if _, err := os.Stat(p); err != nil {
			continue
		}
		out = append(out, Frame{TimeMS: c.ms, Path: p, Scene: true})
	}
	return out, nil
}

// FrameAt writes the frame of video at ms to path (PNG).
func (t *Tools) FrameAt(ctx context.Context, video string, ms int64, path string) error {
	_, _, err := run(ctx, FFmpeg, "take a frame of "+filepath.Base(video), "", nil, t.FFmpeg,
		"-hide_banner", "-nostats", "-nostdin", "-y", "-ss", strconv.FormatFloat(float64(ms)/1000, 'f', 3, 64), "-i", video,
		"-frames:v", "1", "-f", "image2", path)
	if err != nil {
		return err
	}
	if _, err := os.Stat(path); err != nil {
		return &ToolError{Tool: FFmpeg, Action: "take a frame of " + filepath.Base(video), Stderr: "no frame at " + search.Clock(ms)}
	}
	return nil
}

// Keyframes are the scene cuts plus a frame shortly after each chapter
// start (the start of the recording counts as one: 2 s in, or half way
// into a shorter chapter), frames within 5 s of an earlier one dropped,
// at most MaxKeyframes (evenly spread), in time order, written to dir as
// frame_0001.png… Only this call's frames are left in dir.
func (t *Tools) Keyframes(ctx context.Context, video, dir string, chapters []talk.Chapter, durationMS int64) ([]Frame, error) {
	tmp, err := os.MkdirTemp(dir, ".scenes-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	scenes, err := t.SceneCuts(ctx, video, tmp)
	if err != nil {
		return nil, err
	}
	starts := []talk.Chapter{{StartMS: 0, EndMS: durationMS}}
	for _, c := range chapters {
		if c.StartMS > 0 {
			starts = append(starts, c)
		}
	}
	var all []Frame
	all = append(all, scenes...)
	for i, c := range starts {
		end := c.EndMS
		if i+1 < len(starts) && (end <= c.StartMS || end > starts[i+1].StartMS) {
			end = starts[i+1].StartMS
		}
		if end <= c.StartMS {
			end = durationMS
		}
		at := c.StartMS + 2000
		if end > c.StartMS && at >= end-(end-c.StartMS)/2 {
			at = c.StartMS + (end-c.StartMS)/2
		}
		if durationMS > 0 && at >= durationMS {
			continue
		}
		p := filepath.Join(tmp, fmt.Sprintf("chapter_%04d.png", i+1))
		if err := t.FrameAt(ctx, video, at, p); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			continue
		}
		all = append(all, Frame{TimeMS: at, Path: p})
	}
	kept := pickKeyframes(all)
	for i := range kept {
		dst := filepath.Join(dir, fmt.Sprintf("frame_%04d.png", i+1))
		if err := os.Rename(kept[i].Path, dst); err != nil {
			return nil, err
		}
		kept[i].Path = dst
	}
	return kept, nil
}

// pickKeyframes orders frames by time, drops a frame within 5 s of the
// one kept before it (a scene cut wins over a chapter-start frame: it is
// the slide change itself) and keeps at most MaxKeyframes, evenly spread.
func pickKeyframes(all []Frame) []Frame {
	all = append([]Frame(nil), all...)
	sort.SliceStable(all, func(i, j int) bool { return all[i].TimeMS < all[j].TimeMS })
	var kept []Frame
	for _, f := range all {
		if len(kept) > 0 && f.TimeMS-kept[len(kept)-1].TimeMS < 5000 {
			if f.Scene && !kept[len(kept)-1].Scene {
				kept[len(kept)-1] = f
			}
			continue
		}
		kept = append(kept, f)
	}
	if len(kept) > MaxKeyframes {
		spread := make([]Frame, 0, MaxKeyframes)
		for i := 0; i < MaxKeyframes; i++ {
			spread = append(spread, kept[i*len(kept)/MaxKeyframes])
		}
		kept = spread
	}
	return kept
}

// WAV converts path to 16 kHz mono 16-bit PCM WAV at dst, the input
// whisper.cpp reads.
func (t *Tools) WAV(ctx context.Context, path, dst string) error {
	_, _, err := run(ctx, FFmpeg, "convert "+filepath.Base(path)+" to WAV", "", nil, t.FFmpeg,
		"-hide_banner", "-nostats", "-nostdin", "-y", "-i", path, "-vn", "-ar", "16000", "-ac", "1", "-c:a", "pcm_s16le", dst)
	return err
}

// OCR returns the text tesseract reads in a PNG image (Tools.OCRLanguage),
// white space as tesseract gives it.
func (t *Tools) OCR(ctx context.Context, png string) (string, error) {
	out, _, err := runWith(ctx, output{answer: true}, Tesseract, "read "+filepath.Base(png), "", nil, t.Tesseract, png, "stdout", "-l", t.OCRLanguage)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// Transcribe runs whisper.cpp on a 16 kHz WAV file and returns the path of
// the WebVTT file it wrote (outBase + ".vtt"): whisper-cli -m MODEL -f WAV
// -l LANG -ovtt -of OUTBASE. Timestamps are whisper.cpp's default (its
// -nt turns them off; there is no --print-timestamps flag).
func (t *Tools) Transcribe(ctx context.Context, wav, outBase string) (string, error) {
	_, _, err := run(ctx, Whisper, "transcribe "+filepath.Base(wav), "", nil, t.Whisper,
		"-m", t.WhisperModel, "-f", wav, "-l", t.Language, "-ovtt", "-of", outBase)
	if err != nil {
		return "", err
	}
	out := outBase + ".vtt"
	if _, err := os.Stat(out); err != nil {
		return "", &ToolError{Tool: Whisper, Action: "transcribe " + filepath.Base(wav), Stderr: "no WebVTT file was written"}
	}
	return out, nil
}

// WhisperModelName is the file name of the model (for the note: the ASR
// model that made a transcript).
func (t *Tools) WhisperModelName() string { return "whisper.cpp " + filepath.Base(t.WhisperModel) }
