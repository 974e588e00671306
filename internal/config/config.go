// Package config resolves crossmem's settings once, with the precedence
// flags > environment > config file > defaults, into a plain Config value
// that the commands pass down. No other package reads the environment.
//
// The config file is TOML, at ~/.crossmem/config.toml unless
// CROSSMEM_CONFIG names another path; it is created with the defaults on
// first run.
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/crossmem/crossmem/internal/metadata"
)

// DefaultServePort is the seed's port of `crossmem serve`.
const DefaultServePort = 7600

// DefaultPattern is the seed's default cite key pattern.
const DefaultPattern = "[auth:lower][year][shorttitle:1:nopunct]"

// Environment variables read by Resolve.
const (
	EnvHome         = "CROSSMEM_HOME"          // library folder (default ~/crossmem)
	EnvConfig       = "CROSSMEM_CONFIG"        // config file (default ~/.crossmem/config.toml)
	EnvLog          = "CROSSMEM_LOG"           // log level for stderr: debug, info, warn (default), error
	EnvOllamaHost   = "OLLAMA_HOST"            // Ollama server (default http://127.0.0.1:11434)
	EnvOllamaModel  = "CROSSMEM_OLLAMA_MODEL"  // Ollama model (default llama3.2:3b)
	EnvArxivAPI     = "CROSSMEM_ARXIV_API"     // arXiv API query URL
	EnvArxivPDF     = "CROSSMEM_ARXIV_PDF"     // base URL of arXiv PDFs
	EnvCrossrefAPI  = "CROSSMEM_CROSSREF_API"  // Crossref REST base URL
	EnvOpenAlexAPI  = "CROSSMEM_OPENALEX_API"  // OpenAlex base URL
	EnvDataCiteAPI  = "CROSSMEM_DATACITE_API"  // DataCite REST base URL
	EnvUnpaywallAPI = "CROSSMEM_UNPAYWALL_API" // Unpaywall base URL
	// EnvUnpaywallEmail is the contact address Unpaywall requires; without
	// it Unpaywall is not consulted.
	EnvUnpaywallEmail = "CROSSMEM_UNPAYWALL_EMAIL"
	EnvCacheDir       = "CROSSMEM_CACHE"         // cache folder (default: the user cache dir + /crossmem)
	EnvContactEmail   = "CROSSMEM_CONTACT_EMAIL" // contact address for the User-Agent
	// EnvLLMURL overrides [llm] url (and, for Ollama, OLLAMA_HOST).
	EnvLLMURL = "CROSSMEM_LLM_URL"
	// EnvLLMAPIKey is sent as a bearer token to an OpenAI-compatible
	// server that wants one (never written to the config file).
	EnvLLMAPIKey = "CROSSMEM_LLM_API_KEY"
	// EnvBridgePort is the port of `crossmem serve` (the seed's name; it
	// overrides [serve] port).
	EnvBridgePort = "BRIDGE_PORT"
	// EnvDataHome is the XDG data folder (default ~/.local/share), where
	// `crossmem open --register` writes its desktop entry.
	EnvDataHome = "XDG_DATA_HOME"
	// EnvOllamaNumParallel is Ollama's own setting of how many requests a
	// model serves at once; enrich matches it when [llm] concurrency is 0.
	EnvOllamaNumParallel = "OLLAMA_NUM_PARALLEL"
)

// Values of [llm] server.
const (
	LLMOllama = "ollama"
	LLMOpenAI = "openai"
)

// File is the TOML config file's content.
type File struct {
	CiteKey struct {
		Pattern string `toml:"pattern"`
	} `toml:"cite_key"`
	Network struct {
		ContactEmail string `toml:"contact_email"`
		Timeout      int    `toml:"timeout"`
	} `toml:"network"`
	LLM struct {
		Model       string  `toml:"model"`
		Server      string  `toml:"server"`
		URL         string  `toml:"url"`
		Concurrency int     `toml:"concurrency"`
		Timeout     int     `toml:"timeout"`
		Temperature float64 `toml:"temperature"`
	} `toml:"llm"`
	Search struct {
		Embeddings     string  `toml:"embeddings"`
		Model          string  `toml:"model"`
		BM25Weight     float64 `toml:"bm25_weight"`
		VectorWeight   float64 `toml:"vector_weight"`
		AdvisoryWeight float64 `toml:"advisory_weight"`
	} `toml:"search"`
	Serve struct {
		Port        int    `toml:"port"`
		ExtensionID string `toml:"extension_id"`
	} `toml:"serve"`
	Citation struct {
		Version        string `toml:"version"`
		ChicagoEdition int    `toml:"chicago_edition"`
		BibTeXUnicode  string `toml:"bibtex_unicode"`
	} `toml:"citation"`
	Talk struct {
		Whisper      string `toml:"whisper"`
		WhisperModel string `toml:"whisper_model"`
		Language     string `toml:"language"`
		OCRLanguage  string `toml:"ocr_language"`
	} `toml:"talk"`
}

