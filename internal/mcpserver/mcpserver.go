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
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/crossmem/crossmem/internal/catalog"
	"github.com/crossmem/crossmem/internal/check"
	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/citation"
	"github.com/crossmem/crossmem/internal/cite"
	"github.com/crossmem/crossmem/internal/draft"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/index"
	"github.com/crossmem/crossmem/internal/library"
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
	// Index reads chunks (crossmem_read) and counts notes' chunks
	// (crossmem_list, the instructions); Library lists papers
	// (crossmem_list). Without them those tools are not offered.
	Index   *index.Index
	Library *library.Library
	// Home is the library folder the server serves, stated in its
	// instructions. Missing is true when it does not exist: the
	// instructions say so and every tool answers with that error.
	Home    string
	Missing bool
	Version string
	// BeforeSearch, when set, runs before each tool that reads the
	// index: the server uses it to pick up notes changed by hand since
	// the last query.
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
	Query     string `json:"query" jsonschema:"Search query string. A sentence (or a quoted phrase) that appears verbatim in a chunk ranks that chunk first; a trailing * matches word prefixes"`
	Limit     int    `json:"limit,omitempty" jsonschema:"Max results to return (default 5, capped at 20)"`
	CiteKey   string `json:"cite_key,omitempty" jsonschema:"Only this paper (cite key or alias; an unknown key is an error)"`
	Author    string `json:"author,omitempty" jsonschema:"Only papers with an author whose name contains this (case-insensitive)"`
	YearFrom  int    `json:"year_from,omitempty" jsonschema:"Only papers published in or after this year"`
	YearTo    int    `json:"year_to,omitempty" jsonschema:"Only papers published in or before this year (not before year_from)"`
	Section   string `json:"section,omitempty" jsonschema:"Only chunks whose section heading contains this (case-insensitive)"`
	Type      string `json:"type,omitempty" jsonschema:"Only chunks of this type: paragraph, heading, list_item, figure (its text is its caption; the hit names its image), table (its cells: one row per line, cells separated by tabs), caption (a table's or a listing's caption), figure_text, equation, code, footnote, reference; page_header, page_footer and margin_note are page furniture, left out unless asked"`
	Images    bool   `json:"images,omitempty" jsonschema:"Also return the picture of each figure among the results as image content (PNG, the figure's region as the PDF draws it), to look at the figure before citing it"`
	Furniture bool   `json:"furniture,omitempty" jsonschema:"Include page furniture (running heads, page numbers, margin stamps)"`
	Explain   bool   `json:"explain,omitempty" jsonschema:"Add per-result lane ranks and scores (BM25, vector, phrase, fused) and notes on the lanes used"`
}

// SearchQuery returns the search request of in.
func (in RecallInput) SearchQuery() search.Query {
	return search.Query{Text: in.Query, Limit: in.Limit, Key: in.CiteKey, Author: in.Author,
		YearFrom: in.YearFrom, YearTo: in.YearTo, Section: in.Section, Type: in.Type, Furniture: in.Furniture, Explain: in.Explain}
}

// VerifyQuoteInput is crossmem_verify_quote's arguments.
type VerifyQuoteInput struct {
	Quote   string `json:"quote" jsonschema:"The quotation as it stands in the draft (outer quotation marks optional; elisions ... or […] allowed; at least 3 words)"`
	CiteKey string `json:"cite_key,omitempty" jsonschema:"The cite key the quotation is attributed to; without one the answer says where the quotation is"`
	Page    string `json:"page,omitempty" jsonschema:"The page the citation gives, as a string (\"11\", \"p. 11\", \"pp. 11-12\", \"xii\"): checked against the printed page the quotation is on"`
}

