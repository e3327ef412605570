#!/usr/bin/env python3
"""The pass table of public Triton kernel libraries' own tests under Triton
and under Tritium (scripts/library_corpus.sh runs them and calls this).

    library_corpus_table.py --manifest MANIFEST.tsv --runs runs.tsv [--env env.txt]
                            --out table.md DIR

DIR holds, per library and backend, LIB.BACKEND.jsonl (the outcome log of
scripts/library_corpus_plugin.py) or, where that is missing, LIB.BACKEND.xml
(JUnit, xunit1; it records a test stopped at the deadline as passed, the
outcome log as not run).  MANIFEST.tsv gives each library's repository and commit
(name, repository, commit, paths; tab-separated); runs.tsv each run's exit
status and wall time (library, backend, exit status, seconds, workers, tests
kept per function, deadline).

The table gives, per library and backend, the tests selected and how many
passed, failed, were skipped, errored or were not run (the run stopped at
its deadline or lost a worker), and the share of Triton's passes that
Tritium passes.  Then the tests Triton passes and Tritium does not, grouped
by the first line of their message with numbers and file locations folded
(largest group first, with the libraries and one example test id),
the tests Tritium passes and Triton does not, and Triton's own failures by
cause, which show what the machine lacks.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import re
import xml.etree.ElementTree as ET
from typing import Dict, List, Optional, Tuple

OUTCOMES = ("passed", "failed", "skipped", "error")
BACKENDS = ("triton", "tritium")
RANK = {"passed": 0, "skipped": 1, "failed": 2, "error": 3}
CAUSE_HEADER = ("| tests | libraries | outcome | message (first line, folded) | example |", "|---|---|---|---|---|")


class Run:
    """One library's tests under one backend."""

    def __init__(self):
        self.tests: Dict[str, Tuple[str, str]] = {}  # node id -> (outcome, message)
        self.collect_errors: Dict[str, str] = {}  # file or folder node id -> message
        self.selected: Optional[int] = None
        self.present = False

    def outcome(self, nodeid: str) -> Tuple[str, str]:
        if nodeid in self.tests:
            return self.tests[nodeid]
        for prefix, message in self.collect_errors.items():
            if nodeid.startswith(prefix):
                return "error", message
        return "not run", ""

    def counts(self) -> collections.Counter:
        counts = collections.Counter(o for o, _ in self.tests.values())
        counts["error"] += len(self.collect_errors)
        if self.selected is not None:
            counts["not run"] = max(0, self.selected - len(self.tests))
        return counts


def fold(message: str) -> str:
    """A message with its file locations and numbers folded, for grouping;
    quoted names stay, since they name what is missing or unsupported."""
    message = re.sub(r"(?<![\w.])(/[\w.+-]+)+\.py(:\d+)*", "<path>", message)
    message = re.sub(r"0x[0-9a-fA-F]+|\b\d+(\.\d+)?(e[-+]?\d+)?\b", "N", message)
    return message[:200]


def read_jsonl(path: str) -> Run:
    run = Run()
    run.present = True
    reports = collections.defaultdict(list)
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError:  # a line cut short when the run was stopped
                continue
            if "selected" in record:
                run.selected = record["selected"]
            elif record.get("when") == "collect":
                run.collect_errors[record["nodeid"]] = record.get("message", "")
            else:
                reports[record["nodeid"]].append(record)
    for nodeid, records in reports.items():
        # setup, call, teardown: the first that did not pass decides; a test
        # with no call report (stopped at the deadline) was not run
        outcome, message = None, ""
        for record in records:
            if record["outcome"] == "passed":
                if record["when"] == "call":
                    outcome = "passed"
                continue
            if record["outcome"] == "skipped":
                outcome = "skipped"
            else:
                outcome = "failed" if record["when"] == "call" else "error"
            message = record.get("message", "")
            break
        if outcome is not None:
            run.tests[nodeid] = (outcome, message)
    return run


