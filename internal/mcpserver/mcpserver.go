// Package mcpserver serves the wiki to AI agents over the Model Context
// Protocol (official Go SDK): the tools crossmem_cite and crossmem_recall,
// with the parameters, defaults and messages of the seed's MCP pages, and,
// when Server.Checker is set, crossmem_verify_quote and
// crossmem_check_draft.
//
// Tool handlers call the same packages as the CLI (internal/cite for
// citations, internal/search for recall, internal/check for quotations and
// drafts) and render their answers with internal/render, as the CLI does.
// Nothing here writes to stdout:
// over stdio, stdout carries only protocol frames.
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/crossmem/crossmem/internal/check"
	"github.com/crossmem/crossmem/internal/citation"
	"github.com/crossmem/crossmem/internal/cite"
	"github.com/crossmem/crossmem/internal/draft"
	"github.com/crossmem/crossmem/internal/render"
	"github.com/crossmem/crossmem/internal/search"
)

// Server holds what the tools read.
type Server struct {
	// Citer renders crossmem_cite's citations from the library's sidecars,
	// as `crossmem cite` does.
	Citer    *cite.Citer
	Searcher search.Searcher
	// Checker verifies quotations and drafts (crossmem_verify_quote,
	// crossmem_check_draft).
	Checker *check.Checker
	Version string
	// BeforeSearch, when set, runs before each recall: the server uses it
	// to pick up notes changed by hand since the last query.
	BeforeSearch func(ctx context.Context)
	// CallTimeout bounds one tools/call (0: DefaultCallTimeout).
	CallTimeout time.Duration
}

// CiteInput is crossmem_cite's arguments.
type CiteInput struct {
	CiteKey string `json:"cite_key" jsonschema:"Citation key, e.g. vaswani2017attention"`
	Format  string `json:"format,omitempty" jsonschema:"Citation style: apa, mla, chicago (notes-bibliography), chicago-author-date, ieee, bibtex, biblatex or csl-json (also chicago-17, chicago-author-date-17); default bibtex"`
}

// RecallInput is crossmem_recall's arguments.
type RecallInput struct {
	Query    string `json:"query" jsonschema:"Search query string. A sentence (or a quoted phrase) that appears verbatim in a chunk ranks that chunk first; a trailing * matches word prefixes"`
	Limit    int    `json:"limit,omitempty" jsonschema:"Max results to return (default 5, capped at 20)"`
	CiteKey  string `json:"cite_key,omitempty" jsonschema:"Only this paper (cite key or alias)"`
	Author   string `json:"author,omitempty" jsonschema:"Only papers with an author whose name contains this (case-insensitive)"`
	YearFrom int    `json:"year_from,omitempty" jsonschema:"Only papers published in or after this year"`
	YearTo   int    `json:"year_to,omitempty" jsonschema:"Only papers published in or before this year"`
	Section  string `json:"section,omitempty" jsonschema:"Only chunks whose section heading contains this (case-insensitive)"`
	Type     string `json:"type,omitempty" jsonschema:"Only chunks of this type: paragraph, heading, caption, ..."`
	Explain  bool   `json:"explain,omitempty" jsonschema:"Add per-result lane ranks and scores (BM25, vector, phrase, fused) and notes on the lanes used"`
}

// SearchQuery returns the search request of in.
func (in RecallInput) SearchQuery() search.Query {
	return search.Query{Text: in.Query, Limit: in.Limit, Key: in.CiteKey, Author: in.Author,
		YearFrom: in.YearFrom, YearTo: in.YearTo, Section: in.Section, Type: in.Type, Explain: in.Explain}
}

// VerifyQuoteInput is crossmem_verify_quote's arguments.
type VerifyQuoteInput struct {
	Quote   string `json:"quote" jsonschema:"The quotation as it stands in the draft (outer quotation marks optional; elisions ... or […] allowed)"`
	CiteKey string `json:"cite_key,omitempty" jsonschema:"The cite key the quotation is attributed to (optional)"`
}

