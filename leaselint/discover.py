"""Which files to lint: walk directories, skip the usual non-source folders, excludes and git-ignored files."""

from __future__ import annotations

import fnmatch
import os
import re
from typing import TYPE_CHECKING, Iterator

from leaselint.paths import TEST_FOLDERS, excluded, is_test_path, matches  # noqa: F401 (names of this module before)

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


def discover(paths: list[str], settings: Settings | None = None, cache=None) -> Iterator[str]:
    """Files to lint, in a stable order. A file named directly is linted unless force-exclude says no.
    With a cache, a folder unchanged since the last run is not listed again."""
    from leaselint.settings import Settings

    settings = settings or Settings()
    patterns = excludes(settings)
    seen: set[str] = set()
    for path in paths:
        if not os.path.lexists(path):
            raise MissingPath(path)
        if os.path.isdir(path):
            candidates = _walk(path, patterns, settings, cache.listing if cache is not None else scan)
        elif settings.force_exclude and excluded(path, patterns, settings.root):
            continue
        else:
            candidates = iter([path])
        for candidate in candidates:
            real = os.path.normpath(candidate)
            if real not in seen:
                seen.add(real)
                yield candidate


# Folders of tests, and the names of test modules (pytest's and unittest's conventions).
def excludes(settings: Settings) -> tuple[str, ...]:
    base = tuple(sorted(DEFAULT_EXCLUDES)) if settings.exclude is None else settings.exclude
    return base + settings.extend_exclude


def _walk(root: str, patterns: tuple[str, ...], settings: Settings, listing) -> Iterator[str]:
    ignored = _git_ignored(root) if settings.respect_gitignore else set()
    names, name_globs, path_globs = _compile(patterns)

    def skip(path: str, name: str) -> bool:
        # The walk has already pruned the folders above, so only the last name or the whole path can match.
        if name in names or (name_globs is not None and name_globs(name)):
            return True
        if ignored and os.path.normpath(path) in ignored:
            return True
        return bool(path_globs) and any(matches(path, pattern, settings.root) for pattern in path_globs)

    # Depth first, files before folders, each sorted. A folder that cannot be listed is handed on
    # as a path of its own: reading it reports why.
    sep = os.sep
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            dirs, files, links = listing(folder)
        except OSError as exc:
            yield from _drain([exc])
            continue
        prefix = folder if folder.endswith(sep) else folder + sep
        shown = prefix[2:] if prefix.startswith("./") else prefix
        if links:
            # Where a link points can change without its folder changing: asked each time.
            files = sorted((*files, *(name for name in links if not os.path.isdir(prefix + name))))
        for name in files:
            if not skip(prefix + name, name):
                yield shown + name
        stack.extend(prefix + name for name in reversed(dirs) if not skip(prefix + name, name))


def scan(folder: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """What a folder holds, each part sorted: its folders (not hidden, not links), its source files,
    and its source names that are links (a link to a folder is not walked). Raises OSError."""
    with os.scandir(folder) as listing:
        entries = list(listing)
    if not entries:
        return (), (), ()
    dirs: list[str] = []
    files: list[str] = []
    links: list[str] = []
    for entry in entries:
        name = entry.name
        try:
            is_dir = entry.is_dir()
        except OSError:
            is_dir = False
        if entry.is_symlink():
            if name.endswith(SUFFIXES):
                links.append(name)
        elif is_dir:
            if not name.startswith("."):
                dirs.append(name)
        elif name.endswith(SUFFIXES):
            files.append(name)
    dirs.sort()
    files.sort()
    return tuple(dirs), tuple(files), tuple(sorted(links)) if links else ()


def _compile(patterns: tuple[str, ...]):
    """Exclude patterns split for a fast check: plain names, globs of one name, globs of a path."""
    names: set[str] = set()
    name_globs: list[str] = []
    path_globs: list[str] = []
    for pattern in patterns:
        bare = pattern.rstrip("/").removeprefix("./")
        if "/" in bare:
            path_globs.append(bare)
        elif any(char in bare for char in "*?["):
            name_globs.append(bare)
        else:
            names.add(bare)
    matcher = re.compile("|".join(f"(?:{fnmatch.translate(g)})" for g in name_globs)).match if name_globs else None
    return frozenset(names), matcher, tuple(path_globs)

def _drain(errors: list[OSError]) -> Iterator[str]:
    while errors:
        path = os.fspath(errors.pop(0).filename or "")
        if path:
            yield path[2:] if path.startswith("./") else path


def _git_ignored(root: str) -> set[str]:
    """Untracked paths git ignores under `root` (whole folders as one entry); empty outside a repository."""
    if not _in_repository(root):
        return set()
    import subprocess

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


def _in_repository(root: str) -> bool:
    """A `.git` in `root` or a folder above it (saves starting git outside a repository)."""
    folder = os.path.abspath(root)
    while True:
        if os.path.exists(os.path.join(folder, ".git")):
            return True
        parent = os.path.dirname(folder)
        if parent == folder:
            return False
        folder = parent