const defaultFile = `# crossmem configuration (created with the defaults on first run).

[cite_key]
# Pattern for new cite keys: crossmem's cite key pattern DSL, described in
# docs/cite-keys.md (https://github.com/crossmem/crossmem/blob/main/docs/cite-keys.md).
# Keys already assigned never change when this changes.
pattern = "[auth:lower][year][shorttitle:1:nopunct]"

[network]
# Contact address sent to metadata APIs in the User-Agent (mailto:), as
# Crossref and OpenAlex ask polite clients to do. CROSSMEM_CONTACT_EMAIL
# overrides it.
contact_email = ""
# Seconds a capture or a refresh waits for the metadata sources, all of
# them together (0 means the default, 30). When they do not answer in
# time, a captured PDF is stored with what it says about itself and its
# lookup is pending until crossmem refresh --pending.
timeout = 30

[llm]
# The local language model that writes the advisory paraphrase and
# implication of each chunk (crossmem enrich, compile --llm). Its output is
# never quoted: see docs/enrich.md.
# Model name on the server; CROSSMEM_OLLAMA_MODEL overrides it.
model = "llama3.2:3b"
# "ollama" (Ollama's /api/chat) or "openai" (an OpenAI-compatible
# /v1/chat/completions server: llama.cpp's llama-server, LM Studio, vLLM).
server = "ollama"
# Server URL. "" means OLLAMA_HOST or http://127.0.0.1:11434 for Ollama; an
# OpenAI-compatible server needs one (e.g. "http://127.0.0.1:8080").
# CROSSMEM_LLM_URL overrides it; CROSSMEM_LLM_API_KEY is sent as a bearer
# token when set.
url = ""
# Requests open at once. 0 matches the server: OLLAMA_NUM_PARALLEL (Ollama
# serves one at a time unless it is set), llama-server's slots, else 1.
concurrency = 0
# Seconds one answer may take before it is retried.
timeout = 300
# Sampling temperature (0: the most likely words, the same answer each run).
temperature = 0.0

[search]
# Optional vector lane for search and recall: "" (off: BM25 and the exact
# phrase lane only) or "ollama" (chunk embeddings from the Ollama server at
# OLLAMA_HOST, fused with BM25 by reciprocal rank fusion, k = 60).
embeddings = ""
model = "nomic-embed-text"
bm25_weight = 1.0
vector_weight = 1.0
# Weight of the advisory lane: BM25 over the paraphrases and implications
# crossmem enrich wrote. A hit it finds is flagged as an advisory match; its
# quotable text is still the chunk's verbatim text. 0 means the default 0.5.
advisory_weight = 0.5

[serve]
# Port of crossmem serve (the library viewer, on 127.0.0.1 only).
# BRIDGE_PORT overrides it.
port = 7600
# The crossmem browser extension the bridge accepts, by its id (32 letters
# a-p, shown on chrome://extensions). Empty: the extension that pairs with
# the one-time code crossmem serve prints.
extension_id = ""

[citation]
# Which version a paper's citations describe when the captured PDF is a
# preprint with a known published version (or the reverse):
#   "captured"  - the version whose PDF was captured and is quoted (default)
#   "published" - the version of record, when it is known
version = "captured"
# Edition of the Chicago Manual of Style that the "chicago" and
# "chicago-author-date" formats follow: 18 (2024, default) or 17. The
# formats "chicago-17" and "chicago-author-date-17" are always available.
chicago_edition = 18
# Non-ASCII characters in BibTeX and BibLaTeX entries:
#   "keep"  - UTF-8 as is (biber, BibTeX with inputenc; default)
#   "latex" - escaped as LaTeX commands ({\"u}, {\ss}) for 8-bit BibTeX
bibtex_unicode = "keep"

[talk]
# Recorded talks (crossmem capture <YouTube URL | recording>): yt-dlp and
# ffmpeg are required, tesseract (slide text) and whisper.cpp (speech
# recognition when a video has no human subtitles) are optional.
# whisper.cpp's binary ("" = whisper-cli or whisper-cpp on the PATH) and
# its ggml model ("" = ~/.cache/whisper/ggml-large-v3-turbo.bin).
whisper = ""
whisper_model = ""
# Language of subtitles and speech recognition, and tesseract's language.
language = "en"
ocr_language = "eng"
`

