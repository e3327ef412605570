#!/usr/bin/env python3
"""The pass table of Triton's upstream tests under Triton and under Tritium
(scripts/triton_suite.sh runs them and calls this with the JUnit files).

    triton_suite_table.py --tests-dir DIR --out table.md triton.xml tritium.xml

Per test file: passed / failed / skipped / errored under each backend, and
the bar of the compatibility issue: of the tests Triton passes that do not
use `tl.dot` (a test function whose name or source mentions `dot`), the
share Tritium passes.  Then the causes of the tests Triton passes and
Tritium does not, grouped by the first line of their message with numbers,
paths and quoted names folded, largest group first, each with an example.
"""
from __future__ import annotations

import argparse
import ast
import collections
import os
import re
import xml.etree.ElementTree as ET
from typing import Dict, Tuple

OUTCOMES = ("passed", "failed", "skipped", "error")


def read_junit(path: str) -> Dict[Tuple[str, str], Tuple[str, str]]:
    """(file, test name) -> (outcome, first line of the message)."""
    results = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        file = case.get("file") or case.get("classname", "").replace(".", "/") + ".py"
        outcome, message = "passed", ""
        for child in case:
            if child.tag in ("failure", "error", "skipped"):
                outcome = {"failure": "failed", "error": "error", "skipped": "skipped"}[child.tag]
                message = child.get("message") or (child.text or "")
                break
        # an error in teardown after a pass is recorded as a second element: keep the worst
        key = (file, case.get("name", ""))
        if key in results and results[key][0] in ("failed", "error"):
            continue
        results[key] = (outcome, message.strip().splitlines()[0] if message.strip() else "")
    return results


def dot_tests(tests_dir: str) -> Dict[str, set]:
    """Per file, the test functions that use tl.dot."""
    out = {}
    for folder, _, files in os.walk(tests_dir):
        for name in files:
            if not (name.startswith("test_") and name.endswith(".py")):
                continue
            path = os.path.join(folder, name)
            source = open(path).read()
            rel = os.path.relpath(path, tests_dir)
            names = set()
            for node in ast.walk(ast.parse(source)):
                if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                    segment = ast.get_source_segment(source, node) or ""
                    if "dot" in node.name or re.search(r"\bdot(_scaled)?\(", segment):
                        names.add(node.name)
            out[rel] = names
    return out


def fold(message: str) -> str:
    """A failure message with its particulars folded, for grouping."""
    message = re.sub(r"/[\w./-]+\.py:\d+:\d+", "<loc>", message)
    message = re.sub(r"'[^']{1,80}'", "'…'", message)
    message = re.sub(r"0x[0-9a-f]+|\b\d+(\.\d+)?\b", "N", message)
    return message[:160]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tests-dir", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--deselect", default="")
    parser.add_argument("junit", nargs="+")
    args = parser.parse_args()
    runs = {os.path.basename(p).rsplit(".", 1)[0]: read_junit(p) for p in args.junit if os.path.exists(p)}
    triton, tritium = runs.get("triton", {}), runs.get("tritium", {})
    uses_dot = dot_tests(args.tests_dir)

    def file_of(key):
        return re.sub(r"^(\.\./)*", "", key[0])

    def is_dot(key):
        base = key[1].split("[", 1)[0]
        return any(base in names for f, names in uses_dot.items() if file_of(key).endswith(f.split("unit/")[-1]))

    files = sorted({file_of(k) for r in runs.values() for k in r})
    lines = ["| file | Triton 3.6 passed / failed / skipped / errored | Tritium passed / failed / skipped / errored "
             "| bar: Tritium passes of Triton's non-dot passes |", "|---|---|---|---|"]
    total_bar = [0, 0]
    for f in files:
        cells = []
        for run in (triton, tritium):
            counts = collections.Counter(o for k, (o, _) in run.items() if file_of(k) == f)
            cells.append(" / ".join(str(counts[o]) for o in OUTCOMES) if run else "-")
        base = [k for k, (o, _) in triton.items() if file_of(k) == f and o == "passed" and not is_dot(k)]
        passed = sum(1 for k in base if tritium.get(k, ("",))[0] == "passed")
        total_bar[0] += passed
        total_bar[1] += len(base)
        share = f"{passed} / {len(base)} ({100.0 * passed / len(base):.1f}%)" if base else "-"
        lines.append(f"| {f} | {cells[0]} | {cells[1]} | {share} |")
    share = 100.0 * total_bar[0] / total_bar[1] if total_bar[1] else 0.0
    lines.append(f"| **all** | | | **{total_bar[0]} / {total_bar[1]} ({share:.1f}%)** |")
    text = ["# Triton's upstream tests: Triton 3.6 and Tritium on the same machine", ""]
    if args.deselect:
        text.append(f"Both runs left out the tests selected by `-k \"{args.deselect}\"` (pytest's -k).")
        text.append("")
    text += lines
    causes = collections.defaultdict(list)
    for k, (o, _) in triton.items():
        if o != "passed" or is_dot(k):
            continue
        outcome, message = tritium.get(k, ("missing", "not run"))
        if outcome != "passed":
            causes[(outcome, fold(message))].append(k)
    text += ["", f"## Tests Triton passes and Tritium does not ({sum(len(v) for v in causes.values())}), by cause",
             "", "| tests | outcome | message (folded) | example |", "|---|---|---|---|"]
    for (outcome, message), keys in sorted(causes.items(), key=lambda kv: -len(kv[1])):
        example = f"{file_of(keys[0])}::{keys[0][1]}"
        text.append(f"| {len(keys)} | {outcome} | {message.replace('|', '/')} | {example} |")
    with open(args.out, "w") as out:
        out.write("\n".join(text) + "\n")


if __name__ == "__main__":
    main()
