#!/usr/bin/env bash
# Capture and compile every PDF of the shared corpus into a fresh library,
# then verify it: the acceptance run of the main job. A PDF whose own
# metadata has no title, author and year is captured with --cite-key made
# from its file name. Prints one line per PDF and a summary; exits 1 if
# any capture, compile or verify fails.
#
#   bench/corpus.sh [corpus-dir]
set -uo pipefail
cd "$(dirname "$0")/.."
corpus=${1:-../shared/corpus/pdf}
go build -o bin/crossmem ./cmd/crossmem || exit 1
work=$(mktemp -d)
export CROSSMEM_HOME="$work/library" CROSSMEM_CONFIG="$work/config.toml"
fail=0 n=0 chunks=0 pages=0
start=$(date +%s.%N)
for pdf in "$corpus"/*.pdf; do
  n=$((n+1))
  name=$(basename "$pdf" .pdf)
  if out=$(bin/crossmem capture "$pdf" --json 2>"$work/err"); then
    how="metadata"
  else
    key=$(echo "$name" | tr -c 'A-Za-z0-9\n' '_' | sed 's/__*/_/g; s/^_//; s/_$//')
    if out=$(bin/crossmem capture "$pdf" --cite-key "$key" --json 2>"$work/err"); then
      how="--cite-key"
    else
      echo "FAIL capture $name: $(cat "$work/err")"; fail=1; continue
    fi
  fi
  key=$(echo "$out" | sed -n 's/^  "cite_key": "\([^"]*\)".*/\1/p')
  if ! res=$(bin/crossmem compile "$key" --no-llm --json 2>"$work/err"); then
    echo "FAIL compile $key: $(cat "$work/err")"; fail=1; continue
  fi
  c=$(echo "$res" | sed -n 's/^  "chunks": \([0-9]*\).*/\1/p')
  p=$(echo "$res" | sed -n 's/^  "pages": \([0-9]*\).*/\1/p')
  unq=$(grep -o 'crossmem: notice: page [0-9]*[^;]*' "$work/err" | sed 's/crossmem: notice: //' | tr '\n' ';')
  chunks=$((chunks+c)); pages=$((pages+p))
  printf '%-42s %-28s %-11s %3s pages %4s chunks %s\n' "$name" "$key" "$how" "$p" "$c" "$unq"
done
end=$(date +%s.%N)
bin/crossmem verify | tail -n 1 || fail=1
printf 'PDFs %d, pages %d, chunks %d, capture+compile %.1f s\n' "$n" "$pages" "$chunks" "$(echo "$end - $start" | bc)"
rm -rf "$work"
exit $fail
