package bridge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Limits of a command's parameters (docs/limits.md).
const (
	MaxURLLen      = 2048      // bytes of a navigate or fetch_pdf URL
	MaxSelectorLen = 1024      // bytes of a CSS selector
	MaxTextLen     = 10 << 10  // bytes of the text typed by "type"
	MaxWaitMillis  = 30_000    // longest "wait"
	MaxExtractLen  = 1_000_000 // characters "extract" may return
	// MaxFetchBytes caps the PDF fetch_pdf returns (and a PDF posted to
	// /capture).
	MaxFetchBytes = 100 << 20
	// MaxAgentIDLen bounds an agentId; it matches AgentIDPattern.
	MaxAgentIDLen = 64
)

// Actions are the verbs the extension implements: the seed's nine, plus
// fetch_pdf (the bytes of a PDF the browser can reach, for capture
// --via-browser). There is no script or eval verb.
var Actions = []string{"navigate", "click", "type", "wait", "extract", "screenshot", "summarize", "tab_info", "ping", "fetch_pdf"}

// tabActions act on one of the agent's tabs (given by tabId or the
// agent's last one).
var tabActions = map[string]bool{"click": true, "type": true, "wait": true, "extract": true, "screenshot": true, "summarize": true}

// AgentIDPattern is what an agentId may be: letters, digits, '.', '_',
// '-', 1 to 64 of them.
var AgentIDPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// Command is the body of POST /command: {"action": "navigate", "params":
// {"url": "https://…"}, "agentId": "my-agent", "tabId": 12,
// "timeout_ms": 30000}. Unknown fields are refused.
type Command struct {
	Action string          `json:"action"`
	Params json.RawMessage `json:"params,omitempty"`
	// AgentID isolates an agent's tabs; "" means "default".
	AgentID string `json:"agentId,omitempty"`
	// TabID names one of the agent's tabs; 0 means its last one (navigate
	// without a tab opens a new one).
	TabID int `json:"tabId,omitempty"`
	// TimeoutMillis bounds the wait for the extension's answer (default
	// DefaultCommandTimeout, at most MaxCommandTimeout).
	TimeoutMillis int `json:"timeout_ms,omitempty"`
}

// The parameters of each action, decoded strictly (unknown fields are
// errors).
type (
	urlParams struct {
		URL string `json:"url"`
	}
	selectorParams struct {
		Selector string `json:"selector"`
	}
	typeParams struct {
		Selector string `json:"selector"`
		Text     string `json:"text"`
	}
	waitParams struct {
		Selector string `json:"selector,omitempty"`
		Millis   int    `json:"ms,omitempty"`
	}
	extractParams struct {
		Selector string `json:"selector,omitempty"`
		MaxChars int    `json:"max_chars,omitempty"`
	}
	screenshotParams struct {
		Format  string `json:"format,omitempty"`  // "png" (default) or "jpeg"
		Quality int    `json:"quality,omitempty"` // jpeg: 1..100
	}
	fetchParams struct {
		URL      string `json:"url"`
		MaxBytes int    `json:"max_bytes,omitempty"`
	}
	noParams struct{}
)

// ParamError is a command the bridge refuses before sending it: an unknown
// action or parameters outside their schema (400).
type ParamError struct{ Reason string }

func (e *ParamError) Error() string { return e.Reason }

func paramErr(format string, args ...any) error {
	return &ParamError{Reason: fmt.Sprintf(format, args...)}
}