def junit_message(element) -> str:
    """The first line of a JUnit failure, error or skip, unwrapped."""
    message = (element.get("message") or "").strip()
    wrapped = re.match(r'failed on (setup|teardown) with "(.*)"$', message, re.DOTALL)
    if wrapped:
        message = wrapped.group(2)
    raised = [line[1:].strip() for line in (element.text or "").splitlines() if line.startswith("E  ")]
    if message in ("", "collection failure") and raised:
        message = raised[-1]
    lines = [line.strip() for line in (message or element.text or "").splitlines() if line.strip()]
    return lines[0] if lines else ""


def read_junit(path: str) -> Run:
    run = Run()
    run.present = True
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError:
        return run
    for case in root.iter("testcase"):
        name, classname = case.get("name", ""), case.get("classname", "")
        file = case.get("file") or classname.replace(".", "/") + ".py"
        last = classname.rsplit(".", 1)[-1]
        nodeid = f"{file}::{last}::{name}" if last[:1].isupper() else f"{file}::{name}"
        outcome, message = "passed", ""
        for child in case:
            if child.tag in ("failure", "error", "skipped"):
                outcome = {"failure": "failed", "error": "error", "skipped": "skipped"}[child.tag]
                message = junit_message(child)
                break
        if not classname and outcome == "error":  # a collection error: name is the module path
            run.collect_errors[name.replace(".", "/") + ".py"] = message
            continue
        if nodeid in run.tests and RANK[run.tests[nodeid][0]] >= RANK[outcome]:
            continue
        run.tests[nodeid] = (outcome, message)
    return run


def read_run(directory: str, library: str, backend: str) -> Run:
    jsonl = os.path.join(directory, f"{library}.{backend}.jsonl")
    xml = os.path.join(directory, f"{library}.{backend}.xml")
    if os.path.exists(jsonl):
        return read_jsonl(jsonl)
    if os.path.exists(xml):
        return read_junit(xml)
    return Run()


def read_tsv(path: Optional[str]) -> List[List[str]]:
    if not path or not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n").split("\t") for line in f if line.strip()]


def cell(run: Run) -> str:
    if not run.present:
        return "did not run"
    counts = run.counts()
    not_run = counts["not run"] if run.selected is not None else "?"
    return " / ".join(str(counts[o]) for o in OUTCOMES) + f" / {not_run}"


def cause_of_absence(run: Run, runs_row: Optional[List[str]]) -> Tuple[str, str]:
    if not run.present:
        return "not run", "no outcome log: the run did not start"
    if runs_row and len(runs_row) > 2 and runs_row[2] in ("124", "137"):
        return "not run", "the run stopped at its deadline before this test"
    return "not run", "absent from the run (a worker crashed or the run was interrupted)"


