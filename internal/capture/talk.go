package capture

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/crossmem/crossmem/internal/search"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/crossmem/crossmem/internal/citekey"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/identifier"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/media"
	"github.com/crossmem/crossmem/internal/metadata"
	"github.com/crossmem/crossmem/internal/webvtt"
)

// Metadata sources of a talk's record.
const (
	SourceYTDLP     = "yt-dlp"     // yt-dlp's info JSON
	SourceMediaTags = "media-tags" // the recording's own tags (ffprobe)
)

// TalkOptions configures the capture of a recorded talk.
type TalkOptions struct {
	CiteKey string // --cite-key
	// Pattern is the configured cite key pattern: the default
	// (citekey.Default() or "") gives the seed's talk key
	// (citekey.Talk); any other is evaluated with the channel as author.
	Pattern string
	// Subs is a subtitle file (WebVTT or SubRip) to use as the transcript
	// (--subs): the human subtitles of the recording.
	Subs string
	// ForceTalk captures any http(s) URL through yt-dlp (--talk), not only
	// YouTube and media file URLs.
	ForceTalk bool
	// Tools says where to find yt-dlp, ffmpeg and the optional tools.
	Tools media.Config
	Now   func() time.Time
	Log   func(format string, args ...any)
}

// ErrNotTalk is returned by Talk for input that is not a recording.
var ErrNotTalk = errors.New("not a recording")

// IsTalkInput reports whether input is one Talk captures: a YouTube URL, a
// media URL, an existing media file, or (force) any http(s) URL.
func IsTalkInput(input string, force bool) bool {
	id, err := identifier.Classify(input, nil)
	if err == nil && id.IsTalk() {
		return true
	}
	return force && identifier.IsWebURL(input)
}

// Talk captures a recorded talk into lib: a YouTube video, any page yt-dlp
// reads (o.ForceTalk, or a URL of a media file), or a local recording. The
// files go to raw/youtube/<video id>/, the sidecar (with its Talk field)
// to raw/<unix-ts>_<cite_key>.meta.json. It is idempotent by video id
// (YouTube, URLs) and content hash (files): a second capture returns the
// existing entry and writes nothing, unless it brings subtitles (o.Subs),
// which are added to it (Result.SubtitlesAdded).
//
// Before anything is written the tools are checked (a *media.MissingError
// listing every tool); a download that cannot reach the site wraps
// media.ErrNetwork (with hint CheckNetworkTalk). Whatever fails, nothing is
// left in the library: the download happens in a staging folder that is
// moved into place with the sidecar under the library lock.
func Talk(ctx context.Context, lib *library.Library, input string, o TalkOptions) (*Result, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = func(string, ...any) {}
	}
	if o.CiteKey != "" {
		if err := citekey.Valid(o.CiteKey); err != nil {
			return nil, &OptionError{Option: "CiteKey", Err: err}
		}
	}
	id, err := identifier.Classify(input, nil)
	if err != nil || !id.IsTalk() {
		if !(o.ForceTalk && identifier.IsWebURL(input)) {
			if err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("%s: %w", input, ErrNotTalk)
		}
		id = identifier.ID{Kind: identifier.KindMediaURL, Input: strings.TrimSpace(input), URL: strings.TrimSpace(input)}
	}
	var subs []byte
	if o.Subs != "" {
		if subs, err = readSubs(o.Subs); err != nil {
			return nil, err
		}
	}
	t := &talkRun{lib: lib, o: o, id: id, subs: subs}
	// The video id first: a capture of a talk already in the library
	// needs no tools and no network.
	switch id.Kind {
	case identifier.KindYouTube:
		t.videoID, t.kind, t.url = id.VideoID, "youtube", "https://www.youtube.com/watch?v="+id.VideoID
		o.Log("YouTube video: %s", id.VideoID)
	case identifier.KindMediaURL:
		sum := sha256.Sum256([]byte(id.URL))
		t.videoID, t.kind, t.url = "url-"+hex.EncodeToString(sum[:8]), "url", id.URL
		o.Log("Video page: %s", id.URL)
	case identifier.KindMediaFile:
		sum, err := fileSHA256(id.Path)
		if err != nil {
			return nil, err
		}
		t.fileSum = sum
		t.videoID, t.kind = "file-"+sum[:16], "local"
		o.Log("Local recording: %s", absPath(id.Path))
	}
	if p := t.existing(); p != nil {
		if subs != nil {
			return t.addSubtitles(ctx)
		}
		return &Result{Paper: p, Existing: true, Input: id}, nil
	}
	need := media.Need{Download: t.kind != "local", Probe: true}
	tools, _, err := media.Find(o.Tools, need)
	if err != nil {
		return nil, err
	}
	t.tools = tools
	for _, d := range lib.TidyTalkStaging(6*time.Hour, o.Now()) {
		o.Log("removed %s, left by an interrupted capture", d)
	}
	if err := os.MkdirAll(lib.TalksDir(), 0o755); err != nil {
		return nil, err
	}
	staging, err := os.MkdirTemp(lib.TalksDir(), ".tmp-"+t.videoID+"-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(staging) // after a successful capture it is gone already
	t.staging = staging
	if err := t.fetch(ctx); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return t.store(ctx)
}

