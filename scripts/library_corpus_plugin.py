"""pytest plugin of the library corpus run (scripts/library_corpus.sh): a
fixed sample of each library's tests and an outcome log that survives a
run stopped at its deadline.

Loaded with `-p library_corpus_plugin` (scripts/ on PYTHONPATH); options:

  --corpus-per-function N  keeps at most N items of each test function: the
                           N whose node ids have the smallest SHA-1, so every
                           process and every run keeps the same ones.  It
                           applies after -k and the library's own
                           deselection; 0 (the default) keeps them all.
  --corpus-log PATH        appends one JSON object per line: first
                           {"selected": number of tests kept}, then one per
                           test report (setup, call, teardown) and one per
                           failed collection, each written as it arrives.

Under pytest-xdist every worker keeps the same items and the controller
writes the log.
"""
import hashlib
import json

import pytest


def pytest_addoption(parser):
    group = parser.getgroup("library corpus")
    group.addoption("--corpus-per-function", type=int, default=0, metavar="N",
                    help="keep at most N items of each test function (0: all)")
    group.addoption("--corpus-log", default=None, metavar="PATH",
                    help="append each test report to PATH as a JSON line")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    keep_per_function = config.getoption("corpus_per_function")
    if keep_per_function <= 0:
        return
    functions = {}
    for item in items:
        functions.setdefault(item.nodeid.split("[", 1)[0], []).append(item)
    kept = set()
    for function_items in functions.values():
        ranked = sorted(function_items, key=lambda item: hashlib.sha1(item.nodeid.encode()).hexdigest())
        kept.update(id(item) for item in ranked[:keep_per_function])
    deselected = [item for item in items if id(item) not in kept]
    if deselected:
        items[:] = [item for item in items if id(item) in kept]
        config.hook.pytest_deselected(items=deselected)


def first_line(report) -> str:
    """The line that names a report's failure or skip reason."""
    longrepr = report.longrepr
    if longrepr is None:
        return ""
    if isinstance(longrepr, tuple) and len(longrepr) == 3:  # a skip: (path, line, reason)
        text = str(longrepr[2])
    else:
        crash = getattr(longrepr, "reprcrash", None)
        text = crash.message if crash is not None else str(longrepr)
        # a collection error's text is a traceback whose "E   " lines hold the exception
        raised = [line[1:].strip() for line in text.splitlines() if line.startswith("E  ")]
        if crash is None and raised:
            text = raised[-1]
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[0][:400] if lines else ""


def crash_location(report) -> str:
    crash = getattr(report.longrepr, "reprcrash", None)
    return f"{crash.path}:{crash.lineno}" if crash is not None else ""


class CorpusLog:
    """Writes the reports that reach this process, one JSON line each."""

    def __init__(self, path: str):
        self.file = open(path, "a", buffering=1, encoding="utf-8")
        self.counted = False

    def write(self, record: dict):
        self.file.write(json.dumps(record) + "\n")

    def count(self, selected: int):
        if not self.counted:
            self.counted = True
            self.write({"selected": selected})

    def pytest_collection_finish(self, session):  # without xdist
        self.count(len(session.items))

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node, ids):
        self.count(len(ids))

    def pytest_runtest_logreport(self, report):
        self.write({"nodeid": report.nodeid, "when": report.when, "outcome": report.outcome,
                    "xfail": hasattr(report, "wasxfail"), "message": first_line(report),
                    "where": crash_location(report), "duration": round(report.duration, 3)})

    def pytest_collectreport(self, report):
        if report.failed:
            self.write({"nodeid": report.nodeid, "when": "collect", "outcome": "failed",
                        "xfail": False, "message": first_line(report), "where": crash_location(report),
                        "duration": 0.0})

    def pytest_unconfigure(self, config):
        self.file.close()


def pytest_configure(config):
    path = config.getoption("corpus_log")
    if path and not hasattr(config, "workerinput"):  # the controller, or a run without xdist
        config.pluginmanager.register(CorpusLog(path), "library_corpus_log")
