package identifier

import (
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// MediaExtensions are the file extensions of recordings capture accepts
// (lower case, with the dot).
var MediaExtensions = []string{".mp4", ".mkv", ".webm", ".mov", ".mp3", ".m4a", ".wav", ".ogg", ".opus", ".flac"}

// IsMediaName reports whether a file name or URL path ends in one of
// MediaExtensions (any case).
func IsMediaName(name string) bool {
	ext := strings.ToLower(path.Ext(name))
	for _, e := range MediaExtensions {
		if ext == e {
			return true
		}
	}
	return false
}

var youTubeIDRe = regexp.MustCompile(`^[A-Za-z0-9_-]{11}$`)

// ParseYouTube recognises a YouTube video URL and returns its 11-character
// video id and the start time it asks for in seconds (t= or start=, as
// 90, 90s, 1m30s or 1h2m3s; 0 when absent):
//
//	https://www.youtube.com/watch?v=ID[&t=90]   youtube.com, m., music.
//	https://youtu.be/ID[?t=90]
//	https://www.youtube.com/shorts/ID, /live/ID, /embed/ID, /v/ID
//	https://www.youtube-nocookie.com/embed/ID
//
// The scheme may be left out ("youtu.be/ID"). Playlists and channels are
// not videos and return ok == false.
func ParseYouTube(s string) (id string, startSec int, ok bool) {
	s = strings.TrimSpace(s)
	lower := strings.ToLower(s)
	if !strings.HasPrefix(lower, "http://") && !strings.HasPrefix(lower, "https://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return "", 0, false
	}
	host := strings.ToLower(u.Hostname())
	q := u.Query()
	switch host {
	case "youtu.be", "www.youtu.be":
		id = strings.Trim(u.Path, "/")
	case "youtube.com", "www.youtube.com", "m.youtube.com", "music.youtube.com", "youtube-nocookie.com", "www.youtube-nocookie.com":
		p := strings.Trim(u.Path, "/")
		switch {
		case p == "watch":
			id = q.Get("v")
		default:
			for _, prefix := range []string{"shorts/", "live/", "embed/", "v/"} {
				if rest, found := strings.CutPrefix(p, prefix); found {
					id = strings.SplitN(rest, "/", 2)[0]
					break
				}
			}
		}
	default:
		return "", 0, false
	}
	if !youTubeIDRe.MatchString(id) {
		return "", 0, false
	}
	t := q.Get("t")
	if t == "" {
		t = q.Get("start")
	}
	if t == "" && strings.HasPrefix(u.Fragment, "t=") {
		t = u.Fragment[2:]
	}
	return id, parseStart(t), true
}

var startRe = regexp.MustCompile(`^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s?)?$`)

// parseStart reads a YouTube start time (90, 90s, 1m30s, 1h2m3s); 0 when
// it is none of those.
func parseStart(t string) int {
	m := startRe.FindStringSubmatch(strings.ToLower(strings.TrimSpace(t)))
	if m == nil || t == "" {
		return 0
	}
	n := 0
	for i, mult := range []int{3600, 60, 1} {
		if m[i+1] != "" {
			v, err := strconv.Atoi(m[i+1])
			if err != nil || v > 1_000_000 {
				return 0
			}
			n += v * mult
		}
	}
	return n
}

// mediaURL recognises an http(s) URL whose path ends in a media extension
// (a recording served as a file).
func mediaURL(s string) (string, bool) {
	u, err := url.Parse(s)
	if err != nil || (!strings.EqualFold(u.Scheme, "https") && !strings.EqualFold(u.Scheme, "http")) || u.Host == "" {
		return "", false
	}
	if !IsMediaName(u.Path) {
		return "", false
	}
	return s, true
}

// IsWebURL reports whether s is an absolute http(s) URL with a host: what
// capture --talk accepts as a video page for yt-dlp.
func IsWebURL(s string) bool {
	u, err := url.Parse(strings.TrimSpace(s))
	return err == nil && (strings.EqualFold(u.Scheme, "https") || strings.EqualFold(u.Scheme, "http")) && u.Host != ""
}
