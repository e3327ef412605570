"""The on-disk cache of compiled kernels.

One directory per kernel variant under $TRITIUM_CACHE_DIR (or
`knobs.cache.dir`; default ~/.tritium/cache), named by a hash of everything that determines the
compiled code: the kernel's source and the sources of the @jit functions it
calls, the specialization, the options, the target and the compiler's
version.  It holds <name>.source/.ttir/.ttgir/.llir/.ptx/.cubin/.json.
Every file is written to a temporary name in the same directory and renamed
into place, the metadata (.json) last: a reader (another process too) sees a
complete variant or none.  TRITIUM_ALWAYS_COMPILE=1 bypasses the cache.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from typing import Dict, Optional


def cache_dir() -> str:
    """knobs.cache.dir: $TRITIUM_CACHE_DIR, else $TRITON_CACHE_DIR, else ~/.tritium/cache."""
    from .. import knobs
    return knobs.cache.dir or os.path.join(os.path.expanduser("~"), ".tritium", "cache")


def always_compile() -> bool:
    """knobs.compilation.always_compile: $TRITIUM_ALWAYS_COMPILE (or $TRITON_ALWAYS_COMPILE)."""
    from .. import knobs
    return bool(knobs.compilation.always_compile)


def make_key(*parts) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(repr(part).encode())
        h.update(b"\0")
    return h.hexdigest()[:40]


def write_atomically(path: str, data: bytes) -> None:
    """Writes `data` to `path` through a temporary file and a rename, so that
    no reader ever sees a part of it."""
    directory = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix="-" + os.path.basename(path))
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def load(key: str, name: str) -> Optional[Dict[str, bytes]]:
    """The files of a cached variant, or None (also when incomplete)."""
    if always_compile():
        return None
    directory = os.path.join(cache_dir(), key)
    meta = os.path.join(directory, name + ".json")
    try:
        with open(meta, "rb") as f:
            files = {"json": f.read()}
        listed = json.loads(files["json"]).get("files", [])
        for ext in listed:
            with open(os.path.join(directory, f"{name}.{ext}"), "rb") as f:
                files[ext] = f.read()
        return files
    except (OSError, ValueError):
        return None


def store(key: str, name: str, files: Dict[str, bytes], metadata: dict) -> str:
    """Writes a variant (metadata last); returns its directory.  Failing to
    write the cache never fails the compile."""
    directory = os.path.join(cache_dir(), key)
    try:
        os.makedirs(directory, exist_ok=True)
        for ext, data in files.items():
            write_atomically(os.path.join(directory, f"{name}.{ext}"), data)
        metadata = dict(metadata, files=sorted(files))
        # Keys in insertion order, not sorted: the order of "signature" is
        # the kernel's parameter order, which launches bind arguments by.
        write_atomically(os.path.join(directory, f"{name}.json"), json.dumps(metadata, indent=1).encode())
    except OSError:
        pass
    return directory