type talkRun struct {
	lib      *library.Library
	o        TalkOptions
	id       identifier.ID
	tools    *media.Tools
	subs     []byte
	videoID  string
	kind     string // "youtube", "url", "local"
	url      string
	fileSum  string
	staging  string
	talk     library.Talk
	rec      metadata.Record
	warnings []string
}

// addSubtitles stores the --subs file with a talk already captured (as
// <video id>.subs.vtt|srt, replacing an earlier one) and names it in the
// sidecar as the transcript, under the library lock: a recording
// captured without subtitles gets them without being captured again.
func (t *talkRun) addSubtitles(ctx context.Context) (*Result, error) {
	unlock, err := t.lib.Lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	p := t.existing() // again, under the lock: removed meanwhile?
	if p == nil {
		return nil, fmt.Errorf("%s: the talk was removed while its subtitles were added; capture it again", t.videoID)
	}
	dir := t.lib.TalkDir(p)
	if dir == "" {
		return nil, fmt.Errorf("%s: invalid video id %q in its sidecar", p.CiteKey, p.Talk.VideoID)
	}
	name := t.videoID + ".subs" + subsExt(t.subs)
	if err := library.WriteFileAtomic(filepath.Join(dir, name), t.subs, 0o644); err != nil {
		return nil, fmt.Errorf("write the subtitles of %s: %w", p.CiteKey, err)
	}
	old := *p.Talk
	p.Talk.Subtitles, p.Talk.SubtitlesFrom, p.Talk.SubtitleLang = name, "file", ""
	if err := t.lib.WriteSidecar(p); err != nil {
		*p.Talk = old
		return nil, fmt.Errorf("write sidecar: %w", err)
	}
	t.o.Log("subtitles added: %s", name)
	return &Result{Paper: p, Existing: true, Input: t.id, SubtitlesAdded: true}, nil
}

// subsExt is the extension of a subtitle file by its content.
func subsExt(data []byte) string {
	if webvtt.Detect(data) == webvtt.SubRip {
		return ".srt"
	}
	return ".vtt"
}

// existing returns the paper that already has this recording.
func (t *talkRun) existing() *library.Paper {
	papers, _ := t.lib.Papers()
	return library.FindTalk(papers, t.videoID)
}

func readSubs(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, &OptionError{Option: "Subs", Err: fmt.Errorf("subtitle file %s: %w", path, err)}
	}
	if fi.Size() > webvtt.MaxBytes {
		return nil, &OptionError{Option: "Subs", Err: fmt.Errorf("subtitle file %s is larger than %d MB", path, webvtt.MaxBytes>>20)}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &OptionError{Option: "Subs", Err: err}
	}
	cues, err := webvtt.Parse(data)
	if err != nil {
		return nil, &OptionError{Option: "Subs", Err: fmt.Errorf("subtitle file %s: %w", path, err)}
	}
	if len(cues) == 0 {
		return nil, &OptionError{Option: "Subs", Err: fmt.Errorf("subtitle file %s has no cues", path)}
	}
	return data, nil
}

