#!/usr/bin/env bash
# Run every test, in this order:
#   1. gofmt, go vet and staticcheck (a pinned version, fetched through the
#      Go module proxy on first use);
#   2. go test -race ./...    every test (the corpus sweeps, external tools,
#      the built binary, the official MCP TypeScript client) with the data
#      race detector on: one run serves both;
#   3. a short fuzz pass: every Fuzz target for FUZZTIME (default 5s).
# It installs the test-only npm packages (the MCP TypeScript client and the
# MCP Inspector for the end-to-end tests, citeproc-js for the video
# citation test) first when npm is available.
# Tests that need poppler's pdftotext, node or ../shared skip with a
# message when those are missing; with CROSSMEM_REQUIRE_SHARED=1 (set by
# .ci/run) a missing ../shared fails them instead. Each step prints its
# duration on stderr.
#
# The fast tier alone, for the edit-test loop:  go test -short ./...
set -euo pipefail
cd "$(dirname "$0")/.."
staticcheck=honnef.co/go/tools/cmd/staticcheck@v0.8.2
fuzztime=${FUZZTIME:-5s}

step() { # step NAME COMMAND...: run COMMAND, report its time
  local name=$1 start=$SECONDS
  shift
  "$@"
  echo "test: $name: $((SECONDS - start)) s" >&2
}

if command -v npm >/dev/null 2>&1; then
  # npm ci (the MCP TypeScript SDK and the MCP Inspector; playwright-core for
  # the browser tests; citeproc-js for the video citation test) only when the
  # lock file changed since the last install: it wipes node_modules first.
  for d in test/mcp-e2e test/viewer-e2e test/csl-oracle; do
    if ! cmp -s $d/package-lock.json $d/node_modules/.crossmem-lock 2>/dev/null; then
      (cd $d && npm ci --no-audit --no-fund --loglevel=error && cp package-lock.json node_modules/.crossmem-lock)
    fi
  done
else
  echo "test: npm not found; the TypeScript MCP client, browser and citeproc-js video citation tests will be skipped" >&2
fi
test -z "$(gofmt -l cmd internal bench test 2>/dev/null)" || { echo "gofmt needed:"; gofmt -l cmd internal bench test; exit 1; }
step vet go vet ./...
step staticcheck go run "$staticcheck" ./...
# -timeout: the built-binary packages (cli, mcpserver, viewer) take minutes
# under the race detector on 2 cores; the default 10 min per package leaves
# little room on a loaded machine.
step "go test -race" go test -race -timeout 30m ./...

# Every fuzz target, found in the sources: "func FuzzX(f *testing.F)" in
# a _test.go file of package directory d is run as go test -fuzz=^FuzzX$ ./d.
fuzz() {
  local file dir target out
  while IFS=: read -r file target; do
    dir=$(dirname "$file")
    if ! out=$(go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "./$dir" 2>&1); then
      # Go 1.26's fuzz coordinator can report a bare "context deadline
      # exceeded" when -fuzztime ends while a worker is busy, without a
      # failing input (golang/go#75804, fixed in Go 1.27): not a finding.
      if grep -q 'context deadline exceeded' <<<"$out" && ! grep -q 'Failing input written' <<<"$out"; then
        echo "test: fuzz $target: the fuzztime deadline race of golang/go#75804, no failing input; ignored" >&2
        continue
      fi
      echo "$out" >&2
      echo "test: fuzz $target in ./$dir failed (the failing input is kept in ./$dir/testdata/fuzz/$target)" >&2
      return 1
    fi
  done < <(grep -rHo --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]+' --exclude-dir=node_modules cmd internal test | sed 's/:func /:/' | sort)
}
step "fuzz ($fuzztime per target)" fuzz
