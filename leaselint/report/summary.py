"""The closing lines shared by the human formats, and their colours."""

from __future__ import annotations

from typing import TextIO

import click

from leaselint.diagnostics import Applicability, FileResult


def paint(text: str, options: dict, **style) -> str:
    """`text` in colour when the run prints colour (a terminal, no NO_COLOR, no --no-color)."""
    return click.style(text, **style) if options.get("color") else text


def write_summary(results: list[FileResult], out: TextIO, options: dict) -> None:
    diagnostics = [d for r in results for d in r.diagnostics]
    fixed = sum(r.fixed_count for r in results)
    safe = sum(1 for d in diagnostics if d.fix and d.fix.applicability is Applicability.SAFE)
    unsafe = sum(1 for d in diagnostics if d.fix and d.fix.applicability is Applicability.UNSAFE)
    if options.get("fixed_codes"):
        write_fixed(options["fixed_codes"], out, options)
    if not diagnostics:
        if fixed:
            out.write(f"Found {fixed} error{_s(fixed)} ({fixed} fixed, 0 remaining).\n")
        elif not options.get("quiet"):
            out.write(paint("All checks passed!", options, fg="green", bold=True) + "\n")
        return
    count = len(diagnostics)
    if fixed:
        out.write(f"Found {count + fixed} errors ({fixed} fixed, {count} remaining).\n")
    else:
        out.write(f"Found {count} error{_s(count)}.\n")
    if safe:
        out.write(f"[*] {safe} fixable with the `--fix` option")
        if unsafe and not options.get("unsafe_fixes"):
            out.write(f" ({unsafe} hidden fix{'es' if unsafe != 1 else ''} can be enabled with `--unsafe-fixes`)")
        out.write(".\n")
    elif unsafe and not options.get("unsafe_fixes"):
        out.write(f"No fixes available ({unsafe} hidden fix{'es' if unsafe != 1 else ''} can be enabled with `--unsafe-fixes`).\n")
    elif unsafe:
        out.write(f"[*] {unsafe} fixable with `--fix --unsafe-fixes`.\n")


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
