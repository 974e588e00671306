package mcpserver_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	notechunk "github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/corpustest"
	"github.com/crossmem/crossmem/internal/note"
)

// TestTypeScriptClientFigureImage: the official MCP TypeScript client
// recalls a figure of a paper the binary captured and compiled, by words
// of its caption, with images: true, and gets the figure's crop as image
// content — the very PNG the note records (image_sha256) — and its path;
// then reads the figure chunk with crossmem_read and images: true and gets
// the same PNG as image content and its path.
func TestTypeScriptClientFigureImage(t *testing.T) {
	corpustest.Slow(t, "builds cmd/crossmem and runs node")
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH: this end-to-end test runs the official MCP TypeScript client (Node 20+; then run npm ci in test/mcp-e2e)")
	}
	dir := filepath.Join(corpustest.Root(t), "test", "mcp-e2e")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		t.Skipf("test/mcp-e2e/node_modules is missing the MCP TypeScript SDK: run npm ci in test/mcp-e2e (%v)", err)
	}
	bin := buildBinary(t)
	lib := library{Home: filepath.Join(t.TempDir(), "home")}
	lib.runBinary(t, bin, "capture", corpustest.Dir(t, "pdf", changPDF), "--cite-key", changKey)
	lib.runBinary(t, bin, "compile", changKey, "--no-llm")

	// A captioned figure of the note, and the query: its caption's first
	// words.
	notes, _ := filepath.Glob(filepath.Join(lib.Home, "wiki", "*_"+changKey+".md"))
	if len(notes) != 1 {
		t.Fatalf("notes %v", notes)
	}
	data, err := os.ReadFile(notes[0])
	if err != nil {
		t.Fatal(err)
	}
	n, err := note.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	var fig *notechunk.Chunk
	for i, c := range n.Chunks {
		if c.Type == notechunk.TypeFigure && len(strings.Fields(c.Text)) >= 6 && c.Image != "" {
			fig = &n.Chunks[i]
			break
		}
	}
	if fig == nil {
		t.Fatal("the note has no captioned figure with an image")
	}
	query := strings.Join(strings.Fields(fig.Text)[:6], " ")

	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(dir, "figure.mjs"), bin, changKey, query)
	cmd.Dir = dir
	cmd.Env = lib.processEnv()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	var got struct {
		OK       bool     `json:"ok"`
		Failures []string `json:"failures"`
		Hit      struct {
			ChunkID string `json:"chunk_id"`
			Image   string `json:"image"`
		} `json:"hit"`
		Images []struct {
			MIMEType string `json:"mimeType"`
			SHA256   string `json:"sha256"`
		} `json:"images"`
		Read struct {
			Chunk struct {
				ChunkID string `json:"chunk_id"`
				Image   string `json:"image"`
			} `json:"chunk"`
			Images []struct {
				SHA256 string `json:"sha256"`
			} `json:"images"`
		} `json:"read"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("figure.mjs: %v; stdout is not one JSON object (%v):\n%s\nstderr:\n%s", runErr, err, stdout.String(), stderr.String())
	}
	if runErr != nil || !got.OK {
		t.Fatalf("figure.mjs: %v, failures:\n%s\nstderr:\n%s", runErr, strings.Join(got.Failures, "\n"), stderr.String())
	}
	if got.Hit.ChunkID != fig.ID {
		t.Errorf("first hit %s, want the figure %s (query %q)", got.Hit.ChunkID, fig.ID, query)
	}
	if want := filepath.Join(lib.Home, filepath.FromSlash(fig.Image)); got.Hit.Image != want {
		t.Errorf("hit image %q, want %q", got.Hit.Image, want)
	}
	png, err := os.ReadFile(got.Hit.Image)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(png)
	if hex.EncodeToString(sum[:]) != fig.ImageSHA256 {
		t.Errorf("the crop on disk does not hash to the note's image_sha256")
	}
	if len(got.Images) == 0 || got.Images[0].SHA256 != fig.ImageSHA256 {
		t.Errorf("image content %+v, want the figure's PNG (sha256 %s) first", got.Images, fig.ImageSHA256)
	}
	// crossmem_read of the figure chunk.
	if got.Read.Chunk.ChunkID != fig.ID {
		t.Errorf("read chunk %q, want %s", got.Read.Chunk.ChunkID, fig.ID)
	}
	if want := filepath.Join(lib.Home, filepath.FromSlash(fig.Image)); got.Read.Chunk.Image != want {
		t.Errorf("read chunk image %q, want %q", got.Read.Chunk.Image, want)
	}
	if len(got.Read.Images) != 1 || got.Read.Images[0].SHA256 != fig.ImageSHA256 {
		t.Errorf("read image content %+v, want the figure's PNG (sha256 %s)", got.Read.Images, fig.ImageSHA256)
	}
}