func (s *Server) verifyQuote(ctx context.Context, _ *mcp.CallToolRequest, in VerifyQuoteInput) (*mcp.CallToolResult, check.QuoteResult, error) {
	if err := checkArgs(arg{"quote", in.Quote, MaxQuoteChars}, arg{"cite_key", in.CiteKey, MaxKeyChars}, arg{"page", in.Page, MaxFieldChars}); err != nil {
		return nil, check.QuoteResult{}, toolError{err}
	}
	if strings.TrimSpace(in.Quote) == "" {
		return nil, check.QuoteResult{}, toolError{errors.New("quote is empty: pass the quotation's text")}
	}
	if err := s.ready(ctx, true); err != nil {
		return nil, check.QuoteResult{}, toolError{err}
	}
	req := check.Request{Quote: in.Quote, Locator: strings.TrimSpace(in.Page)}
	if k := strings.TrimSpace(in.CiteKey); k != "" {
		req.Keys = []string{k}
	} else {
		req.Anywhere = true
	}
	r, err := s.Checker.Check(ctx, req)
	if err != nil {
		return nil, check.QuoteResult{}, toolError{err}
	}
	return textResult(render.Quote(r)), *r, nil
}

// CheckDraftInput is crossmem_check_draft's arguments.
type CheckDraftInput struct {
	Draft  string `json:"draft" jsonschema:"The draft's full text (LaTeX or pandoc markdown)"`
	Format string `json:"format,omitempty" jsonschema:"latex, markdown, or auto (LaTeX when the text has a LaTeX citation command, else markdown)"`
	Strict bool   `json:"strict,omitempty" jsonschema:"Fail on metadata warnings too (an offline capture carries one until refreshed); default false: they are reported only"`
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
	if err := draft.CheckText("", []byte(in.Draft)); err != nil {
		return nil, nil, toolError{err}
	}
	if err := s.ready(ctx, true); err != nil {
		return nil, nil, toolError{err}
	}
	rep, err := s.Checker.Draft(ctx, draft.Scan(name, []byte(in.Draft)), check.DraftOptions{Strict: in.Strict})
	if err != nil {
		return nil, nil, toolError{err}
	}
	return textResult(render.Report(rep)), rep, nil
}

// ReadInput is crossmem_read's arguments.
type ReadInput struct {
	CiteKey   string `json:"cite_key" jsonschema:"The paper (cite key or alias)"`
	ChunkID   string `json:"chunk_id,omitempty" jsonschema:"One chunk, as crossmem_recall names it (e.g. p2s1c4)"`
	Page      int    `json:"page,omitempty" jsonschema:"Every chunk of this PDF page (1-based)"`
	PageLabel string `json:"page_label,omitempty" jsonschema:"Every chunk of the page with this printed page, as printed_page gives it: the PDF's page label, else the number in its running head or foot, as a string (e.g. \"46\", \"xii\", \"4970\"); for the PDF's own page number use page"`
	Section   string `json:"section,omitempty" jsonschema:"Every chunk of the first section whose title contains this (case-insensitive), subsections included"`
	Furniture bool   `json:"furniture,omitempty" jsonschema:"Include running heads, page numbers and margin notes in a page or section"`
	Images    bool   `json:"images,omitempty" jsonschema:"Also return the picture of each figure chunk read as image content (PNG, the figure's region as the PDF draws it), to look at the figure before citing it"`
}

func (s *Server) read(ctx context.Context, _ *mcp.CallToolRequest, in ReadInput) (*mcp.CallToolResult, render.ReadOutput, error) {
	if err := checkArgs(arg{"cite_key", in.CiteKey, MaxKeyChars}, arg{"chunk_id", in.ChunkID, MaxFieldChars},
		arg{"page_label", in.PageLabel, MaxFieldChars}, arg{"section", in.Section, MaxFieldChars}); err != nil {
		return nil, render.ReadOutput{}, toolError{err}
	}
	if in.Page < 0 {
		return nil, render.ReadOutput{}, toolError{fmt.Errorf("page %d: pages are numbered from 1", in.Page)}
	}
	if err := s.ready(ctx, true); err != nil {
		return nil, render.ReadOutput{}, toolError{err}
	}
	key := strings.TrimSpace(in.CiteKey)
	r, err := s.Index.Read(ctx, index.ReadQuery{Key: key, ChunkID: strings.TrimSpace(in.ChunkID), Page: in.Page,
		PageLabel: strings.TrimSpace(in.PageLabel), Section: strings.TrimSpace(in.Section), Furniture: in.Furniture})
	if errors.Is(err, index.ErrUnknownPaper) && s.Citer != nil {
		err = s.Citer.NotCompiled(key)
	}
	if err != nil {
		return nil, render.ReadOutput{}, toolError{err}
	}
	out := render.Read(key, r)
	res := textResult(render.ReadText(out))
	if in.Images {
		var paths []string
		for _, c := range out.Chunks {
			paths = append(paths, c.Image)
		}
		res.Content = append(res.Content, figureImages(paths)...)
	}
	return res, out, nil
}