// Validate checks c against its action's schema and returns its
// parameters normalised (defaults filled in) as JSON for the extension.
// Every failure is a *ParamError.
func (c *Command) Validate() (json.RawMessage, error) {
	if c.AgentID == "" {
		c.AgentID = "default"
	}
	if !AgentIDPattern.MatchString(c.AgentID) {
		return nil, paramErr("agentId must be 1 to %d of A-Z a-z 0-9 . _ -", MaxAgentIDLen)
	}
	if c.TabID < 0 {
		return nil, paramErr("tabId %d is not a tab", c.TabID)
	}
	if c.TimeoutMillis < 0 || c.TimeoutMillis > int(MaxCommandTimeout.Milliseconds()) {
		return nil, paramErr("timeout_ms must be 0..%d", MaxCommandTimeout.Milliseconds())
	}
	raw := c.Params
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		raw = json.RawMessage("{}")
	}
	var p any
	switch c.Action {
	case "navigate":
		var v urlParams
		if err := strict(raw, &v); err != nil {
			return nil, err
		}
		if err := checkURL(v.URL); err != nil {
			return nil, err
		}
		p = v
	case "click", "type":
		var v typeParams
		if c.Action == "click" {
			var s selectorParams
			if err := strict(raw, &s); err != nil {
				return nil, err
			}
			v.Selector = s.Selector
		} else if err := strict(raw, &v); err != nil {
			return nil, err
		}
		if err := checkSelector(v.Selector, true); err != nil {
			return nil, err
		}
		if len(v.Text) > MaxTextLen || !utf8.ValidString(v.Text) {
			return nil, paramErr("text must be valid UTF-8 of at most %d bytes", MaxTextLen)
		}
		if c.Action == "click" {
			p = selectorParams{Selector: v.Selector}
		} else {
			p = v
		}
	case "wait":
		var v waitParams
		if err := strict(raw, &v); err != nil {
			return nil, err
		}
		if err := checkSelector(v.Selector, false); err != nil {
			return nil, err
		}
		if v.Millis < 0 || v.Millis > MaxWaitMillis {
			return nil, paramErr("ms must be 0..%d", MaxWaitMillis)
		}
		if v.Selector == "" && v.Millis == 0 {
			v.Millis = 1000
		}
		p = v
	case "extract":
		var v extractParams
		if err := strict(raw, &v); err != nil {
			return nil, err
		}
		if err := checkSelector(v.Selector, false); err != nil {
			return nil, err
		}
		if v.MaxChars < 0 || v.MaxChars > MaxExtractLen {
			return nil, paramErr("max_chars must be 0..%d", MaxExtractLen)
		}
		if v.MaxChars == 0 {
			v.MaxChars = 100_000
		}
		p = v
	case "screenshot":
		var v screenshotParams
		if err := strict(raw, &v); err != nil {
			return nil, err
		}
		switch v.Format {
		case "":
			v.Format = "png"
		case "png", "jpeg":
		default:
			return nil, paramErr("format must be png or jpeg")
		}
		if v.Quality < 0 || v.Quality > 100 {
			return nil, paramErr("quality must be 1..100")
		}
		if v.Format == "jpeg" && v.Quality == 0 {
			v.Quality = 80
		}
		p = v
	case "fetch_pdf":
		var v fetchParams
		if err := strict(raw, &v); err != nil {
			return nil, err
		}
		if err := checkURL(v.URL); err != nil {
			return nil, err
		}
		if v.MaxBytes < 0 || v.MaxBytes > MaxFetchBytes {
			return nil, paramErr("max_bytes must be 0..%d", MaxFetchBytes)
		}
		if v.MaxBytes == 0 {
			v.MaxBytes = MaxFetchBytes
		}
		p = v
	case "summarize", "tab_info", "ping":
		var v noParams
		if err := strict(raw, &v); err != nil {
			return nil, err
		}
		p = v
	case "":
		return nil, paramErr("no action: one of %s", strings.Join(Actions, ", "))
	default:
		return nil, paramErr("unknown action %q: one of %s (there is no script or eval verb)", clip(c.Action), strings.Join(Actions, ", "))
	}
	out, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// strict decodes raw into v, refusing unknown fields, wrong types and
// trailing data.
func strict(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return paramErr("params: %s", clip(err.Error()))
	}
	if dec.More() {
		return paramErr("params: trailing data after the object")
	}
	return nil
}

// checkURL accepts an absolute http or https URL with a host, of at most
// MaxURLLen bytes, without user information.
func checkURL(s string) error {
	if s == "" {
		return paramErr("url is required")
	}
	if len(s) > MaxURLLen {
		return paramErr("url is %d bytes; at most %d", len(s), MaxURLLen)
	}
	u, err := url.Parse(s)
	if err != nil {
		return paramErr("url: %s", clip(err.Error()))
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	default:
		return paramErr("url scheme %q: only http and https", clip(u.Scheme))
	}
	if u.Host == "" || u.Opaque != "" {
		return paramErr("url %q has no host", clip(s))
	}
	if u.User != nil {
		return paramErr("url must not carry a user name or password")
	}
	return nil
}

// checkSelector accepts a CSS selector of at most MaxSelectorLen bytes of
// valid UTF-8 without control characters; required says whether "" is an
// error.
func checkSelector(s string, required bool) error {
	if s == "" {
		if required {
			return paramErr("selector is required")
		}
		return nil
	}
	if len(s) > MaxSelectorLen {
		return paramErr("selector is %d bytes; at most %d", len(s), MaxSelectorLen)
	}
	if !utf8.ValidString(s) {
		return paramErr("selector is not valid UTF-8")
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return paramErr("selector contains a control character")
		}
	}
	return nil
}

func clip(s string) string {
	if len(s) > 100 {
		return s[:100] + "…"
	}
	return s
}
