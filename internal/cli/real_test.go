package cli_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/enrich"
	"github.com/crossmem/crossmem/internal/note"
	"github.com/crossmem/crossmem/internal/ollamatest"
)

// The acceptance run of crossmem enrich, end to end: the crossmem binary
// (built here, so that SIGINT is handled as a user's Ctrl-C is) against a
// real Ollama with a tiny generated model, on a corpus paper. Requests are
// counted by a proxy in front of the server. The model's answers are
// noise: model quality is not tested.
func TestRealEnrichCLI(t *testing.T) {
	s := ollamatest.Start(t, ollamatest.Options{NumParallel: 2})
	s.ChatModel(t, "tiny", 1)
	proxy := s.Proxy(t)
	warmPDFium(t)

	work := t.TempDir()
	bin := corpustest.Binary(t)
	cache := filepath.Join(work, "cache")
	os.MkdirAll(cache, 0o755)
	if err := os.Symlink(wazeroDir, filepath.Join(cache, "wazero")); err != nil {
		t.Fatal(err)
	}
	config := "[llm]\nmodel = \"tiny\"\ntemperature = 0.8\nconcurrency = 2\n"
	if err := os.WriteFile(filepath.Join(work, "config.toml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(),
		"CROSSMEM_HOME="+filepath.Join(work, "home"), "CROSSMEM_CONFIG="+filepath.Join(work, "config.toml"),
		"CROSSMEM_CACHE="+cache, "OLLAMA_HOST="+proxy.Addr)
	for k, v := range apiEnv(t) {
		env = append(env, k+"="+v)
	}
	command := func(args ...string) *exec.Cmd {
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		return cmd
	}
	run := func(args ...string) []byte {
		t.Helper()
		var stdout, stderr bytes.Buffer
		cmd := command(args...)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("crossmem %s: %v\n%s%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
		}
		return stdout.Bytes()
	}

	const key = "shen2023summarization"
	run("capture", corpustest.Dir(t, "pdf", "pm_2304.02623v1.pdf"), "--cite-key", key)
	run("compile", key)
	notePath, _ := filepath.Glob(filepath.Join(work, "home", "wiki", "*_"+key+".md"))
	if len(notePath) != 1 {
		t.Fatalf("notes: %v", notePath)
	}
	compiled := readNote(t, notePath[0])
	texts := map[string]bool{}
	furniture := 0
	for _, c := range compiled.Chunks {
		if enrich.Annotatable(c.Type) && c.Text != "" { // a figure without a caption has no text to ask about
			texts[c.TextSHA256] = true
		} else {
			furniture++
		}
	}
	total := len(texts)
	if total < 10 || furniture == 0 {
		t.Fatalf("the paper has %d texts to ask about and %d chunks not to; pick a paper with both", total, furniture)
	}

	type enrichOut struct {
		Asked, Answered, Failed, Stored, Requests int
		Interrupted                               bool
		ChunksPerSecond                           float64 `json:"chunks_per_second"`
	}
	// Interrupted halfway, as Ctrl-C does.
	var stdout, stderr bytes.Buffer
	cmd := command("enrich", "--json", key)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	proc := cmd.Process
	proxy.OnCall(func(n int64) {
		if n == int64(total/2) {
			proc.Signal(os.Interrupt)
		}
	})
	err := cmd.Wait()
	proxy.OnCall(nil)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("interrupted enrich: %v (want exit 130)\n%s", err, stderr.String())
	}
	var first enrichOut
	if err := json.Unmarshal(stdout.Bytes(), &first); err != nil {
		t.Fatalf("--json output of the interrupted run: %v\n%s", err, stdout.String())
	}
	if !first.Interrupted || first.Answered == 0 || first.Answered >= total || !strings.Contains(stderr.String(), "crossmem: hint: run crossmem enrich "+key+" again") {
		t.Fatalf("interrupted run: %+v\n%s", first, stderr.String())
	}
	if got := annotatedTexts(readNote(t, notePath[0])); got != first.Answered {
		t.Errorf("after the interruption the note has answers for %d texts; the run kept %d", got, first.Answered)
	}
	firstCalls := proxy.Calls()
	proxy.Reset()

	// The rerun asks only the rest.
	var second enrichOut
	if err := json.Unmarshal(run("enrich", "--json", key), &second); err != nil {
		t.Fatal(err)
	}
	if second.Stored != first.Answered || second.Asked != total-first.Answered || second.Answered != second.Asked ||
		int64(second.Requests) != proxy.Calls() {
		t.Errorf("rerun: %+v with %d requests at the server; want %d stored and %d asked", second, proxy.Calls(), first.Answered, total-first.Answered)
	}
	t.Logf("%d texts to ask about; SIGINT at request %d: %d answers kept (%d requests reached the server); the rerun asked %d (%d requests), %.2f chunks/s",
		total, total/2, first.Answered, firstCalls, second.Asked, second.Requests, second.ChunksPerSecond)

	// The note: every paragraph, list item and caption annotated, nothing
	// else; its quotes, hashes and citations as compiled; it verifies.
	n := readNote(t, notePath[0])
	if got := annotatedTexts(n); got != total {
		t.Errorf("%d of %d texts annotated", got, total)
	}
	for i, c := range n.Chunks {
		if has := c.Paraphrase != "" || c.Implication != ""; has != (enrich.Annotatable(c.Type) && c.Text != "") {
			t.Errorf("chunk %s (%s): annotated %v", c.ID, c.Type, has)
		}
		if c.Text != compiled.Chunks[i].Text || c.TextSHA256 != compiled.Chunks[i].TextSHA256 {
			t.Errorf("chunk %s: text or hash changed", c.ID)
		}
	}
	if a := n.Front.Advisory; a == nil || a.Model != "tiny" || a.ModelDigest != s.Digest(t, "tiny") {
		t.Errorf("advisory = %+v", a)
	}
	run("verify", key)

	// A word found only in a paraphrase or implication finds its chunk,
	// flagged as an advisory match, with the verbatim text as excerpt.
	word, chunkID := advisoryOnlyWord(n)
	if word == "" {
		t.Fatal("no word of the answers is absent from the paper's text")
	}
	var res struct {
		Results []struct {
			ChunkID       string `json:"chunk_id"`
			Excerpt       string
			AdvisoryMatch bool `json:"advisory_match"`
		}
	}
	if err := json.Unmarshal(run("search", "--json", "--limit", "20", word), &res); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, h := range res.Results {
		if h.ChunkID == chunkID {
			found = true
			var text string
			for _, c := range n.Chunks {
				if c.ID == chunkID {
					text = strings.Join(strings.Fields(c.Text), " ")
				}
			}
			if !h.AdvisoryMatch || !strings.HasPrefix(text, strings.TrimSuffix(h.Excerpt, "...")) {
				t.Errorf("search %q: hit %+v; want an advisory match whose excerpt is the chunk's text", word, h)
			}
		}
	}
	if !found {
		t.Errorf("search %q: chunk %s not found in %+v", word, chunkID, res.Results)
	}
}

