#!/usr/bin/env bash
# Packs the built native library for the GPU machine: stripped and xz-compressed
# into .ship/ (ignored by git), which the device tool carries (`carry: [".ship"]`).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .ship
strip --strip-all -o .ship/libtritium.so "${TRITIUM_BUILD_DIR:-build}/lib/libtritium.so"
xz -T2 -6 -f .ship/libtritium.so
ls -la .ship
