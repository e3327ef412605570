#!/usr/bin/env bash
# Runs on the GPU machine (through the device tool, with .ship carried): unpacks
# the shipped native library, then runs the GPU tests and the side-by-side
# benchmarks.  Logs go to $OUT when set.
#   scripts/gpu_run.sh [tests|bench|all|suite|sanitize] [pytest args...]
# `sanitize` runs the GPU tests under compute-sanitizer memcheck, racecheck
# and synccheck (scripts/gpu_sanitize.sh; the tutorials take the longest).
# `suite` runs Triton's upstream tests under Triton and Tritium
# (scripts/triton_suite.sh; carry `upstream` too).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-/tmp}"
what="${1:-all}"; shift || true
mkdir -p python/tritium/_lib
rm -f python/tritium/_lib/libtritium.so
python3 -c "import lzma, shutil; shutil.copyfileobj(lzma.open('.ship/libtritium.so.xz'), open('python/tritium/_lib/libtritium.so', 'wb'))"
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
  python3 bench/bench_elementwise.py 2>&1 | tee "$OUT/bench_elementwise.log"
  python3 bench/bench_reductions.py 2>&1 | tee "$OUT/bench_reductions.log"
  python3 bench/bench_matmul.py 2>&1 | tee "$OUT/bench_matmul.log"
  python3 bench/compile_ttir.py --repeat 20 2>&1 | tee "$OUT/compile_ttir.log"
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