func (s *Server) verifyQuote(ctx context.Context, _ *mcp.CallToolRequest, in VerifyQuoteInput) (*mcp.CallToolResult, check.QuoteResult, error) {
	if err := checkArgs(arg{"quote", in.Quote, MaxQuoteChars}, arg{"cite_key", in.CiteKey, MaxKeyChars}); err != nil {
		return nil, check.QuoteResult{}, toolError{err}
	}
	if strings.TrimSpace(in.Quote) == "" {
		return nil, check.QuoteResult{}, toolError{errors.New("quote is empty: pass the quotation's text")}
	}
	if s.BeforeSearch != nil {
		s.BeforeSearch(ctx)
	}
	var keys []string
	if k := strings.TrimSpace(in.CiteKey); k != "" {
		keys = []string{k}
	}
	r, err := s.Checker.Quote(ctx, in.Quote, keys, nil)
	if err != nil {
		return nil, check.QuoteResult{}, toolError{err}
	}
	return textResult(render.Quote(r)), *r, nil
}

// CheckDraftInput is crossmem_check_draft's arguments.
type CheckDraftInput struct {
	Draft  string `json:"draft" jsonschema:"The draft's full text (LaTeX or pandoc markdown)"`
	Format string `json:"format,omitempty" jsonschema:"latex, markdown, or auto (LaTeX when the text has a LaTeX citation command, else markdown)"`
}

// draftName is the file name Scan is given for a format: its extension
// selects the markup; "draft" (no extension) lets Scan decide.
func draftName(format string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(format)) {
	case "latex", "tex":
		return "draft.tex", nil
	case "markdown", "md":
		return "draft.md", nil
	case "", "auto":
		return "draft", nil
	}
	return "", fmt.Errorf("unknown format %q: use latex, markdown or auto", format)
}

func (s *Server) checkDraft(ctx context.Context, _ *mcp.CallToolRequest, in CheckDraftInput) (*mcp.CallToolResult, *check.Report, error) {
	if len(in.Draft) > MaxDraftBytes {
		return nil, nil, toolError{&search.LimitError{What: "draft", Unit: "bytes", Got: len(in.Draft), Limit: MaxDraftBytes}}
	}
	if err := checkArgs(arg{"format", in.Format, MaxFieldChars}); err != nil {
		return nil, nil, toolError{err}
	}
	name, err := draftName(in.Format)
	if err != nil {
		return nil, nil, toolError{err}
	}
	if strings.TrimSpace(in.Draft) == "" {
		return nil, nil, toolError{errors.New("draft is empty: pass the draft's full text")}
	}
	if s.BeforeSearch != nil {
		s.BeforeSearch(ctx)
	}
	rep, err := s.Checker.Draft(ctx, draft.Scan(name, []byte(in.Draft)))
	if err != nil {
		return nil, nil, toolError{err}
	}
	return textResult(render.Report(rep)), rep, nil
}

// New builds the MCP server with its tools registered: crossmem_cite and
// crossmem_recall, and the checking tools when s.Checker is set.
func (s *Server) New() (*mcp.Server, error) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "crossmem", Version: s.Version}, nil)
	srv.AddReceivingMiddleware(s.guard)

	citeSchema, err := jsonschema.For[CiteInput](nil)
	if err != nil {
		return nil, err
	}
	citeSchema.Required = []string{"cite_key"}
	citeSchema.Properties["format"].Default = json.RawMessage(`"bibtex"`)
	var enum []any
	for _, st := range citation.Styles() {
		enum = append(enum, string(st))
	}
	citeSchema.Properties["format"].Enum = enum
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "crossmem_cite",
		Description: "Look up a citation by cite key and return it in the requested format (bibtex, biblatex, csl-json, apa, mla, chicago, chicago-author-date, ieee), rendered from the library's reconciled metadata. Unknown keys return the closest cite keys in the library; never invent a citation for a key this tool does not know.",
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
		Description: "Search the crossmem wiki for chunks matching a query (BM25; a sentence found verbatim ranks its chunk first). Filters: cite_key, author, year_from, year_to, section, type. Returns ranked excerpts with cite key, title, page, section and a file:// link to the wiki note; quote only from the note's > blockquote lines. A chunk's model-written paraphrase and implication come labelled advisory (search also matches them: advisory_match); they are never quotable.",
		InputSchema: recallSchema,
	}, s.recall)

	if s.Checker != nil {
		vqSchema, err := jsonschema.For[VerifyQuoteInput](nil)
		if err != nil {
			return nil, err
		}
		vqSchema.Required = []string{"quote"}
		mcp.AddTool(srv, &mcp.Tool{
			Name:        "crossmem_verify_quote",
			Description: "Check a quotation against the library before using it: verified (the source's exact words), repaired (matches only after normalizing quotes, dashes, ligatures, hyphenation or case: use the returned source text instead), misattributed (it is from another paper, named), or unverified (in no paper: do not use it; the nearest passages are returned). Gives the source chunk with page, bbox and text_sha256.",
			InputSchema: vqSchema,
		}, s.verifyQuote)

		cdSchema, err := jsonschema.For[CheckDraftInput](nil)
		if err != nil {
			return nil, err
		}
		cdSchema.Required = []string{"draft"}
		cdSchema.Properties["format"].Enum = []any{"auto", "latex", "markdown"}
		cdSchema.Properties["format"].Default = json.RawMessage(`"auto"`)
		mcp.AddTool(srv, &mcp.Tool{
			Name:        "crossmem_check_draft",
			Description: "Check a whole draft (LaTeX or pandoc markdown text) against the library: every quotation (quote environments, \\enquote, ``...'' and \"...\" spans of six or more words, > blockquotes) gets verified / repaired / misattributed / unverified as in crossmem_verify_quote, attributed to the nearest citation in its sentence or paragraph or to its % crossmem: provenance comment; every cited key gets ok / unknown (with suggestions) / metadata-warning. ok is true only when all quotations are verified or repaired and all keys ok.",
			InputSchema: cdSchema,
		}, s.checkDraft)
	}
	return srv, nil
}

