package cli

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/crossmem/crossmem/internal/bridge"
	"github.com/crossmem/crossmem/internal/capture"
	"github.com/crossmem/crossmem/internal/identifier"
	"github.com/crossmem/crossmem/internal/library"
)

// bridgeFiles returns the paths of the bridge's token and paired-extension
// files: beside the config file.
func (a *app) bridgeFiles() (token, extension string, err error) {
	cfg, err := a.config()
	if err != nil {
		return "", "", err
	}
	dir := filepath.Dir(cfg.ConfigPath)
	return filepath.Join(dir, bridge.TokenFile), filepath.Join(dir, bridge.ExtensionFile), nil
}

// newBridge makes the bridge of crossmem serve: the token (created on
// first run), the extension configured or paired before, a fresh pairing
// code, and captures run as `crossmem capture` runs them.
func (a *app) newBridge(lib *library.Library) (*bridge.Bridge, error) {
	cfg, err := a.config()
	if err != nil {
		return nil, err
	}
	tokenPath, extPath, err := a.bridgeFiles()
	if err != nil {
		return nil, err
	}
	tok, err := bridge.LoadOrCreateToken(tokenPath)
	if err != nil {
		return nil, err
	}
	code, err := bridge.NewPairingCode()
	if err != nil {
		return nil, err
	}
	b := &bridge.Bridge{Token: tok, PairingCode: code, OriginFile: extPath, Capture: a.bridgeCapture(lib)}
	if cfg.ExtensionID != "" {
		o, err := bridge.ExtensionOrigin(cfg.ExtensionID)
		if err != nil {
			return nil, fmt.Errorf("[serve] extension_id in %s: %w", cfg.ConfigPath, err)
		}
		b.ExtensionOrigin, b.Configured = o, true
	} else if data, err := os.ReadFile(extPath); err == nil {
		if o, err := bridge.ExtensionOrigin(strings.TrimSpace(string(data))); err == nil {
			b.ExtensionOrigin = o
		}
	}
	return b, nil
}

// bridgeCapture runs POST /capture as `crossmem capture` runs a local PDF
// (the bytes the browser fetched, the page's address as the source) or an
// identifier: the same options, keys and idempotence. One at a time.
func (a *app) bridgeCapture(lib *library.Library) bridge.CaptureFunc {
	var mu sync.Mutex
	return func(ctx context.Context, r bridge.CaptureRequest) (*bridge.CaptureResult, error) {
		mu.Lock()
		defer mu.Unlock()
		opts, err := a.captureOptions(ctx, false, 0)
		if err != nil {
			return nil, err
		}
		opts.DOI = r.DOI
		input := r.Identifier
		if r.PDF != nil {
			file, cleanup, err := tempPDF(r.PDF, r.SourceURL)
			if err != nil {
				return nil, err
			}
			defer cleanup()
			input, opts.SourceURL = file, r.SourceURL
		}
		res, err := capture.Run(ctx, lib, input, opts)
		if err != nil {
			if errors.Is(err, identifier.ErrUnrecognized) || errors.Is(err, capture.ErrNeedMetadata) {
				return nil, &bridge.CaptureError{Err: err}
			}
			return nil, err
		}
		p := res.Paper
		return &bridge.CaptureResult{CiteKey: p.CiteKey, Existing: res.Existing, PDF: p.PDFPath, Sidecar: p.SidecarPath,
			Pending: p.LookupPending, Warnings: p.Metadata.Warnings}, nil
	}
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// tempPDF writes data to a private temporary folder under a name taken
// from the URL's last path element (sanitised; "download.pdf" when it
// gives none) and returns the path and a function that removes it.
func tempPDF(data []byte, source string) (string, func(), error) {
	dir, err := os.MkdirTemp("", "crossmem-browser-")
	if err != nil {
		return "", nil, fmt.Errorf("a temporary folder for the browser's PDF: %w", err)
	}
	cleanup := func() { os.RemoveAll(dir) }
	name := "download.pdf"
	if u, err := url.Parse(source); err == nil {
		if b := unsafeName.ReplaceAllString(path.Base(u.Path), "_"); strings.HasSuffix(strings.ToLower(b), ".pdf") && len(b) <= 100 && !strings.HasPrefix(b, ".") {
			name = b
		}
	}
	file := filepath.Join(dir, name)
	if err := os.WriteFile(file, data, 0o600); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("write the browser's PDF: %w", err)
	}
	return file, cleanup, nil
}

