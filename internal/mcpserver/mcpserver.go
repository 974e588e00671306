// Package mcpserver serves the wiki to AI agents over the Model Context
// Protocol (official Go SDK): the tools crossmem_cite and crossmem_recall,
// with the parameters, defaults and messages of the seed's MCP pages.
//
// Tool handlers call the same packages as the CLI (internal/wiki for
// citations, internal/search for recall). Nothing here writes to stdout:
// over stdio, stdout carries only protocol frames.
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/crossmem/crossmem/internal/search"
	"github.com/crossmem/crossmem/internal/wiki"
)

// Formats are the citation formats crossmem_cite accepts, by the name the
// caller passes, with the note section each reads.
var Formats = []struct{ Name, Heading string }{
	{"bibtex", "BibTeX"},
	{"apa", "APA"},
	{"mla", "MLA"},
	{"chicago", "Chicago"},
	{"ieee", "IEEE"},
}

// Heading returns the note section heading for a format name
// (case-insensitive), or false for an unknown format.
func Heading(format string) (string, bool) {
	for _, f := range Formats {
		if strings.EqualFold(f.Name, strings.TrimSpace(format)) {
			return f.Heading, true
		}
	}
	return "", false
}

// FormatNames lists the accepted format names, comma-separated.
func FormatNames() string {
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = f.Name
	}
	return strings.Join(names, ", ")
}

// Server holds what the tools read.
type Server struct {
	Store    *wiki.Store
	Searcher search.Searcher
	Version  string
}

// CiteInput is crossmem_cite's arguments.
type CiteInput struct {
	CiteKey string `json:"cite_key" jsonschema:"Citation key, e.g. vaswani2017attention"`
	Format  string `json:"format,omitempty" jsonschema:"One of: bibtex, apa, mla, chicago, ieee (default bibtex)"`
}

// CiteOutput is crossmem_cite's structured result.
type CiteOutput struct {
	CiteKey  string `json:"cite_key"`
	Format   string `json:"format"`
	Citation string `json:"citation"`
}

// RecallInput is crossmem_recall's arguments.
type RecallInput struct {
	Query string `json:"query" jsonschema:"Search query string"`
	Limit int    `json:"limit,omitempty" jsonschema:"Max results to return (default 5, capped at 20)"`
}

// RecallOutput is crossmem_recall's structured result.
type RecallOutput struct {
	Query   string       `json:"query"`
	Results []search.Hit `json:"results"`
}

// New builds the MCP server with both tools registered.
func (s *Server) New() (*mcp.Server, error) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "crossmem", Version: s.Version}, nil)

	citeSchema, err := jsonschema.For[CiteInput](nil)
	if err != nil {
		return nil, err
	}
	citeSchema.Required = []string{"cite_key"}
	citeSchema.Properties["format"].Default = json.RawMessage(`"bibtex"`)
	enum := make([]any, len(Formats))
	for i, f := range Formats {
		enum[i] = f.Name
	}
	citeSchema.Properties["format"].Enum = enum
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "crossmem_cite",
		Description: "Look up a citation by cite key and return it in the requested format (bibtex, apa, mla, chicago, ieee). Unknown keys return the closest cite keys in the library.",
		InputSchema: citeSchema,
	}, s.cite)

	recallSchema, err := jsonschema.For[RecallInput](nil)
	if err != nil {
		return nil, err
	}
	recallSchema.Required = []string{"query"}
	recallSchema.Properties["limit"].Default = json.RawMessage(`5`)
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "crossmem_recall",
		Description: "Search the crossmem wiki for chunks matching a query. Returns ranked excerpts with cite key, title, page, section and a file:// link to the wiki note; quote only from the note's > blockquote lines.",
		InputSchema: recallSchema,
	}, s.recall)
	return srv, nil
}

// Serve runs the server on t until the client disconnects or ctx is done.
func (s *Server) Serve(ctx context.Context, t mcp.Transport) error {
	srv, err := s.New()
	if err != nil {
		return err
	}
	return srv.Run(ctx, t)
}

func errorResult(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "Error: " + msg}}}
}

func (s *Server) cite(ctx context.Context, _ *mcp.CallToolRequest, in CiteInput) (*mcp.CallToolResult, CiteOutput, error) {
	format := in.Format
	if format == "" {
		format = "bibtex"
	}
	heading, ok := Heading(format)
	if !ok {
		return errorResult(fmt.Sprintf("unknown format '%s'. Use one of: %s", format, FormatNames())), CiteOutput{}, nil
	}
	key := strings.TrimSpace(in.CiteKey)
	text, err := s.Store.Cite(key, heading)
	if err != nil {
		var nf *wiki.NotFoundError
		var ff *wiki.FormatNotFoundError
		if errors.As(err, &nf) || errors.As(err, &ff) {
			return errorResult(err.Error()), CiteOutput{}, nil
		}
		return nil, CiteOutput{}, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}},
		CiteOutput{CiteKey: key, Format: strings.ToLower(format), Citation: text}, nil
}

func (s *Server) recall(ctx context.Context, _ *mcp.CallToolRequest, in RecallInput) (*mcp.CallToolResult, RecallOutput, error) {
	hits, err := s.Searcher.Search(ctx, search.Query{Text: in.Query, Limit: in.Limit})
	if err != nil {
		return nil, RecallOutput{}, err
	}
	out := RecallOutput{Query: in.Query, Results: hits}
	if out.Results == nil {
		out.Results = []search.Hit{}
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: FormatHits(in.Query, hits)}}}, out, nil
}

// FormatHits renders search results as the seed's numbered list, or
// "No results for query: '<q>'".
func FormatHits(query string, hits []search.Hit) string {
	if len(hits) == 0 {
		return fmt.Sprintf("No results for query: '%s'", query)
	}
	var b strings.Builder
	for i, h := range hits {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%d. [%s] %s\n", i+1, h.CiteKey, h.Title)
		fmt.Fprintf(&b, "   section: %s\n", h.Location())
		fmt.Fprintf(&b, "   chunk: %s\n", h.ChunkID)
		fmt.Fprintf(&b, "   excerpt: %s\n", h.Excerpt)
		fmt.Fprintf(&b, "   link: %s\n", h.Link)
	}
	return strings.TrimRight(b.String(), "\n")
}
