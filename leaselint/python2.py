"""Python 2 files read for their leases: the statements Python 3 no longer parses, written as
Python 3 on the same lines, so that findings keep their line numbers. Never for fixes.

Handled: `print x` (and `print >>f, x`), `except E, e:`, `raise E, "message"`, `exec code`, `<>`,
long literals (`10L`, `0xFFL`), old octal literals (`0755`), backquotes (`` `x` `` is `repr(x)`),
`ur"..."` strings, and indentation that mixes tabs and spaces (a tab moves to the next multiple of
eight, as Python 2 read it). Files of Python 3.6 and before, where `async` was still a name
(`from .async import Lock`, `run(async=True)`), read it as `asyn_`, of the same length. A text that
still does not parse is left.
"""

from __future__ import annotations

import re

_PRINT = re.compile(r"^(\s*)print\b(?!\s*[(=.\[])(.*?)(\s*#.*)?$")
_PRINT_TO = re.compile(r"^>>\s*([^,]+),\s*(.*)$")
_EXCEPT = re.compile(r"^(\s*except\s+)(.+?)\s*,\s*([A-Za-z_]\w*)\s*:(.*)$")
_RAISE = re.compile(r"^(\s*raise\s+)([A-Za-z_][\w.]*)\s*,\s*(.+?)\s*$")
_EXEC = re.compile(r"^(\s*)exec\s+(?!\()(.+?)\s*$")
_LONG = re.compile(r"\b(0[xX][0-9a-fA-F]+|\d+)[lL]\b")
_BACKQUOTE = re.compile(r"`([^`]+)`")
_UR = re.compile(r"(?<![\w\"'])[uU]([rR][\"'])")
_OCTAL = re.compile(r"(?<![\w.])0([0-7]+)\b")
# `async` as a name, not as the keyword of `async def`, `async with` or `async for`.
_ASYNC_NAME = re.compile(r"(?<![\w.])async\b(?!\s+(?:def|with|for)\b)|(?<=\.)async\b")


def _balanced(text: str) -> bool:
    depth = 0
    for character in text:
        if character in "([{":
            depth += 1
        elif character in ")]}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _in_string(line: str, match: re.Match) -> bool:
    """The match sits in a string or a comment, or holds a quote (counted roughly, by the quotes
    before it)."""
    before = line[: match.start()]
    quoted = "'" in match.group(1) or '"' in match.group(1)
    return quoted or "#" in before or before.count("'") % 2 == 1 or before.count('"') % 2 == 1


def _in_text(line: str, at: int) -> bool:
    """`at` sits in a string or a comment (counted roughly, by the quotes before it)."""
    before = line[:at]
    return "#" in before or before.count("'") % 2 == 1 or before.count('"') % 2 == 1


def _code_part(line: str) -> bool:
    """The line holds no string quote: words in it are code, not text."""
    return "'" not in line and '"' not in line


def _line(line: str) -> str:
    if "async" in line:
        line = _ASYNC_NAME.sub(lambda m: m.group(0) if _in_text(line, m.start()) else "asyn_", line)
    if line[: len(line) - len(line.lstrip())].count("\t"):
        indent = len(line) - len(line.lstrip())
        line = line[:indent].expandtabs(8) + line[indent:]  # (Python 2's tab stops)
    if "`" in line:
        line = _BACKQUOTE.sub(lambda m: m.group(0) if _in_string(line, m) else f"repr({m.group(1)})", line)
    if "r'" in line or 'r"' in line or "R'" in line or 'R"' in line:
        line = _UR.sub(r"\1", line)
    match = _PRINT.match(line)
    if match is not None and _balanced(match.group(2)) and not line.rstrip().endswith("\\"):
        indent, rest, comment = match.group(1), match.group(2).strip(), match.group(3) or ""
        target = _PRINT_TO.match(rest)
        if target is not None:
            rest = f"{target.group(2).rstrip(',').strip()}, file={target.group(1).strip()}"
        return f"{indent}print({rest.rstrip(',')}){comment}"
    match = _EXCEPT.match(line)
    if match is not None and _balanced(match.group(2)):
        return f"{match.group(1)}{match.group(2)} as {match.group(3)}:{match.group(4)}"
    match = _RAISE.match(line)
    if match is not None and _balanced(match.group(3)):
        return f"{match.group(1)}{match.group(2)}({match.group(3)})"
    match = _EXEC.match(line)
    if match is not None and _balanced(match.group(2)):
        return f"{match.group(1)}exec({match.group(2)})"
    if _code_part(line):
        line = _LONG.sub(r"\1", line.replace("<>", "!="))
        line = _OCTAL.sub(r"0o\1", line)
    return line


def as_python3(text: str) -> str | None:
    """`text` with its Python 2 statements written as Python 3 on the same lines, or None when
    nothing changed."""
    lines = text.split("\n")
    changed = [_line(line) for line in lines]
    if changed == lines:
        return None
    return "\n".join(changed)
