"""The rule cases: the few each rule's own file shows beside its documentation, and the rest, in
fixture files by theme (`tests/cases/<CODE>/<theme>.py`, each with a VALID and an INVALID list of
`leaselint.rule.Valid` / `Invalid`). `named(rule, kind)` gives them all, the rule file's first."""

from __future__ import annotations

import importlib.util
from functools import lru_cache
from pathlib import Path

HERE = Path(__file__).parent
KINDS = ("VALID", "INVALID")


def fixture_files(code: str) -> list[Path]:
    return sorted((HERE / code).glob("*.py"))


@lru_cache(maxsize=None)
def _load(path: Path):
    spec = importlib.util.spec_from_file_location(f"cases.{path.parent.name}.{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def named(rule, kind: str) -> list[tuple[str, object]]:
    """(theme, case) of every `kind` case of `rule`: "inline" for the rule file's own."""
    assert kind in KINDS
    found = [("inline", case) for case in getattr(rule, kind)]
    for path in fixture_files(rule.code):
        found += [(path.stem, case) for case in getattr(_load(path), kind, [])]
    return found


def valid(rule) -> list:
    return [case for _, case in named(rule, "VALID")]


def invalid(rule) -> list:
    return [case for _, case in named(rule, "INVALID")]


def numbered(rule, kind: str) -> list[tuple[str, object]]:
    """(name, case), the name its theme and its place there (`redis_classes-3`), for test ids."""
    counts: dict[str, int] = {}
    found = []
    for theme, case in named(rule, kind):
        counts[theme] = counts.get(theme, -1) + 1
        found.append((f"{theme}-{counts[theme]}", case))
    return found
