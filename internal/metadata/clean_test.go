package metadata

import "testing"

func TestCleanText(t *testing.T) {
	for in, want := range map[string]string{
		"Plain title":                     "Plain title",
		"NUL\x00 BEL\x07 ESC\x1b DEL\x7f": "NUL BEL ESC DEL",
		"evil\u202Egnp.exe":               "evilgnp.exe",
		"\ufeffBOM \u2066iso\u2069":       "BOM iso",
		"C1\u0085\u009b":                  "C1",
		"tab\tline\nkept":                 "tab\tline\nkept",
		"bad \xff utf8":                   "bad \uFFFD utf8",
		"ZWJ 👩\u200d💻 and ZWNJ می\u200cخواهم": "ZWJ 👩\u200d💻 and ZWNJ می\u200cخواهم",
	} {
		if got := CleanText(in); got != want {
			t.Errorf("CleanText(%q) = %q, want %q", in, got, want)
		}
	}
	r := &Record{Title: "T\x00itle\u202e", Authors: []Name{{Family: "Do\x07e", Given: "J\u200f"}}, Warnings: []string{"w\x1b"}}
	r.Normalize()
	if r.Title != "Title" || r.Authors[0].Family != "Doe" || r.Authors[0].Given != "J" || r.Warnings[0] != "w" {
		t.Errorf("Normalize left %+v", r)
	}
}
