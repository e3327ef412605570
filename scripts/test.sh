#!/usr/bin/env bash
# Runs every test of Tritium that needs no GPU, after an incremental build:
#   lit + FileCheck (test/), gtest (unittests/), pytest (python/test).
# Prints one summary line per suite and exits non-zero if any test failed.
# GPU tests (python/test/gpu) are skipped here when no GPU is present.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${TRITIUM_BUILD_DIR:-build}"
LLVM_BIN=/usr/lib/llvm-22/bin

scripts/build.sh || { echo "test: build failed"; exit 1; }

status=0
summary=()

echo "== lit"
lit_out=$("$LLVM_BIN/lit" -sv "$BUILD_DIR/test" 2>&1); lit_rc=$?
echo "$lit_out" | grep -vE '^(PASS|-- Testing)' || true
lit_passed=$(echo "$lit_out" | sed -n 's/^ *Passed *: *\([0-9]*\).*/\1/p')
lit_failed=$(echo "$lit_out" | sed -n 's/^ *Failed *: *\([0-9]*\).*/\1/p')
summary+=("lit:    ${lit_passed:-0} passed, ${lit_failed:-0} failed")
[ $lit_rc -eq 0 ] || status=1

echo "== gtest"
gtest_out=$("$BUILD_DIR/bin/tritium-unittests" --gtest_brief=1 2>&1); gtest_rc=$?
echo "$gtest_out"
gtest_passed=$(echo "$gtest_out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p')
gtest_failed=$(echo "$gtest_out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p')
summary+=("gtest:  ${gtest_passed:-0} passed, ${gtest_failed:-0} failed")
[ $gtest_rc -eq 0 ] || status=1

echo "== pytest"
PYTHON=/usr/bin/python3
"$PYTHON" -c "import pytest" 2>/dev/null || PYTHON=python3
pytest_out=$("$PYTHON" -m pytest -q -p no:cacheprovider python/test 2>&1); pytest_rc=$?
echo "$pytest_out" | tail -n 30
summary+=("pytest: $(echo "$pytest_out" | tail -n 1 | sed 's/=//g; s/^ *//')")
[ $pytest_rc -eq 0 ] || status=1

echo "== summary"
printf '%s\n' "${summary[@]}"
if [ $status -eq 0 ]; then echo "ALL TESTS PASSED"; else echo "SOME TESTS FAILED"; fi
exit $status
