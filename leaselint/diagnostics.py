"""Plain data handed from rules to the fixer and the reporters."""

from __future__ import annotations

import enum
from operator import attrgetter

_set = object.__setattr__


# The related note of a finding made through the module's own helper, at its caller's call.
HANDED_KEY = "the lease's key is handed to it here"


class FrozenInstanceError(AttributeError):
    """Assigning to a field of a Frozen record (as dataclasses' error of the same name)."""


class Record:
    """`==` and repr over the fields named in `_fields`, as @dataclass writes them.

    Written once here rather than by @dataclass, which compiles these methods anew for every class
    at import (0.3-0.7 ms a class, on every run). A subclass sets its fields in its own __init__.
    """

    # The fields, in order: compared, hashed (when frozen) and shown.
    _fields: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if cls._fields:
            cls._values = staticmethod(attrgetter(*cls._fields))
            if "__match_args__" not in cls.__dict__:
                cls.__match_args__ = cls._fields

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__qualname__}({shown})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._values(self) == self._values(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, as @dataclass(eq=True) leaves it


class Frozen(Record):
    """A Record whose fields cannot be assigned once set, as @dataclass(frozen=True) makes it."""

    def __hash__(self) -> int:
        return hash(self._values(self))

    def __setattr__(self, name: str, value) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def replace(self, **changes):
        """A copy with `changes`, as dataclasses.replace makes it (every attribute is an __init__ argument)."""
        return type(self)(**{**self.__dict__, **changes})


def _by_fields(self):
    """Pickled as its class and its fields, in order (each an __init__ argument): twice as fast to
    write as a copy of __dict__, for the findings workers send back and the cache keeps."""
    return (type(self), self._values(self))


class Applicability(str, enum.Enum):
    """How sure a fix is, as in Ruff: safe fixes are written by --fix."""

    SAFE = "safe"
    UNSAFE = "unsafe"
    DISPLAY_ONLY = "display-only"


class Position(Frozen):
    """1-based line, 0-based column in characters of the decoded text."""

    line: int
    column: int
    _fields = ("line", "column")
    __reduce__ = _by_fields

    def __init__(self, line: int, column: int) -> None:
        _set(self, "line", line)
        _set(self, "column", column)

    # Ordered by line, then column, as @dataclass(order=True) orders it.
    def __lt__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return (self.line, self.column) < (other.line, other.column)  # type: ignore[attr-defined]
        return NotImplemented

    def __le__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return (self.line, self.column) <= (other.line, other.column)  # type: ignore[attr-defined]
        return NotImplemented

    def __gt__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return (self.line, self.column) > (other.line, other.column)  # type: ignore[attr-defined]
        return NotImplemented

    def __ge__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return (self.line, self.column) >= (other.line, other.column)  # type: ignore[attr-defined]
        return NotImplemented


class Edit(Frozen):
    """Replace the text between start and end with content."""

    start: Position
    end: Position
    content: str
    _fields = ("start", "end", "content")
    __reduce__ = _by_fields

    def __init__(self, start: Position, end: Position, content: str) -> None:
        _set(self, "start", start)
        _set(self, "end", end)
        _set(self, "content", content)


class Fix(Frozen):
    message: str
    edits: tuple[Edit, ...]
    applicability: Applicability
    _fields = ("message", "edits", "applicability")
    __reduce__ = _by_fields

    def __init__(self, message: str, edits: tuple[Edit, ...], applicability: Applicability = Applicability.SAFE) -> None:
        _set(self, "message", message)
        _set(self, "edits", edits)
        _set(self, "applicability", applicability)


class Related(Frozen):
    """Another place in the file that explains a finding (where its fixed value was made)."""

    start: Position
    end: Position
    message: str
    _fields = ("start", "end", "message")
    __reduce__ = _by_fields

    def __init__(self, start: Position, end: Position, message: str) -> None:
        _set(self, "start", start)
        _set(self, "end", end)
        _set(self, "message", message)


class Diagnostic(Frozen):
    code: str
    message: str
    start: Position
    end: Position
    fix: Fix | None
    name: str
    related: tuple[Related, ...]
    _fields = ("code", "message", "start", "end", "fix", "name", "related")
    __reduce__ = _by_fields

    def __init__(
        self,
        code: str,
        message: str,
        start: Position,
        end: Position,
        fix: Fix | None = None,
        name: str = "",
        related: tuple[Related, ...] = (),
    ) -> None:
        _set(self, "code", code)
        _set(self, "message", message)
        _set(self, "start", start)
        _set(self, "end", end)
        _set(self, "fix", fix)
        _set(self, "name", name)
        _set(self, "related", related)


class FileResult(Record):
    """Everything the reporters need to know about one file."""

    path: str
    diagnostics: list[Diagnostic]
    fixed_text: str | None
    original_text: str | None
    # Per code, the findings of the text as read that the fixed text no longer has.
    fixed: dict[str, int]
    internal_errors: list[str]
    # Passed over by the prefilter's look at CPython's tree: nothing was parsed with libcst.
    passed_over: bool
    _fields = ("path", "diagnostics", "fixed_text", "original_text", "fixed", "internal_errors", "passed_over")

    def __init__(
        self,
        path: str,
        diagnostics: list[Diagnostic] | None = None,
        fixed_text: str | None = None,
        original_text: str | None = None,
        fixed: dict[str, int] | None = None,
        internal_errors: list[str] | None = None,
        passed_over: bool = False,
    ) -> None:
        self.path = path
        self.diagnostics = [] if diagnostics is None else diagnostics
        self.fixed_text = fixed_text
        self.original_text = original_text
        self.fixed = {} if fixed is None else fixed
        self.internal_errors = [] if internal_errors is None else internal_errors
        self.passed_over = passed_over
        # (exports, wants) of the module (leaselint/model/summary.py), when it was parsed.
        self.summary: tuple | None = None
        # With fixed_text: the findings of the text as read, reported if the fixed text is not written.
        self.unfixed: list[Diagnostic] | None = None
        # Per code, the findings of `diagnostics` that --fix (with this run's --unsafe-fixes) would
        # fix, and how many more --unsafe-fixes would: counted when the settings ask (count_fixes).
        self.fixable: dict[str, int] | None = None
        self.hidden = 0
        # Why the file was not checked (past max-file-size), or None: a warning, not a finding.
        self.unchecked: str | None = None

    @property
    def fixed_count(self) -> int:
        return sum(self.fixed.values())

    def not_fixed(self) -> None:
        """The fixed text was not written: the file keeps its findings as read, none of them fixed."""
        if self.unfixed is not None:
            self.diagnostics = self.unfixed
            if self.fixable is not None:
                # What this run fixed is what --fix would fix; the hidden count stands.
                self.fixable = dict(self.fixed)
        self.fixed_text, self.fixed, self.unfixed = None, {}, None
