#!/usr/bin/env bash
# Build a pinned Ollama server from source, for the tests that run a real
# local model server (CROSSMEM_TEST_OLLAMA). Prints the binary's path on
# stdout; progress goes to stderr.
#
#   scripts/build-ollama.sh [DIR]     (default: $XDG_CACHE_HOME/crossmem/ollama-<version>)
#
# What it takes, with only the Go module proxy and npm reachable:
# - Ollama's source comes from the Go module proxy. Module zips leave out
#   every folder named vendor/, and llama/llama.cpp/vendor/ holds the
#   header-only libraries llama.cpp includes (nlohmann/json, stb_image,
#   miniaudio, cpp-httplib).
# - The npm package node-llama-cpp ships llama.cpp's source as a git bundle
#   (llama/gitRelease.bundle); its vendor/ folder provides those headers,
#   passed to cgo with CGO_CPPFLAGS=-I<dir>/vendor.
# - cgo compiles ggml with -O3 -march=x86-64-v3 (AVX2, FMA, F16C); without
#   it the CPU kernels are built unoptimised and run 6-20x slower.
# A finished build is kept: running the script again prints the same path
# at once. Needs go, gcc/g++, git, npm and tar.
set -euo pipefail

OLLAMA_VERSION=v0.17.4
NODE_LLAMA_CPP_VERSION=3.22.1

dir=${1:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/crossmem/ollama-$OLLAMA_VERSION}
bin=$dir/bin/ollama
stamp="ollama $OLLAMA_VERSION node-llama-cpp $NODE_LLAMA_CPP_VERSION $(go env GOARCH)"
if [ -x "$bin" ] && [ "$(cat "$dir/stamp" 2>/dev/null)" = "$stamp" ]; then
  echo "$bin"
  exit 0
fi
for tool in go gcc g++ git npm tar; do
  command -v "$tool" >/dev/null 2>&1 || { echo "build-ollama: $tool not found (install it, e.g. apt-get install g++ git npm)" >&2; exit 1; }
done
if [ "$(go env GOARCH)" = amd64 ]; then
  arch_flags="-march=x86-64-v3"
else
  arch_flags=""
fi

mkdir -p "$dir"
work=$(mktemp -d "$dir/.work.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "build-ollama: fetching node-llama-cpp@$NODE_LLAMA_CPP_VERSION for llama.cpp's vendor/ headers" >&2
for try in 1 2 3; do
  (cd "$work" && npm pack --silent "node-llama-cpp@$NODE_LLAMA_CPP_VERSION" >/dev/null) && break
  [ "$try" = 3 ] && { echo "build-ollama: npm pack node-llama-cpp@$NODE_LLAMA_CPP_VERSION failed" >&2; exit 1; }
  sleep $((try * 10))
done
tar -xzf "$work/node-llama-cpp-$NODE_LLAMA_CPP_VERSION.tgz" -C "$work" package/llama/gitRelease.bundle
git clone --quiet "$work/package/llama/gitRelease.bundle" "$work/llama.cpp" 2>/dev/null
for h in nlohmann/json.hpp nlohmann/json_fwd.hpp stb/stb_image.h miniaudio/miniaudio.h; do
  [ -f "$work/llama.cpp/vendor/$h" ] || { echo "build-ollama: node-llama-cpp's llama.cpp has no vendor/$h" >&2; exit 1; }
done
rm -rf "$dir/vendor"
cp -r "$work/llama.cpp/vendor" "$dir/vendor"

echo "build-ollama: building github.com/ollama/ollama@$OLLAMA_VERSION (cgo, several minutes)" >&2
start=$SECONDS
GOBIN="$dir/bin" GOFLAGS=-buildvcs=false CGO_ENABLED=1 \
  CGO_CPPFLAGS="-I$dir/vendor" \
  CGO_CFLAGS="-O3 $arch_flags" CGO_CXXFLAGS="-O3 $arch_flags" \
  go install -ldflags "-X github.com/ollama/ollama/version.Version=${OLLAMA_VERSION#v}" \
  "github.com/ollama/ollama@$OLLAMA_VERSION" 2> "$work/build.log" ||
  { tail -40 "$work/build.log" >&2; echo "build-ollama: build failed" >&2; exit 1; }
echo "$stamp" > "$dir/stamp"
echo "build-ollama: built $bin in $((SECONDS - start)) s" >&2
echo "$bin"