// ListInput is crossmem_list's arguments.
type ListInput struct {
	Query    string `json:"query,omitempty" jsonschema:"Only papers whose cite key, alias, title or an author's name contains this (case-insensitive)"`
	Author   string `json:"author,omitempty" jsonschema:"Only papers with an author whose name contains this (case-insensitive)"`
	YearFrom int    `json:"year_from,omitempty" jsonschema:"Only papers published in or after this year"`
	YearTo   int    `json:"year_to,omitempty" jsonschema:"Only papers published in or before this year (not before year_from)"`
	State    string `json:"state,omitempty" jsonschema:"Only papers in this state: compiled (searchable text), captured (PDF, not compiled yet), metadata-only (imported, no PDF)"`
	Warnings bool   `json:"warnings,omitempty" jsonschema:"Only papers whose metadata carries warnings, each warning listed"`
	Limit    int    `json:"limit,omitempty" jsonschema:"Max papers to return (default 50, capped at 500)"`
}

// Default and maximum papers crossmem_list returns.
const (
	DefaultListLimit = 50
	MaxListLimit     = 500
)

func (s *Server) list(ctx context.Context, _ *mcp.CallToolRequest, in ListInput) (*mcp.CallToolResult, *catalog.Result, error) {
	if err := checkArgs(arg{"query", in.Query, MaxFieldChars}, arg{"author", in.Author, MaxFieldChars}, arg{"state", in.State, MaxFieldChars}); err != nil {
		return nil, nil, toolError{err}
	}
	if err := s.ready(ctx, false); err != nil {
		return nil, nil, toolError{err}
	}
	limit := in.Limit
	switch {
	case limit < 0:
		return nil, nil, toolError{fmt.Errorf("limit %d: use 1 to %d", limit, MaxListLimit)}
	case limit == 0:
		limit = DefaultListLimit
	}
	limit = min(limit, MaxListLimit)
	r, err := catalog.List(ctx, s.Library, s.Index, catalog.Query{Text: in.Query, Author: in.Author, YearFrom: in.YearFrom, YearTo: in.YearTo,
		State: in.State, Warnings: in.Warnings, Limit: limit})
	if err != nil {
		return nil, nil, toolError{err}
	}
	return textResult(render.List(r, in.Warnings)), r, nil
}

// annotations are the hints every crossmem tool gives: it only reads the
// local library (no side effects, the same answer for the same library,
// nothing outside it).
func annotations(title string) *mcp.ToolAnnotations {
	no := false
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: &no, OpenWorldHint: &no}
}

