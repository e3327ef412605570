#!/usr/bin/env bash
# Two or more builds of the native library on the same performance-corpus
# items, in one GPU call: for each round, each library in turn runs
# `bench/bench_corpus.py` with one `--match` per line of ITEMS (lines as
# `bench_corpus.py --list` prints them), so every library is timed against
# Triton on the same machine, in the same call, minutes apart.  Compare the
# ratios to Triton across libraries (absolute figures drift between rounds).
#
#   bench/tools/ab_native_libraries.sh ITEMS NAME=LIBRARY [NAME=LIBRARY ...]
#
# LIBRARY is a libtritium.so, or one packed by scripts/ship_library.sh
# (.so.xz, unpacked to a temporary folder).  Records and logs go to
# $OUT/NAME.ROUND/ (default OUT=/tmp/ab); the worst-15 summary of each run is
# printed.  Environment: ROUNDS (default 2); SUITE=1 first runs the GPU tests
# (python/test/gpu, not full_scale, 16 workers) with the last library;
# DUMP=1 also writes every item's TTGIR, PTX and SASS under each compiler for
# the first library (bench_corpus.py --dump), as $OUT/dump.tgz.
set -uo pipefail
cd "$(dirname "$0")/../.."
usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; }
case "${1:-}" in -h|--help) usage; exit 0 ;; esac
if [ $# -lt 2 ]; then
  usage
  exit 2
fi
items=$1; shift
OUT=${OUT:-/tmp/ab}
mkdir -p "$OUT"
export PYTHONPATH=$PWD/python PYTHONUNBUFFERED=1

matches=()
while IFS= read -r line; do
  [ -n "$line" ] && matches+=(--match "$line")
done < "$items"
if [ ${#matches[@]} -eq 0 ]; then
  echo "ab_native_libraries: no items in $items" >&2
  exit 2
fi

unpacked=$(mktemp -d)
trap 'rm -rf "$unpacked"' EXIT
names=()
declare -A paths
for spec in "$@"; do
  name=${spec%%=*}; path=${spec#*=}
  if [ "$name" = "$spec" ] || [ ! -f "$path" ]; then
    echo "ab_native_libraries: '$spec' is not NAME=LIBRARY with an existing LIBRARY" >&2
    exit 2
  fi
  if [[ "$path" == *.xz ]]; then
    python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
      "$path" "$unpacked/$name.so" || exit 2
    path=$unpacked/$name.so
  fi
  names+=("$name"); paths[$name]=$(realpath "$path")
done
last=${names[-1]}

status=0
if [ "${SUITE:-0}" = 1 ]; then
  TRITIUM_LIBRARY=${paths[$last]} python3 -m pytest -q -p no:cacheprovider -n 16 python/test/gpu \
    -m "not full_scale" > "$OUT/suite_$last.log" 2>&1 || status=1
  echo "== GPU tests with $last: $(tail -n 1 "$OUT/suite_$last.log")"
  grep -E "^(FAILED|ERROR)" "$OUT/suite_$last.log" | head -20
fi
for round in $(seq 1 "${ROUNDS:-2}"); do
  for name in "${names[@]}"; do
    dir=$OUT/$name.$round
    mkdir -p "$dir"
    echo "== $name, round $round"
    if TRITIUM_LIBRARY=${paths[$name]} TRITIUM_RESULTS_DIR=$dir python3 bench/bench_corpus.py "${matches[@]}" \
        > "$dir/log" 2>&1; then
      grep -v '^{' "$dir/log" | grep -A 16 '^worst'
    else
      status=1
      tail -n 5 "$dir/log"
    fi
  done
done
if [ "${DUMP:-0}" = 1 ]; then
  TRITIUM_LIBRARY=${paths[${names[0]}]} TRITIUM_RESULTS_DIR=$OUT/dump_run python3 bench/bench_corpus.py \
    "${matches[@]}" --dump "$OUT/dump" > "$OUT/dump_run.log" 2>&1 || status=1
  (cd "$OUT" && tar czf dump.tgz dump && rm -rf dump)
fi
exit $status
