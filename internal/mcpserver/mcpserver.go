// Package mcpserver serves the wiki to AI agents over the Model Context
// Protocol (official Go SDK): the tools crossmem_cite and crossmem_recall,
// with the parameters, defaults and messages of the seed's MCP pages, and,
// when Server.Checker is set, crossmem_verify_quote and
// crossmem_check_draft.
//
// Tool handlers call the same packages as the CLI (internal/cite for
// citations, internal/search for recall, internal/check for quotations and
// drafts). Nothing here writes to stdout:
// over stdio, stdout carries only protocol frames.
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/crossmem/crossmem/internal/check"
	"github.com/crossmem/crossmem/internal/citation"
	"github.com/crossmem/crossmem/internal/cite"
	"github.com/crossmem/crossmem/internal/draft"
	"github.com/crossmem/crossmem/internal/search"
)

// FormatNames lists the formats crossmem_cite accepts (citation.Styles),
// comma-separated.
func FormatNames() string {
	names := make([]string, 0, len(citation.Styles()))
	for _, st := range citation.Styles() {
		names = append(names, string(st))
	}
	return strings.Join(names, ", ")
}

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

// CiteOutput is crossmem_cite's structured result (and `crossmem cite
// --json`).
type CiteOutput struct {
	// CiteKey is the key asked for; PaperCiteKey the paper's current key
	// when CiteKey is an alias of it (crossmem rekey).
	CiteKey      string `json:"cite_key"`
	PaperCiteKey string `json:"paper_cite_key,omitempty"`
	Format       string `json:"format"`
	Citation     string `json:"citation"`
	// CitedVersion is "captured" or "published" (config [citation] version).
	CitedVersion string `json:"cited_version"`
	// Warnings are the metadata reconciliation warnings of the cited record:
	// sources that disagreed or could not be cross-checked.
	Warnings []string `json:"warnings"`
}

// Cite renders key in format for crossmem_cite and `crossmem cite`.
// Errors: an unknown format (mention the valid ones), *cite.NotFoundError,
// cite.ErrNothingToCite.
func Cite(c *cite.Citer, key, format string) (CiteOutput, error) {
	if strings.TrimSpace(format) == "" {
		format = string(citation.BibTeX)
	}
	st, err := citation.ParseStyle(format)
	if err != nil {
		return CiteOutput{}, fmt.Errorf("unknown format '%s'. Use one of: %s", format, FormatNames())
	}
	ci, err := c.Cite(strings.TrimSpace(key), st)
	if err != nil {
		return CiteOutput{}, err
	}
	out := CiteOutput{CiteKey: ci.Key, Format: string(st), Citation: ci.Text, CitedVersion: ci.CitedVersion, Warnings: ci.Warnings}
	if ci.CiteKey != ci.Key {
		out.PaperCiteKey = ci.CiteKey
	}
	if out.Warnings == nil {
		out.Warnings = []string{}
	}
	return out, nil
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

// RecallOutput is crossmem_recall's structured result.
type RecallOutput struct {
	Query   string       `json:"query"`
	Results []search.Hit `json:"results"`
	Notes   []string     `json:"notes,omitempty"`
}

// SearchQuery returns the search request of in.
func (in RecallInput) SearchQuery() search.Query {
	return search.Query{Text: in.Query, Limit: in.Limit, CiteKey: in.CiteKey, Author: in.Author,
		YearFrom: in.YearFrom, YearTo: in.YearTo, Section: in.Section, Type: in.Type, Explain: in.Explain}
}

// VerifyQuoteInput is crossmem_verify_quote's arguments.
type VerifyQuoteInput struct {
	Quote   string `json:"quote" jsonschema:"The quotation as it stands in the draft (outer quotation marks optional; elisions ... or […] allowed)"`
	CiteKey string `json:"cite_key,omitempty" jsonschema:"The cite key the quotation is attributed to (optional)"`
}

func (s *Server) verifyQuote(ctx context.Context, _ *mcp.CallToolRequest, in VerifyQuoteInput) (*mcp.CallToolResult, check.QuoteResult, error) {
	if err := checkArgs(arg{"quote", in.Quote, MaxQuoteChars}, arg{"cite_key", in.CiteKey, MaxKeyChars}); err != nil {
		return nil, check.QuoteResult{}, err
	}
	if strings.TrimSpace(in.Quote) == "" {
		return nil, check.QuoteResult{}, errors.New("quote is empty: pass the quotation's text")
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
		return nil, check.QuoteResult{}, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: r.Format()}}}, *r, nil
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
		return nil, nil, &search.LimitError{What: "draft", Unit: "bytes", Got: len(in.Draft), Limit: MaxDraftBytes}
	}
	if err := checkArgs(arg{"format", in.Format, MaxFieldChars}); err != nil {
		return nil, nil, err
	}
	name, err := draftName(in.Format)
	if err != nil {
		return nil, nil, err
	}
	if strings.TrimSpace(in.Draft) == "" {
		return nil, nil, errors.New("draft is empty: pass the draft's full text")
	}
	if s.BeforeSearch != nil {
		s.BeforeSearch(ctx)
	}
	rep, err := s.Checker.Draft(ctx, draft.Scan(name, []byte(in.Draft)))
	if err != nil {
		return nil, nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: rep.Format()}}}, rep, nil
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
		Description: "Search the crossmem wiki for chunks matching a query (BM25; a sentence found verbatim ranks its chunk first). Filters: cite_key, author, year_from, year_to, section, type. Returns ranked excerpts with cite key, title, page, section and a file:// link to the wiki note; quote only from the note's > blockquote lines.",
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

