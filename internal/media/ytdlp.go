package media

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/crossmem/crossmem/internal/talk"
)

// Info is what yt-dlp's info JSON (--write-info-json) says about a video.
type Info struct {
	ID           string  `json:"id"`
	Title        string  `json:"title"`
	Channel      string  `json:"channel"`
	Uploader     string  `json:"uploader"`
	UploadDate   string  `json:"upload_date"` // YYYYMMDD
	Timestamp    float64 `json:"timestamp"`   // unix seconds, when UploadDate is absent
	Description  string  `json:"description"`
	Duration     float64
	Tags         []string `json:"tags"`
	WebpageURL   string   `json:"webpage_url"`
	Extractor    string   `json:"extractor"`
	ExtractorKey string   `json:"extractor_key"`
	Chapters     []talk.Chapter
	// Subtitles and AutomaticCaptions list the languages of the site's
	// human subtitles and automatic captions.
	Subtitles, AutomaticCaptions []string
}

type infoJSON struct {
	Info
	Duration any `json:"duration"`
	Chapters []struct {
		Title     string  `json:"title"`
		StartTime float64 `json:"start_time"`
		EndTime   float64 `json:"end_time"`
	} `json:"chapters"`
	Subtitles         map[string]json.RawMessage `json:"subtitles"`
	AutomaticCaptions map[string]json.RawMessage `json:"automatic_captions"`
}

// ParseInfo reads a yt-dlp info JSON file.
func ParseInfo(data []byte) (*Info, error) {
	var j infoJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, fmt.Errorf("read yt-dlp info JSON: %w", err)
	}
	in := j.Info
	switch d := j.Duration.(type) {
	case float64:
		in.Duration = d
	}
	for _, c := range j.Chapters {
		in.Chapters = append(in.Chapters, talk.Chapter{Title: c.Title, StartMS: int64(c.StartTime * 1000), EndMS: int64(c.EndTime * 1000)})
	}
	for k := range j.Subtitles {
		if k != "live_chat" {
			in.Subtitles = append(in.Subtitles, k)
		}
	}
	for k := range j.AutomaticCaptions {
		in.AutomaticCaptions = append(in.AutomaticCaptions, k)
	}
	sort.Strings(in.Subtitles)
	sort.Strings(in.AutomaticCaptions)
	return &in, nil
}

// Download is what a download left in its folder: file names relative to
// Dir.
type Download struct {
	Dir      string
	Info     *Info
	InfoFile string
	Audio    string // the best audio (yt-dlp --extract-audio)
	Video    string // the video for keyframes; "" when the source has none
	// Subtitles is the subtitle file chosen (the site's human subtitles
	// first, then its automatic captions); "" when there is none.
	Subtitles     string
	SubtitlesAuto bool
	SubtitleLang  string
}

