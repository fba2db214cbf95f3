"""Applying fixes to text: non-overlapping edits only, shared edits once."""

from __future__ import annotations

from bisect import bisect_right, insort

from leaselint.diagnostics import Applicability, Diagnostic, Edit, Fix, Position
from leaselint.source import LineIndex


def applicable(fix: Fix | None, unsafe: bool) -> bool:
    if fix is None or fix.applicability is Applicability.DISPLAY_ONLY:
        return False
    return fix.applicability is Applicability.SAFE or unsafe


def apply_fixes(text: str, fixes: list[Fix], newline: str = "\n") -> tuple[str, list[Fix]]:
    """Apply every fix whose edits do not overlap an earlier fix's; return the text and the fixes applied.

    An edit identical to one already taken (two fixes adding the same import) is shared, not repeated.
    A fix left out here is left for the next pass, on the text this one returns. A fix whose own
    edits overlap each other, or run backwards, is never applied.
    """
    index = LineIndex(text)
    taken: list[tuple[int, int, str]] = []
    seen: set[tuple[int, int, str]] = set()
    placed = _Placed()
    applied: list[Fix] = []
    for fix in sorted(fixes, key=lambda f: min((e.start for e in f.edits), default=Position(0, 0))):
        spans = [(index.offset(e.start), index.offset(e.end), _newlines(e, newline)) for e in fix.edits]
        if not spans or not _well_formed(spans):
            continue
        fresh = [span for span in spans if span not in seen]
        if any(placed.clashes(span) for span in fresh):
            continue
        taken.extend(fresh)
        seen.update(fresh)
        for span in fresh:
            placed.add(span)
        applied.append(fix)
    # In text order; insertions at one point keep their order.
    order = sorted(range(len(taken)), key=lambda i: (taken[i][0], taken[i][1], i))
    parts, done = [], 0
    for start, end, content in (taken[i] for i in order):
        parts.append(text[done:start])
        parts.append(content)
        done = end
    parts.append(text[done:])
    return "".join(parts), applied


class _Placed:
    """The spans taken, by start: they never overlap, so their ends rise with their starts too, and
    the spans a new one can overlap are the few just before its end."""

    def __init__(self) -> None:
        self.spans: list[tuple[int, int]] = []

    def clashes(self, span: tuple[int, int, str]) -> bool:
        spans = self.spans
        i = bisect_right(spans, (span[1], span[1]))
        while i > 0 and spans[i - 1][1] >= span[0]:
            i -= 1
            if _overlaps(span, spans[i]):
                return True
        return False

    def add(self, span: tuple[int, int, str]) -> None:
        insort(self.spans, (span[0], span[1]))


def _well_formed(spans: list[tuple[int, int, str]]) -> bool:
    """No edit runs backwards and no two replace the same text (one fix may insert twice at a point)."""
    if any(start > end for start, end, _ in spans):
        return False
    replaced = [span for span in spans if span[0] < span[1]]
    return not any(_overlaps(a, b) for a in replaced for b in spans if a is not b)


def _newlines(edit: Edit, newline: str) -> str:
    return edit.content.replace("\n", newline) if newline != "\n" else edit.content


def _overlaps(a: tuple[int, int, str], b: tuple[int, int, str]) -> bool:
    if a[0] == a[1] or b[0] == b[1]:
        # Two insertions at one point, or an insertion strictly inside a replaced span.
        if a[0] == a[1] and b[0] == b[1]:
            return a[0] == b[0]
        point, span = (a, b) if a[0] == a[1] else (b, a)
        return span[0] < point[0] < span[1]
    return a[0] < b[1] and b[0] < a[1]


def fixable(diagnostics: list[Diagnostic], unsafe: bool) -> list[Fix]:
    return [d.fix for d in diagnostics if applicable(d.fix, unsafe)]  # type: ignore[misc]


def chained(diagnostics: list[Diagnostic], unsafe: bool) -> bool:
    """Some findings have a fix --fix writes and some have not. A fix may settle findings it is not
    for (LL002's fresh token makes LL001's release safe): what --fix fixes is then known by fixing."""
    has = [applicable(d.fix, unsafe) for d in diagnostics]
    return any(has) and not all(has)


def needs_trial(diagnostics: list[Diagnostic], settings) -> bool:
    """The run counts fixes and a cached result's counts need its fixes tried: lint it again."""
    return settings.count_fixes and any(chained(diagnostics, unsafe) for unsafe in {settings.unsafe_fixes, True})
