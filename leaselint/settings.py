"""The effective settings of one run, as plain data (frozen, so it can go to worker processes)."""

from __future__ import annotations

from leaselint.diagnostics import Frozen
from leaselint.paths import is_test_path, matches

_set = object.__setattr__
# The largest file leaselint parses, by default: libcst and the lease model take some 7 s and 0.75 GB
# a megabyte of lease-dense code (24 s and 1.3 GB with the fix counts of the default report). Past it,
# CPython's parser still checks the file's syntax; the rest is left with a warning.
MAX_FILE_SIZE_MIB = 4


class Settings(Frozen):
    # None selects every rule.
    select: frozenset[str] | None
    ignore: frozenset[str]
    fix: bool
    unsafe_fixes: bool
    # Which compare-and-delete the fixes write: "lua", "delifeq" or "delex".
    release: str
    # (glob, codes) pairs: the codes are not reported in files the glob matches.
    per_file_ignores: tuple[tuple[str, frozenset[str]], ...]
    # None: every rule's fixes may be written.
    fixable: frozenset[str] | None
    unfixable: frozenset[str]
    # Globs of files and folders not walked; None: discover's default folder names.
    exclude: tuple[str, ...] | None
    extend_exclude: tuple[str, ...]
    respect_gitignore: bool
    # Exclude files named on the command line too (pre-commit names every file).
    force_exclude: bool
    # The folder that relative globs start from: the configuration file's.
    root: str
    # What this file's calls to other modules of the run do (set per file by the project pass):
    # (module name, is a package's __init__, ((function name, summary, where), ...)), or None.
    project: tuple | None
    # The file is a test module by its path (set per file by for_file): its functions are tests.
    tests: bool
    # Count what --fix would fix of each file's findings (FileResult.fixable), for a report that says.
    count_fixes: bool
    # The longest line a fix writes, where it can wrap one.
    line_length: int
    # The largest file checked, in bytes (0: no limit).
    max_file_size: int
    _fields = (
        "select", "ignore", "fix", "unsafe_fixes", "release", "per_file_ignores", "fixable", "unfixable",
        "exclude", "extend_exclude", "respect_gitignore", "force_exclude", "root", "project", "tests",
        "count_fixes", "line_length", "max_file_size",
    )

    def __init__(
        self,
        select: frozenset[str] | None = None,
        ignore: frozenset[str] = frozenset(),
        fix: bool = False,
        unsafe_fixes: bool = False,
        release: str = "lua",
        per_file_ignores: tuple[tuple[str, frozenset[str]], ...] = (),
        fixable: frozenset[str] | None = None,
        unfixable: frozenset[str] = frozenset(),
        exclude: tuple[str, ...] | None = None,
        extend_exclude: tuple[str, ...] = (),
        respect_gitignore: bool = True,
        force_exclude: bool = False,
        root: str = ".",
        project: tuple | None = None,
        tests: bool = False,
        count_fixes: bool = False,
        line_length: int = 88,
        max_file_size: int = MAX_FILE_SIZE_MIB * 1024 * 1024,
    ) -> None:
        _set(self, "select", select)
        _set(self, "ignore", ignore)
        _set(self, "fix", fix)
        _set(self, "unsafe_fixes", unsafe_fixes)
        _set(self, "release", release)
        _set(self, "per_file_ignores", per_file_ignores)
        _set(self, "fixable", fixable)
        _set(self, "unfixable", unfixable)
        _set(self, "exclude", exclude)
        _set(self, "extend_exclude", extend_exclude)
        _set(self, "respect_gitignore", respect_gitignore)
        _set(self, "force_exclude", force_exclude)
        _set(self, "root", root)
        _set(self, "project", project)
        _set(self, "tests", tests)
        _set(self, "count_fixes", count_fixes)
        _set(self, "line_length", line_length)
        _set(self, "max_file_size", max_file_size)

    def enabled(self, code: str) -> bool:
        if code in self.ignore:
            return False
        return self.select is None or code in self.select

    def can_fix(self, code: str) -> bool:
        if code in self.unfixable:
            return False
        return self.fixable is None or code in self.fixable

    def for_file(self, path: str) -> Settings:
        """These settings with the per-file ignores that match `path` folded into `ignore`, and
        whether it is a test module."""
        # Most paths hold no "test" at all: no path arithmetic for them.
        tests = "test" in path.lower() and is_test_path(path, self.root)
        if not self.per_file_ignores:
            if tests == self.tests:
                return self
            # One object per kind of file, so the cache's digest of settings is made once for each.
            known = _VARIANTS.get(id(self))
            if known is None or known[0] is not self:
                if len(_VARIANTS) > 64:
                    _VARIANTS.clear()
                known = _VARIANTS[id(self)] = (self, self.replace(tests=tests))
            return known[1]
        ignored = set(self.ignore)
        for pattern, codes in self.per_file_ignores:
            if matches(path, pattern, self.root):
                ignored |= codes
        return self.replace(ignore=frozenset(ignored), per_file_ignores=(), tests=tests)


# id(settings) -> (settings, the same settings for a file of the other kind): see for_file.
_VARIANTS: dict[int, tuple[Settings, Settings]] = {}
