// Package media runs the external programs that capture and read
// recorded talks: yt-dlp (download, metadata, subtitles), ffmpeg and
// ffprobe (probe, audio, keyframes by scene detection), tesseract (slide
// text) and whisper.cpp (speech recognition, optional). It finds them,
// reports every missing one at once with the command that installs it,
// runs them with bounded output under the caller's context, and parses
// what they write (yt-dlp's info JSON, ffprobe's JSON, ffmpeg's showinfo
// lines).
//
// It never prints: progress goes through callbacks, failures are typed
// errors (MissingError, *ToolError, ErrNetwork) carrying hint.Actions,
// worded by internal/render.
package media

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/crossmem/crossmem/internal/hint"
)

// Tool names, as Status.Name and in messages.
const (
	YTDLP     = "yt-dlp"
	FFmpeg    = "ffmpeg"
	FFprobe   = "ffprobe"
	Tesseract = "tesseract"
	Whisper   = "whisper.cpp"
)

// Tools are the paths of the programs found ("" for one not found), and
// the whisper.cpp model.
type Tools struct {
	YTDLP, FFmpeg, FFprobe, Tesseract, Whisper string
	// WhisperModel is the ggml model file whisper.cpp loads; set only when
	// both the binary and the model exist.
	WhisperModel string
	// OCRLanguage is tesseract's -l value ("eng" by default).
	OCRLanguage string
	// Language is the talk's language for subtitles and whisper.cpp
	// ("en" by default).
	Language string
}

// Config says where to look: explicit paths (from the configuration)
// first, then the PATH given.
type Config struct {
	// Path is the PATH to search (os.Getenv("PATH") in production).
	Path string
	// Whisper and WhisperModel are [talk] whisper and whisper_model: the
	// whisper.cpp binary ("" = whisper-cli or whisper-cpp on Path) and its
	// ggml model ("" = DefaultWhisperModel under the user's home).
	Whisper, WhisperModel string
	// Home is the user's home folder, for the default model path.
	Home string
	// Language and OCRLanguage as in Tools ("" = "en", "eng").
	Language, OCRLanguage string
}

// DefaultWhisperModel is the seed's model, relative to the user's home.
const DefaultWhisperModel = ".cache/whisper/ggml-large-v3-turbo.bin"

// Status is what Find learnt about one tool.
type Status struct {
	Name     string `json:"name"`
	Path     string `json:"path,omitempty"` // where it was found; "" when missing
	Required bool   `json:"required"`
	// Purpose says what the tool does for a talk.
	Purpose string `json:"purpose"`
	// Debian and Brew are the packages that install it ("" when none).
	Debian string `json:"debian,omitempty"`
	Brew   string `json:"brew,omitempty"`
	// Problem is set when the tool is found but unusable (a whisper.cpp
	// binary without its model).
	Problem string `json:"problem,omitempty"`
	// Fix is a command that solves Problem ("" when none).
	Fix string `json:"fix,omitempty"`
}

// Missing reports whether the tool is missing or unusable.
func (s Status) Missing() bool { return s.Path == "" || s.Problem != "" }

// MissingError reports required tools that are missing, with the status
// of every tool so the message can list them all at once (the seed's
// "Dependency Install UX"). Nothing has been written when it is returned.
type MissingError struct {
	// For says what the tools were needed for ("capturing YouTube videos").
	For    string
	Status []Status
}

func (e *MissingError) Error() string {
	var names []string
	for _, s := range e.Status {
		if s.Required && s.Missing() {
			names = append(names, s.Name)
		}
	}
	return fmt.Sprintf("missing required tools for %s: %s", e.For, strings.Join(names, ", "))
}

// Hint implements hint.Hinter: install the missing tools.
func (e *MissingError) Hint() hint.Action {
	return hint.Action{Kind: hint.InstallTools, What: strings.Join(e.Install(), " ")}
}

// Install returns the Debian packages of the required tools that are
// missing.
func (e *MissingError) Install() []string {
	var out []string
	for _, s := range e.Status {
		if s.Required && s.Missing() && s.Debian != "" && !slices.Contains(out, s.Debian) {
			out = append(out, s.Debian)
		}
	}
	return out
}

// Need says what a capture or compile will do, and so which tools it
// requires. A compile of a recording with human subtitles and no video
// needs none of them.
type Need struct {
	// Download: yt-dlp fetches a URL, and extracts its audio with ffmpeg
	// and ffprobe.
	Download bool
	// Probe: ffprobe reads the recording's duration, chapters and tags
	// (every capture).
	Probe bool
	// Video: ffmpeg takes keyframes from the recording's video.
	Video bool
	// Transcribe: the transcript is to come from whisper.cpp when it is
	// installed with its model (no human subtitles, no transcript made
	// before); ffmpeg then decodes the audio for it. Without a usable
	// whisper.cpp nothing is required for this.
	Transcribe bool
}

