#!/usr/bin/env bash
# Run every test. Installs the test-only npm packages (the official MCP
# TypeScript client for the end-to-end test) when npm is available; tests
# that need poppler's pdftotext, node or ../shared skip with a message when
# those are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
if command -v npm >/dev/null 2>&1; then
  (cd test/mcp-e2e && npm ci --no-audit --no-fund --loglevel=error)
else
  echo "test: npm not found; the TypeScript MCP client test will be skipped" >&2
fi
test -z "$(gofmt -l cmd internal bench test 2>/dev/null)" || { echo "gofmt needed:"; gofmt -l cmd internal bench test; exit 1; }
go vet ./...
go test ./...