// fetch fills the staging folder and t.talk, t.rec.
func (t *talkRun) fetch(ctx context.Context) error {
	id := t.videoID
	t.talk = library.Talk{VideoID: id, Kind: t.kind, URL: t.url}
	var probeFile string
	switch t.kind {
	case "local":
		ext := strings.ToLower(filepath.Ext(t.id.Path))
		name := id + ext
		if err := copyFile(filepath.Join(t.staging, name), t.id.Path); err != nil {
			return fmt.Errorf("copy %s: %w", t.id.Path, err)
		}
		t.talk.Audio, t.talk.MediaSHA256, t.talk.OriginalPath = name, t.fileSum, absPath(t.id.Path)
		probeFile = filepath.Join(t.staging, name)
	default:
		d, err := t.tools.Download(ctx, t.url, t.staging, id, func(step string) { t.o.Log("%s", step) })
		if err != nil {
			if errors.Is(err, media.ErrNetwork) {
				return hint.Wrap(fmt.Errorf("download %s: %w (nothing was written)", t.url, err), hint.Action{Kind: hint.CheckNetworkTalk, URL: t.url})
			}
			return err
		}
		t.talk.Audio, t.talk.Video, t.talk.Info = d.Audio, d.Video, d.InfoFile
		if d.Subtitles != "" {
			t.talk.Subtitles, t.talk.SubtitleLang = d.Subtitles, d.SubtitleLang
			t.talk.SubtitlesFrom = "human"
			if d.SubtitlesAuto {
				t.talk.SubtitlesFrom = "auto"
			}
		}
		sum, err := fileSHA256(filepath.Join(t.staging, d.Audio))
		if err != nil {
			return err
		}
		t.talk.MediaSHA256 = sum
		probeFile = filepath.Join(t.staging, d.Audio)
		if d.Video != "" {
			probeFile = filepath.Join(t.staging, d.Video)
		}
		t.fromInfo(d.Info)
	}
	if t.subs != nil {
		name := id + ".subs" + subsExt(t.subs)
		if err := os.WriteFile(filepath.Join(t.staging, name), t.subs, 0o644); err != nil {
			return err
		}
		t.talk.Subtitles, t.talk.SubtitlesFrom, t.talk.SubtitleLang = name, "file", ""
	}
	pr, err := t.tools.Probe(ctx, probeFile)
	if err != nil {
		return err
	}
	if t.kind == "local" {
		t.fromTags(pr)
		if pr.HasVideo {
			t.talk.Video = t.talk.Audio
		}
	} else {
		t.mergeTags(pr)
	}
	if t.talk.DurationMS == 0 {
		t.talk.DurationMS = pr.DurationMS
	}
	if len(t.talk.Chapters) == 0 {
		for _, c := range pr.Chapters {
			t.talk.Chapters = append(t.talk.Chapters, library.Chapter{Title: c.Title, StartMS: c.StartMS, EndMS: c.EndMS})
		}
	}
	t.o.Log("title: %s", t.rec.Title)
	if t.talk.Channel != "" {
		t.o.Log("channel: %s", t.talk.Channel)
	}
	if t.talk.UploadDate != "" {
		t.o.Log("upload date: %s", t.talk.UploadDate)
	}
	t.o.Log("duration: %s, %d chapters", search.Clock(t.talk.DurationMS), len(t.talk.Chapters))
	switch {
	case t.talk.Subtitles == "":
		t.o.Log("subtitles: none")
	case t.talk.SubtitlesFrom == "auto":
		t.o.Log("subtitles: automatic captions (%s) only", t.talk.SubtitleLang)
	default:
		t.o.Log("subtitles: %s", t.talk.Subtitles)
	}
	return nil
}

// fromInfo sets the record from yt-dlp's info JSON.
func (t *talkRun) fromInfo(in *media.Info) {
	channel := firstOf(in.Channel, in.Uploader)
	t.talk.Channel = channel
	t.talk.UploadDate = isoDate(in.UploadDate)
	if t.talk.UploadDate == "" && in.Timestamp > 0 {
		t.talk.UploadDate = time.Unix(int64(in.Timestamp), 0).UTC().Format("2006-01-02")
	}
	t.talk.DurationMS = int64(in.Duration * 1000)
	t.talk.Tags = in.Tags
	for _, c := range in.Chapters {
		t.talk.Chapters = append(t.talk.Chapters, library.Chapter{Title: c.Title, StartMS: c.StartMS, EndMS: c.EndMS})
	}
	if t.kind == "youtube" {
		t.url = "https://www.youtube.com/watch?v=" + t.videoID
	} else if in.WebpageURL != "" && identifier.IsWebURL(in.WebpageURL) {
		t.url = in.WebpageURL
	}
	t.talk.URL = t.url
	publisher := "YouTube"
	if t.kind != "youtube" {
		publisher = ""
		// A site's own extractor is named for it ("Vimeo"); the generic
		// ones name no publisher.
		if k, lk := in.ExtractorKey, strings.ToLower(in.ExtractorKey); k != "" && !strings.Contains(lk, "generic") && !strings.Contains(lk, "embed") && lk != "jsonld" {
			publisher = k
		}
	}
	src := []string{SourceYTDLP}
	title := in.Title
	if strings.EqualFold(in.Extractor, "html5") {
		// yt-dlp numbers the media of a page: "<page title> (1)".
		title = html5Number.ReplaceAllString(title, "")
	}
	t.rec = metadata.Record{
		Type:      "motion_picture",
		Title:     title,
		Issued:    parseISO(t.talk.UploadDate),
		Publisher: publisher,
		Genre:     "Video",
		URL:       t.url,
		Abstract:  in.Description,
		Sources:   src,
		FieldSources: map[string][]string{
			metadata.FieldTitle: src, metadata.FieldURL: src,
		},
	}
	if channel != "" {
		t.rec.Authors = []metadata.Name{{Literal: channel}}
		t.rec.FieldSources[metadata.FieldAuthors] = src
	}
	if !t.rec.Issued.IsZero() {
		t.rec.FieldSources[metadata.FieldIssued] = src
	}
	if publisher != "" {
		t.rec.FieldSources[metadata.FieldPublisher] = src
	}
}