// Find looks for every tool and returns their paths and statuses. A tool
// is required by what need says (ffmpeg for Download, Video, or
// Transcribe with a usable whisper.cpp; ffprobe for Download or Probe;
// yt-dlp for Download); the others are reported as optional. When a
// required tool is missing it returns a *MissingError listing all of them
// (the optional ones too, found or not); tools that are missing leave
// their path empty.
func Find(c Config, need Need) (*Tools, []Status, error) {
	t := &Tools{Language: c.Language, OCRLanguage: c.OCRLanguage}
	if t.Language == "" {
		t.Language = "en"
	}
	if t.OCRLanguage == "" {
		t.OCRLanguage = "eng"
	}
	look := func(names ...string) string {
		for _, n := range names {
			if p := LookPath(n, c.Path); p != "" {
				return p
			}
		}
		return ""
	}
	var st []Status
	if need.Download {
		t.YTDLP = look("yt-dlp")
		st = append(st, Status{Name: YTDLP, Path: t.YTDLP, Required: true, Purpose: "downloads the video, its metadata and subtitles", Debian: "yt-dlp", Brew: "yt-dlp"})
	}
	t.FFmpeg, t.FFprobe = look("ffmpeg"), look("ffprobe")
	ffmpeg := len(st)
	st = append(st,
		Status{Name: FFmpeg, Path: t.FFmpeg, Required: need.Download || need.Video, Purpose: "extracts audio and keyframes", Debian: "ffmpeg", Brew: "ffmpeg"},
		Status{Name: FFprobe, Path: t.FFprobe, Required: need.Download || need.Probe, Purpose: "reads duration, chapters and tags", Debian: "ffmpeg", Brew: "ffmpeg"},
		Status{Name: Tesseract, Required: false, Purpose: "reads the text of slides (OCR, optional)", Debian: "tesseract-ocr", Brew: "tesseract"},
	)
	t.Tesseract = look("tesseract")
	st[len(st)-1].Path = t.Tesseract
	ws := Status{Name: Whisper, Required: false, Purpose: "transcribes speech when there are no human subtitles (optional)", Brew: "whisper-cpp"}
	if c.Whisper != "" {
		ws.Path = LookPath(c.Whisper, c.Path)
		if ws.Path == "" {
			ws.Problem = "the configured [talk] whisper " + c.Whisper + " is not an executable file"
		}
	} else {
		ws.Path = look("whisper-cli", "whisper-cpp")
	}
	if ws.Path != "" && ws.Problem == "" {
		model := c.WhisperModel
		if model == "" && c.Home != "" {
			model = filepath.Join(c.Home, DefaultWhisperModel)
		}
		if fi, err := os.Stat(model); err != nil || !fi.Mode().IsRegular() {
			ws.Problem = "model not found: " + model
			ws.Fix = "curl -L -o " + model + " https://huggingface.co/ggerganov/whisper.cpp/resolve/main/ggml-large-v3-turbo.bin"
		} else {
			t.Whisper, t.WhisperModel = ws.Path, model
		}
	}
	st = append(st, ws)
	if need.Transcribe && t.Whisper != "" {
		st[ffmpeg].Required = true // it decodes the audio for whisper.cpp
	}
	for _, s := range st {
		if s.Required && s.Missing() {
			return t, st, &MissingError{For: forWhat(need), Status: st}
		}
	}
	return t, st, nil
}

func forWhat(n Need) string {
	switch {
	case n.Download:
		return "capturing online talks"
	case n.Probe:
		return "capturing recordings"
	case n.Video:
		return "taking keyframes from the video"
	}
	return "transcribing with whisper.cpp"
}

// LookPath returns the path of an executable named name: name itself when
// it contains a path separator, else the first match in the PATH list
// path. It returns "" when there is none.
func LookPath(name, path string) string {
	if strings.ContainsRune(name, os.PathSeparator) {
		if isExecutable(name) {
			return name
		}
		return ""
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, name)
		if isExecutable(p) {
			return p
		}
	}
	return ""
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// ErrNetwork is wrapped by errors of a download that could not reach the
// site (no network, DNS failure, connection refused, timeout): failed,
// not "not found".
var ErrNetwork = errors.New("the site could not be reached")

// ToolError is a tool that ran and failed: its name, what it was asked to
// do and the last lines it wrote to stderr.
type ToolError struct {
	Tool   string
	Action string
	Stderr string // the last lines, trimmed
	Err    error
}

func (e *ToolError) Error() string {
	msg := e.Tool + " failed to " + e.Action
	if e.Stderr != "" {
		msg += ": " + e.Stderr
	} else if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *ToolError) Unwrap() error { return e.Err }
