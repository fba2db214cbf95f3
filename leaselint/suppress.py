"""`# noqa` and `# noqa: LL001, LL004` on the reported line."""

from __future__ import annotations

import re

from leaselint.diagnostics import Diagnostic
from leaselint.source import LineIndex

_NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?", re.IGNORECASE)


def noqa_codes(line: str) -> set[str] | None:
    """None: no noqa; empty set: a blanket noqa; otherwise the codes named."""
    if "#" not in line:
        return None
    match = _NOQA.search(line)
    if match is None:
        return None
    codes = match.group("codes")
    if not codes:
        return set()
    return {code.upper() for code in re.split(r"[\s,]+", codes) if code}


def suppressed(diagnostic: Diagnostic, index: LineIndex) -> bool:
    if diagnostic.start.line > len(index.starts):
        return False
    codes = noqa_codes(index.line_text(diagnostic.start.line))
    return codes is not None and (not codes or diagnostic.code in codes)
