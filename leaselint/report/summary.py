"""The closing lines shared by the human formats."""

from __future__ import annotations

from typing import TextIO

from leaselint.diagnostics import Applicability, FileResult


def write_summary(results: list[FileResult], out: TextIO, options: dict) -> None:
    diagnostics = [d for r in results for d in r.diagnostics]
    fixed = sum(r.fixed_count for r in results)
    safe = sum(1 for d in diagnostics if d.fix and d.fix.applicability is Applicability.SAFE)
    unsafe = sum(1 for d in diagnostics if d.fix and d.fix.applicability is Applicability.UNSAFE)
    if not diagnostics:
        if fixed:
            out.write(f"Found {fixed} error{_s(fixed)} ({fixed} fixed, 0 remaining).\n")
        elif not options.get("quiet"):
            out.write("All checks passed!\n")
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


def _s(count: int) -> str:
    return "" if count == 1 else "s"


def fix_marker(diagnostic, options: dict) -> str:
    fix = diagnostic.fix
    if fix is None:
        return ""
    if fix.applicability is Applicability.SAFE:
        return "[*] "
    if fix.applicability is Applicability.UNSAFE and options.get("unsafe_fixes"):
        return "[*] "
    return ""
