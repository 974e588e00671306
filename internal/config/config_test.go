package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/google/go-cmp/cmp"

	"github.com/crossmem/crossmem/internal/metadata"
)

// env returns a getenv func over m.
func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// fakeHome points the user's home and cache folders at a temp folder.
func fakeHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, ".cache"))
	return home
}

func TestDefaultsFileCreatedOnFirstRun(t *testing.T) {
	home := fakeHome(t)
	cfg, warnings, err := Resolve(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 0 {
		t.Errorf("warnings for the default file: %v", warnings)
	}
	path := filepath.Join(home, ".crossmem", "config.toml")
	want := &Config{
		Home:        filepath.Join(home, "crossmem"),
		ConfigPath:  path,
		Pattern:     DefaultPattern,
		OllamaModel: "llama3.2:3b",
		LLMServer:   LLMOllama, LLMTimeout: 300 * time.Second, MetadataTimeout: 30 * time.Second,
		CiteVersion: metadata.VersionCaptured,
		EmbedModel:  "nomic-embed-text", BM25Weight: 1, VectorWeight: 1, AdvisoryWeight: 0.5,
		ChicagoEdition: 18,
		CacheDir:       filepath.Join(home, ".cache", "crossmem"),
		ServePort:      DefaultServePort,
		DataHome:       filepath.Join(home, ".local", "share"),
		TalkLanguage:   "en", OCRLanguage: "eng", UserHome: home,
	}
	if diff := cmp.Diff(want, cfg); diff != "" {
		t.Errorf("config (-want +got):\n%s", diff)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("config file not created: %v", err)
	}
	text := string(data)
	// The seed's full reference: a [cite_key] table with the default
	// pattern.
	if !strings.Contains(text, "[cite_key]\n") || !strings.Contains(text, "\npattern = \"[auth:lower][year][shorttitle:1:nopunct]\"\n") {
		t.Errorf("created file lacks the documented [cite_key] pattern:\n%s", text)
	}
	for _, want := range []string{"[network]", "contact_email = \"\"", "[llm]", "model = \"llama3.2:3b\"", "CROSSMEM_OLLAMA_MODEL", "OLLAMA_HOST", "CROSSMEM_CONTACT_EMAIL"} {
		if !strings.Contains(text, want) {
			t.Errorf("created file lacks %q", want)
		}
	}
	var f File
	md, err := toml.Decode(text, &f)
	if err != nil {
		t.Fatalf("created file is not valid TOML: %v", err)
	}
	if len(md.Undecoded()) != 0 {
		t.Errorf("created file has keys the loader ignores: %v", md.Undecoded())
	}
	if f.CiteKey.Pattern != DefaultPattern || f.LLM.Model != "llama3.2:3b" {
		t.Errorf("created file decodes to %+v", f)
	}

	// A second run reads the file and does not rewrite it.
	edited := strings.Replace(text, DefaultPattern, "[auth][year]", 1)
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, _, err = Resolve(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Pattern != "[auth][year]" {
		t.Errorf("pattern from the edited file = %q", cfg.Pattern)
	}
	if got, _ := os.ReadFile(path); string(got) != edited {
		t.Error("the config file was rewritten on the second run")
	}
}

func TestEnvOverrides(t *testing.T) {
	home := fakeHome(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	file := `[cite_key]
pattern = "[auth:lower][year]"

[network]
contact_email = "file@example.org"

[llm]
model = "from-file"
`
	if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}

	cfg, warnings, err := Resolve(env(map[string]string{EnvConfig: path}))
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 0 {
		t.Errorf("warnings: %v", warnings)
	}
	if cfg.ContactEmail != "file@example.org" || cfg.OllamaModel != "from-file" || cfg.Pattern != "[auth:lower][year]" {
		t.Errorf("file values not used: %+v", cfg)
	}
	if cfg.Home != filepath.Join(home, "crossmem") {
		t.Errorf("home = %s", cfg.Home)
	}

	cfg, _, err = Resolve(env(map[string]string{
		EnvConfig:            path,
		EnvHome:              filepath.Join(dir, "lib"),
		EnvContactEmail:      "env@example.org",
		EnvOllamaModel:       "mistral",
		EnvOllamaHost:        "127.0.0.1:9",
		EnvArxivAPI:          "http://127.0.0.1:1/api/query",
		EnvArxivPDF:          "http://127.0.0.1:1/pdf",
		EnvCrossrefAPI:       "http://127.0.0.1:1",
		EnvOpenAlexAPI:       "http://127.0.0.1:2",
		EnvDataCiteAPI:       "http://127.0.0.1:3",
		EnvUnpaywallAPI:      "http://127.0.0.1:4",
		EnvUnpaywallEmail:    "me@example.org",
		EnvCacheDir:          filepath.Join(dir, "cache"),
		EnvLog:               "DEBUG",
		EnvLLMAPIKey:         "k3y",
		EnvOllamaNumParallel: "4",
		EnvBridgePort:        "7601",
		EnvDataHome:          filepath.Join(dir, "data"),
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := &Config{
		Home:         filepath.Join(dir, "lib"),
		ConfigPath:   path,
		Pattern:      "[auth:lower][year]", // no environment variable for it
		ContactEmail: "env@example.org",
		OllamaHost:   "127.0.0.1:9",
		OllamaModel:  "mistral",
		LLMServer:    LLMOllama, LLMURL: "127.0.0.1:9", LLMAPIKey: "k3y", OllamaNumParallel: 4,
		ArxivAPI:       "http://127.0.0.1:1/api/query",
		ArxivPDF:       "http://127.0.0.1:1/pdf",
		CrossrefAPI:    "http://127.0.0.1:1",
		OpenAlexAPI:    "http://127.0.0.1:2",
		DataCiteAPI:    "http://127.0.0.1:3",
		UnpaywallAPI:   "http://127.0.0.1:4",
		UnpaywallEmail: "me@example.org",
		CiteVersion:    metadata.VersionCaptured,
		EmbedModel:     "nomic-embed-text", BM25Weight: 1, VectorWeight: 1, AdvisoryWeight: 0.5,
		ChicagoEdition: 18,
		CacheDir:       filepath.Join(dir, "cache"),
		LogLevel:       "debug",
		ServePort:      7601,
		DataHome:       filepath.Join(dir, "data"),
		TalkLanguage:   "en", OCRLanguage: "eng", UserHome: cfg.UserHome,
	}
	if diff := cmp.Diff(want, cfg); diff != "" {
		t.Errorf("config (-want +got):\n%s", diff)
	}
}

func TestTildeExpansion(t *testing.T) {
	home := fakeHome(t)
	cfg, _, err := Resolve(env(map[string]string{EnvHome: "~/papers", EnvConfig: "~/cfg/crossmem.toml"}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Home != filepath.Join(home, "papers") || cfg.ConfigPath != filepath.Join(home, "cfg", "crossmem.toml") {
		t.Errorf("home %s config %s", cfg.Home, cfg.ConfigPath)
	}
	if _, err := os.Stat(filepath.Join(home, "cfg", "crossmem.toml")); err != nil {
		t.Errorf("config file not created at the expanded path: %v", err)
	}
}

func TestMalformedFile(t *testing.T) {
	fakeHome(t)
	path := filepath.Join(t.TempDir(), "config.toml")
	content := "[cite_key]\npattern = \"[auth][year]\"\n\n[llm]\nmodel = \n"
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := Resolve(env(map[string]string{EnvConfig: path}))
	if err == nil {
		t.Fatal("malformed config accepted")
	}
	msg := err.Error()
	for _, want := range []string{path, "line 5"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error does not contain %q: %s", want, msg)
		}
	}
	if got, _ := os.ReadFile(path); string(got) != content {
		t.Error("a malformed config file was overwritten")
	}

	// A config path that is a folder is an error too, not a silent default.
	_, _, err = Resolve(env(map[string]string{EnvConfig: t.TempDir()}))
	if err == nil {
		t.Error("a folder as config file was accepted")
	}
}

func TestUnknownKeyWarning(t *testing.T) {
	fakeHome(t)
	path := filepath.Join(t.TempDir(), "config.toml")
	content := "[cite_key]\npatern = \"[auth][year]\"\n"
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, warnings, err := Resolve(env(map[string]string{EnvConfig: path}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Pattern != DefaultPattern {
		t.Errorf("pattern = %q; a misspelt key must leave the default", cfg.Pattern)
	}
	if len(warnings) != 1 {
		t.Fatalf("warnings = %q; want one", warnings)
	}
	for _, want := range []string{path, `"cite_key.patern"`, "unknown key"} {
		if !strings.Contains(warnings[0], want) {
			t.Errorf("warning %q does not contain %q", warnings[0], want)
		}
	}
}

func TestCiteVersion(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	os.WriteFile(path, []byte("[citation]\nversion = \"published\"\n"), 0o644)
	cfg, _, err := Resolve(env(map[string]string{EnvConfig: path, EnvHome: dir}))
	if err != nil || cfg.CiteVersion != metadata.VersionPublished {
		t.Fatalf("published: %v %+v", err, cfg)
	}
	os.WriteFile(path, []byte("[citation]\nversion = \"newest\"\n"), 0o644)
	_, _, err = Resolve(env(map[string]string{EnvConfig: path, EnvHome: dir}))
	if err == nil || !strings.Contains(err.Error(), `"captured" or "published"`) || !strings.Contains(err.Error(), path) {
		t.Errorf("bad version: %v", err)
	}
}

func TestCitationStyleSettings(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	os.WriteFile(path, []byte("[citation]\nchicago_edition = 17\nbibtex_unicode = \"latex\"\n"), 0o644)
	cfg, _, err := Resolve(env(map[string]string{EnvConfig: path, EnvHome: dir}))
	if err != nil || cfg.ChicagoEdition != 17 || !cfg.BibTeXLaTeX {
		t.Fatalf("edition 17, latex: %v %+v", err, cfg)
	}
	for file, want := range map[string]string{
		"[citation]\nchicago_edition = 16\n":       "use 17 or 18",
		"[citation]\nbibtex_unicode = \"ascii\"\n": `use "keep" or "latex"`,
	} {
		os.WriteFile(path, []byte(file), 0o644)
		_, _, err := Resolve(env(map[string]string{EnvConfig: path, EnvHome: dir}))
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%q: %v", file, err)
		}
	}
}

func TestSearchSettings(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	os.WriteFile(path, []byte("[search]\nembeddings = \"ollama\"\nmodel = \"mxbai-embed-large\"\nvector_weight = 0.5\n"), 0o644)
	cfg, _, err := Resolve(env(map[string]string{EnvConfig: path, EnvHome: dir}))
	if err != nil || cfg.Embeddings != "ollama" || cfg.EmbedModel != "mxbai-embed-large" || cfg.VectorWeight != 0.5 || cfg.BM25Weight != 1 {
		t.Fatalf("search settings: %v %+v", err, cfg)
	}
	os.WriteFile(path, []byte("[search]\nembeddings = \"openai\"\n"), 0o644)
	if _, _, err := Resolve(env(map[string]string{EnvConfig: path, EnvHome: dir})); err == nil || !strings.Contains(err.Error(), `use "ollama"`) {
		t.Errorf("unknown embeddings: %v", err)
	}
}

func TestLLMServer(t *testing.T) {
	fakeHome(t)
	dir := t.TempDir()
	write := func(body string) string {
		path := filepath.Join(dir, "config.toml")
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	path := write("[llm]\nserver = \"openai\"\nurl = \"http://127.0.0.1:8080\"\nmodel = \"qwen\"\nconcurrency = 3\ntimeout = 60\ntemperature = 0.7\n")
	cfg, _, err := Resolve(env(map[string]string{EnvConfig: path, EnvOllamaHost: "127.0.0.1:9"}))
	if err != nil {
		t.Fatal(err)
	}
	// OLLAMA_HOST is Ollama's: an OpenAI-compatible server keeps its URL.
	if cfg.LLMServer != LLMOpenAI || cfg.LLMURL != "http://127.0.0.1:8080" || cfg.OllamaModel != "qwen" ||
		cfg.LLMConcurrency != 3 || cfg.LLMTimeout != time.Minute || cfg.LLMTemperature != 0.7 {
		t.Errorf("config %+v", cfg)
	}
	cfg, _, _ = Resolve(env(map[string]string{EnvConfig: path, EnvLLMURL: "http://127.0.0.1:1234/v1"}))
	if cfg.LLMURL != "http://127.0.0.1:1234/v1" {
		t.Errorf("CROSSMEM_LLM_URL not used: %s", cfg.LLMURL)
	}
	for body, want := range map[string]string{
		"[llm]\nserver = \"gpt\"\n":        `[llm] server = "gpt": use "ollama" or "openai"`,
		"[llm]\nconcurrency = -1\n":        "must not be negative",
		"[search]\nadvisory_weight = -1\n": "weights must not be negative",
	} {
		_, _, err := Resolve(env(map[string]string{EnvConfig: write(body)}))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", body, err, want)
		}
	}
}

func TestServePort(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	resolve := func(port string) (*Config, error) {
		m := map[string]string{EnvConfig: path, EnvHome: dir}
		if port != "" {
			m[EnvBridgePort] = port
		}
		cfg, _, err := Resolve(env(m))
		return cfg, err
	}
	cfg, err := resolve("") // creates the file with the default
	if err != nil || cfg.ServePort != DefaultServePort {
		t.Fatalf("default: %v %+v", err, cfg)
	}
	os.WriteFile(path, []byte("[serve]\nport = 7700\n"), 0o644)
	if cfg, err := resolve(""); err != nil || cfg.ServePort != 7700 {
		t.Errorf("[serve] port = 7700: %v %d", err, cfg.ServePort)
	}
	if cfg, err := resolve("7800"); err != nil || cfg.ServePort != 7800 {
		t.Errorf("BRIDGE_PORT=7800 over the file: %v %d", err, cfg.ServePort)
	}
	for _, bad := range []string{"http", "0", "70000", "-1"} {
		if _, err := resolve(bad); err == nil || !strings.Contains(err.Error(), "BRIDGE_PORT") {
			t.Errorf("BRIDGE_PORT=%s: %v", bad, err)
		}
	}
	os.WriteFile(path, []byte("[serve]\nport = 99999\n"), 0o644)
	if _, err := resolve(""); err == nil || !strings.Contains(err.Error(), "[serve] port") {
		t.Errorf("[serve] port = 99999: %v", err)
	}
}