var html5Number = regexp.MustCompile(` \(\d+\)$`)

// mergeTags completes a downloaded talk's record with the recording's own
// tags: the channel from its artist when the site names none, the date
// from its date tag when the site is not YouTube (another site's date is
// the file's Last-Modified time), the title when the page has none. A tag
// that disagrees with the site is a warning.
func (t *talkRun) mergeTags(pr *media.Probe) {
	src := []string{SourceMediaTags}
	used := false
	if t.talk.Channel == "" {
		if a := strings.TrimSpace(firstOf(pr.Tags["artist"], pr.Tags["album_artist"], pr.Tags["author"])); a != "" {
			t.talk.Channel = a
			t.rec.Authors = []metadata.Name{{Literal: a}}
			t.rec.FieldSources[metadata.FieldAuthors] = src
			used = true
		}
	}
	if d := isoDate(firstOf(pr.Tags["date"], pr.Tags["creation_time"])); d != "" && t.kind != "youtube" && d != t.talk.UploadDate {
		t.talk.UploadDate = d
		t.rec.Issued = parseISO(d)
		t.rec.FieldSources[metadata.FieldIssued] = src
		used = true
	}
	if tag := strings.TrimSpace(pr.Tags["title"]); tag != "" {
		switch {
		case t.rec.Title == "":
			t.rec.Title = tag
			t.rec.FieldSources[metadata.FieldTitle] = src
			used = true
		case !strings.EqualFold(strings.Join(strings.Fields(tag), " "), strings.Join(strings.Fields(t.rec.Title), " ")):
			t.warnings = append(t.warnings, fmt.Sprintf("the recording's title tag %q differs from the page's title %q; the page's is used", tag, t.rec.Title))
		}
	}
	if used {
		t.rec.Sources = append(t.rec.Sources, SourceMediaTags)
	}
}

// fromTags sets the record of a local recording from its tags (title,
// artist or album_artist, date), the file name standing in for a title.
func (t *talkRun) fromTags(pr *media.Probe) {
	src := []string{SourceMediaTags}
	title := strings.TrimSpace(pr.Tags["title"])
	fs := map[string][]string{}
	if title == "" {
		base := filepath.Base(t.id.Path)
		title = strings.TrimSuffix(base, filepath.Ext(base))
		t.warnings = append(t.warnings, "the recording has no title tag; its file name is the title")
	} else {
		fs[metadata.FieldTitle] = src
	}
	channel := strings.TrimSpace(firstOf(pr.Tags["artist"], pr.Tags["album_artist"], pr.Tags["author"], pr.Tags["composer"]))
	t.talk.Channel = channel
	date := firstOf(pr.Tags["date"], pr.Tags["creation_time"])
	t.talk.UploadDate = isoDate(date)
	genre := "Video"
	if !pr.HasVideo {
		genre = "Audio"
	}
	t.rec = metadata.Record{
		Type:     "motion_picture",
		Title:    title,
		Issued:   parseISO(t.talk.UploadDate),
		Genre:    genre,
		Abstract: firstOf(pr.Tags["description"], pr.Tags["comment"]),
		Sources:  src,
	}
	if channel != "" {
		t.rec.Authors = []metadata.Name{{Literal: channel}}
		fs[metadata.FieldAuthors] = src
	}
	if !t.rec.Issued.IsZero() {
		fs[metadata.FieldIssued] = src
	}
	t.rec.FieldSources = fs
}