// Config is the resolved configuration.
type Config struct {
	Home         string // library folder
	ConfigPath   string // config file that was read (or created)
	Pattern      string // cite key pattern
	ContactEmail string
	// MetadataTimeout is [network] timeout: how long a capture or a
	// refresh waits for the metadata sources in total (0: the default).
	MetadataTimeout time.Duration
	OllamaHost      string
	OllamaModel     string // [llm] model
	// LLMServer is "ollama" or "openai"; LLMURL the server's URL ("" =
	// the client's default); LLMAPIKey a bearer token or "".
	LLMServer, LLMURL, LLMAPIKey string
	// LLMConcurrency is [llm] concurrency (0: match the server);
	// OllamaNumParallel is OLLAMA_NUM_PARALLEL (0 when unset).
	LLMConcurrency, OllamaNumParallel int
	LLMTimeout                        time.Duration
	LLMTemperature                    float64
	ArxivAPI                          string // "" means the client's default
	ArxivPDF                          string
	CrossrefAPI                       string
	OpenAlexAPI                       string
	DataCiteAPI                       string
	UnpaywallAPI                      string
	// UnpaywallEmail is required to consult Unpaywall ("" = not consulted).
	UnpaywallEmail string
	// Embeddings is "" (no vector lane) or "ollama" ([search] embeddings);
	// EmbedModel the embedding model; BM25Weight and VectorWeight the
	// reciprocal rank fusion weights.
	Embeddings                               string
	EmbedModel                               string
	BM25Weight, VectorWeight, AdvisoryWeight float64
	// CiteVersion is "captured" or "published" (see the [citation] table).
	CiteVersion string
	// ChicagoEdition is 17 or 18: the edition "chicago" and
	// "chicago-author-date" follow.
	ChicagoEdition int
	// BibTeXLaTeX escapes non-ASCII characters in BibTeX/BibLaTeX output
	// as LaTeX commands ([citation] bibtex_unicode = "latex").
	BibTeXLaTeX bool
	CacheDir    string
	LogLevel    string
	// ServePort is the port `crossmem serve` listens on (127.0.0.1):
	// BRIDGE_PORT, else [serve] port, else 7600.
	ServePort int
	// ExtensionID is [serve] extension_id: the browser extension the
	// bridge accepts ("" : the one that pairs).
	ExtensionID string
	// DataHome is XDG_DATA_HOME, else ~/.local/share ("" without a home
	// folder).
	DataHome string
	// Whisper and WhisperModel are [talk] whisper and whisper_model (""
	// = look for whisper-cli/whisper-cpp, the default model);
	// TalkLanguage and OCRLanguage [talk] language and ocr_language.
	Whisper, WhisperModel, TalkLanguage, OCRLanguage string
	// UserHome is the user's home folder ("" when unknown).
	UserHome string
}