def by_library(keys: List[Tuple[str, str]]) -> str:
    counts = collections.Counter(lib for lib, _ in keys)
    return ", ".join(f"{lib} {n}" for lib, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--manifest", required=True)
    parser.add_argument("--runs", default=None)
    parser.add_argument("--env", default=None)
    parser.add_argument("--out", required=True)
    parser.add_argument("directory")
    args = parser.parse_args()

    manifest = {row[0]: row for row in read_tsv(args.manifest)}
    runs_rows = {(row[0], row[1]): row for row in read_tsv(args.runs)}
    libraries = sorted({lib for lib, _ in runs_rows} or set(manifest))
    runs = {(lib, b): read_run(args.directory, lib, b) for lib in libraries for b in BACKENDS}

    text = ["# Public Triton kernel libraries' own tests: Triton 3.6 and Tritium on the same machine", ""]
    if args.env and os.path.exists(args.env):
        text += [line.rstrip() for line in open(args.env, encoding="utf-8") if line.strip()] + [""]
    text += ["Each cell: passed / failed / skipped / errors / not run, of the tests selected "
             "(a test's setup or teardown failure, and a test file that fails to import, count as errors; "
             "`not run`: selected but not reached before the deadline or lost with a crashed worker).", "",
             "| library | source | selected | Triton 3.6 | Tritium | Tritium passes of Triton's passes "
             "| wall s (Triton / Tritium) |", "|---|---|---|---|---|---|---|"]
    total = [0, 0]
    causes = collections.defaultdict(list)
    tritium_only_passes = []
    triton_failures = collections.defaultdict(list)
    unreached = collections.defaultdict(list)  # Tritium's failures where Triton has no outcome
    for lib in libraries:
        triton, tritium = runs[(lib, "triton")], runs[(lib, "tritium")]
        row = manifest.get(lib, [lib, "", "", ""])
        source = f"{row[1]}@{row[2][:10]}" if len(row) > 2 and row[1] else "-"
        selected = triton.selected if triton.selected is not None else tritium.selected
        base = [n for n, (o, _) in triton.tests.items() if o == "passed"]
        passed = [n for n in base if tritium.outcome(n)[0] == "passed"]
        total[0] += len(passed)
        total[1] += len(base)
        share = f"{len(passed)} / {len(base)} ({100.0 * len(passed) / len(base):.1f}%)" if base else "-"
        walls = " / ".join(runs_rows.get((lib, b), ["", "", "", "-"])[3] or "-" for b in BACKENDS)
        text.append(f"| {lib} | {source} | {selected if selected is not None else '?'} | {cell(triton)} "
                    f"| {cell(tritium)} | {share} | {walls} |")
        for nodeid in base:
            outcome, message = tritium.outcome(nodeid)
            if outcome == "passed":
                continue
            if outcome == "not run":
                outcome, message = cause_of_absence(tritium, runs_rows.get((lib, "tritium")))
            causes[(outcome, fold(message))].append((lib, nodeid))
        for nodeid, (outcome, message) in tritium.tests.items():
            if outcome == "passed" and triton.outcome(nodeid)[0] in ("failed", "error"):
                tritium_only_passes.append((lib, nodeid))
            if outcome in ("failed", "error") and triton.outcome(nodeid)[0] in ("not run", "skipped"):
                unreached[(outcome, fold(message))].append((lib, nodeid))
        for nodeid, (outcome, message) in list(triton.tests.items()) + \
                [(n, ("error", m)) for n, m in triton.collect_errors.items()]:
            if outcome in ("failed", "error"):
                triton_failures[(outcome, fold(message))].append((lib, nodeid))
    def cause_rows(groups):
        """A table row per (outcome, folded message): its test count,
        libraries and first example, the largest group first."""
        rows = []
        for (outcome, message), keys in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            lib, nodeid = keys[0]
            rows.append(f"| {len(keys)} | {by_library(keys)} | {outcome} | {message.replace('|', '/')} "
                        f"| {lib}: `{nodeid}` |")
        return rows

    share = 100.0 * total[0] / total[1] if total[1] else 0.0
    text.append(f"| **all** | | | | | **{total[0]} / {total[1]} ({share:.1f}%)** | |")

    text += ["", f"## Tests Triton passes and Tritium does not ({sum(len(v) for v in causes.values())}), by cause",
             "", *CAUSE_HEADER]
    text += cause_rows(causes)

    text += ["", f"## Tritium's failures and errors on tests Triton did not run ({sum(len(v) for v in unreached.values())}),"
             " by cause", "", "Not counted above (Triton has no outcome to compare); each needs a look of its own.", "",
             *CAUSE_HEADER]
    text += cause_rows(unreached)

    text += ["", f"## Tests Tritium passes and Triton fails ({len(tritium_only_passes)})", ""]
    if not tritium_only_passes:
        text.append("None.")
    for lib, nodeid in tritium_only_passes[:20]:
        text.append(f"- {lib}: `{nodeid}`")
    if len(tritium_only_passes) > 20:
        text.append(f"- and {len(tritium_only_passes) - 20} more")

    text += ["", f"## Triton's own failures and errors ({sum(len(v) for v in triton_failures.values())}), by cause",
             "", *CAUSE_HEADER]
    text += cause_rows(triton_failures)

    with open(args.out, "w", encoding="utf-8") as out:
        out.write("\n".join(text) + "\n")


if __name__ == "__main__":
    main()
