"""Compile fuzzing: generated kernels (kernel_generator.py), valid and
invalid, compiled to cubins through the public API (`tritium.compile`,
target cuda:90, no GPU needed; or with --target cpu to host code, linked)
in child processes, every pass's output verified (the native pipelines
always run MLIR's verifier).

A failure is any of:
  crash     the child process died (a signal, an abort in native code);
  hang      no result within --timeout seconds;
  rejected  a valid program did not compile;
  accepted  an invalid program compiled;
  unplaced  an invalid program's error is not a CompilationError at the
            line its mistake was planted on, in its own file;
  unwritten a valid program's PTX reads a register that none of its
            instructions writes (ptx_registers.py).
Each failure prints its seed, kind and program, so that
`python tools/fuzz/compile_fuzz.py --show SEED [--invalid]` reproduces it.

Usage:
  python tools/fuzz/compile_fuzz.py [--count N] [--first SEED] [--jobs J] [--timeout S] [--target T]
  python tools/fuzz/compile_fuzz.py --show SEED [--invalid] [--target T]
Seeds first .. first + count - 1 each give one valid and one invalid
program (2 x count kernels).  Exit status 1 when anything failed.
"""
import argparse
import importlib.util
import json
import os
import select
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

from kernel_generator import generate, generate_invalid  # noqa: E402
from ptx_registers import unwritten_registers  # noqa: E402


def _program(seed: int, invalid: bool):
    return generate_invalid(seed) if invalid else generate(seed)


