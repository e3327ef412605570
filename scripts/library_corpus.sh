#!/usr/bin/env bash
# Runs public Triton kernel libraries' own tests on a GPU machine twice, once
# with the installed Triton and once with `triton` resolved to Tritium (the
# import alias in scripts/triton_alias), and writes the pass table of both
# (scripts/library_corpus_table.py).
#
#   scripts/library_corpus.sh [OUT_DIR]
#
# On the GPU machine, through the device tool: carry [".ship", "upstream/libraries"],
# command `OUT=$OUT scripts/library_corpus.sh`, timeout_s at least
# ceil(libraries / CORPUS_PARALLEL) times (the deadline + 30) s: with the six
# libraries and the defaults, 540.  OUT_DIR (default $OUT or
# /tmp/library_corpus) receives table.md and library_corpus.tar.gz (per
# library and backend: the pytest log, the outcome log .jsonl, the JUnit
# .xml; runs.tsv, env.txt and table.md).
#
# The libraries live in the ignored folder upstream/libraries/<name>/ (never
# committed), each the Python package and its tests at one commit, put there
# by scripts/library_corpus_sources.sh from scripts/library_corpus_manifest.tsv
# (name, repository, commit, paths):
#   attorch    BobMcDear/attorch                 67c2772baf33  attorch tests
#   fla        fla-org/flash-linear-attention    bc3b101dcb71  fla tests/{conftest.py,modules,ops} pyproject.toml
#   gemlite    mobiusml/gemlite                  1a6815d06373  gemlite tests pyproject.toml
#   mamba      state-spaces/mamba                e9594ce1c732  mamba_ssm tests pyproject.toml
#   torchao    pytorch/ao (v0.17.0, torch 2.11)  02105d46c61d  torchao test/{kernel,prototype/blockwise_fp8_training,prototype/mx_formats}
#   xformers   facebookresearch/xformers (v0.0.35) 03b91d7d9ff2 xformers tests pyproject.toml setup.cfg
#
# The libraries run one after another (CORPUS_PARALLEL at a time), each
# library's backends side by side, each run with its own pytest-xdist
# workers and its own caches, and each stopped with SIGINT at the deadline
# (pytest then writes what it has; the outcome log holds every report as it
# came), so the whole run takes at most the number of libraries times the
# deadline plus about 30 s each.
# The selection per library is below: test paths, a pytest -k expression,
# and at most N items per test function (library_corpus_plugin.py, the same
# items in every run).
#
# Environment: CORPUS_LIBRARIES (names to run, default all), CORPUS_PARALLEL
# (libraries at a time, default 2), CORPUS_BACKENDS
# ("triton tritium" by default), CORPUS_DEADLINE (seconds per run, default
# 150), CORPUS_TEST_TIMEOUT (seconds per test, default 150),
# CORPUS_PER_FUNCTION (overrides every library's N; 0 keeps all items),
# CORPUS_DIR (default upstream/libraries).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
ROOT=$PWD
CORPUS_DIR=$(cd "${CORPUS_DIR:-upstream/libraries}" && pwd) || exit 2
OUT_DIR=${1:-${OUT:-/tmp/library_corpus}}
mkdir -p "$OUT_DIR"
OUT_DIR=$(cd "$OUT_DIR" && pwd)
BACKENDS=${CORPUS_BACKENDS:-"triton tritium"}
DEADLINE=${CORPUS_DEADLINE:-150}
TEST_TIMEOUT=${CORPUS_TEST_TIMEOUT:-150}

# name | import root inside the library folder | xdist workers per backend |
# items kept per test function (0: all) | pytest -k expression | test paths.
# Left out, with the reason:
#   attorch tests/test_conv_layer.py: 589,824 parametrized items, about 40 s
#     of collection in every worker;
#   fla: the other test files of tests/ops and tests/modules, for time (each
#     chunked kernel is autotuned over many configurations);
#   mamba tests/ops/test_selective_scan.py and tests/test_generation.py: need
#     the compiled selective_scan_cuda and causal_conv1d; tests/ops/tilelang,
#     tests/ops/cute: need tilelang and the CUTLASS DSL;
#   xformers test_mem_eff_attention.py other than its split-K Triton
#     operator (-k): the CUTLASS and Flash operators are compiled code;
#   torchao test/prototype/moe_training, mx_formats' MXFP8 kernels: need an
#     SM100 GPU (they skip on SM90); test/kernel/test_autotuner.py: needs the
#     `parameterized` package; test/hqq: needs `hqq`;
#     float8nocompile_linear_test.py: imports torchao.float8.float8_tensor,
#     which v0.17.0 no longer has.
LIBRARIES=(
  "attorch|.|3|2||tests/test_act_layers.py tests/test_batch_norm_layer.py tests/test_cross_entropy_loss_layer.py
    tests/test_dropout_layer.py tests/test_glu_layer.py tests/test_layer_norm_layer.py tests/test_linear_layer.py
    tests/test_multi_head_attention_layer.py tests/test_nll_loss_layer.py tests/test_p_loss_layers.py
    tests/test_pooling_layer.py tests/test_rms_norm_layer.py tests/test_softmax_layers.py"
  "fla|.|4|1||tests/modules/test_cross_entropy.py tests/modules/test_kl_div.py tests/modules/test_l2norm.py
    tests/modules/test_layernorm.py tests/modules/test_rotary.py tests/modules/test_token_shift.py
    tests/ops/test_based.py tests/ops/test_delta.py tests/ops/test_gla.py tests/ops/test_hgrn.py
    tests/ops/test_solve_tril.py tests/ops/utils/test_cumsum.py"
  "gemlite|.|2|0||tests/test_gemlitelineartriton.py tests/test_mxfp.py"
  "mamba|.|2|2||tests/ops/triton tests/test_determinism.py tests/modules/test_mamba3_varlen.py"
  "torchao|.|1|3||test/kernel/test_blockwise_triton.py test/prototype/blockwise_fp8_training
    test/prototype/mx_formats/test_kernels.py::test_rearrange
    torchao/prototype/float8nocompile/kernels/fp8_dynamic_tensorwise_test.py"
  "xformers|.|2|3|not test_mem_eff_attention or splitk|tests/test_rmsnorm.py tests/test_rope_padded.py
    tests/test_tiled_matmul.py tests/test_indexing.py tests/test_triton_varargs.py tests/test_mem_eff_attention.py"
)