// Serve runs the server on t until the client disconnects or ctx is done.
// Use Transport for stdio: the SDK's own transports end the session on a
// malformed message.
func (s *Server) Serve(ctx context.Context, t mcp.Transport) error {
	srv, err := s.New()
	if err != nil {
		return err
	}
	return srv.Run(ctx, t)
}

// errorResult is a tool error the agent reads: "Error: <message>", with
// "Hint: <what to do next>" when err says (render.ErrorText).
func errorResult(err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: render.ErrorText(err)}}}
}

// toolError is err worded as errorResult words it. A handler returns it as
// its error: the SDK then answers with isError and that text, and no
// structured content.
type toolError struct{ err error }

func (e toolError) Error() string { return render.ErrorText(e.err) }
func (e toolError) Unwrap() error { return e.err }

func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

func (s *Server) cite(ctx context.Context, _ *mcp.CallToolRequest, in CiteInput) (*mcp.CallToolResult, render.CiteOutput, error) {
	if err := checkArgs(arg{"cite_key", in.CiteKey, MaxKeyChars}, arg{"format", in.Format, MaxFieldChars}); err != nil {
		return nil, render.CiteOutput{}, toolError{err}
	}
	format := in.Format
	if strings.TrimSpace(format) == "" {
		format = string(citation.BibTeX)
	}
	st, err := citation.ParseStyle(format)
	if err != nil {
		return nil, render.CiteOutput{}, toolError{err}
	}
	c, err := s.Citer.Cite(in.CiteKey, st)
	if err != nil {
		return nil, render.CiteOutput{}, toolError{err}
	}
	return textResult(c.Text), render.Cite(c), nil
}

func (s *Server) recall(ctx context.Context, _ *mcp.CallToolRequest, in RecallInput) (*mcp.CallToolResult, render.RecallOutput, error) {
	if err := checkArgs(arg{"query", in.Query, search.MaxQueryChars}, arg{"cite_key", in.CiteKey, MaxKeyChars},
		arg{"author", in.Author, MaxFieldChars}, arg{"section", in.Section, MaxFieldChars}, arg{"type", in.Type, MaxFieldChars}); err != nil {
		return nil, render.RecallOutput{}, toolError{err}
	}
	if s.BeforeSearch != nil {
		s.BeforeSearch(ctx)
	}
	res, err := s.Searcher.Search(ctx, in.SearchQuery())
	if err != nil {
		return nil, render.RecallOutput{}, toolError{err}
	}
	return textResult(render.SearchText(in.Query, res, in.Explain)), render.Recall(in.Query, res), nil
}

// ServeStdio runs the server over in and out (a client's pipes: stdin and
// stdout for `crossmem mcp serve`) with Transport, logging protocol
// problems to logger, until the client disconnects or ctx is done. It does
// not close in or out.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer, logger *slog.Logger) error {
	return s.Serve(ctx, &Transport{Reader: in, Writer: out, Logger: logger})
}
