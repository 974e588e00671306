package viewer

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path"
	"regexp"
	"strings"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/search"
)

// A recorded talk has no pages: its chunks are shown on the paper page
// with their time range, the keyframe of their slides and the link that
// plays the recording there (the site's, or for a local recording
// /talk/{key}/recording#t=N, served from the library's copy); a deep
// link to one of its chunks opens the paper page at that chunk.

// errNotTalk is a /talk route for a paper that is not a talk.
var errNotTalk = errors.New("not a recorded talk")

// keyframeName is the name of a keyframe file compile writes
// (media.Keyframes): the only names /talk/{key}/keyframe/ serves.
var keyframeName = regexp.MustCompile(`^frame_[0-9]{4,6}\.png$`)

// talkURL returns the viewer path of a talk's file route.
func talkURL(key, rest string) string {
	return "/talk/" + url.PathEscape(key) + "/" + rest
}

// talkRow fills the talk fields of a chunk row: the time range for the
// location, the first keyframe as its figure and the link to the
// recording at the chunk's start.
func talkRow(row *chunkRow, key string, p *library.Paper, c chunk.Chunk) {
	m := c.Media
	row.Location = search.Clock(m.StartMS) + "–" + search.Clock(m.EndMS)
	if c.Section != "" {
		row.Location += " §" + c.Section
	}
	row.Play = playLink(key, p, m)
	row.View = row.Play
	if len(m.Keyframes) > 0 {
		if name := path.Base(m.Keyframes[0]); keyframeName.MatchString(name) {
			row.Figure = talkURL(key, "keyframe/"+name)
			row.FigureAlt = "the video at " + search.Clock(m.StartMS) + " (a keyframe of this part)"
		}
	}
}

// playLink is where the recording plays from the chunk's start: the
// chunk's link for a video online, the library's copy for a local one.
func playLink(key string, p *library.Paper, m *chunk.Media) string {
	if strings.HasPrefix(m.Link, "https://") || strings.HasPrefix(m.Link, "http://") {
		return m.Link
	}
	if p != nil && p.Talk != nil {
		return talkURL(key, fmt.Sprintf("recording#t=%d", m.StartMS/1000))
	}
	return ""
}

// chunkView is the paper page anchored at a chunk: what a deep link to a
// talk's chunk opens.
func chunkView(key, chunkID string) string {
	u := "/paper/" + url.PathEscape(key)
	if chunkID != "" {
		u += "#" + url.PathEscape(chunkID)
	}
	return u
}

// keyframe serves a talk's keyframe PNG: GET /talk/{key}/keyframe/{name}.
func (v *Viewer) keyframe(w http.ResponseWriter, r *http.Request) {
	p, err := v.lookup(r)
	if err != nil {
		v.fail(w, r, status(err), err)
		return
	}
	name := r.PathValue("name")
	if !keyframeName.MatchString(name) {
		v.fail(w, r, http.StatusNotFound, fmt.Errorf("no keyframe %q", name))
		return
	}
	file, err := v.Lib.TalkFile(p, "keyframes/"+name)
	if err != nil {
		v.fail(w, r, http.StatusNotFound, err)
		return
	}
	v.serveFile(w, r, file, "image/png")
}

// recording serves a talk's local recording (the video, else the audio)
// with range requests, for the browser's player: GET
// /talk/{key}/recording. Videos online are played on their site.
func (v *Viewer) recording(w http.ResponseWriter, r *http.Request) {
	p, err := v.lookup(r)
	if err != nil {
		v.fail(w, r, status(err), err)
		return
	}
	if p.Talk == nil {
		v.fail(w, r, http.StatusNotFound, fmt.Errorf("%s: %w", p.CiteKey, errNotTalk))
		return
	}
	name := p.Talk.Video
	if name == "" {
		name = p.Talk.Audio
	}
	file, err := v.Lib.TalkFile(p, name)
	if err != nil {
		v.fail(w, r, http.StatusNotFound, err)
		return
	}
	v.serveFile(w, r, file, mediaType(name))
}

// serveFile serves a file of the library read-only (Range, If-Modified-
// Since), never a listing.
func (v *Viewer) serveFile(w http.ResponseWriter, r *http.Request, file, ctype string) {
	f, err := os.Open(file)
	if err != nil {
		v.fail(w, r, status(err), err)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		v.fail(w, r, http.StatusNotFound, fmt.Errorf("%s is not a file", path.Base(file)))
		return
	}
	w.Header().Set("Content-Type", ctype)
	http.ServeContent(w, r, "", fi.ModTime(), f)
}

// mediaType is the Content-Type of a recording by its extension.
func mediaType(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".mp4", ".m4v", ".mov":
		return "video/mp4"
	case ".webm":
		return "video/webm"
	case ".mkv":
		return "video/x-matroska"
	case ".mp3":
		return "audio/mpeg"
	case ".m4a":
		return "audio/mp4"
	case ".wav":
		return "audio/wav"
	case ".ogg", ".opus":
		return "audio/ogg"
	case ".flac":
		return "audio/flac"
	}
	return "application/octet-stream"
}