case " $BACKENDS " in
  *" tritium "*) source scripts/native_library.sh ;;  # exports TRITIUM_LIBRARY
esac
WORK=$(mktemp -d)
trap 'rm -rf "${TRITIUM_LIBRARY_DIR:-}" "$WORK"' EXIT
export PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1

echo "Measured $(date -u +%Y-%m-%d) on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)," \
     "$(python3 -c 'import sys, torch, triton; print(f"Python {sys.version.split()[0]}, torch {torch.__version__}, Triton {triton.__version__}")' 2>&1 | tail -n 1);" \
     "per run: deadline $DEADLINE s, $TEST_TIMEOUT s per test." > "$WORK/env.txt" &

run_library() {
  local lib=$1 backend=$2 root=$3 workers=$4 per_function=$5 kexpr=$6 paths=$7
  local libdir="$CORPUS_DIR/$lib" pythonpath cache start rc
  pythonpath="$libdir/$root:$ROOT/scripts${PYTHONPATH:+:$PYTHONPATH}"
  [ "$backend" = tritium ] && pythonpath="$ROOT/scripts/triton_alias:$ROOT/python:$pythonpath"
  cache="$WORK/cache/$lib.$backend"
  mkdir -p "$cache"
  local args=(-q -p no:cacheprovider -p library_corpus_plugin --rootdir "$libdir" --confcutdir "$libdir"
              --continue-on-collection-errors -n "$workers" --timeout "$TEST_TIMEOUT"
              --corpus-per-function "${CORPUS_PER_FUNCTION:-$per_function}" --corpus-log "$WORK/$lib.$backend.jsonl"
              --junitxml "$WORK/$lib.$backend.xml" -o junit_family=xunit1)
  [ -n "$kexpr" ] && args+=(-k "$kexpr")
  start=$(date +%s)
  # shellcheck disable=SC2086  # paths: a word list
  # every run has its own caches (Triton's, Tritium's, torch Inductor's, the
  # libraries' own), so that no compiled kernel passes between backends
  (cd "$libdir" && echo "PYTHONPATH=$pythonpath python3 -m pytest ${args[*]} $paths" &&
   PYTHONPATH="$pythonpath" TRITON_CACHE_DIR="$cache/triton" TRITIUM_CACHE_DIR="$cache/tritium" \
     TORCHINDUCTOR_CACHE_DIR="$cache/inductor" XDG_CACHE_HOME="$cache/xdg" \
     timeout -s INT -k 20 "$DEADLINE" python3 -m pytest "${args[@]}" $paths) > "$WORK/$lib.$backend.log" 2>&1
  rc=$?
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$lib" "$backend" "$rc" "$(( $(date +%s) - start ))" "$workers" \
    "${CORPUS_PER_FUNCTION:-$per_function}" "$DEADLINE" >> "$WORK/runs.tsv"
  echo "== $lib / $backend: rc=$rc in $(( $(date +%s) - start )) s: $(tail -n 1 "$WORK/$lib.$backend.log")"
}

# CORPUS_PARALLEL libraries at a time (default 2), each with its backends
# side by side: more at once runs the GPU out of memory, and a test that
# fails for want of memory says nothing about either compiler.
running=0
for spec in "${LIBRARIES[@]}"; do
  IFS='|' read -r lib root workers per_function kexpr paths <<< "$(printf '%s' "$spec" | tr -s ' \n' '  ')"
  if [ -n "${CORPUS_LIBRARIES:-}" ] && [[ " $CORPUS_LIBRARIES " != *" $lib "* ]]; then continue; fi
  if [ ! -d "$CORPUS_DIR/$lib" ]; then echo "== $lib: $CORPUS_DIR/$lib is missing"; continue; fi
  (
    for backend in $BACKENDS; do
      run_library "$lib" "$backend" "$root" "$workers" "$per_function" "$kexpr" "$paths" &
    done
    wait
  ) &
  running=$((running + 1))
  if [ "$running" -ge "${CORPUS_PARALLEL:-2}" ]; then
    wait -n
    running=$((running - 1))
  fi
done
wait
cat "$WORK/env.txt"

python3 "$ROOT/scripts/library_corpus_table.py" --manifest "$CORPUS_DIR/MANIFEST.tsv" --runs "$WORK/runs.tsv" \
  --env "$WORK/env.txt" --out "$WORK/table.md" "$WORK"
cp "$WORK/table.md" "$OUT_DIR/table.md"
rm -rf "$WORK/cache"
tar -czf "$OUT_DIR/library_corpus.tar.gz" -C "$WORK" .
cat "$OUT_DIR/table.md"
