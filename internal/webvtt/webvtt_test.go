package webvtt

import (
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestParseVTT(t *testing.T) {
	in := "\uFEFFWEBVTT - a title\nKind: captions\nLanguage: en\n\n" +
		"NOTE a comment\nspanning lines\n\n" +
		"STYLE\n::cue { color: red }\n\n" +
		"intro\n00:00:01.000 --> 00:00:04.500 align:start position:10%\n" +
		"NOTE the difference between\nSTYLE and substance\n\n" +
		"00:04.500 --> 00:06.000\n<v Ann>Hi</v> <v Bob>there</v> &amp; <i>you</i>, 3 &lt; 4\n\n" +
		"00:00:06.000 --> 00:00:08.000\nRegion: a and b\n\n" +
		"00:00:08.000 --> 00:00:09.000\n<c.yellow>word</c><00:00:08.500><c> by word</c>\n\n" +
		"00:00:09.000 --> 00:00:10.000\n \n\n" +
		"01:02:03.4 --> 01:02:05.000\r\nlate\r\n"
	got, err := ParseVTT([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Cue{
		{1000, 4500, []string{"NOTE the difference between", "STYLE and substance"}},
		{4500, 6000, []string{"Hi there & you, 3 < 4"}},
		{6000, 8000, []string{"Region: a and b"}},
		{8000, 9000, []string{"word by word"}},
		{3723400, 3725000, []string{"late"}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("cues (-want +got):\n%s", d)
	}
	if Detect([]byte(in)) != WebVTT {
		t.Error("Detect: not WebVTT")
	}
}

func TestParseSRT(t *testing.T) {
	in := "1\n00:00:01,000 --> 00:00:02,500\n<i>Hello</i>, {\\an8}world\n\n" +
		"3\n00:00:05,000 --> 00:00:06,000\nlast\n\n" +
		"2\n00:00:03,000 --> 00:00:04,000\nsecond line one\nsecond line two\n"
	if Detect([]byte(in)) != SubRip {
		t.Fatal("Detect: not SubRip")
	}
	got, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Cue{
		{1000, 2500, []string{"Hello, world"}},
		{3000, 4000, []string{"second line one", "second line two"}},
		{5000, 6000, []string{"last"}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("cues (-want +got):\n%s", d)
	}
}

func TestParseErrors(t *testing.T) {
	for name, in := range map[string]string{
		"not subtitles": "hello\nworld\n",
		"bad time":      "WEBVTT\n\n00:00:01.000 --> 00:00:0x.000\ntext\n",
		"backwards":     "WEBVTT\n\n00:00:05.000 --> 00:00:01.000\ntext\n",
		"not utf-8":     "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n\xff\n",
		"srt no timing": "1\n00:00:01,000 --> 00:00:02,000\nok\n\n2\nno timing\n",
	} {
		if _, err := Parse([]byte(in)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	_, err := Parse([]byte("WEBVTT\n\n00:00:01.000 --> 00:00:0x.000\ntext\n"))
	var pe *Error
	if !errors.As(err, &pe) || pe.Line != 3 {
		t.Errorf("bad time: error %v, want one on line 3", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v A>hi &amp; bye</v>\n"))
	f.Add([]byte("1\n00:00:01,000 --> 00:00:02,000\n<i>x</i>\n"))
	f.Add([]byte("WEBVTT\n\nNOTE\n\nid\n00:01.000 --> 00:02.000 line:0\nx\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cues, err := Parse(data)
		if err != nil {
			return
		}
		for _, c := range cues {
			if c.EndMS < c.StartMS || len(c.Lines) == 0 {
				t.Fatalf("bad cue %+v", c)
			}
			for _, l := range c.Lines {
				if l == "" || !utf8.ValidString(l) {
					t.Fatalf("bad line %q", l)
				}
			}
		}
	})
}
