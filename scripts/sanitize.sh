#!/usr/bin/env bash
# Builds the native library and the unit tests with sanitizers in
# build-sanitize-<names>/ (needs libclang-rt-22-dev), then runs against that
# library the gtest unit tests and the compile fuzzing of generated kernels
# (tools/fuzz/compile_fuzz.py: valid and invalid programs compiled to PTX in
# child processes, which abort on the first sanitizer report).
#
# TRITIUM_SANITIZERS picks the sanitizers, default "undefined"
# (UndefinedBehaviorSanitizer).  "address;undefined" adds AddressSanitizer
# (with cmake/asan_llvm_headers.h force-included: LLVM's allocator headers
# must not poison memory that Debian's uninstrumented libraries hand out).
#
# Usage: scripts/sanitize.sh [SEEDS] (default 100 seeds: 200 kernels).  The
# first build takes about ten minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -e "$(clang-22 -print-file-name=libclang_rt.ubsan_standalone-x86_64.so)" ]; then
  echo "sanitize.sh: clang-22's sanitizer runtimes are missing; install libclang-rt-22-dev" \
       "(scripts/setup.sh does)" >&2
  exit 1
fi
SANITIZERS="${TRITIUM_SANITIZERS:-undefined}"
BUILD_DIR="build-sanitize-${SANITIZERS//;/-}"
COUNT="${1:-100}"
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -G Ninja -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DTRITIUM_SANITIZE="$SANITIZERS"
fi
export CCACHE_BASEDIR="$PWD"
ninja -C "$BUILD_DIR" -j "${TRITIUM_JOBS:-2}" tritium tritium-unittests
# MLIR's and LLVM's static singletons live until exit: leaks are not errors.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# The shared sanitizer runtime, for the executables linked with it.
case "$SANITIZERS" in
  *address*) RUNTIME="$(clang-22 -print-file-name=libclang_rt.asan-x86_64.so)" ;;
  *) RUNTIME="$(clang-22 -print-file-name=libclang_rt.ubsan_standalone-x86_64.so)" ;;
esac
export LD_LIBRARY_PATH="$(dirname "$RUNTIME")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
echo "== gtest (sanitized)"
"$BUILD_DIR/bin/tritium-unittests" --gtest_brief=1
echo "== compile fuzzing, seeds 0..$((COUNT - 1)) (sanitized library)"
export TRITIUM_LIBRARY="$PWD/$BUILD_DIR/lib/libtritium.so"
export LD_PRELOAD="$RUNTIME"
export TRITIUM_CACHE_DIR="$(mktemp -d)"
# Stop at PTX: ptxas is NVIDIA's binary, and would run with the sanitizer
# runtime preloaded; everything before it is ours and instrumented.
export TRITIUM_PTXAS_PATH=none
/usr/bin/python3 tools/fuzz/compile_fuzz.py --count "$COUNT" --jobs 2 --timeout 600
