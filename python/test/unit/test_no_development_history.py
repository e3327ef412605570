"""The sources and documents say what Tritium is and does, not how it was
developed: this test scans their text files for phrases that narrate
development (numbered or named work sessions, numbered runs, borrowed or
lent machines, device-time budgets) and lists every hit as file:line: text.

Engineering uses of the same words are allowed through a short list of
phrases (pytest's `scope="session"`, session fixtures and hooks, CUDA,
driver and profiler sessions), which are blanked out of a line before the
narration patterns are applied."""
import os
import re
import subprocess

import pytest

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
THIS_FILE = os.path.relpath(os.path.abspath(__file__), REPO_ROOT).replace(os.sep, "/")

# What is scanned: files and folders relative to the repository root.
SCANNED = ("README.md", "CMakeLists.txt", ".ci", "docs", "bench", "lib", "include", "python", "scripts",
           "tools", "test", "unittests", "capi", "runtime", "cmake")

# Folders skipped when the tree is walked (outside a git checkout).
SKIPPED_DIRS = {".git", "__pycache__", ".pytest_cache", "_lib"}

_ORDINAL = (r"(?:(?:twenty|thirty)[- ]?)?(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth"
            r"|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth"
            r"|twentieth|thirtieth|\d+(?:st|nd|rd|th))")

# Words after "run N" that make N a count ("runs 4 iterations", "run 3 times",
# "run 4 stages", "runs 12 more instructions"), not the number of a run.
# Plural words count, except the verbs "was", "is", "has" and "does".
_COUNTED = (r"(?!(?:was|is|has|does)\b)(?:[a-z]+s|times?|x|iteration|kernel|program|block|warp|thread|stage"
            r"|copy|step|round|seed|test|process|worker|job|file|cycle|instruction|element|lane|loop|pass"
            r"|repeat|launch|config|batch|min|h|more|fewer|less|extra|additional|other|consecutive)\b")

# (name, pattern), matched case-insensitively; a line is reported once, under
# the first pattern that matches it.
NARRATION = [
    ("ordinal session", _ORDINAL + r"[\s-]+sessions?\b"),
    ("this/that session", r"\b(?:this|that|the next|the last|the previous|a later|an earlier|each|every|one"
                          r"|same|another)\s+session"),
    ("numbered session", r"\bsessions?\s+#?\d+"),
    ("work session", r"\bsessions?\b"),
    ("numbered run", r"\bruns?\s+#?\d+(?:\s*(?:[-–]|and|to|or|,)\s*\d+)*\b"
                     r"(?![.,]\d|\s*[x×^*%]|\s*[-–]\s*\d)(?!\s*(?:[-–]\s*)?" + _COUNTED + r")"),
    ("machine loan", r"\b(?:borrowed|lent|loan(?:ed|s)?)\b"),
    ("device time", r"\bdevice[- ]time\b"),
    ("time budget", r"\b(?:time|device|gpu|session)\s+budget\b"),
    ("we tried", r"\bwe\s+tried\b"),
    ("before this change", r"\bbefore\s+(?:this|that)\s+change\b"),
]
_NARRATION = [(name, re.compile(pattern, re.IGNORECASE)) for name, pattern in NARRATION]

# Engineering uses of "session", blanked out before NARRATION applies.
ALLOWED = [
    r"""\bscope\s*=\s*["']session["']""",             # pytest fixture scope
    r"\bsession[- ](?:scoped|scope|fixtures?|wide)\b",  # "a session-scoped fixture"
    r"\bsessions?(?=\.\w|\()|\.sessions?\b",              # session.config, session(...), pytest.Session
    r"\bsession\s*=|=\s*session\b",                      # session=..., x = session
    r"\bdef\s+\w+\s*\([^)]*\)",                         # def pytest_sessionfinish(session, exitstatus)
    r"\b(?:pytest|test|cuda|driver|ncu|nsys|nsight|profil\w*|debug\w*|gdb|cuda-gdb|sanitizer|ssh|tmux"
    r"|shell|terminal|interactive|login)\s+sessions?\b",  # "a CUDA session", "an ncu session"
]
_ALLOWED = [re.compile(pattern, re.IGNORECASE) for pattern in ALLOWED]


# The first word of a line after its indentation and comment markers.
_FIRST_WORD = re.compile(r"^[\s/#*;!>|-]*([\w'’-]*)")


