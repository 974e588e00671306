#!/usr/bin/env bash
# The main job end to end on a real paper: build crossmem, then capture,
# compile, verify, search and cite a PDF from the shared corpus in a fresh
# demo library, and check a small draft that quotes it (one faithful quote,
# one misquote). Works offline (local PDF). Usage:
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

# A draft quoting the paper: one line of a chunk verbatim, and the same line
# with its third word changed. check reports the first verified and the
# second unverified (with the nearest passages), and exits 1 for it.
note=$(ls "$CROSSMEM_HOME"/wiki/*.md | head -n1)
line=$(awk '/^## Chunks/ { c = 1 } c && /^> / { sub(/^> /, ""); if (NF >= 10 && $0 !~ /[][\\{}$%&#_^~`"]/) { print; exit } }' "$note")
misquote=$(echo "$line" | awk '{ $3 = "never"; print }')
printf 'As \\citet{%s} write, ``%s'"''"'.\nThey also claim that ``%s'"''"' \\citep{%s}.\n' "$key" "$line" "$misquote" "$key" >"$demo/draft.tex"
echo "+ cat $demo/draft.tex"
cat "$demo/draft.tex"
echo "+ bin/crossmem check $demo/draft.tex"
if bin/crossmem check "$demo/draft.tex"; then
  echo "demo: check passed a misquote" >&2
  exit 1
fi
echo "(check exited 1: the misquote was caught)"
if [ -n "${DEMO_ARXIV:-}" ]; then
  bin/crossmem capture "$DEMO_ARXIV"
fi
echo
echo "wiki note: $note"
sed -n '/^## Chunks/,$p' "$note" | sed -n '1,30p'