// New builds the MCP server with its tools registered: crossmem_cite,
// crossmem_recall and crossmem_list, crossmem_read when s.Index is set,
// and the checking tools when s.Checker is set (all of them, answering
// with the error, when the library is Missing).
func (s *Server) New() (*mcp.Server, error) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "crossmem", Title: "crossmem research library", Version: s.Version},
		&mcp.ServerOptions{Instructions: render.Instructions(s.info(context.Background()))})
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
		Annotations: annotations("Cite a paper"),
	}, s.cite)

	recallSchema, err := jsonschema.For[RecallInput](nil)
	if err != nil {
		return nil, err
	}
	recallSchema.Required = []string{"query"}
	recallSchema.Properties["limit"].Default = json.RawMessage(`5`)
	var types []any
	for _, t := range chunk.Types {
		types = append(types, t)
	}
	recallSchema.Properties["type"].Enum = types
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "crossmem_recall",
		Description: "Search the crossmem library for chunks matching a query (BM25; a sentence found verbatim ranks its chunk first). Filters: cite_key, author, year_from, year_to, section, type (an unknown key or type, or year_from after year_to, is an error). Returns ranked excerpts (at most 400 characters) with cite key, title, chunk id, page and section: read a chunk's full verbatim text with crossmem_read before quoting it. Chunks edited by hand in a note are withheld, never returned. A chunk's model-written paraphrase and implication come labelled advisory (search also matches them: advisory_match); they are never quotable.",
		InputSchema: recallSchema,
		Annotations: annotations("Search the library"),
	}, s.recall)

	listSchema, err := jsonschema.For[ListInput](nil)
	if err != nil {
		return nil, err
	}
	listSchema.Properties["state"].Enum = []any{catalog.Compiled, catalog.Captured, catalog.MetadataOnly}
	listSchema.Properties["limit"].Default = json.RawMessage(fmt.Sprint(DefaultListLimit))
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "crossmem_list",
		Description: "List the papers in the library (cite key, title, authors, year, DOI/arXiv id, state: compiled/captured/metadata-only, chunks, metadata warnings), filtered by query, author, years, state or warnings. Cite only keys this tool or crossmem_cite know.",
		InputSchema: listSchema,
		Annotations: annotations("List papers"),
	}, s.list)

	if s.Index != nil || s.Missing {
		readSchema, err := jsonschema.For[ReadInput](nil)
		if err != nil {
			return nil, err
		}
		readSchema.Required = []string{"cite_key"}
		mcp.AddTool(srv, &mcp.Tool{
			Name:        "crossmem_read",
			Description: "Read a paper's verbatim text: one chunk (chunk_id, as crossmem_recall names it), one page (page: PDF page number; or page_label: the printed page) or one section (section: part of its title). Returns each chunk's full text exactly as the PDF's text layer has it, with provenance (page, printed page label, section path, bbox in PDF points, text_sha256), its type, the previous and next chunks, and the paper's cite key; a figure chunk's text is its caption and its image the path of its crop (with images: the picture itself as image content). 'reading' is the text on one line with line-end hyphens resolved: quote from it. A chunk edited by hand in its note is never returned (an error says so).",
			InputSchema: readSchema,
			Annotations: annotations("Read verbatim text"),
		}, s.read)
	}

	if s.Index != nil || s.Missing {
		s.addResources(srv)
	}

	if s.Checker != nil || s.Missing {
		vqSchema, err := jsonschema.For[VerifyQuoteInput](nil)
		if err != nil {
			return nil, err
		}
		vqSchema.Required = []string{"quote"}
		mcp.AddTool(srv, &mcp.Tool{
			Name:        "crossmem_verify_quote",
			Description: "Check a quotation against the library before using it: verified (the source's exact words; line-end hyphens may be joined), repaired (matches only after normalizing quotes, dashes, ligatures, hyphenation or case: paste the returned source text instead), wrong-page (the page given is not the one it is on, which is named), misattributed (it is from another paper, named), unverified (in no paper: do not use it; the nearest passages are returned; text edited by hand in a note never counts) or too-short (under 3 words, not checked). Without cite_key it says where the quotation is. Gives the source chunk with page, bbox and text_sha256.",
			InputSchema: vqSchema,
			Annotations: annotations("Verify a quotation"),
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
			Description: "Check a whole draft (LaTeX or pandoc markdown text) against the library: every quotation (quote environments, \\enquote, ``...'' and \"...\" spans of six or more words, > blockquotes) gets verified / repaired / wrong-page / misattributed / unverified / too-short as in crossmem_verify_quote, attributed to the nearest citation in its sentence or paragraph (its page locator, \\cite[p.~11]{key} or [@key, p. 11], is checked), to its % crossmem: provenance comment or to an author-year reference ((Author, Year, p. N), Author (Year), also split around the quotation: Author et al. write \"...\" (Year, p. N)); every cited key gets ok / unknown (with suggestions) / metadata-warning. ok is false when a quotation is unverified, misattributed or on the wrong page or a key is unknown; metadata warnings fail it only with strict.",
			InputSchema: cdSchema,
			Annotations: annotations("Check a draft"),
		}, s.checkDraft)
	}
	return srv, nil
}

