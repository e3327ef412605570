#!/usr/bin/env bash
# Configures (first time) and builds Tritium in build/.  Incremental: a second
# run with nothing changed does nothing.  Set TRITIUM_BUILD_DIR to build
# elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${TRITIUM_BUILD_DIR:-build}"
# Paths inside the checkout hash relative to it: a fresh clone (CI) reuses the cache.
export CCACHE_BASEDIR="$PWD"

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  compilers=()
  if command -v clang++-22 >/dev/null; then   # 15-30% faster than GCC 12 here
    compilers=(-DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22)
  fi
  cmake -G Ninja -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release "${compilers[@]}"
fi
# Two cores: more jobs only thrash memory on the heavy MLIR translation units.
ninja -C "$BUILD_DIR" -j "${TRITIUM_JOBS:-2}"
