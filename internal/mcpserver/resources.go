package mcpserver

import (
	"context"
	"errors"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/crossmem/crossmem/internal/catalog"
	"github.com/crossmem/crossmem/internal/index"
	"github.com/crossmem/crossmem/internal/render"
)

// PaperURIPrefix starts a paper resource's URI: crossmem://paper/<cite_key>.
const PaperURIPrefix = "crossmem://paper/"

// MaxResourceChars bounds the text of one paper resource: 2,000,000
// characters (a longer paper is cut, and says so).
const MaxResourceChars = 2000000

// addResources offers each compiled paper as a resource (its served
// chunks as markdown, render.PaperMarkdown), listed as the library is at
// start-up, and the template crossmem://paper/{cite_key} for papers
// compiled later. Chunks edited by hand are never in them.
func (s *Server) addResources(srv *mcp.Server) {
	srv.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: PaperURIPrefix + "{cite_key}", Name: "paper", Title: "A paper's verbatim text",
		Description: "The verbatim text of a compiled paper, chunk by chunk with its provenance (page, printed page, section, bbox, text_sha256), as crossmem serves it: chunks edited by hand in the note are withheld.",
		MIMEType:    "text/markdown",
	}, s.readPaper)
	if s.Library == nil || s.Index == nil {
		return
	}
	r, err := catalog.List(context.Background(), s.Library, s.Index, catalog.Query{State: catalog.Compiled})
	if err != nil {
		return
	}
	for _, p := range r.Papers {
		srv.AddResource(&mcp.Resource{URI: PaperURIPrefix + url.PathEscape(p.CiteKey), Name: p.CiteKey, Title: p.Title,
			Description: "The verbatim text of " + p.CiteKey + ", chunk by chunk with provenance", MIMEType: "text/markdown"}, s.readPaper)
	}
}

// readPaper answers resources/read of a paper resource.
func (s *Server) readPaper(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	key, err := url.PathUnescape(strings.TrimPrefix(uri, PaperURIPrefix))
	if err != nil || !strings.HasPrefix(uri, PaperURIPrefix) || key == "" || len(key) > MaxKeyChars {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if err := s.ready(ctx, true); err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: render.ErrorText(err)}
	}
	r, err := s.Index.Read(ctx, index.ReadQuery{Key: key, Whole: true, MaxChars: MaxResourceChars})
	if errors.Is(err, index.ErrUnknownPaper) {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: render.ErrorText(err)}
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: render.PaperMarkdown(render.Read(key, r))}}}, nil
}
