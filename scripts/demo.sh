#!/usr/bin/env bash
# The main job end to end on a real paper: build crossmem, then capture,
# compile, verify, search and cite a PDF from the shared corpus in a fresh
# demo library. Works offline (local PDF). Usage:
#
#   scripts/demo.sh [pdf] [query]
#
# Set DEMO_ARXIV=1706.03762 to also capture an arXiv paper (needs network).
set -euo pipefail
cd "$(dirname "$0")/.."

pdf=${1:-../shared/corpus/pdf/pm_2302.07302v1.pdf}
query=${2:-"prioritize inline citations"}
if [ ! -f "$pdf" ]; then
  echo "demo: $pdf not found; pass a PDF path as the first argument" >&2
  exit 1
fi

mkdir -p bin
go build -o bin/crossmem ./cmd/crossmem
echo "built bin/crossmem ($(bin/crossmem --version))"

demo=${DEMO_HOME:-$(mktemp -d)}
export CROSSMEM_HOME="$demo/library" CROSSMEM_CONFIG="$demo/config.toml"
echo "demo library: $CROSSMEM_HOME"
set -x
bin/crossmem capture "$pdf"
key=$(bin/crossmem capture "$pdf" --json | sed -n 's/.*"cite_key": "\([^"]*\)".*/\1/p' | head -n1)
bin/crossmem compile "$key"
bin/crossmem verify
bin/crossmem search "$query" --limit 3
bin/crossmem cite "$key" --format apa
bin/crossmem cite "$key" --format bibtex
set +x
if [ -n "${DEMO_ARXIV:-}" ]; then
  bin/crossmem capture "$DEMO_ARXIV"
fi
note=$(ls "$CROSSMEM_HOME"/wiki/*.md | head -n1)
echo
echo "wiki note: $note"
sed -n '/^## Chunks/,$p' "$note" | sed -n '1,30p'
