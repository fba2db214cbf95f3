"""`# noqa` and `# noqa: LL001, LL004` comments: what they hide, and adding them to adopt leaselint."""

from __future__ import annotations

import io
import re
import tokenize
from functools import cache

from leaselint.diagnostics import Diagnostic, Frozen
from leaselint.source import LineIndex

_set = object.__setattr__


@cache
def _noqa() -> re.Pattern:
    """The directive, compiled on first use: 0.5 ms, and a warm run never looks for one."""
    return re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?", re.IGNORECASE)


class Noqa(Frozen):
    """One directive: its line, its columns in that line, and the codes it names (none: every code)."""

    line: int
    start: int
    end: int
    codes: tuple[str, ...]
    _fields = ("line", "start", "end", "codes")

    def __init__(self, line: int, start: int, end: int, codes: tuple[str, ...]) -> None:
        _set(self, "line", line)
        _set(self, "start", start)
        _set(self, "end", end)
        _set(self, "codes", codes)

    def hides(self, code: str) -> bool:
        return not self.codes or code in self.codes


def _parse(comment: str, line: int, column: int) -> Noqa | None:
    match = _noqa().search(comment)
    if match is None:
        return None
    codes = match.group("codes") or ""
    names = tuple(dict.fromkeys(code.upper() for code in re.split(r"[\s,]+", codes) if code))
    return Noqa(line, column + match.start(), column + match.end(), names)


def directives(text: str) -> dict[int, Noqa]:
    """The directives in the comments of `text`, by line (the first one of a line)."""
    if "noqa" not in text.lower():
        return {}
    found: dict[int, Noqa] = {}
    for line, column, comment in _comments(text):
        directive = _parse(comment, line, column)
        if directive is not None and line not in found:
            found[line] = directive
    return found


def _tokens(text: str) -> list[tokenize.TokenInfo] | None:
    try:
        return list(tokenize.generate_tokens(io.StringIO(text, newline=None).readline))
    except (tokenize.TokenError, SyntaxError):
        return None


def _comments(text: str) -> list[tuple[int, int, str]]:
    tokens = _tokens(text)
    if tokens is not None:
        return [(t.start[0], t.start[1], t.string) for t in tokens if t.type == tokenize.COMMENT]
    # Syntax newer than this Python's tokenizer: read every line, as a plain text search would.
    index = LineIndex(text)
    lines = (index.line_text(n) for n in range(1, len(index.starts) + 1))
    return [(n, line.index("#"), line[line.index("#"):]) for n, line in enumerate(lines, 1) if "#" in line]


def split(found: list[Diagnostic], noqa: dict[int, Noqa]) -> tuple[list[Diagnostic], dict[int, set[str]]]:
    """The findings no directive hides, and the codes each directive's line hid."""
    kept: list[Diagnostic] = []
    used: dict[int, set[str]] = {}
    for diagnostic in found:
        directive = noqa.get(diagnostic.start.line)
        if directive is not None and directive.hides(diagnostic.code):
            used.setdefault(diagnostic.start.line, set()).add(diagnostic.code)
        else:
            kept.append(diagnostic)
    return kept, used


def rewritten(directive: Noqa, keep: list[str], line_text: str) -> tuple[int, int, str]:
    """The columns to replace, and the text, for `directive` naming only `keep` (none: removed)."""
    if keep:
        return directive.start, directive.end, "# noqa: " + ", ".join(keep)
    if line_text[directive.end:].strip():
        # Words follow the directive in the same comment: keep them a comment.
        return directive.start, directive.end, "#"
    return len(line_text[: directive.start].rstrip()), len(line_text), ""


def add_noqa(text: str, diagnostics: list[Diagnostic]) -> tuple[str, int, list[int]]:
    """`text` with `# noqa: CODE` on each finding's line, merged into a directive already there.

    Returns the new text, the number of directives written, and the lines where a comment cannot go
    (the line ends inside a string or continues with a backslash).
    """
    wanted: dict[int, list[str]] = {}
    for diagnostic in diagnostics:
        codes = wanted.setdefault(diagnostic.start.line, [])
        if diagnostic.code not in codes:
            codes.append(diagnostic.code)
    index = LineIndex(text)
    noqa = directives(text)
    ends = _line_ends(text)
    edits: list[tuple[int, int, str]] = []
    blocked: list[int] = []
    for line, codes in sorted(wanted.items()):
        if line > len(index.starts):
            continue
        line_text = index.line_text(line)
        current = noqa.get(line)
        if current is not None:
            merged = list(current.codes) + [c for c in codes if c not in current.codes]
            if current.codes and len(merged) > len(current.codes):
                edits.append((line, *rewritten(current, merged, line_text)))
            continue
        if ends is not None and line not in ends:
            blocked.append(line)
            continue
        end = len(line_text.rstrip())
        edits.append((line, end, len(line_text), "  # noqa: " + ", ".join(codes)))
    out = text
    for line, start, end, content in sorted(edits, reverse=True):
        offset = index.starts[line - 1]
        out = out[: offset + start] + content + out[offset + end:]
    return out, len(edits), blocked


def _line_ends(text: str) -> set[int] | None:
    """Lines whose end is outside any string and not continued by a backslash; None: unknown."""
    tokens = _tokens(text)
    if tokens is None:
        return None
    return {t.start[0] for t in tokens if t.type in (tokenize.NEWLINE, tokenize.NL, tokenize.COMMENT)}
