package index

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/note"
	"github.com/crossmem/crossmem/internal/search"
)

// writeTalkNote writes a talk's note with one chunk per text, 30 s each,
// the first with slide text.
func writeTalkNote(t *testing.T, dir, key string, texts ...string) {
	t.Helper()
	n := &note.Note{Front: note.Frontmatter{CiteKey: key, Title: "A recorded talk", CapturedAt: "1", Raw: "raw/youtube/abcDEF12345/abcDEF12345.m4a",
		Parser: note.Parser, Chunks: len(texts), WikiFormat: note.FormatVersion, SourceType: "youtube", VideoID: "abcDEF12345",
		Transcript: &note.Transcript{Kind: "subtitles", Source: "youtube"}}}
	for i, text := range texts {
		m := &chunk.Media{StartMS: int64(i) * 30_000, EndMS: int64(i+1) * 30_000, Transcript: chunk.TranscriptSubtitles,
			Link: fmt.Sprintf("https://youtu.be/abcDEF12345?t=%d", i*30)}
		if i == 0 {
			m.SlideOCR = "Zymurgy Overview"
		}
		n.Chunks = append(n.Chunks, chunk.Chunk{ID: fmt.Sprintf("t%dc1", i*30), Type: "transcript", Text: text,
			TextSHA256: chunk.Hash(text), ByteRange: [2]int{0, len(text)}, Media: m})
	}
	data, err := note.Format(n)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "1_"+key+".md"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// An index of schema 4 (before edited_chunks) or 5 (before talk chunks)
// is migrated on Open to the current schema; the next sync reads every
// note again, so a talk's chunks get their place in the recording, and
// its slide text is searchable.
func TestMigrateToTalkSchema(t *testing.T) {
	for _, from := range []int{4, 5} {
		t.Run(fmt.Sprint("schema", from), func(t *testing.T) {
			home := t.TempDir()
			wiki := filepath.Join(home, "wiki")
			os.MkdirAll(wiki, 0o755)
			writeTalkNote(t, wiki, "lab2024talk", "Fermentation is the subject of this talk.", "The yeast does the work overnight.")
			fi, err := os.Stat(filepath.Join(wiki, "1_lab2024talk.md"))
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(home, FileName)
			db, err := sql.Open("sqlite", "file:"+path)
			if err != nil {
				t.Fatal(err)
			}
			qs := append([]string{}, migrations[:from]...)
			qs = append(qs,
				fmt.Sprintf(`INSERT INTO notes(name, size, mtime_ns, sha256, cite_key, title, authors, year, doi, arxiv_id) VALUES ('1_lab2024talk.md', %d, %d, 'x', 'lab2024talk', '', '', 0, '', '')`, fi.Size(), fi.ModTime().UnixNano()),
				fmt.Sprintf(`PRAGMA user_version = %d`, from))
			for _, q := range qs {
				if _, err := db.Exec(q); err != nil {
					t.Fatal(err)
				}
			}
			db.Close()
			ix, err := Open(path, wiki)
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			var v int
			ix.db.QueryRow(`PRAGMA user_version`).Scan(&v)
			if v != SchemaVersion {
				t.Fatalf("after migration: version %d, want %d", v, SchemaVersion)
			}
			if res, err := ix.Sync(context.Background(), nil); err != nil || res.Updated != 1 {
				t.Fatalf("sync after migration: %+v %v", res, err)
			}
			r := find(t, ix, search.Query{Text: "yeast overnight"})
			if len(r.Hits) != 1 || r.Hits[0].Media == nil || r.Hits[0].Media.StartMS != 30_000 || r.Hits[0].Media.Link != "https://youtu.be/abcDEF12345?t=30" || r.Hits[0].Media.Transcript != "subtitles" {
				t.Fatalf("yeast: %+v", r.Hits)
			}
			r = find(t, ix, search.Query{Text: "zymurgy"})
			if len(r.Hits) != 1 || r.Hits[0].Media == nil || !strings.Contains(r.Hits[0].Media.SlideOCR, "Zymurgy") {
				t.Errorf("slide text zymurgy: %+v", r.Hits)
			}
		})
	}
}