// Resolve builds the Config from the environment (getenv) and the config
// file, creating the file with defaults when it does not exist. Warnings
// (unknown keys in the file) are returned separately; an unreadable or
// malformed file is an error naming the file and line.
func Resolve(getenv func(string) string) (*Config, []string, error) {
	home, err := os.UserHomeDir()
	if err != nil && (getenv(EnvHome) == "" || getenv(EnvConfig) == "") {
		return nil, nil, fmt.Errorf("cannot find your home folder (%v): set %s and %s", err, EnvHome, EnvConfig)
	}
	c := &Config{
		Home:       getenv(EnvHome),
		ConfigPath: getenv(EnvConfig),
		LogLevel:   strings.ToLower(getenv(EnvLog)),
	}
	if c.Home == "" {
		c.Home = filepath.Join(home, "crossmem")
	}
	if c.ConfigPath == "" {
		c.ConfigPath = filepath.Join(home, ".crossmem", "config.toml")
	}
	c.Home = expandTilde(c.Home, home)
	c.ConfigPath = expandTilde(c.ConfigPath, home)

	f, warnings, err := load(c.ConfigPath)
	if err != nil {
		return nil, nil, err
	}
	c.Pattern = f.CiteKey.Pattern
	if c.Pattern == "" {
		c.Pattern = DefaultPattern
	}
	c.ContactEmail = first(getenv(EnvContactEmail), f.Network.ContactEmail)
	if f.Network.Timeout < 0 {
		return nil, nil, fmt.Errorf("config file %s: [network] timeout = %d: use a number of seconds, 0 for the default", c.ConfigPath, f.Network.Timeout)
	}
	c.MetadataTimeout = time.Duration(f.Network.Timeout) * time.Second
	c.OllamaHost = getenv(EnvOllamaHost)
	c.OllamaModel = first(getenv(EnvOllamaModel), f.LLM.Model)
	switch v := strings.ToLower(strings.TrimSpace(f.LLM.Server)); v {
	case "", LLMOllama:
		c.LLMServer = LLMOllama
		c.LLMURL = first(getenv(EnvLLMURL), c.OllamaHost, f.LLM.URL)
	case LLMOpenAI:
		c.LLMServer = LLMOpenAI
		c.LLMURL = first(getenv(EnvLLMURL), f.LLM.URL)
	default:
		return nil, nil, fmt.Errorf("config file %s: [llm] server = %q: use %q or %q", c.ConfigPath, f.LLM.Server, LLMOllama, LLMOpenAI)
	}
	c.LLMAPIKey = getenv(EnvLLMAPIKey)
	if f.LLM.Concurrency < 0 || f.LLM.Timeout < 0 || f.LLM.Temperature < 0 {
		return nil, nil, fmt.Errorf("config file %s: [llm] concurrency, timeout and temperature must not be negative", c.ConfigPath)
	}
	c.LLMConcurrency = f.LLM.Concurrency
	c.LLMTimeout = time.Duration(f.LLM.Timeout) * time.Second
	c.LLMTemperature = f.LLM.Temperature
	if v := strings.TrimSpace(getenv(EnvOllamaNumParallel)); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			c.OllamaNumParallel = n
		}
	}
	c.ArxivAPI = getenv(EnvArxivAPI)
	c.ArxivPDF = getenv(EnvArxivPDF)
	c.CrossrefAPI = getenv(EnvCrossrefAPI)
	c.OpenAlexAPI = getenv(EnvOpenAlexAPI)
	c.DataCiteAPI = getenv(EnvDataCiteAPI)
	c.UnpaywallAPI = getenv(EnvUnpaywallAPI)
	c.UnpaywallEmail = getenv(EnvUnpaywallEmail)
	switch v := strings.ToLower(strings.TrimSpace(f.Citation.Version)); v {
	case "", metadata.VersionCaptured:
		c.CiteVersion = metadata.VersionCaptured
	case metadata.VersionPublished:
		c.CiteVersion = metadata.VersionPublished
	default:
		return nil, nil, fmt.Errorf("config file %s: [citation] version = %q: use %q or %q", c.ConfigPath, f.Citation.Version, metadata.VersionCaptured, metadata.VersionPublished)
	}
	switch v := strings.ToLower(strings.TrimSpace(f.Search.Embeddings)); v {
	case "", "none", "off":
	case "ollama":
		c.Embeddings = v
	default:
		return nil, nil, fmt.Errorf("config file %s: [search] embeddings = %q: use \"ollama\" or leave it empty", c.ConfigPath, f.Search.Embeddings)
	}
	c.EmbedModel = f.Search.Model
	if c.EmbedModel == "" {
		c.EmbedModel = "nomic-embed-text"
	}
	c.BM25Weight, c.VectorWeight, c.AdvisoryWeight = f.Search.BM25Weight, f.Search.VectorWeight, f.Search.AdvisoryWeight
	if c.BM25Weight < 0 || c.VectorWeight < 0 || c.AdvisoryWeight < 0 {
		return nil, nil, fmt.Errorf("config file %s: [search] weights must not be negative", c.ConfigPath)
	}
	// TOML cannot tell 0 from absent here: 0 means the default, 1.
	if c.BM25Weight == 0 {
		c.BM25Weight = 1
	}
	if c.VectorWeight == 0 {
		c.VectorWeight = 1
	}
	if c.AdvisoryWeight == 0 {
		c.AdvisoryWeight = 0.5
	}
	switch f.Citation.ChicagoEdition {
	case 0, 18:
		c.ChicagoEdition = 18
	case 17:
		c.ChicagoEdition = 17
	default:
		return nil, nil, fmt.Errorf("config file %s: [citation] chicago_edition = %d: use 17 or 18", c.ConfigPath, f.Citation.ChicagoEdition)
	}
	switch v := strings.ToLower(strings.TrimSpace(f.Citation.BibTeXUnicode)); v {
	case "", "keep":
	case "latex":
		c.BibTeXLaTeX = true
	default:
		return nil, nil, fmt.Errorf("config file %s: [citation] bibtex_unicode = %q: use \"keep\" or \"latex\"", c.ConfigPath, f.Citation.BibTeXUnicode)
	}
	c.ServePort = DefaultServePort
	c.ExtensionID = strings.TrimSpace(f.Serve.ExtensionID)
	if f.Serve.Port != 0 {
		c.ServePort = f.Serve.Port
	}
	if v := strings.TrimSpace(getenv(EnvBridgePort)); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, nil, fmt.Errorf("%s=%q is not a port number (1..65535)", EnvBridgePort, v)
		}
		c.ServePort = n
	}
	if c.ServePort < 1 || c.ServePort > 65535 {
		return nil, nil, fmt.Errorf("serve port %d is out of range 1..65535 (%s or [serve] port in %s)", c.ServePort, EnvBridgePort, c.ConfigPath)
	}
	c.DataHome = getenv(EnvDataHome)
	if c.DataHome == "" && home != "" {
		c.DataHome = filepath.Join(home, ".local", "share")
	}
	c.UserHome = home
	c.Whisper = expandTilde(strings.TrimSpace(f.Talk.Whisper), home)
	c.WhisperModel = expandTilde(strings.TrimSpace(f.Talk.WhisperModel), home)
	c.TalkLanguage = first(strings.TrimSpace(f.Talk.Language), "en")
	c.OCRLanguage = first(strings.TrimSpace(f.Talk.OCRLanguage), "eng")
	c.CacheDir = getenv(EnvCacheDir)
	if c.CacheDir == "" {
		if d, err := os.UserCacheDir(); err == nil {
			c.CacheDir = filepath.Join(d, "crossmem")
		} else {
			c.CacheDir = filepath.Join(c.Home, ".cache")
		}
	}
	return c, warnings, nil
}

