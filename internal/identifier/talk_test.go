package identifier

import "testing"

func TestParseYouTube(t *testing.T) {
	for in, want := range map[string]struct {
		id string
		t  int
	}{
		"https://www.youtube.com/watch?v=aircAruvnKk":                {"aircAruvnKk", 0},
		"https://youtube.com/watch?v=aircAruvnKk&t=90":               {"aircAruvnKk", 90},
		"https://m.youtube.com/watch?feature=share&v=aircAruvnKk":    {"aircAruvnKk", 0},
		"https://youtu.be/aircAruvnKk?t=1m30s":                       {"aircAruvnKk", 90},
		"youtu.be/aircAruvnKk":                                       {"aircAruvnKk", 0},
		"https://www.youtube.com/shorts/abcDEF12345":                 {"abcDEF12345", 0},
		"https://www.youtube.com/live/abc_DEF-123?si=x&t=1h2m3s":     {"abc_DEF-123", 3723},
		"https://www.youtube-nocookie.com/embed/aircAruvnKk?start=5": {"aircAruvnKk", 5},
		"https://www.youtube.com/watch?v=aircAruvnKk#t=42":           {"aircAruvnKk", 42},
	} {
		id, ts, ok := ParseYouTube(in)
		if !ok || id != want.id || ts != want.t {
			t.Errorf("ParseYouTube(%q) = %q, %d, %v; want %q, %d", in, id, ts, ok, want.id, want.t)
		}
		c, err := Classify(in, func(string) bool { return false })
		if err != nil || c.Kind != KindYouTube || c.VideoID != want.id {
			t.Errorf("Classify(%q) = %+v, %v", in, c, err)
		}
	}
	for _, in := range []string{
		"https://www.youtube.com/playlist?list=PLx", "https://www.youtube.com/@3blue1brown",
		"https://youtu.be/short", "https://www.youtube.com/watch?v=aircAruvnKk123", "https://notyoutube.com/watch?v=aircAruvnKk",
	} {
		if _, _, ok := ParseYouTube(in); ok {
			t.Errorf("ParseYouTube(%q) accepted", in)
		}
	}
}

func TestClassifyMedia(t *testing.T) {
	exists := func(p string) bool { return p == "talk.MP4" || p == "paper.pdf" }
	for in, want := range map[string]Kind{
		"talk.MP4":                          KindMediaFile,
		"paper.pdf":                         KindLocalPDF,
		"https://example.org/a/talk.webm":   KindMediaURL,
		"http://127.0.0.1:8080/x.m4a?tok=1": KindMediaURL,
		"https://example.org/paper.pdf":     KindPDFURL,
	} {
		id, err := Classify(in, exists)
		if err != nil || id.Kind != want {
			t.Errorf("Classify(%q) = %v, %v; want %v", in, id.Kind, err, want)
		}
		if id.IsTalk() != (want == KindMediaFile || want == KindMediaURL) {
			t.Errorf("%q IsTalk = %v", in, id.IsTalk())
		}
	}
	if _, err := Classify("talk.mp4", exists); err == nil {
		t.Error("a missing talk.mp4 was classified")
	}
}
