"""Paths as the settings and the file walk both read them: globs (`exclude`, `per-file-ignores`) and
test modules. A module of its own, so that neither imports the other for them."""

from __future__ import annotations

import fnmatch
import os

TEST_FOLDERS = frozenset({"test", "tests", "testing"})


def is_test_path(path: str, root: str = ".") -> bool:
    """A test module by its path under `root`: in a tests folder (`tests/`, `test_x/`, `x_tests/`),
    or named `test_*.py`, `*_test.py`, `conftest.py` or `tests.py`."""
    base = os.path.abspath(root)
    if not os.path.isabs(path) and base == os.getcwd():
        relative = path  # walked from the working folder, which is the root: relative already
    else:
        relative = os.path.relpath(os.path.abspath(path), base)
        if relative.startswith(".."):
            # Outside the root: its own folder alone tells, not the folders a checkout sits in.
            relative = os.path.join(os.path.basename(os.path.dirname(os.path.abspath(path))), os.path.basename(path))
    parts = relative.replace(os.sep, "/").split("/")
    name = parts[-1]
    for folder in parts[:-1]:
        lowered = folder.lower()
        if lowered in TEST_FOLDERS or lowered.startswith("test_") or lowered.endswith("_tests"):
            return True
    return name.startswith("test_") or name.endswith("_test.py") or name in ("conftest.py", "tests.py")


def matches(path: str, pattern: str, root: str = ".") -> bool:
    """Whether `path` or a folder above it matches the glob, as in Ruff's exclude and per-file-ignores.

    A glob with a slash is matched against the path relative to `root`; one without, against each
    name in it. `*` also crosses folders.
    """
    pattern = pattern.rstrip("/").removeprefix("./")
    relative = os.path.relpath(os.path.abspath(path), os.path.abspath(root)).replace(os.sep, "/")
    parts = relative.split("/")
    if "/" not in pattern:
        return any(fnmatch.fnmatchcase(part, pattern) for part in parts)
    candidates = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    if relative.startswith("../"):
        candidates.append(os.path.abspath(path).replace(os.sep, "/"))
    globs = [pattern, pattern[3:]] if pattern.startswith("**/") else [pattern]
    return any(fnmatch.fnmatchcase(c, g) for c in candidates for g in globs)


def excluded(path: str, patterns: tuple[str, ...], root: str) -> bool:
    return any(matches(path, pattern, root) for pattern in patterns)