// store moves the staging folder into place and writes the sidecar, under
// the library lock.
func (t *talkRun) store(ctx context.Context) (*Result, error) {
	t.rec.Warnings = append(t.rec.Warnings, t.warnings...)
	if t.kind != "local" {
		now := t.o.Now().UTC()
		t.rec.Accessed = &metadata.Date{Year: now.Year(), Month: int(now.Month()), Day: now.Day()}
	}
	if t.talk.DurationMS > 0 {
		t.rec.Dimensions = search.Clock(t.talk.DurationMS)
	}
	t.rec.Normalize()
	unlock, err := t.lib.Lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if p := t.existing(); p != nil { // captured meanwhile by another process
		return &Result{Paper: p, Existing: true, Input: t.id}, nil
	}
	papers, _ := t.lib.Papers()
	key := t.o.CiteKey
	if key != "" {
		if q := library.Owner(papers, key); q != nil {
			return nil, hint.Wrap(fmt.Errorf("%w: %s is taken by %s", library.ErrKeyInUse, key, q.CiteKey), hint.Action{Kind: hint.OtherCiteKey})
		}
	} else {
		if key, err = t.makeKey(); err != nil {
			return nil, err
		}
		if key, err = citekey.Unique(key, func(k string) bool { return library.KeyTaken(papers, k) }); err != nil {
			return nil, err
		}
	}
	now := t.o.Now()
	p, err := t.lib.NewPaper(key, now.Unix())
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(t.lib.TalksDir(), t.videoID)
	if _, err := os.Stat(dir); err == nil {
		// Files of a talk whose sidecar is gone (removed by hand): replaced.
		if err := os.RemoveAll(dir); err != nil {
			return nil, err
		}
	}
	if err := os.Rename(t.staging, dir); err != nil {
		return nil, fmt.Errorf("move the recording into %s: %w", dir, err)
	}
	talk := t.talk
	p.Sidecar = library.Sidecar{
		CiteKey:    key,
		Title:      t.rec.Title,
		Authors:    t.rec.AuthorDisplay(),
		Year:       t.rec.Year(),
		Container:  t.rec.ContainerTitle,
		Sources:    t.rec.Sources,
		Reconciled: false,
		Warnings:   t.rec.Warnings,
		CapturedAt: strconv.FormatInt(now.Unix(), 10),
		Source:     library.Source{Kind: t.kind, Input: t.id.Input, URL: t.url},
		Metadata:   t.rec,
		Talk:       &talk,
	}
	if p.Warnings == nil {
		p.Warnings = []string{}
	}
	if err := t.lib.WriteSidecar(p); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("write sidecar: %w", err)
	}
	return &Result{Paper: p, Input: t.id}, nil
}

// makeKey makes the cite key: the seed's talk key, or the configured
// pattern with the channel as author.
func (t *talkRun) makeKey() (string, error) {
	if t.o.Pattern == "" || t.o.Pattern == citekey.Default() {
		return citekey.Talk(t.talk.Channel, t.rec.Year(), t.rec.Title), nil
	}
	return citekey.Make(t.o.Pattern, &t.rec)
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// copyFile copies src to dst (a new file), never touching src.
func copyFile(dst, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

func firstOf(vals ...string) string {
	for _, v := range vals {
		if strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// isoDate turns yt-dlp's YYYYMMDD, an ISO date or an ISO time stamp into
// YYYY-MM-DD (or YYYY, YYYY-MM); "" when it is none of those.
func isoDate(s string) string {
	s = strings.TrimSpace(s)
	if len(s) == 8 && isDigits(s) {
		return s[:4] + "-" + s[4:6] + "-" + s[6:]
	}
	if len(s) >= 10 && isDigits(s[:4]) && s[4] == '-' && isDigits(s[5:7]) && s[7] == '-' && isDigits(s[8:10]) {
		return s[:10]
	}
	if len(s) == 7 && isDigits(s[:4]) && s[4] == '-' && isDigits(s[5:]) {
		return s
	}
	if len(s) == 4 && isDigits(s) {
		return s
	}
	return ""
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

func parseISO(s string) metadata.Date {
	var d metadata.Date
	parts := strings.Split(s, "-")
	if len(parts) > 0 {
		d.Year, _ = strconv.Atoi(parts[0])
	}
	if len(parts) > 1 {
		d.Month, _ = strconv.Atoi(parts[1])
	}
	if len(parts) > 2 {
		d.Day, _ = strconv.Atoi(parts[2])
	}
	if d.Month < 1 || d.Month > 12 {
		d.Month, d.Day = 0, 0
	}
	if d.Day < 1 || d.Day > 31 {
		d.Day = 0
	}
	return d
}
