package cite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCollectKeys(t *testing.T) {
	dir := t.TempDir()
	tex := filepath.Join(dir, "a.tex")
	md := filepath.Join(dir, "b.md")
	empty := filepath.Join(dir, "c.txt")
	os.WriteFile(tex, []byte("\\cite{x2020}\n\\citep{y2021, x2020}\n"), 0o644)
	os.WriteFile(md, []byte("See [@z2022; @y2021].\n"), 0o644)
	os.WriteFile(empty, []byte("Nothing cited.\n"), 0o644)

	keys, drafts, err := CollectKeys([]string{"w2019", tex, md, "x2020", empty, "DBLP:conf/x/Y20"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, k := range keys {
		got = append(got, k.Key+"@"+filepath.Base(k.File)+":"+string(rune('0'+k.Line)))
	}
	want := "w2019@.:0 x2020@a.tex:1 y2021@a.tex:2 z2022@b.md:1 DBLP:conf/x/Y20@.:0"
	if strings.Join(got, " ") != want {
		t.Errorf("keys %v, want %s", got, want)
	}
	if len(drafts) != 3 || len(drafts[2].Citations) != 0 {
		t.Errorf("drafts: %d, the last with %d citations", len(drafts), len(drafts[len(drafts)-1].Citations))
	}

	for _, bad := range []string{"missing.tex", "dir/missing", "not a key"} {
		if _, _, err := CollectKeys([]string{bad}); err == nil || !strings.Contains(err.Error(), "no such draft file, and not a cite key") {
			t.Errorf("%q: err %v", bad, err)
		}
	}
}
