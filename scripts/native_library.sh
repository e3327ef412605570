# Sourced by scripts/gpu_run.sh and scripts/gpu_sanitize.sh (from the
# repository root): picks the native library the GPU runs use and exports
# TRITIUM_LIBRARY (python/tritium/_native.py) when the package would not
# find it by itself.  In order:
#   1. $TRITIUM_LIBRARY when it is set (it must exist);
#   2. the shipped library, .ship/libtritium.so.xz (scripts/ship_library.sh),
#      unpacked into a temporary folder removed when the script exits;
#   3. the build's: python/tritium/_lib/libtritium.so, the link the build
#      makes to it, or ${TRITIUM_BUILD_DIR:-build}/lib/libtritium.so.
# With none of them it stops the script with a message saying so.
if [ -n "${TRITIUM_LIBRARY:-}" ]; then
  if [ ! -f "$TRITIUM_LIBRARY" ]; then
    echo "$(basename "$0"): TRITIUM_LIBRARY=$TRITIUM_LIBRARY does not exist" >&2
    exit 2
  fi
elif [ -f .ship/libtritium.so.xz ]; then
  TRITIUM_LIBRARY_DIR=$(mktemp -d)
  trap 'rm -rf "$TRITIUM_LIBRARY_DIR"' EXIT
  if ! python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
      .ship/libtritium.so.xz "$TRITIUM_LIBRARY_DIR/libtritium.so"; then
    echo "$(basename "$0"): cannot unpack .ship/libtritium.so.xz" >&2
    exit 2
  fi
  export TRITIUM_LIBRARY="$TRITIUM_LIBRARY_DIR/libtritium.so"
elif [ -e python/tritium/_lib/libtritium.so ]; then
  :  # the package finds it itself
elif [ -f "${TRITIUM_BUILD_DIR:-build}/lib/libtritium.so" ]; then
  TRITIUM_LIBRARY=$(realpath "${TRITIUM_BUILD_DIR:-build}/lib/libtritium.so")
  export TRITIUM_LIBRARY
else
  echo "$(basename "$0"): no native library: no .ship/libtritium.so.xz (made by scripts/ship_library.sh)," \
       "no python/tritium/_lib/libtritium.so and no ${TRITIUM_BUILD_DIR:-build}/lib/libtritium.so" \
       "(built by scripts/build.sh)" >&2
  exit 2
fi
echo "native library: ${TRITIUM_LIBRARY:-$(realpath python/tritium/_lib/libtritium.so)}"
