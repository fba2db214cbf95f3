"""The effective settings of one run, as plain data (frozen, so it can go to worker processes)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from leaselint.discover import matches


@dataclass(frozen=True)
class Settings:
    # None selects every rule.
    select: frozenset[str] | None = None
    ignore: frozenset[str] = frozenset()
    fix: bool = False
    unsafe_fixes: bool = False
    # Which compare-and-delete the fixes write: "lua", "delifeq" or "delex".
    release: str = "lua"
    # (glob, codes) pairs: the codes are not reported in files the glob matches.
    per_file_ignores: tuple[tuple[str, frozenset[str]], ...] = ()
    # None: every rule's fixes may be written.
    fixable: frozenset[str] | None = None
    unfixable: frozenset[str] = frozenset()
    # Globs of files and folders not walked; None: discover's default folder names.
    exclude: tuple[str, ...] | None = None
    extend_exclude: tuple[str, ...] = ()
    respect_gitignore: bool = True
    # Exclude files named on the command line too (pre-commit names every file).
    force_exclude: bool = False
    # The folder that relative globs start from: the configuration file's.
    root: str = "."

    def enabled(self, code: str) -> bool:
        if code in self.ignore:
            return False
        return self.select is None or code in self.select

    def can_fix(self, code: str) -> bool:
        if code in self.unfixable:
            return False
        return self.fixable is None or code in self.fixable

    def for_file(self, path: str) -> Settings:
        """These settings with the per-file ignores that match `path` folded into `ignore`."""
        if not self.per_file_ignores:
            return self
        ignored = set(self.ignore)
        for pattern, codes in self.per_file_ignores:
            if matches(path, pattern, self.root):
                ignored |= codes
        return replace(self, ignore=frozenset(ignored), per_file_ignores=())
