package citation

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/csl"
)

func cslDate(parts ...string) *csl.Date {
	var ns []csl.Number
	for _, p := range parts {
		ns = append(ns, csl.Number(p))
	}
	return &csl.Date{DateParts: [][]csl.Number{ns}}
}

// videoItems are online videos and recordings as capture records them
// (CSL motion_picture: the channel as a literal author, genre, platform as
// publisher, upload date, running time, access date), with the gaps real
// ones have: no date, no platform, no URL, no author, a title ending in
// punctuation or holding quotes.
func videoItems() []csl.Item {
	lit := func(s string) []csl.Name { return []csl.Name{{Literal: s}} }
	return []csl.Item{
		{ID: "3blue1brown2017neural", Type: "motion_picture", Title: "But what is a neural network? | Deep learning chapter 1", Author: lit("3Blue1Brown"),
			Issued: cslDate("2017", "10", "5"), Accessed: cslDate("2026", "4", "16"), Genre: "Video", Publisher: "YouTube",
			URL: "https://www.youtube.com/watch?v=aircAruvnKk", Dimensions: "18:39"},
		{ID: "andrejkarpathy2023gpt", Type: "motion_picture", Title: "Let's build GPT: from scratch, in code, spelled out.", Author: lit("Andrej Karpathy"),
			Issued: cslDate("2023", "1", "17"), Accessed: cslDate("2026", "4", "2"), Genre: "Video", Publisher: "YouTube",
			URL: "https://www.youtube.com/watch?v=kCc8FmEb1nY", Dimensions: "1:56:20"},
		{ID: "adalab2024graph", Type: "motion_picture", Title: "Graph Search in Practice", Author: lit("Ada Lab"),
			Issued: cslDate("2024", "5", "1"), Accessed: cslDate("2026", "11", "25"), Genre: "Video",
			URL: "http://127.0.0.1:8765/talk.html", Dimensions: "0:24"},
		{ID: "lecture01", Type: "motion_picture", Title: "lecture01", Genre: "Audio", Dimensions: "1:20"},
		{ID: "somechannel", Type: "motion_picture", Title: "Untitled talk", Author: lit("Some Channel"), Genre: "Video", Publisher: "YouTube",
			URL: "https://www.youtube.com/watch?v=xxxxxxxxxxx", Accessed: cslDate("2026", "1", "2")},
		{ID: "z2020talk", Type: "motion_picture", Title: `A talk on "quotes" and the Dragon's Egg`, Author: lit("Z"),
			Issued: cslDate("2020", "3"), Genre: "Video", Publisher: "Vimeo", URL: "https://vimeo.com/1"},
		{ID: "mit2019lecture", Type: "motion_picture", Title: "Lecture 1: Algorithmic Thinking, Peak Finding", Author: lit("MIT OpenCourseWare"),
			Issued: cslDate("2013", "1", "14"), Accessed: cslDate("2026", "2", "28"), Genre: "Video", Publisher: "YouTube",
			URL: "https://www.youtube.com/watch?v=HtSuA80QTyo", Dimensions: "53:22"},
	}
}

// TestVideoOracle renders online videos in every style with citeproc-js
// and the official CSL styles (test/csl-oracle, installed by
// scripts/test.sh with npm ci) and requires crossmem's output to be the
// same, entry for entry.
func TestVideoOracle(t *testing.T) {
	corpustest.Slow(t, "runs node")
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH: this test runs citeproc-js (then run npm ci in test/csl-oracle)")
	}
	dir := filepath.Join(corpustest.Root(t), "test", "csl-oracle")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "citeproc", "package.json")); err != nil {
		t.Skipf("test/csl-oracle/node_modules lacks citeproc: run npm ci in test/csl-oracle (%v)", err)
	}
	cslDir := corpustest.Dir(t, "csl")
	items := videoItems()
	data, err := json.Marshal(items)
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(t.TempDir(), "videos.json")
	if err := os.WriteFile(in, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(dir, "oracle.js"), in, cslDir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("oracle.js: %v\n%s", err, stderr.String())
	}
	var oracle map[string]map[string]string
	if err := json.Unmarshal(out, &oracle); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, it := range items {
		for st, name := range oracleStyle {
			want := oracle[it.ID][name]
			if st == IEEE {
				want = strings.TrimPrefix(want, "[1] ")
			}
			got, err := Format(it, st)
			if err != nil {
				t.Errorf("%s %s: %v", st, it.ID, err)
				continue
			}
			if got != want {
				t.Errorf("%s %s:\n got %s\nwant %s", st, it.ID, got, want)
			}
			checked++
		}
	}
	if checked != len(items)*len(oracleStyle) {
		t.Errorf("checked %d entries, want %d", checked, len(items)*len(oracleStyle))
	}
}

// TestVideoBibTeX checks the seed's @misc entry and the BibLaTeX @video
// entry of a YouTube video.
func TestVideoBibTeX(t *testing.T) {
	it := videoItems()[0]
	got, err := Format(it, BibTeX)
	if err != nil {
		t.Fatal(err)
	}
	want := `@misc{3blue1brown2017neural,
  author = {{3Blue1Brown}},
  title = {But what is a neural network? | {Deep} learning chapter 1},
  year = {2017},
  month = oct,
  howpublished = {\url{https://www.youtube.com/watch?v=aircAruvnKk}},
  note = {[Video]. YouTube. Accessed: 2026-04-16. Duration: 18:39}
}`
	if got != want {
		t.Errorf("BibTeX:\n%s\nwant\n%s", got, want)
	}
	got, err = Format(it, BibLaTeX)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"@video{3blue1brown2017neural,", "date = {2017-10-05}", "organization = {YouTube}", "urldate = {2026-04-16}", "url = {https://www.youtube.com/watch?v=aircAruvnKk}"} {
		if !strings.Contains(got, f) {
			t.Errorf("BibLaTeX lacks %q:\n%s", f, got)
		}
	}
}