func first(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

func expandTilde(p, home string) string {
	if p == "~" {
		return home
	}
	if strings.HasPrefix(p, "~/") {
		return filepath.Join(home, p[2:])
	}
	return p
}

// load reads the config file at path, creating it with defaults when
// missing.
func load(path string) (*File, []string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, nil, fmt.Errorf("create config folder: %w", err)
		}
		if err := os.WriteFile(path, []byte(defaultFile), 0o644); err != nil {
			return nil, nil, fmt.Errorf("create config file %s: %w", path, err)
		}
		data = []byte(defaultFile)
	} else if err != nil {
		return nil, nil, fmt.Errorf("read config file: %w", err)
	}
	var f File
	md, err := toml.Decode(string(data), &f)
	if err != nil {
		return nil, nil, fmt.Errorf("config file %s: %w (fix the file or delete it to get the defaults back)", path, err)
	}
	var warnings []string
	undecoded := md.Undecoded()
	for _, k := range undecoded {
		// Report a misspelt table once, not once per key inside it.
		parent := false
		for _, o := range undecoded {
			if strings.HasPrefix(o.String(), k.String()+".") {
				parent = true
			}
		}
		if !parent {
			warnings = append(warnings, fmt.Sprintf("config file %s: unknown key %q ignored", path, k.String()))
		}
	}
	return &f, warnings, nil
}
