package library

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Talk is what a talk's sidecar records about its recording (the sidecar
// field "talk"; nil for papers). The files live in raw/youtube/<VideoID>/
// (TalkDir), named by the seed's storage layout: <id>.<ext> (the audio),
// <id>_video.<ext>, <id>.info.json, <id>.<lang>.vtt and, once compiled,
// keyframes/ and transcript.vtt (whisper.cpp's).
type Talk struct {
	// VideoID names the recording: the YouTube video id, "url-<hash>" for
	// another site's page (the first 16 hex digits of the SHA-256 of its
	// URL), "file-<hash>" for a local file (of its content).
	VideoID string `json:"video_id"`
	// Kind is "youtube", "url" (another site, through yt-dlp) or "local".
	Kind string `json:"kind"`
	// URL is the page a viewer opens (https://www.youtube.com/watch?v=<id>);
	// "" for a local file.
	URL string `json:"url,omitempty"`
	// Audio is the recording's audio (URLs) or the copied file (local),
	// Video the video for keyframes ("" without one): file names in TalkDir.
	Audio string `json:"audio"`
	Video string `json:"video,omitempty"`
	// MediaSHA256 is the SHA-256 of Audio as captured.
	MediaSHA256 string `json:"media_sha256"`
	// Info is yt-dlp's info JSON ("" for a local file).
	Info string `json:"info,omitempty"`
	// Subtitles is the subtitle file captured ("" when none); SubtitlesFrom
	// says whose: "human" (the site's subtitles), "auto" (the site's
	// automatic captions, a speech model's) or "file" (given with --subs).
	Subtitles     string `json:"subtitles,omitempty"`
	SubtitlesFrom string `json:"subtitles_from,omitempty"`
	SubtitleLang  string `json:"subtitle_lang,omitempty"`
	// Channel is the channel or uploader (the author a citation names).
	Channel string `json:"channel"`
	// UploadDate is YYYY-MM-DD ("" when unknown).
	UploadDate string `json:"upload_date,omitempty"`
	DurationMS int64  `json:"duration_ms"`
	// Chapters are the recording's chapters (info JSON, or the file's).
	Chapters []Chapter `json:"chapters,omitempty"`
	Tags     []string  `json:"tags,omitempty"`
	// OriginalPath is the local file as captured (information only: the
	// library's copy is Audio).
	OriginalPath string `json:"original_path,omitempty"`
}

// Chapter is a titled part of a recording, in milliseconds.
type Chapter struct {
	Title   string `json:"title"`
	StartMS int64  `json:"start_ms"`
	EndMS   int64  `json:"end_ms"`
}

// IsTalk reports whether the paper is a recorded talk.
func (p *Paper) IsTalk() bool { return p.Talk != nil }

// TalksDir is the folder of talks' recordings: raw/youtube.
func (l *Library) TalksDir() string { return filepath.Join(l.RawDir(), "youtube") }

var videoIDRe = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// ValidVideoID checks that id can name a folder in TalksDir: 1-64 ASCII
// letters, digits, "_" and "-".
func ValidVideoID(id string) error {
	if !videoIDRe.MatchString(id) {
		return fmt.Errorf("invalid video id %q: want 1-64 letters, digits, _ and -", id)
	}
	return nil
}

// TalkDir returns the folder of a talk's recording (absolute), or "" for
// a paper or an invalid video id.
func (l *Library) TalkDir(p *Paper) string {
	if p.Talk == nil || ValidVideoID(p.Talk.VideoID) != nil {
		return ""
	}
	return filepath.Join(l.TalksDir(), p.Talk.VideoID)
}

// TalkFile returns the absolute path of a file of a talk (a name the
// sidecar records), refusing names that would leave its folder.
func (l *Library) TalkFile(p *Paper, name string) (string, error) {
	dir := l.TalkDir(p)
	if dir == "" {
		return "", fmt.Errorf("%s is not a talk", p.CiteKey)
	}
	if name == "" || !filepath.IsLocal(name) || strings.ContainsRune(name, os.PathSeparator) && strings.Contains(name, "..") {
		return "", fmt.Errorf("talk %s: invalid file name %q", p.CiteKey, name)
	}
	return filepath.Join(dir, name), nil
}

// FindTalk returns the paper whose recording has video id id, or nil.
func FindTalk(papers []*Paper, id string) *Paper {
	for _, p := range papers {
		if p.Talk != nil && p.Talk.VideoID == id {
			return p
		}
	}
	return nil
}

// TidyTalkStaging removes staging folders of talk captures
// (raw/youtube/.tmp-*) not modified for longer than age: what a killed
// capture left behind. It returns the folders removed.
func (l *Library) TidyTalkStaging(age time.Duration, now time.Time) []string {
	matches, _ := filepath.Glob(filepath.Join(l.TalksDir(), ".tmp-*"))
	var out []string
	for _, m := range matches {
		fi, err := os.Stat(m)
		if err != nil || !fi.IsDir() || now.Sub(fi.ModTime()) < age {
			continue
		}
		if os.RemoveAll(m) == nil {
			out = append(out, m)
		}
	}
	return out
}