func readNote(t *testing.T, path string) *note.Note {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n, err := note.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func annotatedTexts(n *note.Note) int {
	seen := map[string]bool{}
	for _, c := range n.Chunks {
		if c.Paraphrase != "" || c.Implication != "" {
			seen[c.TextSHA256] = true
		}
	}
	return len(seen)
}

// advisoryOnlyWord returns a word of four or more ASCII letters that some
// chunk's paraphrase or implication has and no chunk text, section or the
// title does, with that chunk's id.
func advisoryOnlyWord(n *note.Note) (string, string) {
	var paper strings.Builder
	paper.WriteString(strings.ToLower(n.Front.Title))
	for _, c := range n.Chunks {
		paper.WriteString("\n" + strings.ToLower(c.Text+"\n"+c.Section))
	}
	all := paper.String()
	wordRE := regexp.MustCompile(`[\p{L}\p{N}]+`) // a word as the index splits text
	ascii := regexp.MustCompile(`^[A-Za-z]{4,}$`)
	for _, c := range n.Chunks {
		for _, w := range wordRE.FindAllString(c.Paraphrase+" "+c.Implication, -1) {
			w = strings.ToLower(w)
			if ascii.MatchString(w) && !strings.Contains(all, w) {
				return w, c.ID
			}
		}
	}
	return "", ""
}