def _compile_one(seed: int, invalid: bool, workdir: str) -> dict:
    """Compiles one program in this process; the outcome as a dict."""
    import tritium
    program = _program(seed, invalid)
    kind = "invalid" if invalid else "valid"
    path = os.path.join(workdir, f"k{seed}_{kind}.py")
    with open(path, "w") as f:
        f.write(program.source)
    result = {"seed": seed, "kind": kind}
    try:
        spec = importlib.util.spec_from_file_location(f"fuzz_k{seed}_{kind}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        # As the JIT would specialize a launch of a valid program: integers
        # equal to 1 become constants, and pointers (torch's allocations are
        # 16-byte aligned) and integers that divide by 16 get the
        # divisibility attribute, beside what `attrs` says.  (Invalid
        # programs keep their scalars at run time: some mistakes, a runtime
        # arange bound, are mistakes only there.)
        signature, constexprs = dict(program.signature), dict(program.constexprs)
        attrs = {name: [["tt.divisibility", 16]] for name, ty in signature.items() if ty.startswith("*")}
        for name, value in program.scalars.items():
            if invalid or not isinstance(value, int) or isinstance(value, bool):
                continue
            if value == 1:
                signature[name] = "constexpr"
                constexprs[name] = 1
            elif value % 16 == 0:
                attrs[name] = [["tt.divisibility", 16]]
        attrs.update(program.attrs)
        target = os.environ.get("TRITIUM_FUZZ_TARGET", "cuda:90")
        kernel = tritium.compile(module.kernel, signature=signature, constexprs=constexprs,
                                 attrs=attrs, target=target, num_warps=program.num_warps,
                                 num_stages=program.num_stages)
        result.update(status="ok", cubin="cubin" in kernel.asm)
        if "ptx" in kernel.asm:
            unwritten = unwritten_registers(kernel.asm["ptx"])
            if unwritten:
                result.update(unwritten=unwritten, message="PTX reads registers it never writes: "
                              + ", ".join(unwritten[:8]))
    except tritium.CompilationError as e:
        result.update(status="compile_error", file=e.file, line=e.line, message=str(e).splitlines()[0][:300],
                      path=path)
    except Exception as e:  # noqa: BLE001 - anything else is classified by the parent
        result.update(status="other_error", message=f"{type(e).__name__}: {e}"[:300],
                      trace=traceback.format_exc()[-1500:])
    return result


def _worker(seeds, workdir):
    """Child process: compiles each (seed, invalid) and prints one JSON line
    when it starts and one when it is done.  TRITIUM_FUZZ_INJECT (JSON
    {seed: "abort" | "hang" | "reject" | "unwritten"}, for the harness's
    own test) makes the valid program of a seed crash, hang, fail, or
    report a register its PTX reads and never writes instead."""
    inject = {int(k): v for k, v in json.loads(os.environ.get("TRITIUM_FUZZ_INJECT", "{}")).items()}
    for seed, invalid in seeds:
        print(json.dumps({"start": [seed, invalid]}), flush=True)
        fault = None if invalid else inject.get(seed)
        if fault == "abort":
            os.abort()
        if fault == "hang":
            time.sleep(3600)
        result = _compile_one(seed, invalid, workdir)
        if fault == "reject":
            result.update(status="other_error", message="injected")
        if fault == "unwritten":
            result.update(unwritten=["%rd1"], message="injected")
        print(json.dumps(result), flush=True)


def _classify(result: dict) -> str:
    """'' when the outcome is right, else the failure's name."""
    if result["kind"] == "valid":
        if result["status"] != "ok":
            return "rejected"
        return "unwritten" if result.get("unwritten") else ""
    if result["status"] == "ok":
        return "accepted"
    program = generate_invalid(result["seed"])
    if (result["status"] != "compile_error" or result.get("line") != program.error_line
            or os.path.basename(result.get("file") or "") != os.path.basename(result.get("path") or "-")):
        return "unplaced"
    return ""


def run(first: int, count: int, jobs: int, timeout: float, inject=None, target: str = "cuda:90") -> list:
    """Fuzzes seeds first .. first + count - 1 (valid and invalid) for
    `target`; returns the failures as dicts (seed, kind, failure,
    details).  `inject` (seed -> "abort" | "hang" | "reject" | "unwritten") plants
    faults, for testing the harness."""
    work = [(s, inv) for s in range(first, first + count) for inv in (False, True)]
    chunks = [work[i::jobs] for i in range(jobs)]
    workdir = tempfile.mkdtemp(prefix="tritium-fuzz-")
    env = dict(os.environ, TRITIUM_CACHE_DIR=tempfile.mkdtemp(prefix="tritium-fuzz-cache-"),
               TRITIUM_FUZZ_INJECT=json.dumps(inject or {}), TRITIUM_FUZZ_TARGET=target)
    failures, done = [], 0
    running = []  # per child: process, remaining items, in-flight item, last activity, output buffer

    def start(items):
        if not items:
            return
        code = ("import sys, json; sys.path.insert(0, %r); import compile_fuzz as f; "
                "f._worker([tuple(x) for x in json.loads(sys.stdin.read())], %r)" % (HERE, workdir))
        # stderr goes to a file: a full pipe would stall the child.
        stderr = tempfile.TemporaryFile(mode="w+")
        proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=stderr, env=env)
        proc.stdin.write(json.dumps(items).encode())
        proc.stdin.close()
        proc.stderr_file = stderr
        running.append({"proc": proc, "items": list(items), "in_flight": None, "last": time.monotonic(),
                        "buffer": b"", "eof": False})

    def handle(entry, message):
        nonlocal done
        entry["last"] = time.monotonic()
        if "start" in message:
            entry["in_flight"] = tuple(message["start"])
            return
        entry["items"].remove((message["seed"], message["kind"] == "invalid"))
        entry["in_flight"] = None
        done += 1
        failure = _classify(message)
        if failure:
            failures.append(dict(message, failure=failure))

    for chunk in chunks:
        start(chunk)
    while running:
        # Raw reads on the pipes: a buffered reader could hold lines that
        # select() no longer reports.
        fds = {entry["proc"].stdout.fileno(): entry for entry in running if not entry["eof"]}
        ready, _, _ = select.select(list(fds), [], [], 0.1) if fds else ([], [], [])
        for fd in ready:
            entry = fds[fd]
            data = os.read(fd, 1 << 16)
            if not data:
                entry["eof"] = True
                continue
            entry["buffer"] += data
            *lines, entry["buffer"] = entry["buffer"].split(b"\n")
            for line in lines:
                if line.strip():
                    handle(entry, json.loads(line))
        for entry in list(running):
            proc = entry["proc"]
            hung = entry["in_flight"] is not None and time.monotonic() - entry["last"] > timeout
            if not hung and not (entry["eof"] and proc.poll() is not None):
                continue
            if hung:
                proc.kill()
            proc.wait()
            running.remove(entry)
            proc.stderr_file.seek(0)
            stderr = proc.stderr_file.read()[-1500:]
            items, in_flight = entry["items"], entry["in_flight"]
            if in_flight is not None:  # died or hung on this one
                failures.append({"seed": in_flight[0], "kind": "invalid" if in_flight[1] else "valid",
                                 "failure": "hang" if hung else "crash", "message": stderr})
                items.remove(in_flight)
                done += 1
            elif items:  # died between programs: the harness itself is broken
                failures.extend({"seed": seed, "kind": "invalid" if invalid else "valid",
                                 "failure": "crash", "message": "worker exited: " + stderr}
                                for seed, invalid in items)
                continue
            start(items)  # the rest, in a new child
    return failures


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--show", type=int, default=None)
    parser.add_argument("--invalid", action="store_true")
    parser.add_argument("--target", default="cuda:90", help="cuda:90 (cubins), or cpu (host code, linked)")
    args = parser.parse_args(argv)
    os.environ["TRITIUM_FUZZ_TARGET"] = args.target
    if args.show is not None:
        program = _program(args.show, args.invalid)
        print(program.source)
        if program.error_line:
            print(f"# mistake ({program.mutation}) on line {program.error_line}")
        print(json.dumps(_compile_one(args.show, args.invalid, tempfile.mkdtemp()), indent=1))
        return 0
    t0 = time.monotonic()
    failures = run(args.first, args.count, args.jobs, args.timeout, target=args.target)
    for f in failures:
        print(f"FAIL {f['failure']}: seed {f['seed']} ({f['kind']}): {f.get('message', '')}")
        if f.get("trace"):
            print(f["trace"])
    print(f"{2 * args.count} kernels (seeds {args.first}..{args.first + args.count - 1}, valid and invalid, "
          f"for {args.target}) in "
          f"{time.monotonic() - t0:.0f} s: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
