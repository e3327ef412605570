#!/usr/bin/env bash
# Runs the GPU test suite under compute-sanitizer on a GPU machine, with the
# native library scripts/native_library.sh picks (the shipped one, else the
# build's; scripts/gpu_run.sh sanitize passes its own down):
# every test file in its own sanitizer process, JOBS files at a time, child
# processes included.  Tests marked deliberate_fault (a fault on purpose)
# whole_gpu (a 60 GiB reference) and full_scale (upstream tutorials at full
# size; their _small tests run the same kernels) are deselected, and under racecheck
# huge_grid (2^31 - 1 blocks of a kernel without shared memory).  synccheck
# tracks NUM_BARRIERS mbarriers per block (default 64).  One line per file and
# a total go to stdout and $OUT/sanitize_TOOL.txt; logs to $OUT/TOOL/.
#   scripts/gpu_sanitize.sh memcheck|racecheck|synccheck|initcheck [test files...]
set -uo pipefail
cd "$(dirname "$0")/.."
tool="${1:?tool: memcheck, racecheck, synccheck or initcheck}"; shift
OUT="${OUT:-/tmp}"
source scripts/native_library.sh
JOBS="${JOBS:-8}"
TIMEOUT="${TIMEOUT:-560}"
export PYTHONPATH="$PWD/python" PYTHONUNBUFFERED=1
export TRITIUM_CACHE_DIR="${TRITIUM_CACHE_DIR:-$(mktemp -d)}"
files=("$@")
[ ${#files[@]} -eq 0 ] && files=(python/test/gpu/test_*.py)
mkdir -p "$OUT/$tool"
one() {  # file -> one summary line
  local file="$1" log="$OUT/$tool/$(basename "$1" .py).log" t0=$(date +%s) rc
  local select="not deliberate_fault and not whole_gpu and not full_scale" extra=()
  [ "$tool" = racecheck ] && select="$select and not huge_grid"
  [ "$tool" = synccheck ] && extra=(--num-cuda-barriers "${NUM_BARRIERS:-64}")
  timeout "$TIMEOUT" compute-sanitizer --tool "$tool" "${extra[@]}" --target-processes all --print-limit 20 \
    python3 -m pytest -q -p no:cacheprovider -m "$select" "$file" > "$log" 2>&1
  rc=$?
  local tests=$(grep -E '[0-9]+ (passed|failed|skipped|deselected)' "$log" | tail -1)
  local errors=$(grep -hoE '(ERROR SUMMARY: [0-9]+ errors?|RACECHECK SUMMARY: [0-9]+ hazards? displayed \([0-9]+ errors?, [0-9]+ warnings?\))' "$log" \
                 | sort | uniq -c | tr -s ' ' | tr '\n' ';')
  echo "$tool $(basename "$file"): rc=$rc $(( $(date +%s) - t0 )) s | $tests | $errors"
}
export -f one
export tool OUT TIMEOUT
printf '%s\n' "${files[@]}" | xargs -P "$JOBS" -I{} bash -c 'one {}' | tee "$OUT/sanitize_$tool.txt"
bad=$(grep -vcE 'rc=0 .*\| ( *[0-9]+ ERROR SUMMARY: 0 errors;| *[0-9]+ RACECHECK SUMMARY: 0 hazards displayed \(0 errors, 0 warnings\);)+$' "$OUT/sanitize_$tool.txt")
echo "$tool: ${#files[@]} files, $bad with a failure, an error, a hazard or a timeout" | tee -a "$OUT/sanitize_$tool.txt"
tar czf "$OUT/${tool}_logs.tgz" -C "$OUT" "$tool" && rm -rf "${OUT:?}/$tool"
[ "$bad" = 0 ]
