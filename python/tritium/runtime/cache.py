"""The on-disk cache of compiled kernels.

One directory per kernel variant under $TRITIUM_CACHE_DIR (or
`knobs.cache.dir`; default ~/.tritium/cache), named by a hash of everything that determines the
compiled code: the kernel's source and the sources of the @jit functions it
calls, the specialization, the options, the target and the compiler's
version.  It holds <name>.source/.ttir/.ttgir/.llir/.ptx/.cubin/.json.
Every file is written to a temporary name in the same directory and renamed
into place, the metadata (.json) last: a reader (another process too) sees a
complete variant or none.  The metadata records the variant's key and the
SHA-256 of every file; a variant whose files or key do not match (truncated,
edited, or copied from another variant) is not loaded: the kernel is
compiled again and the variant rewritten.  When the directory cannot be
written (read-only, full, not a directory), kernels are compiled in memory
and a warning says so once per directory.  TRITIUM_ALWAYS_COMPILE=1
bypasses the cache.  `triton_key()` names the compiler itself (Tritium's
version, the native library's build and a hash of the Python sources), as
Triton's `triton_key` does for code that keys caches of its own on it.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
import warnings
from typing import Dict, Optional

from .. import knobs
from .._native import native_library
from ..version import __tritium_version__

_warned_dirs = set()
_warned_lock = threading.Lock()


def cache_dir() -> str:
    """knobs.cache.dir: $TRITIUM_CACHE_DIR, else $TRITON_CACHE_DIR, else ~/.tritium/cache."""
    return knobs.cache.dir or os.path.join(os.path.expanduser("~"), ".tritium", "cache")


def always_compile() -> bool:
    """knobs.compilation.always_compile: $TRITIUM_ALWAYS_COMPILE (or $TRITON_ALWAYS_COMPILE)."""
    return bool(knobs.compilation.always_compile)


def make_key(*parts) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(repr(part).encode())
        h.update(b"\0")
    return h.hexdigest()[:40]


_FRONTEND_HASH: Optional[str] = None


def frontend_hash() -> str:
    """A hash of the Python package's own sources: editing the frontend
    invalidates cached kernels."""
    global _FRONTEND_HASH
    if _FRONTEND_HASH is None:
        h = hashlib.sha256()
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        for directory, _, names in sorted(os.walk(root)):
            for n in sorted(names):
                if n.endswith(".py"):
                    with open(os.path.join(directory, n), "rb") as f:
                        h.update(f.read())
        _FRONTEND_HASH = h.hexdigest()
    return _FRONTEND_HASH


def triton_key() -> str:
    """A string that changes whenever the compiler changes (Triton's
    `triton_key()`): Tritium's version, the native library's build id and
    the hash of the Python sources."""
    return f"{__tritium_version__}-{native_library().build_id()}-{frontend_hash()}"


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


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def load(key: str, name: str) -> Optional[Dict[str, bytes]]:
    """The files of a cached variant, or None: absent, incomplete, or not
    matching the key and content hashes its metadata records."""
    if always_compile():
        return None
    directory = os.path.join(cache_dir(), key)
    meta = os.path.join(directory, name + ".json")
    try:
        with open(meta, "rb") as f:
            files = {"json": f.read()}
        metadata = json.loads(files["json"])
        hashes = metadata.get("sha256")
        if metadata.get("cache_key") != key or not isinstance(hashes, dict):
            return None  # another variant's files, or written before hashes
        listed = metadata.get("files", [])
        if sorted(hashes) != sorted(listed):
            return None
        for ext in listed:
            with open(os.path.join(directory, f"{name}.{ext}"), "rb") as f:
                files[ext] = f.read()
            if digest(files[ext]) != hashes[ext]:
                return None
        return files
    except (OSError, ValueError, AttributeError, TypeError):
        return None


def store(key: str, name: str, files: Dict[str, bytes], metadata: dict) -> str:
    """Writes a variant (metadata last); returns its directory.  Failing to
    write the cache never fails the compile: it warns, once per directory."""
    directory = os.path.join(cache_dir(), key)
    try:
        os.makedirs(directory, exist_ok=True)
        for ext, data in files.items():
            write_atomically(os.path.join(directory, f"{name}.{ext}"), data)
        metadata = dict(metadata, files=sorted(files), cache_key=key,
                        sha256={ext: digest(data) for ext, data in files.items()})
        # Keys in insertion order, not sorted: the order of "signature" is
        # the kernel's parameter order, which launches bind arguments by.
        write_atomically(os.path.join(directory, f"{name}.json"), json.dumps(metadata, indent=1).encode())
    except OSError as e:
        warn_unwritable(cache_dir(), e)
    return directory


def warn_unwritable(root: str, error: OSError) -> None:
    with _warned_lock:
        if root in _warned_dirs:
            return
        _warned_dirs.add(root)
    warnings.warn(f"tritium: cannot write the kernel cache in {root} ({error.strerror or error}); "
                  "kernels are compiled in memory and compiled again by the next process",
                  RuntimeWarning, stacklevel=3)


def default_cache_dir() -> str:
    """The cache directory when no knob or variable names one (Triton's
    default_cache_dir)."""
    return os.path.join(os.path.expanduser("~"), ".tritium", "cache")


class FileCacheManager:
    """Triton's file cache manager over one variant directory of this cache
    (`<cache dir>/<key>`): get_file, put, get_group, put_group.  Files put
    through it are written atomically; they carry no hashes, so the
    compiler's own loads do not take them for a variant."""

    def __init__(self, key: str):
        self.key = key
        self.cache_dir = os.path.join(cache_dir(), key)

    def _path(self, filename: str) -> str:
        return os.path.join(self.cache_dir, filename)

    def has_file(self, filename: str) -> bool:
        return os.path.exists(self._path(filename))

    def get_file(self, filename: str) -> Optional[str]:
        return self._path(filename) if self.has_file(filename) else None

    def put(self, data, filename: str, binary: bool = True) -> str:
        os.makedirs(self.cache_dir, exist_ok=True)
        path = self._path(filename)
        write_atomically(path, data if isinstance(data, bytes) else str(data).encode())
        return path

    def get_group(self, filename: str) -> Optional[Dict[str, str]]:
        grp = self.get_file(filename)
        if grp is None:
            return None
        with open(grp) as f:
            children = json.load(f).get("child_paths", {})
        return {name: path for name, path in children.items() if os.path.exists(path)}

    def put_group(self, filename: str, group: Dict[str, str]) -> str:
        return self.put(json.dumps({"child_paths": group}), filename, binary=False)


def get_cache_manager(key: str) -> FileCacheManager:
    """The cache manager of variant directory `key` (Triton's get_cache_manager)."""
    return FileCacheManager(key)
