"""The effective settings of one run, as plain data."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    # None selects every rule.
    select: frozenset[str] | None = None
    ignore: frozenset[str] = frozenset()
    fix: bool = False
    unsafe_fixes: bool = False
    # Which compare-and-delete the fixes write: "lua", "delifeq" or "delex".
    release: str = "lua"

    def enabled(self, code: str) -> bool:
        if code in self.ignore:
            return False
        return self.select is None or code in self.select
