package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/crossmem/crossmem/internal/capture"
	"github.com/crossmem/crossmem/internal/compile"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/media"
	"github.com/crossmem/crossmem/internal/metadata"
)

// captureTalkJSON is capture's --json output for a recorded talk.
type captureTalkJSON struct {
	CiteKey  string `json:"cite_key"`
	Existing bool   `json:"existing"`
	// SubtitlesAdded: a talk already captured got the --subs file.
	SubtitlesAdded bool            `json:"subtitles_added,omitempty"`
	VideoID        string          `json:"video_id"`
	Dir            string          `json:"dir"` // the recording's folder
	Sidecar        string          `json:"sidecar"`
	Metadata       metadata.Record `json:"metadata"`
	Talk           *library.Talk   `json:"talk"`
}

// mediaConfig says where the talk tools are: the configuration's paths,
// then the PATH.
func (a *app) mediaConfig() (media.Config, error) {
	cfg, err := a.config()
	if err != nil {
		return media.Config{}, err
	}
	return media.Config{
		Path:    a.io.Getenv("PATH"),
		Whisper: cfg.Whisper, WhisperModel: cfg.WhisperModel, Home: cfg.UserHome,
		Language: cfg.TalkLanguage, OCRLanguage: cfg.OCRLanguage,
	}, nil
}

// captureTalkInput captures one recorded talk (capture.Talk) with the
// capture's flags; logf receives its progress (nil: none).
func (a *app) captureTalkInput(ctx context.Context, o *captureOptions, lib *library.Library, input string, logf func(string, ...any)) (*capture.Result, error) {
	cfg, err := a.config()
	if err != nil {
		return nil, err
	}
	tools, err := a.mediaConfig()
	if err != nil {
		return nil, err
	}
	return capture.Talk(ctx, lib, input, capture.TalkOptions{
		CiteKey: o.citeKey, Pattern: cfg.Pattern, Subs: o.subs, ForceTalk: o.talk,
		Tools: tools, Log: logf,
	})
}

// captureTalk is capture for one recorded talk.
func captureTalk(ctx context.Context, o *captureOptions, input string) error {
	a := o.app
	if o.doi != "" {
		return usageError{errors.New("--doi is for papers; a recorded talk has no DOI")}
	}
	if o.viaBrowser {
		return usageError{errors.New("--via-browser fetches a paper's PDF; a recorded talk is downloaded by yt-dlp (capture it without --via-browser)")}
	}
	lib, err := a.library()
	if err != nil {
		return err
	}
	logf := func(format string, args ...any) {
		if !a.json && !a.quiet {
			fmt.Fprintf(a.io.Out, "[capture] "+format+"\n", args...)
		}
	}
	res, err := a.captureTalkInput(ctx, o, lib, input, logf)
	var oe *capture.OptionError
	if errors.As(err, &oe) {
		if oe.Option == "Subs" {
			return usageError{fmt.Errorf("--subs: %w", oe.Err)}
		}
		return captureUsageError(err)
	}
	if err != nil {
		return err
	}
	p := res.Paper
	dir := lib.TalkDir(p)
	if a.json {
		return a.writeJSON(captureTalkJSON{CiteKey: p.CiteKey, Existing: res.Existing, SubtitlesAdded: res.SubtitlesAdded, VideoID: p.Talk.VideoID, Dir: dir,
			Sidecar: p.SidecarPath, Metadata: p.Metadata, Talk: p.Talk})
	}
	if res.Existing {
		logf("already captured: %s", tildePath(dir))
		if res.SubtitlesAdded {
			logf("its transcript is now the subtitles of %s: run crossmem compile %s", o.subs, p.CiteKey)
		}
	} else {
		for _, w := range p.Metadata.Warnings {
			a.warn("%s", w)
		}
		logf("saved to %s", tildePath(dir+string(filepath.Separator)))
	}
	if a.quiet {
		fmt.Fprintln(a.io.Out, p.CiteKey)
		return nil
	}
	fmt.Fprintf(a.io.Out, "cite_key: %s\n", p.CiteKey)
	return nil
}

// talkCompileOptions are compile's options for a talk: the tools and the
// [compile] progress lines.
func (a *app) talkCompileOptions(say func(format string, args ...any)) (compile.TalkOptions, error) {
	tools, err := a.mediaConfig()
	if err != nil {
		return compile.TalkOptions{}, err
	}
	return compile.TalkOptions{Tools: tools, Log: say}, nil
}
