#!/usr/bin/env bash
# Runs Triton's own upstream tests twice on a GPU machine, once with the
# installed Triton and once with `triton` resolved to Tritium (the import
# alias in scripts/triton_alias), and writes the pass table of both.
#
#   scripts/triton_suite.sh [TESTS_DIR] [OUT_DIR]
#
# TESTS_DIR (default upstream/triton_tests) mirrors Triton's python/test/
# (conftest.py, unit/language/test_*.py, unit/runtime/test_*.py): the files
# come from Triton's public repository into that ignored folder and are
# never committed.  OUT_DIR (default $OUT or /tmp/triton_suite) receives
# triton.xml, tritium.xml (JUnit), the logs and table.md.
#
# Environment: SUITE_FILES (test files relative to TESTS_DIR/unit),
# SUITE_DESELECT (a pytest -k expression of tests left out of both runs;
# default "not dot": leaves out the tl.dot tests), SUITE_MARK (a pytest -m
# expression: "interpreter" takes the tests Triton marks as its interpreter's,
# to run with TRITON_INTERPRET=1 as Triton's CI does),
# SUITE_WORKERS (pytest-xdist workers of both runs together, default: the CPU count),
# SUITE_BACKENDS ("triton tritium" by default; one of them to run one),
# SUITE_TIMEOUT (seconds per test, default 120).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TESTS_DIR=$(cd "${1:-upstream/triton_tests}" && pwd)
OUT_DIR=${2:-${OUT:-/tmp/triton_suite}}
mkdir -p "$OUT_DIR"
FILES=${SUITE_FILES:-"language/test_core.py language/test_standard.py language/test_random.py
  language/test_libdevice.py language/test_annotations.py language/test_block_pointer.py
  language/test_conversions.py language/test_tuple.py language/test_compile_errors.py runtime/test_autotuner.py
  runtime/test_cache.py runtime/test_launch.py"}
DESELECT=${SUITE_DESELECT-"not dot"}
WORKERS=${SUITE_WORKERS:-$(nproc)}
BACKENDS=${SUITE_BACKENDS:-"triton tritium"}
TIMEOUT=${SUITE_TIMEOUT:-120}

paths=()
for f in $FILES; do paths+=("unit/$f"); done
k_args=()
[ -n "$DESELECT" ] && k_args=(-k "$DESELECT")
[ -n "${SUITE_MARK:-}" ] && k_args+=(-m "$SUITE_MARK")

# The backends run at the same time, each with its share of the workers,
# on the one GPU: the table compares outcomes, not times.
n_backends=$(echo $BACKENDS | wc -w)
share=$(( WORKERS / n_backends )); [ "$share" -ge 1 ] || share=1
run_backend() {
  local backend=$1 pythonpath=${PYTHONPATH:-} cache start
  [ "$backend" = tritium ] && pythonpath="$ROOT/scripts/triton_alias:$ROOT/python${PYTHONPATH:+:$PYTHONPATH}"
  cache=$(mktemp -d)
  start=$(date +%s)
  (cd "$TESTS_DIR" && PYTHONPATH="$pythonpath" TRITON_CACHE_DIR="$cache/triton" TRITIUM_CACHE_DIR="$cache/tritium" \
     python3 -m pytest -q -p no:cacheprovider -n "$share" --timeout "$TIMEOUT" "${k_args[@]}" \
     --junitxml="$OUT_DIR/$backend.xml" -o junit_family=xunit1 "${paths[@]}" > "$OUT_DIR/$backend.log" 2>&1)
  echo "== $backend: rc=$? in $(( $(date +%s) - start )) s with $share workers: $(tail -n 1 "$OUT_DIR/$backend.log")"
  rm -rf "$cache"
}
echo "== $(echo $FILES | wc -w) files, deselected: ${DESELECT:-none}; backends: $BACKENDS"
for backend in $BACKENDS; do run_backend "$backend" & done
wait

python3 "$ROOT/scripts/triton_suite_table.py" --tests-dir "$TESTS_DIR" --out "$OUT_DIR/table.md" \
  --deselect "${DESELECT:-}" "$OUT_DIR"/*.xml
cat "$OUT_DIR/table.md"