func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// fetchedPDF is the result of the extension's fetch_pdf.
type fetchedPDF struct {
	URL         string `json:"url"`          // the final address, after redirects
	ContentType string `json:"content_type"` // as the server said
	Data        string `json:"data_base64"`
}

// captureViaBrowser asks the extension connected to crossmem serve to
// fetch rawURL with the browser's logins, then captures the PDF as a
// local one whose source is that address.
func captureViaBrowser(ctx context.Context, o *captureOptions, lib *library.Library, rawURL string, opts capture.Options) error {
	a := o.app
	data, final, err := a.fetchViaBrowser(ctx, rawURL)
	if err != nil {
		return err
	}
	file, cleanup, err := tempPDF(data, final)
	if err != nil {
		return err
	}
	defer cleanup()
	opts.SourceURL = final
	return captureSingle(ctx, o, lib, file, opts)
}

// fetchViaBrowser sends fetch_pdf to the running crossmem serve and
// returns the PDF's bytes and final address.
func (a *app) fetchViaBrowser(ctx context.Context, rawURL string) ([]byte, string, error) {
	cfg, err := a.config()
	if err != nil {
		return nil, "", err
	}
	tokenPath, _, err := a.bridgeFiles()
	if err != nil {
		return nil, "", err
	}
	tok, err := os.ReadFile(tokenPath)
	if err != nil {
		return nil, "", fmt.Errorf("no bridge token (%s): run crossmem serve and pair the browser extension first: %w", tokenPath, err)
	}
	body, _ := json.Marshal(map[string]any{"action": "fetch_pdf", "params": map[string]string{"url": rawURL},
		"agentId": "crossmem-cli", "timeout_ms": int(bridge.MaxCommandTimeout.Milliseconds())})
	base := "http://127.0.0.1:" + strconv.Itoa(cfg.ServePort)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/command", bytes.NewReader(body))
	if err != nil {
		return nil, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(tok)))
	if !a.quiet && !a.json {
		fmt.Fprintf(a.io.Out, "[capture] asking the browser for %s\n", rawURL)
	}
	client := &http.Client{Timeout: bridge.MaxCommandTimeout + 10*time.Second}
	res, err := client.Do(req)
	if err != nil {
		if errors.Is(err, syscall.ECONNREFUSED) {
			return nil, "", fmt.Errorf("crossmem serve is not running on %s: start it (crossmem serve) with the browser extension connected", base)
		}
		return nil, "", fmt.Errorf("ask crossmem serve at %s: %w", base, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, bridge.MaxMessage))
	if err != nil {
		return nil, "", fmt.Errorf("read crossmem serve's answer: %w", err)
	}
	var rep struct {
		OK     bool       `json:"ok"`
		Error  string     `json:"error"`
		Result fetchedPDF `json:"result"`
	}
	if res.StatusCode != http.StatusOK {
		if json.Unmarshal(raw, &rep) == nil && rep.Error != "" {
			return nil, "", fmt.Errorf("crossmem serve: %s", rep.Error)
		}
		return nil, "", fmt.Errorf("crossmem serve answered %s: %s", res.Status, strings.TrimSpace(string(raw)))
	}
	if err := json.Unmarshal(raw, &rep); err != nil {
		return nil, "", fmt.Errorf("crossmem serve's answer: %w", err)
	}
	if !rep.OK {
		return nil, "", fmt.Errorf("the browser could not fetch %s: %s", rawURL, rep.Error)
	}
	data, err := base64.StdEncoding.DecodeString(rep.Result.Data)
	if err != nil {
		return nil, "", fmt.Errorf("the browser's answer: %w", err)
	}
	if !bytes.HasPrefix(data, []byte("%PDF-")) {
		return nil, "", fmt.Errorf("%s is not a PDF (the browser got %s): open it in the browser to see what it is", rawURL, rep.Result.ContentType)
	}
	final := rep.Result.URL
	if !isHTTPURL(final) {
		final = rawURL
	}
	return data, final, nil
}
