#!/usr/bin/env bash
# Runs the GPU tests and the side-by-side benchmarks on a GPU machine, with the
# shipped native library (.ship/libtritium.so.xz, see scripts/ship_library.sh)
# when the checkout holds one, else the build's (scripts/native_library.sh).
# Logs go to $OUT (default /tmp).
#   scripts/gpu_run.sh [tests|bench|all|suite|sanitize] [pytest args...]
# `bench` runs every bench/bench_*.py (or those named in $BENCHES, e.g.
# BENCHES="matmul persistent_matmul") and bench/compile_ttir.py; each bench
# writes its JSON record to $OUT (TRITIUM_RESULTS_DIR), and
# bench/plot_results.py draws $OUT/performance.png from them.
# `sanitize` runs the GPU tests under compute-sanitizer memcheck, racecheck
# and synccheck (scripts/gpu_sanitize.sh; the tutorials take the longest).
# `suite` runs Triton's upstream tests under Triton and Tritium
# (scripts/triton_suite.sh; the copy needs upstream/ as well).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-/tmp}"
mkdir -p "$OUT"
what="${1:-all}"; shift || true
source scripts/native_library.sh  # the shipped library, else the build's
export PYTHONPATH="$PWD/python" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader || true
status=0
if [ "$what" = tests ] || [ "$what" = all ]; then
  # (serial, so the tests marked whole_gpu run too; with -n, run those
  # afterwards alone: python3 -m pytest python/test/gpu -m whole_gpu)
  python3 -m pytest -q -p no:cacheprovider python/test/gpu python/test/unit/test_vector_add_codegen.py "$@" 2>&1 | tee "$OUT/gpu_tests.log"
  status=${PIPESTATUS[0]}
fi
if [ "$what" = bench ] || [ "$what" = all ]; then
  # each bench writes its record (bench/results_page.py) into $OUT
  export TRITIUM_RESULTS_DIR="$OUT"
  for bench in ${BENCHES:-elementwise reductions matmul attention attention_bwd persistent_matmul}; do
    python3 "bench/bench_$bench.py" 2>&1 | tee "$OUT/bench_$bench.log"
  done
  python3 bench/compile_ttir.py --repeat 20 2>&1 | tee "$OUT/compile_ttir.log"
  python3 bench/plot_results.py --out "$OUT/performance.png" "$OUT" 2>&1 | tee "$OUT/plot_results.log"
fi
if [ "$what" = sanitize ]; then
  for tool in memcheck racecheck synccheck; do
    scripts/gpu_sanitize.sh "$tool" || status=1
  done
fi
if [ "$what" = suite ]; then
  scripts/triton_suite.sh upstream/triton_tests "$OUT" 2>&1 | tee "$OUT/suite.log"
  gzip -f "$OUT"/triton.xml "$OUT"/tritium.xml "$OUT"/triton.log "$OUT"/tritium.log 2>/dev/null
fi
exit $status