def narration(line: str, next_line: str = ""):
    """The name of the first NARRATION pattern that `line` matches once the
    ALLOWED phrases are blanked out, or None.  The first word of `next_line`
    is read as the end of `line`, so that a wrapped "runs 12 / more ..."
    reads as a count; only matches that start in `line` count."""
    end = len(line)
    line = line + " " + _FIRST_WORD.match(next_line).group(1)
    for allowed in _ALLOWED:
        line = allowed.sub(lambda match: " " * len(match.group()), line)
    for name, pattern in _NARRATION:
        if any(match.start() < end for match in pattern.finditer(line)):
            return name
    return None


def scanned_files():
    """Repository-relative paths of the files under SCANNED: git's tracked
    and untracked-but-not-ignored files in a git checkout, else a walk."""
    roots = [path for path in SCANNED if os.path.exists(os.path.join(REPO_ROOT, path))]
    try:
        listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", *roots],
                                cwd=REPO_ROOT, capture_output=True, check=True)
        paths = sorted(set(filter(None, listed.stdout.decode("utf-8", "surrogateescape").split("\0"))))
    except (OSError, subprocess.CalledProcessError):
        paths = []
        for root in roots:
            if os.path.isfile(os.path.join(REPO_ROOT, root)):
                paths.append(root)
                continue
            for folder, dirs, files in os.walk(os.path.join(REPO_ROOT, root)):
                dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
                for name in sorted(files):
                    paths.append(os.path.relpath(os.path.join(folder, name), REPO_ROOT).replace(os.sep, "/"))
    return [path for path in paths if path != THIS_FILE and os.path.isfile(os.path.join(REPO_ROOT, path))]


def text_lines(path: str):
    """The lines of `path`, or none for a binary file (a NUL byte in its
    first 8 KiB)."""
    with open(os.path.join(REPO_ROOT, path), "rb") as file:
        data = file.read()
    if b"\0" in data[:8192]:
        return []
    return data.decode("utf-8", "replace").splitlines()


def find_hits():
    """(path, line number, pattern name, line) of every narrating line."""
    hits = []
    for path in scanned_files():
        lines = text_lines(path)
        for number, line in enumerate(lines, 1):
            name = narration(line, lines[number] if number < len(lines) else "")
            if name:
                hits.append((path, number, name, line.strip()))
    return hits


@pytest.mark.parametrize("text", [
    "bench/RESULTS.md, thirteenth session",
    "measured in the 6th session",
    "the sixth session's run",
    "this session's final compiler",
    "Last call of the session, on af61733",
    "final code of the reductions session",
    "sessions 10-12",
    "run 18",
    "(0.999 in runs 17 and 18)",
    "per launch in runs 15-18, with torch",
    "Run 9 (final code): 1.001",
    "run 10's figures were mostly the host",
    "| 4096^3, run 1 | 668.2 |",
    "run 18 was slower",
    "on a borrowed machine",
    "the lent machines are H200s",
    "no device time left",
    "the session's device-time budget",
    "within the time budget",
    "we tried splitting the loop",
    "0.7% slower before this change",
])
def test_patterns_catch_narration(text):
    assert narration(text)


@pytest.mark.parametrize("text", [
    '@pytest.fixture(scope="session")',
    "@pytest.fixture(scope='session', autouse=True)",
    "def pytest_sessionstart(session):",
    "def pytest_sessionfinish(session, exitstatus):",
    "for item in session.items:",
    "a session-scoped fixture builds it once",
    "def pytest_collection_modifyitems(session, config, items):",
    "    config = session.config",
    "def hook(session: pytest.Session):",
    "one CUDA session per process",
    "profile it in an ncu session",
    "a loop of 8 iterations with factor 2 runs 4 iterations",
    "both persistent kernels run 4 stages",
    "run 3 times and take the median",
    "each test runs 2 kernels",
    "the bench runs 1.5x faster",
    "the kernels run 2-4% below Triton on the H200",
    "runs 4096^3 and 8192^3",
    "a register budget of 192",
    "kSharedBudget = 232448 - 1024",
    "host time per launch, device times of the configs",
    "the rest of the run",
])
def test_patterns_allow_engineering_text(text):
    assert narration(text) is None


def test_wrapped_lines():
    assert narration("// tutorial 09's K loop runs 12", "    // more vector instructions a step") is None
    assert narration("# the kernel runs 4", "# iterations of two copies") is None
    assert narration("(0.999 in runs 17 and 18)", "and more text")
    assert narration("measured in the thirteenth", "session")
    assert narration("the kernel of tutorial 09", "session") is None  # reported on the next line


def test_no_development_history():
    hits = find_hits()
    assert not hits, "text that narrates development (say what the code does and why instead):\n" + "\n".join(
        f"{path}:{number}: [{name}] {line[:200]}" for path, number, name, line in hits)
