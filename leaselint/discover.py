"""Which files to lint: walk directories, skip the usual non-source folders, excludes and git-ignored files."""

from __future__ import annotations

import fnmatch
import os
import subprocess
from typing import TYPE_CHECKING, Iterator

if TYPE_CHECKING:
    from leaselint.settings import Settings

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


def discover(paths: list[str], settings: Settings | None = None) -> Iterator[str]:
    """Files to lint, in a stable order. A file named directly is linted unless force-exclude says no."""
    from leaselint.settings import Settings

    settings = settings or Settings()
    patterns = excludes(settings)
    seen: set[str] = set()
    for path in paths:
        if not os.path.lexists(path):
            raise MissingPath(path)
        if os.path.isdir(path):
            candidates = _walk(path, patterns, settings)
        elif settings.force_exclude and excluded(path, patterns, settings.root):
            continue
        else:
            candidates = iter([path])
        for candidate in candidates:
            real = os.path.normpath(candidate)
            if real not in seen:
                seen.add(real)
                yield candidate


def excludes(settings: Settings) -> tuple[str, ...]:
    base = tuple(sorted(DEFAULT_EXCLUDES)) if settings.exclude is None else settings.exclude
    return base + settings.extend_exclude


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


def _walk(root: str, patterns: tuple[str, ...], settings: Settings) -> Iterator[str]:
    ignored = _git_ignored(root) if settings.respect_gitignore else set()

    def skip(path: str, name: str) -> bool:
        if os.path.normpath(path) in ignored:
            return True
        return any(_matches_here(path, name, p, settings.root) for p in patterns)

    # A folder that cannot be listed is handed on as a path of its own: reading it reports why.
    unlisted: list[OSError] = []
    for folder, dirs, files in os.walk(root, onerror=unlisted.append, followlinks=False):
        yield from _drain(unlisted)
        dirs[:] = sorted(
            d for d in dirs if not d.startswith(".") and not skip(os.path.join(folder, d), d)
        )
        for name in sorted(files):
            full = os.path.join(folder, name)
            if name.endswith(SUFFIXES) and not skip(full, name):
                yield full[2:] if full.startswith("./") else full
    yield from _drain(unlisted)


def _drain(errors: list[OSError]) -> Iterator[str]:
    while errors:
        path = os.fspath(errors.pop(0).filename or "")
        if path:
            yield path[2:] if path.startswith("./") else path


def _matches_here(path: str, name: str, pattern: str, root: str) -> bool:
    # The walk has already pruned the folders above, so only the last name or the whole path can match.
    bare = pattern.rstrip("/").removeprefix("./")
    if "/" not in bare:
        return fnmatch.fnmatchcase(name, bare)
    return matches(path, bare, root)


def _git_ignored(root: str) -> set[str]:
    """Untracked paths git ignores under `root` (whole folders as one entry); empty outside a repository."""
    try:
        done = subprocess.run(
            ["git", "-C", root, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory"],
            capture_output=True,
            timeout=120,
        )
    except (OSError, subprocess.SubprocessError):
        return set()
    if done.returncode != 0:
        return set()
    names = done.stdout.decode("utf-8", "surrogateescape").split("\0")
    return {os.path.normpath(os.path.join(root, name)) for name in names if name}