// Download fetches url into dir (which must exist) with yt-dlp, with the
// seed's flags: the best audio, the info JSON, human then automatic
// subtitles in Tools.Language as WebVTT, chapters; then the video (at
// most 1080p) for keyframes. Files are named name.<ext>, name_video.<ext>,
// name.info.json and name.<lang>.vtt. A failure to reach the site wraps
// ErrNetwork; other failures are *ToolError. The video download failing
// (an audio-only source) is not an error. progress, if set, is told each
// step.
func (t *Tools) Download(ctx context.Context, url, dir, name string, progress func(step string)) (*Download, error) {
	if progress == nil {
		progress = func(string) {}
	}
	common := []string{"--ignore-config", "--no-playlist", "--no-progress", "--no-overwrites",
		"--socket-timeout", "30", "--retries", "3",
		"--paths", dir}
	if t.FFmpeg != "" {
		common = append(common, "--ffmpeg-location", filepath.Dir(t.FFmpeg))
	}
	lang := t.Language
	progress("downloading audio, metadata and subtitles")
	args := append(append([]string{}, common...),
		"--format", "bestaudio[ext=m4a]/bestaudio/best",
		"--extract-audio",
		"--write-info-json",
		"--write-subs", "--write-auto-subs", "--sub-langs", lang+".*,"+lang, "--sub-format", "vtt/best", "--convert-subs", "vtt",
		"--embed-chapters",
		"--output", name+".%(ext)s",
		"--", url)
	if _, _, err := run(ctx, YTDLP, "download "+url, dir, nil, t.YTDLP, args...); err != nil {
		return nil, classifyDownload(err)
	}
	d := &Download{Dir: dir, InfoFile: name + ".info.json"}
	data, err := os.ReadFile(filepath.Join(dir, d.InfoFile))
	if err != nil {
		return nil, fmt.Errorf("yt-dlp wrote no info JSON: %w", err)
	}
	if d.Info, err = ParseInfo(data); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var subs []string
	for _, e := range entries {
		n := e.Name()
		switch {
		case strings.HasSuffix(n, ".info.json") || strings.HasPrefix(n, "."):
		case strings.HasSuffix(n, ".vtt"):
			subs = append(subs, n)
		case strings.HasPrefix(n, name+".") && !strings.HasSuffix(n, ".part") && !strings.HasSuffix(n, ".ytdl"):
			d.Audio = n
		}
	}
	if d.Audio == "" {
		return nil, &ToolError{Tool: YTDLP, Action: "download " + url, Stderr: "no audio file was written"}
	}
	d.Subtitles, d.SubtitleLang, d.SubtitlesAuto = chooseSubtitles(subs, name, d.Info)
	progress("downloading the video for keyframes")
	vargs := append(append([]string{}, common...),
		"--format", "bestvideo[height<=1080][ext=mp4]/bestvideo[height<=1080]/best",
		"--output", name+"_video.%(ext)s",
		"--", url)
	if _, _, err := run(ctx, YTDLP, "download the video of "+url, dir, nil, t.YTDLP, vargs...); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if errors.Is(classifyDownload(err), ErrNetwork) {
			return nil, classifyDownload(err)
		}
		return d, nil // an audio-only source
	}
	entries, _ = os.ReadDir(dir)
	for _, e := range entries {
		if n := e.Name(); strings.HasPrefix(n, name+"_video.") && !strings.HasSuffix(n, ".part") {
			d.Video = n
		}
	}
	return d, nil
}

// chooseSubtitles picks the subtitle file: a language the site has human
// subtitles in first (the plain language code before its variants), then
// automatic captions.
func chooseSubtitles(files []string, name string, in *Info) (file, lang string, auto bool) {
	sort.Strings(files)
	type cand struct {
		file, lang string
		human      bool
	}
	var cs []cand
	for _, f := range files {
		l := strings.TrimSuffix(strings.TrimPrefix(f, name+"."), ".vtt")
		human := slices.Contains(in.Subtitles, l)
		if !human && !slices.Contains(in.AutomaticCaptions, l) && len(in.Subtitles) > 0 {
			human = true // yt-dlp named it; the info lists it under another key
		}
		cs = append(cs, cand{f, l, human})
	}
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].human != cs[j].human {
			return cs[i].human
		}
		return len(cs[i].lang) < len(cs[j].lang)
	})
	if len(cs) == 0 {
		return "", "", false
	}
	return cs[0].file, cs[0].lang, !cs[0].human
}

// httpErrorRe matches yt-dlp's report of an HTTP status, which is an
// answer from the site (not found, forbidden), not a network failure.
var httpErrorRe = regexp.MustCompile(`HTTP Error \d{3}`)

// networkSigns are what yt-dlp (Python's urllib and socket) writes when
// the site cannot be reached.
var networkSigns = []string{
	"urlopen error", "Temporary failure in name resolution", "Name or service not known",
	"nodename nor servname", "No address associated with hostname", "getaddrinfo failed",
	"Connection refused", "Network is unreachable", "No route to host", "timed out",
	"Connection reset", "Failed to resolve", "Failed to establish a new connection",
	"Remote end closed connection", "Tunnel connection failed", "ProxyError",
}

// classifyDownload wraps a yt-dlp failure that looks like the network
// with ErrNetwork.
func classifyDownload(err error) error {
	var te *ToolError
	if !errors.As(err, &te) || httpErrorRe.MatchString(te.Stderr) {
		return err
	}
	for _, s := range networkSigns {
		if strings.Contains(te.Stderr, s) {
			// yt-dlp's retry warnings say the same again: its ERROR line
			// is the message.
			short := *te
			if i := strings.LastIndex(te.Stderr, "ERROR: "); i >= 0 {
				short.Stderr = te.Stderr[i:]
			}
			return fmt.Errorf("%w: %w", ErrNetwork, &short)
		}
	}
	return err
}
