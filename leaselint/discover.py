"""Which files to lint: walk directories, skip the usual non-source folders."""

from __future__ import annotations

import os
from typing import Iterator

DEFAULT_EXCLUDES = frozenset(
    {
        ".git",
        "venv",
        ".venv",
        "__pycache__",
        "node_modules",
        "build",
        "dist",
        ".tox",
        ".nox",
        "site-packages",
        ".leaselint_cache",
    }
)
SUFFIXES = (".py", ".pyi")


class MissingPath(Exception):
    pass


def discover(paths: list[str]) -> Iterator[str]:
    """Files to lint, in a stable order. A file named directly is always linted."""
    seen: set[str] = set()
    for path in paths:
        if not os.path.lexists(path):
            raise MissingPath(path)
        if os.path.isdir(path):
            candidates = _walk(path)
        else:
            candidates = iter([path])
        for candidate in candidates:
            real = os.path.normpath(candidate)
            if real not in seen:
                seen.add(real)
                yield candidate


def _walk(root: str) -> Iterator[str]:
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs[:] = sorted(d for d in dirs if d not in DEFAULT_EXCLUDES and not d.startswith("."))
        for name in sorted(files):
            if name.endswith(SUFFIXES):
                full = os.path.join(folder, name)
                yield full[2:] if full.startswith("./") else full
