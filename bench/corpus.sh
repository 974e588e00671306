#!/usr/bin/env bash
# The end-to-end acceptance run on the shared corpus, with the CLI:
#
#   1. capture the whole folder in one command, offline (every metadata
#      source points at a local port nothing listens on, so each PDF is
#      stored with what it says about itself and its lookup is pending);
#   2. compile every paper in one process (compile --all), verify;
#   3. compile the same papers again, one process per paper, in a copy of
#      the library, and compare the pages per second of the two (same run;
#      the best of ROUNDS rounds of each, default 1).
#
# Prints the capture and compile lines, the summaries and the speeds;
# exits 1 if a PDF of the folder is not captured (a PDF that gives no title
# is kept under its file name's key), a compile or the verify fails.
#
#   bench/corpus.sh [corpus-dir]        ROUNDS=3 bench/corpus.sh
set -uo pipefail
cd "$(dirname "$0")/.."
corpus=${1:-../shared/corpus/pdf}
rounds=${ROUNDS:-1}
go build -o bin/crossmem ./cmd/crossmem || exit 1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dead=http://127.0.0.1:9 # discard port: connection refused
export CROSSMEM_HOME="$work/library" CROSSMEM_CONFIG="$work/config.toml" \
  CROSSMEM_ARXIV_API=$dead/api/query CROSSMEM_ARXIV_PDF=$dead/pdf CROSSMEM_CROSSREF_API=$dead \
  CROSSMEM_OPENALEX_API=$dead CROSSMEM_DATACITE_API=$dead CROSSMEM_UNPAYWALL_API=$dead
fail=0
now() { date +%s.%N; }

echo "== crossmem capture $corpus (offline)"
start=$(now)
bin/crossmem capture "$corpus" --json >"$work/capture.jsonl" 2>"$work/capture.err"
end=$(now)
jq -r 'select(.status) | [.status, (.cite_key // "-"), .input, (.error // "")] | @tsv' "$work/capture.jsonl" |
  awk -F'\t' '{ printf "%-9s %-34s %s %s\n", $1, $2, $3, ($4 == "" ? "" : "— " $4) }'
jq -r 'select(.summary) | .summary | "\(.total) PDFs: \(.status.captured // 0) captured, \(.status.failed // 0) refused; \(.lookup_pending) lookups pending"' "$work/capture.jsonl"
printf 'capture of the folder: %.1f s\n' "$(echo "$end - $start" | bc)"

jq -r 'select(.status == "failed") | "FAIL capture \(.input): \(.error)"' "$work/capture.jsonl" | grep . && fail=1

cp -r "$work/library" "$work/pristine"
best_all=0 best_each=0
for round in $(seq "$rounds"); do
  rm -rf "$work/library" && cp -r "$work/pristine" "$work/library"
  start=$(now)
  bin/crossmem compile --all --json >"$work/compile.jsonl" 2>"$work/compile.err" || fail=1
  end=$(now)
  pages=$(jq -r 'select(.status == "compiled") | .detail' "$work/compile.jsonl" | sed -n 's/.* from \([0-9]*\) pages\{0,1\}$/\1/p' | paste -sd+ | bc)
  t_all=$(echo "$end - $start" | bc)

  rm -rf "$work/each" && cp -r "$work/pristine" "$work/each"
  keys=$(jq -r 'select(.status == "compiled") | .cite_key' "$work/compile.jsonl")
  start=$(now)
  for key in $keys; do
    CROSSMEM_HOME="$work/each" bin/crossmem compile "$key" -q >/dev/null 2>&1 || { echo "FAIL compile $key (one process)"; fail=1; }
  done
  end=$(now)
  t_each=$(echo "$end - $start" | bc)
  best_all=$(echo "if ($best_all == 0 || $t_all < $best_all) $t_all else $best_all" | bc)
  best_each=$(echo "if ($best_each == 0 || $t_each < $best_each) $t_each else $best_each" | bc)
  printf 'round %d: compile --all %.1f s, one process per paper %.1f s\n' "$round" "$t_all" "$t_each"
done
echo "== crossmem compile --all"
jq -r 'select(.status) | [.status, .cite_key // .input, (.detail // .error // "")] | @tsv' "$work/compile.jsonl" |
  awk -F'\t' '{ printf "%-9s %-34s %s\n", $1, $2, $3 }'
jq -r 'select(.status == "failed") | "FAIL compile \(.input): \(.error)"' "$work/compile.jsonl" | grep . && fail=1
bin/crossmem verify | tail -n 1 || fail=1
papers=$(echo "$keys" | wc -w)
printf 'papers %d, pages %d\n' "$papers" "$pages"
printf 'compile --all (one process):  %.1f s, %.1f pages/s\n' "$best_all" "$(echo "$pages / $best_all" | bc -l)"
printf 'one process per paper:        %.1f s, %.1f pages/s\n' "$best_each" "$(echo "$pages / $best_each" | bc -l)"
printf 'ratio: %.2f (best of %d round(s))\n' "$(echo "$best_each / $best_all" | bc -l)" "$rounds"
exit $fail