func errorResult(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "Error: " + msg}}}
}

func (s *Server) cite(ctx context.Context, _ *mcp.CallToolRequest, in CiteInput) (*mcp.CallToolResult, CiteOutput, error) {
	if err := checkArgs(arg{"cite_key", in.CiteKey, MaxKeyChars}, arg{"format", in.Format, MaxFieldChars}); err != nil {
		return errorResult(err.Error()), CiteOutput{}, nil
	}
	out, err := Cite(s.Citer, in.CiteKey, in.Format)
	if err != nil {
		return errorResult(err.Error()), CiteOutput{}, nil
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: out.Citation}}}, out, nil
}

func (s *Server) recall(ctx context.Context, _ *mcp.CallToolRequest, in RecallInput) (*mcp.CallToolResult, RecallOutput, error) {
	if err := checkArgs(arg{"query", in.Query, search.MaxQueryChars}, arg{"cite_key", in.CiteKey, MaxKeyChars},
		arg{"author", in.Author, MaxFieldChars}, arg{"section", in.Section, MaxFieldChars}, arg{"type", in.Type, MaxFieldChars}); err != nil {
		return nil, RecallOutput{}, err
	}
	if s.BeforeSearch != nil {
		s.BeforeSearch(ctx)
	}
	res, err := s.Searcher.Search(ctx, in.SearchQuery())
	if err != nil {
		return nil, RecallOutput{}, err
	}
	out := RecallOutput{Query: in.Query, Results: res.Hits, Notes: res.Notes}
	if out.Results == nil {
		out.Results = []search.Hit{}
	}
	text := FormatHits(in.Query, out.Results)
	if in.Explain {
		text += "\n" + FormatExplain(out.Results, out.Notes)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
}

// FormatExplain renders the lanes' notes and each result's ranks and
// scores (recall's and search's explain output).
func FormatExplain(hits []search.Hit, notes []string) string {
	var b strings.Builder
	b.WriteString("explain:")
	for _, n := range notes {
		fmt.Fprintf(&b, "\n  %s", n)
	}
	for i, h := range hits {
		if e := h.Explain; e != nil {
			fmt.Fprintf(&b, "\n  %d. %s %s: phrase=%v bm25_rank=%d bm25=%.4f vector_rank=%d vector=%.4f fused=%.6f",
				i+1, h.CiteKey, h.ChunkID, e.Phrase, e.BM25Rank, e.BM25Score, e.VectorRank, e.VectorScore, e.Fused)
		}
	}
	return b.String()
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
