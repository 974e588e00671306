package viewer_test

import (
	"bytes"
	"image/png"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/talk/talktest"
)

// TestTalk: a recorded talk (made at test time, captured as a local file
// with its subtitles, compiled with real ffmpeg and tesseract) in the
// viewer: its chunks with time ranges, keyframes and links that play the
// recording there; deep links to a chunk open it on the paper page; the
// keyframe and recording routes serve only the talk's own files.
func TestTalk(t *testing.T) {
	corpustest.Slow(t, "runs ffmpeg, tesseract")
	talktest.Need(t, "ffmpeg", "ffprobe", "tesseract", "espeak-ng")
	m := talktest.Make(t)
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "config.toml"), nil, 0o644)
	video := filepath.Join(t.TempDir(), "lecture.mp4")
	data, err := os.ReadFile(m.Plain)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(video, data, 0o644)
	const key = "lab2024lecture"
	for _, args := range [][]string{{"capture", video, "--subs", m.VTT, "--cite-key", key}, {"compile", key}} {
		if err := run(home, args...); err != nil {
			t.Fatal(err)
		}
	}
	n, _ := readNote(t, home, key)
	base, _ := start(t, home)

	code, body, _ := get(t, base+"/paper/"+key)
	if code != 200 || !strings.Contains(body, "chunks of a 1:20 recording") {
		t.Fatalf("paper page: %d\n%s", code, body)
	}
	for _, c := range n.Chunks {
		li := item(body, c.ID)
		if li == "" {
			t.Errorf("chunk %s not on the paper page", c.ID)
			continue
		}
		play := "/talk/" + key + "/recording#t=" + strconv.FormatInt(c.Media.StartMS/1000, 10)
		kf := "/talk/" + key + "/keyframe/" + filepath.Base(c.Media.Keyframes[0])
		if !strings.Contains(li, `href="`+play+`"`) || !strings.Contains(li, `src="`+kf+`"`) || !strings.Contains(li, "Slide text (OCR, not quotable as speech)") {
			t.Errorf("chunk %s: want the play link %s and keyframe %s:\n%s", c.ID, play, kf, li)
		}
	}
	// The keyframe is a PNG; names that are not keyframes are refused.
	kf := filepath.Base(n.Chunks[1].Media.Keyframes[0])
	res, err := http.Get(base + "/talk/" + key + "/keyframe/" + kf)
	if err != nil {
		t.Fatal(err)
	}
	var img bytes.Buffer
	img.ReadFrom(res.Body)
	res.Body.Close()
	if _, err := png.Decode(&img); res.StatusCode != 200 || err != nil {
		t.Errorf("keyframe %s: %d %v", kf, res.StatusCode, err)
	}
	for _, bad := range []string{"keyframes.json", "..%2Fplain.mp4", "frame_0001.png.txt"} {
		if code, _, _ := get(t, base+"/talk/"+key+"/keyframe/"+bad); code != 404 {
			t.Errorf("keyframe %s: %d, want 404", bad, code)
		}
	}
	// The recording, with range requests (what the browser's player asks).
	req, _ := http.NewRequest("GET", base+"/talk/"+key+"/recording", nil)
	req.Header.Set("Range", "bytes=0-99")
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var part bytes.Buffer
	part.ReadFrom(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusPartialContent || res.Header.Get("Content-Type") != "video/mp4" || !bytes.Equal(part.Bytes(), data[:100]) {
		t.Errorf("recording: %d %s, %d bytes", res.StatusCode, res.Header.Get("Content-Type"), part.Len())
	}
	// A deep link to a chunk (as search and check give) opens it on the
	// paper page.
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err = noRedirect.Get(base + "/pdf/" + key + "?chunk=" + n.Chunks[1].ID)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if want := "/paper/" + key + "#" + n.Chunks[1].ID; res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != want {
		t.Errorf("deep link: %d %s, want 303 to %s", res.StatusCode, res.Header.Get("Location"), want)
	}
	// Search: the time range and the link that plays it.
	code, body, _ = get(t, base+"/search?q="+"queue+of+the+nodes")
	if code != 200 || !regexp.MustCompile(`0:19–0:39`).MatchString(body) || !strings.Contains(body, `href="/talk/`+key+`/recording#t=19">Play at 0:19</a>`) ||
		!strings.Contains(body, `href="/paper/`+key+`#`) {
		t.Errorf("search: %d\n%s", code, body)
	}
}
