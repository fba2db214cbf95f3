"""The closing lines shared by the human formats, and their colours."""

from __future__ import annotations

from collections import Counter
from typing import TextIO

import click

from leaselint.diagnostics import Applicability, FileResult
from leaselint.fix import applicable


def paint(text: str, options: dict, **style) -> str:
    """`text` in colour when the run prints colour (a terminal, no NO_COLOR, no --no-color)."""
    return click.style(text, **style) if options.get("color") else text


def write_summary(results: list[FileResult], out: TextIO, options: dict) -> None:
    remaining = sum(len(r.diagnostics) for r in results)
    fixed = sum(r.fixed_count for r in results)
    if options.get("fixed_codes"):
        write_fixed(options["fixed_codes"], out, options)
    if not remaining and not fixed:
        if not options.get("quiet"):
            out.write(paint("All checks passed!", options, fg="green", bold=True) + "\n")
        return
    write_counts(results, out, options)


def write_counts(results: list[FileResult], out: TextIO, options: dict) -> None:
    """`Found N errors (F fixed, R remaining).` and what --fix would fix of the R: N = F + R, and the
    fixable count is what --fix then fixes (a fix that settles another finding counts it too)."""
    remaining = sum(len(r.diagnostics) for r in results)
    fixed = sum(r.fixed_count for r in results)
    found = fixed + remaining
    if fixed:
        out.write(f"Found {found} error{_s(found)} ({fixed} fixed, {remaining} remaining).\n")
    else:
        out.write(f"Found {found} error{_s(found)}.\n")
    count = sum(sum(fixable_codes(r, options).values()) for r in results)
    hidden = 0 if options.get("unsafe_fixes") else sum(hidden_fixes(r) for r in results)
    more = f"{hidden} hidden fix{'es' if hidden != 1 else ''} can be enabled with `--unsafe-fixes`"
    if count and options.get("unsafe_fixes") and _any_unsafe(results):
        out.write(f"[*] {count} fixable with `--fix --unsafe-fixes`.\n")
    elif count and hidden:
        out.write(f"[*] {count} fixable with the `--fix` option ({more}).\n")
    elif count:
        out.write(f"[*] {count} fixable with the `--fix` option.\n")
    elif hidden:
        out.write(f"No fixes available ({more}).\n")


def fixable_codes(result: FileResult, options: dict) -> dict[str, int]:
    """Per code, the result's findings that --fix (with --unsafe-fixes when given) would fix: as
    counted when it was linted, else each finding's own fix."""
    if result.fixable is not None:
        return result.fixable
    unsafe = bool(options.get("unsafe_fixes"))
    return dict(Counter(d.code for d in result.diagnostics if applicable(d.fix, unsafe)))


def hidden_fixes(result: FileResult) -> int:
    """How many more of the result's findings --unsafe-fixes would fix."""
    if result.fixable is not None:
        return result.hidden
    return sum(1 for d in result.diagnostics if d.fix and d.fix.applicability is Applicability.UNSAFE)


def _any_unsafe(results: list[FileResult]) -> bool:
    return any(d.fix and d.fix.applicability is Applicability.UNSAFE for r in results for d in r.diagnostics)


def write_fixed(fixed_codes: dict[str, dict[str, int]], out: TextIO, options: dict) -> None:
    """--show-fixes: what --fix fixed, per file and rule, as Ruff prints it."""
    from leaselint.rules import RULES_BY_CODE

    total = sum(sum(codes.values()) for codes in fixed_codes.values())
    out.write(f"Fixed {total} error{_s(total)}:\n")
    for path, codes in fixed_codes.items():
        out.write(f"- {paint(path, options, bold=True)}:\n")
        for code, count in sorted(codes.items()):
            name = RULES_BY_CODE[code].name if code in RULES_BY_CODE else ""
            out.write(f"    {count} × {paint(code, options, fg='red', bold=True)} ({name})\n")
    out.write("\n")


def _s(count: int) -> str:
    return "" if count == 1 else "s"


def fix_marker(diagnostic, options: dict) -> str:
    fix = diagnostic.fix
    if fix is None:
        return ""
    if fix.applicability is Applicability.SAFE or (fix.applicability is Applicability.UNSAFE and options.get("unsafe_fixes")):
        return paint("[*]", options, fg="cyan") + " "
    return ""


def heading(path: str, diagnostic, options: dict) -> str:
    """`path:row:col: CODE [*] message`, the first line of a finding in the human formats."""
    where = paint(f"{path}:{diagnostic.start.line}:{diagnostic.start.column + 1}:", options, bold=True)
    code = paint(diagnostic.code, options, fg="red", bold=True)
    return f"{where} {code} {fix_marker(diagnostic, options)}{diagnostic.message}"
