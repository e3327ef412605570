"""Concurrent-compile fuzzing (tools/fuzz/thread_fuzz.py): generated
programs compiled on four threads of one process get the PTX and the errors
a serial compile gives.  CI (CI=true) runs seeds 0-99, 200 programs; a local
run seeds 0-29.  A longer run is `python tools/fuzz/thread_fuzz.py --count 1000`."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tools", "fuzz"))

import thread_fuzz  # noqa: E402


def test_threads_compile_what_a_serial_compile_does(monkeypatch):
    monkeypatch.setenv("TRITIUM_ALWAYS_COMPILE", "1")
    count = 100 if os.environ.get("CI") else 30
    differing = thread_fuzz.run(first=0, count=count, threads=4)
    assert not differing, "\n".join(f"seed {seed} ({kind}): serial {s}, threaded {t}"
                                    for seed, kind, s, t in differing)
