package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/cli"
	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/note"
	"github.com/crossmem/crossmem/internal/talk/talktest"
)

// talkLib is a library the talk tests run crossmem against, in process,
// with its own configuration and environment.
type talkLib struct {
	home string
	env  map[string]string
}

func newTalkLib(t *testing.T, config string) *talkLib {
	t.Helper()
	dir := t.TempDir()
	l := &talkLib{home: filepath.Join(dir, "home"), env: map[string]string{
		"CROSSMEM_HOME":   filepath.Join(dir, "home"),
		"CROSSMEM_CONFIG": filepath.Join(dir, "config.toml"),
		"CROSSMEM_CACHE":  filepath.Join(dir, "cache"),
		"PATH":            os.Getenv("PATH"),
	}}
	if err := os.WriteFile(l.env["CROSSMEM_CONFIG"], []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	return l
}

// run runs crossmem with args and returns stdout, stderr and the exit code.
func (l *talkLib) run(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := cli.Main(t.Context(), args, cli.IO{In: strings.NewReader(""), Out: &out, Err: &errOut,
		Getenv: func(k string) string { return l.env[k] }}, cli.Servers{})
	return out.String(), errOut.String(), code
}

// must runs crossmem and fails the test unless it exits 0.
func (l *talkLib) must(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, code := l.run(t, args...)
	if code != 0 {
		t.Fatalf("crossmem %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

var citeKeyLine = regexp.MustCompile(`(?m)^cite_key: (\S+)$`)

func (l *talkLib) capture(t *testing.T, args ...string) string {
	t.Helper()
	out := l.must(t, append([]string{"capture"}, args...)...)
	m := citeKeyLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("capture printed no cite key:\n%s", out)
	}
	return m[1]
}

func (l *talkLib) paper(t *testing.T, key string) *library.Paper {
	t.Helper()
	lib, err := library.Open(l.home)
	if err != nil {
		t.Fatal(err)
	}
	p, err := lib.Find(key)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func (l *talkLib) note(t *testing.T, key string) *note.Note {
	t.Helper()
	data, err := os.ReadFile(l.paper(t, key).NotePath)
	if err != nil {
		t.Fatal(err)
	}
	n, err := note.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// files lists every file under the library's raw folder.
func (l *talkLib) files(t *testing.T) []string {
	t.Helper()
	var out []string
	filepath.Walk(filepath.Join(l.home, "raw"), func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func near(got, want int64) bool { return got >= want-500 && got <= want+500 }

// TestTalkFromWebPage captures a talk made at test time (slides, espeak-ng
// speech, WebVTT subtitles, chapters) from a loopback web page through the
// real yt-dlp (its generic extractor), compiles it with real ffmpeg scene
// detection and tesseract, and follows it through cite, verify, search
// and check.
func TestTalkFromWebPage(t *testing.T) {
	corpustest.Slow(t, "runs yt-dlp, ffmpeg, tesseract")
	talktest.Need(t, "yt-dlp", "ffmpeg", "ffprobe", "tesseract", "espeak-ng")
	m := talktest.Make(t)
	base := talktest.Serve(t, m)
	l := newTalkLib(t, "")
	page := base + "talk.html"

	key := l.capture(t, "--talk", page)
	if key != "adagraphlab2024searching" {
		t.Errorf("cite key %s, want adagraphlab2024searching ({channel}{year}{first noun})", key)
	}
	p := l.paper(t, key)
	tk := p.Talk
	if tk == nil || tk.Kind != "url" || tk.SubtitlesFrom != "human" || len(tk.Chapters) != 2 || tk.Channel != m.Artist || tk.UploadDate != m.Date {
		t.Fatalf("sidecar talk %+v", tk)
	}
	if !near(tk.DurationMS, m.DurationMS) {
		t.Errorf("duration %d ms, want %d", tk.DurationMS, m.DurationMS)
	}
	// Idempotent: the same page again writes nothing.
	before := l.files(t)
	out := l.must(t, "capture", "--talk", page)
	if !strings.Contains(out, "already captured") || !strings.Contains(out, "cite_key: "+key) {
		t.Errorf("second capture:\n%s", out)
	}
	if after := l.files(t); len(after) != len(before) {
		t.Errorf("second capture wrote files: %d before, %d after", len(before), len(after))
	}

	// --all compiles the talk in a batch (compile.RunAll), as it does
	// papers; the other tests compile talks one key at a time.
	if out := l.must(t, "compile", "--all"); !strings.Contains(out, key) {
		t.Errorf("compile --all does not report %s:\n%s", key, out)
	}
	n := l.note(t, key)
	if n.Front.Transcript == nil || n.Front.Transcript.Kind != "subtitles" || n.Front.SourceType != "url" || n.Front.VideoID != tk.VideoID {
		t.Fatalf("frontmatter %+v", n.Front)
	}
	// One chunk per chapter, at the chapters' times.
	if len(n.Chunks) != len(m.Chapters) {
		t.Fatalf("%d chunks, want one per chapter (%d)", len(n.Chunks), len(m.Chapters))
	}
	var all []string
	for i, c := range n.Chunks {
		ch := m.Chapters[i]
		if c.Media == nil || !near(c.Media.StartMS, ch.StartMS) || !near(c.Media.EndMS, ch.EndMS) || c.Section != ch.Title {
			t.Errorf("chunk %d: %+v %q, want %d-%d ms %q", i, c.Media, c.Section, ch.StartMS, ch.EndMS, ch.Title)
			continue
		}
		if want := fmt.Sprintf("%s#t=%d", page, ch.StartMS/1000); c.Media.Link != want {
			t.Errorf("chunk %d link %s, want %s", i, c.Media.Link, want)
		}
		if c.Media.Transcript != "subtitles" || c.Media.ASRModel != "" {
			t.Errorf("chunk %d transcript %q %q", i, c.Media.Transcript, c.Media.ASRModel)
		}
		all = append(all, c.Text)
	}
	// The chunks hold the subtitles verbatim, in order, each cue in the
	// chunk of its chapter.
	var cues []string
	for _, c := range m.Cues {
		cues = append(cues, c.Text())
	}
	if got, want := strings.Join(all, "\n"), strings.Join(cues, "\n"); got != want {
		t.Errorf("chunk text:\n%s\nwant the subtitles:\n%s", got, want)
	}
	for _, c := range m.Cues {
		in := 0
		if c.StartMS >= m.Chapters[1].StartMS {
			in = 1
		}
		if !strings.Contains(n.Chunks[in].Text, c.Text()) {
			t.Errorf("cue at %d ms is not in chunk %d", c.StartMS, in)
		}
	}
	// Keyframes at the slide changes (scene cuts), and the slides' titles
	// read by tesseract in the chunks' slide text.
	var kf struct {
		Cuts []int64 `json:"scene_cuts"`
	}
	data, err := os.ReadFile(filepath.Join(l.home, "raw", "youtube", tk.VideoID, "keyframes", "keyframes.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &kf); err != nil {
		t.Fatal(err)
	}
	if len(kf.Cuts) != len(m.Slides)-1 {
		t.Errorf("scene cuts %v, want %d", kf.Cuts, len(m.Slides)-1)
	} else {
		for i, c := range kf.Cuts {
			if !near(c, m.Slides[i+1].StartMS) {
				t.Errorf("scene cut %d at %d ms, want %d ± 500", i, c, m.Slides[i+1].StartMS)
			}
		}
	}
	ocr := strings.ToLower(n.Chunks[0].Media.SlideOCR + " / " + n.Chunks[1].Media.SlideOCR)
	for _, s := range m.Slides {
		if !strings.Contains(ocr, strings.ToLower(s.Title)) {
			t.Errorf("slide title %q not in the OCR text %q", s.Title, ocr)
		}
	}
	for i, c := range n.Chunks {
		for _, k := range c.Media.Keyframes {
			if _, err := os.Stat(filepath.Join(l.home, k)); err != nil {
				t.Errorf("chunk %d keyframe: %v", i, err)
			}
		}
	}

	// Citations of an online video.
	wantAPA := "Ada Graph Lab. (2024, May 1). Searching Graphs in Practice [Video]. " + page
	if got := strings.TrimSpace(l.must(t, "cite", key, "--format", "apa")); got != wantAPA {
		t.Errorf("APA:\n got %s\nwant %s", got, wantAPA)
	}
	if got, _ := n.Citation("APA"); got != wantAPA {
		t.Errorf("note's APA: %s", got)
	}
	ieee := l.must(t, "cite", key, "--format", "ieee")
	if !strings.Contains(ieee, "Ada Graph Lab, Searching Graphs in Practice, (May 01, 2024). Accessed: ") || !strings.Contains(ieee, "[Online Video]. Available: "+page) {
		t.Errorf("IEEE: %s", ieee)
	}
	bib := l.must(t, "cite", key, "--format", "bibtex")
	if !strings.Contains(bib, "@misc{"+key+",") || !strings.Contains(bib, `howpublished = {\url{`+page+`}}`) || !strings.Contains(bib, "note = {[Video]. Accessed: ") {
		t.Errorf("BibTeX:\n%s", bib)
	}

	l.must(t, "verify", key)

	// Recall finds the words and gives the time link.
	out = l.must(t, "search", "priority queue cheap")
	if !strings.Contains(out, "["+key+"]") || !strings.Contains(out, "at: 0:30 "+page+"#t=30") || !strings.Contains(out, "section: 0:30–1:20 §Method and results") {
		t.Errorf("search:\n%s", out)
	}
	var rec struct {
		Results []struct {
			CiteKey string `json:"cite_key"`
			Media   *struct {
				Link       string `json:"link"`
				StartMS    int64  `json:"start_ms"`
				Transcript string `json:"transcript"`
			} `json:"media"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(l.must(t, "search", "--json", "breadth first")), &rec); err != nil {
		t.Fatal(err)
	}
	if len(rec.Results) == 0 || rec.Results[0].Media == nil || rec.Results[0].Media.Link != page+"#t=0" || rec.Results[0].Media.Transcript != "subtitles" {
		t.Errorf("search --json: %+v", rec)
	}
	// The slides' text is searchable (labelled OCR).
	out = l.must(t, "search", "shortest paths")
	if !strings.Contains(out, "slide text (OCR, not quotable as speech):") {
		t.Errorf("search for slide text:\n%s", out)
	}

	// read (crossmem_read): the time range and link instead of a page.
	out = l.must(t, "read", key, "t30c1")
	for _, want := range []string{"chunk t30c1 (transcript) 0:30–1:20 §Method and results\n  at: " + page + "#t=30 text_sha256=",
		"> Dijkstra's method settles one node at a time.\n", "previous: t0c1 (transcript, 0:00)"} {
		if !strings.Contains(out, want) {
			t.Errorf("read lacks %q:\n%s", want, out)
		}
	}

	// check: the subtitles' words verify; a changed word does not.
	dir := t.TempDir()
	good := filepath.Join(dir, "good.md")
	os.WriteFile(good, []byte(fmt.Sprintf("As the talk puts it, \"Dijkstra's method settles one node at a time.\" [@%s]\n", key)), 0o644)
	out = l.must(t, "check", good)
	if !strings.Contains(out, "1 verified") || !strings.Contains(out, "source: "+key+" t30c1 0:30–1:20 "+page+"#t=30") {
		t.Errorf("check of a faithful quote:\n%s", out)
	}
	bad := filepath.Join(dir, "bad.md")
	os.WriteFile(bad, []byte(fmt.Sprintf("The talk says \"Dijkstra's method settles two nodes at a time.\" [@%s]\n", key)), 0o644)
	out, _, code := l.run(t, "check", bad)
	if code != 1 || !strings.Contains(out, "1 unverified") || !strings.Contains(out, "nearest: "+key+" t30c1 0:30–1:20 "+page+"#t=30") {
		t.Errorf("check of a changed quote (the nearest passage named by its time in the recording): exit %d\n%s", code, out)
	}
}

// TestTalkLocalFiles captures recordings from files: a video without
// chapters (chunks at the scene cuts), its audio alone with --subs (60 s
// windows snapped to a sentence end), and a WAV file transcribed by a
// stand-in for whisper.cpp (its model weights cannot be had here), whose
// chunks are marked as speech recognition, as check says.
func TestTalkLocalFiles(t *testing.T) {
	corpustest.Slow(t, "runs ffmpeg, tesseract")
	talktest.Need(t, "ffmpeg", "ffprobe", "tesseract", "espeak-ng")
	m := talktest.Make(t)
	dir := t.TempDir()

	// A stand-in whisper-cli: it checks the arguments crossmem passes
	// (whisper.cpp's: -m -f -l -ovtt -of) and that the input is a 16 kHz
	// WAV, and writes a transcript with a misheard word, as ASR does.
	asr := strings.Replace(string(readFile(t, m.VTT)), "Breadth first", "Breath first", 1)
	asrFile := filepath.Join(dir, "asr.vtt")
	os.WriteFile(asrFile, []byte(asr), 0o644)
	model := filepath.Join(dir, "ggml-test.bin")
	os.WriteFile(model, []byte("not a model"), 0o644)
	whisper := filepath.Join(dir, "whisper-cli")
	script := `#!/bin/sh
while [ $# -gt 0 ]; do
  case "$1" in
    -m) model=$2; shift 2;; -f) wav=$2; shift 2;; -l) lang=$2; shift 2;;
    -ovtt) vtt=1; shift;; -of) of=$2; shift 2;;
    *) echo "error: unknown argument: $1" >&2; exit 2;;
  esac
done
[ -f "$model" ] && [ -f "$wav" ] && [ "$vtt" = 1 ] && [ -n "$of" ] && [ "$lang" = en ] || { echo "bad arguments" >&2; exit 3; }
[ "$(head -c 4 "$wav")" = RIFF ] || { echo "not a WAV file" >&2; exit 4; }
[ "$(od -An -tu4 -j24 -N4 "$wav" | tr -d ' ')" = 16000 ] || { echo "not 16 kHz" >&2; exit 5; }
cp ` + asrFile + ` "$of.vtt"
`
	os.WriteFile(whisper, []byte(script), 0o755)
	l := newTalkLib(t, fmt.Sprintf("[talk]\nwhisper = %q\nwhisper_model = %q\n", whisper, model))

	// A video without chapters: one chunk per slide (scene cuts).
	video := filepath.Join(dir, "lecture.mp4")
	copyTalkFile(t, m.Plain, video)
	key := l.capture(t, video, "--subs", m.VTT)
	// Idempotent by content: the same bytes under another name are the
	// same talk, and nothing is written.
	again := filepath.Join(dir, "copy of lecture.mp4")
	copyTalkFile(t, m.Plain, again)
	before := l.files(t)
	if k := l.capture(t, again); k != key || len(l.files(t)) != len(before) {
		t.Errorf("a copy of the file: key %s (want %s), %d files (want %d)", k, key, len(l.files(t)), len(before))
	}
	p := l.paper(t, key)
	if p.Talk.Kind != "local" || p.Talk.SubtitlesFrom != "file" || !strings.HasPrefix(p.Talk.VideoID, "file-") {
		t.Fatalf("talk %+v", p.Talk)
	}
	if data := readFile(t, video); !bytes.Equal(data, readFile(t, m.Plain)) {
		t.Error("the captured file was changed")
	}
	l.must(t, "compile", key)
	n := l.note(t, key)
	if len(n.Chunks) != len(m.Slides) {
		t.Fatalf("%d chunks, want one per slide (%d)", len(n.Chunks), len(m.Slides))
	}
	for i, c := range n.Chunks {
		if !near(c.Media.StartMS, m.Slides[i].StartMS) {
			t.Errorf("chunk %d starts at %d ms, want the slide change at %d ± 500", i, c.Media.StartMS, m.Slides[i].StartMS)
		}
		want := fmt.Sprintf("raw/youtube/%s/%s.mp4#t=%d", p.Talk.VideoID, p.Talk.VideoID, c.Media.StartMS/1000)
		if c.Media.Link != want {
			t.Errorf("chunk %d link %s, want %s", i, c.Media.Link, want)
		}
		if !strings.Contains(strings.ToLower(c.Media.SlideOCR), strings.ToLower(m.Slides[i].Title)) {
			t.Errorf("chunk %d slide text %q lacks %q", i, c.Media.SlideOCR, m.Slides[i].Title)
		}
	}
	out := l.must(t, "search", "queue of the nodes")
	if !strings.Contains(out, "at: 0:19 file://"+filepath.Join(l.home, "raw", "youtube", p.Talk.VideoID, p.Talk.VideoID+".mp4")+"#t=19") {
		t.Errorf("search of a local recording:\n%s", out)
	}

	// Its audio alone: 60 s windows, the boundary after the sentence
	// ending nearest to 60 s.
	key = l.capture(t, m.Audio, "--subs", m.VTT)
	l.must(t, "compile", key)
	n = l.note(t, key)
	best := m.Cues[0].EndMS
	for _, c := range m.Cues {
		if abs64(c.EndMS-60_000) < abs64(best-60_000) {
			best = c.EndMS
		}
	}
	if len(n.Chunks) != 2 || n.Chunks[0].Media.StartMS != 0 || n.Chunks[0].Media.EndMS != best || n.Chunks[1].Media.StartMS != best || !near(n.Chunks[1].Media.EndMS, m.DurationMS) {
		var got []string
		for _, c := range n.Chunks {
			got = append(got, fmt.Sprintf("%d-%d", c.Media.StartMS, c.Media.EndMS))
		}
		t.Errorf("windows %v, want 0-%d and %d-%d", got, best, best, m.DurationMS)
	}

	// A WAV without subtitles: whisper.cpp's transcript, marked ASR.
	key = l.capture(t, m.WAV)
	out = l.must(t, "compile", key)
	if !strings.Contains(out, "speech recognition by whisper.cpp ggml-test.bin") {
		t.Errorf("compile:\n%s", out)
	}
	n = l.note(t, key)
	if tr := n.Front.Transcript; tr == nil || tr.Kind != "asr" || tr.Source != "whisper.cpp" || tr.Model != "whisper.cpp ggml-test.bin" {
		t.Errorf("transcript %+v", n.Front.Transcript)
	}
	for _, c := range n.Chunks {
		if c.Media.Transcript != "asr" || c.Media.ASRModel != "whisper.cpp ggml-test.bin" {
			t.Errorf("chunk %s: %+v", c.ID, c.Media)
		}
	}
	draft := filepath.Join(dir, "asr.md")
	os.WriteFile(draft, []byte(fmt.Sprintf("\"Breath first search visits every node level by level.\" [@%s]\n", key)), 0o644)
	// (exit 1: the WAV has no title tag, a metadata warning)
	out, _, _ = l.run(t, "check", draft)
	if !strings.Contains(out, "1 verified") || !strings.Contains(out, "transcript is speech recognition (whisper.cpp ggml-test.bin), not verbatim speech") {
		t.Errorf("check of a quote from an ASR transcript:\n%s", out)
	}
	out = l.must(t, "search", "breath first")
	if !strings.Contains(out, "transcript: speech recognition by whisper.cpp ggml-test.bin (not the speaker's verbatim words") {
		t.Errorf("search of an ASR transcript:\n%s", out)
	}

	// remove moves the talk's folder to the trash with its note and
	// sidecar; restore brings them back.
	talkDir := filepath.Join(l.home, "raw", "youtube", l.paper(t, key).Talk.VideoID)
	l.must(t, "remove", key)
	if _, err := os.Stat(talkDir); !os.IsNotExist(err) {
		t.Errorf("after remove, %s: %v", talkDir, err)
	}
	l.must(t, "restore", key)
	if _, err := os.Stat(filepath.Join(talkDir, l.paper(t, key).Talk.Audio)); err != nil {
		t.Errorf("after restore: %v", err)
	}

	// Subtitles given later: the same recording with --subs gets them,
	// and its next compile quotes them instead of the ASR transcript.
	out = l.must(t, "capture", m.WAV, "--subs", m.VTT)
	if !strings.Contains(out, "already captured") || !strings.Contains(out, "its transcript is now the subtitles of "+m.VTT+": run crossmem compile "+key) {
		t.Errorf("capture --subs of a talk already captured:\n%s", out)
	}
	l.must(t, "compile", key)
	n = l.note(t, key)
	if tr := n.Front.Transcript; tr == nil || tr.Kind != "subtitles" || n.Chunks[0].Media.Transcript != "subtitles" || !strings.Contains(n.Chunks[0].Text, "Breadth first search") {
		t.Errorf("after adding subtitles: transcript %+v, first chunk %+v %q", n.Front.Transcript, n.Chunks[0].Media, n.Chunks[0].Text)
	}
}

// TestTalkFailures: missing tools are listed all at once and nothing is
// written; a YouTube URL without network says so and writes nothing.
func TestTalkFailures(t *testing.T) {
	corpustest.Slow(t, "runs yt-dlp")
	talktest.Need(t, "yt-dlp", "ffmpeg", "ffprobe")
	m := talktest.Make(t)
	l := newTalkLib(t, "")

	// A PATH with ffmpeg and ffprobe only.
	bin := t.TempDir()
	for _, tool := range []string{"ffmpeg", "ffprobe"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Fatal(err)
		}
		os.Symlink(p, filepath.Join(bin, tool))
	}
	l.env["PATH"] = bin
	out, errOut, code := l.run(t, "capture", "https://youtu.be/aircAruvnKk?t=42")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{
		"crossmem: error: missing required tools for capturing online talks: yt-dlp:",
		"  ✗ yt-dlp — sudo apt-get install yt-dlp or brew install yt-dlp (required): downloads",
		"  ✓ ffmpeg — found at " + filepath.Join(bin, "ffmpeg"),
		"  ✗ tesseract — sudo apt-get install tesseract-ocr or brew install tesseract (optional)",
		"crossmem: hint: install them with: sudo apt-get install yt-dlp (Debian, Ubuntu) or brew install yt-dlp (macOS)",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	// A local recording needs ffprobe only (ffmpeg is for compile: keyframes, audio for whisper.cpp).
	l.env["PATH"] = t.TempDir()
	_, errOut, code = l.run(t, "capture", m.Audio)
	if code != 1 || !strings.Contains(errOut, "missing required tools for capturing recordings: ffprobe") || strings.Contains(errOut, "yt-dlp") {
		t.Errorf("local file without ffmpeg: exit %d\n%s", code, errOut)
	}
	if f := l.files(t); len(f) != 0 {
		t.Errorf("files written: %v\n%s", f, out)
	}

	// No network: every connection is refused (a proxy that is not there).
	l.env["PATH"] = os.Getenv("PATH")
	dead, err := unusedAddr()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy"} {
		t.Setenv(k, "http://"+dead)
	}
	t.Setenv("NO_PROXY", "")
	t.Setenv("no_proxy", "")
	out, errOut, code = l.run(t, "capture", "https://www.youtube.com/watch?v=aircAruvnKk")
	if code != 1 || !strings.Contains(errOut, "could not be reached") || !strings.Contains(errOut, "nothing was written") ||
		!strings.Contains(errOut, "crossmem: hint: check the network connection and run the capture again") {
		t.Errorf("offline: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if f := l.files(t); len(f) != 0 {
		t.Errorf("files written offline: %v", f)
	}
	if entries, _ := os.ReadDir(filepath.Join(l.home, "raw", "youtube")); len(entries) != 0 {
		t.Errorf("raw/youtube holds %d entries after a failed capture", len(entries))
	}
}

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func copyTalkFile(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.WriteFile(dst, readFile(t, src), 0o644); err != nil {
		t.Fatal(err)
	}
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
