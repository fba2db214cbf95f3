"""Each finding with its source line, a marker under the span, and the fix title."""

from __future__ import annotations

from typing import TextIO

from leaselint.diagnostics import Applicability, FileResult
from leaselint.report.summary import fix_marker, write_summary
from leaselint.source import LineIndex


def report(results: list[FileResult], out: TextIO, options: dict) -> None:
    for result in results:
        index = LineIndex(result.original_text if result.fixed_text is None else result.fixed_text) if (
            result.original_text is not None
        ) else None
        for d in result.diagnostics:
            marker = fix_marker(d, options)
            out.write(f"{result.path}:{d.start.line}:{d.start.column + 1}: {d.code} {marker}{d.message}\n")
            if index is not None and d.start.line <= len(index.starts):
                line = index.line_text(d.start.line).expandtabs(1)
                width = len(str(d.start.line))
                end = d.end.column if d.end.line == d.start.line else len(line)
                carets = "^" * max(end - d.start.column, 1)
                gutter = " " * width
                out.write(f"{gutter} |\n{d.start.line} | {line}\n{gutter} | {' ' * d.start.column}{carets} {d.code}\n")
                if d.fix is not None:
                    note = "" if d.fix.applicability is Applicability.SAFE else f" ({d.fix.applicability.value})"
                    out.write(f"{gutter} = help: {d.fix.message}{note}\n")
            out.write("\n")
    write_summary(results, out, options)