// info describes the library for the instructions.
func (s *Server) info(ctx context.Context) render.LibraryInfo {
	info := render.LibraryInfo{Home: s.Home, Missing: s.Missing}
	if s.Missing {
		return info
	}
	if s.Library != nil {
		papers, _ := s.Library.Papers()
		info.Papers = len(papers)
	}
	if s.Index != nil {
		if stats, err := s.Index.NoteStats(ctx); err == nil {
			for _, st := range stats {
				info.Compiled++
				info.Chunks += st.Chunks
				info.Edited += st.Edited
			}
		}
	}
	return info
}

// ready runs BeforeSearch and returns an error when the library is
// missing or, for a tool that reads text (text), has no compiled paper.
func (s *Server) ready(ctx context.Context, text bool) error {
	if s.Missing {
		return hint.Wrap(fmt.Errorf("the library folder %s does not exist, so it has no papers", s.Home), hint.Action{Kind: hint.CheckHome, Path: s.Home})
	}
	if s.BeforeSearch != nil {
		s.BeforeSearch(ctx)
	}
	if text && s.Index != nil {
		st, err := s.Index.Stats(ctx)
		if err != nil {
			return err
		}
		if st.Notes == 0 {
			return hint.Wrap(fmt.Errorf("the library at %s has no compiled papers: there is no text to search, read or check", s.Home), hint.Action{Kind: hint.CaptureFirst})
		}
	}
	return nil
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
	if err := s.ready(ctx, false); err != nil {
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
	if in.Limit < 0 {
		return nil, render.RecallOutput{}, toolError{fmt.Errorf("limit %d: use 1 to %d", in.Limit, search.MaxLimit)}
	}
	if err := s.ready(ctx, true); err != nil {
		return nil, render.RecallOutput{}, toolError{err}
	}
	res, err := s.Searcher.Search(ctx, in.SearchQuery())
	var uk *index.UnknownKeyError
	if errors.As(err, &uk) && s.Citer != nil {
		err = s.Citer.NotCompiled(uk.Key)
	}
	if err != nil {
		return nil, render.RecallOutput{}, toolError{err}
	}
	out := textResult(render.SearchText(in.Query, res, in.Explain))
	if in.Images {
		var paths []string
		for _, h := range res.Hits {
			paths = append(paths, h.Image)
		}
		out.Content = append(out.Content, figureImages(paths)...)
	}
	return out, render.Recall(in.Query, res), nil
}

// MaxImageBytes bounds one figure image a tool returns: a crop larger than
// this (a full page drawn at 150 dpi is about 1 MB) is left out.
const MaxImageBytes = 8 << 20

// figureImages returns the figure crops at paths (absolute paths of PNGs,
// "" for a chunk that is no figure) as image content, in order; a crop
// that cannot be read (removed, larger than MaxImageBytes, not a PNG) is
// left out (the hit's or chunk's image path says where it should be).
func figureImages(paths []string) []mcp.Content {
	var out []mcp.Content
	for _, path := range paths {
		if path == "" {
			continue
		}
		f, err := os.Open(path)
		if err != nil {
			continue
		}
		data, err := io.ReadAll(io.LimitReader(f, MaxImageBytes+1))
		f.Close()
		if err != nil || len(data) > MaxImageBytes || !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) {
			continue
		}
		out = append(out, &mcp.ImageContent{Data: data, MIMEType: "image/png"})
	}
	return out
}

// ServeStdio runs the server over in and out (a client's pipes: stdin and
// stdout for `crossmem mcp serve`) with Transport, logging protocol
// problems to logger, until the client disconnects or ctx is done. It does
// not close in or out.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer, logger *slog.Logger) error {
	return s.Serve(ctx, &Transport{Reader: in, Writer: out, Logger: logger})
}
