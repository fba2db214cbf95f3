"""Plain data handed from rules to the fixer and the reporters."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class Applicability(str, enum.Enum):
    """How sure a fix is, as in Ruff: safe fixes are written by --fix."""

    SAFE = "safe"
    UNSAFE = "unsafe"
    DISPLAY_ONLY = "display-only"


@dataclass(frozen=True, order=True)
class Position:
    """1-based line, 0-based column in characters of the decoded text."""

    line: int
    column: int


@dataclass(frozen=True)
class Edit:
    """Replace the text between start and end with content."""

    start: Position
    end: Position
    content: str


@dataclass(frozen=True)
class Fix:
    message: str
    edits: tuple[Edit, ...]
    applicability: Applicability = Applicability.SAFE


@dataclass(frozen=True)
class Diagnostic:
    code: str
    message: str
    start: Position
    end: Position
    fix: Fix | None = None
    name: str = ""


@dataclass
class FileResult:
    """Everything the reporters need to know about one file."""

    path: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    fixed_text: str | None = None
    original_text: str | None = None
    fixed_count: int = 0
    internal_errors: list[str] = field(default_factory=list)
    # Passed over by the prefilter's look at CPython's tree: nothing was parsed with libcst.
    passed_over: bool = False
