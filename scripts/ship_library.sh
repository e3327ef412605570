#!/usr/bin/env bash
# Packs the built native library for the GPU machine: stripped and xz-compressed
# into .ship/ (ignored by git), copied to the GPU machine with the checkout and
# unpacked there by scripts/gpu_run.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .ship
strip --strip-all -o .ship/libtritium.so "${TRITIUM_BUILD_DIR:-build}/lib/libtritium.so"
xz -T2 -6 -f .ship/libtritium.so
ls -la .ship
