#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine for Tritium and builds it:
#   1. installs the Debian packages the build and tests need (if any is missing),
#   2. configures build/ with CMake (clang-22 + lld + ccache when present),
#   3. builds libtritium.so, tritium-opt and the unit tests.
# Usage: scripts/setup.sh            (from anywhere; needs root or sudo for apt)
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  llvm-22-dev libmlir-22-dev mlir-22-tools libzstd-dev   # MLIR/LLVM 22, lit, FileCheck
  clang-22 lld-22 cmake ninja-build ccache               # the toolchain
  libgtest-dev python3 python3-pytest python3-numpy binutils git  # tests
  python3-mpmath                                         # the CPU target's math against mpmath
  libclang-rt-22-dev                                     # sanitizer runtimes (scripts/sanitize.sh)
  python3-pip python3-setuptools python3-wheel python3-venv  # pip install . (test_packaging.py)
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

exec scripts/build.sh
